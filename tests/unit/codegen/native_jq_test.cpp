// Differential tests of the native backends from jq text: each expression is parsed and lowered,
// then run by the interpreter, the ORC JIT and an AOT shared object (all expressions linked into
// one .so) on every input; outputs, error status and error messages must be identical. The
// backends compile the whole language: every expression here must be compiled natively.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/eval/eval.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

struct Expression {
  const char* text;
  bool native = true;  // false: the backends are expected to refuse it (interpreter only)
};

const Expression kExpressions[] = {
    {"."}, {".a"}, {".a.b.c"}, {".[0]"}, {".[-1]"}, {".a[1:]"}, {".[2:4]"}, {".[]"}, {".[]?"},
    {".a[]"}, {".."}, {"[..]"}, {".a // \"default\""}, {".a // .b // 3"}, {"(.a, .b)"},
    {"[.[] | . * 2]"}, {"{a: .x, b: [.y[]?]}"}, {"{(.k): .v}"}, {"{a, b}"}, {"{\"x\": 1} + ."},
    {".x + .y"}, {".x - .y"}, {".x * .y"}, {".x / .y"}, {".x % .y"}, {"-.x"},
    {"[.x == .y, .x != .y, .x < .y, .x <= .y, .x > .y, .x >= .y]"}, {".a and .b"}, {".a or .b"},
    {"if .a then 1 elif .b then 2 else 3 end"}, {"if .a then 1 end"},
    {"try error(\"x\") catch ."}, {"try (.a | error) catch \"caught\""}, {".a?"}, {"(.a.b.c)?"},
    {"try error({\"a\": 1}) catch .a"}, {"error(null)"}, {"[.[] | (.x // \"d\")]"},
    {"[.[] | select(. > 1)]"}, {"map(. + 1)"}, {"to_entries"}, {"from_entries"}, {"add"},
    {"any"}, {"all"}, {"any(. > 2)"}, {"all(. > 0)"}, {"length"}, {"keys"}, {"has(\"a\")"},
    {"type"}, {"tostring"}, {"[.[] | tonumber?]"}, {"reduce .[] as $x (0; . + $x)"},
    {"[foreach .[] as $x (0; . + $x)]"}, {"[foreach .[] as $x (0; . + $x; [$x, .])]"},
    {". as [$a, $b] | [$a, $b]"}, {". as {a: $x, $b} | [$x, $b]"}, {"[limit(2; .[])]"},
    {"first(.[])"}, {"[range(5)]"}, {"[range(1; 10; 3)]"}, {"\"\\(.a)-\\(.b)\""}, {"@base64"},
    {"@json"}, {"@text \"v=\\(.a)\""}, {"join(\",\")"}, {"sort"}, {"sort_by(.a)"},
    {"group_by(.a)"}, {"unique"}, {"min"}, {"max"}, {"ascii_downcase"}, {"[splits(\", \")]"},
    {"label $f | .[] | if . > 2 then break $f else . end"}, {"[.[] | strings]"},
    {"[.[]?|numbers]"}, {"with_entries(.value |= . + 1)"}, {"[paths]"},
    {"del(.a)"}, {"path(.a[0].b)"}, {".a = 1"}, {"to_entries | map(.key)"},
    {"isempty(.[])"}, {"[.[] | objects | .a]"}, {"$__loc__"}, {"not"}, {"[.[] | not]"},
    {"indices(1)"}, {"index(\",\")"}, {"ltrimstr(\"a\")"}, {"startswith(\"a\")"},
    {"tojson | fromjson"}, {"[.[] | floor]"}, {"flatten"},
    {".spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1)"},
    {".status.conditions[] | select(.type == \"Completed\") | .status"},
    {"(.status.conditions // []) | any(.type == \"Suspended\" and .status == \"True\")"},
    {"(.status.replicatedJobsStatus // []) | all((.ready // 0) == 0)"},
    {".metadata.labels[\"jobset.sigs.k8s.io/replicatedjob-name\"]"},
    {"def f(g): [g, g]; f(.a)"}, {"[.[]? as [$a] ?// {a: $a} ?// $a | $a]"},
    {"[.[]? as [$a, $b] ?// {a: $a} | [$a, $b]]"}, {". as [$x] ?// $x | if ($x | type) == \"array\" then error(\"arr\") else $x end"}, {"def inc: . + 1; [.[]? | inc | inc]"},
    {"def addvalue(f): f as $x | map(. + $x); addvalue(.[0])"},
    // Object keys are checked as each pair is inserted: the first pair's bad key errors though
    // the last pair's value yields nothing; a bad key whose own value yields nothing does not.
    {"{(.c): \"-3\", \"\\(.k1)\": .[]?}"}, {"{(.a): empty}"}, {"{a: 1, (.x): (.y, 2)}"},
    {"[{(.[]?): 1}?]"},
    // A formatted interpolation formats each part as it is produced: the last part's @csv error
    // is raised even when an earlier part yields nothing.
    {"@csv \"ab\\(.[]?.a?)\\(.k1)\""}, {"@csv \"\\(empty)\\(.)\""}, {"[@sh \"\\(.[]?)\"]?"},
    // Recursion runs as native calls of per-function LLVM functions: prelude loops, user
    // recursion (plain, through closure arguments, mutual, with $parameters), break out of a
    // closure invoked inside a recursive call; depth is counted as the interpreter counts it.
    {"[limit(5; repeat(1))]"}, {"[.[]? | numbers | [while(. < 40; . * 2 + 1)]]"},
    {"until(. > 100; . * 2 + 1)"}, {"[recurse(.[]?)]"}, {"[recurse(.a?; . != null)]"},
    {"def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; [range(7) | fac]"},
    {"def f(g): if . > 3 then g else (. + 1 | f(g)) end; [.[]? | numbers | f(. * 10)]"},
    {"def ev: def od: if . == 0 then false else . - 1 | ev end; if . == 0 then true else . - 1 | od end; [range(6) | ev]"},
    {"def f($n): if $n > 0 then [$n, f($n - 1)] else [] end; f(length? // 2)"},
    {"def r: if type == \"array\" then map(r) else . end; r"},
    {"[label $out | 0 | recurse(if . < 10 then . + 1 else break $out end)]"},
    {"def f(g): def h: if . > 2 then g else . + 1 | h end; h; [1, 2] | map(f(. * 100))"},
    {"[.[]? | numbers | until(. > 1000; . * 3) ]"}, {"[range(3) | [limit(. + 1; repeat(.))]]"},
    // Path mode: every path-tracking node, errors worded as the interpreter's, variables that
    // are the input, foreach items (limit), getpath, try/alternative/label inside path(f).
    {"[path(..)]"}, {"[paths(type == \"number\")]"}, {"del(.[1, 2])"}, {"del(.. | select(. == 1))"},
    {"to_entries | map(.value |= tostring)"}, {"walk(if type == \"number\" then . + 1 else . end)"},
    {"[path(.a[]?, .b?)]"}, {"try path(1 | .a) catch ."}, {"try path(.a | map(.)) catch ."},
    {"path(getpath([\"a\", 0]))"}, {"path(.[1:])"}, {"[path(limit(2; .[]?))]"},
    {"[path(first(.[]?, .a?))]"}, {"[path(.a // .b)]"}, {"[path(try .a catch .)]"},
    {"path(. as $x | $x)"}, {"try path(.a as $x | $x) catch ."}, {"[path(.[]? | select(. == 1))]"},
    {".[0]? += 10"}, {".a? |= empty"}, {"[path(.a?, (.x? | .b?))]"}, {"[path(label $l | .[]? | ., break $l)]"},
    {"try ([path(.[] | .a)]) catch ."}, {"[path(getpath([\"x\"], [\"a\", \"b\"]))]?"},
    {"paths(..) as $p | [$p]"}, {"def f: .a? // empty | f; [path(f)]"}, {"[path(recurse(.[]?; . != 2))]"},
    // ?// alternatives in reduce and foreach.
    {"reduce .[]? as [$a] ?// $a (0; . + ($a | numbers))"},
    {"[foreach .[]? as [$a] ?// $a (0; . + 1; [., $a])]"},
    {"[foreach .[]? as {a: $a} ?// $a (0; . + 1; if $a == 3 then error(\"x\") else $a end)]?"},
};

