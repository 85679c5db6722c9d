// `wmc describe -f FILE|- [--pods FILE|-]... [--pod-limit N] [--component-limit N]
// [-o table|json|yaml|dot|svg] [--bundle B | --catalog DIR]`: one workload as `kli describe` shows
// it (runtime/workload/describe.h computes the view, describe_render.h draws it). --pods takes
// `kubectl get pods -o json` output (a List, a stream or one Pod); other objects in it serve as
// the intermediate owners of the pods' controller chains. Without --pods the view is kli's file
// mode. Exit 0 described, 1 no definition covers the kind or the view failed, 2 usage or input.
#include "tools/describe_cmd.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <ctime>
#include <memory>

#include "runtime/workload/describe.h"
#include "tools/cli_output.h"
#include "tools/commands.h"
#include "tools/describe_render.h"
#include "tools/kube_time.h"
#include "tools/kubectl_source.h"
#include "tools/object_input.h"

namespace wm::tools {
namespace {

struct DescribeCommandOptions {
  std::string file;                // -f: a manifest
  std::vector<std::string> pods;   // --pods: with -f
  std::vector<std::string> args;   // TYPE/NAME or TYPE NAME: live, through kubectl
  KubectlOptions kubectl;          // -n, --context, --kubeconfig
  DescribeOptions describe;
};

// apimachinery's GroupVersionKind.String(): "apps/v1, Kind=Deployment", "/v1, Kind=Pod".
std::string GvkText(const std::string& api_version, const std::string& kind) {
  return (api_version.find('/') == std::string::npos ? "/" : "") + api_version + ", Kind=" + kind;
}

// kli's no-definition failure: the machine error on stdout for json/yaml, the message on stderr.
int NoDefinition(const std::string& api_version, const std::string& kind, const std::string& output) {
  const char* message = "no Karta definition covers this workload type";
  std::string gvk = GvkText(api_version, kind);
  if (output == "json" || output == "yaml") {
    auto S = [](std::string_view s) { return Value::String(s); };
    PrintStructured(Value::MakeObject({{S("error"), S("no_definition_for_type")},
                                       {S("gvk"), S(gvk)},
                                       {S("message"), S(message)},
                                       {S("hint"), S("\"kli definitions\" lists the types Karta covers; apply a "
                                                     "Karta definition to the cluster to cover this one")}}),
                    output);
    std::fflush(stdout);
  }
  std::fprintf(stderr, "error: %s: %s\n", message, gvk.c_str());
  return 1;
}

// The definition of the object's apiVersion/kind; else, as kli accepts a manifest written at
// another served version, the one definition of the same group and kind. *exit_code is set when
// there is none (1) or more than one (2).
const catalog::Definition* FindDefinition(const Bundle& bundle, const std::string& api_version,
                                          const std::string& kind, const std::string& output, int* exit_code) {
  if (const catalog::Definition* d = bundle.FindDefinition(api_version, kind)) return d;
  std::vector<const catalog::Definition*> matches;
  for (const catalog::Definition& d : bundle.definitions()) {
    if (d.root().kind.kind == kind && EqualsIgnoreCase(d.root().kind.group, ApiGroup(api_version))) {
      matches.push_back(&d);
    }
  }
  if (matches.size() == 1) return matches.front();
  if (matches.empty()) {
    *exit_code = NoDefinition(api_version, kind, output);
    return nullptr;
  }
  std::string names;
  for (const auto* d : matches) names += (names.empty() ? "" : ", ") + d->name;
  std::fprintf(stderr, "error: %s.%s matches more than one Karta definition, retry with one of: %s\n", kind.c_str(),
               ApiGroup(api_version).c_str(), names.c_str());
  *exit_code = 2;
  return nullptr;
}

int64_t Now(const std::string& now) {
  if (auto parsed = ParseRfc3339(now)) return *parsed;
  return static_cast<int64_t>(std::time(nullptr));
}

int Render(const workload::DescribeView& view, const DescribeOptions& o) {
  if (o.output == "json" || o.output == "yaml") {
    PrintStructured(workload::DescribeViewJson(view), o.output);
    return 0;
  }
  if (o.output == "dot") {
    std::fputs(RenderDescribeDot(view).c_str(), stdout);
    return 0;
  }
  if (o.output == "svg") return RenderSvgWithDot(RenderDescribeDot(view));
  std::fputs(RenderDescribeText(view, {o.pod_limit, o.component_limit, Now(o.now)}).c_str(), stdout);
  return 0;
}

// The one workload of FILE: a single document, or a List holding exactly one item.
bool ReadWorkload(const std::string& file, Value* out) {
  std::vector<Value> documents;
  std::string error;
  if (!ReadObjects(file, &documents, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return false;
  }
  if (documents.size() > 1) {
    std::fprintf(stderr, "error: %s holds more than one document; describe reads one workload\n", file.c_str());
    return false;
  }
  std::vector<Value> items = FlattenLists(documents);
  if (!documents.empty() && items.size() != 1) {
    std::fprintf(stderr, "error: %s holds a List of %zu items; describe reads one workload\n", file.c_str(),
                 items.size());
    return false;
  }
  *out = items.empty() ? Value() : items.front();
  return true;
}

int RunDescribeFile(const DescribeCommandOptions& o) {
  if (!CheckDescribeOptions(o.describe)) return 2;
  if (o.file.empty()) {
    std::fputs("error: describe needs the workload: -f FILE (- for stdin), or TYPE/NAME\n", stderr);
    return 2;
  }
  int stdin_uses = o.file == "-" ? 1 : 0;
  for (const auto& p : o.pods) stdin_uses += p == "-" ? 1 : 0;
  if (stdin_uses > 1) {
    std::fputs("error: only one of -f and --pods can read stdin (-)\n", stderr);
    return 2;
  }
  DescribeInput input;
  input.from_file = true;
  input.source = o.file;
  if (!ReadWorkload(o.file, &input.workload)) return 2;
  if (!o.pods.empty()) {
    input.pods.emplace();
    for (const std::string& path : o.pods) {
      std::vector<Value> documents;
      std::string error;
      if (!ReadObjects(path, &documents, &error)) {
        std::fprintf(stderr, "error: --pods: %s\n", error.c_str());
        return 2;
      }
      for (Value& v : FlattenLists(documents)) input.pods->push_back(std::move(v));
    }
  }
  return RunDescribe(input, o.describe);
}

// `wmc describe TYPE/NAME`: the workload, its pods and the owners between them from the cluster,
// through the user's kubectl.
int RunDescribeLive(const DescribeCommandOptions& o) {
  if (!CheckDescribeOptions(o.describe)) return 2;
  if (!o.file.empty() || !o.pods.empty()) {
    std::fputs("error: -f and --pods read files: TYPE/NAME reads the cluster; give one or the other\n", stderr);
    return 2;
  }
  if (o.kubectl.all_namespaces) {
    std::fputs("error: describe reads one workload: -A does not apply, use -n NS\n", stderr);
    return 2;
  }
  std::string token;
  std::optional<std::string> name;
  if (!SplitTypeArgs(o.args, "describe", &token, &name)) return 2;
  if (!name) {
    std::fputs("error: a NAME is required: give it as TYPE/NAME or as TYPE NAME\n", stderr);
    return 2;
  }
  LoadedBundle loaded;
  std::string load_error;
  if (!LoadBundle(o.describe.source, &loaded, &load_error)) {
    std::fprintf(stderr, "error: %s\n", load_error.c_str());
    return 2;
  }
  TypeError type_error;
  std::optional<ResolvedType> type = ResolveType(CoveredKinds(*loaded.bundle), token, &type_error);
  if (!type) {
    std::fprintf(stderr, "error: %s\n", type_error.message.c_str());
    return 1;
  }
  DescribeInput input;
  FetchError fetch_error;
  if (!FetchDescribeInput(o.kubectl, *type, *name, &input, &fetch_error)) {
    std::fprintf(stderr, "error: %s\n", fetch_error.message.c_str());
    return fetch_error.exit_code;
  }
  return RunDescribe(input, o.describe, &loaded);
}

}  // namespace

bool CheckDescribeOptions(const DescribeOptions& o) {
  if (!CheckOutputFormat("error", o.output, {"table", "json", "yaml", "dot", "svg"})) return false;
  for (const auto& [flag, value] : {std::pair{"--pod-limit", o.pod_limit}, {"--component-limit", o.component_limit}}) {
    if (value < 0) {
      std::fprintf(stderr, "error: %s must not be negative\n", flag);
      return false;
    }
  }
  if (!o.now.empty() && !ParseRfc3339(o.now)) {
    std::fprintf(stderr, "error: --now: \"%s\" is not an RFC 3339 time\n", o.now.c_str());
    return false;
  }
  return true;
}

int RunDescribe(const DescribeInput& input, const DescribeOptions& o, const LoadedBundle* loaded) {
  if (!CheckDescribeOptions(o)) return 2;
  std::string api_version = StringField(input.workload, "apiVersion"), kind = StringField(input.workload, "kind");
  if (api_version.empty() || kind.empty()) {
    std::fprintf(stderr, "error: %s declares no apiVersion and kind, so there is nothing to resolve it by\n",
                 input.source.c_str());
    return 2;
  }
  LoadedBundle own;
  std::string error;
  if (!loaded) {
    if (!LoadBundle(o.source, &own, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
    loaded = &own;
  }
  int exit_code = 0;
  const catalog::Definition* definition = FindDefinition(*loaded->bundle, api_version, kind, o.output, &exit_code);
  if (!definition) return exit_code;

  std::vector<std::string> warnings;
  std::vector<Value> pods;
  if (input.pods) {
    const Value* metadata = input.workload.Find("metadata");
    std::string uid = metadata && metadata->IsObject() ? StringField(*metadata, "uid") : "";
    if (uid.empty()) warnings.push_back(input.source + " has no metadata.uid; no pod can be attributed to it");
    pods = workload::PodsOwnedBy(*input.pods, uid);
  }
  workload::DescribeViewOptions view_options;
  view_options.origin = loaded->origin;
  // kli's file mode: a manifest with no live pods. Given pods, the view reports them as live.
  view_options.file_mode = input.from_file && !input.pods;
  workload::Result<workload::DescribeView> view =
      workload::BuildDescribeView(*loaded->bundle, *definition, input.workload, pods, view_options);
  if (!view.ok()) {
    std::fprintf(stderr, "error: describe %s: %s\n", input.source.c_str(), view.error.message.c_str());
    return 1;
  }
  int code = Render(view.value, o);
  // Warnings go out last, so a long tree cannot scroll them out of view.
  std::fflush(stdout);
  for (const auto& w : warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  return code;
}

void AddDescribeCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<DescribeCommandOptions>();
  auto* cmd = app.add_subcommand("describe", "Show one workload in full: components, pods, resources (kli describe)");
  cmd->add_option("args", o->args, "TYPE/NAME or TYPE NAME: read the workload from the cluster through kubectl")
      ->type_name("KIND");
  cmd->add_option("-f,--filename", o->file, "The workload manifest (YAML or JSON); - for stdin")->type_name("FILE");
  cmd->add_option("--pods", o->pods,
                  "Pods of the workload (kubectl get pods -o json: a List, a stream or one Pod) and the "
                  "owners their controller chains pass through; - for stdin; repeatable")
      ->type_name("FILE")
      ->allow_extra_args(false);
  cmd->add_option("--pod-limit", o->describe.pod_limit,
                  "Maximum pod rows per component (0 = all); unhealthy pods are shown first");
  cmd->add_option("--component-limit", o->describe.component_limit,
                  "Maximum components under each parent (0 = all); unhealthy, then missing-pod ones first");
  cmd->add_option("-o,--output", o->describe.output, "Output format")->type_name("{table,json,yaml,dot,svg}");
  cmd->add_option("--now", o->describe.now, "Time the age is measured against (RFC 3339; for tests)")->group("");
  AddBundleOptions(cmd, &o->describe.source);
  AddKubectlOptions(cmd, &o->kubectl);
  cmd->callback([o, exit_code] { *exit_code = o->args.empty() ? RunDescribeFile(*o) : RunDescribeLive(*o); });
}

}  // namespace wm::tools
