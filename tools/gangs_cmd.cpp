// `wmc gangs WORKLOAD --bundle B [--pods PODS] [-o text|json] [--engine auto|interp]`: the gang
// scheduling of one workload as the KAI scheduler's Karta grouper builds it: the podGroup (name,
// topology, subgroups and their minimum member counts), the legacy podGroups (members, their
// filters and group keys, minimum member counts per member and instance), which one KAI follows,
// and with --pods the PodGroups the pods land in. Exit codes as `wmc pods`.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <algorithm>
#include <map>
#include <string>

#include "runtime/value/json.h"
#include "tools/commands.h"
#include "tools/gang_input.h"

namespace wm::tools {
namespace {

using workload::ErrorCode;
using workload::Result;

struct GangsOptions {
  GangInputOptions input;
  std::string pods;  // optional
  std::string output = "text";
};

Value S(std::string_view s) { return Value::String(s); }
Value Number(int64_t n) { return Value::Number(static_cast<double>(n)); }

// A count or its error, as JSON ({"minMember": n} or {"error": "..."}) and as text.
Value ScaleJson(const Result<int64_t>& r) { return r.ok() ? Number(r.value) : Value::MakeObject({{S("error"), S(r.error.message)}}); }
std::string ScaleText(const Result<int64_t>& r) { return r.ok() ? std::to_string(r.value) : "error: " + r.error.message; }

Value TopologyJson(const std::optional<catalog::Topology>& t) {
  if (!t) return Value();
  return Value::MakeObject({{S("topologyName"), S(t->name)},
                            {S("requiredTopologyLevel"), S(t->required_level)},
                            {S("preferredTopologyLevel"), S(t->preferred_level)}});
}

std::string TopologyText(const std::optional<catalog::Topology>& t) {
  if (!t) return "";
  std::string out = "  topology " + t->name;
  if (!t->required_level.empty()) out += " required " + t->required_level;
  if (!t->preferred_level.empty()) out += " preferred " + t->preferred_level;
  return out;
}

// One legacy member: its subtree scale, and per instance when the component has named instances.
struct MemberView {
  const catalog::GangMember* member;
  Result<int64_t> min_member;
  std::vector<std::pair<std::string, Result<int64_t>>> instances;
};

MemberView ViewMember(const GangWorkload& w, const catalog::GangMember& m) {
  MemberView v{&m, {0, {ErrorCode::kNotFound, "component " + m.component + " not found"}}, {}};
  const catalog::Component* c = w.definition->Find(m.component);
  if (!c) return v;
  v.min_member = workload::CalculateSubtreeScale(*w.summary, w.reader, *c);
  if (c->instance_id < 0) return v;
  Result<std::vector<std::string>> ids = w.reader.instance_ids(*c);
  for (const std::string& id : ids.value) {
    v.instances.emplace_back(id, workload::CalculateSubtreeScale(*w.summary, w.reader, *c, id));
  }
  return v;
}

Value Sources(const GangWorkload& w, const std::vector<int32_t>& ids) {
  Array a;
  for (int32_t id : ids) a.push_back(S(w.bundle->resolver_info(id).source));
  return Value::MakeArray(std::move(a));
}

Value LegacyJson(const GangWorkload& w) {
  Array groups;
  for (const catalog::GangGroup& g : w.definition->gang_groups) {
    Array members;
    for (const catalog::GangMember& m : g.members) {
      MemberView v = ViewMember(w, m);
      std::vector<Member> mm = {{S("component"), S(m.component)},
                                {S("filters"), Sources(w, m.filters)},
                                {S("groupByKeyPaths"), Sources(w, m.group_by_key_paths)},
                                {S("minMember"), ScaleJson(v.min_member)}};
      if (!v.instances.empty()) {
        Array instances;
        for (const auto& [id, scale] : v.instances) {
          instances.push_back(Value::MakeObject({{S("id"), S(id)}, {S("minMember"), ScaleJson(scale)}}));
        }
        mm.push_back({S("instances"), Value::MakeArray(std::move(instances))});
      }
      members.push_back(Value::MakeObject(std::move(mm)));
    }
    groups.push_back(Value::MakeObject({{S("name"), S(g.name)}, {S("members"), Value::MakeArray(std::move(members))}}));
  }
  return Value::MakeArray(std::move(groups));
}

Value PlanJson(const Result<workload::PodGroupPlan>& r) {
  if (!r.ok()) return Value::MakeObject({{S("error"), S(r.error.message)}});
  Array subs;
  for (const auto& sub : r.value.sub_groups) {
    std::vector<Member> m = {{S("name"), S(sub.name)}, {S("minMember"), Number(sub.min_member)}};
    if (sub.topology) m.push_back({S("topology"), TopologyJson(sub.topology)});
    subs.push_back(Value::MakeObject(std::move(m)));
  }
  return Value::MakeObject({{S("name"), S(r.value.name)},
                            {S("topology"), TopologyJson(r.value.topology)},
                            {S("minMember"), Number(r.value.min_member)},
                            {S("minSubGroups"), Number(r.value.min_sub_groups)},
                            {S("subGroups"), Value::MakeArray(std::move(subs))}});
}

// The PodGroups the pods land in (KAI's preferred form), in order of first appearance.
struct PodGroupUse {
  std::string name;
  std::vector<std::string> pods;
  // The minimum each pod's grouping computes, distinct values in order: KAI computes it per pod
  // (a legacy member naming the pod's own component counts only the pod's instance), so the pods
  // of one PodGroup may disagree.
  std::vector<int64_t> min_members;
  void AddMin(int64_t n) {
    if (std::find(min_members.begin(), min_members.end(), n) == min_members.end()) min_members.push_back(n);
  }
};

std::vector<PodGroupUse> GroupPods(const GangWorkload& w, const std::vector<Value>& pods,
                                   std::vector<std::string>* problems) {
  std::vector<PodGroupUse> groups;
  std::map<std::string, size_t> index;
  for (const Value& pod : pods) {
    workload::PodQuerier querier(*w.bundle, pod);
    workload::PodAnswers a = workload::AnswerPod(querier, *w.summary, w.reader, w.identity);
    if (a.pod_group_name.empty()) {
      const workload::Error& e = a.source == workload::GangSource::kPodGroup ? a.pod_group->error : a.legacy->error;
      problems->push_back(a.pod + ": " + e.message);
      continue;
    }
    auto [it, inserted] = index.emplace(a.pod_group_name, groups.size());
    if (inserted) groups.push_back({a.pod_group_name, {}, {}});
    groups[it->second].pods.push_back(a.pod);
    if (a.source == workload::GangSource::kPodGroups) groups[it->second].AddMin(a.legacy->value.min_member);
    if (a.source == workload::GangSource::kDefault) groups[it->second].AddMin(1);
  }
  return groups;
}

std::string RenderText(const GangWorkload& w, workload::GangSource source,
                       const std::optional<Result<workload::PodGroupPlan>>& plan,
                       const std::optional<std::vector<PodGroupUse>>& uses, const std::vector<std::string>& problems) {
  std::string out = w.kind + " " + (w.identity.namespace_.empty() ? "" : w.identity.namespace_ + "/") +
                    w.identity.name + "\ndefinition: " + w.definition->name + "\ngangs: " +
                    workload::GangSourceName(source) + " (KAI reads podGroup, then podGroups)\n";
  if (plan && plan->ok()) {
    const auto& p = plan->value;
    out += "podGroup " + p.name + TopologyText(p.topology) + "  min " + std::to_string(p.min_member) +
           "  subgroups " + std::to_string(p.min_sub_groups) + "\n";
    for (const auto& sub : p.sub_groups) {
      out += "  subgroup " + sub.name + "  min " + std::to_string(sub.min_member) + TopologyText(sub.topology) + "\n";
    }
  } else if (plan) {
    out += "podGroup: error: " + plan->error.message + "\n";
  }
  for (const catalog::GangGroup& g : w.definition->gang_groups) {
    out += "podGroups " + g.name + "\n";
    for (const catalog::GangMember& m : g.members) {
      MemberView v = ViewMember(w, m);
      out += "  member " + m.component + "  min " + ScaleText(v.min_member);
      for (size_t i = 0; i < v.instances.size(); ++i) {
        out += std::string(i ? ", " : "  (") + v.instances[i].first + " " + ScaleText(v.instances[i].second);
      }
      out += v.instances.empty() ? "\n" : ")\n";
      for (int32_t f : m.filters) out += "    filter " + w.bundle->resolver_info(f).source + "\n";
      for (int32_t k : m.group_by_key_paths) out += "    group by " + w.bundle->resolver_info(k).source + "\n";
    }
  }
  if (source == workload::GangSource::kDefault) out += "default PodGroup " + workload::DefaultPodGroupName(w.identity) + "  min 1\n";
  if (uses) {
    out += "PodGroups of the pods:\n";
    for (const auto& u : *uses) {
      std::string mins;
      for (int64_t n : u.min_members) mins += (mins.empty() ? "  min " : ", ") + std::to_string(n);
      if (u.min_members.size() > 1) mins += " (differs by pod)";
      out += "  " + u.name + mins + "  pods " + std::to_string(u.pods.size()) + ":";
      for (const auto& p : u.pods) out += " " + p;
      out += "\n";
    }
  }
  for (const auto& p : problems) out += "! " + p + "\n";
  return out;
}

Value RenderJson(const GangWorkload& w, workload::GangSource source,
                 const std::optional<Result<workload::PodGroupPlan>>& plan,
                 const std::optional<std::vector<PodGroupUse>>& uses, const std::vector<std::string>& problems) {
  std::vector<Member> m = {{S("apiVersion"), S(w.api_version)}, {S("kind"), S(w.kind)},
                           {S("name"), S(w.identity.name)},     {S("namespace"), S(w.identity.namespace_)},
                           {S("definition"), S(w.definition->name)},
                           {S("gangSource"), S(workload::GangSourceName(source))}};
  if (plan) m.push_back({S("podGroup"), PlanJson(*plan)});
  if (!w.definition->gang_groups.empty()) m.push_back({S("podGroups"), LegacyJson(w)});
  if (source == workload::GangSource::kDefault) {
    m.push_back({S("default"), Value::MakeObject({{S("name"), S(workload::DefaultPodGroupName(w.identity))},
                                                  {S("minMember"), Number(1)}})});
  }
  if (uses) {
    Array groups;
    for (const auto& u : *uses) {
      Array pods;
      for (const auto& p : u.pods) pods.push_back(S(p));
      Array mins;
      for (int64_t n : u.min_members) mins.push_back(Number(n));
      groups.push_back(Value::MakeObject({{S("name"), S(u.name)},
                                          {S("minMembers"), Value::MakeArray(std::move(mins))},
                                          {S("pods"), Value::MakeArray(std::move(pods))}}));
    }
    m.push_back({S("podGroupsOfPods"), Value::MakeArray(std::move(groups))});
  }
  if (!problems.empty()) {
    Array a;
    for (const auto& p : problems) a.push_back(S(p));
    m.push_back({S("problems"), Value::MakeArray(std::move(a))});
  }
  return Value::MakeObject(std::move(m));
}

int RunGangs(const GangsOptions& o) {
  if (o.output != "text" && o.output != "json") {
    std::fprintf(stderr, "wmc gangs: unknown output format '%s' (use text or json)\n", o.output.c_str());
    return 2;
  }
  GangWorkload w;
  if (int code = LoadGangWorkload(o.input, &w)) return code;
  workload::GangSource source = workload::PreferredGangSource(*w.definition);
  std::optional<Result<workload::PodGroupPlan>> plan;
  if (w.definition->pod_group) plan = workload::PlanPodGroup(*w.summary, w.reader, w.identity);
  std::optional<std::vector<PodGroupUse>> uses;
  std::vector<std::string> problems;
  if (!o.pods.empty()) {
    std::vector<Value> pods;
    if (int code = LoadPods("gangs", o.pods, &pods)) return code;
    uses = GroupPods(w, pods, &problems);
  }
  if (o.output == "text") {
    std::fputs(RenderText(w, source, plan, uses, problems).c_str(), stdout);
    return 0;
  }
  JsonWriteOptions pretty;
  pretty.indent = 2;
  std::printf("%s\n", ToJson(RenderJson(w, source, plan, uses, problems), pretty).c_str());
  return 0;
}

}  // namespace

void AddGangsCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<GangsOptions>();
  o->input.command = "gangs";
  auto* cmd = app.add_subcommand("gangs", "Show a workload's gang scheduling: pod groups, subgroups, minimum members");
  cmd->add_option("--bundle,-b", o->input.bundle, "Compiled catalog bundle (.wmb)")->required();
  cmd->add_option("--pods,-p", o->pods, "Also group these pods (a Pod, a List, kubectl output, a YAML stream)");
  cmd->add_option("-o,--output", o->output, "Output format: text (default) or json");
  cmd->add_option("--engine", o->input.engine, "auto (native code when the bundle has it) or interp");
  cmd->add_option("workload", o->input.workload, "Workload object file (YAML or JSON), - for stdin");
  cmd->callback([o, exit_code] { *exit_code = RunGangs(*o); });
}

}  // namespace wm::tools
