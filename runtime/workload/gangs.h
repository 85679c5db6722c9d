// Gang scheduling of a workload's pods as upstream's pkg/instructions and the KAI scheduler's Karta
// pod grouper compute it: the effective gang component of a pod (legacy podGroups), subtree scales
// (CalculateSubtreeScale), and the PodGroup a pod lands in under the current podGroup API (read
// first by KAI) or the legacy podGroups (KAI's fallback). Interface: ScaleReader, the functions below.
//
// PodGroup names are KAI's (pkg/podgrouper/.../karta): `pg-<workload uid>-<podGroup.name>` for
// podGroup; `pg-<workload uid>` plus `-<group key>` per groupByKeyPaths value for podGroups (the
// legacy group's own name is not part of it); `pg-<workload name>-<workload uid>` (KAI's default
// grouper) when the definition has no gang scheduling.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/catalog/definition.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/pods.h"
#include "runtime/workload/run.h"

namespace wm::workload {

// What gang answers read from the workload object (an interface, so tests can pass fakes): the
// Accessor's InstanceIds (`[""]` for a
// single-instance component) and Scales (one per instance id, empty without a scaleDefinition).
struct ScaleReader {
  std::function<Result<std::vector<std::string>>(const catalog::Component&)> instance_ids;
  std::function<Result<std::vector<Scale>>(const catalog::Component&)> scales;
};

// The reader over an Accessor (which must outlive it): its InstanceIds and Scales.
ScaleReader ScaleReaderOf(const Accessor& accessor);

// upstream's getEffectiveMinReplicas: minReplicas if > 0, else replicas if > 0, else 0.
int64_t EffectiveMinReplicas(const Scale& scale);

// upstream's CalculateSubtreeScale. With any scale definition in the definition: own = sum over
// the component's instances of EffectiveMinReplicas (only `instance_id`'s when given and the
// component has several instances; `instance id <id> not found`), a leaf gives own, else with S =
// sum over children: S == 0 -> own, own == 0 -> S, else own * S. Without any: the number of
// pod-bearing leaves in the subtree, a leaf with an instanceIdPath counting its instances.
// `instance id is empty` when instance_id is "".
Result<int64_t> CalculateSubtreeScale(const StructureSummary& summary, const ScaleReader& reader,
                                      const catalog::Component& component,
                                      const std::optional<std::string>& instance_id = std::nullopt);

// The legacy podGroups member that groups a pod of `pod_component`: the first candidate (its own
// mentions, then its ancestors' nearest first) without filters or whose filters all pass.
struct EffectiveComponent {
  const catalog::Component* component = nullptr;
  std::string group;  // podGroups[].name
  const catalog::GangMember* member = nullptr;
};
Result<std::optional<EffectiveComponent>> GetPodGroupingEffectiveComponent(
    const PodQuerier& pod, const StructureSummary& summary, const catalog::Component& pod_component);

// The workload object's identity as KAI uses it in PodGroup names.
struct WorkloadIdentity {
  std::string name;
  std::string namespace_;
  std::string uid;
  static WorkloadIdentity Of(const Value& object);
};

// KAI's PodGroup for the current podGroup API (the same for every pod of the workload).
struct SubGroupPlan {
  std::string name;  // the subgroup's componentName
  int64_t min_member = 0;
  std::optional<catalog::Topology> topology;
};
struct PodGroupPlan {
  std::string name;  // pg-<uid>-<podGroup.name>
  std::optional<catalog::Topology> topology;
  std::vector<SubGroupPlan> sub_groups;
  int64_t min_member = 0;     // subtree scale of the root without subgroups; 0 with (KAI)
  int64_t min_sub_groups = 0;  // the number of subgroups: every one is required
};
// kNotFound when the definition has no podGroup. A subgroup whose subtree scale is 0 is KAI's
// error `component <name> must expose a replica scale definition`.
Result<PodGroupPlan> PlanPodGroup(const StructureSummary& summary, const ScaleReader& reader,
                                  const WorkloadIdentity& workload);

// Where one pod goes under the podGroup API. `pod_component` may be null (not inferred): KAI's
// answers do not need it.
struct PodGroupMembership {
  std::string name;  // the PodGroup (PodGroupPlan::name)
  // The subgroup of the pod's component or of its nearest ancestor that has one ("" if none, or
  // when the pod's component is unknown).
  std::string sub_group;
  // The subgroups KAI lists the pod in: those whose component or a descendant has a
  // componentTypeSelector matching the pod (KAI's podMatchesComponentSubtree).
  std::vector<std::string> kai_sub_groups;
};
Result<PodGroupMembership> PodGroupOf(const PodQuerier& pod, const StructureSummary& summary,
                                      const catalog::Component* pod_component,
                                      const WorkloadIdentity& workload);

// Where one pod goes under the legacy podGroups (KAI's getPodGroupMetadataAlpha).
struct LegacyPodGroup {
  EffectiveComponent effective;
  std::optional<std::string> instance;  // the pod's instance, when effective is its own component
  std::vector<std::string> group_keys;  // one per groupByKeyPaths entry
  std::string name;                     // pg-<uid>[-<key>...]
  int64_t min_member = 0;               // CalculateSubtreeScale(effective, instance)
};
// Errors as KAI's: `pod <ns>/<name> does not match any Karta pod group member definition`, and
// `Karta grouping keys [..] produce invalid Kubernetes PodGroup name "..": ..`.
Result<LegacyPodGroup> LegacyPodGroupOf(const PodQuerier& pod, const StructureSummary& summary,
                                        const ScaleReader& reader, const catalog::Component& pod_component,
                                        const WorkloadIdentity& workload);

// Which form KAI's Karta grouper follows for this definition: podGroup first, then podGroups,
// else its default grouper (one PodGroup per workload, minimum 1).
enum class GangSource : uint8_t { kPodGroup, kPodGroups, kDefault };
GangSource PreferredGangSource(const catalog::Definition& definition);
const char* GangSourceName(GangSource source);  // "podGroup", "podGroups", "default"
std::string DefaultPodGroupName(const WorkloadIdentity& workload);  // pg-<name>-<uid>

// Every answer for one pod, each with the error upstream would give instead (what `wmc pods`
// prints and a C or Go caller gets in one call). The gang answers are present when the definition
// has that form; pod_group_name follows KAI's order (podGroup, podGroups, default grouper) and is
// "" when the preferred form failed for this pod.
struct PodAnswers {
  std::string pod;  // .metadata.name
  Result<const catalog::Component*> component;
  Result<std::optional<std::string>> instance;     // of `component` (InferPodComponentInstance)
  Result<std::optional<std::string>> replica_key;  // ReplicaKeyOf
  std::optional<Result<LegacyPodGroup>> legacy;    // the definition has podGroups
  std::optional<Result<PodGroupMembership>> pod_group;  // the definition has podGroup
  GangSource source = GangSource::kDefault;
  std::string pod_group_name;
};
PodAnswers AnswerPod(const PodQuerier& pod, const StructureSummary& summary, const ScaleReader& reader,
                     const WorkloadIdentity& workload);

// The DNS-1123 subdomain problems of a PodGroup name (Kubernetes' wording), "" when valid.
std::string Dns1123SubdomainProblems(std::string_view name);

}  // namespace wm::workload
