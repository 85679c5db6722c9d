// Interpreter semantics through parse + lower + MakeInterpreter: generators and backtracking,
// closures and recursion, paths and assignment, try/label/reduce/foreach, destructuring, and the
// evaluation limits (outputs, fuel, depth, memory, time).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include "tests/unit/eval/eval_test_util.h"

namespace wm {
namespace {

using testing::EvalJq;
using testing::Jq;
using testing::EvalOutcome;

TEST(Interpreter, GeneratorsAndCartesianOrder) {
  EXPECT_EQ(Jq("1, 2 | . * 10"), "10 20");
  EXPECT_EQ(Jq("[(1,2) + (10,20)]"), "[11,12,21,22]");
  EXPECT_EQ(Jq("[{a:(1,2), b:(3,4)}]"), R"([{"a":1,"b":3},{"a":1,"b":4},{"a":2,"b":3},{"a":2,"b":4}])");
  EXPECT_EQ(Jq(R"JQ("\(1,2) \(3,4)")JQ"), R"("1 3" "2 3" "1 4" "2 4")");
  EXPECT_EQ(Jq(R"([(.a,.b)[0,1]])", R"({"a":[1,2],"b":[3,4]})"), "[1,3,2,4]");
  EXPECT_EQ(Jq("[pow(2,3; 1,2)]"), "[2,3,4,9]");
  EXPECT_EQ(Jq("[range(0,1; 3,4)]"), "[0,1,2,0,1,2,3,1,2,1,2,3]");
  EXPECT_EQ(Jq("[(true,false) and (true,false)]"), "[true,false,false]");
  EXPECT_EQ(Jq("[.[] | select(. > 1)]", "[1,2,3]"), "[2,3]");
  EXPECT_EQ(Jq("[empty]"), "[]");
  EXPECT_EQ(Jq("[(null, false) // (3,4)]"), "[3,4]");
  EXPECT_EQ(Jq("[(1, null, 2) // 3]"), "[1,2]");
}

TEST(Interpreter, ClosuresRunInTheCallersEnvironment) {
  EXPECT_EQ(Jq("def f(g): [g]; f(1,2)"), "[1,2]");
  EXPECT_EQ(Jq("def f($a; $b): $a + $b; f(1,2; 10)"), "11 12");
  EXPECT_EQ(Jq("1 as $x | def f(g): 2 as $x | [g, $x]; f($x)"), "[1,2]");
  EXPECT_EQ(Jq("def f(g): def h: g; [h]; 5 as $v | f($v + 1)"), "[6]");
  EXPECT_EQ(Jq("def f: def g: 3; g; f"), "3");
  EXPECT_EQ(Jq("def f(x): x * 2; def g(y): f(y + 1); g(3)"), "8");
  EXPECT_EQ(Jq("def f($a): a + $a; f(3)"), "6");
  EXPECT_EQ(Jq("[1,2] as $xs | def f: $xs | length; f"), "2");
  EXPECT_EQ(Jq("def map(f): \"mine\"; [1] | map(. + 1)"), R"("mine")");
}

TEST(Interpreter, Recursion) {
  EXPECT_EQ(Jq("def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac"), "3628800");
  EXPECT_EQ(Jq("def f: if . < 1990 then . + 1 | f else . end; 0 | f"), "1990");
  EXPECT_EQ(Jq("[1990 | until(. == 0; . - 1)] | length"), "1");
  EXPECT_EQ(Jq("[recurse(if . < 3 then . + 1 else empty end)]", "0"), "[0,1,2,3]");
  EXPECT_EQ(Jq("[..]", "[1,[2]]"), "[[1,[2]],1,[2],2]");
}

TEST(Interpreter, PathsAndAssignment) {
  EXPECT_EQ(Jq("[paths]", R"({"a":{"b":1}})"), R"([["a"],["a","b"]])");
  EXPECT_EQ(Jq("path(.a[1:2])"), R"(["a",{"start":1,"end":2}])");
  EXPECT_EQ(Jq("path(.a // .b)", R"({"a":1})"), R"(["a"])");
  EXPECT_EQ(Jq("path(if .a then .b else .c end)"), R"(["c"])");
  EXPECT_EQ(Jq("path(getpath([\"a\",\"b\"]))"), R"(["a","b"])");
  EXPECT_EQ(Jq("[path(first(.a,.b))]"), R"([["a"]])");
  EXPECT_EQ(Jq("[path(limit(1; .a,.b))]"), R"([["a"]])");
  EXPECT_EQ(Jq("path(1)"), "error: Invalid path expression with result 1");
  // A variable is a path only where it is the value at the current path (jq's identity rule);
  // a binding's source is not tracked.
  EXPECT_EQ(Jq("path(.a as $x | $x)", R"({"a":{"c":1}})"),
            R"(error: Invalid path expression with result {"c":1})");
  EXPECT_EQ(Jq("path(.a | . as $x | $x)", R"({"a":{"c":1}})"), R"(["a"])");
  EXPECT_EQ(Jq("path(. as $x | $x)", R"({"a":1})"), "[]");
  EXPECT_EQ(Jq("path(.a as $x | .b)", R"({"a":1})"), R"(["b"])");
  EXPECT_EQ(Jq("[path(foreach .a as $x (0; 1; $x))]", R"({"a":1})"), R"([["a"]])");
  EXPECT_EQ(Jq(".a.b.c = 1", "{}"), R"({"a":{"b":{"c":1}}})");
  EXPECT_EQ(Jq(".a = (1,2)", "{}"), R"({"a":1} {"a":2})");
  EXPECT_EQ(Jq(".[1:] |= map(. * 2)", "[1,2,3]"), "[1,4,6]");
  EXPECT_EQ(Jq(".a[] |= empty", R"({"a":[1,2]})"), R"({"a":[]})");  // 1.7: every emptied path deleted
  EXPECT_EQ(Jq(".a += (1,2)", "{}"), R"({"a":1} {"a":2})");
  EXPECT_EQ(Jq(".[] += 1", "[1,2]"), "[2,3]");
  EXPECT_EQ(Jq(".[] //= 5", "[1,null]"), "[1,5]");
  EXPECT_EQ(Jq(".a = .b", R"({"b":3})"), R"({"b":3,"a":3})");
  EXPECT_EQ(Jq(".a |= . + .", R"({"a":2})"), R"({"a":4})");
  EXPECT_EQ(Jq("del(.a[0,2])", R"({"a":[1,2,3]})"), R"({"a":[2]})");
  EXPECT_EQ(Jq("to_entries", R"({"a":1})"), R"([{"key":"a","value":1}])");
  EXPECT_EQ(Jq("with_entries(.value += 1)", R"({"a":1})"), R"({"a":2})");
  EXPECT_EQ(Jq("pick(.a.b)", R"({"a":{"b":1,"c":2},"d":3})"), R"({"a":{"b":1}})");
}

TEST(Interpreter, TryLabelReduceForeach) {
  EXPECT_EQ(Jq("try error(\"x\") catch ."), R"("x")");
  EXPECT_EQ(Jq("try (1, error(\"x\"), 3) catch ."), R"(1 "x")");
  EXPECT_EQ(Jq("[.[] | (1 / .)?]", "[1,0,2]"), "[1,0.5]");
  EXPECT_EQ(Jq("(try 1) | error(\"outside\")"), "error: outside");  // not caught: downstream
  EXPECT_EQ(Jq("try error({a:1}) catch .a"), "1");
  EXPECT_EQ(Jq("label $f | 1, break $f, 2"), "1");
  EXPECT_EQ(Jq("[label $a | label $b | 1, break $a, 2], 3"), "[1] 3");
  EXPECT_EQ(Jq("reduce range(5) as $x (0; . + $x)"), "10");
  EXPECT_EQ(Jq("reduce range(3) as $x (0; empty)"), "null");
  EXPECT_EQ(Jq("reduce (1,2) as $x (0,10; . + $x)"), "3 13");
  EXPECT_EQ(Jq("[foreach (1,2,3) as $x (0; . + $x)]"), "[1,3,6]");
  EXPECT_EQ(Jq("[foreach (1,2) as $x (0; . + $x, . * 10; .)]"), "[1,0,2,0]");
  EXPECT_EQ(Jq("[foreach range(5) as $x (0; . + $x; [$x, .])]"), "[[0,0],[1,1],[2,3],[3,6],[4,10]]");
  EXPECT_EQ(Jq("[limit(3; range(10))]"), "[0,1,2]");
  EXPECT_EQ(Jq("[limit(0; 1, 2)]"), "[]");
  EXPECT_EQ(Jq("first(range(5; 10))"), "5");
  EXPECT_EQ(Jq("[first(empty)]"), "[]");
  EXPECT_EQ(Jq("isempty(empty), isempty(1, error(\"x\"))"), "true false");
}

TEST(Interpreter, Destructuring) {
  EXPECT_EQ(Jq(". as [$a, $b] | {a: $a, b: $b}", "[1]"), R"({"a":1,"b":null})");
  EXPECT_EQ(Jq(". as {a: {b: $c}} | $c", R"({"a":{"b":1}})"), "1");
  EXPECT_EQ(Jq(". as {$a, b: [$c]} | [$a, $c]", R"({"a":1,"b":[2]})"), "[1,2]");
  EXPECT_EQ(Jq(". as {(\"a\",\"b\"): $v} | $v", R"({"a":1})"), "1 null");
  EXPECT_EQ(Jq(". as {$a: [$b]} | $b", R"({"a":1})"), "error: Cannot index number with number");
  EXPECT_EQ(Jq(".[] as [$a] ?// $a | $a", "[[1,2]]"), "1");
  EXPECT_EQ(Jq(". as [$a] ?// $a | if $a == 3 then error(\"x\") else $a end", "[3]"), "[3]");
  EXPECT_EQ(Jq(". as [$a] ?// {a: $b} | [$a, $b]", R"({"a":5})"), "[null,5]");
}

TEST(Interpreter, StringsAndFormats) {
  EXPECT_EQ(Jq(R"JQ(@base64 "x\("a")y")JQ"), R"("xYQ==y")");
  EXPECT_EQ(Jq(R"JQ(@json "v=\("a")")JQ"), R"("v=\"a\"")");
  EXPECT_EQ(Jq(R"JQ("a\(1 + 1)b\(null)")JQ"), R"("a2bnull")");
  EXPECT_EQ(Jq("@csv", R"([1,"a"])"), R"("1,\"a\"")");
  EXPECT_EQ(Jq(R"JQ(@sh "echo \(.)")JQ", R"("a b")"), R"("echo 'a b'")");
  EXPECT_EQ(Jq("$__loc__"), R"({"file":"<top-level>","line":1})");
}

TEST(Interpreter, ErrorsAndNonStringErrorValues) {
  EvalOutcome o = EvalJq("1 | .a");
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.error, R"(Cannot index number with "a")");
  o = EvalJq("error({})");
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.error, "{} (not a string)");
  EXPECT_EQ(Jq("[.[] | tostring]", "[1,\"a\",[2]]"), R"(["1","a","[2]"])");
  EXPECT_EQ(Jq("try error catch .", "\"msg\""), R"("msg")");
  EXPECT_EQ(Jq("try error(null) catch ."), "null");
}

