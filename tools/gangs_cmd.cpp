// `wmc gangs WORKLOAD --bundle B [--pods PODS] [-o text|json] [--engine auto|interp|jit]`: the gang
// scheduling of one workload as the KAI scheduler's Karta grouper builds it: the podGroup (name,
// topology, subgroups and their minimum member counts), the legacy podGroups (members, their
// filters and group keys, minimum member counts per member and instance), which one KAI follows,
// and with --pods the PodGroups the pods land in. Exit codes as `wmc pods`.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

#include "runtime/value/json.h"
#include "runtime/workload/view.h"
#include "tools/bundle_source.h"
#include "tools/commands.h"
#include "tools/cli_output.h"
#include "tools/gang_input.h"

namespace wm::tools {
namespace {

using workload::Result;

struct GangsOptions {
  GangInputOptions input;
  std::string pods;  // optional
  std::string output = "text";
};

// A count or its error, as text.
std::string ScaleText(const Result<int64_t>& r) {
  return r.ok() ? std::to_string(r.value) : "error: " + Printable(r.error.message);
}

std::string TopologyText(const std::optional<catalog::Topology>& t) {
  if (!t) return "";
  std::string out = "  topology " + Printable(t->name);
  if (!t->required_level.empty()) out += " required " + Printable(t->required_level);
  if (!t->preferred_level.empty()) out += " preferred " + Printable(t->preferred_level);
  return out;
}

workload::GangContext ContextOf(const GangWorkload& w) {
  workload::GangContext c;
  c.bundle = w.bundle.get();
  c.definition = w.definition;
  c.summary = w.summary.get();
  c.reader = &w.reader;
  c.identity = w.identity;
  c.api_version = w.api_version;
  c.kind = w.kind;
  return c;
}

std::string RenderText(const GangWorkload& w, const workload::GangsView& view) {
  const workload::GangSource source = view.source;
  const auto& plan = view.plan;
  const auto& uses = view.uses;
  const auto& problems = view.problems;
  std::string out = Printable(w.kind) + " " +
                    (w.identity.namespace_.empty() ? "" : Printable(w.identity.namespace_) + "/") +
                    Printable(w.identity.name) + "\ndefinition: " + Printable(w.definition->name) + "\ngangs: " +
                    workload::GangSourceName(source) + " (KAI reads podGroup, then podGroups)\n";
  if (plan && plan->ok()) {
    const auto& p = plan->value;
    out += "podGroup " + Printable(p.name) + TopologyText(p.topology) + "  min " + std::to_string(p.min_member) +
           "  subgroups " + std::to_string(p.min_sub_groups) + "\n";
    for (const auto& sub : p.sub_groups) {
      out += "  subgroup " + Printable(sub.name) + "  min " + std::to_string(sub.min_member) + TopologyText(sub.topology) + "\n";
    }
  } else if (plan) {
    out += "podGroup: error: " + Printable(plan->error.message) + "\n";
  }
  for (const catalog::GangGroup& g : w.definition->gang_groups) {
    out += "podGroups " + Printable(g.name) + "\n";
    for (const catalog::GangMember& m : g.members) {
      workload::GangMemberView v = workload::ViewGangMember(ContextOf(w), m);
      out += "  member " + Printable(m.component) + "  min " + ScaleText(v.min_member);
      for (size_t i = 0; i < v.instances.size(); ++i) {
        out += std::string(i ? ", " : "  (") + Printable(v.instances[i].first) + " " + ScaleText(v.instances[i].second);
      }
      out += v.instances.empty() ? "\n" : ")\n";
      for (int32_t f : m.filters) out += "    filter " + Printable(w.bundle->resolver_info(f).source) + "\n";
      for (int32_t k : m.group_by_key_paths) out += "    group by " + Printable(w.bundle->resolver_info(k).source) + "\n";
    }
  }
  if (source == workload::GangSource::kDefault) out += "default PodGroup " + Printable(workload::DefaultPodGroupName(w.identity)) + "  min 1\n";
  if (uses) {
    out += "PodGroups of the pods:\n";
    for (const auto& u : *uses) {
      std::string mins;
      for (int64_t n : u.min_members) mins += (mins.empty() ? "  min " : ", ") + std::to_string(n);
      if (u.min_members.size() > 1) mins += " (differs by pod)";
      out += "  " + Printable(u.name) + mins + "  pods " + std::to_string(u.pods.size()) + ":";
      for (const auto& p : u.pods) out += " " + Printable(p);
      out += "\n";
    }
  }
  for (const auto& p : problems) out += "! " + Printable(p) + "\n";
  return out;
}

int RunGangs(const GangsOptions& o) {
  if (o.output != "text" && o.output != "json") {
    std::fprintf(stderr, "wmc gangs: unknown output format '%s' (use text or json)\n", o.output.c_str());
    return 2;
  }
  GangWorkload w;
  if (int code = LoadGangWorkload(o.input, &w)) return code;
  std::vector<Value> pods;
  if (!o.pods.empty()) {
    if (int code = LoadPods("gangs", o.pods, &pods)) return code;
  }
  workload::GangContext context = ContextOf(w);
  workload::GangsView view = workload::ViewGangs(context, o.pods.empty() ? nullptr : &pods);
  if (o.output == "text") {
    WriteText(RenderText(w, view));
    return 0;
  }
  JsonWriteOptions pretty;
  pretty.indent = 2;
  std::printf("%s\n", ToJson(workload::GangsJson(context, view), pretty).c_str());
  return 0;
}

}  // namespace

void AddGangsCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<GangsOptions>();
  o->input.command = "gangs";
  auto* cmd = app.add_subcommand("gangs", "Show a workload's gang scheduling: pod groups, subgroups, minimum members");
  cmd->add_option("--bundle,-b", o->input.bundle, "Compiled catalog bundle (.wmb)")->required();
  AddExpectSha256Option(cmd, &o->input.expect_sha256);
  cmd->add_option("--pods,-p", o->pods, "Also group these pods (a Pod, a List, kubectl output, a YAML stream)");
  cmd->add_option("-o,--output", o->output, "Output format: text (default) or json");
  AddEngineOption(cmd, &o->input.engine);
  cmd->add_option("workload", o->input.workload, "Workload object file (YAML or JSON), - for stdin");
  cmd->callback([o, exit_code] { *exit_code = RunGangs(*o); });
}

}  // namespace wm::tools
