// The describe view (see describe.h): quantities and the pod-request math first, then the owner
// chain, then the tree walk that mirrors upstream's ResolveDescribe over tree.Build's nodes
// (instances sorted by key, every instance's subtree extracted from the whole object), then JSON.
#include "runtime/workload/describe.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "runtime/workload/pods.h"
#include "runtime/workload/status.h"
#include "runtime/workload/workload.h"

namespace wm::workload {
namespace {

constexpr std::string_view kGpu = "nvidia.com/gpu";
// upstream's OwnerWalker bound: real chains are two or three hops; it also ends a cycle.
constexpr int kMaxOwnerDepth = 6;

const Value* Field(const Value& object, std::string_view key) {
  return object.IsObject() ? object.Find(key) : nullptr;
}

const Value& Sub(const Value& object, std::string_view key) {
  static const Value kNull;
  const Value* v = Field(object, key);
  return v ? *v : kNull;
}

// `value * scale` rounded up as resource.Quantity rounds (Value, MilliValue); the tolerance keeps
// a decimal such as "0.3" (not exact in binary) from rounding up to the next integer.
std::optional<int64_t> CeilScaled(const Value& quantity, double scale) {
  std::optional<double> parsed = ParseQuantity(quantity);
  if (!parsed) return std::nullopt;
  double scaled = *parsed * scale;
  double nearest = std::round(scaled);
  double rounded = std::fabs(scaled - nearest) <= 1e-9 * std::max(1.0, std::fabs(scaled)) ? nearest : std::ceil(scaled);
  constexpr double kMax = 9.2e18;
  return static_cast<int64_t>(std::clamp(rounded, -kMax, kMax));
}

// requests[name], else limits[name]; absent when neither declares it (an explicit 0 is present).
const Value* Declared(const Value& resources, std::string_view name) {
  for (const char* section : {"requests", "limits"}) {
    const Value* map = Field(resources, section);
    if (const Value* q = map ? Field(*map, name) : nullptr) return q;
  }
  return nullptr;
}

DescribeResources SumContainers(const Value& containers) {
  DescribeResources total;
  if (!containers.IsArray()) return total;
  for (const Value& c : containers.AsArray()) total.Add(RequirementsOf(Sub(c, "resources")));
  return total;
}

DescribeResources Max(const DescribeResources& a, const DescribeResources& b) {
  return {std::max(a.gpus, b.gpus), std::max(a.cpu_millis, b.cpu_millis), std::max(a.memory_bytes, b.memory_bytes)};
}

// Kubernetes' canonical decimal text of value x 10^exponent: the mantissa keeps no trailing zeros
// beyond what makes the exponent a multiple of three, which then picks the SI suffix.
std::string DecimalText(int64_t value, int exponent) {
  if (value == 0) return "0";
  bool negative = value < 0;
  __int128 amount = negative ? -static_cast<__int128>(value) : value;
  while (amount % 10 == 0) amount /= 10, ++exponent;
  int rest = ((exponent % 3) + 3) % 3;
  for (; rest > 0; --rest) amount *= 10, --exponent;
  static const std::map<int, std::string_view> kSuffix = {{-9, "n"}, {-6, "u"}, {-3, "m"}, {0, ""}, {3, "k"},
                                                          {6, "M"},  {9, "G"},  {12, "T"}, {15, "P"}, {18, "E"}};
  auto suffix = kSuffix.find(exponent);
  // Outside n..E (never for int64 millis or bytes): write the plain number.
  for (; suffix == kSuffix.end() && exponent > 0; --exponent) amount *= 10;
  std::string digits;
  for (__int128 a = amount; a > 0; a /= 10) digits.insert(digits.begin(), static_cast<char>('0' + a % 10));
  return (negative ? "-" : "") + digits + std::string(suffix == kSuffix.end() ? "" : suffix->second);
}

// The BinarySI text: below 1024 in magnitude as decimal; else the largest power of 1024 that
// divides the value picks Ki..Ei (none: the plain number).
std::string BinaryText(int64_t value) {
  if (value > -1024 && value < 1024) return DecimalText(value, 0);
  bool negative = value < 0;
  __int128 amount = negative ? -static_cast<__int128>(value) : value;
  int power = 0;
  while (amount % 1024 == 0 && power < 6) amount /= 1024, ++power;
  static const char* kSuffix[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  std::string digits;
  for (__int128 a = amount; a > 0; a /= 10) digits.insert(digits.begin(), static_cast<char>('0' + a % 10));
  return (negative ? "-" : "") + digits + kSuffix[power];
}

// The controller ownerReference of `refs` (the one reference a chain is walked through).
const Value* ControllerRef(const Value& refs) {
  if (!refs.IsArray()) return nullptr;
  for (const Value& ref : refs.AsArray()) {
    const Value* controller = Field(ref, "controller");
    if (controller && controller->kind() == Kind::True) return &ref;
  }
  return nullptr;
}

const Value& OwnerRefs(const Value& object) { return Sub(Sub(object, "metadata"), "ownerReferences"); }

bool NamesUid(const Value& refs, std::string_view uid) {
  if (!refs.IsArray()) return false;
  for (const Value& ref : refs.AsArray()) {
    if (StringField(ref, "uid") == uid) return true;
  }
  return false;
}

bool PodReady(const Value& status) {
  const Value& conditions = Sub(status, "conditions");
  if (!conditions.IsArray()) return false;
  for (const Value& c : conditions.AsArray()) {
    if (StringField(c, "type") == "Ready") return StringField(c, "status") == "True";
  }
  return false;
}

// Why a pod is not ready: the scheduler's reason, else the pod's own, else the Ready condition's.
std::string PodReason(const Value& status) {
  const Value& conditions = Sub(status, "conditions");
  auto condition_reason = [&](std::string_view type) -> std::optional<std::string> {
    if (!conditions.IsArray()) return std::nullopt;
    for (const Value& c : conditions.AsArray()) {
      if (StringField(c, "type") == type && StringField(c, "status") == "False") return StringField(c, "reason");
    }
    return std::nullopt;
  };
  if (auto scheduled = condition_reason("PodScheduled")) return *scheduled;
  if (std::string reason = StringField(status, "reason"); !reason.empty()) return reason;
  return condition_reason("Ready").value_or("");
}

DescribePod PodViewOf(const Value& pod) {
  DescribePod view;
  const Value& status = Sub(pod, "status");
  view.name = StringField(Sub(pod, "metadata"), "name");
  view.phase = StringField(status, "phase");
  view.ready = PodReady(status);
  if (std::string node = StringField(Sub(pod, "spec"), "nodeName"); !node.empty()) view.node = node;
  if (!view.ready) view.reason = PodReason(status);
  view.resources = PodRequest(Sub(pod, "spec"));
  return view;
}

std::vector<std::string> MergeNodes(std::vector<std::string> existing, const std::vector<std::string>& add) {
  std::set<std::string> merged(existing.begin(), existing.end());
  merged.insert(add.begin(), add.end());
  return {merged.begin(), merged.end()};
}

// replicas, else minReplicas, else 1 (a component with only a scaling envelope, or no scale).
int32_t ReplicasOf(const ExtractedInstance* instance) {
  if (!instance || !instance->scale) return 1;
  if (instance->scale->replicas) return *instance->scale->replicas;
  if (instance->scale->min_replicas) return *instance->scale->min_replicas;
  return 1;
}

// Drops plumbing the workload never populated (a Deployment's ReplicaSet); a pod-bearing
// component stays even at zero replicas.
void AppendComponent(std::vector<DescribeComponent>* to, DescribeComponent c, bool pod_bearing) {
  bool empty = c.pods.empty() && c.children.empty() && c.replicas.Empty() && c.resources.Empty();
  if (pod_bearing || !empty) to->push_back(std::move(c));
}

// Folds a child's totals into the component that wraps it.
void Aggregate(const DescribeComponent& child, DescribeComponent* parent) {
  parent->replicas.desired += child.replicas.desired;
  parent->replicas.current += child.replicas.current;
  parent->replicas.ready += child.replicas.ready;
  parent->resources.Add(child.resources);
  parent->nodes = MergeNodes(std::move(parent->nodes), child.nodes);
}

Error Wrapped(std::string_view prefix, Error e) { return WrapError(prefix, std::move(e)); }

// One instance of a component as tree.Build has it: the key ("" = anonymous) and what was
// extracted for it (null when extraction gave nothing for that key).
struct InstanceNode {
  std::string key;
  const ExtractedInstance* extracted = nullptr;
};

// The walk over one workload: instance tables first (Extract), then the component rows.
class ViewBuilder {
 public:
  ViewBuilder(const Bundle& bundle, const catalog::Definition& definition, const Value& object,
              const std::vector<Value>& pods, const DescribeViewOptions& options)
      : accessor_(bundle, definition, object, AccessorOptions{options.run, ObjectLimits{}}), definition_(definition),
        summary_(definition) {
    for (const Value& pod : pods) {
      queriers_.emplace_back(bundle, pod, options.run);
      pod_views_.push_back(PodViewOf(pod));
    }
  }

  // tree.Build's extraction, depth-first from the root, with its error wrapping.
  Error Extract() { return ExtractSubtree(definition_.root()); }
  Result<std::vector<DescribeComponent>> Components();
  const Accessor& accessor() const { return accessor_; }

 private:
  using PodSet = std::vector<size_t>;  // indexes into queriers_/pod_views_

  Error ExtractSubtree(const catalog::Component& c);
  std::vector<const catalog::Component*> ChildrenOf(const catalog::Component& c) const;
  std::vector<InstanceNode> Instances(const catalog::Component& c) const;
  Result<PodSet> MatchType(const catalog::Component& c, const PodSet& pods) const;
  Result<PodSet> FilterByInstance(const catalog::Component& c, const std::string& key, const PodSet& pods) const;
  Result<DescribeComponent> Component(const catalog::Component& c, const PodSet& pods);
  Result<DescribeComponent> PodBearing(const std::string& name, const catalog::Component& c,
                                       const std::vector<InstanceNode>& instances, bool with_children,
                                       const PodSet& pods);
  Result<DescribeComponent> Grouping(const std::string& name, const catalog::Component& c,
                                     const std::vector<InstanceNode>& instances, const PodSet& pods);
  void Attach(const PodSet& pods, DescribeComponent* into) const;

  Accessor accessor_;
  const catalog::Definition& definition_;
  StructureSummary summary_;
  std::vector<PodQuerier> queriers_;
  std::vector<DescribePod> pod_views_;
  std::map<std::string, std::vector<std::string>> ids_;                  // component -> sorted keys
  std::map<std::string, std::vector<ExtractedInstance>> extracted_;      // component -> instances
};

Error ViewBuilder::ExtractSubtree(const catalog::Component& c) {
  Result<std::vector<std::string>> ids = accessor_.InstanceIds(c);
  if (!ids.ok()) return Wrapped("get instance ids for component " + c.name, ids.error);
  Result<std::vector<ExtractedInstance>> extracted = accessor_.ExtractedInstances(c);
  if (!extracted.ok()) return Wrapped("get extracted instances for component " + c.name, extracted.error);
  std::sort(ids.value.begin(), ids.value.end());
  ids_[c.name] = std::move(ids.value);
  extracted_[c.name] = std::move(extracted.value);
  for (const catalog::Component* child : ChildrenOf(c)) {
    if (Error e = ExtractSubtree(*child)) return Wrapped("build instance nodes for component " + c.name, e);
  }
  return {};
}

std::vector<const catalog::Component*> ViewBuilder::ChildrenOf(const catalog::Component& c) const {
  std::vector<const catalog::Component*> out;
  auto it = summary_.children.find(c.name);
  if (it == summary_.children.end()) return out;
  for (const std::string& name : it->second) {
    if (const catalog::Component* child = definition_.Find(name)) out.push_back(child);
  }
  return out;
}

std::vector<InstanceNode> ViewBuilder::Instances(const catalog::Component& c) const {
  std::vector<InstanceNode> out;
  const std::vector<ExtractedInstance>& extracted = extracted_.at(c.name);
  for (const std::string& key : ids_.at(c.name)) {
    InstanceNode node{key, nullptr};
    for (const ExtractedInstance& e : extracted) {
      if (e.id == key) node.extracted = &e;
    }
    out.push_back(node);
  }
  return out;
}

// The pods a component's componentTypeSelector accepts. Without one, only the definition's sole
// pod-bearing component claims them all: a peer would double-count a sibling's pods (upstream's
// known gap: a pod no component claims goes unlisted).
Result<ViewBuilder::PodSet> ViewBuilder::MatchType(const catalog::Component& c, const PodSet& pods) const {
  if (!HasTypeSelector(c)) return {summary_.leaves.size() == 1 ? pods : PodSet{}, {}};
  PodSet matched;
  for (size_t i : pods) {
    Result<bool> ok = queriers_[i].MatchesComponentType(c);
    if (!ok.ok()) return {{}, ok.error};
    if (ok.value) matched.push_back(i);
  }
  return {std::move(matched), {}};
}

// The pods of one instance: those whose componentInstanceSelector extracts `key`. A component
// without any pod selector lets every pod reach every instance; a pod whose selector yields no
// single id belongs to none.
Result<ViewBuilder::PodSet> ViewBuilder::FilterByInstance(const catalog::Component& c, const std::string& key,
                                                          const PodSet& pods) const {
  if (!HasPodSelector(c)) return {pods, {}};
  PodSet matched;
  for (size_t i : pods) {
    if (c.instance_selector_id < 0) continue;
    Result<std::string> id = queriers_[i].SingleString(c.instance_selector_id);
    if (id.ok() && id.value == key) matched.push_back(i);
  }
  return {std::move(matched), {}};
}

void ViewBuilder::Attach(const PodSet& pods, DescribeComponent* into) const {
  for (size_t i : pods) {
    const DescribePod& pod = pod_views_[i];
    ++into->replicas.current;
    if (pod.ready) ++into->replicas.ready;
    if (pod.node) into->nodes = MergeNodes(std::move(into->nodes), {*pod.node});
    into->pods.push_back(pod);
  }
  std::stable_sort(into->pods.begin(), into->pods.end(),
                   [](const DescribePod& a, const DescribePod& b) { return a.name < b.name; });
}

Result<DescribeComponent> ViewBuilder::PodBearing(const std::string& name, const catalog::Component& c,
                                                  const std::vector<InstanceNode>& instances, bool with_children,
                                                  const PodSet& pods) {
  DescribeComponent out{name, c.kind.kind, {}, {}, {}, {}, {}};
  Attach(pods, &out);
  for (const InstanceNode& instance : instances) {
    int32_t replicas = ReplicasOf(instance.extracted);
    out.replicas.desired += replicas;
    if (instance.extracted) out.resources.Add(InstanceRequest(*instance.extracted).Scaled(replicas));
    if (!with_children) continue;
    for (const catalog::Component* child : ChildrenOf(c)) {
      Result<DescribeComponent> row = Component(*child, pods);
      if (!row.ok()) return row;
      // Only the totals roll up: a child's own pods are its own rows.
      out.resources.Add(row.value.resources);
      out.nodes = MergeNodes(std::move(out.nodes), row.value.nodes);
      AppendComponent(&out.children, std::move(row.value), child->HasPods());
    }
  }
  return {std::move(out), {}};
}

Result<DescribeComponent> ViewBuilder::Grouping(const std::string& name, const catalog::Component& c,
                                                const std::vector<InstanceNode>& instances, const PodSet& pods) {
  DescribeComponent out{name, c.kind.kind, {}, {}, {}, {}, {}};
  for (size_t n = 0; n < instances.size(); ++n) {
    for (const catalog::Component* child : ChildrenOf(c)) {
      Result<DescribeComponent> row = Component(*child, pods);
      if (!row.ok()) return row;
      Aggregate(row.value, &out);
      AppendComponent(&out.children, std::move(row.value), child->HasPods());
    }
  }
  // With descendants the roll-up carries the declared scale; without, only a scale the
  // component really declares counts (a default of one would resurrect dropped plumbing).
  if (out.children.empty()) {
    for (const InstanceNode& instance : instances) {
      if (instance.extracted && instance.extracted->scale) out.replicas.desired += ReplicasOf(instance.extracted);
    }
  }
  return {std::move(out), {}};
}

// upstream's buildComponent: a component row, or one row per instance under a parent row when
// the component's instances carry keys.
Result<DescribeComponent> ViewBuilder::Component(const catalog::Component& c, const PodSet& pods) {
  PodSet claimed = pods;
  if (c.HasPods()) {
    Result<PodSet> matched = MatchType(c, pods);
    if (!matched.ok()) return {{}, Wrapped("match pods to component " + GoQuoted(c.name), matched.error)};
    claimed = std::move(matched.value);
  }
  std::vector<InstanceNode> instances = Instances(c);
  bool multi = std::any_of(instances.begin(), instances.end(), [](const InstanceNode& i) { return !i.key.empty(); });
  if (!multi)
    return c.HasPods() ? PodBearing(c.name, c, instances, true, claimed) : Grouping(c.name, c, instances, claimed);
  DescribeComponent parent{c.name, c.kind.kind, {}, {}, {}, {}, {}};
  for (const InstanceNode& instance : instances) {
    Result<PodSet> scoped = FilterByInstance(c, instance.key, claimed);
    if (!scoped.ok()) return {{}, Wrapped("match pods to instance of " + GoQuoted(c.name), scoped.error)};
    Result<DescribeComponent> row = c.HasPods() ? PodBearing(instance.key, c, {instance}, true, scoped.value)
                                                : Grouping(instance.key, c, {instance}, scoped.value);
    if (!row.ok()) return row;
    Aggregate(row.value, &parent);
    AppendComponent(&parent.children, std::move(row.value), c.HasPods());
  }
  return {std::move(parent), {}};
}

Result<std::vector<DescribeComponent>> ViewBuilder::Components() {
  std::vector<DescribeComponent> out;
  PodSet all(queriers_.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  const catalog::Component& root = definition_.root();
  // The root carries the pod template of a Deployment, StatefulSet, Job or Pod: it is rendered
  // first, under the same pod filter as any component, without its tree children.
  if (root.HasPods()) {
    Result<PodSet> claimed = MatchType(root, all);
    if (!claimed.ok()) return {{}, Wrapped("match pods to root component", claimed.error)};
    Result<DescribeComponent> row = PodBearing(root.name, root, Instances(root), false, claimed.value);
    if (!row.ok()) return {{}, row.error};
    AppendComponent(&out, std::move(row.value), true);
  }
  // tree.Build exposes the children of the root's first instance only.
  if (Instances(root).empty()) return {std::move(out), {}};
  for (const catalog::Component* child : ChildrenOf(root)) {
    Result<DescribeComponent> row = Component(*child, all);
    if (!row.ok()) return {{}, Wrapped("build component " + GoQuoted(child->name), row.error)};
    AppendComponent(&out, std::move(row.value), child->HasPods());
  }
  return {std::move(out), {}};
}

Value N(int64_t n) { return Value::Number(static_cast<double>(n)); }

Value ResourcesJson(const DescribeResources& r) {
  return Value::MakeObject({{Value::String("gpus"), N(r.gpus)},
                            {Value::String("cpuMillis"), N(r.cpu_millis)},
                            {Value::String("memoryBytes"), N(r.memory_bytes)}});
}

Value PodJson(const DescribePod& p) {
  std::vector<Member> m = {{Value::String("name"), Value::String(p.name)},
                           {Value::String("phase"), Value::String(p.phase)},
                           {Value::String("ready"), Value::Bool(p.ready)},
                           {Value::String("node"), p.node ? Value::String(*p.node) : Value::Null()}};
  if (!p.reason.empty()) m.push_back({Value::String("reason"), Value::String(p.reason)});
  m.push_back({Value::String("resources"), ResourcesJson(p.resources)});
  return Value::MakeObject(std::move(m));
}

Value ComponentJson(const DescribeComponent& c) {
  std::vector<Member> m = {{Value::String("name"), Value::String(c.name)}};
  if (!c.kind.empty()) m.push_back({Value::String("kind"), Value::String(c.kind)});
  m.push_back({Value::String("replicas"), Value::MakeObject({{Value::String("desired"), N(c.replicas.desired)},
                                                 {Value::String("current"), N(c.replicas.current)},
                                                 {Value::String("ready"), N(c.replicas.ready)}})});
  m.push_back({Value::String("resources"), ResourcesJson(c.resources)});
  auto list = [&](const char* key, const auto& items, auto to_json) {
    if (items.empty()) return;
    Array a;
    for (const auto& item : items) a.push_back(to_json(item));
    m.push_back({Value::String(key), Value::MakeArray(std::move(a))});
  };
  list("nodes", c.nodes, [](const std::string& n) { return Value::String(n); });
  list("pods", c.pods, PodJson);
  list("children", c.children, ComponentJson);
  return Value::MakeObject(std::move(m));
}

}  // namespace

void DescribeResources::Add(const DescribeResources& other) {
  gpus += other.gpus;
  cpu_millis += other.cpu_millis;
  memory_bytes += other.memory_bytes;
}

DescribeResources DescribeResources::Scaled(int64_t replicas) const {
  return {gpus * replicas, cpu_millis * replicas, memory_bytes * replicas};
}

std::optional<int64_t> QuantityValue(const Value& quantity) { return CeilScaled(quantity, 1); }
std::optional<int64_t> QuantityMilliValue(const Value& quantity) { return CeilScaled(quantity, 1000); }

std::string FormatCpuMillis(int64_t millis) { return DecimalText(millis, -3); }

std::string FormatMemoryBytes(int64_t bytes) {
  std::string binary = BinaryText(bytes);
  return !binary.empty() && binary.back() == 'i' ? binary : DecimalText(bytes, 0);
}

DescribeResources RequirementsOf(const Value& resources) {
  DescribeResources out;
  if (const Value* q = Declared(resources, kGpu)) out.gpus = QuantityValue(*q).value_or(0);
  if (const Value* q = Declared(resources, "cpu")) out.cpu_millis = QuantityMilliValue(*q).value_or(0);
  if (const Value* q = Declared(resources, "memory")) out.memory_bytes = QuantityValue(*q).value_or(0);
  return out;
}

DescribeResources PodRequest(const Value& spec) {
  DescribeResources running = SumContainers(Sub(spec, "containers"));
  DescribeResources largest_init;
  if (const Value& init = Sub(spec, "initContainers"); init.IsArray()) {
    for (const Value& c : init.AsArray()) {
      DescribeResources request = RequirementsOf(Sub(c, "resources"));
      // A sidecar (restartPolicy Always) never exits, so it adds up instead of peaking.
      if (StringField(c, "restartPolicy") == "Always") {
        running.Add(request);
      } else {
        largest_init = Max(largest_init, request);
      }
    }
  }
  DescribeResources total = Max(largest_init, running);
  // A pod-level cpu or memory request is charged in place of the containers' (not GPUs: an
  // extended resource cannot be declared there).
  const Value& pod_level = Sub(spec, "resources");
  if (const Value* q = Declared(pod_level, "cpu")) total.cpu_millis = QuantityMilliValue(*q).value_or(0);
  if (const Value* q = Declared(pod_level, "memory")) total.memory_bytes = QuantityValue(*q).value_or(0);
  // The runtime's overhead is charged on top.
  total.Add(RequirementsOf(Value::MakeObject({{Value::String("requests"), Sub(spec, "overhead")}})));
  return total;
}

DescribeResources InstanceRequest(const ExtractedInstance& instance) {
  if (instance.pod_template_spec && instance.pod_template_spec->IsObject()) {
    return PodRequest(Sub(*instance.pod_template_spec, "spec"));
  }
  if (instance.pod_spec && instance.pod_spec->IsObject()) return PodRequest(*instance.pod_spec);
  if (!instance.fragmented_pod_spec) return {};
  const FragmentedPodSpec& f = *instance.fragmented_pod_spec;
  DescribeResources total = SumContainers(f[FragmentedField::kContainers]);
  if (f[FragmentedField::kContainer].IsObject())
    total.Add(RequirementsOf(Sub(f[FragmentedField::kContainer], "resources")));
  // The CR-level resources state the same pod's request: they count only when no container did.
  if (total.Empty() && f[FragmentedField::kResources].IsObject()) return RequirementsOf(f[FragmentedField::kResources]);
  return total;
}

std::vector<Value> PodsOwnedBy(const std::vector<Value>& objects, std::string_view root_uid) {
  std::unordered_map<std::string, const Value*> by_uid;
  for (const Value& o : objects) {
    std::string uid = StringField(Sub(o, "metadata"), "uid");
    if (!uid.empty()) by_uid.emplace(uid, &o);
  }
  std::vector<Value> owned;
  for (const Value& o : objects) {
    if (StringField(o, "kind") != "Pod") continue;
    const Value* refs = &OwnerRefs(o);
    for (int level = 0; level < kMaxOwnerDepth && !root_uid.empty(); ++level) {
      if (NamesUid(*refs, root_uid)) {
        owned.push_back(o);
        break;
      }
      const Value* controller = ControllerRef(*refs);
      auto owner = controller ? by_uid.find(StringField(*controller, "uid")) : by_uid.end();
      if (owner == by_uid.end()) break;
      refs = &OwnerRefs(*owner->second);
    }
  }
  return owned;
}

Result<DescribeView> BuildDescribeView(const Bundle& bundle, const catalog::Definition& definition,
                                       const Value& object, const std::vector<Value>& pods,
                                       const DescribeViewOptions& options) {
  DescribeView view;
  const Value& metadata = Sub(object, "metadata");
  view.name = StringField(metadata, "name");
  view.namespace_ = StringField(metadata, "namespace");
  view.kind = StringField(object, "kind");
  view.api_version = StringField(object, "apiVersion");
  view.created_at = StringField(metadata, "creationTimestamp");
  view.definition = definition.name;
  view.origin = options.origin;
  view.file_mode = options.file_mode;
  ViewBuilder builder(bundle, definition, object, pods, options);
  if (Error e = builder.Extract()) return {{}, Wrapped("build tree", e)};
  Result<Status> status = ExtractStatus(builder.accessor(), definition.root());
  if (!status.ok() && status.error.code != ErrorCode::kNoDefinition) {
    return {{}, Wrapped("build tree: failed to get root status", status.error)};
  }
  view.phases = status.ok() ? status.value.matched_statuses : std::vector<std::string>{};
  if (view.phases.empty()) view.phases = {"Undefined"};
  Result<std::vector<DescribeComponent>> components = builder.Components();
  if (!components.ok()) return {{}, components.error};
  view.components = std::move(components.value);
  for (const DescribeComponent& c : view.components) view.resources.Add(c.resources);
  return {std::move(view), {}};
}

Value DescribeViewJson(const DescribeView& view) {
  Array phases, components;
  for (const std::string& p : view.phases) phases.push_back(Value::String(p));
  for (const DescribeComponent& c : view.components) components.push_back(ComponentJson(c));
  return Value::MakeObject(
      {{Value::String("name"), Value::String(view.name)},
       {Value::String("namespace"), Value::String(view.namespace_)},
       {Value::String("kind"), Value::String(view.kind)},
       {Value::String("apiVersion"), Value::String(view.api_version)},
       // Go's zero time, as kli marshals an unset creationTimestamp.
       {Value::String("createdAt"), Value::String(view.created_at.empty() ? "0001-01-01T00:00:00Z" : view.created_at)},
       {Value::String("definition"), Value::String(view.definition)},
       {Value::String("origin"), Value::String(view.origin)},
       {Value::String("phases"), Value::MakeArray(std::move(phases))},
       {Value::String("fileMode"), Value::Bool(view.file_mode)},
       {Value::String("resources"), ResourcesJson(view.resources)},
       {Value::String("components"), Value::MakeArray(std::move(components))}});
}

}  // namespace wm::workload
