// The type checker's entry points (typecheck.h): find the schemas a definition's fields are read
// against, resolve and abstractly evaluate every jq field (abstract_eval.cpp), run the role rules
// on the results (role_rules.cpp), and report schema load errors, in reading order.
#include "compiler/check/typecheck.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "compiler/check/internal/abstract_eval.h"
#include "compiler/check/internal/field_paths.h"
#include "compiler/check/internal/role_rules.h"
#include "compiler/check/internal/types.h"

namespace wm::check {
namespace {

using internal::AbstractEvaluator;
using internal::FieldResult;
using internal::Result;

constexpr const char* kPodName = "v1 Pod";

// The schemas one definition's fields are evaluated against.
struct DefinitionInputs {
  std::string workload_name;
  const schema::Schema* workload = nullptr;
  const schema::Schema* pod = nullptr;
};

// WM200: the root kind has no schema; other versions of the same kind usually mean a typo.
Diagnostic MissingSchemaNote(const definition::GroupVersionKind& k, const schema::Gvk& gvk,
                             const schema::SchemaRegistry& schemas) {
  DiagnosticBuilder d = MakeDiagnostic(
      kNoSchema, k.location, "no schema for " + gvk.ToString() + "; its jq paths are not type-checked");
  std::string versions;
  for (const schema::Gvk& known : schemas.KnownKinds()) {
    if (known.group == gvk.group && known.kind == gvk.kind && known.version != gvk.version) {
      versions += (versions.empty() ? "" : ", ") + known.version;
    }
  }
  if (!versions.empty()) std::move(d).Note("schemas exist for " + gvk.kind + " versions: " + versions);
  return std::move(d).Note("import its CRD with `wmc schema import`, or pass --crd FILE / --schemas DIR");
}

DefinitionInputs FindInputs(const definition::Definition& def, const schema::SchemaRegistry& schemas,
                            const TypeCheckOptions& options, std::vector<Diagnostic>* out) {
  DefinitionInputs inputs;
  if (def.has_root && def.root.kind && def.root.kind->full()) {
    const definition::GroupVersionKind& k = *def.root.kind;
    schema::Gvk gvk{k.group.value, k.version.value, k.kind.value};
    inputs.workload_name = gvk.ToString();
    inputs.workload = schemas.Lookup(gvk);
    if (!inputs.workload && options.note_missing_schema) {
      out->push_back(MissingSchemaNote(k, gvk, schemas));
    }
  }
  inputs.pod = schemas.Lookup(schema::Gvk{"", "v1", "Pod"});
  return inputs;
}

// What one field yields, or nothing when it did not parse or its input has no schema.
std::optional<Result> EvaluateField(const definition::JqField& field, definition::JqRole role,
                                    const DefinitionInputs& inputs,
                                    const schema::SchemaRegistry& schemas,
                                    const TypeCheckOptions& options, std::vector<Diagnostic>* out) {
  if (!field.parsed()) return std::nullopt;
  bool pod = definition::InputOf(role) == definition::JqInput::kPod;
  const schema::Schema* input = pod ? inputs.pod : inputs.workload;
  if (!input) return std::nullopt;
  jq::Resolution resolution = jq::Resolve(*field.ast);
  AbstractEvaluator evaluator(schemas, field.map, resolution, pod ? kPodName : inputs.workload_name,
                              options.max_depth, out);
  // The top of the object: metadata, spec and status always exist on a stored object.
  return evaluator.Eval(field.ast.get(), evaluator.FromSchema(input, "", ""), 0);
}

// WM214: the registry is shared across definitions, so only the load errors after `before`.
void ReportLoadErrors(const definition::Definition& def, const schema::SchemaRegistry& schemas,
                      size_t before, std::vector<Diagnostic>* out) {
  std::vector<std::string> load_errors = schemas.load_errors();
  for (size_t i = before; i < load_errors.size(); ++i) {
    out->push_back(MakeDiagnostic(kSchemaLoad, Location{def.file}, load_errors[i]));
  }
}

ExpressionType TypeOf(const Result& r) {
  ExpressionType out;
  out.type = internal::Describe(r.type);
  out.cardinality = internal::DescribeCard(r.card);
  if (r.card.max == internal::kMany && r.origin_known) out.iterated = r.origin;
  return out;
}

}  // namespace

std::vector<Diagnostic> TypeCheck(const definition::Definition& definition,
                                  const schema::SchemaRegistry& schemas,
                                  const TypeCheckOptions& options) {
  std::vector<Diagnostic> out;
  size_t load_errors_before = schemas.load_errors().size();
  DefinitionInputs inputs = FindInputs(definition, schemas, options, &out);
  std::vector<FieldResult> results;
  definition::ForEachJqField(definition, [&](std::string_view component, definition::JqRole role,
                                             const definition::JqField& field) {
    std::optional<Result> r = EvaluateField(field, role, inputs, schemas, options, &out);
    if (r) results.push_back({std::string(component), role, &field, std::move(*r)});
  });
  internal::RoleRules(definition, schemas, options, inputs.workload_name, &out).Check(results);
  ReportLoadErrors(definition, schemas, load_errors_before, &out);
  // Reading order (the passes above report field by field, then role by role).
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.location.line != b.location.line) return a.location.line < b.location.line;
    return a.location.column < b.location.column;
  });
  return out;
}

ExpressionType CheckExpression(const jq::Node& ast, const SourceMap& map,
                               const schema::Schema* input, const std::string& input_name,
                               const schema::SchemaRegistry& schemas,
                               std::vector<Diagnostic>* diagnostics,
                               const jq::Resolution* resolution) {
  std::optional<jq::Resolution> own;
  if (resolution == nullptr) resolution = &own.emplace(jq::Resolve(ast));
  AbstractEvaluator evaluator(schemas, map, *resolution, input_name, TypeCheckOptions{}.max_depth,
                              diagnostics);
  internal::AType root = input ? evaluator.FromSchema(input, "", "") : internal::AType::Any();
  return TypeOf(evaluator.Eval(&ast, root, 0));
}

std::vector<CheckedField> CheckDefinitionFields(const definition::Definition& definition,
                                                const schema::SchemaRegistry& schemas,
                                                const TypeCheckOptions& options) {
  std::vector<Diagnostic> ignored;
  DefinitionInputs inputs = FindInputs(definition, schemas, options, &ignored);
  std::map<const definition::JqField*, std::string> paths = internal::JqFieldPaths(definition);
  std::vector<CheckedField> out;
  definition::ForEachJqField(definition, [&](std::string_view component, definition::JqRole role,
                                             const definition::JqField& field) {
    CheckedField checked;
    checked.path = paths[&field];
    checked.component = std::string(component);
    checked.role = std::string(definition::RoleName(role));
    checked.expression = field.text;
    checked.location = field.location;
    std::optional<Result> r = EvaluateField(field, role, inputs, schemas, options, &ignored);
    checked.checked = r.has_value();
    checked.result = TypeOf(r ? *r : internal::Unknown());
    out.push_back(std::move(checked));
  });
  return out;
}

std::string DumpCheckedFields(const std::vector<CheckedField>& fields) {
  std::string out;
  for (const CheckedField& f : fields) {
    out += f.path + ": " + f.expression + " => ";
    if (!f.checked) {
      out += "unchecked\n";
      continue;
    }
    out += f.result.type + ", " + f.result.cardinality;
    if (!f.result.iterated.empty()) out += ", iterates " + f.result.iterated;
    out += "\n";
  }
  return out;
}

}  // namespace wm::check
