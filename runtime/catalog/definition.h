// The compiled catalog: the structure of each workload type with every jq field replaced by
// the index of a compiled resolver. The compiler builds it from the YAML model (compiler/bundle)
// and the bundle stores it in its manifest as JSON; the runtime reads it back (FromJson) without
// yaml-cpp or ANTLR. Layer: above runtime/value, below runtime/bundle and runtime/workload.
//
// Every resolver runs on the whole workload object. In a component with several instances, the
// instance id path and every spec and scale path iterate the same collection, so their results
// are zipped by position: the i-th id belongs with the i-th pod template and the i-th replicas.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/gvk.h"
#include "runtime/value/value.h"

namespace wm::catalog {

inline constexpr int32_t kNoResolver = -1;

// One matcher of a status mapping: all of its present parts must hold.
struct StatusMatcher {
  std::optional<std::string> by_phase;  // absent = no phase criterion ("" is a real value)
  struct Condition {
    std::string type;
    std::string status;  // empty = any
    std::string reason;  // empty = any
  };
  std::vector<Condition> by_conditions;
  int32_t by_expression = kNoResolver;
  Value expected_result;  // compared with the expression's first result (see status.cpp)
};

struct StatusDefinition {
  int32_t phase_path = kNoResolver;
  int32_t conditions_path = kNoResolver;
  std::string type_field = "type";
  std::string status_field = "status";
  std::string message_field = "message";
  std::string reason_field = "reason";
  // Status name ("running", "completed", ...) -> matchers, any of which selects that status.
  // Kept in the definition's order so results are listed in a stable order.
  std::vector<std::pair<std::string, std::vector<StatusMatcher>>> mappings;
  bool empty() const { return phase_path < 0 && conditions_path < 0 && mappings.empty(); }
};

// ---- writes (upstream Accessor updates and suspend/resume; runtime/workload/writes.h)
// A write target is a compiled `path(<expr>)` program: the bundle builder wraps each writable
// field's IR in PathOf at build time (the runtime cannot compile jq), so a write runs the path
// program for the paths and applies setpath to each. Path programs run on the interpreter (the
// native backends do not compile path expressions).
struct WritePaths {
  int32_t pod_template_spec = kNoResolver;
  int32_t pod_spec = kNoResolver;
  int32_t pod_metadata = kNoResolver;
  std::map<std::string, int32_t> fragmented;  // "containersPath" -> path program, ...
};

// One suspend or resume action: assign `value` (the definition's JSON text, parsed at build
// time) to every path the `path` program yields.
struct SuspendAction {
  int32_t path = kNoResolver;
  Value value;
};

struct SuspendDefinition {
  std::vector<SuspendAction> suspend_actions;  // applied in order
  std::vector<SuspendAction> resume_actions;
};
// ---- end of writes

struct Component {
  std::string name;
  base::GroupVersionKind kind;
  std::string owner;  // empty for the root
  int32_t instance_id = kNoResolver;
  // Pod shape: at most one of these groups is set.
  int32_t pod_template_spec = kNoResolver;
  int32_t pod_spec = kNoResolver;
  int32_t pod_metadata = kNoResolver;
  std::map<std::string, int32_t> fragmented;  // "containersPath" -> resolver, ...
  int32_t replicas = kNoResolver;
  int32_t min_replicas = kNoResolver;
  int32_t max_replicas = kNoResolver;
  StatusDefinition status;
  // Pod selectors (resolvers here run on Pod objects).
  int32_t instance_selector_id = kNoResolver;
  int32_t type_selector_key = kNoResolver;
  // Compared with every keyPath result (jq equality); absent = keyPath alone (any non-null
  // result). Optional because `value: ""` is a real criterion.
  std::optional<std::string> type_selector_value;
  std::map<std::string, std::string> type_selector_labels;
  int32_t replica_selector_key = kNoResolver;
  // Writes (see WritePaths): path programs, and the framework-native suspend when defined.
  WritePaths write_paths;
  std::optional<SuspendDefinition> suspend;

  bool HasPods() const {
    return pod_template_spec >= 0 || pod_spec >= 0 || !fragmented.empty();
  }
  // Any spec definition at all (pod shape or pod metadata): what upstream's spec extraction asks
  // for before it looks at the field.
  bool HasSpecDefinition() const { return HasPods() || pod_metadata >= 0; }
};

struct GangMember {
  std::string component;
  std::vector<int32_t> filters;            // pod-side predicates
  std::vector<int32_t> group_by_key_paths; // pod-side keys
};
struct GangGroup {
  std::string name;
  std::vector<GangMember> members;
};

// ---- gangScheduling.podGroup: upstream's v0.2.0 API, which the KAI scheduler reads before the
// deprecated podGroups (gang_groups). Plain data: no resolver runs for it; the subgroups' minimum
// member counts come from the components' scales (runtime/workload/gangs.h).
struct Topology {
  std::string name;             // topologyName: the Topology object the levels refer to
  std::string required_level;   // requiredTopologyLevel, "" = none
  std::string preferred_level;  // preferredTopologyLevel, "" = none
};
struct PodSubGroup {
  std::string component;  // componentName: the subtree whose pods form the subgroup
  std::optional<Topology> topology;
};
struct PodGroup {
  std::string name;
  std::vector<PodSubGroup> sub_groups;
  std::optional<Topology> topology;
};

struct Definition {
  std::string name;            // metadata.name
  std::string source_file;     // the YAML file it was compiled from
  std::vector<Component> components;  // [0] is the root
  std::vector<base::GroupVersionKind> additional_child_kinds;
  std::vector<GangGroup> gang_groups;  // deprecated podGroups
  std::optional<PodGroup> pod_group;   // podGroup (absent when the definition has none)

  const Component& root() const { return components.front(); }
  const Component* Find(std::string_view name) const;
};

// The definition whose root kind has this apiVersion ("group/version", or "v1" for core) and kind,
// or null: how a live object finds the definition that describes it.
const Definition* FindByKind(const std::vector<Definition>& definitions,
                             std::string_view api_version, std::string_view kind);

// Manifest encoding (part of the bundle format).
Value ToJson(const Definition& definition);
// Returns false with *error on a malformed manifest entry; resolver ids are checked against
// num_resolvers.
bool FromJson(const Value& json, size_t num_resolvers, Definition* out, std::string* error);

}  // namespace wm::catalog
