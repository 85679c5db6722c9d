// The wmc subcommands. Each lives in its own file (tools/<name>_cmd.cpp) and registers itself on
// the CLI11 app; its callback stores the process exit code in *exit_code.
// Exit codes shared by all commands: 0 success/clean, 1 findings (or a failed lookup),
// 2 usage or I/O error; `eval` follows jq: 3 the expression does not compile, 5 runtime error.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace wm {
struct EvalLimits;
}

namespace wm::tools {

// --max-results, --max-steps, --max-memory, --timeout-ms: the per-evaluation limits of
// docs/limits.md, for every command that evaluates jq (eval_cmd.cpp).
void AddEvalLimitOptions(CLI::App* cmd, EvalLimits* limits);

void AddParseCommand(CLI::App& app, int* exit_code);    // parse_cmd.cpp
void AddEvalCommand(CLI::App& app, int* exit_code);     // eval_cmd.cpp
void AddCheckCommand(CLI::App& app, int* exit_code);    // check_cmd.cpp
void AddCompileCommand(CLI::App& app, int* exit_code);  // compile_cmd.cpp
void AddInspectCommand(CLI::App& app, int* exit_code);  // inspect_cmd.cpp
void AddBundleCommand(CLI::App& app, int* exit_code);   // bundle_cmd.cpp (`wmc bundle info`)
void AddSchemaCommand(CLI::App& app, int* exit_code);   // schema_cmd.cpp (`wmc schema import`)
void AddWriteCommands(CLI::App& app, int* exit_code);   // writes_cmd.cpp (suspend, resume, update)
void AddPodsCommand(CLI::App& app, int* exit_code);     // pods_cmd.cpp
void AddGangsCommand(CLI::App& app, int* exit_code);    // gangs_cmd.cpp
void AddDefinitionsCommand(CLI::App& app, int* exit_code);  // definitions_cmd.cpp
void AddGetCommand(CLI::App& app, int* exit_code);          // get_cmd.cpp (`wmc get -f FILE`)
void AddValidateCommand(CLI::App& app, int* exit_code);     // validate_cmd.cpp (kli validate)
void AddDescribeCommand(CLI::App& app, int* exit_code);     // describe_cmd.cpp (kli describe -f)
// `wmc completion bash|zsh|fish`: scripts generated from `app`'s command tree (completion_cmd.cpp).
void AddCompletionCommand(CLI::App& app, int* exit_code);

// What `wmc --version` prints: the version, the bundle format version and the built-in
// catalog's path, definition count and content hash (completion_cmd.cpp).
std::string VersionText();

}  // namespace wm::tools
