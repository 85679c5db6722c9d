// wmc: the command-line driver. Registers every subcommand (one file each) and maps CLI11 usage
// errors to exit code 2. No exception escapes: an unexpected one is reported and exits 2.
// Installed also as `kubectl-wm` (a symlink), so `kubectl wm get -f ...` runs the same commands.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "tools/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"wmc - compiler and validator for Kubernetes workload map definitions"};
  app.name("wmc");
  app.require_subcommand(1);
  app.set_version_flag("--version", [] { return wm::tools::VersionText(); },
                       "Print the version, the bundle format and the built-in catalog's hash");
  int exit_code = 0;
  wm::tools::AddParseCommand(app, &exit_code);
  wm::tools::AddEvalCommand(app, &exit_code);
  wm::tools::AddCheckCommand(app, &exit_code);
  wm::tools::AddCompileCommand(app, &exit_code);
  wm::tools::AddInspectCommand(app, &exit_code);
  wm::tools::AddBundleCommand(app, &exit_code);
  wm::tools::AddSchemaCommand(app, &exit_code);
  wm::tools::AddWriteCommands(app, &exit_code);
  wm::tools::AddPodsCommand(app, &exit_code);
  wm::tools::AddGangsCommand(app, &exit_code);
  wm::tools::AddDefinitionsCommand(app, &exit_code);
  wm::tools::AddGetCommand(app, &exit_code);
  wm::tools::AddDescribeCommand(app, &exit_code);
  wm::tools::AddValidateCommand(app, &exit_code);
  wm::tools::AddCompletionCommand(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wmc: internal error: %s\n", e.what());
    return 2;
  }
  return exit_code;
}
