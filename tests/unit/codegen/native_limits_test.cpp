// The evaluation limits in every engine (interpreter, ORC JIT, AOT shared object): the result cap
// errors when the count reaches the limit with upstream's message, fuel handed out in slices is
// counted exactly across slices, and the wall-clock limit stops a runaway loop in native code
// (checked where native code asks for the next slice of fuel).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/eval/eval.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

struct RunResult {
  size_t outputs = 0;
  bool error = false;
  bool limit = false;
  std::string message;
};

RunResult RunFilter(const Filter& filter, const RunOptions& options) {
  RunResult run;
  EvalError error;
  EvalStatus status = filter.Run(Value(), [&](const Value&) {
    ++run.outputs;
    return true;
  }, &error, options);
  if (status == EvalStatus::kError) {
    run.error = true;
    run.limit = error.limit;
    run.message = error.Message();
  }
  return run;
}

// The expression on all three engines, interpreter first.
std::vector<std::unique_ptr<Filter>> AllEngines(const std::string& text) {
  std::vector<std::unique_ptr<Filter>> engines;
  driver::Expected<driver::LoweredExpression> lowered = driver::LowerExpression(text);
  EXPECT_TRUE(lowered.ok()) << text;
  if (!lowered.ok()) return engines;
  EXPECT_EQ(driver::NativeUnsupportedReason(*lowered->program), "") << text;
  engines.push_back(MakeInterpreter(lowered->program));
  driver::ExpressionOptions jit;
  jit.engine = driver::Engine::kJit;
  driver::Expected<std::unique_ptr<Filter>> jit_filter = driver::BuildEngine(lowered->program, jit);
  EXPECT_TRUE(jit_filter.ok()) << text;
  if (jit_filter.ok()) engines.push_back(std::move(*jit_filter));
  driver::Expected<std::vector<std::unique_ptr<Filter>>> aot = driver::BuildAotBatch({lowered->program});
  EXPECT_TRUE(aot.ok()) << text;
  if (aot.ok()) engines.push_back(std::move((*aot)[0]));
  EXPECT_EQ(engines.size(), 3u);
  return engines;
}

TEST(NativeLimits, ResultCapErrorsWhenTheCountReachesTheLimit) {
  for (const char* text : {"range(1000)", "range(5000)"}) {
    for (const auto& engine : AllEngines(text)) {
      SCOPED_TRACE(std::string(text) + " on " + engine->engine_name());
      RunResult run = RunFilter(*engine, RunOptions());
      EXPECT_TRUE(run.error && run.limit);
      EXPECT_EQ(run.outputs, 999u);
      EXPECT_EQ(run.message, "query results exceed the allowed number 1000");
    }
  }
  for (const auto& engine : AllEngines("range(999)")) {
    SCOPED_TRACE(engine->engine_name());
    RunResult run = RunFilter(*engine, RunOptions());
    EXPECT_FALSE(run.error) << run.message;
    EXPECT_EQ(run.outputs, 999u);
  }
  RunOptions five;
  five.limits.max_outputs = 5;
  for (const auto& engine : AllEngines(".[]?, range(10)")) {
    EXPECT_EQ(RunFilter(*engine, five).outputs, 4u) << engine->engine_name();
  }
}

TEST(NativeLimits, FuelIsCountedExactlyAcrossSlices) {
  // 10,000 and 50,001 steps span several slices of fuel; every engine stops at the same output.
  for (uint64_t fuel : {10'000ull, 50'001ull}) {
    RunOptions options;
    options.limits.fuel = fuel;
    options.limits.max_outputs = UINT64_MAX;
    std::vector<RunResult> runs;
    for (const auto& engine : AllEngines("range(1e9)")) runs.push_back(RunFilter(*engine, options));
    ASSERT_EQ(runs.size(), 3u);
    for (const RunResult& run : runs) {
      EXPECT_TRUE(run.limit);
      EXPECT_EQ(run.message, "evaluation step budget exhausted (fuel " + std::to_string(fuel) + ")");
      EXPECT_EQ(run.outputs, runs[0].outputs);
    }
    EXPECT_GT(runs[0].outputs, 1000u);
  }
}

