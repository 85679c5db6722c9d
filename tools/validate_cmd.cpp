// `wmc validate FILE|- [-q] [--schemas DIR] [--crd FILE] [--allow ITEM] [--policy FILE]
// [--target gojq|jq]`: `kli validate` on top of wmc's checks, for people switching from kli.
// stdout carries kli's lines: `OK: <file> is a valid Karta definition (GVK: <group/version,
// Kind=K>)` per definition, or `INVALID: <file>` and one `  <line>:<col>: <message> [WMnnn]` line
// per error; then `error: <n> finding(s) in <file>` on stderr. wmc's full diagnostics (source
// line, caret, notes, warnings too) follow on stderr unless -q. Every check `wmc check` runs
// counts (rules, policy, portability, schema type checks), so wmc is stricter than kli.
// Exit 0 valid, 1 findings, 2 unreadable or unparsable file (`parse <file>: ...`) or usage.
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

struct ValidateOptions {
  std::string file;
  std::string output;  // -o is accepted by the parser only to be refused with kli's message
  bool quiet = false;
  driver::DefinitionOptions check;
};

// Rules that mean the file could not be read as YAML at all (kli: parse error, exit 2).
bool IsParseFailure(const Diagnostic& d) { return d.rule == "WM001" || d.rule == "WM007"; }

// The root kind as Kubernetes prints a GVK: "group/version, Kind=Kind" ("v1, Kind=Pod" for core).
std::string RootGvk(const definition::Definition& d) {
  return d.root.kind ? d.root.kind->ToString() : ", Kind=";
}

std::string FindingLine(const Diagnostic& d) {
  std::string at;
  if (d.location.line > 0) {
    at = std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + ": ";
  }
  return at + d.message + " [" + d.rule + "]";
}

int RunValidate(const ValidateOptions& o) {
  if (!o.output.empty()) {
    std::fputs("error: --output is not supported by wmc validate\n", stderr);
    return 2;
  }
  // kli names standard input "stdin"; the driver reads it through /dev/stdin.
  std::string name = o.file == "-" ? "stdin" : o.file;
  driver::DefinitionOptions options = o.check;
  options.goal = driver::Goal::kCheck;
  driver::Expected<driver::CompiledDefinitions> run =
      driver::CompileDefinitions({o.file == "-" ? "/dev/stdin" : o.file}, options);
  if (!run.ok()) {
    std::fprintf(stderr, "error: read definition: %s\n", run.failure().message.c_str());
    return 2;
  }
  std::vector<Diagnostic> findings = run->SortedFindings();
  std::vector<const Diagnostic*> errors;
  for (const Diagnostic& d : findings) {
    if (d.severity != Severity::Error) continue;
    if (IsParseFailure(d)) {
      std::fprintf(stderr, "error: parse %s: %s\n", name.c_str(), FindingLine(d).c_str());
      return 2;
    }
    errors.push_back(&d);
  }
  std::vector<const definition::Definition*> definitions = run->Definitions();
  if (errors.empty() && !definitions.empty()) {
    for (const auto* d : definitions) {
      std::printf("OK: %s is a valid Karta definition (GVK: %s)\n", name.c_str(),
                  RootGvk(*d).c_str());
    }
  } else {
    std::printf("INVALID: %s\n", name.c_str());
    for (const Diagnostic* d : errors) std::printf("  %s\n", FindingLine(*d).c_str());
    if (errors.empty()) std::printf("  no Karta definition in the file\n");
  }
  std::fflush(stdout);
  size_t count = errors.empty() && definitions.empty() ? 1 : errors.size();
  if (count > 0) std::fprintf(stderr, "error: %zu finding(s) in %s\n", count, name.c_str());
  if (!o.quiet && !findings.empty()) {
    WriteText(Render(findings, run->sources, DiagnosticFormat::kText), stderr);
  }
  return count > 0 ? 1 : 0;
}

}  // namespace

void AddValidateCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<ValidateOptions>();
  auto* cmd = app.add_subcommand("validate", "Check a Karta definition file before applying it (kli validate)");
  cmd->add_option("file", o->file, "Definition file, - for stdin")->required()->type_name("FILE");
  cmd->add_flag("-q,--quiet", o->quiet, "Print only kli's lines, not wmc's diagnostics");
  cmd->add_option("-o,--output", o->output, "Not supported (kli refuses it too)")->group("");
  AddDefinitionInputOptions(cmd, &o->check);
  cmd->callback([o, exit_code] { *exit_code = RunValidate(*o); });
}

}  // namespace wm::tools
