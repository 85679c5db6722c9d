// Tests of the jq safety policy: each default item is reported as an error at its token with its
// rule id, upstream's items with upstream's reason and regardless of local definitions (as
// upstream's validator judges them), wmc's own items not when shadowed; allowed items are not
// reported, and the positions go through the source map.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/jq/parser.h"
#include "compiler/jq/policy.h"

namespace wm::jq {
namespace {

// "RULE col len" for each finding.
std::vector<std::string> PolicyFindings(std::string_view text, const Policy& policy = Policy::Default()) {
  ParseResult r = Parse(text);
  EXPECT_TRUE(r.ok()) << text;
  if (!r.ok()) return {"parse error"};
  std::vector<std::string> out;
  for (const Diagnostic& d : CheckPolicy(*r.ast, policy, SourceMap())) {
    out.push_back(d.rule + " " + std::to_string(d.location.column) + " " + std::to_string(d.length));
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(JqPolicyTest, PlainPathsAreClean) {
  EXPECT_EQ(PolicyFindings(".spec.replicatedJobs[] | {name, replicas: (.replicas // 1)}"), Strings{});
  EXPECT_EQ(PolicyFindings("[.status.conditions[]? | select(.type == \"Ready\")] | length > 0"), Strings{});
}

TEST(JqPolicyTest, EachItemPointsAtItsToken) {
  EXPECT_EQ(PolicyFindings("del(.a)"), Strings{"WM120 1 3"});
  EXPECT_EQ(PolicyFindings("[range(5)]"), Strings{"WM121 2 5"});
  EXPECT_EQ(PolicyFindings("[paths]"), Strings{"WM122 2 5"});
  EXPECT_EQ(PolicyFindings("recurse(.a[])"), Strings{"WM123 1 7"});
  EXPECT_EQ(PolicyFindings("walk(.)"), Strings{"WM124 1 4"});
  EXPECT_EQ(PolicyFindings("repeat(.)"), Strings{"WM125 1 6"});
  EXPECT_EQ(PolicyFindings(".a | .."), Strings{"WM126 6 2"});
  EXPECT_EQ(PolicyFindings(".a |= 1"), Strings{"WM127 4 2"});
  EXPECT_EQ(PolicyFindings(".a //= 1, .b = 2"), (Strings{"WM127 4 3", "WM127 14 1"}));
  EXPECT_EQ(PolicyFindings("input"), Strings{"WM128 1 5"});
  EXPECT_EQ(PolicyFindings("[inputs]"), Strings{"WM129 2 6"});
  EXPECT_EQ(PolicyFindings("debug"), Strings{"WM130 1 5"});
  EXPECT_EQ(PolicyFindings("stderr"), Strings{"WM131 1 6"});
  EXPECT_EQ(PolicyFindings("input_filename"), Strings{"WM132 1 14"});
  EXPECT_EQ(PolicyFindings("$ENV.HOME"), Strings{"WM133 1 4"});
  EXPECT_EQ(PolicyFindings("env.HOME"), Strings{"WM134 1 3"});
  EXPECT_EQ(PolicyFindings("halt"), Strings{"WM135 1 4"});
  EXPECT_EQ(PolicyFindings("halt_error(1)"), Strings{"WM136 1 10"});
  EXPECT_EQ(PolicyFindings("import \"a\" as a; 1"), Strings{"WM137 1 6"});
  EXPECT_EQ(PolicyFindings("include \"a\"; 1"), Strings{"WM138 1 7"});
  EXPECT_EQ(PolicyFindings(".status.startTime | fromdate < now"), Strings{"WM139 32 3"});
  EXPECT_EQ(PolicyFindings("0 | localtime"), Strings{"WM140 5 9"});
  EXPECT_EQ(PolicyFindings("0 | strflocaltime(\"%H\")"), Strings{"WM141 5 13"});
  // The pure time builtins stay allowed: their result depends on the input only.
  EXPECT_EQ(PolicyFindings("0 | gmtime | mktime | todate"), Strings{});
  EXPECT_EQ(PolicyFindings("\"\\(input)\""), Strings{"WM128 4 5"});
}

TEST(JqPolicyTest, SeveritiesAndMessages) {
  ParseResult r = Parse("del(.a), input");
  ASSERT_TRUE(r.ok());
  auto found = CheckPolicy(*r.ast, Policy::Default(), SourceMap::Contiguous(Location{"d.yaml", 4, 10}, 14));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].severity, Severity::Error);
  EXPECT_EQ(found[1].severity, Severity::Error);
  EXPECT_EQ(found[1].location.file, "d.yaml");
  EXPECT_EQ(found[1].location.line, 4u);
  EXPECT_EQ(found[1].location.column, 19u);
  EXPECT_NE(found[1].message.find("`input`"), std::string::npos);
  ASSERT_EQ(found[1].notes.size(), 1u);
  EXPECT_NE(found[1].notes[0].find("--allow input"), std::string::npos);
}

TEST(JqPolicyTest, UpstreamItemsQuoteUpstreamsReason) {
  ParseResult r = Parse("[range(3)], del(.a), [..], (.a |= 1), (.b //= 2)");
  ASSERT_TRUE(r.ok());
  auto found = CheckPolicy(*r.ast, Policy::Default(), SourceMap());
  ASSERT_EQ(found.size(), 5u);
  EXPECT_EQ(found[0].message,
            "`range` is refused by the upstream Workload Map admission (function 'range' may produce "
            "excessive output and is not allowed); allow it with --allow range if only wmc reads this "
            "definition");
  EXPECT_NE(found[1].message.find("(del function is not allowed)"), std::string::npos);
  EXPECT_NE(found[2].message.find("(recursive descent operator '..' is not allowed)"), std::string::npos);
  EXPECT_NE(found[3].message.find("(modifying operator '|=' is not allowed)"), std::string::npos);
  EXPECT_NE(found[4].message.find("(modifying operator '//=' is not allowed)"), std::string::npos);
  EXPECT_NE(found[4].message.find("--allow assign"), std::string::npos);
}

TEST(JqPolicyTest, UpstreamItemsAreRefusedAnywhere) {
  EXPECT_EQ(PolicyFindings("def f: range(2); [f]"), Strings{"WM121 8 5"});
  EXPECT_EQ(PolicyFindings("\"\\([paths])\""), Strings{"WM122 5 5"});
  EXPECT_EQ(PolicyFindings("if . then walk(.) else 1 end"), Strings{"WM124 11 4"});
  EXPECT_EQ(PolicyFindings("reduce .[] as $x (0; . + ($x | del(.a)))"), Strings{"WM120 32 3"});
  EXPECT_EQ(PolicyFindings("{a: [.[] | repeat(.)]}"), Strings{"WM125 12 6"});
  EXPECT_EQ(PolicyFindings("try (.a = 1) catch 0"), Strings{"WM127 9 1"});
}

TEST(JqPolicyTest, FindsItemsByNameOrRule) {
  Policy policy = Policy::Default();
  ASSERT_NE(policy.Find("range"), nullptr);
  EXPECT_EQ(policy.Find("range")->rule, "WM121");
  ASSERT_NE(policy.Find("WM133"), nullptr);
  EXPECT_EQ(policy.Find("WM133")->name, "$ENV");
  EXPECT_EQ(policy.Find("rnage"), nullptr);
  EXPECT_TRUE(policy.Find("del")->upstream);
  EXPECT_FALSE(policy.Find("input")->upstream);
}

TEST(JqPolicyTest, CallersCanAllowItems) {
  Policy policy = Policy::Default();
  policy.Allow("range");
  policy.Allow("WM127");
  EXPECT_EQ(PolicyFindings("[range(3)] | .[0] = 1 | del(.[1])", policy), Strings{"WM120 25 3"});
}

// Upstream's validator matches names on the syntax tree: a local definition does not hide them.
TEST(JqPolicyTest, LocalDefinitionsDoNotHideUpstreamItems) {
  EXPECT_EQ(PolicyFindings("def range: 1; range"), Strings{"WM121 15 5"});
  EXPECT_EQ(PolicyFindings("def f(walk): walk; f(.)"), Strings{"WM124 14 4"});
  EXPECT_EQ(PolicyFindings("(def range: 1; range), range(2)"), (Strings{"WM121 16 5", "WM121 24 5"}));
}

TEST(JqPolicyTest, LocalDefinitionsShadowWmcItems) {
  EXPECT_EQ(PolicyFindings("def input: 1; input"), Strings{});
  EXPECT_EQ(PolicyFindings("def f(input): input; f(.)"), Strings{});
  EXPECT_EQ(PolicyFindings("def f($env): $env; f(1)"), Strings{});
  EXPECT_EQ(PolicyFindings("{} as $ENV | $ENV"), Strings{});
  EXPECT_EQ(PolicyFindings("(def debug: 1; debug), debug"), Strings{"WM130 24 5"});
  EXPECT_EQ(PolicyFindings("reduce .[] as $x (0; . + $x)"), Strings{});
  EXPECT_EQ(PolicyFindings(". as {(input): $v} | $v"), Strings{"WM128 8 5"});
}

}  // namespace
}  // namespace wm::jq
