// One budget per evaluation (issue 18 item 4): builtins charge the run's steps and memory for the
// work they do (internal/step_budget.h WorkMeter), so path, string and regex builtins on large
// inputs stop with a limit error, quickly, instead of running for seconds or gigabytes.
#include <gtest/gtest.h>

#include <string>

#include "eval_test_util.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/text.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/run.h"
#include "tests/unit/workload/bundle_fixture.h"

namespace wm::testing {
namespace {

// The steps a run of `program` on `input_json` used (LastEvaluationSteps), with its outputs in
// *joined. Steps count the builtins' work, so a builtin that went quadratic would show here,
// deterministically, where a wall-clock bound would only show it on a quiet machine.
uint64_t StepsUsed(const std::string& program, const std::string& input_json, std::string* joined) {
  LastEvaluationSteps() = 0;
  *joined = EvalJq(program, input_json).Joined();
  return LastEvaluationSteps();
}

// The JSON text of a string made of `piece` repeated `times` times: large inputs come from
// outside the program, so the only large work is the builtin's.
std::string JsonString(const std::string& piece, size_t times) {
  std::string text = "\"";
  for (size_t i = 0; i < times; ++i) text += piece;
  return text + "\"";
}

// Runs `program` on `input_json` with a budget of 5000 steps; the engine's own steps stay far
// below it, so a limit error means the builtin charged for its work.
void ExpectBuiltinHitsTheStepBudget(const std::string& program, const std::string& input_json) {
  RunOptions tight;
  tight.limits.fuel = 5000;
  EvalOutcome o = EvalJq(program, input_json, tight);
  ASSERT_TRUE(o.failed) << program << " gave " << o.Joined();
  EXPECT_TRUE(o.limit) << program;
  EXPECT_EQ(o.error, "evaluation step budget exhausted (fuel 5000)") << program;
}

TEST(Budget, SetpathWithALongNumericPathStopsAtTheMemoryLimit) {
  // Issue 18: 6 s and 3.2 GB before the fix; every level grows a fresh array by nulls. The growth
  // is charged as it is built, so the run stops on the memory or step limit (not on the 10 s time
  // limit, which would also say "limit exceeded").
  EvalOutcome o = EvalJq("null | setpath([range(20000)]; 1)");
  ASSERT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_TRUE(o.error == eval_internal::MemoryLimitMessage(RunOptions().limits.max_memory_bytes) ||
              o.error == "evaluation step budget exhausted (fuel 10000000)")
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
  // 200,000 offsets in code points: decoding on from the previous match reads the string once
  // (about 200,000 / 8 steps for the decoding, as many for the subject and one per offset built).
  // Decoding from the start for each match would be charged about 2.5e9 bytes / 8.
  std::string outputs;
  uint64_t steps = StepsUsed("\"a\" * 200000 | indices(\"a\") | length, .[-1]", "null", &outputs);
  EXPECT_EQ(outputs, "200000 199999");
  EXPECT_LT(steps, 1000000u);
  // Offsets stay in code points after multi-byte characters.
  EXPECT_EQ(Jq("\"éaéa\" | indices(\"a\")"), "[1,3]");
  // Charged: see StringBuiltinsChargeTheirInputAndOutput.
}

TEST(Budget, CodepointCursorDecodesEachByteOnceWhileMovingForward) {
  const std::string s = "\xc3\xa9" "a" "\xc3\xa9" "a";  // "éaéa": the a's at bytes 2 and 5
  eval_internal::CodepointCursor cursor(s);
  EXPECT_EQ(cursor.Before(2), 1u);
  EXPECT_EQ(cursor.Before(5), 3u);
  EXPECT_EQ(cursor.Before(5), 3u);
  EXPECT_EQ(cursor.scanned_bytes(), 5u);
  // Moving back decodes again from the start, and that work counts too.
  EXPECT_EQ(cursor.Before(3), 2u);
  EXPECT_EQ(cursor.scanned_bytes(), 8u);
  EXPECT_EQ(cursor.Before(6), 4u);
  EXPECT_EQ(cursor.scanned_bytes(), 11u);
}

TEST(Budget, RegexBuiltinsChargeTheirSubjectAndEachMatch) {
  const std::string subject = JsonString("a", 100000);
  for (const char* program : {"test(\"b\")", "[match(\"a\"; \"g\")] | length", "gsub(\"a\"; \"b\") | length",
                              "[scan(\"a\")] | length", "[splits(\"a\")] | length", "capture(\"(?<x>b)\")",
                              "sub(\"a\"; \"b\") | length"}) {
    ExpectBuiltinHitsTheStepBudget(program, subject);
  }
  // With the default budget a global match over 100 KB finishes, in steps linear in the subject:
  // match offsets are decoded on from the previous match (about 100,000 / 8 steps), not from the
  // start (about 50,000 matches x 50 KB / 8), and each of the 50,000 matches costs a step.
  std::string outputs;
  uint64_t steps = StepsUsed("[match(\"b\"; \"g\")] | length, .[-1].offset", JsonString("ab", 50000), &outputs);
  EXPECT_EQ(outputs, "50000 99999");
  EXPECT_LT(steps, 1000000u);
  // Captures' offsets too, and in code points after multi-byte characters.
  EXPECT_EQ(Jq("[match(\"(a)\"; \"g\") | .offset, .captures[0].offset]", "\"éaéa\""), "[1,1,3,3]");
}

TEST(Budget, StringBuiltinsChargeTheirInputAndOutput) {
  const std::string letters = JsonString("a", 100000);
  for (const char* program : {"indices(\"a\")", "split(\"a\") | length", "ascii_downcase | length",
                              "ascii_upcase | length", "explode | length", "[.] | tojson | length",
                              "tojson | fromjson | length", "@base64 | length", "ltrimstr(\"b\") | length",
                              "utf8bytelength", "[.] | join(\",\") | length", ". + . | length", "@base64d | length"}) {
    ExpectBuiltinHitsTheStepBudget(program, letters);
  }
  std::string many = "[";
  for (int i = 0; i < 20000; ++i) many += (i ? ",\"x\"" : "\"x\"");
  many += "]";
  for (const char* program : {"join(\",\") | length", "implode? // 0 | length", "sort | length", "unique | length",
                              "tostring | length", "add | length"}) {
    ExpectBuiltinHitsTheStepBudget(program, many);
  }
}

TEST(Budget, JoinIsLinearAndKeepsItsErrors) {
  // Built in one string: linear steps. Adding piece by piece copies the string built so far each
  // time, and is charged for it (about 100,000 x 100 KB / 8 steps, past the default fuel).
  std::string outputs;
  uint64_t steps = StepsUsed("[range(100000) | \"x\"] | join(\",\") | length", "null", &outputs);
  EXPECT_EQ(outputs, "199999");
  EXPECT_LT(steps, 1000000u);
  // A null separator adds nothing, in one string too.
  steps = StepsUsed("[range(100000) | \"x\"] | join(null) | length", "null", &outputs);
  EXPECT_EQ(outputs, "100000");
  EXPECT_LT(steps, 1000000u);
  EXPECT_EQ(Jq("[\"a\", 1, null, true] | join(null)"), "\"a1true\"");
  EXPECT_EQ(Jq("try ([\"a\", [1]] | join(null)) catch ."), "\"string (\\\"a\\\") and array ([1]) cannot be added\"");
  EXPECT_EQ(Jq("try ([\"a\", \"b\"] | join(1)) catch ."), "\"string (\\\"a\\\") and number (1) cannot be added\"");
  EXPECT_EQ(Jq("[\"a\", 1, null, true] | join(\"-\")"), "\"a-1--true\"");
  EXPECT_EQ(Jq("try ([\"a\", [1]] | join(\",\")) catch ."), "\"string (\\\"a,\\\") and array ([1]) cannot be added\"");
  EXPECT_EQ(Jq("[] | join(\",\")"), "\"\"");
}

TEST(Budget, PathBuiltinsChargePerComponent) {
  std::string long_path = "[";
  for (int i = 0; i < 10000; ++i) long_path += (i ? ",0" : "0");
  long_path += "]";
  for (const char* program : {". as $p | {} | getpath($p)", ". as $p | null | setpath($p; 1)",
                              ". as $p | null | delpaths([$p])", "[.] as $ps | delpaths($ps)"}) {
    ExpectBuiltinHitsTheStepBudget(program, long_path);
  }
}

TEST(Budget, PathsOfADeepValueAreCharged) {
  // 3000 paths of up to 3000 keys: quadratic in the depth, stopped by a small memory limit.
  RunOptions small;
  small.limits.max_memory_bytes = 1 << 20;
  EvalOutcome o = EvalJq("reduce range(3000) as $i (0; [.]) | [paths] | length", "null", small);
  ASSERT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_EQ(o.error, "evaluation memory limit exceeded (1048576 bytes)");
  o = EvalJq("reduce range(3000) as $i (0; [.]) | [leaf_paths] | length", "null", small);
  EXPECT_TRUE(o.limit);
  EXPECT_EQ(Jq("reduce range(300) as $i (0; [.]) | [paths] | length"), "300");
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
  uint64_t used = LastEvaluationSteps();
  EXPECT_GT(used, 1000u);
  EXPECT_LT(used, 20000u);
}

TEST(Budget, ChargesAreFreeWithoutAnEvaluation) {
  Value error;
  EXPECT_TRUE(eval_internal::ChargeWork(UINT64_MAX, UINT64_MAX, &error));
  EXPECT_FALSE(eval_internal::BuiltinHitLimit());
}

// A definition whose instance-id resolver iterates the object's services.
constexpr const char* kDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: thing
spec:
  structureDefinition:
    rootComponent:
      name: thing
      kind: {group: example.com, version: v1, kind: Thing}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running:
          - byPhase: Running
    childComponents:
    - name: services
      ownerRef: thing
      instanceIdPath: '.spec.services | keys[]'
      specDefinition: {podSpecPath: '.spec.services[] | .podSpec'}
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels.svc'}
)";
constexpr const char* kObject = R"({"apiVersion": "example.com/v1", "kind": "Thing",
  "spec": {"services": {"a": {"podSpec": {}}, "b": {"podSpec": {}}}}})";