const char* const kInputs[] = {
    "null",
    "{}",
    "1",
    "\"a, b, c\"",
    "[1, 2, 3, 4]",
    "[3, \"x\", null, true, {\"a\": 1}, [2]]",
    R"({"a": 1, "b": 2, "x": 6, "y": 4, "k": "key", "v": [1]})",
    R"({"a": {"b": {"c": "deep"}}, "x": "s", "y": "t"})",
    R"([{"a": 2, "key": "p", "value": 1}, {"a": 1, "key": "q", "value": 2}])",
    R"({"metadata": {"labels": {"jobset.sigs.k8s.io/replicatedjob-name": "w"}},
        "spec": {"replicatedJobs": [{"name": "a", "replicas": 2},
                                     {"name": "b", "template": {"spec": {"parallelism": 3}}}]},
        "status": {"conditions": [{"type": "Completed", "status": "True"}],
                   "replicatedJobsStatus": [{"ready": 0}]}})",
};


std::string RunToText(const Filter& filter, const Value& input, const RunOptions& options = {}) {
  std::string text;
  EvalError error;
  EvalStatus status = filter.Run(input, [&](const Value& v) {
    text += ToJson(v) + "\n";
    return true;
  }, &error, options);
  if (status == EvalStatus::kError) {
    text += std::string(error.limit ? "limit: " : "error: ") + error.Message();
  }
  return text;
}