// jq's postfix `?` on `T.b`, `T[K]`, `T[F:L]`, `T[]` suppresses only the error of that last
// operation; errors raised while evaluating T (or K) propagate.
// jq checks an object key when it inserts the pair, after the value was produced.
TEST(Interpreter, ObjectKeysAreCheckedPerValue) {
  EXPECT_EQ(Jq("{(.k): .[]?}", "{}"), "");
  EXPECT_EQ(Jq("try {(.a): error(\"v\")} catch ."), R"("v")");
  EXPECT_EQ(Jq("{(.a): 1}"), "error: Cannot use null (null) as object key");
}

TEST(Interpreter, PostfixOptionalGuardsOnlyTheLastOperation) {
  EXPECT_EQ(Jq(".c.b?", "[]"), R"(error: Cannot index array with "c")");
  EXPECT_EQ(Jq(".c.b?", R"({"c":2})"), "");
  EXPECT_EQ(Jq(".b[]?", "2"), R"(error: Cannot index number with "b")");
  EXPECT_EQ(Jq(".b[]?", R"({"b":3})"), "");
  EXPECT_EQ(Jq("[.[]?[:0]]", R"({"b":{"c":1}})"), "error: Cannot index object with object");
  EXPECT_EQ(Jq(".[error(\"k\")]?"), "error: k");
  EXPECT_EQ(Jq("[(1,{\"a\":2}) as $x | $x[(\"a\",0)]?]"), "[2]");
  EXPECT_EQ(Jq("[.[] | .x[1:]?]", R"([{"x":[1,2,3]},{"x":5}])"), "[[2,3]]");
  EXPECT_EQ(Jq("[capture(.)][]?", "[null]"), "error: array ([null]) cannot be matched, as it is not a string");
  EXPECT_EQ(Jq("[.[]?] | length", "[1,2]"), "2");
  EXPECT_EQ(Jq(".?", "3"), "3");
  EXPECT_EQ(Jq("\"<\\(.?)>\"", "3"), R"("<3>")");
  // Errors raised downstream of the guarded operation are not suppressed.
  EXPECT_EQ(Jq("[.[]? | error]", "[\"x\"]"), "error: x");
  // The whole term is guarded for `(E)?` and `f?`.
  EXPECT_EQ(Jq("[(.c.b)?]", "[]"), "[]");
  EXPECT_EQ(Jq("[error(\"x\")?]"), "[]");
  // Path expressions keep working through the split.
  EXPECT_EQ(Jq("[path(.a.b?), path(.a[]?), path(.a[1:]?)]", R"({"a":[1,2]})"),
            R"([["a",0],["a",1],["a",{"start":1,"end":null}]])");
  EXPECT_EQ(Jq("del(.a[]?)", R"({"a":[1,2],"b":1})"), R"({"a":[],"b":1})");
  EXPECT_EQ(Jq(".a[.k]? = 5", R"({"a":{},"k":"x"})"), R"({"a":{"x":5},"k":"x"})");
}

