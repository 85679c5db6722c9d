// The view engine's flat code (runtime/eval/view/flatten.cpp, Evaluator::RunFlat): which program
// shapes become straight-line code without a tree node, and that running them gives what the
// interpreter gives (outputs, errors and the fallbacks they take) on documents of every shape,
// with the kind's shared subexpressions read through their memo slots.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/eval/view/view.h"
#include "runtime/eval/view/view_program.h"
#include "tests/unit/view/view_test_util.h"

namespace wm::testing {
namespace {

// `expr` lowered alone (no memo slots) and flattened; null when it has no flat code.
std::unique_ptr<view::FlatCode> FlatOf(const std::string& expr) {
  view::PathTrie trie;
  std::string reason;
  auto program = view::LowerToView(*Lowered(expr), &trie, &reason);
  EXPECT_NE(program, nullptr) << expr << ": " << reason;
  if (program == nullptr) return nullptr;
  return view::Flatten(*program, trie, {});
}

size_t Count(const view::FlatCode& code, view::FlatOp op) {
  size_t count = 0;
  for (const view::FlatInstr& i : code.code) count += i.op == op;
  return count;
}

TEST(ViewFlatCodeTest, TheCatalogsStatusShapesNeedNoTreeNode) {
  for (const char* expr : {
           R"(if .spec.mode == "cluster" then (.spec.components.proxy.replicas // 1) else 0 end)",
           R"(if (.spec.mode // "standalone") == "standalone" then (.spec.x.replicas // 1) else 0 end)",
           R"(((.spec.suspend // false) | not) and ((.status.conditions // []) | any(.type == "Suspended" and .status == "True")))",
           R"((.status.jobsStatus // []) | all((.ready // 0) == 0))",
           R"(.spec.a == .spec.b or "x" < .spec.c)",
           R"(.status.conditions | any(.type == "Ready") | not)",
       }) {
    auto code = FlatOf(expr);
    ASSERT_NE(code, nullptr) << expr;
    EXPECT_EQ(code->tree_nodes, 0u) << expr;
    EXPECT_EQ(Count(*code, view::FlatOp::kReturn), 1u + Count(*code, view::FlatOp::kAnyAll)) << expr;
  }
  // Each any/all's condition is a block after the main code, ending in its own kReturn.
  auto code = FlatOf(R"((.a // []) | any(.b == 1) and ((.c // []) | all(.d != 2)))");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(Count(*code, view::FlatOp::kAnyAll), 2u);
  for (const view::FlatInstr& i : code->code) {
    if (i.op != view::FlatOp::kAnyAll) continue;
    EXPECT_GT(i.b, 0u);
    EXPECT_LT(i.b, code->code.size());
    EXPECT_EQ(code->code[i.b - 1].op, view::FlatOp::kReturn);  // a block starts after a return
  }
}

// A branch's last instruction writes the `if`'s (or `//`'s) result register itself, with no move
// after it, unless both branches of a nested `if` wrote the value (the nested result is moved).
TEST(ViewFlatCodeTest, BranchesWriteTheirResultWithoutAMove) {
  for (const char* expr : {
           R"(if .spec.mode == "cluster" then (.spec.x.replicas // 1) else 0 end)",
           R"(.spec.a // .spec.b)",
           R"(if .spec.a then {x: .spec.a} else [.spec.b] end)",
           R"(.spec.list[] | if .name == "x" then .replicas else (.alias // "none") end)",
       }) {
    auto code = FlatOf(expr);
    ASSERT_NE(code, nullptr) << expr;
    EXPECT_EQ(Count(*code, view::FlatOp::kMove), 0u) << expr;
  }
  // `elif`: the nested if's result is written by both of its branches, so it is moved.
  auto code = FlatOf(R"(if .a == 1 then 1 elif .a == 2 then 2 else 3 end)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(Count(*code, view::FlatOp::kMove), 1u);
  // `//` on its input: the input's register is read again after it (`+ .`), so it stays the
  // input's, and the value is moved.
  code = FlatOf(R"((.a + 1) | ((. // 0) + .))");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(Count(*code, view::FlatOp::kMove), 1u);
}

// Branches on a value the code computed before them, which is read again after them: the
// register that holds it keeps it.
TEST(ViewFlatCodeTest, BranchesOnTheirInputLeaveItsRegister) {
  const std::vector<std::string> exprs = {
      R"((.a + 1) | ((. // 0) + .))",
      R"((.a // .b) | ((. // 5) * .))",
      R"((.a == 1) | ((if . then 2 else 3 end) + (if . then 10 else 20 end)))",
      R"((.a - 1) | [(. // "none"), .])",
  };
  const std::vector<std::string> docs = {R"({"a":1,"b":2})", R"({"a":null,"b":3})", R"({"b":4})", R"({"a":-1})"};
  uint64_t flat_runs = 0;
  const uint64_t answered = ExpectAgree(exprs, docs, &flat_runs);
  EXPECT_GT(answered, 0u);
  EXPECT_GT(flat_runs, 0u);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
}

TEST(ViewFlatCodeTest, OnlySingleRootsThatGainAreFlattened) {
  EXPECT_EQ(FlatOf(".spec.items[]"), nullptr);                 // a generator
  EXPECT_EQ(FlatOf(".spec.a, .spec.b"), nullptr);               // two outputs
  EXPECT_EQ(FlatOf("[.spec.a]"), nullptr);                      // one tree node: the tree's own run
  auto code = FlatOf(R"(if .a == 1 then [.b] else [.c] end)");  // the branches stay the tree's
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 2u);
  code = FlatOf(".spec.items | map(.name)");  // the path is read by the code, the map by the tree
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 1u);
  EXPECT_EQ(Count(*code, view::FlatOp::kPath), 1u);
}

const std::vector<std::string> kDocs = {
    R"({})",
    R"({"spec": null, "status": null})",
    R"({"spec": {"mode": "cluster", "suspend": true, "a": 1, "b": 1, "c": "y", "components": {"proxy": {"replicas": 3}}},
        "status": {"conditions": [{"type": "Suspended", "status": "True"}, {"type": "Ready", "status": "False"}],
                   "jobsStatus": [{"ready": 0}, {"ready": 2}]}})",
    R"({"spec": {"mode": "standalone", "suspend": false, "a": "1", "b": 1, "c": "a", "components": {"proxy": null}},
        "status": {"conditions": [], "jobsStatus": [{"ready": null}, {}]}})",
    R"({"spec": {"mode": "clusterX", "a": null, "c": 3}, "status": {"conditions": {"x": {"type": "Suspended", "status": "True"}},
        "jobsStatus": {"a": {"ready": 1}}}})",
    R"({"spec": {"mode": 7, "suspend": "yes"}, "status": {"conditions": [{"type": 1, "status": "True"}, "Suspended", null],
        "jobsStatus": [3]}})",
    R"({"spec": {"mode": "cluster", "components": {"proxy": {"replicas": false}}}, "status": {"conditions": "x", "jobsStatus": false}})",
    R"({"spec": {"mode": "cluster", "components": "proxy"}, "status": {"conditions": [{"type": "Suspended", "status": "True", "type": "Ready"}]}})",
    R"({"spec": [1, 2], "status": 5})",
};

