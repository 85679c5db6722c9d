// `wmc suspend|resume WORKLOAD --bundle B [--component C]` and `wmc update WORKLOAD --bundle B
// --component C [--instance ID] --set FIELD=JSON ...`: the write half of the runtime library
// (runtime/workload/writes.h) from the shell. Each prints the updated object as JSON on stdout and
// never touches the input file. Exit 0 written, 1 no definition / component / instance or a write
// error (upstream's message on stderr), 2 usage or unreadable input or bundle.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/json.h"
#include "runtime/value/value.h"
#include "runtime/workload/run.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/writes.h"
#include "tools/bundle_source.h"
#include "tools/cli_output.h"
#include "tools/commands.h"
#include "tools/object_input.h"

namespace wm::tools {
namespace {

struct WriteCommandOptions {
  std::string bundle;
  std::string input = "-";
  std::string output = "json";
  std::string component;  // "" = the root (suspend/resume); required for update
  std::string instance;   // update: only this instance gets the values
  bool has_instance = false;
  std::vector<std::string> sets;  // update: FIELD=JSON, applied in order
  std::string expect_sha256;      // --expect-sha256, "" = none
};

// What every write command works on, loaded and looked up.
struct WriteTarget {
  std::shared_ptr<Bundle> bundle;
  Value object;
  const catalog::Component* component = nullptr;
};

// Loads the bundle and the object and finds the component. Returns 0, or the exit code after
// printing why to stderr.
int LoadTarget(const char* command, const WriteCommandOptions& o, WriteTarget* out) {
  std::string error;
  std::string name = o.input == "-" ? "<stdin>" : o.input;
  if (o.output != "json") {
    std::fprintf(stderr, "wmc %s: unknown output format '%s' (use json)\n", command, o.output.c_str());
    return 2;
  }
  BundleLoadOptions load;
  load.expect_sha256 = o.expect_sha256;
  out->bundle = Bundle::Open(o.bundle, &error, load);
  if (!out->bundle || !ReadObject(o.input, &out->object, &error)) {
    std::fprintf(stderr, "wmc %s: %s\n", command, error.c_str());
    return 2;
  }
  std::string api_version = StringField(out->object, "apiVersion"), kind = StringField(out->object, "kind");
  if (api_version.empty() || kind.empty()) {
    std::fprintf(stderr, "wmc %s: %s: not a Kubernetes object: apiVersion and kind are required\n",
                 command, name.c_str());
    return 2;
  }
  const catalog::Definition* definition = out->bundle->FindDefinition(api_version, kind);
  if (!definition) {
    std::fprintf(stderr, "wmc %s: %s: no definition in the bundle for %s %s\n", command, name.c_str(),
                 api_version.c_str(), kind.c_str());
    return 1;
  }
  out->component = o.component.empty() ? &definition->root() : definition->Find(o.component);
  if (!out->component) {
    std::string known;
    for (const auto& c : definition->components) known += (known.empty() ? "" : ", ") + c.name;
    std::fprintf(stderr, "wmc %s: definition %s has no component '%s' (components: %s)\n", command,
                 definition->name.c_str(), o.component.c_str(), known.c_str());
    return 1;
  }
  return 0;
}

int PrintResult(const char* command, const WriteCommandOptions& o, const workload::Result<Value>& r) {
  if (!r.ok()) {
    std::fprintf(stderr, "wmc %s: %s: %s\n", command, o.input == "-" ? "<stdin>" : o.input.c_str(),
                 r.error.message.c_str());
    return 1;
  }
  JsonWriteOptions pretty;
  pretty.indent = 2;
  std::printf("%s\n", ToJson(r.value, pretty).c_str());
  return 0;
}

int RunSuspendOrResume(const char* command, const WriteCommandOptions& o) {
  WriteTarget t;
  if (int code = LoadTarget(command, o, &t)) return code;
  bool suspend = std::string(command) == "suspend";
  auto result = suspend ? workload::Suspend(*t.bundle, t.object, *t.component)
                        : workload::Resume(*t.bundle, t.object, *t.component);
  return PrintResult(command, o, result);
}

// ---- update

// A --set FIELD=JSON, parsed.
struct FieldValue {
  std::string field;
  Value value;
};

bool IsFragmentedField(const std::string& field) {
  for (const std::string& name : workload::FragmentedFieldNames()) {
    if (name == field) return true;
  }
  return false;
}

bool ParseSet(const std::string& set, FieldValue* out, std::string* error) {
  size_t eq = set.find('=');
  if (eq == std::string::npos) {
    *error = "--set '" + set + "': expected FIELD=JSON";
    return false;
  }
  out->field = set.substr(0, eq);
  bool whole = out->field == "podTemplateSpec" || out->field == "podSpec" || out->field == "metadata";
  if (!whole && !IsFragmentedField(out->field)) {
    std::string known = "podTemplateSpec, podSpec, metadata";
    for (const std::string& name : workload::FragmentedFieldNames()) known += ", " + name;
    *error = "--set: unknown field '" + out->field + "' (fields: " + known + ")";
    return false;
  }
  JsonError json_error;
  if (!ParseJson(set.substr(eq + 1), &out->value, &json_error)) {
    *error = "--set " + out->field + ": invalid JSON: " + json_error.message;
    return false;
  }
  return true;
}

// The value resolver of a field (what the field currently holds per instance), or kNoResolver.
int32_t ValueResolverOf(const catalog::Component& c, const std::string& field) {
  if (field == "podTemplateSpec") return c.pod_template_spec;
  if (field == "podSpec") return c.pod_spec;
  if (field == "metadata") return c.pod_metadata;
  auto it = c.fragmented.find(field + "Path");
  return it == c.fragmented.end() ? catalog::kNoResolver : it->second;
}

// The per-instance values of one --set: the new value for the chosen instance (every instance
// without --instance); the others keep what the field holds now (its i-th result, by index as
// upstream zips; null when the field has no resolver).
workload::Result<workload::InstanceValues> ValuesFor(const WriteTarget& t, const WriteCommandOptions& o,
                                                     const FieldValue& set) {
  workload::Result<workload::InstanceValues> out;
  // Ids and current values are read as the update will read them: on the key-sorted object.
  const Value sorted = SortKeysDeep(t.object);
  auto ids = workload::InstanceIdsOfSorted(*t.bundle, sorted, *t.component, {});
  if (!ids.ok()) {
    out.error = ids.error;
    return out;
  }
  std::vector<Value> current;
  int32_t resolver = ValueResolverOf(*t.component, set.field);
  if (o.has_instance && resolver >= 0) {
    workload::Outputs outputs = workload::RunResolver(*t.bundle, resolver, sorted, {});
    if (!outputs.ok()) {
      out.error = {workload::ErrorCode::kEvaluation, outputs.error};
      return out;
    }
    current = std::move(outputs.values);
  }
  bool found = !o.has_instance;
  for (size_t i = 0; i < ids.value.size(); ++i) {
    const std::string& id = ids.value[i];
    bool chosen = !o.has_instance || id == o.instance;
    found = found || chosen;
    out.value[id] = chosen ? set.value : i < current.size() ? current[i] : Value::Null();
  }
  if (!found) {
    std::string known;
    for (const auto& id : ids.value) known += (known.empty() ? "" : ", ") + (id.empty() ? "\"\"" : id);
    out.error = {workload::ErrorCode::kNotFound, "instance id " + o.instance + " not found in component " +
                                                     t.component->name + " (instance ids: " + known + ")"};
  }
  return out;
}

// Applies one --set to *object.
workload::Result<Value> ApplySet(const WriteTarget& t, const WriteCommandOptions& o,
                                 const FieldValue& set) {
  auto values = ValuesFor(t, o, set);
  if (!values.ok()) return {Value(), values.error};
  if (set.field == "podTemplateSpec") {
    return workload::UpdatePodTemplateSpec(*t.bundle, t.object, *t.component, values.value);
  }
  if (set.field == "podSpec") return workload::UpdatePodSpec(*t.bundle, t.object, *t.component, values.value);
  if (set.field == "metadata") {
    return workload::UpdatePodMetadata(*t.bundle, t.object, *t.component, values.value);
  }
  workload::InstanceValues specs;
  for (auto& [id, v] : values.value) specs[id] = Value::MakeObject({{Value::String(set.field), v}});
  return workload::UpdateFragmentedPodSpec(*t.bundle, t.object, *t.component, specs);
}

int RunUpdate(const WriteCommandOptions& o) {
  std::vector<FieldValue> sets;
  for (const std::string& s : o.sets) {
    FieldValue parsed;
    std::string error;
    if (!ParseSet(s, &parsed, &error)) {
      std::fprintf(stderr, "wmc update: %s\n", error.c_str());
      return 2;
    }
    sets.push_back(std::move(parsed));
  }
  WriteTarget t;
  if (int code = LoadTarget("update", o, &t)) return code;
  workload::Result<Value> result{t.object, {}};
  for (const FieldValue& set : sets) {
    result = ApplySet(t, o, set);
    if (!result.ok()) break;
    t.object = result.value;  // the next --set sees this one's write
  }
  return PrintResult("update", o, result);
}

void AddCommonOptions(CLI::App* cmd, WriteCommandOptions* o) {
  cmd->add_option("--bundle,-b", o->bundle, "Compiled catalog bundle (.wmb)")->required();
  AddExpectSha256Option(cmd, &o->expect_sha256);
  cmd->add_option("-o,--output", o->output, "Output format: json (default)");
  cmd->add_option("object", o->input, "Workload object file (YAML or JSON), - for stdin");
}

}  // namespace

void AddWriteCommands(CLI::App& app, int* exit_code) {
  for (const char* verb : {"suspend", "resume"}) {
    auto options = std::make_shared<WriteCommandOptions>();
    std::string what = std::string(verb) == "suspend" ? "suspend" : "resume";
    auto* cmd = app.add_subcommand(verb, "Apply the workload's " + what +
                                             " actions (suspendDefinition) and print the object");
    AddCommonOptions(cmd, options.get());
    cmd->add_option("--component,-c", options->component,
                    "Component whose suspendDefinition to apply (default: the root)");
    cmd->callback([options, exit_code, verb] { *exit_code = RunSuspendOrResume(verb, *options); });
  }
  auto options = std::make_shared<WriteCommandOptions>();
  auto* update = app.add_subcommand("update", "Write pod template / pod spec / metadata / fragmented "
                                              "fields of a component and print the object");
  AddCommonOptions(update, options.get());
  update->add_option("--component,-c", options->component, "Component to update")->required();
  update->add_option("--instance", options->instance,
                     "Only this instance gets the values (the others keep theirs)");
  update->add_option("--set", options->sets,
                     "FIELD=JSON (podTemplateSpec, podSpec, metadata, or a fragmented field such "
                     "as image, labels, containers); repeatable, applied in order")
      ->required()
      ->allow_extra_args(false);  // one FIELD=JSON per --set: the workload may follow it
  update->callback([options, exit_code, update] {
    options->has_instance = update->count("--instance") > 0;
    *exit_code = RunUpdate(*options);
  });
}

}  // namespace wm::tools
