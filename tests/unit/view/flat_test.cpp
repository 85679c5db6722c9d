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

TEST(ViewFlatCodeTest, OnlySingleRootsThatGainAreFlattened) {
  EXPECT_EQ(FlatOf(".spec.items[]"), nullptr);                 // a generator
  EXPECT_EQ(FlatOf(".spec.a, .spec.b"), nullptr);               // two outputs
  EXPECT_EQ(FlatOf("{a: .spec.a}"), nullptr);                   // one tree node: the tree's own run
  auto code = FlatOf(R"(if .a == 1 then {b: .b} else [.c] end)");  // the branches stay the tree's
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

}  // namespace
}  // namespace wm::testing
