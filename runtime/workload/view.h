// The JSON view of resolved workloads, in upstream's JSON spelling (camelCase as in the CRD and the
// Go library's json tags): what `wmc inspect -o json` prints and what the C ABI returns. Built here,
// in the runtime, so every consumer gets the same document.
#pragma once

#include "runtime/value/value.h"
#include "runtime/workload/accessor.h"
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

}  // namespace wm::workload