TEST(Interpreter, LimitsEndQuicklyWithErrors) {
  EvalOutcome o = EvalJq("def f: f; f");
  EXPECT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  o = EvalJq("[limit(1e9; repeat(1))]");
  EXPECT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  o = EvalJq("last(range(1e9))");
  EXPECT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
  EXPECT_NE(o.error.find("fuel"), std::string::npos);
  // The result cap errors when the count reaches the limit (upstream's runner): the 1000th
  // result is the error, 999 results are fine.
  o = EvalJq("range(2000)");
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.outputs.size(), 999u);
  EXPECT_EQ(o.error, "query results exceed the allowed number 1000");
  EXPECT_TRUE(EvalJq("range(1000)").failed);
  o = EvalJq("range(999)");
  EXPECT_FALSE(o.failed);
  EXPECT_EQ(o.outputs.size(), 999u);
  // Limits are not catchable by try.
  o = EvalJq("try (def f: f; f) catch \"caught\"");
  EXPECT_TRUE(o.failed);
  RunOptions small;
  small.limits.max_memory_bytes = 1 << 20;
  o = EvalJq("[range(200000)] | length", "null", small);
  EXPECT_TRUE(o.failed);
  EXPECT_NE(o.error.find("memory"), std::string::npos);
  RunOptions shallow;
  shallow.limits.max_depth = 10;
  // Not a tail call (the + runs after it), so every level nests and counts.
  o = EvalJq("def f: if . < 20 then (. + 1 | f) + 0 else . end; 0 | f", "null", shallow);
  EXPECT_TRUE(o.failed);
  EXPECT_NE(o.error.find("depth"), std::string::npos);
}

