// Role and cardinality rules (internal/role_rules.h): each role's expected shape, the core
// Kubernetes type a fragmented pod-spec role must match, and the checks run over the results of
// all jq fields of one definition.
#include "compiler/check/internal/role_rules.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "compiler/check/internal/did_you_mean.h"
#include "compiler/schema/import.h"

namespace wm::check::internal {

using R = definition::JqRole;

// Expected result of each workload/pod role; kinds 0 = no expectation.
Shape ShapeOf(definition::JqRole role) {
  using R = definition::JqRole;
  switch (role) {
    case R::kInstanceId: return {kStr | kNumeric, {}, "a string (the instance id)"};
    case R::kPodTemplateSpec: return {kObj, {"spec"}, "a PodTemplateSpec"};
    case R::kPodSpec: return {kObj, {"containers"}, "a PodSpec"};
    case R::kMetadata: return {kObj, {"labels", "annotations", "name"}, "an ObjectMeta"};
    case R::kSchedulerName:
    case R::kPriorityClassName:
    case R::kImage: return {kStr, {}, "a string"};
    case R::kLabels:
    case R::kAnnotations: return {kObj, {}, "a map of strings"};
    case R::kResources: return {kObj, {"limits", "requests", "claims"}, "a ResourceRequirements"};
    case R::kResourceClaims: return {kArr, {}, "an array of PodResourceClaims"};
    case R::kPodAffinity:
      return {kObj,
              {"requiredDuringSchedulingIgnoredDuringExecution",
               "preferredDuringSchedulingIgnoredDuringExecution"},
              "a PodAffinity"};
    case R::kNodeAffinity:
      return {kObj,
              {"requiredDuringSchedulingIgnoredDuringExecution",
               "preferredDuringSchedulingIgnoredDuringExecution"},
              "a NodeAffinity"};
    case R::kContainers: return {kArr, {}, "an array of Containers"};
    case R::kContainer: return {kObj, {"image", "name", "command"}, "a Container"};
    case R::kReplicas:
    case R::kMinReplicas:
    case R::kMaxReplicas: return {kNumeric | kStr, {}, "an integer or a numeric string"};
    case R::kPhase: return {kStr, {}, "a string"};
    // `.status.conditions` (one array) or `.status.conditions[]` (the conditions one by one).
    case R::kConditions: return {kArr | kObj, {}, "an array of condition objects"};
    case R::kTypeSelectorKey: return {kStr, {}, "a string"};
    case R::kInstanceSelectorId:
    case R::kReplicaSelectorKey:
    case R::kGangGroupByKey: return {kStr | kNumeric, {}, "a string or a number"};
    case R::kGangFilter: return {kBool, {}, "a boolean"};
    default: return {0, {}, ""};
  }
}

namespace {

bool IsSpecOrScaleRole(definition::JqRole role) {
  using R = definition::JqRole;
  switch (role) {
    case R::kPodTemplateSpec: case R::kPodSpec: case R::kMetadata: case R::kSchedulerName:
    case R::kLabels: case R::kAnnotations: case R::kResources: case R::kResourceClaims:
    case R::kPodAffinity: case R::kNodeAffinity: case R::kContainers: case R::kContainer:
    case R::kPriorityClassName: case R::kImage: case R::kReplicas: case R::kMinReplicas:
    case R::kMaxReplicas:
      return true;
    default: return false;
  }
}

// Roles whose absence (null) breaks the component: the null-safety rule applies to them.
bool NeedsValue(definition::JqRole role) {
  using R = definition::JqRole;
  return role == R::kInstanceId || role == R::kReplicas;
}


// The core type a fragmented pod-spec role must yield, as a schemas-directory path and a field
// path in it ("" when the role has no such counterpart).
std::pair<const char*, const char*> CoreTypeOf(definition::JqRole role) {
  using R = definition::JqRole;
  switch (role) {
    case R::kSchedulerName: return {"core/v1/PodSpec", ".schedulerName"};
    case R::kPriorityClassName: return {"core/v1/PodSpec", ".priorityClassName"};
    case R::kLabels: return {schema::kObjectMetaPath, ".labels"};
    case R::kAnnotations: return {schema::kObjectMetaPath, ".annotations"};
    case R::kResources: return {"core/v1/Container", ".resources"};
    case R::kResourceClaims: return {"core/v1/PodSpec", ".resourceClaims"};
    case R::kPodAffinity: return {"core/v1/Affinity", ".podAffinity"};
    case R::kNodeAffinity: return {"core/v1/Affinity", ".nodeAffinity"};
    case R::kContainers: return {"core/v1/PodSpec", ".containers"};
    case R::kContainer: return {"core/v1/Container", ""};
    case R::kImage: return {"core/v1/Container", ".image"};
    default: return {nullptr, nullptr};
  }
}

// Whether a value described by `actual` can be what `expected` describes: the JSON types
// overlap and, for objects (or array items) that both list properties, they share at least one
// property name. Depth-limited: only the top and the array item level are compared.
bool Compatible(const schema::SchemaRegistry& reg, const Schema* actual, const Schema* expected,
                int depth, std::string* why) {
  actual = reg.Deref(actual);
  expected = reg.Deref(expected);
  if (!actual || !expected || depth > 2) return true;
  auto kinds = [](const Schema* s) {
    uint8_t k = s->types;
    if (s->int_or_string) k |= kInt | kStr;
    if (k & kNum) k |= kInt;
    if (k & kInt) k |= kNum;
    return k;
  };
  uint8_t a = kinds(actual), e = kinds(expected);
  if (a && e && !(a & e)) {
    *why = schema::TypeNames(a) + " where the pod field is " + schema::TypeNames(e);
    return false;
  }
  if (actual->items && expected->items) {
    return Compatible(reg, actual->items.get(), expected->items.get(), depth + 1, why);
  }
  if (!actual->properties.empty() && !expected->properties.empty() && !actual->preserve_unknown) {
    for (const auto& p : actual->properties) {
      if (expected->Property(p.first)) return true;
    }
    std::string names;
    for (size_t i = 0; i < actual->properties.size() && i < 6; ++i) {
      names += (i ? ", " : "") + actual->properties[i].first;
    }
    *why = "an object with fields " + names + " (none of them in the pod field's type)";
    return false;
  }
  return true;
}

}  // namespace

void RoleRules::Check(const std::vector<FieldResult>& results) {
  for (const FieldResult& fr : results) CheckRole(fr);
  CheckCardinality(results);
  CheckSuspendValues(results);
}

Diagnostic RoleRules::At(const definition::JqField& f, Severity sev, const char* rule,
                         std::string message, std::vector<std::string> notes) const {
  Location begin = f.map.empty() ? f.location : f.map.Map(0);
  uint32_t length = static_cast<uint32_t>(std::max<size_t>(1, f.text.size()));
  Location end = f.map.empty() ? begin : f.map.Map(f.text.empty() ? 0 : f.text.size() - 1);
  if (end.line != begin.line) length = 1;
  return MakeDiagnostic(rule, std::move(begin), std::move(message))
      .WithSeverity(sev)
      .Length(length)
      .Notes(std::move(notes));
}

const std::string& RoleRules::InputName(definition::JqRole role) const {
  return definition::InputOf(role) == definition::JqInput::kPod ? pod_name_ : workload_name_;
}

// ---- per field: type and shape for the role (WM206), conditions (WM208), phases (WM207),
// null-safety (WM211)

void RoleRules::CheckRole(const FieldResult& fr) {
  // Fragmented pod-spec roles: compare with the real Kubernetes type when the schemas have it.
  if (CheckCoreType(fr)) return;
  Shape shape = ShapeOf(fr.role);
  if (CheckKinds(fr, shape)) return;
  if (shape.kinds & kObj) CheckShapeFields(fr, shape);
  if (fr.role == R::kContainers) CheckContainerItems(fr);
  if (fr.role == R::kConditions) CheckConditions(fr);
  if (fr.role == R::kPhase) CheckPhaseValues(fr);
  CheckNullSafety(fr);
}

// True when it reported: the result's schema cannot be the core type of the role.
bool RoleRules::CheckCoreType(const FieldResult& fr) {
  const Result& r = fr.result;
  auto [core_path, core_field] = CoreTypeOf(fr.role);
  if (!core_path || !r.type.schema) return false;
  std::string error;
  const Schema* core = schemas_.LookupPath(core_path);
  const Schema* expected = core ? schemas_.Walk(core, core_field, &error) : nullptr;
  std::string why;
  if (!expected || Compatible(schemas_, r.type.schema, expected, 0, &why)) return false;
  out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                    std::string(definition::FieldName(fr.role)) + " yields " + why,
                    {"result schema: " + PathOf(r.type) + " in " + workload_name_,
                     std::string("expected the type of ") + core_path + core_field}));
  return true;
}

