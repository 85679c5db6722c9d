// Catalog building and bundle serialization (see builder.h). The walk over the definition model is
// explicit rather than through ForEachJqField because the runtime model needs to know where each
// resolver belongs (which status matcher, which gang member), not only its role.
#include "compiler/bundle/builder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "base/sha256.h"
#include "runtime/bundle/format.h"
#include "runtime/bundle/sections.h"
#include "runtime/ir/ir_binary.h"
#include "runtime/value/json.h"

namespace wm::bundle {
namespace {

using definition::JqField;
using definition::JqRole;

// The fragmented pod spec's fields with their roles.
std::vector<std::pair<JqRole, const std::optional<JqField>*>> FragmentedFields(
    const definition::FragmentedPodSpecDefinition& f) {
  return {
      {JqRole::kSchedulerName, &f.scheduler_name_path},
      {JqRole::kLabels, &f.labels_path},
      {JqRole::kAnnotations, &f.annotations_path},
      {JqRole::kResources, &f.resources_path},
      {JqRole::kResourceClaims, &f.resource_claims_path},
      {JqRole::kPodAffinity, &f.pod_affinity_path},
      {JqRole::kNodeAffinity, &f.node_affinity_path},
      {JqRole::kContainers, &f.containers_path},
      {JqRole::kContainer, &f.container_path},
      {JqRole::kPriorityClassName, &f.priority_class_name_path},
      {JqRole::kImage, &f.image_path},
  };
}

// `path(<program>)`: a copy of the program whose entry body is wrapped in PathOf, so that it
// yields the paths of what the field selects (upstream's Assign evaluates `(<path>) = $v`, which
// is setpath over these paths). The native backends refuse PathOf, so the driver leaves such a
// resolver to the interpreter.
std::shared_ptr<ir::Program> PathProgram(const ir::Program& program) {
  auto out = std::make_shared<ir::Program>(program);
  ir::Node path;
  path.op = ir::Op::PathOf;
  path.kids = {out->functions.at(0).body};
  path.source_begin = 0;
  path.source_end = static_cast<uint32_t>(out->source.size());
  out->nodes.push_back(std::move(path));
  out->functions[0].body = static_cast<ir::NodeId>(out->nodes.size() - 1);
  return out;
}

class CatalogBuilder {
 public:
  CatalogBuilder(const FieldPrograms& programs, Catalog* catalog)
      : programs_(programs), catalog_(catalog) {}

  // The resolver index of `field`: one resolver per distinct (role, text), or -1 when the field
  // has no program (the front end reported why).
  int32_t Intern(const std::string& definition, const std::string& component, JqRole role,
                 const JqField& field) {
    return Add(definition, component, std::string(definition::RoleName(role)), field,
               ResolverShape::kValue);
  }

  // The resolver index of `path(<field>)`, the write target of a writable field (role
  // "<role>-path"; suspend and resume action paths are named so already).
  int32_t InternPath(const std::string& definition, const std::string& component, JqRole role,
                     const JqField& field) {
    std::string role_name(definition::RoleName(role));
    if (!role_name.ends_with("-path")) role_name += "-path";
    return Add(definition, component, role_name, field, ResolverShape::kPath);
  }

  int32_t OptionalPath(const std::string& def, const std::string& comp, JqRole role,
                       const std::optional<JqField>& field) {
    return field ? InternPath(def, comp, role, *field) : catalog::kNoResolver;
  }

  int32_t Optional(const std::string& def, const std::string& comp, JqRole role,
                   const std::optional<JqField>& field) {
    return field ? Intern(def, comp, role, *field) : catalog::kNoResolver;
  }

  catalog::Definition Build(const definition::Definition& d) {
    catalog::Definition out;
    out.name = d.name.value;
    out.source_file = d.file;
    for (const definition::Component* c : d.Components()) out.components.push_back(BuildComponent(d, *c));
    for (const auto& k : d.additional_child_kinds) out.additional_child_kinds.push_back(k.Value());
    BuildGangGroups(d, &out);
    return out;
  }

