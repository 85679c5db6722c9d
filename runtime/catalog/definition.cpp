// Compiled definitions: the lookup by kind, and the manifest encoding (a JSON object per
// definition). FromJson validates the shape and every resolver index, because the manifest comes
// from a file a tool did not write.
#include "runtime/catalog/definition.h"

namespace wm::catalog {
namespace {

Value Int(int64_t i) { return Value::Number(static_cast<double>(i)); }

Value KindToJson(const base::GroupVersionKind& k) {
  return Value::MakeObject({{Value::String("group"), Value::String(k.group)},
                            {Value::String("version"), Value::String(k.version)},
                            {Value::String("kind"), Value::String(k.kind)}});
}

// Adds "key": id only for present resolvers, keeping manifests small and readable.
void PutResolver(std::vector<Member>* members, const char* key, int32_t id) {
  if (id >= 0) members->push_back({Value::String(key), Int(id)});
}

Value StatusToJson(const StatusDefinition& s) {
  std::vector<Member> m;
  PutResolver(&m, "phasePath", s.phase_path);
  PutResolver(&m, "conditionsPath", s.conditions_path);
  m.push_back({Value::String("typeField"), Value::String(s.type_field)});
  m.push_back({Value::String("statusField"), Value::String(s.status_field)});
  m.push_back({Value::String("messageField"), Value::String(s.message_field)});
  m.push_back({Value::String("reasonField"), Value::String(s.reason_field)});
  Array mappings;
  for (const auto& [status, matchers] : s.mappings) {
    Array ms;
    for (const auto& matcher : matchers) {
      std::vector<Member> mm;
      if (matcher.by_phase) mm.push_back({Value::String("byPhase"), Value::String(*matcher.by_phase)});
      if (!matcher.by_conditions.empty()) {
        Array conds;
        for (const auto& c : matcher.by_conditions) {
          conds.push_back(Value::MakeObject({{Value::String("type"), Value::String(c.type)},
                                             {Value::String("status"), Value::String(c.status)},
                                             {Value::String("reason"), Value::String(c.reason)}}));
        }
        mm.push_back({Value::String("byConditions"), Value::MakeArray(std::move(conds))});
      }
      if (matcher.by_expression >= 0) {
        mm.push_back({Value::String("byExpression"), Int(matcher.by_expression)});
        mm.push_back({Value::String("expectedResult"), matcher.expected_result});
      }
      ms.push_back(Value::MakeObject(std::move(mm)));
    }
    mappings.push_back(Value::MakeObject({{Value::String("status"), Value::String(status)},
                                          {Value::String("matchers"), Value::MakeArray(std::move(ms))}}));
  }
  m.push_back({Value::String("mappings"), Value::MakeArray(std::move(mappings))});
  return Value::MakeObject(std::move(m));
}

// ---- writes: "writePaths" {podTemplateSpec, podSpec, podMetadata, fragmented{}} and "suspend"
// {suspendActions: [{path, value}], resumeActions: [...]}; both omitted when empty.
Value ActionsToJson(const std::vector<SuspendAction>& actions) {
  Array out;
  for (const SuspendAction& a : actions) {
    out.push_back(Value::MakeObject({{Value::String("path"), Int(a.path)}, {Value::String("value"), a.value}}));
  }
  return Value::MakeArray(std::move(out));
}

void PutWrites(const Component& c, std::vector<Member>* m) {
  std::vector<Member> w;
  PutResolver(&w, "podTemplateSpec", c.write_paths.pod_template_spec);
  PutResolver(&w, "podSpec", c.write_paths.pod_spec);
  PutResolver(&w, "podMetadata", c.write_paths.pod_metadata);
  if (!c.write_paths.fragmented.empty()) {
    std::vector<Member> f;
    for (const auto& [field, id] : c.write_paths.fragmented) f.push_back({Value::String(field), Int(id)});
    w.push_back({Value::String("fragmented"), Value::MakeObject(std::move(f))});
  }
  if (!w.empty()) m->push_back({Value::String("writePaths"), Value::MakeObject(std::move(w))});
  if (c.suspend) {
    m->push_back({Value::String("suspend"),
                  Value::MakeObject({{Value::String("suspendActions"), ActionsToJson(c.suspend->suspend_actions)},
                                     {Value::String("resumeActions"), ActionsToJson(c.suspend->resume_actions)}})});
  }
}
// ---- end of writes

Value ComponentToJson(const Component& c) {
  std::vector<Member> m;
  m.push_back({Value::String("name"), Value::String(c.name)});
  m.push_back({Value::String("kind"), KindToJson(c.kind)});
  if (!c.owner.empty()) m.push_back({Value::String("owner"), Value::String(c.owner)});
  PutResolver(&m, "instanceId", c.instance_id);
  PutResolver(&m, "podTemplateSpec", c.pod_template_spec);
  PutResolver(&m, "podSpec", c.pod_spec);
  PutResolver(&m, "podMetadata", c.pod_metadata);
  if (!c.fragmented.empty()) {
    std::vector<Member> f;
    for (const auto& [field, id] : c.fragmented) f.push_back({Value::String(field), Int(id)});
    m.push_back({Value::String("fragmented"), Value::MakeObject(std::move(f))});
  }
  PutResolver(&m, "replicas", c.replicas);
  PutResolver(&m, "minReplicas", c.min_replicas);
  PutResolver(&m, "maxReplicas", c.max_replicas);
  if (!c.status.empty()) m.push_back({Value::String("status"), StatusToJson(c.status)});
  PutResolver(&m, "instanceSelectorId", c.instance_selector_id);
  PutResolver(&m, "typeSelectorKey", c.type_selector_key);
  if (c.type_selector_value) m.push_back({Value::String("typeSelectorValue"), Value::String(*c.type_selector_value)});
  if (!c.type_selector_labels.empty()) {
    std::vector<Member> l;
    for (const auto& [k, v] : c.type_selector_labels) l.push_back({Value::String(k), Value::String(v)});
    m.push_back({Value::String("typeSelectorLabels"), Value::MakeObject(std::move(l))});
  }
  PutResolver(&m, "replicaSelectorKey", c.replica_selector_key);
  PutWrites(c, &m);
  return Value::MakeObject(std::move(m));
}

// podGroup: {name, subGroups: [{componentName, topology?}], topology?} in upstream's spelling.
Value TopologyToJson(const Topology& t) {
  return Value::MakeObject({{Value::String("topologyName"), Value::String(t.name)},
                            {Value::String("requiredTopologyLevel"), Value::String(t.required_level)},
                            {Value::String("preferredTopologyLevel"), Value::String(t.preferred_level)}});
}

Value PodGroupToJson(const PodGroup& g) {
  Array subs;
  for (const PodSubGroup& sub : g.sub_groups) {
    std::vector<Member> m = {{Value::String("componentName"), Value::String(sub.component)}};
    if (sub.topology) m.push_back({Value::String("topology"), TopologyToJson(*sub.topology)});
    subs.push_back(Value::MakeObject(std::move(m)));
  }
  std::vector<Member> m = {{Value::String("name"), Value::String(g.name)},
                           {Value::String("subGroups"), Value::MakeArray(std::move(subs))}};
  if (g.topology) m.push_back({Value::String("topology"), TopologyToJson(*g.topology)});
  return Value::MakeObject(std::move(m));
}

Value IdArray(const std::vector<int32_t>& ids) {
  Array a;
  for (int32_t id : ids) a.push_back(Int(id));
  return Value::MakeArray(std::move(a));
}

// ---- decoding

class Reader {
 public:
  Reader(size_t num_resolvers, std::string* error) : num_resolvers_(num_resolvers), error_(error) {}