// True when it reported: the result's JSON types cannot be what the role needs.
bool RoleRules::CheckKinds(const FieldResult& fr, const Shape& shape) {
  const AType& t = fr.result.type;
  if (!shape.kinds || t.any || !t.kinds) return false;
  uint8_t have = t.kinds & ~kNull;
  if (!have || (have & shape.kinds)) return false;
  std::vector<std::string> notes;
  if (t.schema) notes.push_back("result schema: " + PathOf(t) + " in " + InputName(fr.role));
  out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                    std::string(definition::FieldName(fr.role)) + " yields " + Describe(t) +
                        ", not " + shape.name,
                    std::move(notes)));
  return true;
}

void RoleRules::CheckShapeFields(const FieldResult& fr, const Shape& shape) {
  const AType& t = fr.result.type;
  const Schema* s = t.schema;
  if (!s || shape.any_of_fields.empty() || s->properties.empty()) return;
  for (const std::string& f : shape.any_of_fields) {
    if (!s->Property(f)) continue;
    if (fr.role == R::kPodTemplateSpec) CheckTemplateSpec(fr, shape);
    return;
  }
  std::string message = std::string(definition::FieldName(fr.role)) + " yields an object without " +
                        (shape.any_of_fields.size() == 1 ? "'" + shape.any_of_fields[0] + "'"
                                                         : "any of its usual fields") +
                        ", not " + shape.name;
  std::vector<std::string> notes{"result schema: " + PathOf(t) + " in " + InputName(fr.role)};
  if (fr.role == R::kPodTemplateSpec && s->Property("containers")) {
    notes.push_back("this is a PodSpec: use podSpecPath, or drop the trailing '.spec'");
  } else if (fr.role == R::kPodSpec && s->Property("spec")) {
    const Schema* spec = schemas_.Deref(s->Property("spec")->get());
    if (spec && spec->Property("containers")) {
      notes.push_back("this is a PodTemplateSpec: append '.spec' or use podTemplateSpecPath");
    }
  }
  out_.push_back(At(*fr.field, Severity::Error, kRoleType, message, notes));
}