// Resolvers that share subexpressions (`.spec.mode == "cluster"`, the conditions' any) the way
// the catalog's do, over documents where each path is a value of every type, missing, null,
// through a non-object (errors, which the regular engine words), with repeated keys.
const std::vector<std::string> kResolvers = {
    R"(if .spec.mode == "cluster" then (.spec.components.proxy.replicas // 1) else 0 end)",
    R"(if .spec.mode == "cluster" and .spec.components.proxy != null then (.spec.components.proxy.replicas // 1) else 0 end)",
    R"(if (.spec.mode // "standalone") == "standalone" then 1 elif .spec.mode == "cluster" then 2 else 3 end)",
    R"(((.spec.suspend // false) | not) and ((.status.conditions // []) | any(.type == "Suspended" and .status == "True")))",
    R"((.spec.suspend // false) and ((.status.conditions // []) | any(.type == "Suspended" and .status == "True") | not))",
    R"(((.status.conditions // []) | any((.type == "Complete" or .type == "Failed") and .status == "True") | not) and ((.status.jobsStatus // []) | any((.ready // 0) > 0)))",
    R"((.status.jobsStatus // []) | all((.ready // 0) == 0))",
    R"(.spec.a == .spec.b or "x" < .spec.c)",
    R"(.spec.c >= "b" and .spec.c != "y")",
    R"(.spec.a // .spec.b // "none")",
    R"(.spec.suspend | not)",
    R"(false and (.spec.mode | .x == 1))",
    R"(true or (.spec.mode | .x == 1))",
    R"(.status.conditions | any(.type == "Ready"))",
    R"([.spec.mode, .spec.a] | any(. == "cluster"))",
};

TEST(ViewFlatCodeTest, FlatRunsAgreeWithTheInterpreter) {
  uint64_t flat_runs = 0;
  const uint64_t answered = ExpectAgree(kResolvers, kDocs, &flat_runs);
  // Most of these resolvers are answered on the DOM, and those through their flat code.
  EXPECT_GT(flat_runs, kResolvers.size() * kDocs.size() / 2);
  EXPECT_LE(flat_runs, answered);
}

TEST(ViewFlatCodeTest, EachResolverAloneAgreesToo) {
  // Alone, a resolver has no memo slots: the code computes every subexpression itself.
  for (const std::string& expr : kResolvers) ExpectAgree({expr}, kDocs);
}

// A built object or array a kTree instruction outputs is the caller's as the tree's are: valid
// after the next object and after the runner is gone, and not kept by the registers.
TEST(ViewFlatCodeTest, BuiltOutputsOfFlatCodeOutliveTheRunAndTheRunner) {
  // No view inside (a view is valid until the next object only): numbers the program computes.
  const std::string expr = "if .n > 4 then {n: (.n * 10), list: [(.n - 0), {deep: (.n + 1)}]} else [(.n - 0)] end";
  view::FusedKind kind({Lowered(expr)});
  std::vector<view::ViewOutput> held;
  {
    view::FusedRunner runner(kind);
    JsonError error;
    for (const char* doc : {R"({"n":5})", R"({"n":1})", R"({"n":6})"}) {
      ASSERT_TRUE(runner.Run(doc, {}, &error));
      ASSERT_TRUE(runner.result(0).fused);
      held.push_back(runner.result(0).outputs[0]);
    }
    EXPECT_EQ(runner.stats().flat_runs, 3u);
  }
  std::vector<std::string> texts;
  for (const view::ViewOutput& out : held) {
    std::string text;
    out.WriteJson(&text);
    EXPECT_EQ(ToJson(out.ToValue()), text);
    texts.push_back(text);
  }
  EXPECT_EQ(texts, (std::vector<std::string>{R"({"n":50,"list":[5,{"deep":6}]})", "[1]",
                                             R"({"n":60,"list":[6,{"deep":7}]})"}));
}