TEST(Interpreter, WallClockLimitStopsARunawayLoop) {
  // Fuel would last for ages: only the time limit can stop these, and it must do so promptly.
  RunOptions options;
  options.limits.fuel = UINT64_MAX;
  options.limits.timeout_ms = 30;
  for (const char* runaway : {"last(range(1e15))", "def f: f; f", "[limit(1e15; repeat(1))] | length"}) {
    SCOPED_TRACE(runaway);
    auto start = std::chrono::steady_clock::now();
    EvalOutcome o = EvalJq(runaway, "null", options);
    auto elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(o.failed);
    EXPECT_TRUE(o.limit);
    EXPECT_EQ(o.error, "evaluation time limit exceeded (30 ms)");
    EXPECT_LT(elapsed, std::chrono::seconds(3));
  }
  // The default is upstream's 10 s; a quick expression never reaches a tiny limit.
  EXPECT_EQ(RunOptions().limits.timeout_ms, 10000u);
  options.limits.timeout_ms = 1;
  EXPECT_EQ(EvalJq("[range(100)] | length", "null", options).Joined(), "100");
  // Fuel spanning several slices is still counted exactly.
  RunOptions fuel;
  fuel.limits.fuel = 10000;
  EvalOutcome o = EvalJq("last(range(1e9))", "null", fuel);
  EXPECT_EQ(o.error, "evaluation step budget exhausted (fuel 10000)");
}

