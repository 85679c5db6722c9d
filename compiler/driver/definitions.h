// Compiling workload map definitions: expand the inputs -> load (YAML model, jq parsed) ->
// structural rules -> safety policy -> lower every jq field ONCE (name resolution; the IR stays
// on the field's CompiledField) -> type check -> rules across definitions -> (for a bundle)
// catalog, native code and bundle bytes. `wmc check`, `wmc compile` and `wmc schema check` run
// this; no other code strings these stages together.
//
//   driver::DefinitionOptions options;  options.goal = driver::Goal::kBundle;
//   auto compiled = driver::CompileDefinitions({"catalog/"}, options);   // Failure: I/O error
//   Render(compiled->SortedFindings(), compiled->sources, ...);  compiled->bundle->bytes ...
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/bundle/builder.h"
#include "compiler/definition/jq_policy.h"
#include "compiler/definition/model.h"
#include "compiler/driver/phase_times.h"
#include "compiler/driver/stage.h"
#include "compiler/source/diagnostic.h"
#include "compiler/source/render.h"
#include "runtime/ir/ir.h"

namespace wm::schema {
class SchemaRegistry;
}

namespace wm::driver {

// How far CompileDefinitions goes.
enum class Goal : uint8_t {
  kLoad,    // load and parse only (`wmc schema check` runs its own checker on the model)
  kCheck,   // every check `wmc check` reports: rules, policy, lowering, type checking
  kBundle,  // and, when there are no errors, the catalog and the bundle bytes (`wmc compile`)
};

struct DefinitionOptions {
  Goal goal = Goal::kCheck;
  bool type_check = true;                // check jq fields against the CRD / Kubernetes schemas
  std::vector<std::string> schema_dirs;  // `--schemas DIR`, searched before the built-in schemas
  std::vector<std::string> crd_files;    // `--crd FILE`, user CRDs imported in memory
  bool native = true;                    // kBundle: AOT code for what the backends support
  int opt_level = 2;                     // LLVM level of the native code and the llvm/asm dumps
  definition::JqPolicyFlags jq_policy;   // `--allow`, `--policy FILE`, `--target=gojq|jq`
  PhaseTimes* phase_times = nullptr;     // `--time-passes`: wall time per phase, when set
};

struct LoadedFile {
  std::string path;
  std::vector<definition::Definition> definitions;
};

// One jq field of a definition after the front end. Pointers are into CompiledDefinitions::files.
struct CompiledField {
  const definition::Definition* definition = nullptr;
  std::string component;  // owning component ("" for a gang member without componentName)
  definition::JqRole role = definition::JqRole::kInstanceId;
  std::string path;  // Go-style field path ("spec.structureDefinition.rootComponent...")
  const definition::JqField* field = nullptr;
  // Null when the field did not parse, the policy refused it or lowering failed (reported).
  std::shared_ptr<ir::Program> program;
};

struct BundleOutput {
  bundle::Catalog catalog;
  std::string bytes;            // the bundle file, ready for base::WriteFileAtomically
  size_t native_resolvers = 0;  // resolvers with AOT code in the bundle
};

struct CompiledDefinitions {
  std::vector<LoadedFile> files;       // in reading order
  SourceFiles sources;                 // every file's text, for rendering diagnostics
  DiagnosticSink sink;                 // every finding of every stage
  std::vector<CompiledField> fields;   // every jq field: files, definitions, then model order
  std::optional<BundleOutput> bundle;  // Goal::kBundle, no errors and at least one definition
  std::string bundle_error;            // native code generation failed (no bundle then)
  // The schemas the fields were type checked against (for `--emit=checked`); null when type
  // checking was off (`--no-schema-check`) or the goal was kLoad.
  std::shared_ptr<const schema::SchemaRegistry> schemas;

  CompiledDefinitions() = default;
  CompiledDefinitions(CompiledDefinitions&&) = default;  // fields point into files: move only
  CompiledDefinitions& operator=(CompiledDefinitions&&) = default;

  std::vector<const definition::Definition*> Definitions() const;
  // Every finding, files in reading order, each file's findings by position (the stages report
  // in separate passes).
  std::vector<Diagnostic> SortedFindings() const;
};

// Expands `paths` to definition files (*.yaml, *.yml, *.json; directories are walked in sorted
// order, skipping `examples/` folders of workload objects). False with *error when a path does
// not exist or a directory cannot be read.
bool ExpandDefinitionPaths(const std::vector<std::string>& paths, std::vector<std::string>* files,
                           std::string* error);

// Runs the pipeline up to options.goal. A Failure only for I/O errors (a missing path, an
// unreadable file, a schema directory that cannot be loaded); findings are in the result's sink.
Expected<CompiledDefinitions> CompileDefinitions(const std::vector<std::string>& paths,
                                                 const DefinitionOptions& options = {});

// `wmc check|compile --emit=STAGE`: every jq field of every definition, in `fields` order, each
// headed by "// ----- <definition> <field path> (<file>:<line>:<col>)". resolved prints the AST
// with each call's and $variable's binding; checked prints check::DumpCheckedFields' line
// (`PATH: EXPR => TYPE, CARDINALITY[, iterates COLLECTION]`, `=> unchecked` without `schemas` or
// when the input kind has no schema). For llvm and asm a field the native backends do not
// support says so under its header (it runs on the interpreter).
Expected<std::string> EmitDefinitions(const CompiledDefinitions& compiled, Stage stage,
                                      const DefinitionOptions& options = {});

}  // namespace wm::driver
