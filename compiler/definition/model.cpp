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

// Shared traversal for the const and non-const visitors. `visit` also gets the field's Go-style
// path from the document root (spec.structureDefinition.childComponents[0].scaleDefinition...),
// kept in one string that each level appends to and truncates back.
template <typename Visit>
class FieldWalker {
 public:
  explicit FieldWalker(const Visit& visit) : visit_(visit) {}

  template <typename Def>
  void Walk(Def& def) {
    if (def.has_root) At("spec.structureDefinition.rootComponent", [&] { ComponentFields(def.root); });
    for (size_t i = 0; i < def.children.size(); ++i) {
      At(Indexed("spec.structureDefinition.childComponents", i), [&] { ComponentFields(def.children[i]); });
    }
    if (auto& gang = def.instructions.gang_scheduling) {
      if (auto& groups = gang->pod_groups) {
        for (size_t g = 0; g < groups->size(); ++g) {
          auto& members = (*groups)[g].members;
          for (size_t m = 0; m < members.size(); ++m) {
            At("spec.optimizationInstructions.gangScheduling" + Indexed(".podGroups", g) +
                   Indexed(".members", m),
               [&] { MemberFields(members[m]); });
          }
        }
      }
    }
  }

 private:
  template <typename Body>
  void At(std::string_view step, const Body& body) {
    size_t mark = path_.size();
    path_ += step;
    body();
    path_.resize(mark);
  }
  static std::string Indexed(std::string_view name, size_t i) {
    return std::string(name) + "[" + std::to_string(i) + "]";
  }
  template <typename Field>
  void One(std::string_view component, JqRole role, Field& field, std::string_view step) {
    if (field) At(step, [&] { visit_(component, role, path_, *field); });
  }

  template <typename C>
  void ComponentFields(C& c) {
    std::string_view name = c.name.value;
    One(name, JqRole::kInstanceId, c.instance_id_path, ".instanceIdPath");
    if (c.spec) At(".specDefinition", [&] { SpecFields(name, *c.spec); });
    if (c.scale) {
      At(".scaleDefinition", [&] {
        One(name, JqRole::kReplicas, c.scale->replicas_path, ".replicasPath");
        One(name, JqRole::kMinReplicas, c.scale->min_replicas_path, ".minReplicasPath");
        One(name, JqRole::kMaxReplicas, c.scale->max_replicas_path, ".maxReplicasPath");
      });
    }
    if (c.status) At(".statusDefinition", [&] { StatusFields(name, *c.status); });
    if (c.pod_selector) {
      At(".podSelector", [&] {
        if (auto& s = c.pod_selector->component_type_selector) {
          One(name, JqRole::kTypeSelectorKey, s->key_path, ".componentTypeSelector.keyPath");
        }
        if (auto& s = c.pod_selector->component_instance_selector) {
          One(name, JqRole::kInstanceSelectorId, s->id_path, ".componentInstanceSelector.idPath");
        }
        if (auto& s = c.pod_selector->replica_selector) {
          One(name, JqRole::kReplicaSelectorKey, s->key_path, ".replicaSelector.keyPath");
        }
      });
    }
    if (c.suspend) {
      At(".suspendDefinition", [&] {
        Actions(name, JqRole::kSuspendPath, c.suspend->suspend_actions, ".suspendActions");
        Actions(name, JqRole::kResumePath, c.suspend->resume_actions, ".resumeActions");
      });
    }
  }

  template <typename S>
  void SpecFields(std::string_view name, S& spec) {
    One(name, JqRole::kPodTemplateSpec, spec.pod_template_spec_path, ".podTemplateSpecPath");
    One(name, JqRole::kPodSpec, spec.pod_spec_path, ".podSpecPath");
    One(name, JqRole::kMetadata, spec.metadata_path, ".metadataPath");
    auto& f = spec.fragmented;
    if (!f) return;
    At(".fragmentedPodSpecDefinition", [&] {
      One(name, JqRole::kSchedulerName, f->scheduler_name_path, ".schedulerNamePath");
      One(name, JqRole::kLabels, f->labels_path, ".labelsPath");
      One(name, JqRole::kAnnotations, f->annotations_path, ".annotationsPath");
      One(name, JqRole::kResources, f->resources_path, ".resourcesPath");
      One(name, JqRole::kResourceClaims, f->resource_claims_path, ".resourceClaimsPath");
      One(name, JqRole::kPodAffinity, f->pod_affinity_path, ".podAffinityPath");
      One(name, JqRole::kNodeAffinity, f->node_affinity_path, ".nodeAffinityPath");
      One(name, JqRole::kContainers, f->containers_path, ".containersPath");
      One(name, JqRole::kContainer, f->container_path, ".containerPath");
      One(name, JqRole::kPriorityClassName, f->priority_class_name_path, ".priorityClassNamePath");
      One(name, JqRole::kImage, f->image_path, ".imagePath");
    });
  }

  template <typename S>
  void StatusFields(std::string_view name, S& status) {
    if (status.phase) One(name, JqRole::kPhase, status.phase->path, ".phaseDefinition.path");
    if (status.conditions) {
      One(name, JqRole::kConditions, status.conditions->path, ".conditionsDefinition.path");
    }
    for (auto& mapping : status.mappings) {
      std::string key = ".statusMappings." + std::string(StatusKey(mapping.status));
      for (size_t i = 0; i < mapping.matchers.size(); ++i) {
        if (auto& by = mapping.matchers[i].by_expression) {
          At(Indexed(key, i) + ".byExpression",
             [&] { One(name, JqRole::kStatusExpression, by->expression, ".expression"); });
        }
      }
    }
  }

  template <typename A>
  void Actions(std::string_view name, JqRole role, A& actions, std::string_view key) {
    for (size_t i = 0; i < actions.size(); ++i) {
      At(Indexed(key, i), [&] { One(name, role, actions[i].path, ".path"); });
    }
  }

  // Gang-scheduling fields carry the member's componentName ("" when it has none).
  template <typename M>
  void MemberFields(M& member) {
    std::string_view name =
        member.component_name ? std::string_view(member.component_name->value) : std::string_view();
    for (size_t i = 0; i < member.filters.size(); ++i) {
      At(Indexed(".filters", i), [&] { visit_(name, JqRole::kGangFilter, path_, member.filters[i]); });
    }
    for (size_t i = 0; i < member.group_by_key_paths.size(); ++i) {
      At(Indexed(".groupByKeyPaths", i),
         [&] { visit_(name, JqRole::kGangGroupByKey, path_, member.group_by_key_paths[i]); });
    }
  }

  const Visit& visit_;
  std::string path_;
};

template <typename Def, typename Visit>
void VisitJqFields(Def& def, const Visit& visit) {
  FieldWalker<Visit>(visit).Walk(def);
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
  VisitJqFields(definition, [&](std::string_view component, JqRole role, const std::string&,
                                JqField& field) { visit(component, role, field); });
}

void ForEachJqField(const Definition& definition, const ConstJqFieldVisitor& visit) {
  VisitJqFields(definition, [&](std::string_view component, JqRole role, const std::string&,
                                const JqField& field) { visit(component, role, field); });
}

void ForEachJqFieldWithPath(const Definition& definition, const JqFieldPathVisitor& visit) {
  VisitJqFields(definition, visit);
}

}  // namespace wm::definition
