// Dotted paths of the jq fields of a definition (internal/field_paths.h), built by walking the
// definition model in the shape of the upstream CRD.
#include "compiler/check/internal/field_paths.h"

namespace wm::check::internal {
namespace {

using definition::JqField;
using Paths = std::map<const JqField*, std::string>;

void Add(Paths& out, const std::optional<JqField>& field, const std::string& path) {
  if (field) out[&*field] = path;
}

void SpecPaths(Paths& out, const definition::SpecDefinition& spec, const std::string& at) {
  Add(out, spec.pod_template_spec_path, at + ".podTemplateSpecPath");
  Add(out, spec.pod_spec_path, at + ".podSpecPath");
  Add(out, spec.metadata_path, at + ".metadataPath");
  if (!spec.fragmented) return;
  const definition::FragmentedPodSpecDefinition& f = *spec.fragmented;
  const std::string fp = at + ".fragmentedPodSpecDefinition";
  Add(out, f.scheduler_name_path, fp + ".schedulerNamePath");
  Add(out, f.labels_path, fp + ".labelsPath");
  Add(out, f.annotations_path, fp + ".annotationsPath");
  Add(out, f.resources_path, fp + ".resourcesPath");
  Add(out, f.resource_claims_path, fp + ".resourceClaimsPath");
  Add(out, f.pod_affinity_path, fp + ".podAffinityPath");
  Add(out, f.node_affinity_path, fp + ".nodeAffinityPath");
  Add(out, f.containers_path, fp + ".containersPath");
  Add(out, f.container_path, fp + ".containerPath");
  Add(out, f.priority_class_name_path, fp + ".priorityClassNamePath");
  Add(out, f.image_path, fp + ".imagePath");
}

void StatusPaths(Paths& out, const definition::StatusDefinition& status, const std::string& at) {
  if (status.phase) Add(out, status.phase->path, at + ".phaseDefinition.path");
  if (status.conditions) Add(out, status.conditions->path, at + ".conditionsDefinition.path");
  for (const definition::StatusMapping& mapping : status.mappings) {
    const std::string mp = at + ".statusMappings." + std::string(definition::StatusKey(mapping.status));
    for (size_t i = 0; i < mapping.matchers.size(); ++i) {
      const auto& by_expression = mapping.matchers[i].by_expression;
      if (by_expression) {
        Add(out, by_expression->expression, mp + "[" + std::to_string(i) + "].byExpression.expression");
      }
    }
  }
}

void SelectorPaths(Paths& out, const definition::PodSelector& selector, const std::string& at) {
  if (const auto& s = selector.component_type_selector) {
    Add(out, s->key_path, at + ".componentTypeSelector.keyPath");
  }
  if (const auto& s = selector.component_instance_selector) {
    Add(out, s->id_path, at + ".componentInstanceSelector.idPath");
  }
  if (const auto& s = selector.replica_selector) Add(out, s->key_path, at + ".replicaSelector.keyPath");
}

void SuspendPaths(Paths& out, const definition::SuspendDefinition& suspend, const std::string& at) {
  for (size_t i = 0; i < suspend.suspend_actions.size(); ++i) {
    Add(out, suspend.suspend_actions[i].path, at + ".suspendActions[" + std::to_string(i) + "].path");
  }
  for (size_t i = 0; i < suspend.resume_actions.size(); ++i) {
    Add(out, suspend.resume_actions[i].path, at + ".resumeActions[" + std::to_string(i) + "].path");
  }
}

void ComponentPaths(Paths& out, const definition::Component& c, const std::string& at) {
  Add(out, c.instance_id_path, at + ".instanceIdPath");
  if (c.spec) SpecPaths(out, *c.spec, at + ".specDefinition");
  if (c.scale) {
    Add(out, c.scale->replicas_path, at + ".scaleDefinition.replicasPath");
    Add(out, c.scale->min_replicas_path, at + ".scaleDefinition.minReplicasPath");
    Add(out, c.scale->max_replicas_path, at + ".scaleDefinition.maxReplicasPath");
  }
  if (c.status) StatusPaths(out, *c.status, at + ".statusDefinition");
  if (c.pod_selector) SelectorPaths(out, *c.pod_selector, at + ".podSelector");
  if (c.suspend) SuspendPaths(out, *c.suspend, at + ".suspendDefinition");
}

void GangPaths(Paths& out, const definition::GangScheduling& gang) {
  if (!gang.pod_groups) return;
  const std::string at = "spec.optimizationInstructions.gangScheduling.podGroups";
  for (size_t g = 0; g < gang.pod_groups->size(); ++g) {
    const auto& members = (*gang.pod_groups)[g].members;
    for (size_t m = 0; m < members.size(); ++m) {
      const std::string mp = at + "[" + std::to_string(g) + "].members[" + std::to_string(m) + "]";
      for (size_t k = 0; k < members[m].filters.size(); ++k) {
        out[&members[m].filters[k]] = mp + ".filters[" + std::to_string(k) + "]";
      }
      for (size_t k = 0; k < members[m].group_by_key_paths.size(); ++k) {
        out[&members[m].group_by_key_paths[k]] = mp + ".groupByKeyPaths[" + std::to_string(k) + "]";
      }
    }
  }
}

}  // namespace

Paths JqFieldPaths(const definition::Definition& def) {
  Paths out;
  if (def.has_root) ComponentPaths(out, def.root, "spec.structureDefinition.rootComponent");
  for (size_t i = 0; i < def.children.size(); ++i) {
    ComponentPaths(out, def.children[i],
                   "spec.structureDefinition.childComponents[" + std::to_string(i) + "]");
  }
  if (def.instructions.gang_scheduling) GangPaths(out, *def.instructions.gang_scheduling);
  return out;
}

}  // namespace wm::check::internal
