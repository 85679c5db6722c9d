// The step budget (fuel) and the wall-clock limit of one evaluation, shared by the interpreter and
// native code (native_abi.cpp). Fuel is handed out in slices: the hot path only counts a slice
// down, and the clock is read once per slice, so the time limit costs nothing per step.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "runtime/eval/eval.h"
#include "runtime/eval/run_stats.h"

namespace wm::eval_internal {

// The current position on the machine stack, for the stack guards of the interpreter and native
// code. The frame address, not the address of a local: under ASan with use-after-return
// detection, locals live on a heap "fake stack", and a guard measuring them would never see the
// real stack fill up (an eval fuzzer finding: native recursion overflowed the stack).
inline __attribute__((always_inline)) const char* StackPosition() {
  return static_cast<const char*>(__builtin_frame_address(0));
}

class StepBudget {
 public:
  // Steps per slice: small enough that a runaway loop notices the deadline within microseconds,
  // large enough that almost every resolver finishes inside the first slice and never reads the
  // clock. The clock starts when the first slice runs out, so the time limit is measured from
  // at most one slice after the start.
  static constexpr uint64_t kSlice = 4096;

  explicit StepBudget(const EvalLimits& limits)
      : total_(limits.fuel), timeout_ms_(limits.timeout_ms), reserve_(limits.fuel) {}

  // Steps used so far, given the fuel still unspent in the current slice.
  uint64_t Used(uint64_t slice_left) const { return total_ - reserve_ - slice_left; }

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

// The error when the bytes charged by one evaluation exceed EvalLimits::max_memory_bytes.
inline std::string MemoryLimitMessage(uint64_t max_memory_bytes) {
  return "evaluation memory limit exceeded (" + std::to_string(max_memory_bytes) + " bytes)";
}

// What builtins charge for their own work. Builtins keep their value-only signatures (ops.h, the
// native ABI's call_builtin), so the evaluation running on this thread is reached through a
// thread-local meter that the interpreter and native::RunEntry install for the duration of a run
// (WorkMeterScope). Steps come out of the same StepBudget slice the engine counts down, bytes are
// added to the same memory count: one budget per evaluation, however the work is split between
// engine and builtins. Without an installed meter (constant folding, unit tests of ops) charging
// is free.
class WorkMeter {
 public:
  WorkMeter(StepBudget* budget, uint64_t* slice_fuel, uint64_t* memory_used, uint64_t max_memory)
      : budget_(budget), slice_fuel_(slice_fuel), memory_used_(memory_used), max_memory_(max_memory) {}

  // Takes `steps` from the current slice, refilling from the budget (which checks the clock) as
  // needed; false with message() set when the budget is spent or the time is up.
  bool ChargeSteps(uint64_t steps) {
    while (steps > *slice_fuel_) {
      steps -= *slice_fuel_;
      *slice_fuel_ = 0;
      uint64_t next = budget_->NextSlice(&message_);
      if (next == 0) return Exceeded();
      *slice_fuel_ = next;
    }
    *slice_fuel_ -= steps;
    return true;
  }

  bool ChargeBytes(uint64_t bytes) {
    *memory_used_ += bytes;
    if (*memory_used_ <= max_memory_) return true;
    message_ = MemoryLimitMessage(max_memory_);
    return Exceeded();
  }

  // Whether a charge failed since the last TakeExceeded; clears the flag. The engine calls it
  // when a builtin fails, to report the failure as a limit (not catchable by try) with message().
  bool TakeExceeded() {
    bool was = exceeded_;
    exceeded_ = false;
    return was;
  }
  const std::string& message() const { return message_; }

 private:
  bool Exceeded() {
    exceeded_ = true;
    return false;
  }

  StepBudget* budget_;
  uint64_t* slice_fuel_;
  uint64_t* memory_used_;
  uint64_t max_memory_;
  std::string message_;
  bool exceeded_ = false;
};

// The meter of the evaluation running on this thread (null when none).
inline WorkMeter*& CurrentWorkMeter() {
  thread_local WorkMeter* meter = nullptr;
  return meter;
}

// Installs a meter for one evaluation and restores the previous one (a resolver run from inside
// another run's callback keeps its own budget).
class WorkMeterScope {
 public:
  explicit WorkMeterScope(WorkMeter* meter) : previous_(CurrentWorkMeter()) { CurrentWorkMeter() = meter; }
  ~WorkMeterScope() { CurrentWorkMeter() = previous_; }
  WorkMeterScope(const WorkMeterScope&) = delete;
  WorkMeterScope& operator=(const WorkMeterScope&) = delete;

 private:
  WorkMeter* previous_;
};

// Charges the current evaluation (if any) for work a builtin does: false with *error set to the
// limit's message when a limit is reached; the engine then reports it as a limit error.
inline bool ChargeWork(uint64_t steps, uint64_t bytes, Value* error) {
  WorkMeter* meter = CurrentWorkMeter();
  if (meter == nullptr) return true;
  if ((steps == 0 || meter->ChargeSteps(steps)) && (bytes == 0 || meter->ChargeBytes(bytes))) return true;
  *error = Value::String(meter->message());
  return false;
}

// The work of reading or building a value, in steps: one per array element or object member
// (shallow: nested values are charged where they are built) and one per 8 bytes of a string.
inline uint64_t WorkUnits(const Value& v) {
  if (v.IsString()) return v.AsString().size() / 8;
  if (v.IsArray()) return v.AsArray().size();
  if (v.IsObject()) return v.AsObject().size();
  return 0;
}

// A format (`@base64`, `@json`, ... or the `@text` of an interpolated part) read `v` and built
// `out`: charged by the engine as each value is formatted (the IR node already cost a step, so a
// small value costs nothing more and the engines' step counts stay equal).
inline bool ChargeFormat(const Value& v, const Value& out, Value* error) {
  uint64_t units = WorkUnits(v) + WorkUnits(out);
  return units == 0 || ChargeWork(units, 0, error);
}

// After a builtin failed: whether the failure was a limit reached through ChargeWork.
inline bool BuiltinHitLimit() {
  WorkMeter* meter = CurrentWorkMeter();
  return meter != nullptr && meter->TakeExceeded();
}

// The error when the result count reaches EvalLimits::max_outputs (upstream's wording).
inline std::string OutputLimitMessage(const EvalLimits& limits) {
  return "query results exceed the allowed number " + std::to_string(limits.max_outputs);
}

}  // namespace wm::eval_internal
