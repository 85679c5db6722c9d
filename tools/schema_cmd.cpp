// `wmc schema`: placeholder registration until the schema stage lands.
#include <CLI/CLI.hpp>

#include <cstdio>

#include "tools/commands.h"

namespace wm::tools {

void AddSchemaCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("schema", "not built yet");
  cmd->allow_extras();
  cmd->callback([exit_code] {
    std::fprintf(stderr, "wmc schema: not built yet\n");
    *exit_code = 2;
  });
}

}  // namespace wm::tools
