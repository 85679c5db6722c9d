// What an evaluation reports about itself after it returns, for callers that budget several runs
// together (runtime/workload/run.h ObjectBudget). Kept out of eval.h's Filter::Run signature: the
// engines record it per thread as they return.
#pragma once

#include <cstdint>

namespace wm {

// Steps (fuel) used by the last evaluation that finished on this thread, whatever engine ran it.
// The caller resets it before a run it wants to measure.
inline uint64_t& LastEvaluationSteps() {
  thread_local uint64_t steps = 0;
  return steps;
}

}  // namespace wm
