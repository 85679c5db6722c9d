// `wmc check [--format=text|json|sarif|github] [--werror] [--max-errors N] [--allow ITEM]...
// [--policy FILE] [--target=gojq|jq] FILE|DIR...`: loads
// every definition (directories are walked for *.yaml, *.yml, *.json, skipping `examples/`), runs
// the structural rules and prints every finding. Exit 0 clean, 1 findings (errors, or warnings
// with --werror), 2 usage or I/O error.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "compiler/source/render.h"
#include "tools/commands.h"
#include "tools/definition_input.h"

namespace wm::tools {
namespace {

struct CheckOptions {
  std::vector<std::string> inputs;
  std::string format = "text";
  bool werror = false;
  int max_errors = 0;  // 0 = report every error
  CheckInputOptions check;
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
  DefinitionRun run;
  if (!LoadAndCheck(o.inputs, &run, o.check)) {
    std::fprintf(stderr, "wmc check: %s\n", run.io_error.c_str());
    return 2;
  }

  std::vector<Diagnostic> items = SortedFindings(run);
  int errors = 0, warnings = 0;
  size_t shown = items.size();
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].severity == Severity::Error) ++errors;
    if (items[i].severity == Severity::Warning) ++warnings;
    if (o.max_errors > 0 && errors == o.max_errors && shown == items.size()) shown = i + 1;
  }
  bool truncated = shown < items.size();
  items.resize(shown);
  std::string out = Render(items, run.sources, format);
  std::fputs(out.c_str(), stdout);
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
  cmd->add_option("--schemas", options->check.schema_dirs,
                  "directory of compact schemas searched before the built-in ones")
      ->allow_extra_args(false);
  cmd->add_option("--crd", options->check.crd_files, "CustomResourceDefinition file of a user kind")
      ->allow_extra_args(false);
  cmd->add_option("--allow", options->check.jq_policy.allow,
                  "allow a policy item or portability rule (name or id; repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--policy", options->check.jq_policy.policy_file,
                  "policy file (YAML/JSON): allow: [items], target: gojq|jq");
  cmd->add_option("--target", options->check.jq_policy.target,
                  "engine whose portability is checked: gojq (default) or jq");
  cmd->add_flag("--no-schema-check", [options](int64_t) { options->check.type_check = false; },
                "skip type checking against CRD schemas");
  cmd->callback([options, exit_code] { *exit_code = RunCheck(*options); });
}

}  // namespace wm::tools
