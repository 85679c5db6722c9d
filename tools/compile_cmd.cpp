// `wmc compile DIR|FILE... -o OUT.wmb [--no-native]`: checks every definition (the same rules and
// diagnostics as `wmc check`), lowers every jq field to IR, compiles what the native backend
// supports to one AOT shared object, and writes the bundle atomically. Any error leaves OUT as it
// was. Exit 0 on success, 1 when definitions have errors, 2 on usage, I/O or codegen failure.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "compiler/bundle/builder.h"
#include "compiler/codegen/codegen.h"
#include "compiler/source/render.h"
#include "tools/commands.h"
#include "tools/definition_input.h"

namespace wm::tools {
namespace {

struct CompileOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool no_native = false;
  CheckInputOptions check;
};

int RunCompile(const CompileOptions& o) {
  DefinitionRun run;
  if (!LoadAndCheck(o.inputs, &run, o.check)) {
    std::fprintf(stderr, "wmc compile: %s\n", run.io_error.c_str());
    return 2;
  }
  std::vector<const definition::Definition*> defs;
  for (const auto& file : run.files) {
    for (const auto& d : file.definitions) defs.push_back(&d);
  }
  bundle::Catalog catalog;
  if (run.sink.errors() == 0) bundle::BuildCatalog(defs, &catalog, &run.sink);
  if (!run.sink.items().empty()) {
    std::fputs(Render(SortedFindings(run), run.sources, DiagnosticFormat::kText).c_str(), stderr);
  }
  if (run.sink.errors() > 0) {
    std::fprintf(stderr, "wmc compile: %d error(s); %s not written\n", run.sink.errors(),
                 o.output.c_str());
    return 1;
  }
  if (defs.empty()) {
    std::fprintf(stderr, "wmc compile: no definitions found in the inputs; %s not written\n",
                 o.output.c_str());
    return 1;
  }

  bundle::BundleContents contents;
  contents.catalog = &catalog;
  size_t native = 0;
  if (!o.no_native) {
    std::vector<codegen::AotUnit> units;
    for (size_t i = 0; i < catalog.resolvers.size(); ++i) {
      auto& r = catalog.resolvers[i];
      std::string why;
      if (!codegen::Supports(*r.program, &why)) continue;
      r.info.native_symbol = "wm_resolver_" + std::to_string(i);
      units.push_back({r.info.native_symbol, r.program});
    }
    if (!units.empty()) {
      codegen::AotResult aot = codegen::CompileAot(units);
      if (aot.shared_object.empty()) {
        std::fprintf(stderr, "wmc compile: native code generation failed: %s\n", aot.error.c_str());
        return 2;
      }
      contents.native_object = std::move(aot.shared_object);
      contents.target = HostTarget();
      native = units.size();
    }
  }
  std::string error;
  if (!bundle::WriteFileAtomically(o.output, bundle::SerializeBundle(contents), &error)) {
    std::fprintf(stderr, "wmc compile: %s\n", error.c_str());
    return 2;
  }
  std::fprintf(stderr, "wmc compile: %zu definitions, %zu resolvers (%zu native) -> %s\n",
               defs.size(), catalog.resolvers.size(), native, o.output.c_str());
  return 0;
}

}  // namespace

void AddCompileCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CompileOptions>();
  auto* cmd = app.add_subcommand("compile", "Check and compile definitions into a catalog bundle");
  cmd->add_option("inputs", options->inputs, "Definition files or directories")->required();
  cmd->add_option("-o,--output", options->output, "Bundle to write (.wmb)")->required();
  cmd->add_flag("--no-native", options->no_native,
                "Do not generate native code (the bundle runs on the interpreter)");
  cmd->add_option("--schemas", options->check.schema_dirs,
                  "Directory of compact schemas searched before the built-in ones")
      ->allow_extra_args(false);
  cmd->add_option("--crd", options->check.crd_files, "CustomResourceDefinition file of a user kind")
      ->allow_extra_args(false);
  cmd->add_option("--allow", options->check.jq_policy.allow,
                  "Allow a policy item or portability rule (name or id; repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--policy", options->check.jq_policy.policy_file,
                  "Policy file (YAML/JSON): allow: [items], target: gojq|jq");
  cmd->add_option("--target", options->check.jq_policy.target,
                  "Engine whose portability is checked: gojq (default) or jq");
  cmd->callback([options, exit_code] { *exit_code = RunCompile(*options); });
}

}  // namespace wm::tools
