// The pod side of a definition, as upstream's PodQuerier and instructions/pod.go answer it: which
// component a Pod belongs to, which instance of it, its replica key, gang filters and group keys.
// Interface: StructureSummary (the definition's tree), PodQuerier (pod-side queries on one Pod),
// InferPodComponent / InferPodComponentInstance / ReplicaKeyOf. Errors carry upstream's wording.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/value.h"
#include "runtime/workload/run.h"

namespace wm::workload {

// A definition's component tree, computed once (upstream's StructureSummary): parents, children in
// definition order, pod-bearing ("leaf") components in definition order, whether any component
// has a scale definition, and per component the legacy podGroups members that may group its pods.
struct StructureSummary {
  struct Candidate {
    std::string component;  // the member's component: the pod's own or one of its ancestors
    std::string group;      // podGroups[].name
    const catalog::GangMember* member = nullptr;
  };

  explicit StructureSummary(const catalog::Definition& definition);

  const catalog::Definition* definition;
  std::map<std::string, std::string> parent;                 // child -> owner
  std::map<std::string, std::vector<std::string>> children;  // owner -> children, in order
  std::vector<const catalog::Component*> leaves;             // components with a pod definition
  bool has_scale_definition = false;
  // Direct mentions of the component first, then its ancestors nearest first; inside one level
  // the order of podGroups and members in the definition.
  std::map<std::string, std::vector<Candidate>> candidates;

  // The component and its ancestors, nearest first (stops on a cycle).
  std::vector<const catalog::Component*> SelfAndAncestors(const catalog::Component& c) const;
};

// Pod-side queries on one Pod object through the bundle's compiled pod paths. Holds a key-sorted
// copy of the pod: upstream evaluates on a Pod that went through a Go map, as the Accessor does
// for the workload object.
struct PodQueryOptions {
  RunOptions run;       // limits of each pod path run
  ObjectLimits object;  // the budget all runs on this pod share (run.h, docs/limits.md)
};

class PodQuerier {
 public:
  PodQuerier(const Bundle& bundle, const Value& pod, const PodQueryOptions& options);
  PodQuerier(const Bundle& bundle, const Value& pod, RunOptions run = {})
      : PodQuerier(bundle, pod, PodQueryOptions{std::move(run), {}}) {}

  std::string PodName() const;  // .metadata.name
  const Value& pod() const { return pod_; }

  // componentTypeSelector: keyPath alone = any non-null result; keyPath + value = any result equal
  // (jq equality) to the value as a JSON string; matchLabels = every label equal in
  // .metadata.labels; keyPath and matchLabels ANDed. A component without a selector: false.
  Result<bool> MatchesComponentType(const catalog::Component& component) const;
  // Every filter yields exactly one non-empty result that is boolean true ("true" is false).
  Result<bool> PassesFilters(const std::vector<int32_t>& filters) const;
  // One string per groupByKeyPaths entry, each under the single-result rule.
  Result<std::vector<std::string>> GroupKeys(const std::vector<int32_t>& key_paths) const;
  // The id among `instance_ids` that the component's componentInstanceSelector extracts from the
  // pod; "" for a component without one whose only instance is the anonymous one.
  Result<std::string> MatchingInstanceId(const catalog::Component& component,
                                         const std::vector<std::string>& instance_ids) const;
  // The single result of a pod path (upstream's rule: exactly one result, neither null nor ""),
  // and the same stringified (strings as they are, anything else as JSON).
  Result<Value> Single(int32_t resolver) const;
  Result<std::string> SingleString(int32_t resolver) const;
  // The jq text of a resolver, as upstream quotes it in its messages.
  std::string Source(int32_t resolver) const;

 private:
  Outputs Run(int32_t resolver) const;

  const Bundle* bundle_;
  Value pod_;
  RunOptions run_;
  // Every query on this pod is charged to it, as the Accessor's reads of a workload are; shared
  // by copies (the budget is atomic: const queries may run concurrently).
  std::shared_ptr<ObjectBudget> budget_;
};

// Whether a component's pods can be told apart by labels: a componentTypeSelector (key or labels),
// and for HasPodSelector also a type value, an instance selector or a replica-key selector.
bool HasTypeSelector(const catalog::Component& c);
bool HasPodSelector(const catalog::Component& c);

// The component a pod belongs to: the only pod-bearing component if there is one (its selector is
// not consulted), else the first pod-bearing component, in definition order, whose
// componentTypeSelector matches; else `no component found for pod <name>`.
Result<const catalog::Component*> InferPodComponent(const PodQuerier& pod, const StructureSummary& summary);

// The pod's instance of `component` given the workload's instance ids of it: none when the
// component is single-instance (ids [""]) or has no podSelector, else MatchingInstanceId's answer.
Result<std::optional<std::string>> InferPodComponentInstance(const PodQuerier& pod,
                                                             const catalog::Component& component,
                                                             const std::vector<std::string>& instance_ids);

// The pod's replica key: the replicaSelector of the component or, when it has none, of its nearest
// ancestor that has one (descendants inherit it); none when no such selector exists.
Result<std::optional<std::string>> ReplicaKeyOf(const PodQuerier& pod, const StructureSummary& summary,
                                                const catalog::Component& component);

// A value as Go's fmt prints it inside upstream's messages (`%v`): nil as <nil>, strings bare,
// anything else as JSON; a list as [a b].
std::string GoText(const Value& value);
std::string GoText(const std::vector<Value>& values);
std::string GoText(const std::vector<std::string>& values);
// Go's %q of a string (upstream quotes paths, ids and names with it): JSON string syntax.
std::string GoQuoted(std::string_view text);

}  // namespace wm::workload
