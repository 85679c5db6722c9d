// Extraction as upstream's Accessor and Component do it (accessor.h): each path evaluated once on the
// key-sorted object, every result converted to the Go type upstream converts it to (a shape check
// with encoding/json's error wording), and component-level results zipped with the instance ids
// strictly by index.
#include "runtime/workload/accessor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <mutex>

#include "runtime/value/json.h"

namespace wm::workload {
namespace {

constexpr std::array<FragmentedFieldInfo, kFragmentedFieldCount> kFragmentedFields = {{
    {FragmentedField::kSchedulerName, "schedulerName", "schedulerNamePath", "string", GoShape::kString},
    {FragmentedField::kLabels, "labels", "labelsPath", "map[string]string", GoShape::kStringMap},
    {FragmentedField::kAnnotations, "annotations", "annotationsPath", "map[string]string", GoShape::kStringMap},
    {FragmentedField::kResources, "resources", "resourcesPath", "*v1.ResourceRequirements", GoShape::kStructPointer},
    {FragmentedField::kResourceClaims, "resourceClaims", "resourceClaimsPath", "[]v1.PodResourceClaim", GoShape::kSlice},
    {FragmentedField::kPodAffinity, "podAffinity", "podAffinityPath", "*v1.PodAffinity", GoShape::kStructPointer},
    {FragmentedField::kNodeAffinity, "nodeAffinity", "nodeAffinityPath", "*v1.NodeAffinity", GoShape::kStructPointer},
    {FragmentedField::kContainers, "containers", "containersPath", "[]v1.Container", GoShape::kSlice},
    {FragmentedField::kContainer, "container", "containerPath", "*v1.Container", GoShape::kStructPointer},
    {FragmentedField::kPriorityClassName, "priorityClassName", "priorityClassNamePath", "string", GoShape::kString},
    {FragmentedField::kImage, "image", "imagePath", "string", GoShape::kString},
}};

// The type encoding/json names for a struct behind a pointer or a slice ("*v1.X" -> "v1.X").
std::string_view ElementType(std::string_view go_type) {
  if (go_type.substr(0, 1) == "*") return go_type.substr(1);
  if (go_type.substr(0, 2) == "[]") return go_type.substr(2);
  return go_type;
}

// Whether `v` converts to a value of `shape` (null always does: the Go zero value); the
// conversion error otherwise. Checks the top level (and map values / slice elements), not the
// fields of Kubernetes structs.
std::optional<Error> CheckShape(const Value& v, GoShape shape, std::string_view go_type, size_t index) {
  if (v.IsNull()) return std::nullopt;
  switch (shape) {
    case GoShape::kString:
      if (v.IsString()) return std::nullopt;
      return ConversionError(index, go_type, GoJsonTypeName(v), "string");
    case GoShape::kStringMap:
      if (!v.IsObject()) return ConversionError(index, go_type, GoJsonTypeName(v), go_type);
      for (const auto& [key, value] : v.AsObject()) {
        if (!value.IsString() && !value.IsNull()) {
          return ConversionError(index, go_type, GoJsonTypeName(value), "string");
        }
      }
      return std::nullopt;
    case GoShape::kStructPointer:
      if (v.IsObject()) return std::nullopt;
      return ConversionError(index, go_type, GoJsonTypeName(v), ElementType(go_type));
    case GoShape::kSlice:
      if (!v.IsArray()) return ConversionError(index, go_type, GoJsonTypeName(v), go_type);
      for (const Value& e : v.AsArray()) {
        if (!e.IsObject() && !e.IsNull()) {
          return ConversionError(index, go_type, GoJsonTypeName(e), ElementType(go_type));
        }
      }
      return std::nullopt;
  }
  return std::nullopt;
}

// Go's %q for the strings in scale errors.
std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (ch < 0x20 || ch == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out + "\"";
}

// strconv.ParseInt(s, 10, 32): optional sign, decimal digits only, in int32 range.
std::optional<int32_t> ParseInt32(std::string_view s) {
  size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (i == s.size() || s.size() - i > 11) return std::nullopt;
  int64_t n = 0;
  for (size_t j = i; j < s.size(); ++j) {
    if (s[j] < '0' || s[j] > '9') return std::nullopt;
    n = n * 10 + (s[j] - '0');
  }
  if (s[0] == '-') n = -n;
  if (n < INT32_MIN || n > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(n);
}

// upstream's extractReplicas: numbers as *int32 (integral and in range), numeric strings parsed,
// null absent.
Result<std::vector<std::optional<int32_t>>> ConvertReplicas(const std::vector<Value>& values) {
  Result<std::vector<std::optional<int32_t>>> out;
  for (size_t i = 0; i < values.size(); ++i) {
    const Value& v = values[i];
    if (v.IsString()) {
      std::optional<int32_t> n = ParseInt32(v.AsString());
      if (!n) {
        out.error = Fail(ErrorCode::kEvaluation, "replicas value " + GoQuote(v.AsString()) + " at index " +
                                                     std::to_string(i) + " is not a number");
        return out;
      }
      out.value.push_back(n);
    } else if (v.IsNull()) {
      out.value.push_back(std::nullopt);
    } else if (v.IsNumber() && std::nearbyint(v.AsNumber()) == v.AsNumber() &&
               v.AsNumber() >= INT32_MIN && v.AsNumber() <= INT32_MAX) {
      out.value.push_back(static_cast<int32_t>(v.AsNumber()));
    } else {
      std::string type = GoJsonTypeName(v);
      if (v.IsNumber()) type += " " + ToJson(v);
      out.error = ConversionError(i, "*int32", type, "int32");
      return out;
    }
  }
  return out;
}

// Evaluates one optional path with `run` (resolver id -> Outputs): no resolver = no results
// (upstream's extract with a nil path).
template <class RunFn>
Result<std::vector<Value>> EvaluateWith(const RunFn& run, int32_t resolver) {
  Result<std::vector<Value>> out;
  if (resolver < 0) return out;
  Outputs o = run(resolver);
  if (!o.ok()) out.error = ResolverError(o);
  else out.value = std::move(o.values);
  return out;
}

// EvaluateWith the Accessor's runs (its object, limits and object budget).
Result<std::vector<Value>> Evaluate(const Accessor& a, int32_t resolver) {
  return EvaluateWith([&](int32_t id) { return a.Run(id); }, resolver);
}

// Upstream's ExtractInstanceIds, running resolvers with `run` on a key-sorted object
// (Accessor::ExtractInstanceIds).
template <class RunFn>
Result<std::vector<std::string>> ExtractInstanceIdsWith(const RunFn& run, const catalog::Component& c) {
  if (c.instance_id < 0) return {{}, Fail(ErrorCode::kNoDefinition, "no instance id path defined")};
  Result<std::vector<Value>> values = EvaluateWith(run, c.instance_id);
  if (!values.ok()) return {{}, values.error};
  Result<std::vector<std::string>> out;
  bool any_empty = false;
  for (size_t i = 0; i < values.value.size(); ++i) {
    const Value& v = values.value[i];
    if (auto e = CheckShape(v, GoShape::kString, "string", i)) return {{}, *e};
    out.value.push_back(v.IsString() ? std::string(v.AsString()) : std::string());
    any_empty = any_empty || out.value.back().empty();
  }
  if (any_empty) {
    std::string joined;
    for (size_t i = 0; i < out.value.size(); ++i) joined += (i ? "," : "") + out.value[i];
    return {{}, Fail(ErrorCode::kEvaluation, "instance id path contained empty string values [" + joined + "]")};
  }
  return out;
}

// InstanceIds' wrapping of ExtractInstanceIdsWith: no instanceIdPath is the anonymous instance.
template <class RunFn>
Result<std::vector<std::string>> InstanceIdsWith(const RunFn& run, const catalog::Component& c) {
  Result<std::vector<std::string>> ids = ExtractInstanceIdsWith(run, c);
  if (ids.error.code == ErrorCode::kNoDefinition) return {{""}, {}};
  if (!ids.ok()) return {{}, WrapError("failed to extract instance ids for component " + c.name, std::move(ids.error))};
  return ids;
}

// Evaluates a struct-valued path (PodTemplateSpec, PodSpec, ObjectMeta): null is the zero struct.
Result<std::vector<Value>> ExtractStructs(const Accessor& a, int32_t resolver, std::string_view go_type) {
  Result<std::vector<Value>> out = Evaluate(a, resolver);
  if (!out.ok()) return out;
  for (size_t i = 0; i < out.value.size(); ++i) {
    if (auto e = CheckShape(out.value[i], GoShape::kStructPointer, go_type, i)) {
      return {{}, *e};
    }
    if (out.value[i].IsNull()) out.value[i] = Value::EmptyObject();
  }
  return out;
}

// The spec checks every spec extraction makes first: "spec", then the field itself.
std::optional<Error> SpecMissing(const catalog::Component& c, bool has_field, std::string_view what) {
  if (!c.HasSpecDefinition()) return DefinitionNotFound(c, "spec");
  if (!has_field) return DefinitionNotFound(c, what);
  return std::nullopt;
}

// upstream's Component.Get*: a missing definition is nothing to extract; otherwise the results
// are zipped with the instance ids (`ids()`, evaluated only after the results, as upstream does)
// strictly by index, keeping the instance-id order.
template <class T, class Ids>
Result<std::vector<T>> ZipWithIds(Result<std::vector<T>> items, std::string_view what, const Ids& ids) {
  if (!items.ok()) {
    if (items.error.code == ErrorCode::kNoDefinition) return {};
    return {{}, WrapError("failed to extract " + std::string(what), std::move(items.error))};
  }
  Result<std::vector<std::string>> instance_ids = ids();
  if (!instance_ids.ok()) return {{}, WrapError("failed to get instance ids", std::move(instance_ids.error))};
  if (instance_ids.value.size() != items.value.size()) {
    return {{}, Fail(ErrorCode::kMismatch, "instance ids count (" + std::to_string(instance_ids.value.size()) +
                                               ") does not match results count (" +
                                               std::to_string(items.value.size()) + ")")};
  }
  return items;
}

}  // namespace

Error ResolverError(const Outputs& o) {
  return Fail(o.limit ? ErrorCode::kLimit : ErrorCode::kEvaluation,
              "JQ execution error for expression '" + o.expression + "': " + o.message);
}

Error WrapError(std::string_view prefix, Error e) {
  e.message = std::string(prefix) + ": " + e.message;
  return e;
}

std::string GoJsonTypeName(const Value& v) {
  switch (v.kind()) {
    case Kind::Null: return "null";
    case Kind::False:
    case Kind::True: return "bool";
    case Kind::Number: return "number";
    case Kind::String: return "string";
    case Kind::Array: return "array";
    case Kind::Object: return "object";
  }
  return "value";
}

Error ConversionError(size_t index, std::string_view go_type, const std::string& json_type,
                      std::string_view into) {
  return Fail(ErrorCode::kEvaluation,
              "failed to convert object at index " + std::to_string(index) + " to type " +
                  std::string(go_type) + ": failed to unmarshal to destination: json: cannot unmarshal " +
                  json_type + " into Go value of type " + std::string(into));
}

const std::array<FragmentedFieldInfo, kFragmentedFieldCount>& FragmentedFields() { return kFragmentedFields; }

bool IsGoZero(const Value& v, GoShape shape) {
  if (v.IsNull()) return true;
  switch (shape) {
    case GoShape::kString: return v.IsString() && v.AsString().empty();
    case GoShape::kStringMap: return v.IsObject() && v.AsObject().empty();
    case GoShape::kSlice: return v.IsArray() && v.AsArray().empty();
    case GoShape::kStructPointer: return false;
  }
  return false;
}

Error DefinitionNotFound(const catalog::Component& c, std::string_view what) {
  return Fail(ErrorCode::kNoDefinition, "component " + c.name + " does not have " + std::string(what) + " definition");
}

// The JSON-text constructor's state: the text (kept for the Value parsed on first need) and the
// view engine's answers by position in the FusedDefinition.
struct Accessor::TextState {
  std::string json;
  const FusedDefinition* fused = nullptr;
  FusedDefinition::Answers answers;
  std::once_flag parsed;
  Value object;

