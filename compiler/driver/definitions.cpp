// The definition pipeline (see definitions.h). Stages in order, one function each: ReadInputs
// (expand, read, load: Stage::kAst), CheckAndLower per definition (structural rules, safety
// policy, lowering = name resolution: Stage::kResolved / kIr, type checking: Stage::kChecked, whose
// dump re-runs the checker per field on the registry kept in CompiledDefinitions::schemas),
// the rules across definitions, and BuildBundle (catalog from the already-lowered IR, native
// code, bundle bytes: Stage::kLlvm / kAsm). The diagnostics of one definition are reported in
// that stage order, which decides the order of findings at the same position.
#include "compiler/driver/definitions.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>

#include "compiler/check/typecheck.h"
#include "compiler/codegen/codegen.h"
#include "compiler/definition/loader.h"
#include "compiler/definition/rules.h"
#include "compiler/driver/expression.h"
#include "compiler/driver/internal/dump.h"
#include "compiler/jq/parser.h"
#include "compiler/lower/lower.h"
#include "compiler/schema/registry.h"
#include "base/file.h"
#include "runtime/bundle/bundle.h"

namespace wm::driver {
namespace fs = std::filesystem;
namespace {

bool IsDefinitionFile(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// Field rules (upstream admission, policy, portability), then lowering, of one parsed field;
// every finding goes to `sink`. A field the policy refuses is not lowered: its forbidden builtins
// would only repeat as "not defined".
std::shared_ptr<ir::Program> LowerField(const definition::Definition& def, std::string_view component,
                                        definition::JqRole role, const definition::JqField& field,
                                        const definition::JqRuleOptions& rules, DiagnosticSink& sink) {
  if (!definition::CheckJqFieldRules(def, component, role, field, rules, sink)) return nullptr;
  lower::LowerOptions options;
  options.source_map = field.map;
  lower::LowerResult lowered = lower::Lower(*field.ast, field.text, options);
  for (Diagnostic& d : lowered.diagnostics) sink.Report(std::move(d));
  return std::move(lowered.program);
}

// Rules, policy, lowering and type checking of one loaded definition.
void CheckAndLower(const definition::Definition& def, const definition::JqRuleOptions& rules,
                   const schema::SchemaRegistry* schemas, PhaseTimes* times, CompiledDefinitions& out) {
  std::optional<ScopedPhase> phase(std::in_place, times, "rules and lowering");
  definition::CheckDefinition(def, out.sink);
  definition::ForEachJqFieldWithPath(
      def, [&](std::string_view component, definition::JqRole role, const std::string& path,
               const definition::JqField& field) {
        CompiledField compiled{&def, std::string(component), role, path, &field, nullptr};
        if (field.parsed()) compiled.program = LowerField(def, component, role, field, rules, out.sink);
        out.fields.push_back(std::move(compiled));
      });
  if (!schemas) return;
  phase.emplace(times, "type checking");
  for (Diagnostic& finding : check::TypeCheck(def, *schemas)) out.sink.Report(std::move(finding));
}

// The catalog from the lowered fields, AOT code for what the backends support, and the bundle.
void BuildBundle(const DefinitionOptions& options, CompiledDefinitions& out) {
  std::optional<ScopedPhase> phase(std::in_place, options.phase_times, "catalog");
  bundle::FieldPrograms programs;
  for (const CompiledField& f : out.fields) {
    if (f.program) programs.emplace(f.field, f.program);
  }
  BundleOutput built;
  if (!bundle::BuildCatalog(out.Definitions(), programs, &built.catalog)) {
    out.bundle_error = "a jq field has no resolver program";
    return;
  }
  bundle::BundleContents contents;
  contents.catalog = &built.catalog;
  std::vector<codegen::AotUnit> units;
  for (size_t i = 0; options.native && i < built.catalog.resolvers.size(); ++i) {
    bundle::Resolver& r = built.catalog.resolvers[i];
    if (!codegen::Supports(*r.program, nullptr)) continue;
    r.info.native_symbol = "wm_resolver_" + std::to_string(i);
    units.push_back({r.info.native_symbol, r.program});
  }
  if (!units.empty()) {
    codegen::CodegenOptions native;
    native.opt_level = options.opt_level;
    if (options.phase_times != nullptr) {
      phase.reset();
      native.on_phase = [times = options.phase_times](const char* name, double seconds) {
        times->Add(name, seconds);
      };
    }
    codegen::AotResult aot = codegen::CompileAot(units, native);
    if (aot.shared_object.empty()) {
      out.bundle_error = "native code generation failed: " + aot.error;
      return;
    }
    contents.native_object = std::move(aot.shared_object);
    contents.target = HostTarget();
    built.native_resolvers = units.size();
  }
  phase.emplace(options.phase_times, "bundle bytes");
  built.bytes = bundle::SerializeBundle(contents);
  out.bundle = std::move(built);
}

// The type checker's view of every field, by definition and field path (`--emit=checked`).
using CheckedFields =
    std::map<std::pair<const definition::Definition*, std::string>, check::CheckedField>;

CheckedFields CheckAllFields(const CompiledDefinitions& compiled) {
  CheckedFields out;
  for (const definition::Definition* def : compiled.Definitions()) {
    for (check::CheckedField& f : check::CheckDefinitionFields(*def, *compiled.schemas)) {
      std::string path = f.path;
      out.emplace(std::make_pair(def, std::move(path)), std::move(f));
    }
  }
  return out;
}

// One field's `--emit=checked` line; "=> unchecked" when the checker did not see it (type
// checking off, or the field is not in `checked`).
std::string DumpCheckedField(const CompiledField& field, const CheckedFields& checked) {
  auto it = checked.find({field.definition, field.path});
  if (it != checked.end()) return check::DumpCheckedFields({it->second});
  check::CheckedField unchecked;
  unchecked.path = field.path;
  unchecked.expression = field.field->text;
  return check::DumpCheckedFields({unchecked});
}

}  // namespace

bool ExpandDefinitionPaths(const std::vector<std::string>& paths, std::vector<std::string>* files,
                           std::string* error) {
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      *error = path + ": no such file or directory";
      return false;
    }
    if (!fs::is_directory(status)) {
      files->push_back(path);
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec),
        end;
    for (; !ec && it != end; it.increment(ec)) {
      if (it->is_directory() && it->path().filename() == "examples") {
        it.disable_recursion_pending();  // workload objects, not definitions
        continue;
      }
      if (it->is_regular_file() && IsDefinitionFile(it->path()))
        found.push_back(it->path().string());
    }
    if (ec) {
      *error = path + ": cannot read directory: " + ec.message();
      return false;
    }
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  }
  return true;
}