  bool ok() const { return ok_; }

 private:
  enum class ResolverShape : uint8_t {
    kValue,  // the field's own program: its outputs
    kPath,   // path(<field>): the paths of its outputs, for writes
  };

  int32_t Add(const std::string& definition, const std::string& component, std::string role_name,
              const JqField& field, ResolverShape shape) {
    auto key = std::make_pair(role_name, field.text);
    if (auto it = interned_.find(key); it != interned_.end()) return it->second;
    auto lowered = programs_.find(&field);
    if (lowered == programs_.end() || lowered->second == nullptr) {
      ok_ = false;
      return -1;
    }
    Resolver r;
    r.info.definition = definition;
    r.info.component = component;
    r.info.role = std::move(role_name);
    r.info.source = field.text;
    r.program = shape == ResolverShape::kPath ? PathProgram(*lowered->second) : lowered->second;
    int32_t id = static_cast<int32_t>(catalog_->resolvers.size());
    catalog_->resolvers.push_back(std::move(r));
    interned_.emplace(std::move(key), id);
    return id;
  }

  // ---- writes: the path programs of the pod shape fields and the suspend/resume actions
  void BuildWrites(const std::string& def, const definition::Component& c, catalog::Component* out) {
    const std::string& name = c.name.value;
    if (c.spec) {
      out->write_paths.pod_template_spec =
          OptionalPath(def, name, JqRole::kPodTemplateSpec, c.spec->pod_template_spec_path);
      out->write_paths.pod_spec = OptionalPath(def, name, JqRole::kPodSpec, c.spec->pod_spec_path);
      out->write_paths.pod_metadata = OptionalPath(def, name, JqRole::kMetadata, c.spec->metadata_path);
      if (c.spec->fragmented) {
        for (const auto& [role, field] : FragmentedFields(*c.spec->fragmented)) {
          if (*field) {
            out->write_paths.fragmented[std::string(definition::FieldName(role))] =
                InternPath(def, name, role, **field);
          }
        }
      }
    }
    if (c.suspend) {
      catalog::SuspendDefinition suspend;
      suspend.suspend_actions = Actions(def, name, JqRole::kSuspendPath, c.suspend->suspend_actions);
      suspend.resume_actions = Actions(def, name, JqRole::kResumePath, c.suspend->resume_actions);
      out->suspend = std::move(suspend);
    }
  }

  // The actions with their value parsed (the rules have refused values that are not JSON, WM041).
  std::vector<catalog::SuspendAction> Actions(const std::string& def, const std::string& comp,
                                              JqRole role,
                                              const std::vector<definition::SuspendAction>& actions) {
    std::vector<catalog::SuspendAction> out;
    for (const definition::SuspendAction& a : actions) {
      catalog::SuspendAction action;
      action.path = OptionalPath(def, comp, role, a.path);
      JsonError error;
      if (!a.path || !a.value || !ParseJson(a.value->json, &action.value, &error)) ok_ = false;
      out.push_back(std::move(action));
    }
    return out;
  }
  // ---- end of writes

