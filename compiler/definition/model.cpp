// Helpers of the definition model: role names and inputs, status keys, component lookup and the
// jq-field visitor (one traversal written once, used by the loader, the rules and the bundle).
#include "compiler/definition/model.h"

#include <array>

namespace wm::definition {

namespace {

struct RoleInfo {
  JqRole role;
  JqInput input;
  std::string_view field;
  std::string_view name;
};

constexpr std::array<RoleInfo, 28> kRoles = {{
    {JqRole::kInstanceId, JqInput::kWorkload, "instanceIdPath", "instance-id"},
    {JqRole::kPodTemplateSpec, JqInput::kWorkload, "podTemplateSpecPath", "pod-template-spec"},
    {JqRole::kPodSpec, JqInput::kWorkload, "podSpecPath", "pod-spec"},
    {JqRole::kMetadata, JqInput::kWorkload, "metadataPath", "metadata"},
    {JqRole::kSchedulerName, JqInput::kWorkload, "schedulerNamePath", "scheduler-name"},
    {JqRole::kLabels, JqInput::kWorkload, "labelsPath", "labels"},
    {JqRole::kAnnotations, JqInput::kWorkload, "annotationsPath", "annotations"},
    {JqRole::kResources, JqInput::kWorkload, "resourcesPath", "resources"},
    {JqRole::kResourceClaims, JqInput::kWorkload, "resourceClaimsPath", "resource-claims"},
    {JqRole::kPodAffinity, JqInput::kWorkload, "podAffinityPath", "pod-affinity"},
    {JqRole::kNodeAffinity, JqInput::kWorkload, "nodeAffinityPath", "node-affinity"},
    {JqRole::kContainers, JqInput::kWorkload, "containersPath", "containers"},
    {JqRole::kContainer, JqInput::kWorkload, "containerPath", "container"},
    {JqRole::kPriorityClassName, JqInput::kWorkload, "priorityClassNamePath",
     "priority-class-name"},
    {JqRole::kImage, JqInput::kWorkload, "imagePath", "image"},
    {JqRole::kReplicas, JqInput::kWorkload, "replicasPath", "replicas"},
    {JqRole::kMinReplicas, JqInput::kWorkload, "minReplicasPath", "min-replicas"},
    {JqRole::kMaxReplicas, JqInput::kWorkload, "maxReplicasPath", "max-replicas"},
    {JqRole::kPhase, JqInput::kWorkload, "path", "phase"},
    {JqRole::kConditions, JqInput::kWorkload, "path", "conditions"},
    {JqRole::kStatusExpression, JqInput::kWorkload, "expression", "status-expression"},
    {JqRole::kSuspendPath, JqInput::kWorkload, "path", "suspend-path"},
    {JqRole::kResumePath, JqInput::kWorkload, "path", "resume-path"},
    {JqRole::kTypeSelectorKey, JqInput::kPod, "keyPath", "type-selector-key"},
    {JqRole::kInstanceSelectorId, JqInput::kPod, "idPath", "instance-selector-id"},
    {JqRole::kReplicaSelectorKey, JqInput::kPod, "keyPath", "replica-selector-key"},
    {JqRole::kGangFilter, JqInput::kPod, "filters", "gang-filter"},
    {JqRole::kGangGroupByKey, JqInput::kPod, "groupByKeyPaths", "gang-group-by-key"},
}};

const RoleInfo& Info(JqRole role) {
  for (const RoleInfo& info : kRoles) {
    if (info.role == role) return info;
  }
  return kRoles[0];  // unreachable: every enumerator is in the table
}

struct StatusInfo {
  ResourceStatus status;
  std::string_view key;
  std::string_view display;
};

constexpr std::array<StatusInfo, kResourceStatusCount> kStatuses = {{
    {ResourceStatus::kResuming, "resuming", "Resuming"},
    {ResourceStatus::kSuspending, "suspending", "Suspending"},
    {ResourceStatus::kSuspended, "suspended", "Suspended"},
    {ResourceStatus::kRunning, "running", "Running"},
    {ResourceStatus::kFailed, "failed", "Failed"},
    {ResourceStatus::kCompleted, "completed", "Completed"},
    {ResourceStatus::kInitializing, "initializing", "Initializing"},
    {ResourceStatus::kDegraded, "degraded", "Degraded"},
}};

// Shared traversal for the const and non-const visitors.
template <typename Def, typename Visit>
void VisitJqFields(Def& def, const Visit& visit) {
  auto one = [&](std::string_view component, JqRole role, auto& field) {
    if (field) visit(component, role, *field);
  };
  auto component_fields = [&](auto& c) {
    std::string_view name = c.name.value;
    one(name, JqRole::kInstanceId, c.instance_id_path);
    if (c.spec) {
      one(name, JqRole::kPodTemplateSpec, c.spec->pod_template_spec_path);
      one(name, JqRole::kPodSpec, c.spec->pod_spec_path);
      one(name, JqRole::kMetadata, c.spec->metadata_path);
      if (auto& f = c.spec->fragmented) {
        one(name, JqRole::kSchedulerName, f->scheduler_name_path);
        one(name, JqRole::kLabels, f->labels_path);
        one(name, JqRole::kAnnotations, f->annotations_path);
        one(name, JqRole::kResources, f->resources_path);
        one(name, JqRole::kResourceClaims, f->resource_claims_path);
        one(name, JqRole::kPodAffinity, f->pod_affinity_path);
        one(name, JqRole::kNodeAffinity, f->node_affinity_path);
        one(name, JqRole::kContainers, f->containers_path);
        one(name, JqRole::kContainer, f->container_path);
        one(name, JqRole::kPriorityClassName, f->priority_class_name_path);
        one(name, JqRole::kImage, f->image_path);
      }
    }
    if (c.scale) {
      one(name, JqRole::kReplicas, c.scale->replicas_path);
      one(name, JqRole::kMinReplicas, c.scale->min_replicas_path);
      one(name, JqRole::kMaxReplicas, c.scale->max_replicas_path);
    }
    if (c.status) {
      if (c.status->phase) one(name, JqRole::kPhase, c.status->phase->path);
      if (c.status->conditions) one(name, JqRole::kConditions, c.status->conditions->path);
      for (auto& mapping : c.status->mappings) {
        for (auto& matcher : mapping.matchers) {
          if (matcher.by_expression) {
            one(name, JqRole::kStatusExpression, matcher.by_expression->expression);
          }
        }
      }
    }
    if (c.pod_selector) {
      if (auto& s = c.pod_selector->component_type_selector) {
        one(name, JqRole::kTypeSelectorKey, s->key_path);
      }
      if (auto& s = c.pod_selector->component_instance_selector) {
        one(name, JqRole::kInstanceSelectorId, s->id_path);
      }
      if (auto& s = c.pod_selector->replica_selector) {
        one(name, JqRole::kReplicaSelectorKey, s->key_path);
      }
    }
    if (c.suspend) {
      for (auto& action : c.suspend->suspend_actions) one(name, JqRole::kSuspendPath, action.path);
      for (auto& action : c.suspend->resume_actions) one(name, JqRole::kResumePath, action.path);
    }
  };
  if (def.has_root) component_fields(def.root);
  for (auto& child : def.children) component_fields(child);
  if (auto& gang = def.instructions.gang_scheduling) {
    if (auto& groups = gang->pod_groups) {
      for (auto& group : *groups) {
        for (auto& member : group.members) {
          std::string_view name = member.component_name ? std::string_view(member.component_name->value)
                                                        : std::string_view();
          for (auto& filter : member.filters) visit(name, JqRole::kGangFilter, filter);
          for (auto& key : member.group_by_key_paths) visit(name, JqRole::kGangGroupByKey, key);
        }
      }
    }
  }
}

}  // namespace

JqInput InputOf(JqRole role) { return Info(role).input; }
std::string_view FieldName(JqRole role) { return Info(role).field; }
std::string_view RoleName(JqRole role) { return Info(role).name; }

std::string_view StatusKey(ResourceStatus status) {
  return kStatuses[static_cast<int>(status)].key;
}
std::string_view StatusDisplayName(ResourceStatus status) {
  return kStatuses[static_cast<int>(status)].display;
}
std::optional<ResourceStatus> StatusFromKey(std::string_view key) {
  for (const StatusInfo& info : kStatuses) {
    if (info.key == key) return info.status;
  }
  return std::nullopt;
}

const StatusMapping* StatusDefinition::Find(ResourceStatus status) const {
  for (const StatusMapping& mapping : mappings) {
    if (mapping.status == status) return &mapping;
  }
  return nullptr;
}

bool Component::HasPodDefinition() const {
  return spec && (spec->pod_template_spec_path || spec->pod_spec_path || spec->fragmented);
}

const Component* Definition::FindComponent(std::string_view component_name) const {
  if (has_root && root.name.value == component_name) return &root;
  for (const Component& child : children) {
    if (child.name.value == component_name) return &child;
  }
  return nullptr;
}

std::vector<const Component*> Definition::Components() const {
  std::vector<const Component*> out;
  if (has_root) out.push_back(&root);
  for (const Component& child : children) out.push_back(&child);
  return out;
}

std::vector<Component*> Definition::Components() {
  std::vector<Component*> out;
  if (has_root) out.push_back(&root);
  for (Component& child : children) out.push_back(&child);
  return out;
}

void ForEachJqField(Definition& definition, const JqFieldVisitor& visit) {
  VisitJqFields(definition, visit);
}

void ForEachJqField(const Definition& definition, const ConstJqFieldVisitor& visit) {
  VisitJqFields(definition, visit);
}

}  // namespace wm::definition