  bool Fail(const std::string& why) {
    if (error_->empty()) *error_ = why;
    return false;
  }
  std::string String(const Value& obj, std::string_view key) {
    const Value* v = obj.Find(key);
    if (!v) return "";
    if (!v->IsString()) Fail("manifest field '" + std::string(key) + "' is not a string");
    return v->IsString() ? std::string(v->AsString()) : "";
  }
  int32_t Resolver(const Value& obj, std::string_view key) {
    const Value* v = obj.Find(key);
    if (!v) return kNoResolver;
    return ResolverValue(*v, key);
  }
  int32_t ResolverValue(const Value& v, std::string_view what) {
    if (!v.IsNumber() || v.AsNumber() < 0 || v.AsNumber() >= static_cast<double>(num_resolvers_) ||
        v.AsNumber() != static_cast<double>(static_cast<int32_t>(v.AsNumber()))) {
      Fail("manifest field '" + std::string(what) + "' is not a valid resolver index");
      return kNoResolver;
    }
    return static_cast<int32_t>(v.AsNumber());
  }
  const Array* ArrayField(const Value& obj, std::string_view key) {
    const Value* v = obj.Find(key);
    if (!v) return nullptr;
    if (!v->IsArray()) {
      Fail("manifest field '" + std::string(key) + "' is not an array");
      return nullptr;
    }
    return &v->AsArray();
  }
  const Value* ObjectField(const Value& obj, std::string_view key) {
    const Value* v = obj.Find(key);
    if (v && !v->IsObject()) {
      Fail("manifest field '" + std::string(key) + "' is not an object");
      return nullptr;
    }
    return v;
  }
  base::GroupVersionKind Kind(const Value& obj) {
    base::GroupVersionKind k;
    if (const Value* v = ObjectField(obj, "kind")) {
      k.group = String(*v, "group");
      k.version = String(*v, "version");
      k.kind = String(*v, "kind");
    }
    return k;
  }
  void Status(const Value& obj, StatusDefinition* s) {
    s->phase_path = Resolver(obj, "phasePath");
    s->conditions_path = Resolver(obj, "conditionsPath");
    s->type_field = String(obj, "typeField");
    s->status_field = String(obj, "statusField");
    s->message_field = String(obj, "messageField");
    s->reason_field = String(obj, "reasonField");
    if (const Array* mappings = ArrayField(obj, "mappings")) {
      for (const Value& mapping : *mappings) {
        if (!mapping.IsObject()) { Fail("status mapping is not an object"); return; }
        std::vector<StatusMatcher> matchers;
        if (const Array* ms = ArrayField(mapping, "matchers")) {
          for (const Value& mv : *ms) {
            if (!mv.IsObject()) { Fail("status matcher is not an object"); return; }
            StatusMatcher matcher;
            if (mv.Find("byPhase")) matcher.by_phase = String(mv, "byPhase");
            if (const Array* conds = ArrayField(mv, "byConditions")) {
              for (const Value& c : *conds) {
                if (!c.IsObject()) { Fail("condition matcher is not an object"); return; }
                matcher.by_conditions.push_back(
                    {String(c, "type"), String(c, "status"), String(c, "reason")});
              }
            }
            matcher.by_expression = Resolver(mv, "byExpression");
            if (const Value* e = mv.Find("expectedResult")) matcher.expected_result = *e;
            matchers.push_back(std::move(matcher));
          }
        }
        s->mappings.emplace_back(String(mapping, "status"), std::move(matchers));
      }
    }
  }
  // ---- writes (see PutWrites)
  void Writes(const Value& obj, Component* c) {
    if (const Value* w = ObjectField(obj, "writePaths")) {
      c->write_paths.pod_template_spec = Resolver(*w, "podTemplateSpec");
      c->write_paths.pod_spec = Resolver(*w, "podSpec");
      c->write_paths.pod_metadata = Resolver(*w, "podMetadata");
      if (const Value* f = ObjectField(*w, "fragmented")) {
        for (const auto& [k, v] : f->AsObject()) {
          c->write_paths.fragmented[std::string(k.AsString())] = ResolverValue(v, "writePaths.fragmented");
        }
      }
    }
    if (const Value* s = ObjectField(obj, "suspend")) {
      SuspendDefinition suspend;
      suspend.suspend_actions = Actions(*s, "suspendActions");
      suspend.resume_actions = Actions(*s, "resumeActions");
      c->suspend = std::move(suspend);
    }
  }
  std::vector<SuspendAction> Actions(const Value& obj, std::string_view key) {
    std::vector<SuspendAction> actions;
    const Array* items = ArrayField(obj, key);
    if (!items) return actions;
    for (const Value& item : *items) {
      const Value* value = item.IsObject() ? item.Find("value") : nullptr;
      if (!value || !item.Find("path")) {
        Fail("manifest " + std::string(key) + " entry needs a path and a value");
        return actions;
      }
      actions.push_back({Resolver(item, "path"), *value});
    }
    return actions;
  }
  // ---- end of writes

