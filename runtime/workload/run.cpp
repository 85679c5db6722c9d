// Resolver runs for the workload layer (see run.h).
#include "runtime/workload/run.h"

#include <algorithm>

#include "runtime/eval/run_stats.h"
#include "runtime/value/json.h"

namespace wm::workload {

namespace {

// The object's budget applied to one run: its fuel and time capped by what the object has left.
// False with *message when nothing is left.
bool CapByObjectBudget(const ObjectBudget& budget, RunOptions* run, std::string* message) {
  if (budget.fuel_left.load() == 0) {
    *message = "object evaluation step budget exhausted (fuel " + std::to_string(budget.limits.fuel) + ")";
    return false;
  }
  run->limits.fuel = std::min(run->limits.fuel, budget.fuel_left.load());
  if (budget.limits.timeout_ms != 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(budget.deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      *message = "object evaluation time limit exceeded (" + std::to_string(budget.limits.timeout_ms) + " ms)";
      return false;
    }
    uint64_t ms = static_cast<uint64_t>(left.count());
    run->limits.timeout_ms = run->limits.timeout_ms == 0 ? ms : std::min(run->limits.timeout_ms, ms);
  }
  return true;
}

void TakeFromObjectBudget(ObjectBudget* budget, uint64_t used) {
  uint64_t left = budget->fuel_left.load();
  while (!budget->fuel_left.compare_exchange_weak(left, left > used ? left - used : 0)) {
  }
}

}  // namespace

Outputs RunResolver(const Bundle& bundle, int32_t id, const Value& input, const RunOptions& options,
                    ObjectBudget* object) {
  Outputs result;
  RunOptions run = options;
  if (object != nullptr) {
    std::string message;
    if (!CapByObjectBudget(*object, &run, &message)) {
      // Every field as for an evaluation error: callers word upstream's messages from
      // `expression` and `message` (an empty pair made "expression '': " of a spent budget).
      const ResolverInfo& info = bundle.resolver_info(id);
      result.message = std::move(message);
      result.expression = info.source;
      result.error = info.role + " `" + info.source + "`: " + result.message;
      result.limit = true;
      return result;
    }
  }
  EvalError error;
  LastEvaluationSteps() = 0;
  EvalStatus status = bundle.resolver(id).Run(
      input,
      [&](const Value& v) {
        result.values.push_back(v);
        return true;
      },
      &error, run);
  if (status == EvalStatus::kError) {
    const ResolverInfo& info = bundle.resolver_info(id);
    result.message = error.Message();
    result.expression = info.source;
    result.error = info.role + " `" + info.source + "`: " + result.message;
    result.limit = error.limit;
  }
  if (object != nullptr) TakeFromObjectBudget(object, LastEvaluationSteps());
  return result;
}

std::string StringOf(const Value& value) {
  return value.IsString() ? std::string(value.AsString()) : ToJson(value);
}

}  // namespace wm::workload
