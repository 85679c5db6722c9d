// Writes (see writes.h). A write runs a path program once on the original object, then applies
// setpath for each path in order on the updated copy: jq's `(p) = $v` is exactly
// `reduce path(p) as $p (.; setpath($p; $v))`, and upstream's AssignZip is the same reduce with
// the i-th value. setpath is the interpreter's own builtin (ops::CallBuiltin), not a second copy.
#include "runtime/workload/accessor.h"
#include "runtime/workload/writes.h"

#include "runtime/eval/ops.h"

namespace wm::workload {
namespace {

Error MakeError(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

// Prefixes an error with upstream's wrapping text, keeping its code.
Error Wrap(const std::string& prefix, Error error) {
  error.message = prefix + error.message;
  return error;
}

// "<role> `<jq source>`: " as RunResolver words resolver errors, for errors of setpath.
std::string ResolverLabel(const Bundle& bundle, int32_t id) {
  return bundle.resolver_info(id).role + " `" + bundle.resolver_info(id).source + "`: ";
}

// The options of one public write with the object budget all its runs are charged to: the
// caller's, else a new one. The nested public calls (Assign from ApplyActions, ...) get these
// options, so a write has one budget however it is composed.
WriteOptions Budgeted(const WriteOptions& options) {
  WriteOptions out = options;
  if (!out.budget) out.budget = std::make_shared<ObjectBudget>(options.object);
  return out;
}

// Every path `program` yields on `object`.
Result<std::vector<Value>> PathsOf(const Bundle& bundle, const Value& object, int32_t program,
                                   const WriteOptions& options) {
  Result<std::vector<Value>> out;
  if (program < 0 || static_cast<size_t>(program) >= bundle.resolver_count()) {
    out.error = MakeError(ErrorCode::kInvalidInput, "no path program " + std::to_string(program));
    return out;
  }
  Outputs paths = RunResolver(bundle, program, object, options.run, options.budget.get());
  if (!paths.ok()) {
    out.error = MakeError(paths.limit ? ErrorCode::kLimit : ErrorCode::kEvaluation, paths.error);
    return out;
  }
  out.value = std::move(paths.values);
  return out;
}

// setpath(path; value) on *object.
Error SetPath(const Bundle& bundle, int32_t program, const Value& path, const Value& value,
              Value* object) {
  Value args[2] = {path, value};
  Value updated, error;
  if (!ops::CallBuiltin(ir::BuiltinId::SetPath, *object, args, 2, &updated, &error)) {
    EvalError failure;
    failure.value = error;
    return MakeError(ErrorCode::kEvaluation, ResolverLabel(bundle, program) + failure.Message());
  }
  *object = std::move(updated);
  return {};
}

// Upstream's Accessor.assign: AssignZip over every instance with an instanceIdPath, else Assign
// of the one value.
Result<Value> WriteInstances(const Bundle& bundle, const Value& object,
                             const catalog::Component& component, int32_t program,
                             const std::vector<Value>& values, const WriteOptions& options) {
  if (component.instance_id >= 0) return AssignZip(bundle, object, program, values, options);
  return Assign(bundle, object, program, values.empty() ? Value::Null() : values.front(), options);
}

// Upstream's unzipWithInstanceIds: the values in instance-id order. `plural` names them in the
// error ("pod template specs").
Result<std::vector<Value>> Unzip(const Bundle& bundle, const Value& object,
                                 const catalog::Component& component, const InstanceValues& values,
                                 const std::string& plural, const WriteOptions& options) {
  Result<std::vector<Value>> out;
  const std::string prefix = "failed to unzip given " + plural + " and instance ids: ";
  auto ids = InstanceIdsOfSorted(bundle, object, component, options.run, options.budget.get());
  if (!ids.ok()) {
    out.error = Wrap(prefix + "failed to get instance ids: ", ids.error);
    return out;
  }
  for (const std::string& id : ids.value) {
    auto it = values.find(id);
    if (it == values.end()) {
      out.error = MakeError(ErrorCode::kNotFound, prefix + "value not found for instance id: " + id);
      return out;
    }
    out.value.push_back(it->second);
  }
  return out;
}

// Whether the component has any specDefinition (upstream's first DefinitionNotFound check).

// One whole-value pod field update (pod template spec, pod spec, pod metadata).
struct PodField {
  const char* plural;      // "pod template specs", in the unzip error
  const char* definition;  // "pod template spec", in the DefinitionNotFound error
  int32_t program;         // the component's path program, or kNoResolver
};

Result<Value> UpdatePodField(const Bundle& bundle, const Value& input,
                             const catalog::Component& component, const InstanceValues& values,
                             const PodField& field, const WriteOptions& options) {
  Result<Value> out;
  // Instance ids and write paths must iterate maps in the same order as the Accessor that read
  // them: upstream's key-sorted order (see docs/architecture.md, "Key order").
  const Value object = SortKeysDeep(input);
  auto ordered = Unzip(bundle, object, component, values, field.plural, options);
  if (!ordered.ok()) {
    out.error = ordered.error;
    return out;
  }
  if (!component.HasSpecDefinition() || field.program < 0) {
    std::string what = component.HasSpecDefinition() ? field.definition : "spec";
    out.error = MakeError(ErrorCode::kNoDefinition,
                          "component " + component.name + " does not have " + what + " definition");
    return out;
  }
  return WriteInstances(bundle, object, component, field.program, ordered.value, options);
}

// ---- fragmented pod spec

// One step of upstream's UpdateFragmentedPodSpec: the field (names, Go type and shape from the
// Accessor's table in accessor.h) and how its error names it.
struct FragmentedUpdate {
  FragmentedField field;
  const char* display;  // in `failed to update <display>: ...`
  const FragmentedFieldInfo& info() const { return FragmentedFields()[static_cast<size_t>(field)]; }
};

// Upstream's UpdateFragmentedPodSpec order (not the struct order of FragmentedField).
constexpr FragmentedUpdate kFragmentedUpdates[] = {
    {FragmentedField::kSchedulerName, "scheduler name"},
    {FragmentedField::kPriorityClassName, "priority class name"},
    {FragmentedField::kImage, "image"},
    {FragmentedField::kLabels, "labels"},
    {FragmentedField::kAnnotations, "annotations"},
    {FragmentedField::kResources, "resources"},
    {FragmentedField::kPodAffinity, "pod affinity"},
    {FragmentedField::kNodeAffinity, "node affinity"},
    {FragmentedField::kContainer, "container"},
    {FragmentedField::kResourceClaims, "resource claims"},
    {FragmentedField::kContainers, "containers"},
};

// Upstream's updateField for one fragmented field over every instance's spec.
Result<Value> UpdateFragmentedField(const Bundle& bundle, const Value& object,
                                    const catalog::Component& component,
                                    const std::vector<Value>& specs, const FragmentedFieldInfo& field,
                                    const WriteOptions& options) {
  std::vector<Value> values;
  bool all_empty = true;
  for (const Value& spec : specs) {
    const Value* v = spec.IsObject() ? spec.Find(field.json_name) : nullptr;
    values.push_back(v ? *v : Value::Null());
    all_empty = all_empty && IsGoZero(values.back(), field.shape);
  }
  Result<Value> out;
  out.value = object;
  auto path = component.write_paths.fragmented.find(std::string(field.path_key));
  if (all_empty) return out;  // nothing to write, and no null written where a value was
  if (path == component.write_paths.fragmented.end()) {
    out.error = MakeError(ErrorCode::kNoDefinition, "path is not defined and values are not empty");
    return out;
  }
  return WriteInstances(bundle, object, component, path->second, values, options);
}

// Suspend or resume: `key` names the action list in errors.
Result<Value> ApplyActions(const Bundle& bundle, const Value& object,
                           const catalog::Component& component,
                           std::vector<catalog::SuspendAction> catalog::SuspendDefinition::*actions,
                           const char* key, const WriteOptions& options) {
  Result<Value> out;
  if (!component.suspend) {
    out.error = MakeError(ErrorCode::kNoDefinition,
                          "component " + component.name + " does not have suspendDefinition");
    return out;
  }
  out.value = object;
  const auto& list = (*component.suspend).*actions;
  for (size_t i = 0; i < list.size(); ++i) {
    auto step = Assign(bundle, out.value, list[i].path, list[i].value, options);
    if (!step.ok()) {
      out.error = Wrap(std::string(key) + "[" + std::to_string(i) + "]: ", step.error);
      out.value = object;
      return out;
    }
    out.value = std::move(step.value);
  }
  return out;
}

}  // namespace

Result<Value> Assign(const Bundle& bundle, const Value& object, int32_t path_program,
                     const Value& value, const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  Result<Value> out;
  auto paths = PathsOf(bundle, object, path_program, options);
  if (!paths.ok()) {
    out.error = paths.error;
    return out;
  }
  out.value = object;
  for (const Value& path : paths.value) {
    if (Error e = SetPath(bundle, path_program, path, value, &out.value)) {
      out.error = std::move(e);
      out.value = object;
      return out;
    }
  }
  return out;
}

Result<Value> AssignZip(const Bundle& bundle, const Value& object, int32_t path_program,
                        const std::vector<Value>& values, const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  Result<Value> out;
  auto paths = PathsOf(bundle, object, path_program, options);
  if (!paths.ok()) {
    out.error = paths.error;
    return out;
  }
  if (paths.value.size() != values.size()) {
    out.error = MakeError(ErrorCode::kMismatch, "array length mismatch: expected " +
                                                    std::to_string(paths.value.size()) +
                                                    " values but got " + std::to_string(values.size()));
    return out;
  }
  out.value = object;
  for (size_t i = 0; i < values.size(); ++i) {
    if (Error e = SetPath(bundle, path_program, paths.value[i], values[i], &out.value)) {
      out.error = std::move(e);
      out.value = object;
      return out;
    }
  }
  return out;
}

Result<Value> UpdatePodTemplateSpec(const Bundle& bundle, const Value& object,
                                    const catalog::Component& component,
                                    const InstanceValues& values, const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  return UpdatePodField(bundle, object, component, values,
                        {"pod template specs", "pod template spec", component.write_paths.pod_template_spec},
                        options);
}

Result<Value> UpdatePodSpec(const Bundle& bundle, const Value& object,
                            const catalog::Component& component, const InstanceValues& values,
                            const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  return UpdatePodField(bundle, object, component, values,
                        {"pod specs", "pod spec", component.write_paths.pod_spec}, options);
}

Result<Value> UpdatePodMetadata(const Bundle& bundle, const Value& object,
                                const catalog::Component& component, const InstanceValues& values,
                                const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  return UpdatePodField(bundle, object, component, values,
                        {"pod metadata", "pod metadata", component.write_paths.pod_metadata}, options);
}

const std::vector<std::string>& FragmentedFieldNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const FragmentedUpdate& f : kFragmentedUpdates) out.emplace_back(f.info().json_name);
    return out;
  }();
  return names;
}

