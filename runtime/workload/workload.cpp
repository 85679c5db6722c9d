// Workload resolution: runs a definition's resolvers on one object and assembles components,
// instances, replicas, GPUs and status. Results of the resolvers of a multi-instance component are
// zipped by position (see definition.h).
#include "runtime/workload/workload.h"

#include <cmath>
#include <cstdlib>

#include "runtime/value/json.h"
#include "runtime/workload/run.h"

namespace wm::workload {
namespace {

constexpr std::string_view kGpuResource = "nvidia.com/gpu";

std::optional<int64_t> IntegerOf(const Value& v) {
  if (v.IsNumber() && std::isfinite(v.AsNumber())) return static_cast<int64_t>(v.AsNumber());
  if (v.IsString()) {
    // Replicas may be numeric strings (int-or-string fields).
    std::string s(v.AsString());
    char* end = nullptr;
    long long n = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end && *end == '\0') return n;
  }
  return std::nullopt;
}

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

// The pod spec inside a resolved pod shape: a PodTemplateSpec has it under .spec.
const Value* SpecOfTemplate(const Value& pod_template) {
  if (!pod_template.IsObject()) return nullptr;
  return pod_template.Find("spec");
}

// Resolves the per-instance GPU count of a component with fragmented pod fields.
double FragmentedGpus(const Bundle& bundle, const catalog::Component& c, size_t index,
                      const Value& object, const RunOptions& run, ResolvedComponent* out) {
  auto take = [&](const char* field) -> std::optional<Value> {
    auto it = c.fragmented.find(field);
    if (it == c.fragmented.end()) return std::nullopt;
    Outputs o = RunResolver(bundle, it->second, object, run);
    if (!o.ok()) {
      out->problems.push_back(o.error);
      return std::nullopt;
    }
    if (index < o.values.size()) return o.values[index];
    if (o.values.size() == 1) return o.values[0];
    return std::nullopt;
  };
  // As upstream's describe counts a fragmented pod: the containers plus the single container,
  // and the CR-level resources only when those request no GPU.
  double gpus = 0;
  if (auto containers = take("containersPath")) gpus += SumContainers(&*containers);
  if (auto container = take("containerPath")) gpus += ContainerGpus(*container);
  if (gpus > 0) return gpus;
  if (auto resources = take("resourcesPath")) return ResourceGpus(*resources);
  return 0;
}

// Picks the i-th result of a zipped resolver; a single result applies to every instance.
const Value* Nth(const Outputs& o, size_t i) {
  if (i < o.values.size()) return &o.values[i];
  if (o.values.size() == 1) return &o.values[0];
  return nullptr;
}

ResolvedComponent ResolveComponent(const Bundle& bundle, const catalog::Component& c,
                                   const Value& object, const RunOptions& run) {
  ResolvedComponent out;
  out.definition = &c;
  auto run_optional = [&](int32_t id) -> std::optional<Outputs> {
    if (id < 0) return std::nullopt;
    Outputs o = RunResolver(bundle, id, object, run);
    if (!o.ok()) out.problems.push_back(o.error);
    return o;
  };

  std::vector<std::string> ids;
  if (auto o = run_optional(c.instance_id)) {
    for (const Value& v : o->values) ids.push_back(StringOf(v));
  } else {
    ids.push_back("");
  }
  auto templates = run_optional(c.pod_template_spec >= 0 ? c.pod_template_spec : c.pod_spec);
  auto replicas = run_optional(c.replicas);
  auto min_replicas = run_optional(c.min_replicas);
  auto max_replicas = run_optional(c.max_replicas);

  auto check_zip = [&](const std::optional<Outputs>& o, const char* role) {
    if (o && o->ok() && o->values.size() != ids.size() && o->values.size() != 1) {
      out.problems.push_back(std::string(role) + " yields " + std::to_string(o->values.size()) +
                             " results for " + std::to_string(ids.size()) + " instances");
    }
  };
  if (c.instance_id >= 0) {
    check_zip(templates, "pod template");
    check_zip(replicas, "replicas");
  }

  for (size_t i = 0; i < ids.size(); ++i) {
    Instance inst;
    inst.id = ids[i];
    auto integer_at = [&](const std::optional<Outputs>& o) -> std::optional<int64_t> {
      if (!o || !o->ok()) return std::nullopt;
      const Value* v = Nth(*o, i);
      return v ? IntegerOf(*v) : std::nullopt;
    };
    inst.replicas = integer_at(replicas);
    inst.min_replicas = integer_at(min_replicas);
    inst.max_replicas = integer_at(max_replicas);
    if (templates && templates->ok()) {
      if (const Value* t = Nth(*templates, i)) {
        if (c.pod_template_spec >= 0) {
          inst.pod_template = *t;
          if (const Value* spec = SpecOfTemplate(*t)) inst.gpus_per_pod = PodGpus(*spec);
        } else {
          inst.pod_template = Value::MakeObject({{Value::String("spec"), *t}});
          inst.gpus_per_pod = PodGpus(*t);
        }
      }
    } else if (!c.fragmented.empty()) {
      inst.gpus_per_pod = FragmentedGpus(bundle, c, i, object, run, &out);
    }
    // A pod-bearing component without a replicas path runs one pod per instance.
    int64_t pods = inst.replicas.value_or(c.HasPods() ? 1 : 0);
    inst.gpus = inst.gpus_per_pod * static_cast<double>(pods);
    out.gpus += inst.gpus;
    out.instances.push_back(std::move(inst));
  }
  return out;
}

bool MatcherHolds(const Bundle& bundle, const catalog::StatusMatcher& m, const std::string& phase,
                  const std::vector<Value>& conditions, const catalog::StatusDefinition& s,
                  const Value& object, const RunOptions& run, std::vector<std::string>* problems) {
  if (m.by_phase && *m.by_phase != phase) return false;
  for (const auto& want : m.by_conditions) {
    bool found = false;
    for (const Value& cond : conditions) {
      if (!cond.IsObject()) continue;
      auto field = [&](const std::string& name) -> std::string {
        const Value* v = cond.Find(name);
        return v ? StringOf(*v) : std::string();
      };
      if (field(s.type_field) != want.type) continue;
      if (!want.status.empty() && field(s.status_field) != want.status) continue;
      if (!want.reason.empty() && field(s.reason_field) != want.reason) continue;
      found = true;
      break;
    }
    if (!found) return false;
  }
  if (m.by_expression >= 0) {
    Outputs o = RunResolver(bundle, m.by_expression, object, run);
    if (!o.ok()) {
      problems->push_back(o.error);
      return false;
    }
    if (o.values.empty()) return false;
    const Value& got = o.values.front();
    // expectedResult is written in YAML, often as a string ("true", "Running"): accept an equal
    // value, or a string equal to the result's raw text.
    if (got != m.expected_result &&
        !(m.expected_result.IsString() && StringOf(got) == m.expected_result.AsString())) {
      return false;
    }
  }
  return true;
}

std::vector<std::string> ResolveStatus(const Bundle& bundle, const catalog::StatusDefinition& s,
                                       const Value& object, const RunOptions& run,
                                       std::vector<std::string>* problems) {
  std::string phase;
  std::vector<Value> conditions;
  if (s.phase_path >= 0) {
    Outputs o = RunResolver(bundle, s.phase_path, object, run);
    if (!o.ok()) problems->push_back(o.error);
    if (!o.values.empty() && o.values.front().IsString()) phase = o.values.front().AsString();
  }
  if (s.conditions_path >= 0) {
    Outputs o = RunResolver(bundle, s.conditions_path, object, run);
    if (!o.ok()) problems->push_back(o.error);
    // `.status.conditions` yields one array; `.status.conditions[]` yields the conditions.
    if (o.values.size() == 1 && o.values.front().IsArray()) {
      conditions = o.values.front().AsArray();
    } else {
      conditions = std::move(o.values);
    }
  }
  std::vector<std::string> matched;
  for (const auto& [status, matchers] : s.mappings) {
    for (const auto& m : matchers) {
      if (MatcherHolds(bundle, m, phase, conditions, s, object, run, problems)) {
        matched.push_back(status);
        break;
      }
    }
  }
  return matched;
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
  const RunOptions& run = options.run;
  for (const catalog::Component& c : out->definition->components) {
    out->components.push_back(ResolveComponent(bundle, c, object, run));
    out->gpus += out->components.back().gpus;
  }
  out->statuses = ResolveStatus(bundle, out->definition->root().status, object, run, &out->problems);
  if (out->statuses.empty()) out->statuses.push_back("Undefined");
  return true;
}

}  // namespace wm::workload
