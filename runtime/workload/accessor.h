// Upstream's Accessor and Component (pkg/resource, UPSTREAM.md 4.1) over a loaded bundle: for each
// component of one workload object, the instance ids, pod template spec, pod spec, pod metadata,
// fragmented pod spec and scale, each path evaluated once on the whole (key-sorted) object, its
// results converted as the Go library converts them, with the Go library's errors. Extract* are the
// Accessor's calls (one item per result); the component-level calls zip them with the instance
// ids strictly by index. Status lives in status.h, the resolved view of a workload in workload.h.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/value.h"
#include "runtime/workload/fused.h"
#include "runtime/workload/run.h"

namespace wm::workload {

// Replica counts of one instance (upstream's Scale). A count is absent when its path is not
// defined, yields null, or yields fewer results than there are instances.
struct Scale {
  std::optional<int32_t> replicas;
  std::optional<int32_t> min_replicas;
  std::optional<int32_t> max_replicas;
};

// The 11 fields of upstream's FragmentedPodSpec, in its struct order.
enum class FragmentedField : uint8_t {
  kSchedulerName,
  kLabels,
  kAnnotations,
  kResources,
  kResourceClaims,
  kPodAffinity,
  kNodeAffinity,
  kContainers,
  kContainer,
  kPriorityClassName,
  kImage,
};
inline constexpr size_t kFragmentedFieldCount = 11;

// The JSON shape the Go field converts from; decides the conversion error and what "empty" means
// (omitempty in upstream's JSON, "all values empty" in upstream's fragmented update).
enum class GoShape : uint8_t { kString, kStringMap, kStructPointer, kSlice };

struct FragmentedFieldInfo {
  FragmentedField field;
  std::string_view json_name;  // "schedulerName": upstream's JSON spelling
  std::string_view path_key;   // "schedulerNamePath": the key in catalog::Component::fragmented
  std::string_view go_type;    // "string", "*v1.ResourceRequirements": for conversion errors
  GoShape shape;
};

// The 11 fields in FragmentedField order.
const std::array<FragmentedFieldInfo, kFragmentedFieldCount>& FragmentedFields();

// Whether `v` is Go's zero value for a field of this shape: null or "" for a string, null or {}
// for a map, null or [] for a slice, only null for a struct pointer ({} is a non-nil pointer).
// Decides omitempty in upstream's JSON and "all values empty" in its fragmented update.
bool IsGoZero(const Value& v, GoShape shape);

// One item of a fragmented pod spec: the i-th result of each field path. Null stands for the Go
// zero value (path undefined, null result, or no i-th result).
struct FragmentedPodSpec {
  std::array<Value, kFragmentedFieldCount> values;
  const Value& operator[](FragmentedField f) const { return values[static_cast<size_t>(f)]; }
  Value& operator[](FragmentedField f) { return values[static_cast<size_t>(f)]; }
};

// Everything extracted for one instance (upstream's ExtractedInstance); absent = that definition
// is missing from the component.
struct ExtractedInstance {
  std::string id;  // "" for the anonymous instance of a single-instance component
  std::optional<Value> pod_template_spec;
  std::optional<Value> pod_spec;
  std::optional<FragmentedPodSpec> fragmented_pod_spec;
  std::optional<Value> metadata;
  std::optional<Scale> scale;
};

struct AccessorOptions {
  RunOptions run;  // limits for every resolver evaluation (result cap, fuel, memory, time)
  ObjectLimits object;  // limits of all of them together (run.h, docs/limits.md)
};

// Reads one workload object through one definition of a bundle. Holds a key-sorted copy of the
// object (upstream evaluates on an object that went through a Go map; see docs/architecture.md),
// so map-shaped components list their instances in sorted key order. Thread-compatible: const
// calls may run concurrently.
class Accessor {
 public:
  Accessor(const Bundle& bundle, const catalog::Definition& definition, const Value& object,
           const AccessorOptions& options = {});
  // The same object given as its JSON text (which must be valid JSON; the caller has read the
  // object's apiVersion and kind from it). The resolvers `fused` (of this definition) fuses are
  // evaluated at once on the view engine over the text, in the same key order; the others, and
  // any the view engine leaves to the regular engine (an error, a limit), run on the object's
  // Value as above, parsed from the text on first need. Results are the same as from the Value;
  // fused runs are not charged to the object budget (see ObjectBudgetAllowsView), and once the
  // budget is spent every run takes the regular path, which gives its error.
  Accessor(const Bundle& bundle, const catalog::Definition& definition, std::string_view json,
           const FusedDefinition& fused, const AccessorOptions& options = {});