TEST(ObjectBudget, IsSharedByEveryResolverRunOnOneObject) {
  std::shared_ptr<Bundle> bundle = CompileBundle(kDefinition);
  ASSERT_NE(bundle, nullptr);
  const catalog::Component& services = *bundle->definitions().at(0).Find("services");
  Value object = ParseObject(kObject);
  workload::ObjectLimits limits;
  limits.fuel = 300;
  workload::ObjectBudget budget(limits);
  int finished = 0;
  workload::Outputs last;
  for (int i = 0; i < 1000; ++i) {
    last = workload::RunResolver(*bundle, services.instance_id, object, {}, &budget);
    if (!last.ok()) break;
    EXPECT_EQ(last.values.size(), 2u);
    ++finished;
  }
  // Each run fits the per-evaluation budget many times over; together they exhaust the object's.
  EXPECT_GT(finished, 1);
  EXPECT_LT(finished, 1000);
  EXPECT_TRUE(last.limit);
  workload::Outputs after = workload::RunResolver(*bundle, services.instance_id, object, {}, &budget);
  EXPECT_TRUE(after.limit);
  EXPECT_NE(after.error.find("object evaluation step budget exhausted (fuel 300)"), std::string::npos) << after.error;
  // Without an object budget the same run is unlimited in count.
  EXPECT_TRUE(workload::RunResolver(*bundle, services.instance_id, object, {}).ok());
}

