// Workload resolution: one Accessor over the object (key-sorted once), each component's extracted
// instances (zipped strictly by index, accessor.h) with their GPUs, and the root's status.
#include "runtime/workload/workload.h"

#include <cmath>
#include <cstdlib>

#include "runtime/value/json.h"
#include "runtime/value/json_dom.h"
#include "runtime/workload/pods.h"
#include "runtime/workload/run.h"

namespace wm::workload {
namespace {

constexpr std::string_view kGpuResource = "nvidia.com/gpu";

// Counts the nvidia.com/gpu of pod shapes and collects why a quantity could not be counted. A
// quantity Kubernetes would refuse (not its grammar, negative, not a number or string) counts 0
// for its container and becomes a problem naming the container and the value, so the total never
// hides a bad spec behind a silent 0.
class GpuCounter {
 public:
  // `where` prefixes every problem ("instance \"w\": " or "").
  GpuCounter(std::string where, std::vector<std::string>* problems)
      : where_(std::move(where)), problems_(problems) {}

  double Pod(const Value& pod_spec) const {
    if (!pod_spec.IsObject()) return 0;
    double containers = Containers(pod_spec.Find("containers"));
    double largest_init = 0;
    if (const Value* init = pod_spec.Find("initContainers"); init && init->IsArray()) {
      for (const Value& c : init->AsArray()) largest_init = std::max(largest_init, Container(c));
    }
    return std::max(containers, largest_init);
  }

  double Containers(const Value* containers) const {
    double sum = 0;
    if (containers && containers->IsArray()) {
      for (const Value& c : containers->AsArray()) sum += Container(c);
    }
    return sum;
  }

  double Container(const Value& container) const {
    if (!container.IsObject()) return 0;
    const Value* resources = container.Find("resources");
    if (!resources) return 0;
    const Value* name = container.Find("name");
    std::string label = "container " + (name && name->IsString() ? GoQuoted(name->AsString())
                                                                  : std::string("(unnamed)"));
    return Resources(*resources, label);
  }

  // requests, else limits (Kubernetes defaults requests from limits).
  double Resources(const Value& resources, const std::string& owner) const {
    if (!resources.IsObject()) return 0;
    for (const char* section : {"requests", "limits"}) {
      const Value* map = resources.Find(section);
      if (!map || !map->IsObject()) continue;
      const Value* q = map->Find(kGpuResource);
      if (!q || q->IsNull()) continue;
      std::optional<double> n = ParseQuantity(*q);
      if (n && *n >= 0) return *n;
      Report(owner + ": resources." + section + "[\"nvidia.com/gpu\"] " +
             (q->IsString() ? GoQuoted(q->AsString()) : ToJson(*q)) +
             (n ? " is negative" : " is not a Kubernetes quantity") + "; its GPUs are not counted");
      return 0;
    }
    return 0;
  }

  void Report(const std::string& problem) const {
    if (problems_) problems_->push_back(where_ + problem);
  }

