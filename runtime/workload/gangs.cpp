// Gang answers (see gangs.h): upstream's pkg/instructions/gang_scheduling.go for effective
// components and subtree scales, and the KAI scheduler's Karta grouper for PodGroup names, the
// podGroup subgroups and their minimum member counts.
#include "runtime/workload/gangs.h"

#include <map>

namespace wm::workload {
namespace {

// One CalculateSubtreeScale call: the subtree root, the optional instance, and the two walks.
class SubtreeScale {
 public:
  SubtreeScale(const StructureSummary& summary, const ScaleReader& reader, const catalog::Component& root,
               const std::optional<std::string>& instance)
      : summary_(summary), reader_(reader), root_(root), instance_(instance) {}

  Result<int64_t> ByDefinition(const catalog::Component& c, size_t depth) {
    Result<int64_t> own = OwnScale(c);
    if (!own.ok()) return own;
    std::vector<const catalog::Component*> children = Children(c);
    if (children.empty()) return own;
    if (depth > summary_.definition->components.size()) return {0, Fail(ErrorCode::kInvalidInput, "ownership cycle")};
    int64_t sum = 0;
    for (const catalog::Component* child : children) {
      Result<int64_t> scale = ByDefinition(*child, depth + 1);
      if (!scale.ok()) return scale;
      sum += scale.value;
    }
    // Children without scales leave it to this level; a level without scale carries the sum.
    if (sum == 0) return own;
    if (own.value == 0) return {sum, {}};
    return {own.value * sum, {}};
  }

  Result<int64_t> ByLeaves(const catalog::Component& c, size_t depth) {
    if (c.HasPods()) {
      if (c.instance_id < 0) return {1, {}};
      Result<std::vector<std::string>> ids = reader_.instance_ids(c);
      if (!ids.ok()) return {0, ids.error};
      if (&c != &root_ || !instance_) return {static_cast<int64_t>(ids.value.size()), {}};
      for (const std::string& id : ids.value) {
        if (id == *instance_) return {1, {}};
      }
      return {0, Fail(ErrorCode::kNotFound, "instance id " + *instance_ + " not found")};
    }
    if (depth > summary_.definition->components.size()) return {0, Fail(ErrorCode::kInvalidInput, "ownership cycle")};
    int64_t leaves = 0;
    for (const catalog::Component* child : Children(c)) {
      Result<int64_t> count = ByLeaves(*child, depth + 1);
      if (!count.ok()) return count;
      leaves += count.value;
    }
    return {leaves, {}};
  }

 private:
  std::vector<const catalog::Component*> Children(const catalog::Component& c) const {
    std::vector<const catalog::Component*> out;
    auto it = summary_.children.find(c.name);
    if (it == summary_.children.end()) return out;
    for (const std::string& name : it->second) {
      if (const catalog::Component* child = summary_.definition->Find(name)) out.push_back(child);
    }
    return out;
  }

  // Sum of the effective minimums of the component's instances. Upstream zips the scales into a
  // map by instance id, so a repeated id counts once (the last one).
  Result<int64_t> OwnScale(const catalog::Component& c) {
    Result<std::vector<Scale>> scales = reader_.scales(c);
    if (!scales.ok() && scales.error.code != ErrorCode::kNoDefinition) return {0, scales.error};
    if (!scales.ok() || scales.value.empty()) return {0, {}};
    Result<std::vector<std::string>> ids = reader_.instance_ids(c);
    if (!ids.ok()) return {0, ids.error};
    if (ids.value.size() != scales.value.size()) {
      return {0, Fail(ErrorCode::kMismatch, "instance ids count (" + std::to_string(ids.value.size()) +
                                                ") does not match results count (" +
                                                std::to_string(scales.value.size()) + ")")};
    }
    std::map<std::string, Scale> by_id;
    for (size_t i = 0; i < ids.value.size(); ++i) by_id[ids.value[i]] = scales.value[i];
    if (by_id.size() > 1 && &c == &root_ && instance_) {
      auto it = by_id.find(*instance_);
      if (it == by_id.end()) return {0, Fail(ErrorCode::kNotFound, "instance id " + *instance_ + " not found")};
      return {EffectiveMinReplicas(it->second), {}};
    }
    int64_t sum = 0;
    for (const auto& [id, scale] : by_id) sum += EffectiveMinReplicas(scale);
    return {sum, {}};
  }

