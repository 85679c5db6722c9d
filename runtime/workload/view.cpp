// JSON documents of the workload layer (view.h). Field names follow upstream's json tags
// (pkg/resource: Scale, FragmentedPodSpec, ExtractedInstance, Status, Condition), with their
// omitempty rules; the extracted Kubernetes objects are given as the resolvers produced them.
#include "runtime/workload/view.h"

namespace wm::workload {
namespace {

Value S(std::string_view s) { return Value::String(s); }
Value Number(double d) { return Value::Number(d); }

// omitempty for the Go type behind a fragmented field: "" strings, empty maps and slices, nil.
bool IsGoEmpty(const Value& v, GoShape shape) {
  if (v.IsNull()) return true;
  switch (shape) {
    case GoShape::kString: return v.IsString() && v.AsString().empty();
    case GoShape::kStringMap: return v.IsObject() && v.AsObject().empty();
    case GoShape::kSlice: return v.IsArray() && v.AsArray().empty();
    case GoShape::kStructPointer: return false;
  }
  return false;
}

Value ConditionJson(const Condition& c) {
  std::vector<Member> m = {{S("type"), S(c.type)}};
  if (c.status) m.push_back({S("status"), S(*c.status)});
  if (!c.message.empty()) m.push_back({S("message"), S(c.message)});
  if (c.reason) m.push_back({S("reason"), S(*c.reason)});
  return Value::MakeObject(std::move(m));
}

Value ConditionsJson(const std::vector<Condition>& conditions) {
  Array out;
  for (const Condition& c : conditions) out.push_back(ConditionJson(c));
  return Value::MakeArray(std::move(out));
}

Value Strings(const std::vector<std::string>& strings) {
  Array out;
  for (const std::string& s : strings) out.push_back(S(s));
  return Value::MakeArray(std::move(out));
}

// The extracted parts of an instance, in upstream's ExtractedInstance order (scale excluded).
void PutExtracted(const ExtractedInstance& e, std::vector<Member>* m) {
  if (e.pod_template_spec) m->push_back({S("podTemplateSpec"), *e.pod_template_spec});
  if (e.pod_spec) m->push_back({S("podSpec"), *e.pod_spec});
  if (e.fragmented_pod_spec) m->push_back({S("fragmentedPodSpec"), FragmentedPodSpecJson(*e.fragmented_pod_spec)});
  if (e.metadata) m->push_back({S("metadata"), *e.metadata});
}

Value InstanceJson(const Instance& inst) {
  const std::optional<Scale>& scale = inst.extracted.scale;
  auto count = [](const std::optional<int32_t>& n) { return n ? Number(*n) : Value::Null(); };
  std::vector<Member> m = {{S("id"), S(inst.id())}};
  m.push_back({S("replicas"), scale ? count(scale->replicas) : Value::Null()});
  if (scale && scale->min_replicas) m.push_back({S("minReplicas"), Number(*scale->min_replicas)});
  if (scale && scale->max_replicas) m.push_back({S("maxReplicas"), Number(*scale->max_replicas)});
  m.push_back({S("gpusPerPod"), Number(inst.gpus_per_pod)});
  m.push_back({S("gpus"), Number(inst.gpus)});
  PutExtracted(inst.extracted, &m);
  return Value::MakeObject(std::move(m));
}

Value ComponentJson(const ResolvedComponent& c) {
  Array instances;
  for (const Instance& inst : c.instances) instances.push_back(InstanceJson(inst));
  std::vector<Member> m = {{S("name"), S(c.definition->name)},
                           {S("kind"), S(c.definition->kind.ToString())},
                           {S("owner"), c.definition->owner.empty() ? Value::Null() : S(c.definition->owner)},
                           {S("gpus"), Number(c.gpus)},
                           {S("instances"), Value::MakeArray(std::move(instances))}};
  if (!c.problems.empty()) m.push_back({S("problems"), Strings(c.problems)});
  return Value::MakeObject(std::move(m));
}

}  // namespace

Value ScaleJson(const Scale& scale) {
  std::vector<Member> m;
  if (scale.replicas) m.push_back({S("replicas"), Number(*scale.replicas)});
  if (scale.min_replicas) m.push_back({S("minReplicas"), Number(*scale.min_replicas)});
  if (scale.max_replicas) m.push_back({S("maxReplicas"), Number(*scale.max_replicas)});
  return Value::MakeObject(std::move(m));
}

Value FragmentedPodSpecJson(const FragmentedPodSpec& spec) {
  std::vector<Member> m;
  for (const FragmentedFieldInfo& f : FragmentedFields()) {
    const Value& v = spec[f.field];
    if (!IsGoEmpty(v, f.shape)) m.push_back({S(f.json_name), v});
  }
  return Value::MakeObject(std::move(m));
}

Value ExtractedInstanceJson(const ExtractedInstance& instance) {
  std::vector<Member> m;
  PutExtracted(instance, &m);
  if (instance.scale) m.push_back({S("scale"), ScaleJson(*instance.scale)});
  return Value::MakeObject(std::move(m));
}

Value StatusJson(const Status& status) {
  std::vector<Member> m;
  if (status.phase) m.push_back({S("phase"), S(*status.phase)});
  if (!status.conditions.empty()) m.push_back({S("conditions"), ConditionsJson(status.conditions)});
  m.push_back({S("matchedStatuses"), Strings(status.matched_statuses)});
  return Value::MakeObject(std::move(m));
}

Value WorkloadJson(const ResolvedWorkload& w) {
  Array components;
  for (const ResolvedComponent& c : w.components) components.push_back(ComponentJson(c));
  std::vector<Member> m = {
      {S("apiVersion"), S(w.api_version)},
      {S("kind"), S(w.kind)},
      {S("name"), S(w.name)},
      {S("namespace"), S(w.namespace_)},
      {S("definition"), S(w.definition->name)},
      {S("status"), Strings(w.status.matched_statuses)},
  };
  if (w.status.phase) m.push_back({S("phase"), S(*w.status.phase)});
  m.push_back({S("conditions"), ConditionsJson(w.status.conditions)});
  m.push_back({S("resources"), Value::MakeObject({{S("gpus"), Number(w.gpus)}})});
  m.push_back({S("components"), Value::MakeArray(std::move(components))});
  if (!w.problems.empty()) m.push_back({S("problems"), Strings(w.problems)});
  return Value::MakeObject(std::move(m));
}

}  // namespace wm::workload
