// Resolvers the view engine does not fuse whole but splits (runtime/eval/view, FusedKind's split):
// the longest head of the pipe chain runs on the DOM, the tail on the interpreter over each of
// the head's outputs. Every result, error and limit must be the interpreter's on the whole
// program; a head shared by several resolvers is converted once per object.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/eval/view/view.h"
#include "runtime/value/json.h"
#include "tests/unit/view/view_test_util.h"

namespace wm::testing {
namespace {

const std::vector<std::string> kSplitDocs = {
    R"({"a":"12","b":[1,2,3],"spec":{"services":{"x":{"replicas":2},"w":{"replicas":null}}}})",
    R"({"a":"x","b":[4],"spec":{"services":{}}})",
    R"({"a":null,"b":{"k":5},"spec":{"services":[1]}})",
    R"({"b":"str","spec":null})",
    R"([1,2])",
};

// Each program is split (not fused whole), and agrees with the interpreter on every document in
// both key orders; returns the split runs of the last pass.
uint64_t ExpectSplitAgrees(const std::vector<std::string>& exprs, const RunOptions& options = {}) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  uint64_t split_runs = 0;
  for (bool sorted : {false, true}) {
    view::FusedKind kind(programs, Options(sorted, false));
    for (size_t i = 0; i < exprs.size(); ++i) {
      EXPECT_FALSE(kind.fused(i)) << exprs[i];
      EXPECT_TRUE(kind.split(i)) << exprs[i];
    }
    view::FusedRunner runner(kind);
    for (const std::string& doc : kSplitDocs) {
      JsonError error;
      EXPECT_TRUE(runner.Run(doc, options, &error)) << doc;
      for (size_t i = 0; i < exprs.size(); ++i) {
        EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, sorted, options))
            << exprs[i] << " on " << doc << " (sorted " << sorted << ")";
      }
    }
    split_runs = runner.stats().split_runs;
  }
  return split_runs;
}

TEST(ViewSplitTest, HeadOnTheDomTailOnTheInterpreter) {
  uint64_t split_runs = ExpectSplitAgrees({
      ".a | test(\"1\")",                                  // errors on null
      ".a // \"7\" | ascii_upcase | test(\"X\") | not",   // the head grows while it fuses
      ".spec.services | with_entries(.value |= 1) | keys",  // object, empty, array, null inputs
      ".spec.services | to_entries[] | .key | ltrimstr(\"x\")",
      ".b | map(ltrimstr(\"x\"))",                       // errors on objects
      ".b[] | ltrimstr(\"s\")",                          // a head with several outputs
      ".b | with_entries(.value |= 1)",
  });
  EXPECT_GT(split_runs, 0u);
}

TEST(ViewSplitTest, OnlyAPipeAtTheRootIsSplit) {
  // A variable bound around the pipe, or no pipe at all: the whole program falls back.
  std::vector<std::shared_ptr<const ir::Program>> programs = {Lowered(".a as $x | $x | test(\"1\")"),
                                                              Lowered("test(\"1\")"), Lowered(".a")};
  view::FusedKind kind(programs);
  EXPECT_FALSE(kind.split(0));
  EXPECT_FALSE(kind.split(1));
  EXPECT_TRUE(kind.fused(2));
  EXPECT_FALSE(kind.split(2));
}

TEST(ViewSplitTest, ResultCapCountsEveryTailRunAsOneEvaluation) {
  RunOptions options;
  for (uint64_t cap : {1, 2, 3, 4}) {
    options.limits.max_outputs = cap;
    ExpectSplitAgrees({".b[] | ltrimstr(\"x\") | (., .)", ".b | .[] | tojson | ltrimstr(\"x\") | (., ., .)",
                       ".spec.services | to_entries[] | .key | ltrimstr(\"x\")"},
                      options);
  }
}

TEST(ViewSplitTest, ASharedHeadIsConvertedOncePerObject) {
  // Twelve resolvers over one head: the interpreter's answers; on the documents where the head
  // does not fail (all but the array, where `.spec` is an error) every run is split, and the
  // head's one output is converted once per object, not once per resolver.
  std::vector<std::string> exprs;
  for (int i = 0; i < 12; ++i) {
    exprs.push_back(".spec.services | with_entries(.value.replicas //= " + std::to_string(i) + ")");
  }
  const size_t heads_that_answer = kSplitDocs.size() - 1;
  EXPECT_EQ(ExpectSplitAgrees(exprs), exprs.size() * heads_that_answer);

  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  view::FusedKind kind(programs);
  view::FusedRunner runner(kind);
  JsonError error;
  for (const std::string& doc : kSplitDocs) EXPECT_TRUE(runner.Run(doc, {}, &error));
  // Three heads are sub-documents ({...}, {}, [1]); the null one is a scalar, not converted.
  EXPECT_EQ(runner.stats().split_conversions, 3u);
}

// Twelve resolvers fused whole, each applying a builtin to `.spec.services`; returns the
// conversions of sub-documents the runner made over kSplitDocs.
uint64_t SharedBuiltinConversions(const std::string& builtin_prefix) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  std::vector<std::string> exprs;
  for (int i = 0; i < 12; ++i) exprs.push_back(builtin_prefix + " // " + std::to_string(i));
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  view::FusedKind kind(programs);
  for (size_t i = 0; i < exprs.size(); ++i) EXPECT_TRUE(kind.fused(i)) << exprs[i];
  view::FusedRunner runner(kind);
  JsonError error;
  for (const std::string& doc : kSplitDocs) {
    EXPECT_TRUE(runner.Run(doc, {}, &error));
    for (size_t i = 0; i < exprs.size(); ++i) {
      EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, false)) << exprs[i] << " on " << doc;
    }
  }
  return runner.stats().split_conversions;
}

TEST(ViewSplitTest, BuiltinsOnASharedSubDocumentConvertItOncePerObject) {
  // `keys` runs on the converted input: one conversion of `.spec.services` per object where it is
  // an array or object ({...}, {} and [1]), not one per resolver.
  EXPECT_EQ(SharedBuiltinConversions(".spec.services | keys[0]"), 3u);
  // `to_entries` of an object builds entries that refer to the document: only the array converts.
  EXPECT_EQ(SharedBuiltinConversions(".spec.services | to_entries[] | .value.replicas"), 1u);
}

TEST(ViewSplitTest, LoweredStepOrTimeLimitsKeepTheRegularEngines) {
  EXPECT_TRUE(view::LimitsAllowView(EvalLimits{}));
  EvalLimits fewer_steps;
  fewer_steps.fuel = 100;
  EXPECT_FALSE(view::LimitsAllowView(fewer_steps));
  EvalLimits shorter;
  shorter.timeout_ms = 50;
  EXPECT_FALSE(view::LimitsAllowView(shorter));
  EvalLimits no_clock;
  no_clock.timeout_ms = 0;
  EXPECT_TRUE(view::LimitsAllowView(no_clock));
}

}  // namespace
}  // namespace wm::testing
