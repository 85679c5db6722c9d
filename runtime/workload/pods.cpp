// Pod-side answers (see pods.h). Every pod path runs through RunResolver on the Pod object; the
// single-result rule and the messages follow upstream's PodQuerier (pkg/resource/pod_querier.go)
// and instructions/pod.go, so a consumer switching from the Go library sees the same text.
#include "runtime/workload/pods.h"

#include "runtime/value/json.h"
#include "runtime/workload/accessor.h"

namespace wm::workload {
namespace {

// matchLabels as a Kubernetes equality selector: each key present in .metadata.labels with
// exactly that value (an empty value requires the label to be present and empty).
bool MatchesLabels(const Value& pod, const std::map<std::string, std::string>& wanted) {
  const Value* metadata = pod.IsObject() ? pod.Find("metadata") : nullptr;
  const Value* labels = metadata && metadata->IsObject() ? metadata->Find("labels") : nullptr;
  for (const auto& [key, value] : wanted) {
    const Value* actual = labels && labels->IsObject() ? labels->Find(key) : nullptr;
    if (!actual || !actual->IsString() || actual->AsString() != value) return false;
  }
  return true;
}

}  // namespace

bool HasTypeSelector(const catalog::Component& c) {
  return c.type_selector_key >= 0 || !c.type_selector_labels.empty();
}

bool HasPodSelector(const catalog::Component& c) {
  return HasTypeSelector(c) || c.type_selector_value || c.instance_selector_id >= 0 || c.replica_selector_key >= 0;
}

std::string GoQuoted(std::string_view text) { return ToJson(Value::String(text)); }

std::string GoText(const Value& value) {
  if (value.IsNull()) return "<nil>";
  return StringOf(value);
}

std::string GoText(const std::vector<Value>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? " " : "") + GoText(values[i]);
  return out + "]";
}

std::string GoText(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? " " : "") + values[i];
  return out + "]";
}

StructureSummary::StructureSummary(const catalog::Definition& d) : definition(&d) {
  for (const catalog::Component& c : d.components) {
    if (c.HasPods()) leaves.push_back(&c);
    if (c.replicas >= 0 || c.min_replicas >= 0 || c.max_replicas >= 0) has_scale_definition = true;
    if (!c.owner.empty()) {
      parent[c.name] = c.owner;
      children[c.owner].push_back(c.name);
    }
  }
  // Walking up from each component yields its own mentions first, then each ancestor's in turn:
  // upstream's order after its (stable) sort of direct mentions before the rest.
  for (const catalog::Component& c : d.components) {
    std::vector<Candidate> found;
    for (const catalog::Component* level : SelfAndAncestors(c)) {
      for (const catalog::GangGroup& group : d.gang_groups) {
        for (const catalog::GangMember& member : group.members) {
          if (member.component == level->name) found.push_back({level->name, group.name, &member});
        }
      }
    }
    if (!found.empty()) candidates[c.name] = std::move(found);
  }
}

std::vector<const catalog::Component*> StructureSummary::SelfAndAncestors(const catalog::Component& c) const {
  std::vector<const catalog::Component*> chain = {&c};
  while (chain.size() <= definition->components.size()) {
    auto it = parent.find(chain.back()->name);
    if (it == parent.end()) break;
    const catalog::Component* owner = definition->Find(it->second);
    if (!owner) break;
    chain.push_back(owner);
  }
  return chain;
}

PodQuerier::PodQuerier(const Bundle& bundle, const Value& pod, const PodQueryOptions& options)
    : bundle_(&bundle),
      pod_(SortKeysDeep(pod)),
      run_(options.run),
      budget_(std::make_shared<ObjectBudget>(options.object)) {}

std::string PodQuerier::PodName() const {
  return StringAt(pod_, {"metadata", "name"});
}

Outputs PodQuerier::Run(int32_t resolver) const {
  return RunResolver(*bundle_, resolver, pod_, run_, budget_.get());
}

std::string PodQuerier::Source(int32_t resolver) const { return bundle_->resolver_info(resolver).source; }

Result<Value> PodQuerier::Single(int32_t resolver) const {
  Outputs o = Run(resolver);
  if (!o.ok()) return {Value(), ResolverError(o)};
  if (o.values.size() != 1) {
    return {Value(), Fail(ErrorCode::kEvaluation,
                          "expected single query result, got " + std::to_string(o.values.size()))};
  }
  const Value& v = o.values.front();
  if (v.IsNull() || (v.IsString() && v.AsString().empty())) {
    return {Value(), Fail(ErrorCode::kEvaluation, "query result is empty " + (v.IsNull() ? "<nil>" : std::string()))};
  }
  return {v, {}};
}

Result<std::string> PodQuerier::SingleString(int32_t resolver) const {
  Result<Value> v = Single(resolver);
  if (!v.ok()) return {"", v.error};
  return {StringOf(v.value), {}};
}