  const StructureSummary& summary_;
  const ScaleReader& reader_;
  const catalog::Component& root_;
  const std::optional<std::string>& instance_;
};

// KAI's validateTopologyConstraint.
Error CheckTopology(const catalog::Topology& t) {
  if (t.name.empty()) return Fail(ErrorCode::kInvalidInput, "topology constraint must include topology name");
  if (t.required_level.empty() && t.preferred_level.empty()) {
    return Fail(ErrorCode::kInvalidInput, "topology constraint must include preferred or required topology level");
  }
  return {};
}

// KAI's podMatchesComponentSubtree: the component's own componentTypeSelector or a descendant's.
Result<bool> MatchesSubtree(const PodQuerier& pod, const StructureSummary& summary, const catalog::Component& c,
                            size_t depth) {
  Result<bool> own = pod.MatchesComponentType(c);
  if (!own.ok() || own.value) return own;
  auto it = summary.children.find(c.name);
  if (it == summary.children.end() || depth > summary.definition->components.size()) return {false, {}};
  for (const std::string& name : it->second) {
    const catalog::Component* child = summary.definition->Find(name);
    if (!child) continue;
    Result<bool> below = MatchesSubtree(pod, summary, *child, depth + 1);
    if (!below.ok() || below.value) return below;
  }
  return {false, {}};
}

std::string PodNamespace(const PodQuerier& pod) {
  return StringAt(pod.pod(), {"metadata", "namespace"});
}

}  // namespace

ScaleReader ScaleReaderOf(const Accessor& accessor) {
  ScaleReader reader;
  reader.instance_ids = [&accessor](const catalog::Component& c) { return accessor.InstanceIds(c); };
  reader.scales = [&accessor](const catalog::Component& c) { return accessor.Scales(c); };
  return reader;
}

int64_t EffectiveMinReplicas(const Scale& scale) {
  if (scale.min_replicas && *scale.min_replicas > 0) return *scale.min_replicas;
  if (scale.replicas && *scale.replicas > 0) return *scale.replicas;
  return 0;
}

Result<int64_t> CalculateSubtreeScale(const StructureSummary& summary, const ScaleReader& reader,
                                      const catalog::Component& component,
                                      const std::optional<std::string>& instance_id) {
  if (instance_id && instance_id->empty()) return {0, Fail(ErrorCode::kInvalidInput, "instance id is empty")};
  SubtreeScale walk(summary, reader, component, instance_id);
  return summary.has_scale_definition ? walk.ByDefinition(component, 0) : walk.ByLeaves(component, 0);
}

Result<std::optional<EffectiveComponent>> GetPodGroupingEffectiveComponent(
    const PodQuerier& pod, const StructureSummary& summary, const catalog::Component& pod_component) {
  auto it = summary.candidates.find(pod_component.name);
  if (it == summary.candidates.end()) return {std::nullopt, {}};
  for (const StructureSummary::Candidate& candidate : it->second) {
    EffectiveComponent found{summary.definition->Find(candidate.component), candidate.group, candidate.member};
    if (candidate.member->filters.empty()) return {found, {}};
    Result<bool> passed = pod.PassesFilters(candidate.member->filters);
    if (!passed.ok()) {
      passed.error.message = "failed to evaluate filters for component " + candidate.component + " in group " +
                             candidate.group + ": " + passed.error.message;
      return {std::nullopt, passed.error};
    }
    if (passed.value) return {found, {}};
  }
  return {std::nullopt, {}};
}

WorkloadIdentity WorkloadIdentity::Of(const Value& object) {
  WorkloadIdentity id;
  const Value* metadata = object.IsObject() ? object.Find("metadata") : nullptr;
  if (!metadata || !metadata->IsObject()) return id;
  auto text = [&](const char* key) { return StringField(*metadata, key); };
  id.name = text("name");
  id.namespace_ = text("namespace");
  id.uid = text("uid");
  return id;
}

Result<PodGroupPlan> PlanPodGroup(const StructureSummary& summary, const ScaleReader& reader,
                                  const WorkloadIdentity& workload) {
  const catalog::Definition& d = *summary.definition;
  if (!d.pod_group) return {{}, Fail(ErrorCode::kNotFound, "definition " + d.name + " has no podGroup")};
  PodGroupPlan plan;
  plan.name = "pg-" + workload.uid + "-" + d.pod_group->name;
  plan.topology = d.pod_group->topology;
  if (plan.topology) {
    if (Error e = CheckTopology(*plan.topology)) return {{}, e};
  }
  for (const catalog::PodSubGroup& sub : d.pod_group->sub_groups) {
    if (sub.component.empty()) return {{}, Fail(ErrorCode::kInvalidInput, "subgroup component name cannot be empty")};
    const catalog::Component* c = d.Find(sub.component);
    if (!c) return {{}, Fail(ErrorCode::kNotFound, "component " + sub.component + " not found")};
    Result<int64_t> scale = CalculateSubtreeScale(summary, reader, *c);
    if (!scale.ok()) return {{}, scale.error};
    if (scale.value == 0) {
      return {{}, Fail(ErrorCode::kInvalidInput, "component " + sub.component + " must expose a replica scale definition")};
    }
    if (sub.topology) {
      if (Error e = CheckTopology(*sub.topology)) return {{}, e};
    }
    plan.sub_groups.push_back({sub.component, scale.value, sub.topology});
  }
  plan.min_sub_groups = static_cast<int64_t>(plan.sub_groups.size());
  if (plan.sub_groups.empty()) {
    Result<int64_t> scale = CalculateSubtreeScale(summary, reader, d.root());
    if (!scale.ok()) return {{}, scale.error};
    plan.min_member = scale.value;
  }
  return {std::move(plan), {}};
}

Result<PodGroupMembership> PodGroupOf(const PodQuerier& pod, const StructureSummary& summary,
                                      const catalog::Component* pod_component,
                                      const WorkloadIdentity& workload) {
  const catalog::Definition& d = *summary.definition;
  if (!d.pod_group) return {{}, Fail(ErrorCode::kNotFound, "definition " + d.name + " has no podGroup")};
  PodGroupMembership out;
  out.name = "pg-" + workload.uid + "-" + d.pod_group->name;
  std::vector<const catalog::Component*> levels;
  if (pod_component) levels = summary.SelfAndAncestors(*pod_component);
  for (const catalog::Component* level : levels) {
    for (const catalog::PodSubGroup& sub : d.pod_group->sub_groups) {
      if (out.sub_group.empty() && sub.component == level->name) out.sub_group = sub.component;
    }
  }
  for (const catalog::PodSubGroup& sub : d.pod_group->sub_groups) {
    const catalog::Component* c = d.Find(sub.component);
    if (!c) return {{}, Fail(ErrorCode::kNotFound, "component " + sub.component + " not found")};
    Result<bool> in = MatchesSubtree(pod, summary, *c, 0);
    if (!in.ok()) return {{}, in.error};
    if (in.value) out.kai_sub_groups.push_back(sub.component);
  }
  return {std::move(out), {}};
}

Result<LegacyPodGroup> LegacyPodGroupOf(const PodQuerier& pod, const StructureSummary& summary,
                                        const ScaleReader& reader, const catalog::Component& pod_component,
                                        const WorkloadIdentity& workload) {
  Result<std::optional<EffectiveComponent>> effective = GetPodGroupingEffectiveComponent(pod, summary, pod_component);
  if (!effective.ok()) return {{}, effective.error};
  if (!effective.value) {
    return {{}, Fail(ErrorCode::kNotFound, "pod " + PodNamespace(pod) + "/" + pod.PodName() +
                                               " does not match any Karta pod group member definition")};
  }
  LegacyPodGroup out;
  out.effective = *effective.value;
  if (out.effective.component == &pod_component) {
    Result<std::vector<std::string>> ids = reader.instance_ids(pod_component);
    if (!ids.ok()) return {{}, ids.error};
    Result<std::optional<std::string>> instance = InferPodComponentInstance(pod, pod_component, ids.value);
    if (!instance.ok()) return {{}, instance.error};
    out.instance = instance.value;
  }
  Result<std::vector<std::string>> keys = pod.GroupKeys(out.effective.member->group_by_key_paths);
  if (!keys.ok()) return {{}, keys.error};
  out.group_keys = std::move(keys.value);
  out.name = "pg-" + workload.uid;
  for (const std::string& key : out.group_keys) out.name += "-" + key;
  if (!out.group_keys.empty()) {
    std::string problems = Dns1123SubdomainProblems(out.name);
    if (!problems.empty()) {
      return {{}, Fail(ErrorCode::kInvalidInput, "Karta grouping keys " + GoText(out.group_keys) +
                                                     " produce invalid Kubernetes PodGroup name " +
                                                     GoQuoted(out.name) + ": " + problems)};
    }
  }
  Result<int64_t> scale = CalculateSubtreeScale(summary, reader, *out.effective.component, out.instance);
  if (!scale.ok()) return {{}, scale.error};
  out.min_member = scale.value;
  return {std::move(out), {}};
}

PodAnswers AnswerPod(const PodQuerier& pod, const StructureSummary& summary, const ScaleReader& reader,
                     const WorkloadIdentity& workload) {
  PodAnswers out;
  out.pod = pod.PodName();
  out.source = PreferredGangSource(*summary.definition);
  out.component = InferPodComponent(pod, summary);
  // KAI's podGroup form does not need the pod's component: the name and the selector-based
  // subgroups are answered for every pod.
  if (summary.definition->pod_group) out.pod_group = PodGroupOf(pod, summary, out.component.value, workload);
  if (out.source == GangSource::kPodGroup && out.pod_group->ok()) out.pod_group_name = out.pod_group->value.name;
  if (out.source == GangSource::kDefault) out.pod_group_name = DefaultPodGroupName(workload);
  if (!out.component.ok()) {
    out.instance.error = out.replica_key.error = out.component.error;
    if (!summary.definition->gang_groups.empty()) out.legacy = Result<LegacyPodGroup>{{}, out.component.error};
    return out;
  }
  const catalog::Component& component = *out.component.value;
  Result<std::vector<std::string>> ids = reader.instance_ids(component);
  out.instance = ids.ok() ? InferPodComponentInstance(pod, component, ids.value)
                          : Result<std::optional<std::string>>{std::nullopt, ids.error};
  out.replica_key = ReplicaKeyOf(pod, summary, component);
  if (!summary.definition->gang_groups.empty()) {
    out.legacy = LegacyPodGroupOf(pod, summary, reader, component, workload);
  }
  if (out.source == GangSource::kPodGroups && out.legacy->ok()) out.pod_group_name = out.legacy->value.name;
  return out;
}

GangSource PreferredGangSource(const catalog::Definition& d) {
  if (d.pod_group) return GangSource::kPodGroup;
  if (!d.gang_groups.empty()) return GangSource::kPodGroups;
  return GangSource::kDefault;
}

const char* GangSourceName(GangSource source) {
  switch (source) {
    case GangSource::kPodGroup: return "podGroup";
    case GangSource::kPodGroups: return "podGroups";
    case GangSource::kDefault: return "default";
  }
  return "default";
}

std::string DefaultPodGroupName(const WorkloadIdentity& workload) {
  return "pg-" + workload.name + "-" + workload.uid;
}

std::string Dns1123SubdomainProblems(std::string_view name) {
  std::vector<std::string> problems;
  if (name.size() > 253) problems.push_back("must be no more than 253 characters");
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  bool valid = !name.empty();
  size_t start = 0;
  while (valid && start <= name.size()) {
    size_t dot = name.find('.', start);
    std::string_view label = name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    valid = !label.empty() && alnum(label.front()) && alnum(label.back());
    for (char c : label) valid = valid && (alnum(c) || c == '-');
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (!valid) {
    problems.push_back(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  std::string out;
  for (size_t i = 0; i < problems.size(); ++i) out += (i ? "; " : "") + problems[i];
  return out;
}

}  // namespace wm::workload