Result<Value> UpdateFragmentedPodSpec(const Bundle& bundle, const Value& input,
                                      const catalog::Component& component,
                                      const InstanceValues& specs, const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  Result<Value> out;
  const Value object = SortKeysDeep(input);  // the Accessor's order, as in UpdatePodField
  auto ordered = Unzip(bundle, object, component, specs, "fragmented pod specs", options);
  if (!ordered.ok()) {
    out.error = ordered.error;
    return out;
  }
  if (component.write_paths.fragmented.empty()) {
    std::string what = component.HasSpecDefinition() ? "fragmented pod spec" : "spec";
    out.error = MakeError(ErrorCode::kNoDefinition,
                          "component " + component.name + " does not have " + what + " definition");
    return out;
  }
  out.value = object;
  for (const FragmentedUpdate& update : kFragmentedUpdates) {
    auto step = UpdateFragmentedField(bundle, out.value, component, ordered.value, update.info(), options);
    if (!step.ok()) {
      out.error = Wrap("failed to update " + std::string(update.display) + ": ", step.error);
      out.value = object;
      return out;
    }
    out.value = std::move(step.value);
  }
  return out;
}

Result<Value> Suspend(const Bundle& bundle, const Value& object, const catalog::Component& component,
                      const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  return ApplyActions(bundle, object, component, &catalog::SuspendDefinition::suspend_actions,
                      "suspendActions", options);
}

Result<Value> Resume(const Bundle& bundle, const Value& object, const catalog::Component& component,
                     const WriteOptions& given) {
  const WriteOptions options = Budgeted(given);
  return ApplyActions(bundle, object, component, &catalog::SuspendDefinition::resume_actions,
                      "resumeActions", options);
}

}  // namespace wm::workload
