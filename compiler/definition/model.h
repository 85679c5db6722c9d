// The in-memory model of a workload map definition: `run.ai/v1alpha1 Karta` (cluster scoped) and
// its predecessor `optimization.nvidia.com/v1alpha1 ResourceInterface` (same spec). Built by
// loader.h from YAML/JSON, checked by rules.h, consumed by lowering, the bundle writer and tests.
// Every jq expression of a definition is a JqField; ForEachJqField visits all of them with a role.
//
// Field names and nesting follow the upstream CRD (github.com/run-ai/karta,
// pkg/api/runai/v1alpha1/{types,structure,instructions}.go and charts/karta/crds/run.ai_kartas.yaml).
// What each jq expression is evaluated against (from the upstream field documentation and the
// upstream catalog, e.g. docs/catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml):
//  - Workload paths (JqInput::kWorkload): instanceIdPath, every specDefinition / scaleDefinition
//    path, phase and conditions paths, byExpression.expression and suspend/resume action paths are
//    evaluated against the ROOT workload object (the JobSet), never against an instance. A
//    multi-instance component iterates inside the expression (`.spec.replicatedJobs[].name`,
//    `.spec.replicatedJobs[].template.spec.template`); the i-th output of instanceIdPath names the
//    instance whose pod template / replicas are the i-th outputs of the other workload paths.
//  - Pod paths (JqInput::kPod): podSelector keyPath / idPath, gang-scheduling filters and
//    groupByKeyPaths are evaluated against individual Pod objects ("JQ path is evaluated against
//    individual pod objects, not the root resource spec" in the upstream API comments).
// ResourceInterface (upstream pkg/api/optimization/v1alpha1) has a subset of these fields (no
// suspend, replica selector, byExpression, or statuses beyond initializing/running/completed/
// failed); it is loaded with the same schema.
// Status mapping precedence (upstream StatusMappings.Entries()): resuming, suspending, suspended,
// running, failed, completed, initializing, degraded - the first status with a matching matcher
// wins; the matchers of one status are OR-ed; the criteria inside one matcher are AND-ed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/gvk.h"
#include "compiler/jq/ast.h"
#include "compiler/source/diagnostic.h"