TEST(NativeLimits, StepsOfAStraightRunChargedAtOnceStopWhereSingleStepsWould) {
  // Native code charges the steps of nodes that cannot fail or produce anything in between with
  // one check (`.a.b.c` is 7 steps). With the budget running out at every offset inside such a
  // run, and across the 4,096-step slices, every engine stops after the same outputs.
  std::vector<std::unique_ptr<Filter>> engines =
      AllEngines("range(1e9) | {a: {b: {c: .}}} | [.a.b.c, .a.b.c.d?] | .[0] + 1");
  ASSERT_EQ(engines.size(), 3u);
  std::vector<uint64_t> budgets;
  for (uint64_t fuel = 1; fuel < 60; ++fuel) budgets.push_back(fuel);
  for (uint64_t fuel = 4080; fuel < 4130; ++fuel) budgets.push_back(fuel);
  for (uint64_t fuel = 12270; fuel < 12300; ++fuel) budgets.push_back(fuel);
  for (uint64_t fuel : budgets) {
    RunOptions options;
    options.limits.fuel = fuel;
    options.limits.max_outputs = UINT64_MAX;
    std::vector<RunResult> runs;
    for (const auto& engine : engines) runs.push_back(RunFilter(*engine, options));
    for (const RunResult& run : runs) {
      EXPECT_TRUE(run.limit) << fuel;
      EXPECT_EQ(run.message, "evaluation step budget exhausted (fuel " + std::to_string(fuel) + ")");
      EXPECT_EQ(run.outputs, runs[0].outputs) << "fuel " << fuel;
    }
  }
}

TEST(NativeLimits, WallClockLimitStopsRunawayNativeCode) {
  RunOptions options;
  options.limits.fuel = UINT64_MAX;
  options.limits.max_outputs = UINT64_MAX;
  options.limits.timeout_ms = 30;
  for (const char* text : {"last(range(1e15))", "reduce range(1e15) as $x (0; . + $x)", "range(1e15)"}) {
    for (const auto& engine : AllEngines(text)) {
      SCOPED_TRACE(std::string(text) + " on " + engine->engine_name());
      auto start = std::chrono::steady_clock::now();
      RunResult run = RunFilter(*engine, options);
      auto elapsed = std::chrono::steady_clock::now() - start;
      EXPECT_TRUE(run.error && run.limit);
      EXPECT_EQ(run.message, "evaluation time limit exceeded (30 ms)");
      EXPECT_LT(elapsed, std::chrono::seconds(3));
    }
  }
}

}  // namespace
}  // namespace wm

namespace wm {
namespace {

// Recursion runs as native calls: the call-depth limit errors at the same depth as in the
// interpreter (tail calls, which the interpreter runs as loops, are not counted), and native
// recursion deeper than the stack allows stops with the interpreter's stack-guard error instead
// of overflowing the stack.
TEST(NativeLimits, RecursionDepthAndStackGuard) {
  RunOptions depth_limited;
  depth_limited.limits.max_depth = 50;
  struct Case {
    const char* text;
    bool error;
    const char* message;
  };
  const Case cases[] = {
      {"def f: if . < 45 then . + 1 | [f] else . end; 0 | f | flatten", false, ""},
      {"def f: if . < 60 then . + 1 | [f] else . end; 0 | f", true, "maximum recursion depth exceeded (50)"},
      // Tail calls are not counted: 1000 iterations under a depth limit of 50.
      {"0 | until(. >= 1000; . + 1)", false, ""},
      {"[limit(1000; repeat(1))] | length", false, ""},
  };
  for (const Case& c : cases) {
    for (const auto& engine : AllEngines(c.text)) {
      SCOPED_TRACE(std::string(c.text) + " on " + engine->engine_name());
      RunResult run = RunFilter(*engine, depth_limited);
      EXPECT_EQ(run.error, c.error) << run.message;
      EXPECT_EQ(run.message, c.message);
      EXPECT_EQ(run.limit, c.error);
    }
  }
  // Unbounded non-tail recursion with no depth limit to speak of: the stack guard stops it.
  RunOptions deep;
  deep.limits.max_depth = UINT32_MAX;
  deep.limits.fuel = UINT64_MAX;
  for (const auto& engine : AllEngines("def f: 1 + f; f")) {
    SCOPED_TRACE(engine->engine_name());
    RunResult run = RunFilter(*engine, deep);
    EXPECT_TRUE(run.error && run.limit) << run.message;
    EXPECT_EQ(run.message, "maximum evaluation depth exceeded (stack)");
  }
}

}  // namespace
}  // namespace wm