Expected<CompiledDefinitions> CompileDefinitions(const std::vector<std::string>& paths,
                                                 const DefinitionOptions& options) {
  std::vector<std::string> files;
  std::string error;
  if (!ExpandDefinitionPaths(paths, &files, &error))
    return Failure::WithMessage(Stage::kAst, error);
  std::shared_ptr<const schema::SchemaRegistry> schemas;
  if (options.goal != Goal::kLoad && options.type_check) {
    ScopedPhase phase(options.phase_times, "schema loading");
    schema::RegistryOptions registry_options;
    registry_options.schema_dirs = options.schema_dirs;
    registry_options.crd_files = options.crd_files;
    schemas = schema::SchemaRegistry::Create(registry_options, &error);
    if (!schemas) return Failure::WithMessage(Stage::kAst, error);
  }
  CompiledDefinitions out;
  out.schemas = schemas;
  // An invalid policy is reported like a definition error (WM008), and nothing is checked.
  definition::JqRuleOptions rules;
  std::string policy_text;
  bool policy_ok = definition::ResolveJqRules(options.jq_policy, &rules, out.sink, &policy_text);
  if (!options.jq_policy.policy_file.empty()) out.sources.Add(options.jq_policy.policy_file, policy_text);
  if (!policy_ok) return out;
  for (const std::string& file : files) {
    std::string text;
    if (!base::ReadWholeFile(file, &text, &error)) return Failure::WithMessage(Stage::kAst, error);
    // Into place first: CompiledField points at the definitions, which must not move after.
    out.files.push_back({file, {}});
    LoadedFile& loaded = out.files.back();
    {
      ScopedPhase phase(options.phase_times, "YAML and jq parsing");
      loaded.definitions =
          definition::LoadDefinitions(file, text, definition::LoadOptions{}, out.sink).definitions;
    }
    if (options.goal != Goal::kLoad) {
      for (const auto& d : loaded.definitions) {
        CheckAndLower(d, rules, schemas.get(), options.phase_times, out);
      }
    }
    out.sources.Add(file, std::move(text));
  }
  if (options.goal == Goal::kLoad) return out;
  {
    ScopedPhase phase(options.phase_times, "rules across definitions");
    definition::CheckDefinitionSet(out.Definitions(), out.sink);
  }
  if (options.goal == Goal::kBundle && out.sink.errors() == 0 && !out.Definitions().empty()) {
    BuildBundle(options, out);
  }
  return out;
}

