// Tail calls in the interpreter: jq's loops (until, while, repeat, recurse, tail-recursive
// definitions) must run a million steps in constant C++ stack, also on a 256 KB thread, without
// counting against max_depth, and with jq's results (expected values checked against jq 1.6).
// Early exits (label/break, first, limit), reduce/foreach, try/catch and path mode around long
// loops, and the ordering of outputs and errors when the loop is not a tail call.
#include <gtest/gtest.h>
#include <pthread.h>

#include <functional>
#include <string>

#include "tests/unit/eval/eval_test_util.h"

namespace wm {
namespace {

using testing::EvalJq;
using testing::EvalOutcome;

// Long loops need more steps than the default fuel; the other limits stay as they are.
RunOptions LongLoopOptions() {
  RunOptions options;
  options.limits.fuel = 200'000'000;
  return options;
}

std::string RunLong(const std::string& expr, const std::string& input = "null",
                    RunOptions options = LongLoopOptions()) {
  EvalOutcome o = EvalJq(expr, input, options);
  if (!o.compiled) return "compile error: " + o.error;
  return o.Joined();
}

// Runs `job` on a thread with a 256 KB stack; the interpreter's stack guard then allows about
// 128 KB of evaluation depth, a few hundred nested calls.
void OnSmallStack(const std::function<void()>& job) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
  pthread_t thread;
  auto run = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, run, const_cast<std::function<void()>*>(&job)), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

struct LoopCase {
  const char* expr;
  const char* expected;
};

// Every loop of the jq prelude, and a plain tail-recursive definition, at a million steps.
const LoopCase kMillionStepLoops[] = {
    {"0 | until(. >= 1000000; . + 1)", "1000000"},
    {"[0 | while(. < 1000000; . + 1)] | length", "1000000"},
    {"[limit(1000000; repeat(1))] | length", "1000000"},
    {"[recurse(if . < 1000000 then . + 1 else empty end)] | length", "1000001"},
    {"last(0 | recurse(. + 1; . < 1000000))", "999999"},
    {"def f: if . >= 1000000 then . else . + 1 | f end; 0 | f", "1000000"},
};

TEST(TailCalls, MillionStepLoopsRunInConstantStack) {
  for (const LoopCase& c : kMillionStepLoops) {
    EXPECT_EQ(RunLong(c.expr), c.expected) << c.expr;
  }
}

TEST(TailCalls, MillionStepLoopsRunOnA256KbThread) {
  for (const LoopCase& c : kMillionStepLoops) {
    std::string got;
    OnSmallStack([&] { got = RunLong(c.expr); });
    EXPECT_EQ(got, c.expected) << c.expr;
  }
}

TEST(TailCalls, LoopsDoNotCountAgainstTheDepthLimit) {
  RunOptions shallow = LongLoopOptions();
  shallow.limits.max_depth = 10;
  EXPECT_EQ(RunLong("def f: if . >= 100000 then . else . + 1 | f end; 0 | f", "null", shallow), "100000");
  EXPECT_EQ(RunLong("0 | until(. >= 100000; . + 1)", "null", shallow), "100000");
  // A call that is not in tail position (the + runs after it) still nests and counts.
  EvalOutcome o = EvalJq("def f: if . >= 100 then . else (. + 1 | f) + 0 end; 0 | f", "null", shallow);
  EXPECT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_NE(o.error.find("recursion depth"), std::string::npos);
}

TEST(TailCalls, EarlyExitsFromLongLoops) {
  EXPECT_EQ(RunLong("[label $out | 0 | recurse(if . >= 100000 then break $out else . + 1 end)] | length"), "100001");
  EXPECT_EQ(RunLong("[label $out | 0 | until(. >= 200000; if . == 150000 then break $out else . + 1 end)]"), "[]");
  EXPECT_EQ(RunLong("label $out | 0 | until(. >= 100000; . + 1) | ., break $out"), "100000");
  EXPECT_EQ(RunLong("first(0 | recurse(. + 1) | select(. >= 100000))"), "100000");
  EXPECT_EQ(RunLong("[limit(3; 0 | recurse(. + 1) | select(. >= 100000))]"), "[100000,100001,100002]");
}

TEST(TailCalls, TryAroundLongLoopsKeepsErrorOrder) {
  EXPECT_EQ(RunLong("try (0 | until(. >= 100000; . + 1) | error) catch ."), "100000");
  EXPECT_EQ(RunLong(R"JQ(try (0 | until(if . >= 100000 then error("at \(.)") else false end; . + 1)) catch .)JQ"),
            R"("at 100000")");
  // The error raised at the end comes after every output the loop produced before it.
  EXPECT_EQ(RunLong(R"JQ([try (0 | recurse(if . < 100000 then . + 1 else error("end") end) | select(. % 50000 == 0)) catch .])JQ"),
            R"([0,50000,100000,"end"])");
  EXPECT_EQ(RunLong(R"JQ([.[] | try (def f: if . >= 3 then error("x\(.)") else . + 1 | f end; f) catch .])JQ", "[0,5]"),
            R"(["x3","x5"])");
}

TEST(TailCalls, ReduceAndForeachOverLongLoops) {
  EXPECT_EQ(RunLong("reduce (0 | recurse(if . < 100000 then . + 1 else empty end)) as $x (0; . + $x)"), "5000050000");
  EXPECT_EQ(RunLong("[foreach (0 | while(. < 100000; . + 1)) as $x (0; . + 1; select(. % 25000 == 0))]"),
            "[25000,50000,75000,100000]");
  EXPECT_EQ(RunLong("reduce range(3) as $i (0; until(. >= ($i + 1) * 100000; . + 1))"), "300000");
}

TEST(TailCalls, PathModeThroughLongLoops) {
  EXPECT_EQ(RunLong("[path(limit(100000; repeat(.a)))] | length, .[0]", R"({"a":1})"), R"(100000 ["a"])");
  const std::string descend = "def f($n): if $n == 0 then .a else f($n - 1) end; ";
  EXPECT_EQ(RunLong(descend + "path(f(100000))", R"({"a":1})"), R"(["a"])");
  EXPECT_EQ(RunLong(descend + "f(100000) |= 5", R"({"a":1})"), R"({"a":5})");
  EXPECT_EQ(RunLong("def f($n): if $n == 0 then .a.b else f($n - 1) end; [paths(type == \"number\")], del(f(100000))",
                    R"({"a":{"b":1}})"),
            R"([["a","b"]] {"a":{}})");
  // The path grows on every iteration: it travels with the value through the loop.
  EXPECT_EQ(RunLong("def f($n): if $n == 0 then . else .a | f($n - 1) end; path(f(1000)) | length, .[999]"),
            R"(1000 "a")");
}

TEST(TailCalls, ArgumentsAndVariablesAcrossIterations) {
  // A closure passed on unchanged, a value parameter rebound each step, a variable bound in the
  // loop body, and variables of an enclosing scope.
  EXPECT_EQ(RunLong("def f(g): if . >= 100000 then . else g | f(g) end; 0 | f(. + 1)"), "100000");
  EXPECT_EQ(RunLong("def f($n): if $n == 0 then . else . + 1 | f($n - 1) end; 0 | f(100000)"), "100000");
  EXPECT_EQ(RunLong("def f: if . >= 100000 then . else . + 1 | . as $x | $x | f end; 0 | f"), "100000");
  EXPECT_EQ(RunLong("[1,2] as [$a, $b] | def f: if . >= 100000 then . + $a + $b else . + 1 | f end; 0 | f"),
            "100003");
  OnSmallStack([&] {
    EXPECT_EQ(RunLong("def f($n): if $n == 0 then . else . + 1 | f($n - 1) end; 0 | f(100000)"), "100000");
  });
}

TEST(TailCalls, MultiOutputPrefixesKeepJqOrder) {
  // Several values flow into the recursive call: not a loop, but the order stays jq's.
  EXPECT_EQ(RunLong("[def f: if . >= 3 then . else (. + 1, . + 2) | f end; 0 | f]"), "[3,4,3,3,4]");
  EXPECT_EQ(RunLong("[0 | recurse(if . < 3 then . + 1, . + 2 else empty end)]"), "[0,1,2,3,4,3,2,3,4]");
  EXPECT_EQ(RunLong("[0 | while(. < 5; . + 1)], [0 | until(. > 4; . + 2)], [limit(4; repeat(.))]"),
            "[0,1,2,3,4] [6] [null,null,null,null]");
}

TEST(TailCalls, LimitsStillStopEndlessLoops) {
  // An endless tail loop is stopped by fuel, not by the stack or the depth limit.
  EvalOutcome o = EvalJq("def f: . + 1 | f; 0 | f");
  EXPECT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_NE(o.error.find("fuel"), std::string::npos);
  // Frames kept alive by value parameters are charged to the memory limit.
  RunOptions small = LongLoopOptions();
  small.limits.max_memory_bytes = 1 << 20;
  o = EvalJq("def f($n): if $n == 0 then . else f($n - 1) end; f(1000000)", "null", small);
  EXPECT_TRUE(o.failed);
  EXPECT_NE(o.error.find("memory"), std::string::npos);
}

}  // namespace
}  // namespace wm
