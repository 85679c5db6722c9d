// One budget per evaluation (issue 18 item 4): builtins charge the run's steps and memory for the
// work they do (internal/step_budget.h WorkMeter), so path, string and regex builtins on large
// inputs stop with a limit error, quickly, instead of running for seconds or gigabytes.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "eval_test_util.h"
#include "runtime/eval/internal/step_budget.h"

namespace wm::testing {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST(Budget, SetpathWithALongNumericPathStopsAtTheMemoryLimit) {
  // Issue 18: 6 s and 3.2 GB before the fix; every level grows a fresh array by nulls.
  auto start = Clock::now();
  EvalOutcome o = EvalJq("null | setpath([range(20000)]; 1)");
  EXPECT_LT(SecondsSince(start), 3.0);
  ASSERT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_TRUE(o.error.find("limit exceeded") != std::string::npos ||
              o.error.find("step budget exhausted") != std::string::npos)
      << o.error;
}

TEST(Budget, SetpathGrowthIsChargedAgainstASmallMemoryLimit) {
  RunOptions small;
  small.limits.max_memory_bytes = 1 << 20;
  EvalOutcome o = EvalJq("null | setpath([1000000]; 1) | length", "null", small);
  ASSERT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_EQ(o.error, "evaluation memory limit exceeded (1048576 bytes)");
  // try cannot catch a limit.
  o = EvalJq("try (null | setpath([1000000]; 1)) catch \"caught\"", "null", small);
  EXPECT_TRUE(o.limit) << o.Joined();
}

TEST(Budget, StringIndicesIsLinearAndCharged) {
  auto start = Clock::now();
  EXPECT_EQ(Jq("\"a\" * 200000 | indices(\"a\") | length, .[-1]"), "200000 199999");
  EXPECT_LT(SecondsSince(start), 2.0);
  // Offsets stay in code points after multi-byte characters.
  EXPECT_EQ(Jq("\"éaéa\" | indices(\"a\")"), "[1,3]");
  RunOptions tight;
  tight.limits.fuel = 20000;
  EvalOutcome o = EvalJq("\"a\" * 200000 | indices(\"a\")", "null", tight);
  ASSERT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_EQ(o.error, "evaluation step budget exhausted (fuel 20000)");
}

TEST(Budget, RegexBuiltinsChargePerMatch) {
  RunOptions tight;
  tight.limits.fuel = 20000;
  for (const char* program : {"\"a\" * 100000 | [match(\"a\"; \"g\")] | length",
                              "\"a\" * 100000 | gsub(\"a\"; \"b\") | length",
                              "\"a\" * 100000 | [scan(\"a\")] | length"}) {
    EvalOutcome o = EvalJq(program, "null", tight);
    ASSERT_TRUE(o.failed) << program;
    EXPECT_TRUE(o.limit) << program;
  }
  // With the default budget a global match over 100 KB finishes, and quickly (offsets are
  // counted on from the previous match, not from the start).
  auto start = Clock::now();
  EXPECT_EQ(Jq("\"ab\" * 50000 | [match(\"b\"; \"g\")] | length, .[-1].offset"), "50000 99999");
  EXPECT_LT(SecondsSince(start), 3.0);
}

TEST(Budget, StringBuiltinsChargeForTheirInput) {
  RunOptions tight;
  tight.limits.fuel = 5000;
  for (const char* program : {"\"a,\" * 100000 | split(\",\") | length", "[range(20000)] | map(tostring) | join(\",\")",
                              "\"A\" * 100000 | ascii_downcase | length", "\"a\" * 100000 | explode | length",
                              "[\"a\" * 100000] | tojson | fromjson | length", "\"a\" * 100000 | @base64 | @base64d",
                              "\"ab\" * 100000 | length"}) {
    EvalOutcome o = EvalJq(program, "null", tight);
    ASSERT_TRUE(o.failed) << program;
    EXPECT_TRUE(o.limit) << program;
  }
}

TEST(Budget, JoinIsLinearAndKeepsItsErrors) {
  auto start = Clock::now();
  EXPECT_EQ(Jq("[range(100000) | \"x\"] | join(\",\") | length"), "199999");
  EXPECT_LT(SecondsSince(start), 2.0);
  EXPECT_EQ(Jq("[\"a\", 1, null, true] | join(\"-\")"), "\"a-1--true\"");
  EXPECT_EQ(Jq("try ([\"a\", [1]] | join(\",\")) catch ."), "\"string (\\\"a,\\\") and array ([1]) cannot be added\"");
  EXPECT_EQ(Jq("[] | join(\",\")"), "\"\"");
}

TEST(Budget, PathBuiltinsChargePerComponent) {
  RunOptions tight;
  tight.limits.fuel = 5000;
  for (const char* program : {"[range(10000)] as $p | {} | getpath($p)",
                              "[range(10000) | [.]] as $ps | [range(10000)] | delpaths($ps)",
                              "[range(3000)] | [paths] | length", "[range(3000)] | [leaf_paths] | length"}) {
    EvalOutcome o = EvalJq(program, "null", tight);
    ASSERT_TRUE(o.failed) << program;
    EXPECT_TRUE(o.limit) << program;
  }
}

TEST(Budget, StringRepeatIsChargedBeforeItIsBuilt) {
  RunOptions small;
  small.limits.max_memory_bytes = 1 << 20;
  EvalOutcome o = EvalJq("\"abcd\" * 1000000 | length", "null", small);
  ASSERT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_EQ(o.error, "evaluation memory limit exceeded (1048576 bytes)");
}

TEST(Budget, StepsUsedAreReported) {
  EvalOutcome o = EvalJq("[range(1000)] | length");
  EXPECT_EQ(o.Joined(), "1000");
  uint64_t used = eval_internal::LastRunSteps();
  EXPECT_GT(used, 1000u);
  EXPECT_LT(used, 20000u);
}

TEST(Budget, ChargesAreFreeWithoutAnEvaluation) {
  Value error;
  EXPECT_TRUE(eval_internal::ChargeWork(UINT64_MAX, UINT64_MAX, &error));
  EXPECT_FALSE(eval_internal::BuiltinHitLimit());
}

}  // namespace
}  // namespace wm::testing
