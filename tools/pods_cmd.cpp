// `wmc pods WORKLOAD --bundle B --pods PODS [-o text|json] [--engine auto|interp|jit]`: maps each pod of
// PODS (a Pod, a List, `kubectl get pods -o json` output or a YAML stream) to the workload's
// definition: component, instance, replica key, gang component, PodGroup name, group keys, or the
// error upstream's library would give. Exit 0 (per-pod errors are part of the answer), 1 when no
// definition covers the workload's kind, 2 on unreadable input or bundle.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "runtime/value/json.h"
#include "runtime/workload/view.h"
#include "tools/bundle_source.h"
#include "tools/commands.h"
#include "tools/cli_output.h"
#include "tools/gang_input.h"

namespace wm::tools {
namespace {


struct PodsOptions {
  GangInputOptions input;
  std::string pods;
  std::string output = "text";
};

// One table row per pod; "!" lines below it for each answer that failed.
std::string RenderText(const GangWorkload& w, const std::vector<workload::PodAnswers>& answers) {
  std::vector<std::vector<std::string>> rows = {
      {"POD", "COMPONENT", "INSTANCE", "REPLICA", "GANG", "POD GROUP", "MIN", "GROUP KEYS"}};
  std::vector<std::string> notes;
  auto cell = [&](const workload::PodAnswers& a, const char* what, const auto& r, std::string value) {
    if (r.ok()) return value.empty() ? std::string("-") : value;
    notes.push_back("! " + a.pod + ": " + what + ": " + r.error.message);
    return std::string("<error>");
  };
  for (const workload::PodAnswers& a : answers) {
    std::string gang = "-", min = "-", keys = "-";
    if (a.source == workload::GangSource::kPodGroups && a.legacy && a.legacy->ok()) {
      gang = a.legacy->value.effective.component->name;
      min = std::to_string(a.legacy->value.min_member);
      keys.clear();
      for (const auto& k : a.legacy->value.group_keys) keys += (keys.empty() ? "" : ",") + k;
    } else if (a.source == workload::GangSource::kPodGroup && a.pod_group && a.pod_group->ok()) {
      gang = a.pod_group->value.sub_group.empty() ? "-" : a.pod_group->value.sub_group;
    } else if (a.source == workload::GangSource::kDefault) {
      min = "1";  // KAI's default grouper: one PodGroup per workload, minAvailable 1
    }
    if (a.source == workload::GangSource::kPodGroups && a.legacy && !a.legacy->ok() && a.component.ok()) {
      notes.push_back("! " + a.pod + ": podGroups: " + a.legacy->error.message);
    }
    if (a.pod_group && !a.pod_group->ok()) notes.push_back("! " + a.pod + ": podGroup: " + a.pod_group->error.message);
    rows.push_back({a.pod, cell(a, "component", a.component, a.component.ok() ? a.component.value->name : ""),
                    a.component.ok() ? cell(a, "instance", a.instance, a.instance.value.value_or("")) : "-",
                    a.component.ok() ? cell(a, "replica key", a.replica_key, a.replica_key.value.value_or("")) : "-",
                    gang, a.pod_group_name.empty() ? "-" : a.pod_group_name, min, keys.empty() ? "-" : keys});
  }
  for (auto& row : rows) {
    for (std::string& cell : row) cell = Printable(cell);
  }
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out = Printable(w.kind) + " " +
                    (w.identity.namespace_.empty() ? "" : Printable(w.identity.namespace_) + "/") +
                    Printable(w.identity.name) + "\ndefinition: " + Printable(w.definition->name) +
                    "\ngangs: " + workload::GangSourceName(workload::PreferredGangSource(*w.definition)) + "\n";
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i] + (i + 1 < row.size() ? std::string(width[i] - row[i].size() + 2, ' ') : "");
    }
    out += line + "\n";
  }
  for (const auto& note : notes) out += Printable(note) + "\n";
  return out;
}

int RunPods(const PodsOptions& o) {
  if (o.output != "text" && o.output != "json") {
    std::fprintf(stderr, "wmc pods: unknown output format '%s' (use text or json)\n", o.output.c_str());
    return 2;
  }
  GangWorkload w;
  if (int code = LoadGangWorkload(o.input, &w)) return code;
  std::vector<Value> pods;
  if (int code = LoadPods("pods", o.pods, &pods)) return code;
  std::vector<workload::PodAnswers> answers;
  for (const Value& pod : pods) {
    workload::PodQuerier querier(*w.bundle, pod);
    answers.push_back(workload::AnswerPod(querier, *w.summary, w.reader, w.identity));
  }
  if (o.output == "text") {
    WriteText(RenderText(w, answers));
    return 0;
  }
  Array rendered;
  for (const auto& a : answers) rendered.push_back(workload::PodAnswersJson(a));
  Value json =
      Value::MakeObject({{Value::String("apiVersion"), Value::String(w.api_version)},
                         {Value::String("kind"), Value::String(w.kind)},
                         {Value::String("name"), Value::String(w.identity.name)},
                         {Value::String("namespace"), Value::String(w.identity.namespace_)},
                         {Value::String("definition"), Value::String(w.definition->name)},
                         {Value::String("gangSource"),
                          Value::String(workload::GangSourceName(workload::PreferredGangSource(*w.definition)))},
                         {Value::String("pods"), Value::MakeArray(std::move(rendered))}});
  JsonWriteOptions pretty;
  pretty.indent = 2;
  std::printf("%s\n", ToJson(json, pretty).c_str());
  return 0;
}

}  // namespace

void AddPodsCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<PodsOptions>();
  o->input.command = "pods";
  auto* cmd = app.add_subcommand("pods", "Map pods to a workload's components, instances and gang groups");
  cmd->add_option("--bundle,-b", o->input.bundle, "Compiled catalog bundle (.wmb)")->required();
  AddExpectSha256Option(cmd, &o->input.expect_sha256);
  cmd->add_option("--pods,-p", o->pods, "Pods: a Pod, a List, kubectl get pods -o json, or a YAML stream; - for stdin")
      ->required();
  cmd->add_option("-o,--output", o->output, "Output format: text (default) or json");
  AddEngineOption(cmd, &o->input.engine);
  cmd->add_option("workload", o->input.workload, "Workload object file (YAML or JSON), - for stdin");
  cmd->callback([o, exit_code] { *exit_code = RunPods(*o); });
}

}  // namespace wm::tools