namespace wm::definition {

// A plain string field with the position of its YAML scalar (or of its key when defaulted).
struct Text {
  std::string value;
  Location location;
};

// One jq expression embedded in the definition.
struct JqField {
  std::string text;                 // the decoded expression text (what jq sees)
  SourceMap map;                    // expression byte offset -> file line:col
  Location location;                // where the scalar's value starts in the file
  std::unique_ptr<jq::Node> ast;    // set by the loader when the expression parses; null otherwise
  bool parsed() const { return ast != nullptr; }
};

// What a jq field means; the role decides the input the expression is evaluated against and the
// type its result should have.
enum class JqRole : uint8_t {
  // component, evaluated against the root workload object
  kInstanceId,         // instanceIdPath -> one id (string) per instance
  kPodTemplateSpec,    // specDefinition.podTemplateSpecPath -> PodTemplateSpec per instance
  kPodSpec,            // specDefinition.podSpecPath -> PodSpec per instance
  kMetadata,           // specDefinition.metadataPath -> ObjectMeta per instance (with podSpecPath)
  kSchedulerName,      // fragmentedPodSpecDefinition.schedulerNamePath
  kLabels,             // fragmentedPodSpecDefinition.labelsPath
  kAnnotations,        // fragmentedPodSpecDefinition.annotationsPath
  kResources,          // fragmentedPodSpecDefinition.resourcesPath
  kResourceClaims,     // fragmentedPodSpecDefinition.resourceClaimsPath
  kPodAffinity,        // fragmentedPodSpecDefinition.podAffinityPath
  kNodeAffinity,       // fragmentedPodSpecDefinition.nodeAffinityPath
  kContainers,         // fragmentedPodSpecDefinition.containersPath
  kContainer,          // fragmentedPodSpecDefinition.containerPath
  kPriorityClassName,  // fragmentedPodSpecDefinition.priorityClassNamePath
  kImage,              // fragmentedPodSpecDefinition.imagePath
  kReplicas,           // scaleDefinition.replicasPath -> number per instance
  kMinReplicas,        // scaleDefinition.minReplicasPath
  kMaxReplicas,        // scaleDefinition.maxReplicasPath
  kPhase,              // statusDefinition.phaseDefinition.path -> string
  kConditions,         // statusDefinition.conditionsDefinition.path -> array of conditions
  kStatusExpression,   // statusMappings.<status>[].byExpression.expression -> compared as string
  kSuspendPath,        // suspendDefinition.suspendActions[].path (assignment target)
  kResumePath,         // suspendDefinition.resumeActions[].path (assignment target)
  // evaluated against a Pod object
  kTypeSelectorKey,    // podSelector.componentTypeSelector.keyPath
  kInstanceSelectorId, // podSelector.componentInstanceSelector.idPath
  kReplicaSelectorKey, // podSelector.replicaSelector.keyPath
  kGangFilter,         // gangScheduling.podGroups[].members[].filters[] -> boolean
  kGangGroupByKey,     // gangScheduling.podGroups[].members[].groupByKeyPaths[] -> one value
};

enum class JqInput : uint8_t { kWorkload, kPod };

JqInput InputOf(JqRole role);
// The YAML field name of the role ("podTemplateSpecPath", "keyPath", "filters", ...).
std::string_view FieldName(JqRole role);
// A stable identifier for manifests and dumps ("instance-id", "pod-template-spec", ...).
std::string_view RoleName(JqRole role);

// A kind as a definition writes it: the base GVK (base/gvk.h) plus where each part was written,
// so rules can point at the group, the version or the kind.
struct GroupVersionKind {
  Text group;    // empty for the core API group ("" + v1 + Pod)
  Text version;
  Text kind;
  Location location;  // of the mapping
  // The kind without its positions.
  base::GroupVersionKind Value() const { return {group.value, version.value, kind.value}; }
  // "group/version, Kind=kind" as Kubernetes prints it ("v1, Kind=Pod" for the core group).
  std::string ToString() const { return Value().KubernetesString(); }
  bool full() const { return Value().full(); }
};

struct FragmentedPodSpecDefinition {
  std::optional<JqField> scheduler_name_path;
  std::optional<JqField> labels_path;
  std::optional<JqField> annotations_path;
  std::optional<JqField> resources_path;
  std::optional<JqField> resource_claims_path;
  std::optional<JqField> pod_affinity_path;
  std::optional<JqField> node_affinity_path;
  std::optional<JqField> containers_path;
  std::optional<JqField> container_path;
  std::optional<JqField> priority_class_name_path;
  std::optional<JqField> image_path;
  Location location;
};

// At most one pod shape: podTemplateSpecPath | podSpecPath (+ metadataPath) | fragmented.
struct SpecDefinition {
  std::optional<JqField> pod_template_spec_path;
  std::optional<JqField> pod_spec_path;
  std::optional<JqField> metadata_path;
  std::optional<FragmentedPodSpecDefinition> fragmented;
  Location location;
};

struct ScaleDefinition {
  std::optional<JqField> replicas_path;
  std::optional<JqField> min_replicas_path;
  std::optional<JqField> max_replicas_path;
  Location location;
};

struct PhaseDefinition {
  std::optional<JqField> path;  // required; optional here so the rules can report its absence
  Location location;
};

struct ConditionsDefinition {
  std::optional<JqField> path;  // required
  // Names of the fields inside each condition object; upstream defaults in parentheses.
  Text type_field_name{"type", {}};
  Text status_field_name{"status", {}};
  Text message_field_name{"message", {}};
  Text reason_field_name{"reason", {}};
  Location location;
};

// The statuses a definition can map to, in upstream precedence order (see the file comment).
enum class ResourceStatus : uint8_t {
  kResuming, kSuspending, kSuspended, kRunning, kFailed, kCompleted, kInitializing, kDegraded,
};
inline constexpr int kResourceStatusCount = 8;
// The statusMappings key ("running"); and the upstream ResourceStatus value ("Running").
std::string_view StatusKey(ResourceStatus status);
std::string_view StatusDisplayName(ResourceStatus status);
std::optional<ResourceStatus> StatusFromKey(std::string_view key);

struct ExpectedCondition {
  std::optional<Text> type;    // required
  std::optional<Text> status;  // at least one of status / reason
  std::optional<Text> reason;
  Location location;
};

struct ExpressionMatcher {
  std::optional<JqField> expression;     // required
  std::optional<Text> expected_result;   // required: compared with the expression's result as
                                         // a string (a string output as is, others as JSON text)
  Location location;
};

// All present criteria must match (AND).
struct StatusMatcher {
  std::optional<Text> by_phase;
  std::optional<std::vector<ExpectedCondition>> by_conditions;  // all must hold (AND)
  std::optional<ExpressionMatcher> by_expression;
  Location location;
};

struct StatusMapping {
  ResourceStatus status = ResourceStatus::kRunning;
  std::vector<StatusMatcher> matchers;  // any may match (OR)
  Location location;                    // of the key
};

struct StatusDefinition {
  std::optional<PhaseDefinition> phase;
  std::optional<ConditionsDefinition> conditions;
  std::vector<StatusMapping> mappings;  // in file order; at most one per status
  Location location;
  Location mappings_location;           // of the statusMappings key (line 0 if absent)
  // The matchers for `status`, or null when the definition does not map it.
  const StatusMapping* Find(ResourceStatus status) const;
};

struct LabelMatch {
  Text key;
  Text value;
};

struct ComponentTypeSelector {
  std::optional<JqField> key_path;
  std::optional<Text> value;                            // only with keyPath
  std::optional<std::vector<LabelMatch>> match_labels;  // pod labels that must all be equal
  Location location;
};

struct ComponentInstanceSelector {
  std::optional<JqField> id_path;  // required
  Location location;
};

struct ReplicaSelector {
  std::optional<JqField> key_path;  // required
  Location location;
};

struct PodSelector {
  std::optional<ComponentTypeSelector> component_type_selector;
  std::optional<ComponentInstanceSelector> component_instance_selector;
  std::optional<ReplicaSelector> replica_selector;
  Location location;
};

// A JSON value to assign; `json` is JSON text. A YAML string is taken as the JSON text it holds
// (upstream writes `value: "true"`); any other YAML node is converted to JSON.
struct JsonText {
  std::string json;
  bool from_string = false;  // given as a YAML string (so it must parse as JSON)
  Location location;
};

struct SuspendAction {
  std::optional<JqField> path;    // required
  std::optional<JsonText> value;  // required
  Location location;
};

struct SuspendDefinition {
  std::vector<SuspendAction> suspend_actions;
  std::vector<SuspendAction> resume_actions;
  Location location;
};

struct Component {
  Text name;                                   // required, unique in the definition
  bool is_root = false;
  std::optional<GroupVersionKind> kind;
  std::optional<Text> owner_ref;               // name of the parent component; none for the root
  std::optional<JqField> instance_id_path;
  std::optional<SpecDefinition> spec;
  std::optional<ScaleDefinition> scale;
  std::optional<StatusDefinition> status;      // root only
  std::optional<PodSelector> pod_selector;
  std::optional<SuspendDefinition> suspend;
  Location location;                           // of the component's mapping