// Arithmetic reads two numbers in line wherever they are (computed, or on the tape as a signed,
// an unsigned or a double word); anything else (a constant, a string, null, a container) goes
// the general way. Every pairing agrees with the interpreter.
TEST(ViewFlatCodeTest, ArithmeticOnEveryKindOfOperand) {
  const std::vector<std::string> exprs = {
      ".a + .b", ".a - .b", ".a * .b", ".a * 2", "(.a // 1) * ((.b // 1) - 1)", "(.a + 1) * (.b - 0.5)",
      ".a / (.b // 1)", ".a % (.b // 7)",
  };
  const std::vector<std::string> docs = {
      R"({"a":3,"b":4})",
      R"({"a":-2,"b":18446744073709551615})",
      R"({"a":1.5,"b":-0.25})",
      R"({"a":9007199254740993,"b":1e300})",
      R"({"a":null,"b":2})",
      R"({"a":"x","b":"y"})",
      R"({"a":[1],"b":[2]})",
      R"({"a":{"k":1},"b":{"j":2}})",
      R"({"a":true,"b":1})",
      R"({"a":5})",
      R"({})",
  };
  uint64_t flat_runs = 0;
  ExpectAgree(exprs, docs, &flat_runs);
  EXPECT_GT(flat_runs, 0u);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
}