TEST(Interpreter, DeepRecursionOnASmallThreadStackIsAnError) {
  // A 1 MB thread cannot hold 1990 nested calls: the stack guard must report it, not crash.
  EvalOutcome o;
  std::thread worker;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);
  pthread_t thread;
  struct Job {
    EvalOutcome* out;
  } job{&o};
  ASSERT_EQ(pthread_create(&thread, &attr, [](void* arg) -> void* {
    auto* j = static_cast<Job*>(arg);
    // `+ 0` after the call keeps it out of tail position: each level costs stack.
    *j->out = EvalJq("def f: if . < 1990 then (. + 1 | f) + 0 else . end; 0 | f");
    return nullptr;
  }, &job), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  EXPECT_TRUE(o.failed);
  EXPECT_TRUE(o.limit);
}

TEST(Interpreter, GlobalsFromRunOptions) {
  driver::ExpressionOptions options;
  options.global_vars = {"a", "b"};
  driver::Expected<driver::Executable> compiled = driver::CompileExpression("[$a, $b]", options);
  ASSERT_TRUE(compiled.ok());
  std::vector<Value> globals = {Value::String("x"), Value::Number(2)};
  RunOptions run;
  run.globals = &globals;
  std::string got;
  EvalError error;
  compiled->filter->Run(Value(), [&](const Value& v) { got = ToJson(v); return true; }, &error, run);
  EXPECT_EQ(got, R"(["x",2])");
}

TEST(Interpreter, StopFromTheConsumer) {
  driver::Expected<driver::Executable> compiled = driver::CompileExpression("range(10)");
  ASSERT_TRUE(compiled.ok());
  int seen = 0;
  EvalError error;
  EvalStatus status = compiled->filter->Run(Value(), [&](const Value&) { return ++seen < 3; }, &error);
  EXPECT_EQ(status, EvalStatus::kStopped);
  EXPECT_EQ(seen, 3);
}

}  // namespace
}  // namespace wm