TEST(ObjectBudget, AnAccessorChargesAllItsRunsToOneBudget) {
  std::shared_ptr<Bundle> bundle = CompileBundle(kDefinition);
  ASSERT_NE(bundle, nullptr);
  const catalog::Definition& definition = bundle->definitions().at(0);
  workload::AccessorOptions options;
  options.object.fuel = 300;
  workload::Accessor accessor(*bundle, definition, ParseObject(kObject), options);
  workload::Result<std::vector<std::string>> ids;
  int finished = 0;
  for (int i = 0; i < 1000; ++i) {
    ids = accessor.InstanceIds(*definition.Find("services"));
    if (!ids.ok()) break;
    ++finished;
  }
  EXPECT_GT(finished, 1);
  EXPECT_LT(finished, 1000);
  EXPECT_EQ(ids.error.code, workload::ErrorCode::kLimit) << ids.error.message;
  // A copy shares the budget (it is the same object); a new Accessor starts afresh.
  workload::Accessor copy = accessor;
  EXPECT_FALSE(copy.InstanceIds(*definition.Find("services")).ok());
  workload::Accessor fresh(*bundle, definition, ParseObject(kObject), options);
  EXPECT_TRUE(fresh.InstanceIds(*definition.Find("services")).ok());
}

}  // namespace
}  // namespace wm::testing