// The template's spec must itself be a PodSpec.
void RoleRules::CheckTemplateSpec(const FieldResult& fr, const Shape& shape) {
  const AType& t = fr.result.type;
  const schema::SchemaPtr* spec_property = t.schema->Property("spec");
  const Schema* spec = spec_property ? schemas_.Deref(spec_property->get()) : nullptr;
  if (!spec || spec->properties.empty() || spec->Property("containers")) return;
  out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                    std::string(definition::FieldName(fr.role)) + " yields an object whose "
                    "'spec' has no 'containers', not " + shape.name,
                    {"result schema: " + PathOf(t) + " in " + workload_name_}));
}

void RoleRules::CheckContainerItems(const FieldResult& fr) {
  const AType& t = fr.result.type;
  if (!t.schema || !t.schema->items) return;
  const Schema* item = schemas_.Deref(t.schema->items.get());
  if (!item || item->properties.empty() || item->Property("name") || item->Property("image")) return;
  out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                    std::string(definition::FieldName(fr.role)) +
                        " yields an array whose items are not Containers",
                    {"result schema: " + PathOf(t) + " in " + workload_name_}));
}

void RoleRules::CheckConditions(const FieldResult& fr) {
  const AType& t = fr.result.type;
  if (!t.schema) return;
  // An array of conditions, or the conditions themselves (`.status.conditions[]`).
  const Schema* item = t.schema->items ? schemas_.Deref(t.schema->items.get())
                       : t.Only(kObj | kNull) ? t.schema
                                              : nullptr;
  if (!item || item->AllowsUnknownKeys()) return;
  const definition::ConditionsDefinition* cd =
      def_.root.status && def_.root.status->conditions ? &*def_.root.status->conditions : nullptr;
  if (!cd) return;
  for (const definition::Text* name : {&cd->type_field_name, &cd->status_field_name}) {
    if (item->Property(name->value)) continue;
    std::string hint = Suggest(name->value, *item);
    Diagnostic d = At(*fr.field, Severity::Error, kConditionShape,
                      "conditions at " + PathOf(t) + " have no field '" + name->value + "'" +
                          (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                      {"condition items of " + workload_name_ + " at " + PathOf(t) +
                           (t.schema->items ? "[]" : "")});
    if (name->location.line != 0) {  // point at typeFieldName / statusFieldName when written
      d.location = name->location;
      d.length = static_cast<uint32_t>(std::max<size_t>(1, name->value.size()));
    }
    out_.push_back(std::move(d));
  }
}

namespace {

// The enum value closest to `value` (as plain text), or "" when none is close.
std::string ClosestEnumValue(const std::string& value, const std::vector<std::string>& enums) {
  std::string hint;
  size_t best = value.size() / 3 + 2;
  for (const std::string& e : enums) {
    std::string plain = e.size() >= 2 ? e.substr(1, e.size() - 2) : e;
    size_t dist = EditDistance(value, plain);
    if (dist < best) {
      best = dist;
      hint = plain;
    }
  }
  return hint;
}

}  // namespace

void RoleRules::CheckPhaseValues(const FieldResult& fr) {
  const AType& t = fr.result.type;
  if (t.enums.empty() || !def_.root.status) return;
  std::string values;
  for (size_t i = 0; i < t.enums.size(); ++i) values += (i ? ", " : "") + t.enums[i];
  for (const definition::StatusMapping& m : def_.root.status->mappings) {
    for (const definition::StatusMatcher& matcher : m.matchers) {
      if (!matcher.by_phase) continue;
      const definition::Text& phase = *matcher.by_phase;
      if (std::find(t.enums.begin(), t.enums.end(), JsonString(phase.value)) != t.enums.end()) continue;
      DiagnosticBuilder d = MakeDiagnostic(kPhaseNotInEnum, phase.location,
                                           "byPhase '" + phase.value + "' can never match: " +
                                               PathOf(t) + " of " + workload_name_ +
                                               " is one of " + values);
      std::move(d).Length(static_cast<uint32_t>(std::max<size_t>(1, phase.value.size())));
      std::string hint = ClosestEnumValue(phase.value, t.enums);
      if (!hint.empty()) std::move(d).Note("did you mean '" + hint + "'?");
      out_.push_back(std::move(d));
    }
  }
}

void RoleRules::CheckNullSafety(const FieldResult& fr) {
  const Result& r = fr.result;
  if (!NeedsValue(fr.role) || r.defaulted || r.type.optional_at.empty() ||
      definition::InputOf(fr.role) != definition::JqInput::kWorkload) {
    return;
  }
  std::string fallback = !r.type.default_json.empty() ? r.type.default_json
                         : fr.role == R::kInstanceId  ? "\"\""
                                                      : "1";
  Diagnostic d = At(*fr.field, options_.null_safety_severity, kNullSafety,
                    std::string(definition::FieldName(fr.role)) + " goes through optional field " +
                        r.type.optional_at + " and yields null when it is absent; add a default",
                    {r.type.optional_at + " is not required in " + workload_name_});
  d.fixit = fr.field->text + " // " + fallback;
  out_.push_back(std::move(d));
}

// ---- across fields: instances (WM209) and single results (WM210)

void RoleRules::CheckCardinality(const std::vector<FieldResult>& results) {
  for (const definition::Component* c : def_.Components()) {
    const FieldResult* id = nullptr;
    std::vector<const FieldResult*> paths;
    for (const FieldResult& fr : results) {
      if (fr.component != c->name.value) continue;
      if (definition::InputOf(fr.role) != definition::JqInput::kWorkload) continue;
      if (fr.role == R::kInstanceId) id = &fr;
      else if (IsSpecOrScaleRole(fr.role)) paths.push_back(&fr);
    }
    if (!c->instance_id_path) {
      CheckSingleInstance(*c, paths);
    } else if (id && id->result.origin_known && id->result.card.max == kMany) {
      CheckInstances(*id, paths);
    }
  }
  // The root's phase: upstream reads the first result. Conditions may come as several results
  // (`.status.conditions[]`): upstream flattens them, so only the phase is checked.
  for (const FieldResult& fr : results) {
    if (fr.role != R::kPhase || fr.result.card.max != kMany) continue;
    out_.push_back(At(*fr.field, Severity::Warning, kSeveralResults,
                      "phaseDefinition.path may yield several results; only the first is the phase",
                      {fr.result.origin.empty() ? std::string("a phase path should yield one value")
                                                : "it iterates " + fr.result.origin,
                       "upstream (and wmc) take the first result and ignore the others"}));
  }
}

namespace {

// Certain: the results are one per element of a named collection, so the count follows that
// collection for every object. Possible: a select, `?` or `//` decides how many pass, or the
// reason for several results has no name.
bool CountIsCertain(const Result& r) { return r.origin_known && !r.filtered; }

}  // namespace

// In a multi-instance component every spec and scale path iterates what instanceIdPath iterates.
void RoleRules::CheckInstances(const FieldResult& id, const std::vector<const FieldResult*>& paths) {
  for (const FieldResult* p : paths) {
    if (!p->result.origin_known || p->result.card.max == kUnknownMax) continue;
    if (p->result.card.max == kMany && p->result.origin == id.result.origin) continue;
    // An iteration whose collection is unnamed went through a field already reported as
    // missing or not iterable: a mismatch message could only name an empty collection.
    if (p->result.card.max == kMany && p->result.origin.empty()) continue;
    const std::string name(definition::FieldName(p->role));
    const bool many = p->result.card.max == kMany;
    // Another list than the instances' is certain, whatever filters it; a filtered iteration
    // inside each instance (`.spec.jobs[] | .containers[] | select(...)`) may yield one each.
    const bool inside_instances = p->result.origin.rfind(id.result.origin, 0) == 0;
    const bool certain = !many || !inside_instances || CountIsCertain(p->result);
    std::string theirs = !many    ? "does not iterate (one result for every instance)"
                         : certain ? "iterates " + p->result.origin
                                   : "may yield several results per instance: it selects from " +
                                         p->result.origin;
    std::vector<std::string> notes{
        "in a multi-instance component every spec and scale path must yield one result per "
        "instance: instanceIdPath '" + id.field->text + "' and " + name + " '" + p->field->text + "'"};
    if (!certain) {
      notes.push_back("when the counts differ upstream fails with `instance ids count (N) does not "
                      "match results count (M)`; select at most one element per instance (a "
                      "list-map key such as `select(.name == \"main\")` does)");
    }
    out_.push_back(At(*p->field, certain ? Severity::Error : Severity::Warning, kInstanceMismatch,
                      name + " " + theirs + " but instanceIdPath iterates " + id.result.origin,
                      std::move(notes)));
  }
}

void RoleRules::CheckSingleInstance(const definition::Component& c,
                                    const std::vector<const FieldResult*>& paths) {
  for (const FieldResult* p : paths) {
    if (p->result.card.max != kMany) continue;
    const std::string name(definition::FieldName(p->role));
    if (!CountIsCertain(p->result)) {
      std::string from = p->result.origin.empty() ? "" : " (it selects from " + p->result.origin + ")";
      out_.push_back(At(*p->field, Severity::Warning, kSeveralResults,
                        name + " may yield several results" + from + " but component '" +
                            c.name.value + "' has no instanceIdPath",
                        {"upstream pairs the results with one anonymous instance: when more than one "
                         "value passes it fails with `instance ids count (1) does not match results "
                         "count (N)`",
                         "make the path yield one value (`first(...)`, or a select that only one "
                         "element passes)"}));
      continue;
    }
    out_.push_back(At(*p->field, Severity::Error, kSeveralResults,
                      name + " can yield several results but component '" + c.name.value +
                          "' has no instanceIdPath",
                      {p->result.origin.empty()
                           ? std::string("add instanceIdPath or make the path yield one value")
                           : "it iterates " + p->result.origin +
                                 "; add an instanceIdPath iterating the same list, or "
                                 "select one element"}));
  }
}

// ---- suspend/resume values (WM212): they must fit the field they are assigned to
// (`.spec.suspend` is a boolean: `value: "True"` would store a string the controller rejects).

void RoleRules::CheckSuspendValues(const std::vector<FieldResult>& results) {
  if (!def_.root.suspend) return;
  for (const auto& a : def_.root.suspend->suspend_actions) CheckSuspendValue(a, results);
  for (const auto& a : def_.root.suspend->resume_actions) CheckSuspendValue(a, results);
}

namespace {

uint8_t KindOfJson(const nlohmann::json& value) {
  if (value.is_null()) return kNull;
  if (value.is_boolean()) return kBool;
  if (value.is_number_integer() || value.is_number_unsigned()) return kInt | kNum;
  if (value.is_number()) return kNum;
  if (value.is_string()) return kStr;
  if (value.is_array()) return kArr;
  return kObj;
}

}  // namespace

void RoleRules::CheckSuspendValue(const definition::SuspendAction& action,
                                  const std::vector<FieldResult>& results) {
  if (!action.path || !action.value) return;
  const FieldResult* target = nullptr;
  for (const FieldResult& fr : results) {
    if (fr.field == &*action.path) target = &fr;
  }
  if (!target || target->result.type.any || !target->result.type.schema) return;
  nlohmann::json value = nlohmann::json::parse(action.value->json, nullptr, false);
  if (value.is_discarded()) return;  // the structural rules report unparsable values
  uint8_t kind = KindOfJson(value);
  const AType& t = target->result.type;
  if (kind == kNull || (t.kinds & kind)) return;
  DiagnosticBuilder d = MakeDiagnostic(
      kSuspendValue, action.value->location,
      "value " + action.value->json + " is " + schema::TypeNames(kind & ~kInt) + " but " +
          PathOf(t) + " of " + workload_name_ + " is " + Describe(t));
  std::move(d).Length(static_cast<uint32_t>(std::max<size_t>(1, action.value->json.size())));
  if (action.value->from_string) std::move(d).Note("a YAML string is taken as the JSON text it holds");
  out_.push_back(std::move(d));
}

}  // namespace wm::check::internal
