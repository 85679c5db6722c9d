// The step budget (fuel) and the wall-clock limit of one evaluation, shared by the interpreter and
// native code (native_abi.cpp). Fuel is handed out in slices: the hot path only counts a slice
// down, and the clock is read once per slice, so the time limit costs nothing per step.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "runtime/eval/eval.h"

namespace wm::eval_internal {

class StepBudget {
 public:
  // Steps per slice: small enough that a runaway loop notices the deadline within microseconds,
  // large enough that almost every resolver finishes inside the first slice and never reads the
  // clock. The clock starts when the first slice runs out, so the time limit is measured from
  // at most one slice after the start.
  static constexpr uint64_t kSlice = 4096;

  explicit StepBudget(const EvalLimits& limits)
      : total_(limits.fuel), timeout_ms_(limits.timeout_ms), reserve_(limits.fuel) {}

  // The fuel of the first slice.
  uint64_t FirstSlice() { return Take(); }

  // Called when a slice has run out: the next slice (> 0), or 0 with *message set when the step
  // budget is spent or the time limit has passed.
  uint64_t NextSlice(std::string* message) {
    if (reserve_ == 0) {
      *message = "evaluation step budget exhausted (fuel " + std::to_string(total_) + ")";
      return 0;
    }
    if (timeout_ms_ != 0) {
      auto now = std::chrono::steady_clock::now();
      if (!clock_started_) {
        deadline_ = now + std::chrono::milliseconds(timeout_ms_);
        clock_started_ = true;
      } else if (now >= deadline_) {
        *message = "evaluation time limit exceeded (" + std::to_string(timeout_ms_) + " ms)";
        return 0;
      }
    }
    return Take();
  }

 private:
  uint64_t Take() {
    uint64_t slice = std::min(kSlice, reserve_);
    reserve_ -= slice;
    return slice;
  }

  uint64_t total_;
  uint64_t timeout_ms_;
  uint64_t reserve_;
  bool clock_started_ = false;
  std::chrono::steady_clock::time_point deadline_{};
};

// The error when the result count reaches EvalLimits::max_outputs (upstream's wording).
inline std::string OutputLimitMessage(const EvalLimits& limits) {
  return "query results exceed the allowed number " + std::to_string(limits.max_outputs);
}

}  // namespace wm::eval_internal
