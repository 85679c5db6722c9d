// `wmc check`: placeholder registration until the stage lands.
#include <CLI/CLI.hpp>

#include <cstdio>

#include "tools/commands.h"

namespace wm::tools {

void AddCheckCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("check", "not built yet");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::fprintf(stderr, "wmc check: not built yet\n");
    *exit_code = 2;
  });
}

}  // namespace wm::tools