Result<bool> PodQuerier::MatchesComponentType(const catalog::Component& c) const {
  if (!HasTypeSelector(c)) return {false, {}};
  if (c.type_selector_key >= 0) {
    Outputs o = Run(c.type_selector_key);
    if (!o.ok()) return {false, ResolverError(o)};
    // Upstream evaluates `<keyPath> == "<value>"` and looks for a true result; comparing each
    // keyPath result here is the same test with the keyPath parenthesised.
    Value wanted = c.type_selector_value ? Value::String(*c.type_selector_value) : Value();
    bool found = false;
    for (const Value& v : o.values) {
      found = found || (c.type_selector_value ? v == wanted : !v.IsNull());
    }
    if (!found) return {false, {}};
  }
  return {MatchesLabels(pod_, c.type_selector_labels), {}};
}

Result<bool> PodQuerier::PassesFilters(const std::vector<int32_t>& filters) const {
  for (int32_t filter : filters) {
    Result<Value> single = Single(filter);
    if (!single.ok()) {
      single.error.message = "failed to evaluate filter " + GoQuoted(Source(filter)) + ": " + single.error.message;
      return {false, single.error};
    }
    // Exactly boolean true passes; "true", 1 or any other value fails the filter without error.
    if (single.value.kind() != Kind::True) return {false, {}};
  }
  return {true, {}};
}

Result<std::vector<std::string>> PodQuerier::GroupKeys(const std::vector<int32_t>& key_paths) const {
  std::vector<std::string> keys;
  for (int32_t path : key_paths) {
    Result<std::string> key = SingleString(path);
    if (!key.ok()) {
      key.error.message = "failed to extract group key from path " +
                          GoQuoted(Source(path)) + ": " + key.error.message;
      return {{}, key.error};
    }
    keys.push_back(std::move(key.value));
  }
  return {std::move(keys), {}};
}

Result<std::string> PodQuerier::MatchingInstanceId(const catalog::Component& c,
                                                   const std::vector<std::string>& ids) const {
  if (c.instance_selector_id < 0) {
    if (ids.size() == 1 && ids.front().empty()) return {"", {}};
    return {"", Fail(ErrorCode::kInvalidInput, "no instance selector provided but instance ids are not empty")};
  }
  Result<std::string> id = SingleString(c.instance_selector_id);
  if (!id.ok()) {
    id.error.message = "failed to extract instance id from path " +
                       GoQuoted(Source(c.instance_selector_id)) + ": " + id.error.message;
    return id;
  }
  for (const std::string& known : ids) {
    if (known == id.value) return id;
  }
  return {"", Fail(ErrorCode::kNotFound, "could not match instance id " + GoQuoted(id.value) +
                                             ". existing instance ids " + GoText(ids))};
}

Result<const catalog::Component*> InferPodComponent(const PodQuerier& pod, const StructureSummary& summary) {
  if (summary.leaves.size() == 1) return {summary.leaves.front(), {}};
  for (const catalog::Component* leaf : summary.leaves) {
    if (!HasPodSelector(*leaf)) continue;
    Result<bool> matches = pod.MatchesComponentType(*leaf);
    if (!matches.ok()) {
      matches.error.message = "failed to check if pod matches component " + leaf->name + ": " + matches.error.message;
      return {nullptr, matches.error};
    }
    if (matches.value) return {leaf, {}};
  }
  return {nullptr, Fail(ErrorCode::kNotFound, "no component found for pod " + pod.PodName())};
}

Result<std::optional<std::string>> InferPodComponentInstance(const PodQuerier& pod,
                                                             const catalog::Component& component,
                                                             const std::vector<std::string>& ids) {
  if (ids.empty() || ids.front().empty() || !HasPodSelector(component)) return {std::nullopt, {}};
  Result<std::string> id = pod.MatchingInstanceId(component, ids);
  if (!id.ok()) return {std::nullopt, id.error};
  if (id.value.empty()) return {std::nullopt, {}};
  return {id.value, {}};
}

Result<std::optional<std::string>> ReplicaKeyOf(const PodQuerier& pod, const StructureSummary& summary,
                                                const catalog::Component& component) {
  for (const catalog::Component* c : summary.SelfAndAncestors(component)) {
    if (c->replica_selector_key < 0) continue;
    Result<std::string> key = pod.SingleString(c->replica_selector_key);
    if (!key.ok()) {
      key.error.message = "failed to extract replica key from path " +
                          GoQuoted(pod.Source(c->replica_selector_key)) + ": " + key.error.message;
      return {std::nullopt, key.error};
    }
    return {std::move(key.value), {}};
  }
  return {std::nullopt, {}};
}

}  // namespace wm::workload