  // True when the component describes pods (any pod-spec shape).
  bool HasPodDefinition() const;
};

struct Topology {
  std::optional<Text> topology_name;
  std::optional<Text> required_topology_level;
  std::optional<Text> preferred_topology_level;
  Location location;
};

struct SubGroup {
  std::optional<Text> component_name;  // required
  std::optional<Topology> topology;
  Location location;
};

struct PodGroup {
  std::optional<Text> name;
  std::vector<SubGroup> sub_groups;
  std::optional<Topology> topology;
  Location location;
};

struct PodGroupMember {
  std::optional<Text> component_name;   // required
  std::vector<JqField> filters;         // ANDed boolean filters over pods
  std::vector<JqField> group_by_key_paths;
  Location location;
};

// Deprecated form (upstream v1alpha1 `podGroups`).
struct PodGroupDefinition {
  std::optional<Text> name;  // required, unique
  std::vector<PodGroupMember> members;
  Location location;
};

struct GangScheduling {
  std::optional<PodGroup> pod_group;
  std::optional<std::vector<PodGroupDefinition>> pod_groups;
  Location location;
};

struct OptimizationInstructions {
  std::optional<GangScheduling> gang_scheduling;
  Location location;
};

enum class DefinitionKind : uint8_t { kKarta, kResourceInterface };

struct Definition {
  DefinitionKind kind = DefinitionKind::kKarta;
  Text api_version;
  Text name;                           // metadata.name
  std::string file;                    // the file it was loaded from
  int document_index = 0;              // 0-based YAML document (or List item) index in the file
  Location location;                   // of the document's top mapping

  Component root;                      // spec.structureDefinition.rootComponent
  bool has_root = false;               // false when rootComponent is missing (an error)
  std::vector<Component> children;     // spec.structureDefinition.childComponents
  std::vector<GroupVersionKind> additional_child_kinds;
  OptimizationInstructions instructions;

  // The component with this name (root or child), or null.
  const Component* FindComponent(std::string_view component_name) const;
  // Root first (when present), then children in file order.
  std::vector<const Component*> Components() const;
  std::vector<Component*> Components();
};

// Visits every jq field of the definition in a stable order (root, children, gang scheduling),
// with the owning component's name and the field's role. Gang-scheduling filters and
// groupByKeyPaths are reported with the member's componentName (the component whose pods they
// select), or "" when the member has none.
using JqFieldVisitor = std::function<void(std::string_view component, JqRole role, JqField& field)>;
using ConstJqFieldVisitor =
    std::function<void(std::string_view component, JqRole role, const JqField& field)>;
void ForEachJqField(Definition& definition, const JqFieldVisitor& visit);
void ForEachJqField(const Definition& definition, const ConstJqFieldVisitor& visit);
// The same walk, also giving each field's Go-style path from the document root
// ("spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath"), for dumps.
using JqFieldPathVisitor = std::function<void(std::string_view component, JqRole role,
                                              const std::string& path, const JqField& field)>;
void ForEachJqFieldWithPath(const Definition& definition, const JqFieldPathVisitor& visit);

}  // namespace wm::definition
