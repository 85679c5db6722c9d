// `wmc inspect`: placeholder registration until the stage lands.
#include <CLI/CLI.hpp>

#include <cstdio>

#include "tools/commands.h"

namespace wm::tools {

void AddInspectCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("inspect", "not built yet");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::fprintf(stderr, "wmc inspect: not built yet\n");
    *exit_code = 2;
  });
}

}  // namespace wm::tools
