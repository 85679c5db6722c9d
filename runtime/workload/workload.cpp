// Workload resolution: one Accessor over the object (key-sorted once), each component's extracted
// instances (zipped strictly by index, accessor.h) with their GPUs, and the root's status.
#include "runtime/workload/workload.h"

#include <cmath>
#include <cstdlib>

#include "runtime/value/json.h"
#include "runtime/workload/run.h"

namespace wm::workload {
namespace {

constexpr std::string_view kGpuResource = "nvidia.com/gpu";

double ResourceGpus(const Value& resources) {
  if (!resources.IsObject()) return 0;
  for (const char* section : {"requests", "limits"}) {
    const Value* map = resources.Find(section);
    if (!map || !map->IsObject()) continue;
    if (const Value* q = map->Find(kGpuResource)) {
      if (auto n = ParseQuantity(*q)) return *n;
    }
  }
  return 0;
}

double ContainerGpus(const Value& container) {
  if (!container.IsObject()) return 0;
  const Value* resources = container.Find("resources");
  return resources ? ResourceGpus(*resources) : 0;
}

double SumContainers(const Value* containers) {
  double sum = 0;
  if (containers && containers->IsArray()) {
    for (const Value& c : containers->AsArray()) sum += ContainerGpus(c);
  }
  return sum;
}

// nvidia.com/gpu of one pod of a fragmented spec: its containers (and single container), else the
// CR-level resources when it names no container (as upstream's `kli describe`).
double FragmentedGpus(const FragmentedPodSpec& f) {
  const Value& containers = f[FragmentedField::kContainers];
  const Value& container = f[FragmentedField::kContainer];
  if (!containers.IsNull() || !container.IsNull()) return SumContainers(&containers) + ContainerGpus(container);
  return ResourceGpus(f[FragmentedField::kResources]);
}

double InstanceGpusPerPod(const ExtractedInstance& e) {
  if (e.pod_template_spec && e.pod_template_spec->IsObject()) {
    const Value* spec = e.pod_template_spec->Find("spec");
    return spec ? PodGpus(*spec) : 0;
  }
  if (e.pod_spec) return PodGpus(*e.pod_spec);
  if (e.fragmented_pod_spec) return FragmentedGpus(*e.fragmented_pod_spec);
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
    inst.gpus_per_pod = InstanceGpusPerPod(e);
    std::optional<int32_t> replicas = e.scale ? e.scale->replicas : std::nullopt;
    // A pod-bearing component without a replicas count runs one pod per instance.
    int64_t pods = replicas ? *replicas : (c.HasPods() ? 1 : 0);
    inst.gpus = inst.gpus_per_pod * static_cast<double>(pods);
    inst.extracted = std::move(e);
    out.gpus += inst.gpus;
    out.instances.push_back(std::move(inst));
  }
  return out;
}

double Multiplier(char suffix_first, std::string_view suffix, bool* ok) {
  *ok = true;
  if (suffix.empty()) return 1;
  if (suffix == "m") return 1e-3;
  if (suffix == "k") return 1e3;
  if (suffix == "M") return 1e6;
  if (suffix == "G") return 1e9;
  if (suffix == "T") return 1e12;
  if (suffix == "Ki") return 1024.0;
  if (suffix == "Mi") return 1024.0 * 1024;
  if (suffix == "Gi") return 1024.0 * 1024 * 1024;
  if (suffix == "Ti") return 1024.0 * 1024 * 1024 * 1024;
  (void)suffix_first;
  *ok = false;
  return 0;
}

}  // namespace

std::optional<double> ParseQuantity(const Value& quantity) {
  if (quantity.IsNumber()) return quantity.AsNumber();
  if (!quantity.IsString()) return std::nullopt;
  std::string s(quantity.AsString());
  char* end = nullptr;
  double n = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) return std::nullopt;
  std::string_view suffix(end);
  bool ok = false;
  double mult = Multiplier(suffix.empty() ? '\0' : suffix.front(), suffix, &ok);
  if (!ok) return std::nullopt;
  return n * mult;
}

double PodGpus(const Value& pod_spec) {
  if (!pod_spec.IsObject()) return 0;
  double containers = SumContainers(pod_spec.Find("containers"));
  double largest_init = 0;
  if (const Value* init = pod_spec.Find("initContainers"); init && init->IsArray()) {
    for (const Value& c : init->AsArray()) largest_init = std::max(largest_init, ContainerGpus(c));
  }
  return std::max(containers, largest_init);
}

bool Resolve(const Bundle& bundle, const Value& object, ResolvedWorkload* out, std::string* error,
             const ResolveOptions& options) {
  if (!object.IsObject()) {
    *error = "not a Kubernetes object: expected a JSON/YAML object, got " +
             std::string(KindName(object.kind()));
    return false;
  }
  auto text = [&](const Value* v) { return v && v->IsString() ? std::string(v->AsString()) : ""; };
  out->api_version = text(object.Find("apiVersion"));
  out->kind = text(object.Find("kind"));
  if (out->api_version.empty() || out->kind.empty()) {
    *error = "not a Kubernetes object: apiVersion and kind are required";
    return false;
  }
  if (const Value* meta = object.Find("metadata"); meta && meta->IsObject()) {
    out->name = text(meta->Find("name"));
    out->namespace_ = text(meta->Find("namespace"));
  }
  out->definition = bundle.FindDefinition(out->api_version, out->kind);
  if (!out->definition) {
    *error = "no definition in the bundle for " + out->api_version + " " + out->kind;
    return false;
  }
  AccessorOptions accessor_options;
  accessor_options.run = options.run;
  Accessor accessor(bundle, *out->definition, object, accessor_options);
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
  return true;
}

}  // namespace wm::workload