  catalog::Component BuildComponent(const definition::Definition& d, const definition::Component& c) {
    const std::string& def = d.name.value;
    const std::string& name = c.name.value;
    catalog::Component out;
    out.name = name;
    if (c.kind) out.kind = c.kind->Value();
    if (c.owner_ref) out.owner = c.owner_ref->value;
    out.instance_id = Optional(def, name, JqRole::kInstanceId, c.instance_id_path);
    if (c.spec) {
      out.pod_template_spec = Optional(def, name, JqRole::kPodTemplateSpec, c.spec->pod_template_spec_path);
      out.pod_spec = Optional(def, name, JqRole::kPodSpec, c.spec->pod_spec_path);
      out.pod_metadata = Optional(def, name, JqRole::kMetadata, c.spec->metadata_path);
      if (const auto& f = c.spec->fragmented) {
        for (const auto& [role, field] : FragmentedFields(*f)) {
          if (*field) out.fragmented[std::string(definition::FieldName(role))] = Intern(def, name, role, **field);
        }
      }
    }
    if (c.scale) {
      out.replicas = Optional(def, name, JqRole::kReplicas, c.scale->replicas_path);
      out.min_replicas = Optional(def, name, JqRole::kMinReplicas, c.scale->min_replicas_path);
      out.max_replicas = Optional(def, name, JqRole::kMaxReplicas, c.scale->max_replicas_path);
    }
    if (c.status) BuildStatus(def, name, *c.status, &out.status);
    BuildWrites(def, c, &out);
    if (const auto& ps = c.pod_selector) {
      if (const auto& t = ps->component_type_selector) {
        out.type_selector_key = Optional(def, name, JqRole::kTypeSelectorKey, t->key_path);
        if (t->value) out.type_selector_value = t->value->value;
        if (t->match_labels) {
          for (const auto& l : *t->match_labels) out.type_selector_labels[l.key.value] = l.value.value;
        }
      }
      if (const auto& i = ps->component_instance_selector) {
        out.instance_selector_id = Optional(def, name, JqRole::kInstanceSelectorId, i->id_path);
      }
      if (const auto& r = ps->replica_selector) {
        out.replica_selector_key = Optional(def, name, JqRole::kReplicaSelectorKey, r->key_path);
      }
    }
    return out;
  }

  void BuildStatus(const std::string& def, const std::string& comp,
                   const definition::StatusDefinition& s, catalog::StatusDefinition* out) {
    if (s.phase) out->phase_path = Optional(def, comp, JqRole::kPhase, s.phase->path);
    if (s.conditions) {
      out->conditions_path = Optional(def, comp, JqRole::kConditions, s.conditions->path);
      out->type_field = s.conditions->type_field_name.value;
      out->status_field = s.conditions->status_field_name.value;
      out->message_field = s.conditions->message_field_name.value;
      out->reason_field = s.conditions->reason_field_name.value;
    }
    // Stored in upstream precedence order, so the first matched status is the effective one.
    for (int i = 0; i < definition::kResourceStatusCount; ++i) {
      auto status = static_cast<definition::ResourceStatus>(i);
      const definition::StatusMapping* mapping = s.Find(status);
      if (!mapping) continue;
      std::vector<catalog::StatusMatcher> matchers;
      for (const auto& m : mapping->matchers) {
        catalog::StatusMatcher rm;
        if (m.by_phase) rm.by_phase = m.by_phase->value;
        if (m.by_conditions) {
          for (const auto& c : *m.by_conditions) {
            rm.by_conditions.push_back({c.type ? c.type->value : "", c.status ? c.status->value : "",
                                        c.reason ? c.reason->value : ""});
          }
        }
        if (m.by_expression) {
          rm.by_expression = Optional(def, comp, JqRole::kStatusExpression, m.by_expression->expression);
          if (m.by_expression->expected_result) {
            rm.expected_result = Value::String(m.by_expression->expected_result->value);
          }
        }
        matchers.push_back(std::move(rm));
      }
      out->mappings.emplace_back(std::string(definition::StatusDisplayName(status)), std::move(matchers));
    }
  }

  void BuildGangGroups(const definition::Definition& d, catalog::Definition* out) {
    const auto& gang = d.instructions.gang_scheduling;
    if (!gang) return;
    const std::string& def = d.name.value;
    if (gang->pod_groups) {
      for (const auto& g : *gang->pod_groups) {
        catalog::GangGroup group;
        group.name = g.name ? g.name->value : "";
        for (const auto& m : g.members) {
          catalog::GangMember member;
          member.component = m.component_name ? m.component_name->value : "";
          for (const auto& f : m.filters) member.filters.push_back(Intern(def, member.component, JqRole::kGangFilter, f));
          for (const auto& k : m.group_by_key_paths) {
            member.group_by_key_paths.push_back(Intern(def, member.component, JqRole::kGangGroupByKey, k));
          }
          group.members.push_back(std::move(member));
        }
        out->gang_groups.push_back(std::move(group));
      }
    }
    if (gang->pod_group) out->pod_group = BuildPodGroup(*gang->pod_group);
  }