// `try B` and `P | try B` (the catalog's `.annotations["..."] | tonumber?`): P's code, then B's,
// whose errors give no output while P's stay errors (the regular engine words them); a bail is
// not caught.
// `map(select(c)) | first` is a search with its condition as a block (kFirstWhere), not a tree
// node; `tonumber`, `length` and a field of a computed value are instructions too.
TEST(ViewFlatCodeTest, SearchesAndNumberReadsAreInstructions) {
  auto code = FlatOf(R"(.spec.containers // [] | map(select(.name == "main")) | first.image)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 0u);
  EXPECT_EQ(Count(*code, view::FlatOp::kFirstWhere), 1u);
  code = FlatOf(R"(.spec.a // "1" | tonumber)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 0u);
  EXPECT_EQ(Count(*code, view::FlatOp::kToNumber), 1u);
  code = FlatOf(R"((.status.conditions // []) | length == 0)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 0u);
  EXPECT_EQ(Count(*code, view::FlatOp::kLength), 1u);
  code = FlatOf(R"(.spec.source | (.ngc // .hf).modelPuller)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 0u);
  EXPECT_EQ(Count(*code, view::FlatOp::kField), 1u);
}

TEST(ViewFlatCodeTest, TryCatchesTheErrorsOfItsBodyOnly) {
  auto code = FlatOf(R"(.spec.annotations["x/max-scale"] | tonumber?)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->catch_from, 1u);  // after the path's read
  EXPECT_EQ(code->tree_nodes, 0u);  // tonumber is an instruction of its own
  EXPECT_EQ(Count(*code, view::FlatOp::kToNumber), 1u);
  code = FlatOf("try (.a + 1)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->catch_from, 0u);
  EXPECT_EQ(FlatOf(".a | try (.b, .c)"), nullptr);  // a generator body
  const std::vector<std::string> exprs = {
      R"(.spec.annotations["x/max-scale"] | tonumber?)",
      R"(.spec.annotations["x/min-scale"] // 1 | tonumber?)",
      R"(.spec.annotations.x.y | try (. + 1))",
      R"(try (.spec.annotations["x/max-scale"] | tonumber))",
      R"(try ((.spec.n // 0) * 2 | tostring | tonumber) == 2)",
  };
  const std::vector<std::string> docs = {
      R"({"spec":{"annotations":{"x/max-scale":"5","x/min-scale":"2"}}})",
      R"({"spec":{"annotations":{"x/max-scale":"many"}}})",
      R"({"spec":{"annotations":{"x/max-scale":null,"x":{"y":"s"}}}})",
      R"({"spec":{"annotations":{"x":{"y":3}}, "n":1}})",
      R"({"spec":{"annotations":"flat"}})",  // P's own error: `.annotations.x` on a string
      R"({"spec":{"annotations":[1]}})",
      R"({})",
      // tonumber's other inputs: jq's number forms the plain JSON reader does not take, a number
      // passed through (its literal kept), strings that are no number, a boolean, an object.
      R"({"spec":{"annotations":{"x/max-scale":" 7 ","x/min-scale":"-0"}}})",
      R"({"spec":{"annotations":{"x/max-scale":"nan","x/min-scale":"1e1000"}}})",
      R"({"spec":{"annotations":{"x/max-scale":"0x10","x/min-scale":".5"}}})",
      R"({"spec":{"annotations":{"x/max-scale":100000000000000000001,"x/min-scale":-0}}})",
      R"({"spec":{"annotations":{"x/max-scale":"","x/min-scale":false}}})",
      R"({"spec":{"annotations":{"x/max-scale":true,"x/min-scale":{"a":1}}}})",
  };
  ExpectAgree(exprs, docs);  // together: the first four are flat code, the last one the tree's
  for (size_t e = 0; e < 4; ++e) {
    uint64_t flat_runs = 0;
    const uint64_t answered = ExpectAgree({exprs[e]}, docs, &flat_runs);
    EXPECT_GT(answered, 0u) << exprs[e];
    EXPECT_EQ(flat_runs, answered) << exprs[e];  // every run answered on the DOM was flat code
  }
  view::FusedKind kind({Lowered(exprs[0]), Lowered(exprs[2])});
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(docs[1], {}, &error));
  EXPECT_TRUE(runner.result(0).fused);  // "many" | tonumber failed, and was caught on the DOM
  EXPECT_TRUE(runner.result(0).outputs.empty());
  // P's error is not caught: the regular engine raises it.
  ASSERT_TRUE(runner.Run(docs[4], {}, &error));
  EXPECT_FALSE(runner.result(1).fused);
  EXPECT_EQ(runner.result(1).status, EvalStatus::kError);
}

// `.a[] | f` with f single: f's code runs on each element (FlatCode::each_iteration), reading the
// nodes below the iteration at that element (kPathBelow).
TEST(ViewFlatCodeTest, AnIterationsSingleBodyRunsOnEachElement) {
  auto code = FlatOf(".spec.list[] | (.replicas // 1) * (.multinode.nodeCount // 1)");
  ASSERT_NE(code, nullptr);
  EXPECT_NE(code->each_iteration, 0u);
  EXPECT_FALSE(code->each_optional);
  EXPECT_EQ(Count(*code, view::FlatOp::kPathBelow), 2u);
  EXPECT_EQ(Count(*code, view::FlatOp::kPath), 0u);
  EXPECT_EQ(Count(*code, view::FlatOp::kArith), 1u);
  // `.[]?` is kept; a body that is one kTree still gains the loop.
  code = FlatOf(".spec.list[]? | if .name == \"x\" then .spec.mode else (.alias // \"none\") end");
  ASSERT_NE(code, nullptr);
  EXPECT_TRUE(code->each_optional);
  EXPECT_EQ(Count(*code, view::FlatOp::kPathBelow), 3u);
  EXPECT_EQ(code->tree_nodes, 0u);
  code = FlatOf(".spec.list[] | [.name]");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->code.size(), 2u);  // kTree, kReturn
  // Not an iteration with one output per element.
  EXPECT_EQ(FlatOf(".spec.list[] | .ports[] | .port"), nullptr);
  EXPECT_EQ(FlatOf("(.spec.list[] | .name), .spec.mode"), nullptr);
}

// Objects whose keys are distinct string constants are built by the code (kObject), and so is
// `with_entries(select(.value OP c))` of one: only the members that pass are added. Other objects
// stay the tree's.
TEST(ViewFlatCodeTest, ObjectsWithConstantKeysAreBuiltByTheCode) {
  auto code = FlatOf(R"({name: .metadata.name, replicas: (.spec.replicas // 1), ready: (.status.ready > 0)})");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 0u);
  ASSERT_EQ(Count(*code, view::FlatOp::kObject), 1u);
  EXPECT_EQ(code->operands.size(), 6u);  // key, value register, for each of the three members
  EXPECT_TRUE(code->builds_objects);
  // Exec's most steps: one per instruction, and the object's test and members.
  EXPECT_EQ(code->straight_steps, code->code.size() + 1 + 3);
  for (const view::FlatInstr& i : code->code) {
    if (i.op == view::FlatOp::kObject) {
      EXPECT_EQ(i.b, view::kNoConst);  // no member test
    }
  }
  // The catalog's resources shape: every object of it is the code's, two with a member test.
  code = FlatOf(R"(.spec.services | to_entries[] | .value | (.resources // {}) | {requests: ({cpu: .requests.cpu,
                   memory: .requests.memory} | with_entries(select(.value != null))), limits: ({cpu: .limits.cpu}
                   | with_entries(select(.value != null)))})");
  ASSERT_NE(code, nullptr);
  EXPECT_NE(code->each_iteration, 0u);
  EXPECT_EQ(code->tree_nodes, 0u);
  size_t tested = 0;
  for (const view::FlatInstr& i : code->code) {
    if (i.op != view::FlatOp::kObject || i.b == view::kNoConst) continue;
    ++tested;
    EXPECT_EQ(i.cmp, static_cast<uint8_t>(ir::BinaryOp::Ne));
  }
  EXPECT_EQ(tested, 2u);
  EXPECT_EQ(Count(*code, view::FlatOp::kObject), 3u);
  // A repeated key (the last value stays, at the first key's place) or a computed key: the tree's.
  EXPECT_EQ(FlatOf(R"({a: .x, b: .y, a: .z})"), nullptr);  // one kTree
  code = FlatOf(R"(if .k then {(.k): .v} else 0 end)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(Count(*code, view::FlatOp::kObject), 0u);
  EXPECT_EQ(code->tree_nodes, 1u);
  // The member test on an object the tree builds (a repeated key): the tree's in-place filter.
  code = FlatOf(R"(if .k then ({a: .x, a: .y} | with_entries(select(.value != null))) else 0 end)");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(Count(*code, view::FlatOp::kObject), 0u);
}

const std::vector<std::string> kObjectResolvers = {
    R"({name: .metadata.name, replicas: (.spec.replicas // 1), ready: (.status.ready > 0)})",
    R"({a: .spec.a, b: .spec.b, c: .spec.c} | with_entries(select(.value != null)))",
    R"({a: .spec.a, b: .spec.b, c: .spec.c} | with_entries(select(.value == "x")))",
    R"({a: .spec.a, b: .spec.b, c: .spec.c} | with_entries(select(.value > 1)))",
    R"({outer: ({a: .spec.a, b: .spec.b} | with_entries(select(.value != null))), same: .spec, n: 1})",
    R"({a: .spec.a} | .a)",
    R"(if .spec.a then {x: .spec.a, y: {z: .spec.b}} else {x: 0} end)",
    R"(.spec.list[]? | {name: .name, v: (.v // "none")} | with_entries(select(.value != null)))",
    R"(.spec.list[]? | {spec: .spec.a, name: .name})",
    R"({a: .spec.a, b: .spec.b} | with_entries(select(.value != null)) | length)",
    R"({a: .spec.a, b: .spec.a.deep})",
};
const std::vector<std::string> kObjectDocs = {
    R"({})",
    R"({"metadata":{"name":"n"},"spec":{"replicas":3,"a":"x","b":null,"c":2,"list":[{"name":"p","v":1},{"name":null},{}]},"status":{"ready":1}})",
    R"({"spec":{"a":null,"b":false,"c":"x","list":[{"name":"q","v":null}]},"status":{"ready":0}})",
    R"({"spec":{"a":[1,2],"b":{"k":"v"},"c":0.5,"list":["text"]},"status":null})",
    R"({"spec":{"a":{"deep":true},"b":"x","c":"x","list":null}})",
    R"({"spec":{"a":"s","list":{"k":{"name":"v"}}},"metadata":7})",
    R"({"spec":{"a":0,"b":[],"c":{},"d":true}})",
    R"({"spec":"text"})",
    R"([1,2])",
};

TEST(ViewFlatCodeTest, ObjectsBuiltByTheCodeAgreeWithTheInterpreter) {
  uint64_t flat_runs = 0;
  const uint64_t answered = ExpectAgree(kObjectResolvers, kObjectDocs, &flat_runs);
  // Together, the object the three member tests share is a memo slot, filtered by the tree.
  EXPECT_GT(flat_runs, answered / 2);
  EXPECT_LE(flat_runs, answered);
  // Alone, every resolver but the one whose filter is not the end of its pipe (`| length`)
  // runs as flat code on every document it answers, or (an object of root paths) is built
  // without the evaluator.
  for (const std::string& expr : kObjectResolvers) {
    uint64_t alone_flat = 0, alone_objects = 0;
    const uint64_t alone = ExpectAgree({expr}, kObjectDocs, &alone_flat, &alone_objects);
    EXPECT_GT(alone, 0u) << expr;
    if (expr.find("length") == std::string::npos) {
      EXPECT_EQ(alone_flat + alone_objects, alone) << expr;
    }
    EXPECT_EQ(alone_objects > 0, expr == R"({a: .spec.a, b: .spec.a.deep})") << expr;
  }
}

// A member test against null reads only whether each value is null: each comparison keeps the
// null members (==, <=), the others (!=, >), all (>=) or none (<), each resolver alone and so
// as flat code, on members of every type.
TEST(ViewFlatCodeTest, MemberTestsAgainstNullKeepWhatTheComparisonSays) {
  for (const char* op : {"==", "!=", "<", "<=", ">", ">="}) {
    const std::string expr =
        std::string(R"({a: .spec.a, b: .spec.b, c: .spec.c, d: .spec.d} | with_entries(select(.value )") + op +
        " null))";
    uint64_t flat_runs = 0;
    const uint64_t answered = ExpectAgree({expr}, kObjectDocs, &flat_runs);
    EXPECT_EQ(flat_runs, answered) << expr;
    EXPECT_GT(answered, 0u) << expr;
  }
}

// Iterations of arrays and objects (through to_entries), their elements of every type (a node
// below a string element is an error, which the regular engine words), `.[]?` on what cannot be
// iterated, bodies reading paths below the element and from the root, with `//` constants, and
// the catalog's generator resolvers (dynamo's replicas product and resources).
const std::vector<std::string> kEachResolvers = {
    ".spec.services | to_entries[] | .value | (.replicas // 1) * (.multinode.nodeCount // 1)",
    ".spec.services | to_entries[] | .value | .replicas // \"none\"",
    ".spec.services | to_entries[] | .value | .kind == \"worker\"",
    ".spec.services | to_entries[] | .value | if .kind == \"worker\" then .replicas else (.spec.mode // \"none\") end",
    ".spec.list[]? | .name // \"anon\"",
    ".spec.list[] | (.x.y // 0) > 1 and .name != null",
    ".spec.list[] | {n: .name, r: (.replicas // 1)}",
    ".spec.list[] | .name",
    ".spec.list[] | (.replicas // 1) - (.x.y // 0)",
    ".spec.list[] | ((.replicas // 1) / 2) % 3",
    ".spec.list[] | (.name // \"n\") + \"-x\"",
    ".spec.services | to_entries[] | .value | if ((.extra.main.resources.limits // {}) + "
    "(.extra.main.resources.requests // {})) != {} then .extra.main.resources else (.resources // {}) | "
    "{requests: ({cpu: .requests.cpu, gpu: .requests.gpu} | with_entries(select(.value != null)))} end",
};
const std::vector<std::string> kEachDocs = {
    R"({"spec":{"mode":"m","services":{"a":{"replicas":3,"multinode":{"nodeCount":2},"kind":"worker"},"b":{"resources":{"requests":{"cpu":"1"}}},"c":{"extra":{"main":{"resources":{"limits":{"gpu":"1"}}}}}},"list":[{"name":"x","x":{"y":2}},{"replicas":4},{}]}})",
    R"({"spec":{"services":{"a":{"replicas":null,"multinode":{"nodeCount":null}},"b":{}},"list":[{"name":null,"x":{"y":null}}]}})",
    R"({"spec":{"services":{},"list":[]}})",
    R"({"spec":{"services":{"a":{"multinode":5}},"list":[{"x":"s"}]}})",
    R"({"spec":{"services":{"a":"text"},"list":["text",{"name":"n"}]}})",
    R"({"spec":{"services":{"a":{"replicas":"3"}},"list":null}})",
    R"({"spec":{"services":{"a":{"replicas":2},"a":{"replicas":5}},"list":7}})",
    R"({"spec":{"services":null}})",
    R"({"spec":{"services":[{"replicas":2}],"list":{"k":{"name":"v"}}}})",
};

TEST(ViewFlatCodeTest, EachElementsCodeAgreesWithTheInterpreter) {
  uint64_t flat_runs = 0;
  const uint64_t answered = ExpectAgree(kEachResolvers, kEachDocs, &flat_runs);
  EXPECT_GT(flat_runs, kEachResolvers.size() * kEachDocs.size() / 2);
  EXPECT_LE(flat_runs, answered);
  for (const std::string& expr : kEachResolvers) ExpectAgree({expr}, kEachDocs);
}

TEST(ViewFlatCodeTest, EachElementsCodeKeepsTheLimits) {
  const std::string expr = ".[] | . + 1";
  const std::shared_ptr<const ir::Program> program = Lowered(expr);
  view::FusedKind kind({program});
  view::FusedRunner runner(kind);
  JsonError error;
  RunOptions two;
  two.limits.max_outputs = 2;  // the third output is the engine's error
  ASSERT_TRUE(runner.Run("[1,2,3]", two, &error));
  EXPECT_EQ(Describe(runner.result(0)), Interpret(*program, "[1,2,3]", false, two));
  EXPECT_FALSE(runner.result(0).fused);
  ASSERT_TRUE(runner.Run("[1]", two, &error));
  EXPECT_TRUE(runner.result(0).fused);
  EXPECT_EQ(runner.stats().flat_runs, 1u);
  RunOptions tight;
  tight.limits.fuel = 20;
  std::string big = "[";
  for (int i = 0; i < 100; ++i) big += (i ? "," : "") + std::to_string(i);
  big += "]";
  ASSERT_TRUE(runner.Run(big, tight, &error));
  EXPECT_FALSE(runner.result(0).fused);
  EXPECT_NE(Describe(runner.result(0)).find("evaluation step budget exhausted (fuel 20)"), std::string::npos);
}

}  // namespace
// Tests against the empty object and additions with an empty side, which the code answers
// without the tree (`x != {}` reads only x's kind and size; `{} + b` is b itself): every type on
// either side, empty arrays (not equal to {}), objects built by the code, a repeated key.
TEST(ViewFlatCodeTest, TheEmptyObjectComparesAndAddsExactly) {
  const std::vector<std::string> exprs = {
      ".a != {}", ".a == {}", "(.a // {}) + (.b // {}) != {}", ".a + .b", ".b + .a",
      "({x: .a} | with_entries(select(.value != null))) == {}", "{x: .a} + (.b // {})", "(.a + .b) == {}",
      "(.a + .b) != {}", "({x: .a} | with_entries(select(.value != null))) + (.b // {}) != {}"};
  const std::vector<std::string> docs = {
      R"({"a":{}})", R"({"a":[]})", R"({"a":{"x":1}})", R"({"a":null})", R"({"a":"s"})", R"({"a":0})", R"({})",
      R"({"a":{},"b":{"y":2}})", R"({"a":{"x":1},"b":{}})", R"({"a":[],"b":{}})", R"({"a":{"k":1,"k":2},"b":{}})",
      R"({"a":[1],"b":[]})", R"({"a":{},"b":{}})", R"({"a":{"z":1,"b":2},"b":{"b":3}})", R"({"b":{}})",
      R"({"b":{"y":1}})", R"({"a":1,"b":2})", R"({"a":"","b":""})", R"({"a":{},"b":0})", R"({"a":{},"b":[]})",
      R"({"a":null,"b":"s"})", R"({"a":[],"b":[]})", R"({"a":{"x":null}})"};
  uint64_t flat_runs = 0;
  ExpectAgree(exprs, docs, &flat_runs);
  EXPECT_GT(flat_runs, 0u);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
  // A sum compared with {} is one instruction that builds no merged object.
  for (const char* expr : {"(.a // {}) + (.b // {}) != {}", "(.a + .b) == {}"}) {
    auto code = FlatOf(expr);
    ASSERT_NE(code, nullptr) << expr;
    EXPECT_EQ(Count(*code, view::FlatOp::kSumIsEmpty), 1u) << expr;
    EXPECT_EQ(Count(*code, view::FlatOp::kArith), 0u) << expr;
  }
  // Other comparisons of a sum, and sums compared with other constants, compute the sum.
  for (const char* expr : {"(.a + .b) == {\"x\": 1}", "(.a + .b) < {}", "(.a - .b) == {}"}) {
    auto code = FlatOf(expr);
    ASSERT_NE(code, nullptr) << expr;
    EXPECT_EQ(Count(*code, view::FlatOp::kSumIsEmpty), 0u) << expr;
  }
}

}  // namespace wm::testing