  const Bundle& bundle() const { return *bundle_; }
  const catalog::Definition& definition() const { return *definition_; }
  // The key-sorted object resolvers run on (from JSON text: parsed on the first call).
  const Value& object() const;
  // Whether resolver runs are answered from the view engine (the JSON-text constructor).
  bool on_view() const { return text_ != nullptr; }
  const RunOptions& run_options() const { return options_.run; }
  // The budget every run on this object is charged to (shared by copies of this Accessor).
  ObjectBudget* object_budget() const { return object_budget_.get(); }

  // Runs one resolver of the bundle on the object.
  Outputs Run(int32_t resolver) const;

  // --- upstream Accessor.Extract*: one item per result of the path.
  // DefinitionNotFound (kNoDefinition): "no instance id path defined". Empty ids are an error:
  // "instance id path contained empty string values [a,,b]".
  Result<std::vector<std::string>> ExtractInstanceIds(const catalog::Component& c) const;
  // kNoDefinition: "component <name> does not have <spec|pod template spec> definition".
  Result<std::vector<Value>> ExtractPodTemplateSpecs(const catalog::Component& c) const;
  Result<std::vector<Value>> ExtractPodSpecs(const catalog::Component& c) const;
  Result<std::vector<Value>> ExtractPodMetadata(const catalog::Component& c) const;
  Result<std::vector<FragmentedPodSpec>> ExtractFragmentedPodSpecs(const catalog::Component& c) const;
  // Each of replicas/min/max evaluated independently; numeric strings parsed base-10 int32
  // (`replicas value "x" at index N is not a number`); count = the longest of the three.
  Result<std::vector<Scale>> ExtractScales(const catalog::Component& c) const;

  // --- upstream Component.Get*: zipped with InstanceIds by index; a count mismatch is
  // kMismatch `instance ids count (N) does not match results count (M)`. A missing definition
  // gives an empty vector (nothing to extract), not an error.
  // The instance ids; [""] (one anonymous instance) when the component has no instanceIdPath.
  Result<std::vector<std::string>> InstanceIds(const catalog::Component& c) const;
  // One Scale per instance id, in InstanceIds order; empty without a scaleDefinition.
  Result<std::vector<Scale>> Scales(const catalog::Component& c) const;
  Result<std::vector<Value>> PodTemplateSpecs(const catalog::Component& c) const;
  Result<std::vector<Value>> PodSpecs(const catalog::Component& c) const;
  Result<std::vector<Value>> PodMetadata(const catalog::Component& c) const;
  Result<std::vector<FragmentedPodSpec>> FragmentedPodSpecs(const catalog::Component& c) const;
  // upstream GetExtractedInstances, as a list in instance-id order.
  Result<std::vector<ExtractedInstance>> ExtractedInstances(const catalog::Component& c) const;

 private:
  const Bundle* bundle_;
  const catalog::Definition* definition_;
  struct TextState;  // the JSON text, the view engine's answers, the Value parsed on demand
  Value object_;     // the Value constructor's key-sorted object
  std::shared_ptr<TextState> text_;  // the JSON-text constructor's state (shared by copies)
  AccessorOptions options_;
  // The budget every resolver run on this object shares (run.h); shared by copies.
  std::shared_ptr<ObjectBudget> object_budget_;
};

// Accessor::InstanceIds for code that holds the object but no Accessor (the writes of writes.h):
// `sorted_object` must already be key-sorted (SortKeysDeep), as the Accessor keeps it.
// `budget` (may be null) is the object budget the runs are charged to.
Result<std::vector<std::string>> InstanceIdsOfSorted(const Bundle& bundle, const Value& sorted_object,
                                                     const catalog::Component& c, const RunOptions& run,
                                                     ObjectBudget* budget = nullptr);

// --- errors shared by the workload layer (status, pods, writes), worded as the Go library's.
// A failed resolver run as an Error worded as upstream's JQExecutionError, `JQ execution error for
// expression '<jq source>': <message>`; kLimit for a limit of EvalLimits, else kEvaluation.
Error ResolverError(const Outputs& outputs);
// Go's fmt.Errorf("<prefix>: %w", e): the message gets the prefix, the code stays.
Error WrapError(std::string_view prefix, Error e);
// encoding/json's name for a value's JSON type in "cannot unmarshal X": bool, number, string, ...
std::string GoJsonTypeName(const Value& v);
// upstream's conversion failure for result `index`: "failed to convert object at index N to type
// <go_type>: failed to unmarshal to destination: json: cannot unmarshal <json_type> into Go value
// of type <into>".
Error ConversionError(size_t index, std::string_view go_type, const std::string& json_type,
                      std::string_view into);

// The DefinitionNotFound error upstream gives for a missing definition: "component <name> does not
// have <what> definition" (what: "spec", "pod template spec", "pod spec", "pod metadata",
// "fragmented pod spec", "scale", "status").
Error DefinitionNotFound(const catalog::Component& c, std::string_view what);

}  // namespace wm::workload