  // podGroup is plain data (names and topology levels); the scales it needs are the components'.
  static catalog::PodGroup BuildPodGroup(const definition::PodGroup& g) {
    auto text = [](const std::optional<definition::Text>& t) { return t ? t->value : std::string(); };
    auto topology = [&](const std::optional<definition::Topology>& t) -> std::optional<catalog::Topology> {
      if (!t) return std::nullopt;
      return catalog::Topology{text(t->topology_name), text(t->required_topology_level),
                               text(t->preferred_topology_level)};
    };
    catalog::PodGroup out;
    out.name = text(g.name);
    out.topology = topology(g.topology);
    for (const auto& sub : g.sub_groups) out.sub_groups.push_back({text(sub.component_name), topology(sub.topology)});
    return out;
  }

  const FieldPrograms& programs_;
  Catalog* catalog_;
  std::map<std::pair<std::string, std::string>, int32_t> interned_;
  bool ok_ = true;
};

void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// `ir_section` is the serialized IR section: the manifest records its digest and the native
// section's, so the loader refuses sections that are not what this compiler wrote.
std::string Manifest(const BundleContents& contents, std::string_view ir_section) {
  Array resolvers, definitions;
  for (const Resolver& r : contents.catalog->resolvers) {
    std::vector<Member> m = {{Value::String("definition"), Value::String(r.info.definition)},
                             {Value::String("component"), Value::String(r.info.component)},
                             {Value::String("role"), Value::String(r.info.role)},
                             {Value::String("source"), Value::String(r.info.source)}};
    if (!r.info.native_symbol.empty()) {
      m.push_back({Value::String("native"), Value::String(r.info.native_symbol)});
    }
    resolvers.push_back(Value::MakeObject(std::move(m)));
  }
  for (const auto& d : contents.catalog->definitions) definitions.push_back(catalog::ToJson(d));
  std::vector<Member> digests = {{Value::String("ir"), Value::String(base::Sha256Hex(ir_section))}};
  if (!contents.native_object.empty()) {
    digests.push_back({Value::String("native"), Value::String(base::Sha256Hex(contents.native_object))});
  }
  Value manifest = Value::MakeObject({
      {Value::String("compiler"), Value::String(contents.compiler_version)},
      {Value::String("target"), Value::String(contents.native_object.empty() ? "" : contents.target)},
      {Value::String("resolvers"), Value::MakeArray(std::move(resolvers))},
      {Value::String("definitions"), Value::MakeArray(std::move(definitions))},
      {Value::String("digests"), Value::MakeObject(std::move(digests))},
  });
  return ToJson(manifest);
}

}  // namespace

bool BuildCatalog(const std::vector<const definition::Definition*>& definitions,
                  const FieldPrograms& programs, Catalog* catalog) {
  CatalogBuilder builder(programs, catalog);
  for (const definition::Definition* d : definitions) catalog->definitions.push_back(builder.Build(*d));
  return builder.ok();
}

std::string SerializeBundle(const BundleContents& contents) {
  std::string ir;
  for (const Resolver& r : contents.catalog->resolvers) {
    std::string bytes = ir::SerializeProgram(*r.program);
    PutU32(&ir, static_cast<uint32_t>(bytes.size()));
    ir += bytes;
  }
  std::string manifest = Manifest(contents, ir);
  std::vector<Section> sections = {{SectionKind::kManifest, manifest}, {SectionKind::kIr, ir}};
  if (!contents.native_object.empty()) sections.push_back({SectionKind::kNative, contents.native_object});
  return AssembleBundle(sections);
}

}  // namespace wm::bundle
