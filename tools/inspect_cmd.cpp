// `wmc inspect [--bundle B.wmb | --catalog DIR] [-o text|json] [--engine=auto|interp|jit] [FILE|-]`:
// resolves one workload object through the built-in catalog (or the bundle the options select) and prints its tree (components, instances, replicas,
// GPUs, status). Exit 0 on success, 1 when no definition covers the object's kind, 2 on unreadable
// input or bundle.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/json.h"
#include "runtime/workload/view.h"
#include "runtime/workload/workload.h"
#include "tools/bundle_source.h"
#include "tools/cli_output.h"
#include "tools/commands.h"
#include "tools/object_input.h"

namespace wm::tools {
namespace {

struct InspectOptions {
  BundleSourceOptions source;  // built-in catalog, --bundle or --catalog
  std::string input = "-";
  std::string output = "text";
  std::string engine = "auto";
  EvalLimits limits;  // AddEvalLimitOptions: per resolver evaluation (docs/limits.md)
  workload::ObjectLimits object;  // --object-max-steps, --object-timeout-ms: all of them together
};

std::string Number(double d) {
  std::string s;
  FormatNumber(d, &s);
  return s;
}

// The component's own line ("name  (kind)  gpus N") without indentation or tree glyphs.
std::string ComponentLine(const workload::ResolvedComponent& c) {
  std::string line = Printable(c.definition->name) + "  (" + Printable(c.definition->kind.ToString()) + ")";
  if (c.definition->HasPods()) line += "  gpus " + Number(c.gpus);
  return line;
}

// The instances of a pod-bearing component and its resolver problems, one line each.
void PrintInstances(const workload::ResolvedComponent& c, const std::string& indent, std::string* out) {
  bool single = c.instances.size() == 1 && c.instances[0].id().empty();
  for (size_t j = 0; j < c.instances.size() && c.definition->HasPods(); ++j) {
    const auto& inst = c.instances[j];
    std::string line = single ? "pods:" : "instance " + Printable(inst.id()) + ":";
    if (const auto& scale = inst.extracted.scale) {
      if (scale->replicas) line += " replicas " + std::to_string(*scale->replicas);
      if (scale->min_replicas) line += " min " + std::to_string(*scale->min_replicas);
      if (scale->max_replicas) line += " max " + std::to_string(*scale->max_replicas);
    }
    line += ", gpus " + Number(inst.gpus) + " (" + Number(inst.gpus_per_pod) + " per pod)";
    *out += indent + "· " + line + "\n";
  }
  for (const auto& p : c.problems) *out += indent + "! " + Printable(p) + "\n";
}

void PrintComponentTree(const workload::ResolvedWorkload& w, const std::string& owner,
                        const std::string& indent, int depth, std::string* out) {
  if (depth > 64) return;  // ownership is acyclic (checked at compile time); this is a backstop
  std::vector<const workload::ResolvedComponent*> children;
  for (const auto& c : w.components) {
    if (c.definition->owner == owner) children.push_back(&c);
  }
  for (size_t i = 0; i < children.size(); ++i) {
    const auto& c = *children[i];
    bool last = i + 1 == children.size();
    *out += indent + (last ? "└─ " : "├─ ") + ComponentLine(c) + "\n";
    std::string inner = indent + (last ? "   " : "│  ");
    PrintInstances(c, inner, out);
    PrintComponentTree(w, c.definition->name, inner, depth + 1, out);
  }
}

std::string RenderText(const workload::ResolvedWorkload& w) {
  std::string out;
  out += Printable(w.kind) + " " + (w.namespace_.empty() ? "" : Printable(w.namespace_) + "/") +
         Printable(w.name) + "\n";
  out += "definition: " + Printable(w.definition->name) + "\n";
  out += "status: ";
  const auto& statuses = w.status.matched_statuses;
  for (size_t i = 0; i < statuses.size(); ++i) out += (i ? ", " : "") + Printable(statuses[i]);
  out += "\n";
  const auto& root = w.components.front();
  out += ComponentLine(root) + "\n";
  PrintInstances(root, "", &out);
  PrintComponentTree(w, root.definition->name, "", 0, &out);
  for (const auto& p : w.problems) out += "! status: " + Printable(p) + "\n";
  out += "total GPUs: " + Number(w.gpus) + "\n";
  return out;
}

int RunInspect(const InspectOptions& o) {
  if (o.output != "text" && o.output != "json") {
    std::fprintf(stderr, "wmc inspect: unknown output format '%s' (use text or json)\n", o.output.c_str());
    return 2;
  }
  std::string error;
  BundleSourceOptions source = o.source;
  ApplyEngine(o.engine, &source.load);
  LoadedBundle loaded;
  if (!LoadBundle(source, &loaded, &error)) {
    std::fprintf(stderr, "wmc inspect: %s\n", error.c_str());
    return 2;
  }
  const std::shared_ptr<Bundle>& bundle = loaded.bundle;
  Value object;
  if (!ReadObject(o.input, &object, &error)) {
    std::fprintf(stderr, "wmc inspect: %s\n", error.c_str());
    return 2;
  }
  workload::ResolvedWorkload resolved;
  workload::ResolveOptions resolve;
  resolve.run.limits = o.limits;
  resolve.object = o.object;
  if (!workload::Resolve(*bundle, object, &resolved, &error, resolve)) {
    std::fprintf(stderr, "wmc inspect: %s: %s\n", o.input == "-" ? "<stdin>" : o.input.c_str(),
                 error.c_str());
    return 1;
  }
  if (o.output == "json") {
    JsonWriteOptions pretty;
    pretty.indent = 2;
    std::printf("%s\n", ToJson(workload::WorkloadJson(resolved), pretty).c_str());
  } else {
    WriteText(RenderText(resolved));
  }
  return 0;
}

}  // namespace

void AddInspectCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<InspectOptions>();
  auto* cmd = app.add_subcommand("inspect", "Resolve a workload object through a catalog bundle");
  AddBundleOptions(cmd, &options->source);
  cmd->add_option("-o,--output", options->output, "Output format: text (default) or json");
  AddEngineOption(cmd, &options->engine);
  AddEvalLimitOptions(cmd, &options->limits);
  cmd->add_option("--object-max-steps", options->object.fuel,
                  "Steps of all resolver evaluations on the object together (default 50000000)");
  cmd->add_option("--object-timeout-ms", options->object.timeout_ms,
                  "Wall-clock limit of all resolver evaluations on the object in ms (default 30000; 0 = none)");
  cmd->add_option("object", options->input, "Workload object file (YAML or JSON), - for stdin");
  cmd->callback([options, exit_code] { *exit_code = RunInspect(*options); });
}

}  // namespace wm::tools
