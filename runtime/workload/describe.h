// One workload in full, as upstream's `kli describe` computes it (cli/pkg/workload/describe.go,
// UPSTREAM.md section 5): the component tree with the pods attributed to each component and
// instance, ready/desired replicas, per-component GPU/CPU/memory requests and nodes. Interface:
// BuildDescribeView (the DescribeView), PodsOwnedBy (the controller owner-chain filter),
// PodRequest and friends (the pod-request math), FormatCpuMillis/FormatMemoryBytes (Kubernetes'
// canonical quantity text) and DescribeViewJson (upstream's JSON field names). Rendering as text,
// DOT or SVG belongs to the CLI (tools/describe_render.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/value.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/run.h"

namespace wm::workload {

// A request total: GPUs (nvidia.com/gpu), CPU in millicores, memory in bytes; integers, so a
// consumer can sum them without unit handling.
struct DescribeResources {
  int64_t gpus = 0;
  int64_t cpu_millis = 0;
  int64_t memory_bytes = 0;

  void Add(const DescribeResources& other);
  DescribeResources Scaled(int64_t replicas) const;
  bool Empty() const { return gpus == 0 && cpu_millis == 0 && memory_bytes == 0; }
  friend bool operator==(const DescribeResources&, const DescribeResources&) = default;
};

// What the spec asks for, how many pods exist, how many of them are ready.
struct DescribeReplicas {
  int32_t desired = 0;
  int32_t current = 0;
  int32_t ready = 0;
  bool Empty() const { return desired == 0 && current == 0 && ready == 0; }
};

// One pod attributed to a component.
struct DescribePod {
  std::string name;
  std::string phase;
  bool ready = false;
  std::optional<std::string> node;  // absent for a pod not scheduled yet
  std::string reason;               // why a pod is not ready ("Unschedulable"); "" when ready
  DescribeResources resources;
  // Needs attention: not ready and not finished (a Succeeded pod is not ready either).
  bool Unhealthy() const { return !ready && phase != "Succeeded"; }
};

// One component, or one instance of a multi-instance component (named by its instance key).
struct DescribeComponent {
  std::string name;
  std::string kind;  // "" for a logical grouping component without a kind
  DescribeReplicas replicas;
  DescribeResources resources;
  std::vector<std::string> nodes;  // distinct, sorted
  std::vector<DescribePod> pods;   // sorted by name
  std::vector<DescribeComponent> children;
};

// upstream's DescribeView: kli get's View (identity, definition, phases) plus fileMode, the total
// request and the component tree.
struct DescribeView {
  std::string name, namespace_, kind, api_version;
  std::string created_at;  // metadata.creationTimestamp as written; "" when absent
  std::string definition, origin;
  std::vector<std::string> phases;  // every matched status; {"Undefined"} when none
  bool file_mode = false;           // built from a manifest without live pods
  DescribeResources resources;      // sum over components
  std::vector<DescribeComponent> components;
};

struct DescribeViewOptions {
  std::string origin;      // the definitions' origin ("built-in", a bundle path, a directory)
  bool file_mode = false;  // mark the view as built from a manifest alone (no live status)
  RunOptions run;          // limits for every resolver evaluation (workload and pod side)
};

// Reads `object` through `definition` and places `pods` (already attributed to the workload, see
// PodsOwnedBy) on the component and instance their selectors name: a pod-bearing component keeps
// the pods its componentTypeSelector matches (all of them when it has no selector and is the
// definition's only pod-bearing component), a multi-instance component renders one child per
// instance key with the pods its componentInstanceSelector extracts. Fails, with upstream's
// wording ("build tree: get extracted instances for component x: ..."), when an extraction,
// the status or a selector fails.
Result<DescribeView> BuildDescribeView(const Bundle& bundle, const catalog::Definition& definition,
                                       const Value& object, const std::vector<Value>& pods,
                                       const DescribeViewOptions& options = {});

// The Pods (kind: Pod) of `objects` whose ownerReference chain reaches `root_uid`, in input order.
// At each level any ownerReference naming root_uid claims the pod; otherwise the walk follows the
// controller reference to the owner with that UID among `objects` (the other objects of a
// `kubectl get pods,replicasets,jobs -o json`). A missing owner, a missing controller reference
// or six levels without the root end the walk unclaimed, as upstream's OwnerWalker does.
std::vector<Value> PodsOwnedBy(const std::vector<Value>& objects, std::string_view root_uid);

// --- the pod-request math (what the scheduler charges one pod).
// requests, else limits, of nvidia.com/gpu, cpu and memory in one ResourceRequirements.
DescribeResources RequirementsOf(const Value& resources);
// max(largest init container, containers + restartPolicy=Always init sidecars) per resource;
// pod-level spec.resources cpu/memory replace the containers' sum; spec.overhead is added.
DescribeResources PodRequest(const Value& pod_spec);
// One instance's per-replica request: its pod template's, pod spec's or fragmented spec's
// (containers + container; the CR-level resources only when those request nothing).
DescribeResources InstanceRequest(const ExtractedInstance& instance);

// --- Kubernetes quantities as resource.Quantity reads and prints them.
// Value() and MilliValue(): rounded up to an integer; nullopt when not a quantity.
std::optional<int64_t> QuantityValue(const Value& quantity);
std::optional<int64_t> QuantityMilliValue(const Value& quantity);
// NewMilliQuantity(millis, DecimalSI).String(): 20000 -> "20", 500 -> "500m", 2000000 -> "2k".
std::string FormatCpuMillis(int64_t millis);
// The BinarySI text when it has a binary suffix ("64Gi"), else DecimalSI ("70M", "512").
std::string FormatMemoryBytes(int64_t bytes);

// upstream's JSON of the view: {name, namespace, kind, apiVersion, createdAt, definition, origin,
// phases, fileMode, resources: {gpus, cpuMillis, memoryBytes}, components: [{name, kind?,
// replicas: {desired, current, ready}, resources, nodes?, pods?: [{name, phase, ready, node,
// reason?, resources}], children?}]} (Go's omitempty: empty fields left out).
Value DescribeViewJson(const DescribeView& view);

}  // namespace wm::workload