namespace wm::testing {
// String `+` is built from both sides' bytes where they are (the document's strings, constants,
// a string an earlier `+` built): every pairing of those, empty strings, escapes and multibyte
// characters, a null side (the other side itself), and a side that is not a string (the
// interpreter's error, or the sum of two numbers).
TEST(ViewFlatCodeTest, StringsAddFromBothSidesBytes) {
  const std::vector<std::string> exprs = {
      R"(.a + ":" + .b)", R"(.a + .b)", R"("<" + .a)", R"(.a + "")", R"((.a + .b) + (.b + .a))",
      R"(.a + .a + .a + .a)", R"([.x[] | . + "-"])", R"(.x[] + .a)"};
  const std::vector<std::string> docs = {
      R"({"a":"repo","b":"tag"})", R"({"a":"","b":""})", R"({"a":"\u00e9\n\"q\"","b":"\ud83d\ude00"})",
      R"({"a":"x"})", R"({"b":"y"})", R"({"a":1,"b":"y"})", R"({"a":"x","b":[1]})", R"({"a":1,"b":2})",
      R"({"a":"s","x":["p","q",""]})", R"({"a":"s","x":["p",3]})",
      R"({"a":"a string long enough to leave any small-string buffer behind, twice over","b":"!"})"};
  uint64_t flat_runs = 0;
  ExpectAgree(exprs, docs, &flat_runs);
  EXPECT_GT(flat_runs, 0u);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
}
// Numbers of each of simdjson's tape types (int64, uint64 past int64's range, double) read by
// arithmetic and comparisons, per element and at the root, as the interpreter reads them.
TEST(ViewFlatCodeTest, NumbersOfEveryTapeTypeReadAsTheInterpreter) {
  const std::vector<std::string> exprs = {".a * 2", ".a + .b", ".a - 1 < .b", ".x[] | (.r // 1) * (.n // 1)",
                                          "(.a // 0) > 9007199254740992"};
  const std::vector<std::string> docs = {
      R"({"a":3,"b":-4})", R"({"a":18446744073709551615,"b":9223372036854775807})",
      R"({"a":-9223372036854775808,"b":0.5})", R"({"a":1.5e308,"b":-2.25e-308})", R"({"a":0.0,"b":-0.0})",
      R"({"x":[{"r":2,"n":3},{"r":18446744073709551614},{"n":1e3},{}]})", R"({"a":9007199254740993})"};
  ExpectAgree(exprs, docs);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
}
// `type == "name"` and `!=` in conditions (kserve's `select(type == "object" and .storageUri)`)
// compare the input's kind by name: every JSON type against every name jq gives, and a name no
// type has, alone, in `and` / `or`, and in a select over an object's values and an array's.
TEST(ViewFlatCodeTest, TypeTestsCompareTheKindsName) {
  std::vector<std::string> exprs;
  for (const char* name : {"null", "boolean", "number", "string", "array", "object", "bool"}) {
    exprs.push_back(std::string("[.v[] | select(type == \"") + name + "\")]");
    exprs.push_back(std::string("[.v[] | select(type != \"") + name + "\" and . != null)]");
  }
  exprs.push_back(R"([.m | .[]? | select(type == "object" and .uri)] | first)");
  exprs.push_back(R"(.v | map(type == "array" or type == "object"))");
  const std::vector<std::string> docs = {
      R"({"v":[null,true,false,0,-1.5,"s","",[],[1],{},{"a":1}],"m":{"a":1,"b":{"uri":"x"},"c":{"uri":"y"}}})",
      R"({"v":[],"m":{"a":{"uri":null},"b":[{"uri":1}]}})", R"({"v":[{"k":null}],"m":[{"uri":2},3]})",
      R"({"v":[1],"m":"text"})"};
  ExpectAgree(exprs, docs);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
}

