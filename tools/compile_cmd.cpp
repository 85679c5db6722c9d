// `wmc compile DIR|FILE... -o OUT.wmb [--no-native] [-O 0-3] [--time-passes]`: checks every definition (the same rules and
// diagnostics as `wmc check`), lowers every jq field to IR once, compiles what the native backend
// supports to one AOT shared object, and writes the bundle atomically (all through
// compiler/driver). Any error leaves OUT as it was. Exit 0 on success, 1 when definitions have
// errors, 2 on usage, I/O or codegen failure. `--emit=STAGE [-o FILE]` prints every jq field at
// that stage instead of writing a bundle (tools/emit_output.h). On success it prints the bundle's
// SHA-256 (stderr), the digest `--expect-sha256` pins.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/sha256.h"
#include "compiler/driver/definitions.h"
#include "compiler/source/render.h"
#include "tools/cli_output.h"
#include "tools/commands.h"
#include "tools/emit_output.h"

namespace wm::tools {
namespace {

struct CompileOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string emit;  // "" = write a bundle; else the stage to dump
  bool time_passes = false;  // print the wall time of each compiler phase on stderr
  driver::DefinitionOptions driver;
};

int RunCompile(const CompileOptions& o) {
  if (!o.emit.empty()) return EmitDefinitionStage({"wmc compile", o.emit, o.inputs, o.driver, o.output});
  // -o is required unless --emit prints a stage; CLI11 reports it as it does a required option.
  if (o.output.empty()) throw CLI::RequiredError("--output");
  driver::DefinitionOptions options = o.driver;
  options.goal = driver::Goal::kBundle;
  driver::PhaseTimes times;
  if (o.time_passes) options.phase_times = &times;
  driver::Expected<driver::CompiledDefinitions> run = driver::CompileDefinitions(o.inputs, options);
  if (!run.ok()) {
    std::fprintf(stderr, "wmc compile: %s\n", run.failure().message.c_str());
    return 2;
  }
  if (!run->sink.items().empty()) {
    WriteText(Render(run->SortedFindings(), run->sources, DiagnosticFormat::kText), stderr);
  }
  if (run->sink.errors() > 0) {
    std::fprintf(stderr, "wmc compile: %d error(s); %s not written\n", run->sink.errors(),
                 o.output.c_str());
    return 1;
  }
  size_t definitions = run->Definitions().size();
  if (definitions == 0) {
    std::fprintf(stderr, "wmc compile: no definitions found in the inputs; %s not written\n",
                 o.output.c_str());
    return 1;
  }
  if (!run->bundle) {
    std::fprintf(stderr, "wmc compile: %s\n", run->bundle_error.c_str());
    return 2;
  }
  std::string error;
  if (!base::WriteFileAtomically(o.output, run->bundle->bytes, &error, {FilesReadBy(o.inputs, o.driver)})) {
    std::fprintf(stderr, "wmc compile: %s\n", error.c_str());
    return 2;
  }
  std::fprintf(stderr, "wmc compile: %zu definitions, %zu resolvers (%zu native) -> %s\n",
               definitions, run->bundle->catalog.resolvers.size(), run->bundle->native_resolvers,
               o.output.c_str());
  // The whole file's digest cannot be inside it: printed here for consumers to pin it
  // (`--expect-sha256`, wm_bundle_open_pinned).
  std::fprintf(stderr, "wmc compile: sha256 %s\n", base::Sha256Hex(run->bundle->bytes).c_str());
  if (o.time_passes) std::fprintf(stderr, "wmc compile: time per phase\n%s", times.Report().c_str());
  return 0;
}

}  // namespace

void AddCompileCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CompileOptions>();
  auto* cmd = app.add_subcommand("compile", "Check and compile definitions into a catalog bundle");
  cmd->add_option("inputs", options->inputs, "Definition files or directories")->required();
  cmd->add_option("-o,--output", options->output,
                  "Bundle to write (.wmb); with --emit, the dump's file (default: stdout)");
  cmd->add_flag("--no-native", [options](int64_t) { options->driver.native = false; },
                "Do not generate native code (the bundle runs on the interpreter)");
  cmd->add_option("--emit", options->emit,
                  "Print every jq field at a stage instead of writing a bundle: " +
                      driver::StageNames());
  cmd->add_option("-O,--opt-level", options->driver.opt_level,
                  "LLVM optimisation level of the native code, 0-3 (default 2)")
      ->check(CLI::Range(0, 3));
  cmd->add_flag("--time-passes", options->time_passes,
                "Print the wall time of each compiler phase (parsing, checks, LLVM, link) on stderr");
  AddDefinitionInputOptions(cmd, &options->driver);
  cmd->callback([options, exit_code] { *exit_code = RunCompile(*options); });
}

}  // namespace wm::tools
