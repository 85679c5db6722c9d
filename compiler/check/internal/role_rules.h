// Role and cardinality rules of the type checker (WM206-WM212): given what every jq field of a
// definition yields (its abstract Result), compare it with what the field's role needs: the
// result type and shape (WM206), byPhase values against the phase enum (WM207), condition item
// fields (WM208), the instances a multi-instance component's paths iterate (WM209), single
// results where one is required (WM210), null-safety of instance ids and replicas (WM211) and
// suspend/resume values against their target fields (WM212).
//
//   RoleRules rules(definition, schemas, options, "jobset.x-k8s.io/v1alpha2 JobSet", &out);
//   rules.Check(field_results);
#pragma once

#include <string>
#include <vector>

#include "compiler/check/internal/types.h"
#include "compiler/check/typecheck.h"
#include "compiler/definition/model.h"

namespace wm::check::internal {

// What one jq field of the definition yields.
struct FieldResult {
  std::string component;
  definition::JqRole role;
  const definition::JqField* field;
  Result result;
};

// What a role expects its result to be.
struct Shape {
  uint8_t kinds;                           // the JSON types the role accepts (0: no expectation)
  std::vector<std::string> any_of_fields;  // an object must declare one of these (when known)
  const char* name;                        // what the role expects, for messages
};
Shape ShapeOf(definition::JqRole role);

class RoleRules {
 public:
  // `workload_name` names the root kind in messages; findings are appended to *out.
  RoleRules(const definition::Definition& def, const schema::SchemaRegistry& schemas,
            const TypeCheckOptions& options, std::string workload_name, std::vector<Diagnostic>* out)
      : def_(def), schemas_(schemas), options_(options), workload_name_(std::move(workload_name)),
        out_(*out) {}

  void Check(const std::vector<FieldResult>& results);

 private:
  Diagnostic At(const definition::JqField& f, Severity sev, const char* rule, std::string message,
                std::vector<std::string> notes = {}) const;
  const std::string& InputName(definition::JqRole role) const;
  void CheckRole(const FieldResult& fr);
  bool CheckCoreType(const FieldResult& fr);
  bool CheckKinds(const FieldResult& fr, const Shape& shape);
  void CheckShapeFields(const FieldResult& fr, const Shape& shape);
  void CheckTemplateSpec(const FieldResult& fr, const Shape& shape);
  void CheckContainerItems(const FieldResult& fr);
  void CheckConditions(const FieldResult& fr);
  void CheckPhaseValues(const FieldResult& fr);
  void CheckNullSafety(const FieldResult& fr);
  void CheckCardinality(const std::vector<FieldResult>& results);
  void CheckInstances(const FieldResult& id, const std::vector<const FieldResult*>& paths);
  void CheckSingleInstance(const definition::Component& c, const std::vector<const FieldResult*>& paths);
  void CheckSuspendValues(const std::vector<FieldResult>& results);
  void CheckSuspendValue(const definition::SuspendAction& action, const std::vector<FieldResult>& results);

  const definition::Definition& def_;
  const schema::SchemaRegistry& schemas_;
  const TypeCheckOptions& options_;
  std::string workload_name_;
  std::string pod_name_ = "v1 Pod";
  std::vector<Diagnostic>& out_;
};

}  // namespace wm::check::internal
