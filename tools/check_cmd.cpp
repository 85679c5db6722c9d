// `wmc check [--format=text|json|sarif|github] [--werror] [--max-errors N] [--allow ITEM]...
// [--policy FILE] [--target=gojq|jq] FILE|DIR...`: loads
// every definition (directories are walked for *.yaml, *.yml, *.json, skipping `examples/`), runs
// the driver's checks (rules, policy, lowering, type checking) and prints every finding. Exit 0
// clean, 1 findings (errors, or warnings with --werror), 2 usage or I/O error.
// `--emit=STAGE [-o FILE]` prints every jq field at that stage instead (tools/emit_output.h).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "compiler/driver/definitions.h"
#include "compiler/source/render.h"
#include "tools/cli_output.h"
#include "tools/commands.h"
#include "tools/emit_output.h"

namespace wm::tools {
namespace {

struct CheckOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  bool werror = false;
  int max_errors = 0;  // 0 = report every error
  std::string emit;    // "" = report findings; else the stage to dump
  std::string output;  // with --emit: the file to write ("" = stdout)
  driver::DefinitionOptions check;
};

int RunCheck(const CheckOptions& o) {
  DiagnosticFormat format;
  if (o.format == "text") format = DiagnosticFormat::kText;
  else if (o.format == "json") format = DiagnosticFormat::kJson;
  else if (o.format == "sarif") format = DiagnosticFormat::kSarif;
  else if (o.format == "github") format = DiagnosticFormat::kGithub;
  else {
    std::fprintf(stderr, "wmc check: unknown format '%s' (text, json, sarif, github)\n",
                 o.format.c_str());
    return 2;
  }
  if (o.max_errors < 0) {
    std::fprintf(stderr, "wmc check: --max-errors must be >= 0\n");
    return 2;
  }
  if (!o.emit.empty()) {
    return EmitDefinitionStage({"wmc check", o.emit, o.inputs, o.check, o.output, format});
  }
  if (!o.output.empty()) {
    std::fprintf(stderr, "wmc check: -o is only used with --emit\n");
    return 2;
  }
  driver::Expected<driver::CompiledDefinitions> run = driver::CompileDefinitions(o.inputs, o.check);
  if (!run.ok()) {
    std::fprintf(stderr, "wmc check: %s\n", run.failure().message.c_str());
    return 2;
  }

  std::vector<Diagnostic> items = run->SortedFindings();
  int errors = 0, warnings = 0;
  size_t shown = items.size();
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].severity == Severity::Error) ++errors;
    if (items[i].severity == Severity::Warning) ++warnings;
    if (o.max_errors > 0 && errors == o.max_errors && shown == items.size()) shown = i + 1;
  }
  bool truncated = shown < items.size();
  items.resize(shown);
  std::string out = Render(items, run->sources, format);
  WriteText(out);
  if (truncated) {
    std::fprintf(stderr, "wmc check: stopped after %d errors (--max-errors)\n", o.max_errors);
  }
  if (format == DiagnosticFormat::kText && (errors || warnings)) {
    std::fprintf(stderr, "%d error%s, %d warning%s\n", errors, errors == 1 ? "" : "s", warnings,
                 warnings == 1 ? "" : "s");
  }
  if (errors > 0 || (o.werror && warnings > 0)) return 1;
  return 0;
}

}  // namespace

void AddCheckCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand("check", "validate workload map definitions");
  cmd->add_option("inputs", options->inputs, "definition files or directories")->required();
  cmd->add_option("--format", options->format, "output format: text, json, sarif, github")
      ->capture_default_str();
  cmd->add_flag("--werror", options->werror, "treat warnings as errors (exit 1)");
  cmd->add_option("--max-errors", options->max_errors,
                  "stop reporting after N errors (0 = no limit)");
  AddDefinitionInputOptions(cmd, &options->check);
  cmd->add_flag("--no-schema-check", [options](int64_t) { options->check.type_check = false; },
                "skip type checking against CRD schemas");
  cmd->add_option("--emit", options->emit,
                  "print every jq field at a stage instead of the findings: " +
                      driver::StageNames());
  cmd->add_option("-o,--output", options->output, "with --emit: write the dump to FILE");
  cmd->callback([options, exit_code] { *exit_code = RunCheck(*options); });
}

}  // namespace wm::tools
