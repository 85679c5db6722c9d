// The JSON view of resolved workloads, in upstream's JSON spelling (camelCase as in the CRD and the
// Go library's json tags): what `wmc inspect -o json` prints and what the C ABI returns. Built here,
// in the runtime, so every consumer gets the same document.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/value/value.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/gangs.h"
#include "runtime/workload/status.h"
#include "runtime/workload/workload.h"

namespace wm::workload {

// {replicas?, minReplicas?, maxReplicas?} (upstream's Scale; absent counts omitted).
Value ScaleJson(const Scale& scale);
// upstream's FragmentedPodSpec with omitempty: "", {}, [] and null fields are left out.
Value FragmentedPodSpecJson(const FragmentedPodSpec& spec);
// upstream's ExtractedInstance: {podTemplateSpec?, podSpec?, fragmentedPodSpec?, metadata?, scale?}.
Value ExtractedInstanceJson(const ExtractedInstance& instance);
// upstream's Status: {phase?, conditions?, matchedStatuses}.
Value StatusJson(const Status& status);
// The whole resolution: apiVersion, kind, name, namespace, definition, status (matched names),
// phase?, conditions, resources.gpus, components[] with instances[] (id, replicas, minReplicas?,
// maxReplicas?, gpusPerPod, gpus, podTemplateSpec?, podSpec?, metadata?, fragmentedPodSpec?) and
// problems.
Value WorkloadJson(const ResolvedWorkload& workload);

// Every answer for one pod (AnswerPod), as `wmc pods -o json` prints each pod and wm_pod_map
// returns it: {name, component, instance, replicaKey, podGroupName, podGroups?: {group,
// effectiveComponent, instance, groupKeys, name, minMember} | {error}, podGroup?: {name, subGroup,
// kaiSubGroups} | {error}, errors?: {<answer>: <upstream's message>}}; a failed answer is null.
Value PodAnswersJson(const PodAnswers& answers);

// One workload as the gang views read it (`wmc gangs` and wm_gangs); the pointers must outlive it.
struct GangContext {
  const Bundle* bundle = nullptr;
  const catalog::Definition* definition = nullptr;
  const StructureSummary* summary = nullptr;
  const ScaleReader* reader = nullptr;
  WorkloadIdentity identity;
  std::string api_version;
  std::string kind;
  RunOptions run;  // for the pods' queries
};

// One legacy podGroups member: its subtree scale, and per instance when the component has named
// instances.
struct GangMemberView {
  const catalog::GangMember* member;
  Result<int64_t> min_member;
  std::vector<std::pair<std::string, Result<int64_t>>> instances;
};
GangMemberView ViewGangMember(const GangContext& w, const catalog::GangMember& member);

// The PodGroups the pods land in (KAI's preferred form), in order of first appearance.
struct PodGroupUse {
  std::string name;
  std::vector<std::string> pods;
  // The minimum each pod's grouping computes, distinct values in order: KAI computes it per pod
  // (a legacy member naming the pod's own component counts only the pod's instance), so the pods
  // of one PodGroup may disagree.
  std::vector<int64_t> min_members;
  void AddMin(int64_t n);
};

// Everything `wmc gangs` shows: the preferred form, the podGroup plan (when the definition has
// one) and, given pods, the PodGroups they land in plus "<pod>: <error>" for those that fail.
struct GangsView {
  GangSource source = GangSource::kDefault;
  std::optional<Result<PodGroupPlan>> plan;
  std::optional<std::vector<PodGroupUse>> uses;
  std::vector<std::string> problems;
};
GangsView ViewGangs(const GangContext& w, const std::vector<Value>* pods);

// What `wmc gangs -o json` prints and wm_gangs returns: {apiVersion, kind, name, namespace,
// definition, gangSource, podGroup?: {name, topology, minMember, minSubGroups, subGroups} | {error},
// podGroups?: [{name, members: [{component, filters, groupByKeyPaths, minMember, instances?}]}],
// default?: {name, minMember: 1}, podGroupsOfPods?: [{name, minMembers, pods}], problems?}.
Value GangsJson(const GangContext& w, const GangsView& view);

}  // namespace wm::workload