// `E as $x | body` with E single: E's code sets the variable once, before body's code (a single
// body, or `.a[] | f` per element). The catalog's shapes (raycronjob's `$own`, grove's `$sets`,
// kueue's `$c`) against the interpreter: E failing (an error before any output, even with no
// element to iterate), E a built value, a variable read several times, a shadowing inner binding
// (left to the tree), and the output and step limits.
TEST(ViewFlatCodeTest, ABoundVariableIsSetOnceBeforeItsBody) {
  auto code = FlatOf("(.spec.replicas // 1) as $sets | .spec.cliques[] | $sets * (.spec.replicas // 1)");
  ASSERT_NE(code, nullptr);
  EXPECT_NE(code->each_iteration, 0u);
  EXPECT_NE(code->bind_slot, view::FlatCode::kNoSlot);
  EXPECT_GT(code->bind_entry, 0u);
  EXPECT_EQ(code->code[code->bind_entry].op, view::FlatOp::kPathOrConst);  // E's code, after the body's
  EXPECT_EQ(code->code.back().op, view::FlatOp::kReturn);
  EXPECT_EQ(Count(*code, view::FlatOp::kVar), 1u);  // $sets: a register at the slot, no tree node
  EXPECT_EQ(code->tree_nodes, 0u);
  code = FlatOf(R"((.status.conditions // []) as $c | ($c | any(.type == "A")) and ($c | any(.type == "B") | not))");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->each_iteration, 0u);
  EXPECT_NE(code->bind_slot, view::FlatCode::kNoSlot);
  EXPECT_EQ(Count(*code, view::FlatOp::kAnyAll), 2u);
  // Not flattened: E with several outputs, and a body that is neither single nor `.a[] | f`.
  EXPECT_EQ(FlatOf(".spec.list[] as $x | $x.name"), nullptr);
  EXPECT_EQ(FlatOf(".spec.a as $x | .spec.list[] | .ports[] | $x"), nullptr);
  // An inner binding of the same variable runs in a kTree, which restores the outer value.
  code = FlatOf(".spec.slices as $x | [.spec.roles as $x | $x] + [$x]");
  ASSERT_NE(code, nullptr);
  EXPECT_EQ(code->tree_nodes, 2u);

  const std::vector<std::string> exprs = {
      R"(((.spec.jobTemplate.clusterSelector // {}) == {} and ((.spec.jobTemplate.suspend // false) | not)) as $own | .spec.jobTemplate.rayClusterSpec.workerGroupSpecs[] | if ($own | not) or .suspend then 0 else (.replicas // 0) * (.numOfHosts // 1) end)",
      R"(.spec.jobTemplate.rayClusterSpec.enableInTreeAutoscaling as $autoscaling | .spec.jobTemplate.rayClusterSpec.workerGroupSpecs[] | if $autoscaling then (.minReplicas // 0) * (.numOfHosts // 1) else null end)",
      R"((.spec.slices // 1) as $slices | .spec.roles[]? | $slices * (.spec.replicas // 1))",
      R"((.status.conditions // []) as $c | ($c | any(.type == "Admitted" and .status == "True")) and ($c | any(.type == "Finished" and .status == "True") | not))",
      R"((.spec.slices + 1) as $n | .spec.roles[] | $n)",
      R"({a: .spec.slices, b: .spec.jobTemplate} as $o | .spec.roles[]? | [$o.a, $o, .spec.replicas])",
      R"(.spec.slices as $s | $s + $s * 2)",
      R"(.spec.slices as $s | .spec.roles[]? | .spec.replicas as $r | $s + $r)",
      R"(.spec.slices as $x | [.spec.roles as $x | $x] + [$x])",
  };
  const std::vector<std::string> docs = {
      R"({})",
      R"({"spec": {"slices": 2, "roles": [{"spec": {"replicas": 3}}, {"spec": {}}, {"spec": null}],
          "jobTemplate": {"suspend": false, "rayClusterSpec": {"enableInTreeAutoscaling": true,
            "workerGroupSpecs": [{"replicas": 2, "numOfHosts": 2, "minReplicas": 1}, {"suspend": true, "replicas": 5}]}}},
          "status": {"conditions": [{"type": "Admitted", "status": "True"}, {"type": "Finished", "status": "False"}]}})",
      R"({"spec": {"slices": "x", "roles": [], "jobTemplate": {"clusterSelector": {"a": "b"},
          "rayClusterSpec": {"workerGroupSpecs": [{"replicas": "2"}]}}}, "status": {"conditions": {"a": 1}}})",
      R"({"spec": {"slices": null, "roles": {"r": {"spec": {"replicas": 1}}}, "jobTemplate": {"suspend": true,
          "rayClusterSpec": {"enableInTreeAutoscaling": false, "workerGroupSpecs": []}}}, "status": {"conditions": []}})",
      R"({"spec": {"slices": {"k": 1}, "roles": [{"spec": {"replicas": 1}}], "jobTemplate": 5}, "status": {"conditions": "x"}})",
  };
  uint64_t flat_runs = 0;
  const uint64_t answered = ExpectAgree(exprs, docs, &flat_runs);
  EXPECT_GT(flat_runs, exprs.size() * docs.size() / 2);
  EXPECT_LE(flat_runs, answered);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
  // The limits: an output cap the body reaches, and a step budget E's code alone exhausts.
  const std::shared_ptr<const ir::Program> program = Lowered(".spec.slices as $n | .spec.roles[] | $n");
  view::FusedKind kind({program});
  view::FusedRunner runner(kind);
  JsonError error;
  RunOptions two;
  two.limits.max_outputs = 2;
  const std::string three = R"({"spec": {"slices": 1, "roles": [1, 2, 3]}})";
  ASSERT_TRUE(runner.Run(three, two, &error));
  EXPECT_EQ(Describe(runner.result(0)), Interpret(*program, three, false, two));
  EXPECT_FALSE(runner.result(0).fused);
  RunOptions one_step;
  one_step.limits.fuel = 1;
  ASSERT_TRUE(runner.Run(three, one_step, &error));
  EXPECT_EQ(Describe(runner.result(0)), Interpret(*program, three, false, one_step));
}

}  // namespace wm::testing
