// `wmc eval`: placeholder registration until the stage lands.
#include <CLI/CLI.hpp>

#include <cstdio>

#include "tools/commands.h"

namespace wm::tools {

void AddEvalCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("eval", "not built yet");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::fprintf(stderr, "wmc eval: not built yet\n");
    *exit_code = 2;
  });
}

}  // namespace wm::tools
