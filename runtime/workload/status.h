// A workload's status as upstream's Accessor.ExtractStatus computes it (UPSTREAM.md 4.2): the phase,
// the conditions read through the configured field names, and every status whose matchers hold,
// tried in upstream's fixed order (Resuming, Suspending, Suspended, Running, Failed, Completed,
// Initializing, Degraded); ["Undefined"] when none holds. An evaluation error fails the extraction.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/catalog/definition.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/run.h"

namespace wm::workload {

// One condition as upstream reads it: fields that are absent or not strings stay empty/absent.
struct Condition {
  std::string type;
  std::optional<std::string> status;
  std::string message;
  std::optional<std::string> reason;
};

struct Status {
  // First result of phaseDefinition.path (null -> ""); absent without a phaseDefinition or when
  // the path yields nothing.
  std::optional<std::string> phase;
  std::vector<Condition> conditions;          // every condition, in result order
  std::vector<std::string> matched_statuses;  // "Running", ...; {"Undefined"} when none matched
};

// The status names in upstream's StatusMappings.Entries() order.
const std::vector<std::string>& StatusOrder();

// kNoDefinition "component <name> does not have status definition" without a statusDefinition;
// kEvaluation/kLimit "failed to extract phase: ...", "failed to extract conditions: ...",
// "failed to match status: failed to evaluate matcher: failed to evaluate ByExpression: ...".
Result<Status> ExtractStatus(const Accessor& accessor, const catalog::Component& component);

}  // namespace wm::workload