std::vector<const definition::Definition*> CompiledDefinitions::Definitions() const {
  std::vector<const definition::Definition*> all;
  for (const LoadedFile& file : files) {
    for (const definition::Definition& d : file.definitions) all.push_back(&d);
  }
  return all;
}

std::vector<Diagnostic> CompiledDefinitions::SortedFindings() const {
  std::map<std::string, size_t> file_rank;
  for (size_t i = 0; i < files.size(); ++i) file_rank.emplace(files[i].path, i);
  std::vector<Diagnostic> items = sink.items();
  auto rank = [&](const Diagnostic& d) {
    auto it = file_rank.find(d.location.file);
    return it == file_rank.end() ? file_rank.size() : it->second;
  };
  std::stable_sort(items.begin(), items.end(), [&](const Diagnostic& a, const Diagnostic& b) {
    size_t ra = rank(a), rb = rank(b);
    if (ra != rb) return ra < rb;
    if (a.location.line != b.location.line) return a.location.line < b.location.line;
    return a.location.column < b.location.column;
  });
  return items;
}

Expected<std::string> EmitDefinitions(const CompiledDefinitions& compiled, Stage stage,
                                      const DefinitionOptions& options) {
  CheckedFields checked;
  if (stage == Stage::kChecked && compiled.schemas) checked = CheckAllFields(compiled);
  std::string out;
  for (size_t i = 0; i < compiled.fields.size(); ++i) {
    const CompiledField& f = compiled.fields[i];
    const Location& at = f.field->location;
    out += "// ----- " + f.definition->name.value + " " + f.path + " (" + at.file + ":" +
           std::to_string(at.line) + ":" + std::to_string(at.column) + ")\n";
    if (stage == Stage::kChecked) {
      out += DumpCheckedField(f, checked);
      continue;
    }
    if ((stage == Stage::kAst || stage == Stage::kResolved) && f.field->ast) {
      const jq::Node& ast = *f.field->ast;
      out += stage == Stage::kAst ? jq::DumpAst(ast) : internal::DumpResolved(ast);
      continue;
    }
    if (!f.program)
      return Failure::WithMessage(stage,
                                  f.path + " of " + f.definition->name.value + " did not compile");
    if (stage != Stage::kIr) {
      if (std::string why = NativeUnsupportedReason(*f.program); !why.empty()) {
        out += "// runs on the interpreter: the native backends do not support " + why + "\n";
        continue;
      }
    }
    Expected<std::string> dump =
        internal::DumpProgram(f.program, stage, "wm_field_" + std::to_string(i), options.opt_level);
    if (!dump.ok()) return dump.failure();
    out += *dump;
  }
  return out;
}

}  // namespace wm::driver
