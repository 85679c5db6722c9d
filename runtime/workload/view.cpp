// JSON documents of the workload layer (view.h). Field names follow upstream's json tags
// (pkg/resource: Scale, FragmentedPodSpec, ExtractedInstance, Status, Condition), with their
// omitempty rules; the extracted Kubernetes objects are given as the resolvers produced them.
#include "runtime/workload/view.h"

#include <algorithm>
#include <map>

namespace wm::workload {
namespace {

Value Number(double d) { return Value::Number(d); }
Value Count(int64_t n) { return Value::Number(static_cast<double>(n)); }

Value ConditionJson(const Condition& c) {
  std::vector<Member> m = {{Value::String("type"), Value::String(c.type)}};
  if (c.status) m.push_back({Value::String("status"), Value::String(*c.status)});
  if (!c.message.empty()) m.push_back({Value::String("message"), Value::String(c.message)});
  if (c.reason) m.push_back({Value::String("reason"), Value::String(*c.reason)});
  return Value::MakeObject(std::move(m));
}

Value ConditionsJson(const std::vector<Condition>& conditions) {
  Array out;
  for (const Condition& c : conditions) out.push_back(ConditionJson(c));
  return Value::MakeArray(std::move(out));
}

Value Strings(const std::vector<std::string>& strings) {
  Array out;
  for (const std::string& s : strings) out.push_back(Value::String(s));
  return Value::MakeArray(std::move(out));
}

// The extracted parts of an instance, in upstream's ExtractedInstance order (scale excluded).
void PutExtracted(const ExtractedInstance& e, std::vector<Member>* m) {
  if (e.pod_template_spec) m->push_back({Value::String("podTemplateSpec"), *e.pod_template_spec});
  if (e.pod_spec) m->push_back({Value::String("podSpec"), *e.pod_spec});
  if (e.fragmented_pod_spec)
    m->push_back({Value::String("fragmentedPodSpec"), FragmentedPodSpecJson(*e.fragmented_pod_spec)});
  if (e.metadata) m->push_back({Value::String("metadata"), *e.metadata});
}

Value InstanceJson(const Instance& inst) {
  const std::optional<Scale>& scale = inst.extracted.scale;
  auto count = [](const std::optional<int32_t>& n) { return n ? Number(*n) : Value::Null(); };
  std::vector<Member> m = {{Value::String("id"), Value::String(inst.id())}};
  m.push_back({Value::String("replicas"), scale ? count(scale->replicas) : Value::Null()});
  if (scale && scale->min_replicas) m.push_back({Value::String("minReplicas"), Number(*scale->min_replicas)});
  if (scale && scale->max_replicas) m.push_back({Value::String("maxReplicas"), Number(*scale->max_replicas)});
  m.push_back({Value::String("gpusPerPod"), Number(inst.gpus_per_pod)});
  m.push_back({Value::String("gpus"), Number(inst.gpus)});
  PutExtracted(inst.extracted, &m);
  return Value::MakeObject(std::move(m));
}

Value OptionalText(const std::optional<std::string>& s) { return s ? Value::String(*s) : Value(); }

Value LegacyPodGroupJson(const Result<LegacyPodGroup>& r) {
  if (!r.ok()) return Value::MakeObject({{Value::String("error"), Value::String(r.error.message)}});
  const LegacyPodGroup& g = r.value;
  return Value::MakeObject({{Value::String("group"), Value::String(g.effective.group)},
                            {Value::String("effectiveComponent"), Value::String(g.effective.component->name)},
                            {Value::String("instance"), OptionalText(g.instance)},
                            {Value::String("groupKeys"), Strings(g.group_keys)},
                            {Value::String("name"), Value::String(g.name)},
                            {Value::String("minMember"), Number(static_cast<double>(g.min_member))}});
}

Value MembershipJson(const Result<PodGroupMembership>& r) {
  if (!r.ok()) return Value::MakeObject({{Value::String("error"), Value::String(r.error.message)}});
  return Value::MakeObject(
      {{Value::String("name"), Value::String(r.value.name)},
       {Value::String("subGroup"), r.value.sub_group.empty() ? Value() : Value::String(r.value.sub_group)},
       {Value::String("kaiSubGroups"), Strings(r.value.kai_sub_groups)}});
}

Value ComponentJson(const ResolvedComponent& c) {
  Array instances;
  for (const Instance& inst : c.instances) instances.push_back(InstanceJson(inst));
  std::vector<Member> m = {
      {Value::String("name"), Value::String(c.definition->name)},
      {Value::String("kind"), Value::String(c.definition->kind.ToString())},
      {Value::String("owner"), c.definition->owner.empty() ? Value::Null() : Value::String(c.definition->owner)},
      {Value::String("gpus"), Number(c.gpus)},
      {Value::String("instances"), Value::MakeArray(std::move(instances))}};
  if (!c.problems.empty()) m.push_back({Value::String("problems"), Strings(c.problems)});
  return Value::MakeObject(std::move(m));
}

}  // namespace

Value ScaleJson(const Scale& scale) {
  std::vector<Member> m;
  if (scale.replicas) m.push_back({Value::String("replicas"), Number(*scale.replicas)});
  if (scale.min_replicas) m.push_back({Value::String("minReplicas"), Number(*scale.min_replicas)});
  if (scale.max_replicas) m.push_back({Value::String("maxReplicas"), Number(*scale.max_replicas)});
  return Value::MakeObject(std::move(m));
}

Value FragmentedPodSpecJson(const FragmentedPodSpec& spec) {
  std::vector<Member> m;
  for (const FragmentedFieldInfo& f : FragmentedFields()) {
    const Value& v = spec[f.field];
    if (!IsGoZero(v, f.shape)) m.push_back({Value::String(f.json_name), v});
  }
  return Value::MakeObject(std::move(m));
}

Value ExtractedInstanceJson(const ExtractedInstance& instance) {
  std::vector<Member> m;
  PutExtracted(instance, &m);
  if (instance.scale) m.push_back({Value::String("scale"), ScaleJson(*instance.scale)});
  return Value::MakeObject(std::move(m));
}

Value StatusJson(const Status& status) {
  std::vector<Member> m;
  if (status.phase) m.push_back({Value::String("phase"), Value::String(*status.phase)});
  if (!status.conditions.empty()) m.push_back({Value::String("conditions"), ConditionsJson(status.conditions)});
  m.push_back({Value::String("matchedStatuses"), Strings(status.matched_statuses)});
  return Value::MakeObject(std::move(m));
}

Value WorkloadJson(const ResolvedWorkload& w) {
  Array components;
  for (const ResolvedComponent& c : w.components) components.push_back(ComponentJson(c));
  std::vector<Member> m = {
      {Value::String("apiVersion"), Value::String(w.api_version)},
      {Value::String("kind"), Value::String(w.kind)},
      {Value::String("name"), Value::String(w.name)},
      {Value::String("namespace"), Value::String(w.namespace_)},
      {Value::String("definition"), Value::String(w.definition->name)},
      {Value::String("status"), Strings(w.status.matched_statuses)},
  };
  if (w.status.phase) m.push_back({Value::String("phase"), Value::String(*w.status.phase)});
  m.push_back({Value::String("conditions"), ConditionsJson(w.status.conditions)});
  m.push_back({Value::String("resources"), Value::MakeObject({{Value::String("gpus"), Number(w.gpus)}})});
  m.push_back({Value::String("components"), Value::MakeArray(std::move(components))});
  if (!w.problems.empty()) m.push_back({Value::String("problems"), Strings(w.problems)});
  return Value::MakeObject(std::move(m));
}

Value PodAnswersJson(const PodAnswers& a) {
  std::vector<Member> errors;
  auto answer = [&](const char* key, const auto& result, Value value) {
    if (!result.ok()) errors.push_back({Value::String(key), Value::String(result.error.message)});
    return Member{Value::String(key), result.ok() ? std::move(value) : Value()};
  };
  std::vector<Member> m = {{Value::String("name"), Value::String(a.pod)}};
  m.push_back(answer("component", a.component, a.component.ok() ? Value::String(a.component.value->name) : Value()));
  m.push_back(answer("instance", a.instance, OptionalText(a.instance.value)));
  m.push_back(answer("replicaKey", a.replica_key, OptionalText(a.replica_key.value)));
  m.push_back({Value::String("podGroupName"), a.pod_group_name.empty() ? Value() : Value::String(a.pod_group_name)});
  if (a.legacy) m.push_back({Value::String("podGroups"), LegacyPodGroupJson(*a.legacy)});
  if (a.pod_group) m.push_back({Value::String("podGroup"), MembershipJson(*a.pod_group)});
  if (!errors.empty()) m.push_back({Value::String("errors"), Value::MakeObject(std::move(errors))});
  return Value::MakeObject(std::move(m));
}

GangMemberView ViewGangMember(const GangContext& w, const catalog::GangMember& m) {
  GangMemberView v{&m, {0, {ErrorCode::kNotFound, "component " + m.component + " not found"}}, {}};
  const catalog::Component* c = w.definition->Find(m.component);
  if (!c) return v;
  v.min_member = CalculateSubtreeScale(*w.summary, *w.reader, *c);
  if (c->instance_id < 0) return v;
  Result<std::vector<std::string>> ids = w.reader->instance_ids(*c);
  for (const std::string& id : ids.value) {
    v.instances.emplace_back(id, CalculateSubtreeScale(*w.summary, *w.reader, *c, id));
  }
  return v;
}

namespace {

// A count or its error, as JSON (n or {"error": "..."}).
Value CountJson(const Result<int64_t>& r) {
  return r.ok() ? Count(r.value) : Value::MakeObject({{Value::String("error"), Value::String(r.error.message)}});
}

Value TopologyJson(const std::optional<catalog::Topology>& t) {
  if (!t) return Value();
  return Value::MakeObject({{Value::String("topologyName"), Value::String(t->name)},
                            {Value::String("requiredTopologyLevel"), Value::String(t->required_level)},
                            {Value::String("preferredTopologyLevel"), Value::String(t->preferred_level)}});
}

Value Sources(const GangContext& w, const std::vector<int32_t>& ids) {
  Array a;
  for (int32_t id : ids) a.push_back(Value::String(w.bundle->resolver_info(id).source));
  return Value::MakeArray(std::move(a));
}

Value LegacyJson(const GangContext& w) {
  Array groups;
  for (const catalog::GangGroup& g : w.definition->gang_groups) {
    Array members;
    for (const catalog::GangMember& m : g.members) {
      GangMemberView v = ViewGangMember(w, m);
      std::vector<Member> mm = {{Value::String("component"), Value::String(m.component)},
                                {Value::String("filters"), Sources(w, m.filters)},
                                {Value::String("groupByKeyPaths"), Sources(w, m.group_by_key_paths)},
                                {Value::String("minMember"), CountJson(v.min_member)}};
      if (!v.instances.empty()) {
        Array instances;
        for (const auto& [id, scale] : v.instances) {
          instances.push_back(Value::MakeObject(
              {{Value::String("id"), Value::String(id)}, {Value::String("minMember"), CountJson(scale)}}));
        }
        mm.push_back({Value::String("instances"), Value::MakeArray(std::move(instances))});
      }
      members.push_back(Value::MakeObject(std::move(mm)));
    }
    groups.push_back(Value::MakeObject({{Value::String("name"), Value::String(g.name)},
                                        {Value::String("members"), Value::MakeArray(std::move(members))}}));
  }
  return Value::MakeArray(std::move(groups));
}

Value PlanJson(const Result<PodGroupPlan>& r) {
  if (!r.ok()) return Value::MakeObject({{Value::String("error"), Value::String(r.error.message)}});
  Array subs;
  for (const auto& sub : r.value.sub_groups) {
    std::vector<Member> m = {{Value::String("name"), Value::String(sub.name)},
                             {Value::String("minMember"), Count(sub.min_member)}};
    if (sub.topology) m.push_back({Value::String("topology"), TopologyJson(sub.topology)});
    subs.push_back(Value::MakeObject(std::move(m)));
  }
  return Value::MakeObject({{Value::String("name"), Value::String(r.value.name)},
                            {Value::String("topology"), TopologyJson(r.value.topology)},
                            {Value::String("minMember"), Count(r.value.min_member)},
                            {Value::String("minSubGroups"), Count(r.value.min_sub_groups)},
                            {Value::String("subGroups"), Value::MakeArray(std::move(subs))}});
}

// The PodGroups of the pods in order of first appearance; a pod without one is a problem.
std::vector<PodGroupUse> GroupPods(const GangContext& w, const std::vector<Value>& pods,
                                   std::vector<std::string>* problems) {
  std::vector<PodGroupUse> groups;
  std::map<std::string, size_t> index;
  for (const Value& pod : pods) {
    PodQuerier querier(*w.bundle, pod, w.run);
    PodAnswers a = AnswerPod(querier, *w.summary, *w.reader, w.identity);
    if (a.pod_group_name.empty()) {
      const Error& e = a.source == GangSource::kPodGroup ? a.pod_group->error : a.legacy->error;
      problems->push_back(a.pod + ": " + e.message);
      continue;
    }
    auto [it, inserted] = index.emplace(a.pod_group_name, groups.size());
    if (inserted) groups.push_back({a.pod_group_name, {}, {}});
    groups[it->second].pods.push_back(a.pod);
    if (a.source == GangSource::kPodGroups) groups[it->second].AddMin(a.legacy->value.min_member);
    if (a.source == GangSource::kDefault) groups[it->second].AddMin(1);
  }
  return groups;
}

}  // namespace

void PodGroupUse::AddMin(int64_t n) {
  if (std::find(min_members.begin(), min_members.end(), n) == min_members.end()) min_members.push_back(n);
}

GangsView ViewGangs(const GangContext& w, const std::vector<Value>* pods) {
  GangsView view;
  view.source = PreferredGangSource(*w.definition);
  if (w.definition->pod_group) view.plan = PlanPodGroup(*w.summary, *w.reader, w.identity);
  if (pods) view.uses = GroupPods(w, *pods, &view.problems);
  return view;
}

Value GangsJson(const GangContext& w, const GangsView& view) {
  std::vector<Member> m = {{Value::String("apiVersion"), Value::String(w.api_version)},
                           {Value::String("kind"), Value::String(w.kind)},
                           {Value::String("name"), Value::String(w.identity.name)},
                           {Value::String("namespace"), Value::String(w.identity.namespace_)},
                           {Value::String("definition"), Value::String(w.definition->name)},
                           {Value::String("gangSource"), Value::String(GangSourceName(view.source))}};
  if (view.plan) m.push_back({Value::String("podGroup"), PlanJson(*view.plan)});
  if (!w.definition->gang_groups.empty()) m.push_back({Value::String("podGroups"), LegacyJson(w)});
  if (view.source == GangSource::kDefault) {
    m.push_back({Value::String("default"),
                 Value::MakeObject({{Value::String("name"), Value::String(DefaultPodGroupName(w.identity))},
                                    {Value::String("minMember"), Count(1)}})});
  }
  if (view.uses) {
    Array groups;
    for (const auto& u : *view.uses) {
      Array mins;
      for (int64_t n : u.min_members) mins.push_back(Count(n));
      groups.push_back(Value::MakeObject({{Value::String("name"), Value::String(u.name)},
                                          {Value::String("minMembers"), Value::MakeArray(std::move(mins))},
                                          {Value::String("pods"), Strings(u.pods)}}));
    }
    m.push_back({Value::String("podGroupsOfPods"), Value::MakeArray(std::move(groups))});
  }
  if (!view.problems.empty()) m.push_back({Value::String("problems"), Strings(view.problems)});
  return Value::MakeObject(std::move(m));
}

}  // namespace wm::workload
