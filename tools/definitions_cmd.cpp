// `wmc definitions [NAME] [--group G [--kind K [--version V]]] [--component-limit N]
// [-o table|json|yaml] [--bundle B | --catalog DIR]`: lists the definitions wmc resolves workloads
// with, as `kli definitions` does: a table NAME KIND ORIGIN COMPONENTS sorted by name, or the
// definitions themselves as JSON/YAML ({items, count}; a NAME gives the one definition bare).
// The definitions are rebuilt from the compiled catalog in the Karta layout, with every jq field
// back as its source text. Exit 0 listed, 1 no definition matched, 2 usage or unreadable bundle.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/catalog/definition.h"
#include "tools/bundle_source.h"
#include "tools/cli_output.h"
#include "tools/commands.h"

namespace wm::tools {
namespace {

struct DefinitionsOptions {
  std::string name;
  std::string group, kind, version;
  CLI::Option* group_flag = nullptr;  // set at registration: whether a flag was given at all
  CLI::Option* kind_flag = nullptr;
  CLI::Option* version_flag = nullptr;
  int component_limit = 3;  // children listed after the root; 0 = all
  std::string output = "table";
  BundleSourceOptions source;
};


// Adds "key": <jq source of resolver id> when the resolver is present.
void PutJq(const Bundle& b, std::vector<Member>* m, const char* key, int32_t id) {
  if (id >= 0) m->push_back({Value::String(key), Value::String(b.resolver_info(id).source)});
}

void PutObject(std::vector<Member>* m, const char* key, std::vector<Member> members) {
  if (!members.empty()) m->push_back({Value::String(key), Value::MakeObject(std::move(members))});
}

Value MatcherView(const Bundle& b, const catalog::StatusMatcher& matcher) {
  std::vector<Member> m;
  if (matcher.by_phase) m.push_back({Value::String("byPhase"), Value::String(*matcher.by_phase)});
  if (!matcher.by_conditions.empty()) {
    Array conditions;
    for (const auto& c : matcher.by_conditions) {
      std::vector<Member> cm = {{Value::String("type"), Value::String(c.type)}};
      if (!c.status.empty()) cm.push_back({Value::String("status"), Value::String(c.status)});
      if (!c.reason.empty()) cm.push_back({Value::String("reason"), Value::String(c.reason)});
      conditions.push_back(Value::MakeObject(std::move(cm)));
    }
    m.push_back({Value::String("byConditions"), Value::MakeArray(std::move(conditions))});
  }
  if (matcher.by_expression >= 0) {
    m.push_back(
        {Value::String("byExpression"),
         Value::MakeObject({{Value::String("expression"), Value::String(b.resolver_info(matcher.by_expression).source)},
                            {Value::String("expectedResult"), matcher.expected_result}})});
  }
  return Value::MakeObject(std::move(m));
}

std::vector<Member> StatusView(const Bundle& b, const catalog::StatusDefinition& s) {
  std::vector<Member> m;
  if (s.phase_path >= 0) {
    m.push_back({Value::String("phaseDefinition"),
                 Value::MakeObject({{Value::String("path"), Value::String(b.resolver_info(s.phase_path).source)}})});
  }
  if (s.conditions_path >= 0) {
    m.push_back({Value::String("conditionsDefinition"),
                 Value::MakeObject({{Value::String("path"), Value::String(b.resolver_info(s.conditions_path).source)},
                                    {Value::String("typeFieldName"), Value::String(s.type_field)},
                                    {Value::String("statusFieldName"), Value::String(s.status_field)},
                                    {Value::String("messageFieldName"), Value::String(s.message_field)},
                                    {Value::String("reasonFieldName"), Value::String(s.reason_field)}})});
  }
  std::vector<Member> mappings;
  for (const auto& [status, matchers] : s.mappings) {
    Array list;
    for (const auto& matcher : matchers) list.push_back(MatcherView(b, matcher));
    // The catalog stores status names as reported ("Running"); Karta keys them in lower case.
    std::string key = status;
    if (!key.empty()) key[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(key[0])));
    mappings.push_back({Value::String(key), Value::MakeArray(std::move(list))});
  }
  PutObject(&m, "statusMappings", std::move(mappings));
  return m;
}

std::vector<Member> PodSelectorView(const Bundle& b, const catalog::Component& c) {
  std::vector<Member> type, m;
  PutJq(b, &type, "keyPath", c.type_selector_key);
  if (c.type_selector_value) type.push_back({Value::String("value"), Value::String(*c.type_selector_value)});
  std::vector<Member> labels;
  for (const auto& [k, v] : c.type_selector_labels) labels.push_back({Value::String(k), Value::String(v)});
  PutObject(&type, "matchLabels", std::move(labels));
  PutObject(&m, "componentTypeSelector", std::move(type));
  if (c.instance_selector_id >= 0) {
    m.push_back({Value::String("componentInstanceSelector"),
                 Value::MakeObject(
                     {{Value::String("idPath"), Value::String(b.resolver_info(c.instance_selector_id).source)}})});
  }
  if (c.replica_selector_key >= 0) {
    m.push_back({Value::String("replicaSelector"),
                 Value::MakeObject(
                     {{Value::String("keyPath"), Value::String(b.resolver_info(c.replica_selector_key).source)}})});
  }
  return m;
}

Value ComponentView(const Bundle& b, const catalog::Component& c) {
  std::vector<Member> m = {
      {Value::String("name"), Value::String(c.name)},
      {Value::String("kind"), Value::MakeObject({{Value::String("group"), Value::String(c.kind.group)},
                                                 {Value::String("version"), Value::String(c.kind.version)},
                                                 {Value::String("kind"), Value::String(c.kind.kind)}})}};
  if (!c.owner.empty()) m.push_back({Value::String("ownerRef"), Value::String(c.owner)});
  PutJq(b, &m, "instanceIdPath", c.instance_id);
  std::vector<Member> spec, fragmented, scale;
  PutJq(b, &spec, "podTemplateSpecPath", c.pod_template_spec);
  PutJq(b, &spec, "podSpecPath", c.pod_spec);
  PutJq(b, &spec, "metadataPath", c.pod_metadata);
  for (const auto& [field, id] : c.fragmented) PutJq(b, &fragmented, field.c_str(), id);
  PutObject(&spec, "fragmentedPodSpecDefinition", std::move(fragmented));
  PutObject(&m, "specDefinition", std::move(spec));
  PutJq(b, &scale, "replicasPath", c.replicas);
  PutJq(b, &scale, "minReplicasPath", c.min_replicas);
  PutJq(b, &scale, "maxReplicasPath", c.max_replicas);
  PutObject(&m, "scaleDefinition", std::move(scale));
  PutObject(&m, "statusDefinition", StatusView(b, c.status));
  PutObject(&m, "podSelector", PodSelectorView(b, c));
  return Value::MakeObject(std::move(m));
}

Value GangView(const Bundle& b, const catalog::Definition& d) {
  Array groups;
  for (const auto& g : d.gang_groups) {
    Array members;
    for (const auto& member : g.members) {
      std::vector<Member> mm = {{Value::String("componentName"), Value::String(member.component)}};
      Array filters, keys;
      for (int32_t id : member.filters) filters.push_back(Value::String(b.resolver_info(id).source));
      for (int32_t id : member.group_by_key_paths) keys.push_back(Value::String(b.resolver_info(id).source));
      if (!filters.empty()) mm.push_back({Value::String("filters"), Value::MakeArray(std::move(filters))});
      if (!keys.empty()) mm.push_back({Value::String("groupByKeyPaths"), Value::MakeArray(std::move(keys))});
      members.push_back(Value::MakeObject(std::move(mm)));
    }
    groups.push_back(Value::MakeObject({{Value::String("name"), Value::String(g.name)},
                                        {Value::String("members"), Value::MakeArray(std::move(members))}}));
  }
  return Value::MakeArray(std::move(groups));
}

// The definition in the Karta layout (run.ai/v1alpha1), rebuilt from the compiled catalog.
Value KartaView(const Bundle& b, const catalog::Definition& d) {
  Array children;
  for (size_t i = 1; i < d.components.size(); ++i) children.push_back(ComponentView(b, d.components[i]));
  std::vector<Member> structure = {{Value::String("rootComponent"), ComponentView(b, d.root())}};
  if (!children.empty()) structure.push_back({Value::String("childComponents"), Value::MakeArray(std::move(children))});
  std::vector<Member> spec = {{Value::String("structureDefinition"), Value::MakeObject(std::move(structure))}};
  if (!d.gang_groups.empty()) {
    spec.push_back({Value::String("optimizationInstructions"),
                    Value::MakeObject({{Value::String("gangScheduling"),
                                        Value::MakeObject({{Value::String("podGroups"), GangView(b, d)}})}})});
  }
  return Value::MakeObject(
      {{Value::String("apiVersion"), Value::String("run.ai/v1alpha1")},
       {Value::String("kind"), Value::String("Karta")},
       {Value::String("metadata"), Value::MakeObject({{Value::String("name"), Value::String(d.name)}})},
       {Value::String("spec"), Value::MakeObject(std::move(spec))}});
}

// Root, then at most `limit` children (0 = all), then "+N more".
std::string ComponentsCell(const catalog::Definition& d, int limit) {
  std::string cell;
  size_t shown = limit == 0 ? d.components.size() : std::min(d.components.size(), size_t(limit) + 1);
  for (size_t i = 0; i < shown; ++i) cell += (i ? ", " : "") + d.components[i].name;
  if (shown < d.components.size()) cell += ", +" + std::to_string(d.components.size() - shown) + " more";
  return cell;
}

// kli's checks of NAME / --group / --kind / --version; "" when the combination is usable.
std::string FilterProblem(const DefinitionsOptions& o) {
  bool group = o.group_flag->count() > 0, kind = o.kind_flag->count() > 0,
       version = o.version_flag->count() > 0;
  if (!o.name.empty() && group) return "a NAME and --group address the same definition; give one or the other";
  if (kind && !group) return "--kind needs --group, for example --group kubeflow.org --kind PyTorchJob";
  if (version && !kind) {
    return "--version needs --kind, for example --group kubeflow.org --kind PyTorchJob --version v1";
  }
  if (kind && o.kind.empty()) return "--kind needs a value, for example --kind PyTorchJob";
  if (version && o.version.empty()) return "--version needs a value, for example --version v1";
  if (o.component_limit < 0) return "--component-limit must not be negative";
  return "";
}

bool Matches(const DefinitionsOptions& o, const catalog::Definition& d) {
  const auto& k = d.root().kind;
  if (k.version.empty() || k.kind.empty() || k.group != o.group) return false;
  if (!o.kind.empty() && !EqualsIgnoreCase(k.kind, o.kind)) return false;
  return o.version.empty() || k.version == o.version;
}

std::string FilterText(const DefinitionsOptions& o) {
  if (!o.version.empty()) return o.group + "/" + o.version + ", Kind=" + o.kind;
  if (!o.kind.empty()) return o.group.empty() ? o.kind : o.group + "/" + o.kind;
  return o.group;
}

void PrintTable(const std::vector<const catalog::Definition*>& defs, const std::string& origin, int limit) {
  if (defs.empty()) {
    std::fputs("No Karta definitions found.\n", stderr);
    return;
  }
  std::vector<std::vector<std::string>> rows = {{"NAME", "KIND", "ORIGIN", "COMPONENTS"}};
  for (const auto* d : defs) {
    const std::string& kind = d->root().kind.kind;
    rows.push_back({d->name, kind.empty() ? "<none>" : kind, origin, ComponentsCell(*d, limit)});
  }
  WriteText(RenderTable(rows, kDefinitionsTable));
}

int RunDefinitions(const DefinitionsOptions& o) {
  if (!CheckOutputFormat("error", o.output, {"table", "json", "yaml"})) return 2;
  if (std::string problem = FilterProblem(o); !problem.empty()) {
    std::fprintf(stderr, "error: %s\n", problem.c_str());
    return 2;
  }
  LoadedBundle loaded;
  std::string error;
  BundleSourceOptions source = o.source;
  source.load.use_native = false;  // listing definitions runs no resolver: never map native code
  if (!LoadBundle(source, &loaded, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 2;
  }
  std::vector<const catalog::Definition*> defs;
  for (const auto& d : loaded.bundle->definitions()) {
    if (!o.name.empty() && d.name != o.name) continue;
    if (o.group_flag->count() > 0 && !Matches(o, d)) continue;
    defs.push_back(&d);
  }
  std::stable_sort(defs.begin(), defs.end(), [](auto* a, auto* b) { return a->name < b->name; });
  if (defs.empty() && !o.name.empty()) {
    std::fprintf(stderr, "error: no Karta definition named \"%s\". Run \"wmc definitions\" to see what is available\n",
                 o.name.c_str());
    return 1;
  }
  if (defs.empty() && o.group_flag->count() > 0) {
    std::fprintf(stderr, "error: no Karta definition covers \"%s\". Run \"wmc definitions\" to see what is available\n",
                 FilterText(o).c_str());
    return 1;
  }
  if (o.output == "table") {
    PrintTable(defs, loaded.origin, o.component_limit);
    return 0;
  }
  Array items;
  for (const auto* d : defs) items.push_back(KartaView(*loaded.bundle, *d));
  PrintStructured(!o.name.empty() ? items.front() : ListEnvelope(std::move(items)), o.output);
  return 0;
}

}  // namespace

void AddDefinitionsCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<DefinitionsOptions>();
  auto* cmd = app.add_subcommand("definitions", "List the Karta definitions wmc understands");
  cmd->add_option("name", o->name, "One definition, by the name the list shows")->type_name("DEFINITION");
  o->group_flag = cmd->add_option("--group", o->group, "Show the definitions covering this API group")
                     ->type_name("GROUP");
  o->kind_flag = cmd->add_option("--kind", o->kind, "Show the definitions covering this kind; needs --group")
                     ->type_name("KIND");
  o->version_flag = cmd->add_option("--version", o->version,
                                    "Show the definitions covering this version; needs --kind")
                        ->type_name("VERSION");
  cmd->add_option("--component-limit", o->component_limit,
                  "Maximum child components listed per definition after the root; 0 lists every "
                  "component. Table output only")
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output, "Output format")->type_name("{table,json,yaml}");
  AddBundleOptions(cmd, &o->source);
  cmd->callback([o, exit_code] { *exit_code = RunDefinitions(*o); });
}

}  // namespace wm::tools