  std::optional<Topology> TopologyField(const Value& obj) {
    const Value* t = ObjectField(obj, "topology");
    if (!t) return std::nullopt;
    return Topology{String(*t, "topologyName"), String(*t, "requiredTopologyLevel"),
                    String(*t, "preferredTopologyLevel")};
  }
  std::optional<PodGroup> PodGroupField(const Value& obj) {
    const Value* g = ObjectField(obj, "podGroup");
    if (!g) return std::nullopt;
    PodGroup group;
    group.name = String(*g, "name");
    group.topology = TopologyField(*g);
    if (const Array* subs = ArrayField(*g, "subGroups")) {
      for (const Value& sub : *subs) {
        if (!sub.IsObject()) {
          Fail("podGroup subGroups entry is not an object");
          break;
        }
        group.sub_groups.push_back({String(sub, "componentName"), TopologyField(sub)});
      }
    }
    return group;
  }
  std::vector<int32_t> Ids(const Value& obj, std::string_view key) {
    std::vector<int32_t> ids;
    if (const Array* a = ArrayField(obj, key)) {
      for (const Value& v : *a) ids.push_back(ResolverValue(v, key));
    }
    return ids;
  }

 private:
  size_t num_resolvers_;
  std::string* error_;
};

}  // namespace

const Component* Definition::Find(std::string_view component_name) const {
  for (const auto& c : components) {
    if (c.name == component_name) return &c;
  }
  return nullptr;
}

const Definition* FindByKind(const std::vector<Definition>& definitions,
                             std::string_view api_version, std::string_view kind) {
  for (const auto& d : definitions) {
    if (d.root().kind.kind == kind && d.root().kind.ApiVersion() == api_version) return &d;
  }
  return nullptr;
}

Value ToJson(const Definition& d) {
  Array components, extra, gangs;
  for (const auto& c : d.components) components.push_back(ComponentToJson(c));
  for (const auto& k : d.additional_child_kinds) extra.push_back(KindToJson(k));
  for (const auto& g : d.gang_groups) {
    Array members;
    for (const auto& m : g.members) {
      members.push_back(Value::MakeObject({{Value::String("component"), Value::String(m.component)},
                                           {Value::String("filters"), IdArray(m.filters)},
                                           {Value::String("groupByKeyPaths"), IdArray(m.group_by_key_paths)}}));
    }
    gangs.push_back(Value::MakeObject({{Value::String("name"), Value::String(g.name)},
                                       {Value::String("members"), Value::MakeArray(std::move(members))}}));
  }
  std::vector<Member> m = {{Value::String("name"), Value::String(d.name)},
                           {Value::String("sourceFile"), Value::String(d.source_file)},
                           {Value::String("components"), Value::MakeArray(std::move(components))},
                           {Value::String("additionalChildKinds"), Value::MakeArray(std::move(extra))},
                           {Value::String("gangGroups"), Value::MakeArray(std::move(gangs))}};
  if (d.pod_group) m.push_back({Value::String("podGroup"), PodGroupToJson(*d.pod_group)});
  return Value::MakeObject(std::move(m));
}

bool FromJson(const Value& json, size_t num_resolvers, Definition* out, std::string* error) {
  error->clear();
  Reader r(num_resolvers, error);
  if (!json.IsObject()) return r.Fail("definition entry is not an object");
  out->name = r.String(json, "name");
  out->source_file = r.String(json, "sourceFile");
  const Array* components = r.ArrayField(json, "components");
  if (!components || components->empty()) return r.Fail("definition '" + out->name + "' has no components");
  for (const Value& cv : *components) {
    if (!cv.IsObject()) return r.Fail("component entry is not an object");
    Component c;
    c.name = r.String(cv, "name");
    c.kind = r.Kind(cv);
    c.owner = r.String(cv, "owner");
    c.instance_id = r.Resolver(cv, "instanceId");
    c.pod_template_spec = r.Resolver(cv, "podTemplateSpec");
    c.pod_spec = r.Resolver(cv, "podSpec");
    c.pod_metadata = r.Resolver(cv, "podMetadata");
    if (const Value* f = r.ObjectField(cv, "fragmented")) {
      for (const auto& [k, v] : f->AsObject())
        c.fragmented[std::string(k.AsString())] = r.ResolverValue(v, "fragmented");
    }
    c.replicas = r.Resolver(cv, "replicas");
    c.min_replicas = r.Resolver(cv, "minReplicas");
    c.max_replicas = r.Resolver(cv, "maxReplicas");
    if (const Value* s = r.ObjectField(cv, "status")) r.Status(*s, &c.status);
    c.instance_selector_id = r.Resolver(cv, "instanceSelectorId");
    c.type_selector_key = r.Resolver(cv, "typeSelectorKey");
    if (cv.Find("typeSelectorValue")) c.type_selector_value = r.String(cv, "typeSelectorValue");
    if (const Value* l = r.ObjectField(cv, "typeSelectorLabels")) {
      for (const auto& [k, v] : l->AsObject()) {
        c.type_selector_labels[std::string(k.AsString())] = v.IsString() ? std::string(v.AsString()) : "";
      }
    }
    c.replica_selector_key = r.Resolver(cv, "replicaSelectorKey");
    r.Writes(cv, &c);
    out->components.push_back(std::move(c));
  }
  if (const Array* extra = r.ArrayField(json, "additionalChildKinds")) {
    for (const Value& k : *extra) {
      if (!k.IsObject()) return r.Fail("additionalChildKinds entry is not an object");
      out->additional_child_kinds.push_back(
          {r.String(k, "group"), r.String(k, "version"), r.String(k, "kind")});
    }
  }
  if (const Array* gangs = r.ArrayField(json, "gangGroups")) {
    for (const Value& g : *gangs) {
      if (!g.IsObject()) return r.Fail("gangGroups entry is not an object");
      GangGroup group;
      group.name = r.String(g, "name");
      if (const Array* members = r.ArrayField(g, "members")) {
        for (const Value& m : *members) {
          if (!m.IsObject()) return r.Fail("gang member is not an object");
          group.members.push_back({r.String(m, "component"), r.Ids(m, "filters"),
                                   r.Ids(m, "groupByKeyPaths")});
        }
      }
      out->gang_groups.push_back(std::move(group));
    }
  }
  out->pod_group = r.PodGroupField(json);
  return error->empty();
}

}  // namespace wm::catalog