 private:
  std::string where_;
  std::vector<std::string>* problems_;
};

// nvidia.com/gpu of one pod of a fragmented spec, as upstream's describe counts it: the containers
// plus the single container, and the CR-level resources only when those request no GPU (Dynamo
// v1alpha1 names a main container without resources and puts the GPUs on the service).
double FragmentedGpus(const FragmentedPodSpec& f, const GpuCounter& count) {
  const Value& containers = f[FragmentedField::kContainers];
  const Value& container = f[FragmentedField::kContainer];
  double gpus = count.Containers(&containers) + count.Container(container);
  if (gpus > 0) return gpus;
  return count.Resources(f[FragmentedField::kResources], "fragmented pod spec");
}

double InstanceGpusPerPod(const ExtractedInstance& e, const GpuCounter& count) {
  if (e.pod_template_spec && e.pod_template_spec->IsObject()) {
    const Value* spec = e.pod_template_spec->Find("spec");
    return spec ? count.Pod(*spec) : 0;
  }
  if (e.pod_spec) return count.Pod(*e.pod_spec);
  if (e.fragmented_pod_spec) return FragmentedGpus(*e.fragmented_pod_spec, count);
  return 0;
}

// Pods of one instance: its replicas, else 1 for a pod-bearing component. Upstream's describe
// multiplies a negative replicas count into a negative GPU total; Kubernetes refuses negative
// replicas, so wmc counts no pods and reports the value instead.
int64_t InstancePods(const Instance& inst, const catalog::Component& c, const GpuCounter& count) {
  const std::optional<Scale>& scale = inst.extracted.scale;
  std::optional<int32_t> replicas = scale ? scale->replicas : std::nullopt;
  if (!replicas) return c.HasPods() ? 1 : 0;
  if (*replicas >= 0) return *replicas;
  count.Report("replicas " + std::to_string(*replicas) + " is negative; its GPUs are not counted");
  return 0;
}

ResolvedComponent ResolveComponent(const Accessor& accessor, const catalog::Component& c) {
  ResolvedComponent out;
  out.definition = &c;
  Result<std::vector<ExtractedInstance>> extracted = accessor.ExtractedInstances(c);
  if (!extracted.ok()) {
    out.problems.push_back(extracted.error.message);
    // Still list the instances when their ids resolve, with nothing extracted.
    Result<std::vector<std::string>> ids = accessor.InstanceIds(c);
    for (const std::string& id : ids.value) extracted.value.push_back({id, {}, {}, {}, {}, {}});
  }
  for (ExtractedInstance& e : extracted.value) {
    Instance inst;
    inst.extracted = std::move(e);
    std::string where = inst.id().empty() ? "" : "instance " + GoQuoted(inst.id()) + ": ";
    GpuCounter count(where, &out.problems);
    inst.gpus_per_pod = InstanceGpusPerPod(inst.extracted, count);
    inst.gpus = inst.gpus_per_pod * static_cast<double>(InstancePods(inst, c, count));
    out.gpus += inst.gpus;
    out.instances.push_back(std::move(inst));
  }
  return out;
}

// The multiplier of a Kubernetes quantity suffix (k8s.io/apimachinery resource.Quantity): binary
// SI (Ki..Ei), decimal SI (n, u, m, "", k, M, G, T, P, E) or a decimal exponent (e3, E-2);
// nullopt for anything else.
std::optional<double> SuffixMultiplier(std::string_view suffix) {
  static const std::pair<std::string_view, double> kSuffixes[] = {
      {"", 1},           {"n", 1e-9},       {"u", 1e-6},       {"m", 1e-3},
      {"k", 1e3},        {"M", 1e6},        {"G", 1e9},        {"T", 1e12},
      {"P", 1e15},       {"E", 1e18},       {"Ki", 0x1p10},    {"Mi", 0x1p20},
      {"Gi", 0x1p30},    {"Ti", 0x1p40},    {"Pi", 0x1p50},    {"Ei", 0x1p60}};
  for (const auto& [name, multiplier] : kSuffixes) {
    if (suffix == name) return multiplier;
  }
  if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::string_view exponent = suffix.substr(1);
    if (exponent.front() == '+' || exponent.front() == '-') exponent.remove_prefix(1);
    if (exponent.empty() || exponent.size() > 3) return std::nullopt;
    for (char c : exponent) {
      if (c < '0' || c > '9') return std::nullopt;
    }
    return std::pow(10.0, std::stoi(std::string(suffix.substr(1))));
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> ParseQuantity(const Value& quantity) {
  if (quantity.IsNumber()) {
    double n = quantity.AsNumber();
    return std::isfinite(n) ? std::optional<double>(n) : std::nullopt;
  }
  if (!quantity.IsString()) return std::nullopt;
  // Kubernetes' grammar: [+-] digits [. digits] suffix (or [+-] . digits). strtod alone would also
  // take "NaN", "inf", "0x10" and "1e400", which no Kubernetes quantity is.
  std::string_view text = quantity.AsString();
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  size_t digits = 0;
  auto skip_digits = [&] {
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  };
  skip_digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    skip_digits();
  }
  if (digits == 0) return std::nullopt;
  std::optional<double> multiplier = SuffixMultiplier(text.substr(i));
  if (!multiplier) return std::nullopt;
  double number = std::strtod(std::string(text.substr(0, i)).c_str(), nullptr);
  double value = number * *multiplier;
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

double PodGpus(const Value& pod_spec, std::vector<std::string>* problems) {
  return GpuCounter("", problems).Pod(pod_spec);
}

namespace {

// What Resolve reads from the object before resolving it.
struct Identity {
  std::string api_version, kind, name, namespace_;
};

// The rest of Resolve once the definition is known: every component, then the root's status.
void ResolveWith(const Accessor& accessor, ResolvedWorkload* out) {
  for (const catalog::Component& c : out->definition->components) {
    out->components.push_back(ResolveComponent(accessor, c));
    out->gpus += out->components.back().gpus;
  }
  Result<Status> status = ExtractStatus(accessor, out->definition->root());
  if (status.ok()) {
    out->status = std::move(status.value);
  } else {
    if (status.error.code != ErrorCode::kNoDefinition) out->problems.push_back(status.error.message);
    out->status.matched_statuses = {"Undefined"};
  }
}

void TakeIdentity(Identity identity, ResolvedWorkload* out) {
  out->api_version = std::move(identity.api_version);
  out->kind = std::move(identity.kind);
  out->name = std::move(identity.name);
  out->namespace_ = std::move(identity.namespace_);
}

// The string at a key of a DOM object as Resolve reads it from the Value: the last of duplicate
// keys (ParseJson keeps the last value), "" when absent or not a string.
std::string DomStringField(simdjson::dom::object object, std::string_view key) {
  std::string out;
  for (simdjson::dom::key_value_pair field : object) {
    if (field.key != key) continue;
    std::string_view text;
    out = field.value.get_string().get(text) == simdjson::SUCCESS ? std::string(text) : std::string();
  }
  return out;
}

// The identity from JSON text on simdjson's DOM; false = undecided (the Value path decides).
bool ReadIdentity(std::string_view json, Identity* out) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::object object;
  if (!json_dom::ParseDom(json, &parser, &root) || root.get_object().get(object) != simdjson::SUCCESS) return false;
  out->api_version = DomStringField(object, "apiVersion");
  out->kind = DomStringField(object, "kind");
  for (simdjson::dom::key_value_pair field : object) {
    if (field.key != "metadata") continue;
    simdjson::dom::object meta;
    bool is_object = field.value.get_object().get(meta) == simdjson::SUCCESS;
    out->name = is_object ? DomStringField(meta, "name") : "";
    out->namespace_ = is_object ? DomStringField(meta, "namespace") : "";
  }
  return !out->api_version.empty() && !out->kind.empty();
}

}  // namespace

bool Resolve(const Bundle& bundle, const Value& object, ResolvedWorkload* out, std::string* error,
             const ResolveOptions& options) {
  if (!object.IsObject()) {
    *error = "not a Kubernetes object: expected a JSON/YAML object, got " +
             std::string(KindName(object.kind()));
    return false;
  }
  Identity identity{StringField(object, "apiVersion"), StringField(object, "kind"), "", ""};
  if (identity.api_version.empty() || identity.kind.empty()) {
    *error = "not a Kubernetes object: apiVersion and kind are required";
    return false;
  }
  identity.name = StringAt(object, {"metadata", "name"});
  identity.namespace_ = StringAt(object, {"metadata", "namespace"});
  TakeIdentity(std::move(identity), out);
  out->definition = bundle.FindDefinition(out->api_version, out->kind);
  if (!out->definition) {
    *error = "no definition in the bundle for " + out->api_version + " " + out->kind;
    return false;
  }
  AccessorOptions accessor_options;
  accessor_options.run = options.run;
  accessor_options.object = options.object;
  ResolveWith(Accessor(bundle, *out->definition, object, accessor_options), out);
  return true;
}

bool ResolveOnView(const Bundle& bundle, std::string_view json, const FusedDefinitions& fused,
                   ResolvedWorkload* out, const ResolveOptions& options) {
  if (!ObjectBudgetAllowsView(options.object)) return false;
  Identity identity;
  if (!ReadIdentity(json, &identity)) return false;
  const catalog::Definition* definition = bundle.FindDefinition(identity.api_version, identity.kind);
  if (definition == nullptr) return false;
  const FusedDefinition& fused_definition = fused.For(*definition);
  // With a resolver left to the regular engine the object's Value is needed anyway, and the view
  // engine's pass would come on top of its parse: not worth it.
  if (!fused_definition.complete()) return false;
  TakeIdentity(std::move(identity), out);
  out->definition = definition;
  AccessorOptions accessor_options;
  accessor_options.run = options.run;
  accessor_options.object = options.object;
  ResolveWith(Accessor(bundle, *definition, json, fused_definition, accessor_options), out);
  return true;
}

}  // namespace wm::workload
