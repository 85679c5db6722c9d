// The type checker: abstract interpretation of every jq field of a definition (its parsed AST,
// after name resolution) over a type lattice derived from the CRD / Kubernetes schemas, plus role
// and cardinality rules.
//
//   std::vector<Diagnostic> TypeCheck(const definition::Definition& def,
//                                     const schema::SchemaRegistry& schemas,
//                                     const TypeCheckOptions& options = {});
//   std::vector<CheckedField> CheckDefinitionFields(def, schemas);   // --emit=checked
//
// Workload paths (JqInput::kWorkload, of every component) are checked against the schema of the
// ROOT component's kind; pod paths (JqInput::kPod) against core v1 Pod. Fields whose jq did not
// parse are skipped (the parser already reported them). Calls are checked by what they bind to
// (compiler/jq/resolve.h): a local `def keys: ...;` is evaluated through its body, never as the
// builtin. Findings use rules WM200-WM299 (see docs/rules.md); every one points into the jq
// expression through the field's SourceMap and names the schema path in a note. Never throws.
// Typical caller (`wmc check` / `wmc compile`):
//
//   schema::RegistryOptions ro;  ro.schema_dirs = {--schemas...};  ro.crd_files = {--crd...};
//   std::string err;  auto reg = schema::SchemaRegistry::Create(ro, &err);   // null: I/O error
//   for (const Diagnostic& d : check::TypeCheck(definition, *reg)) sink.Report(d);
//
// Layout: types (internal/types.h), abstract evaluation (internal/abstract_eval.h), builtin
// signatures (internal/builtin_signatures.h), role rules (internal/role_rules.h).
#pragma once

#include <vector>

#include "compiler/definition/model.h"
#include "compiler/jq/resolve.h"
#include "compiler/schema/registry.h"
#include "compiler/source/diagnostic.h"

namespace wm::check {

// Rule ids of the type checker.
inline constexpr const char* kNoSchema = "WM200";            // note: kind has no schema
inline constexpr const char* kUnknownField = "WM201";        // field absent from the schema
inline constexpr const char* kCannotIterate = "WM202";       // `[]` / map / .. over a scalar
inline constexpr const char* kCannotIndex = "WM203";         // .a / .[n] on what has no fields
inline constexpr const char* kBadArithmetic = "WM204";       // + - * / % that can only fail
inline constexpr const char* kAlwaysFalse = "WM205";         // == that can never hold
inline constexpr const char* kRoleType = "WM206";            // result type wrong for the role
inline constexpr const char* kPhaseNotInEnum = "WM207";      // byPhase value not in the enum
inline constexpr const char* kConditionShape = "WM208";      // conditions lack type/status
inline constexpr const char* kInstanceMismatch = "WM209";    // paths iterate different lists
inline constexpr const char* kSeveralResults = "WM210";      // single-instance path yields many
inline constexpr const char* kNullSafety = "WM211";          // optional field, no `//` default
inline constexpr const char* kSuspendValue = "WM212";        // suspend value vs field type
inline constexpr const char* kBuiltinInput = "WM213";        // builtin on an input it rejects
inline constexpr const char* kSchemaLoad = "WM214";          // a schema file failed to load

struct TypeCheckOptions {
  // Report WM200 (a note) when the root kind has no schema (default true).
  bool note_missing_schema = true;
  // Severity of WM211 null-safety findings (default Warning).
  Severity null_safety_severity = Severity::Warning;
  // Deepest AST nesting walked; deeper subtrees are treated as unknown (default 200).
  int max_depth = 200;
};

std::vector<Diagnostic> TypeCheck(const definition::Definition& definition,
                                  const schema::SchemaRegistry& schemas,
                                  const TypeCheckOptions& options = {});

// The result type of one expression evaluated against the schema at `input_path` of a kind, in
// the checker's notation ("string", "array of object", "integer|string", "unknown"), and its
// cardinality ("none", "one", "optional", "many", "unknown"); findings go to *diagnostics.
// `resolution` is the expression's name resolution (computed here when null).
struct ExpressionType {
  std::string type;
  std::string cardinality;
  std::string iterated;  // schema path of the collection the results iterate ("" when none)
};
ExpressionType CheckExpression(const jq::Node& ast, const SourceMap& map,
                               const schema::Schema* input, const std::string& input_name,
                               const schema::SchemaRegistry& schemas,
                               std::vector<Diagnostic>* diagnostics,
                               const jq::Resolution* resolution = nullptr);

// One jq field of a definition and what it yields, for `--emit=checked` dumps.
struct CheckedField {
  // Where the field is in the definition, as Go validation errors write it:
  // "spec.structureDefinition.childComponents[0].specDefinition.podTemplateSpecPath".
  std::string path;
  std::string component;   // the owning component ("" for a gang member without componentName)
  std::string role;        // definition::RoleName of the field ("pod-template-spec")
  std::string expression;  // the jq text
  Location location;       // where the expression starts in the file
  // False when the jq did not parse or its input kind has no schema: `result` is then unknown.
  bool checked = false;
  ExpressionType result;
};

// Every jq field of the definition in ForEachJqField order, each evaluated as TypeCheck does
// (findings are not returned: TypeCheck reports them).
std::vector<CheckedField> CheckDefinitionFields(const definition::Definition& definition,
                                                const schema::SchemaRegistry& schemas,
                                                const TypeCheckOptions& options = {});

// One line per field: `PATH: EXPR => TYPE, CARDINALITY[, iterates COLLECTION]` (`=> unchecked`
// when the field was not checked).
std::string DumpCheckedFields(const std::vector<CheckedField>& fields);

}  // namespace wm::check
