// The engine-neutral face of a compiled jq filter. The interpreter (this folder), the JIT and the
// AOT code (compiler/codegen, runtime/bundle) all implement Filter, so callers and tests can run
// the same resolver through any engine and compare.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/ir/ir.h"
#include "runtime/value/value.h"

namespace wm {

// Limits that keep a hostile expression from hanging or crashing the host. Exceeding one is an
// ordinary evaluation error with a message saying which limit.
struct EvalLimits {
  // Results per evaluation: as in upstream's Go library, reaching the limit is the error (the
  // limit-th result is not delivered): "query results exceed the allowed number 1000".
  uint64_t max_outputs = 1000;
  uint64_t fuel = 10'000'000;        // abstract steps per evaluation
  uint32_t max_depth = 10000;        // nested function calls; the stack guard may stop sooner
  uint64_t max_memory_bytes = 256ull << 20;  // bytes of values built by one evaluation
  // Wall-clock time per evaluation in milliseconds (upstream's 10 s); 0 = no time limit. Checked
  // once per slice of steps (internal/step_budget.h) in every engine.
  uint64_t timeout_ms = 10'000;
};

enum class EvalStatus : uint8_t {
  kOk,      // finished; every output was delivered
  kStopped, // the output callback asked to stop early
  kError,   // a jq error (error value in EvalError) or a limit was hit
};

struct EvalError {
  Value value;          // the jq error value (usually a string message)
  bool limit = false;   // true when a limit of EvalLimits was exceeded
  // The text jq prints for it, e.g. `Cannot index number with "a"` or the JSON of a non-string
  // error value followed by " (not a string)".
  std::string Message() const;
};

// Called once per output; return false to stop the evaluation.
using OutputFn = std::function<bool(const Value&)>;

// Per-run settings.
struct RunOptions {
  EvalLimits limits;
  // Values of LowerOptions::global_vars (`--arg`, `--argjson`), in the same order; null = none.
  const std::vector<Value>* globals = nullptr;
};

class Filter {
 public:
  virtual ~Filter() = default;
  // Thread-safe: a Filter holds no per-run state, so one instance may run on many threads.
  virtual EvalStatus Run(const Value& input, const OutputFn& emit, EvalError* error,
                         const RunOptions& options = {}) const = 0;
  const char* engine_name() const { return engine_name_; }

 protected:
  explicit Filter(const char* engine_name) : engine_name_(engine_name) {}

 private:
  const char* engine_name_;
};

// The reference engine.
std::unique_ptr<Filter> MakeInterpreter(std::shared_ptr<const ir::Program> program);

}  // namespace wm