TEST(NativeJqTest, InterpreterJitAndAotAgree) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  std::vector<std::shared_ptr<const ir::Program>> native_programs;
  for (size_t i = 0; i < std::size(kExpressions); ++i) {
    const char* text = kExpressions[i].text;
    driver::Expected<driver::LoweredExpression> lowered = driver::LowerExpression(text);
    ASSERT_TRUE(lowered.ok()) << text << ": " << lowered.failure().Summary();
    programs.push_back(lowered->program);
    std::string why = driver::NativeUnsupportedReason(*lowered->program);
    EXPECT_EQ(why.empty(), kExpressions[i].native) << text << ": " << why;
    if (why.empty()) native_programs.push_back(lowered->program);
  }
  driver::Expected<std::vector<std::unique_ptr<Filter>>> aot = driver::BuildAotBatch(native_programs);
  ASSERT_TRUE(aot.ok()) << aot.failure().message;
  driver::ExpressionOptions jit_options;
  jit_options.engine = driver::Engine::kJit;

  std::vector<Value> inputs;
  for (const char* json : kInputs) {
    Value v;
    JsonError error;
    ASSERT_TRUE(ParseJson(json, &v, &error)) << json;
    inputs.push_back(v);
  }
  size_t limit_errors = 0;
  for (size_t i = 0, next_native = 0; i < programs.size(); ++i) {
    const char* text = kExpressions[i].text;
    SCOPED_TRACE(text);
    std::unique_ptr<Filter> interp = MakeInterpreter(programs[i]);
    if (!driver::NativeUnsupportedReason(*programs[i]).empty()) continue;
    driver::Expected<std::unique_ptr<Filter>> jit_filter = driver::BuildEngine(programs[i], jit_options);
    ASSERT_TRUE(jit_filter.ok()) << jit_filter.failure().message;
    const std::unique_ptr<Filter>& native = (*aot)[next_native++];
    ASSERT_NE(native, nullptr);
    const Filter& jit = **jit_filter;
    for (size_t j = 0; j < inputs.size(); ++j) {
      SCOPED_TRACE(kInputs[j]);
      std::string reference = RunToText(*interp, inputs[j]);
      EXPECT_EQ(RunToText(jit, inputs[j]), reference) << "jit";
      EXPECT_EQ(RunToText(*native, inputs[j]), reference) << "aot";
      // Tight limits: fuel is charged per node evaluation in every engine, so a run stops at the
      // same point with the same outputs before it.
      for (uint64_t fuel : {3, 12, 40}) {
        RunOptions tight;
        tight.limits.fuel = fuel;
        tight.limits.max_outputs = 3;
        tight.limits.max_depth = 3;
        std::string limited = RunToText(*interp, inputs[j], tight);
        if (limited.find("limit: ") != std::string::npos) ++limit_errors;
        EXPECT_EQ(RunToText(jit, inputs[j], tight), limited) << "jit, fuel " << fuel;
        EXPECT_EQ(RunToText(*native, inputs[j], tight), limited) << "aot, fuel " << fuel;
      }
    }
  }
  // The tight runs must really exercise the limits.
  EXPECT_GT(limit_errors, 200u);
}

}  // namespace
}  // namespace wm
