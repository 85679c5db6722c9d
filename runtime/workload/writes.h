// Writes through a bundle, as upstream's Accessor and Component write (UPSTREAM.md section 4.3):
// Assign / AssignZip over a compiled path program, per-instance updates of the pod template spec,
// pod spec, pod metadata and fragmented pod spec, and suspend / resume. Every write returns the
// updated object and leaves the input Value untouched; errors carry upstream's wording.
//
//   auto updated = workload::Suspend(bundle, object, definition->root());
//   if (!updated.ok()) ... updated.error.message ...; else ToJson(updated.value)
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/value.h"
#include "runtime/workload/run.h"

namespace wm::workload {

struct WriteOptions {
  RunOptions run;  // limits of every path program and instance-id evaluation
  // One write is one object's work: every run of it (instance ids, each path program) is charged
  // to `budget` when given (e.g. shared by several writes), else to a budget made from `object`
  // for this write alone, as the Accessor's reads are (run.h, docs/limits.md).
  ObjectLimits object;
  std::shared_ptr<ObjectBudget> budget;
};

// jq's `(<path>) = $value`: every path `path_program` (a path program of the bundle, see
// catalog::WritePaths) yields on `object` gets `value`; setpath creates missing intermediate
// objects and arrays. No path: the object comes back unchanged.
Result<Value> Assign(const Bundle& bundle, const Value& object, int32_t path_program,
                     const Value& value, const WriteOptions& options = {});

// Upstream's AssignZip: the i-th path gets values[i]; a count mismatch is the error
// `array length mismatch: expected <paths> values but got <values>` and nothing is written.
Result<Value> AssignZip(const Bundle& bundle, const Value& object, int32_t path_program,
                        const std::vector<Value>& values, const WriteOptions& options = {});

// Instance id -> value ("" for the single instance of a component without instanceIdPath).
using InstanceValues = std::map<std::string, Value>;

// Component updates: the values are put in instance-id order (`value not found for instance id:
// X` when one is missing; extra ids are ignored), then written with AssignZip when the component
// has an instanceIdPath, else with Assign of the single value. They run on the key-sorted object
// (as the Accessor reads it and as upstream evaluates), so the updated object has sorted keys.
Result<Value> UpdatePodTemplateSpec(const Bundle& bundle, const Value& object,
                                    const catalog::Component& component,
                                    const InstanceValues& values, const WriteOptions& options = {});
Result<Value> UpdatePodSpec(const Bundle& bundle, const Value& object,
                            const catalog::Component& component, const InstanceValues& values,
                            const WriteOptions& options = {});
Result<Value> UpdatePodMetadata(const Bundle& bundle, const Value& object,
                                const catalog::Component& component, const InstanceValues& values,
                                const WriteOptions& options = {});

// The fragmented pod spec fields in upstream's update order, with their JSON names (the keys of a
// FragmentedPodSpec value: "schedulerName", "labels", ...).
const std::vector<std::string>& FragmentedFieldNames();

// Each value is a FragmentedPodSpec object (absent keys are empty). Fields are written in
// upstream's order; a field whose values are all empty (null, "", {} or [] as Go's zero values
// are for that field's type) is skipped, so no null is written; a field the definition has no
// path for fails with `path is not defined and values are not empty` unless all its values are
// empty. Errors are wrapped `failed to update <field>: ...` ("scheduler name", "pod affinity").
Result<Value> UpdateFragmentedPodSpec(const Bundle& bundle, const Value& object,
                                      const catalog::Component& component,
                                      const InstanceValues& specs, const WriteOptions& options = {});

// The component's suspend / resume actions in order, each an Assign of its value. Errors
// `suspendActions[i]: ...` / `resumeActions[i]: ...`; without a suspendDefinition:
// `component <name> does not have suspendDefinition`.
Result<Value> Suspend(const Bundle& bundle, const Value& object, const catalog::Component& component,
                      const WriteOptions& options = {});
Result<Value> Resume(const Bundle& bundle, const Value& object, const catalog::Component& component,
                     const WriteOptions& options = {});

}  // namespace wm::workload