  const Value& Object() {
    std::call_once(parsed, [this] {
      JsonError error;
      // The text is valid JSON (the constructor's contract); null if not.
      if (ParseJson(json, &object, &error)) object = SortKeysDeep(object);
    });
    return object;
  }
  // The view engine's outputs of `resolver`, or null when it did not answer it.
  const std::vector<Value>* Answer(int32_t resolver) const {
    int position = fused->Position(resolver);
    if (position < 0 || !answers[static_cast<size_t>(position)]) return nullptr;
    return &*answers[static_cast<size_t>(position)];
  }
};

Accessor::Accessor(const Bundle& bundle, const catalog::Definition& definition, const Value& object,
                   const AccessorOptions& options)
    : bundle_(&bundle), definition_(&definition), object_(SortKeysDeep(object)), options_(options),
      object_budget_(std::make_shared<ObjectBudget>(options.object)) {
  // With a JIT hook, this kind's resolvers are compiled now, as one batch, rather than with the
  // kind of whichever shared resolver runs first.
  bundle.PrepareDefinition(definition);
}

Accessor::Accessor(const Bundle& bundle, const catalog::Definition& definition, std::string_view json,
                   const FusedDefinition& fused, const AccessorOptions& options)
    : bundle_(&bundle), definition_(&definition), text_(std::make_shared<TextState>()), options_(options),
      object_budget_(std::make_shared<ObjectBudget>(options.object)) {
  text_->json.assign(json);
  text_->fused = &fused;
  fused.Evaluate(text_->json, options_.run, &text_->answers);
}

const Value& Accessor::object() const { return text_ ? text_->Object() : object_; }

Outputs Accessor::Run(int32_t resolver) const {
  if (text_) {
    // A spent object budget is the regular path's error to give (RunResolver words it).
    const std::vector<Value>* answer = text_->Answer(resolver);
    bool budget_left = object_budget_->fuel_left.load() > 0 &&
                       (options_.object.timeout_ms == 0 || std::chrono::steady_clock::now() < object_budget_->deadline);
    if (answer != nullptr && budget_left) {
      Outputs out;
      out.values = *answer;
      return out;
    }
  }
  return RunResolver(*bundle_, resolver, object(), options_.run, object_budget_.get());
}

Result<std::vector<std::string>> Accessor::ExtractInstanceIds(const catalog::Component& c) const {
  return ExtractInstanceIdsWith([&](int32_t id) { return Run(id); }, c);
}

Result<std::vector<Value>> Accessor::ExtractPodTemplateSpecs(const catalog::Component& c) const {
  if (auto e = SpecMissing(c, c.pod_template_spec >= 0, "pod template spec")) return {{}, *e};
  return ExtractStructs(*this, c.pod_template_spec, "v1.PodTemplateSpec");
}

Result<std::vector<Value>> Accessor::ExtractPodSpecs(const catalog::Component& c) const {
  if (auto e = SpecMissing(c, c.pod_spec >= 0, "pod spec")) return {{}, *e};
  return ExtractStructs(*this, c.pod_spec, "v1.PodSpec");
}

Result<std::vector<Value>> Accessor::ExtractPodMetadata(const catalog::Component& c) const {
  if (auto e = SpecMissing(c, c.pod_metadata >= 0, "pod metadata")) return {{}, *e};
  return ExtractStructs(*this, c.pod_metadata, "v1.ObjectMeta");
}

Result<std::vector<FragmentedPodSpec>> Accessor::ExtractFragmentedPodSpecs(const catalog::Component& c) const {
  if (auto e = SpecMissing(c, !c.fragmented.empty(), "fragmented pod spec")) return {{}, *e};
  std::array<std::vector<Value>, kFragmentedFieldCount> results;
  size_t count = 0;
  for (const FragmentedFieldInfo& f : kFragmentedFields) {
    auto it = c.fragmented.find(std::string(f.path_key));
    if (it == c.fragmented.end()) continue;
    Result<std::vector<Value>> r = Evaluate(*this, it->second);
    if (!r.ok()) return {{}, r.error};
    for (size_t i = 0; i < r.value.size(); ++i) {
      if (auto e = CheckShape(r.value[i], f.shape, f.go_type, i)) return {{}, *e};
    }
    count = std::max(count, r.value.size());
    results[static_cast<size_t>(f.field)] = std::move(r.value);
  }
  Result<std::vector<FragmentedPodSpec>> out;
  out.value.resize(count);
  for (size_t i = 0; i < count; ++i) {
    for (size_t f = 0; f < kFragmentedFieldCount; ++f) {
      if (i < results[f].size()) out.value[i].values[f] = results[f][i];
    }
  }
  return out;
}

Result<std::vector<Scale>> Accessor::ExtractScales(const catalog::Component& c) const {
  if (c.replicas < 0 && c.min_replicas < 0 && c.max_replicas < 0) return {{}, DefinitionNotFound(c, "scale")};
  std::array<std::vector<std::optional<int32_t>>, 3> counts;
  const int32_t paths[3] = {c.replicas, c.min_replicas, c.max_replicas};
  size_t count = 0;
  for (int k = 0; k < 3; ++k) {
    Result<std::vector<Value>> r = Evaluate(*this, paths[k]);
    if (!r.ok()) return {{}, r.error};
    auto converted = ConvertReplicas(r.value);
    if (!converted.ok()) return {{}, converted.error};
    counts[k] = std::move(converted.value);
    count = std::max(count, counts[k].size());
  }
  Result<std::vector<Scale>> out;
  out.value.resize(count);
  for (size_t i = 0; i < count; ++i) {
    if (i < counts[0].size()) out.value[i].replicas = counts[0][i];
    if (i < counts[1].size()) out.value[i].min_replicas = counts[1][i];
    if (i < counts[2].size()) out.value[i].max_replicas = counts[2][i];
  }
  return out;
}

Result<std::vector<std::string>> Accessor::InstanceIds(const catalog::Component& c) const {
  return InstanceIdsWith([&](int32_t id) { return Run(id); }, c);
}

Result<std::vector<std::string>> InstanceIdsOfSorted(const Bundle& bundle, const Value& sorted_object,
                                                     const catalog::Component& c, const RunOptions& run,
                                                     ObjectBudget* budget) {
  return InstanceIdsWith([&](int32_t id) { return RunResolver(bundle, id, sorted_object, run, budget); }, c);
}

Result<std::vector<Scale>> Accessor::Scales(const catalog::Component& c) const {
  return ZipWithIds(ExtractScales(c), "scales", [&] { return InstanceIds(c); });
}

Result<std::vector<Value>> Accessor::PodTemplateSpecs(const catalog::Component& c) const {
  return ZipWithIds(ExtractPodTemplateSpecs(c), "pod template specs", [&] { return InstanceIds(c); });
}

Result<std::vector<Value>> Accessor::PodSpecs(const catalog::Component& c) const {
  return ZipWithIds(ExtractPodSpecs(c), "pod specs", [&] { return InstanceIds(c); });
}

Result<std::vector<Value>> Accessor::PodMetadata(const catalog::Component& c) const {
  return ZipWithIds(ExtractPodMetadata(c), "pod metadata", [&] { return InstanceIds(c); });
}

Result<std::vector<FragmentedPodSpec>> Accessor::FragmentedPodSpecs(const catalog::Component& c) const {
  return ZipWithIds(ExtractFragmentedPodSpecs(c), "fragmented pod specs", [&] { return InstanceIds(c); });
}

Result<std::vector<ExtractedInstance>> Accessor::ExtractedInstances(const catalog::Component& c) const {
  Result<std::vector<std::string>> ids = InstanceIds(c);
  if (!ids.ok()) return {{}, WrapError("failed to get instance ids", std::move(ids.error))};
  Result<std::vector<ExtractedInstance>> out;
  for (const std::string& id : ids.value) out.value.push_back({id, {}, {}, {}, {}, {}});
  // Each part in upstream's order; a component without that definition leaves it absent.
  // Each part in upstream's order, zipped with the ids computed once; a component without that
  // definition leaves it absent.
  auto known_ids = [&] { return ids; };
  auto fill = [&](auto items, std::string_view what, auto member) -> bool {
    auto zipped = ZipWithIds(std::move(items), what, known_ids);
    if (!zipped.ok()) {
      out.error = WrapError("failed to get " + std::string(what), std::move(zipped.error));
      return false;
    }
    for (size_t i = 0; i < zipped.value.size(); ++i) out.value[i].*member = std::move(zipped.value[i]);
    return true;
  };
  if (!fill(ExtractPodTemplateSpecs(c), "pod template specs", &ExtractedInstance::pod_template_spec) ||
      !fill(ExtractPodSpecs(c), "pod specs", &ExtractedInstance::pod_spec) ||
      !fill(ExtractFragmentedPodSpecs(c), "fragmented pod specs", &ExtractedInstance::fragmented_pod_spec) ||
      !fill(ExtractPodMetadata(c), "pod metadata", &ExtractedInstance::metadata) ||
      !fill(ExtractScales(c), "scales", &ExtractedInstance::scale)) {
    out.value.clear();
  }
  return out;
}

}  // namespace wm::workload
