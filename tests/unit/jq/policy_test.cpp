// Tests of the jq safety policy: each default item is reported at its token with its rule id,
// allowed items and locally shadowed builtins are not, and the positions go through the source map.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/jq/parser.h"
#include "compiler/jq/policy.h"

namespace wm::jq {
namespace {

// "RULE col len" for each finding.
std::vector<std::string> Findings(std::string_view text, const Policy& policy = Policy::Default()) {
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
  EXPECT_EQ(Findings(".spec.replicatedJobs[] | {name, replicas: (.replicas // 1)}"), Strings{});
  EXPECT_EQ(Findings("[.status.conditions[]? | select(.type == \"Ready\")] | length > 0"), Strings{});
}

TEST(JqPolicyTest, EachItemPointsAtItsToken) {
  EXPECT_EQ(Findings("del(.a)"), Strings{"WM120 1 3"});
  EXPECT_EQ(Findings("[range(5)]"), Strings{"WM121 2 5"});
  EXPECT_EQ(Findings("[paths]"), Strings{"WM122 2 5"});
  EXPECT_EQ(Findings("recurse(.a[])"), Strings{"WM123 1 7"});
  EXPECT_EQ(Findings("walk(.)"), Strings{"WM124 1 4"});
  EXPECT_EQ(Findings("repeat(.)"), Strings{"WM125 1 6"});
  EXPECT_EQ(Findings(".a | .."), Strings{"WM126 6 2"});
  EXPECT_EQ(Findings(".a |= 1"), Strings{"WM127 4 2"});
  EXPECT_EQ(Findings(".a //= 1, .b = 2"), (Strings{"WM127 4 3", "WM127 14 1"}));
  EXPECT_EQ(Findings("input"), Strings{"WM128 1 5"});
  EXPECT_EQ(Findings("[inputs]"), Strings{"WM129 2 6"});
  EXPECT_EQ(Findings("debug"), Strings{"WM130 1 5"});
  EXPECT_EQ(Findings("stderr"), Strings{"WM131 1 6"});
  EXPECT_EQ(Findings("input_filename"), Strings{"WM132 1 14"});
  EXPECT_EQ(Findings("$ENV.HOME"), Strings{"WM133 1 4"});
  EXPECT_EQ(Findings("env.HOME"), Strings{"WM134 1 3"});
  EXPECT_EQ(Findings("halt"), Strings{"WM135 1 4"});
  EXPECT_EQ(Findings("halt_error(1)"), Strings{"WM136 1 10"});
  EXPECT_EQ(Findings("import \"a\" as a; 1"), Strings{"WM137 1 6"});
  EXPECT_EQ(Findings("include \"a\"; 1"), Strings{"WM138 1 7"});
  EXPECT_EQ(Findings("\"\\(input)\""), Strings{"WM128 4 5"});
}

TEST(JqPolicyTest, SeveritiesAndMessages) {
  ParseResult r = Parse("del(.a), input");
  ASSERT_TRUE(r.ok());
  auto found = CheckPolicy(*r.ast, Policy::Default(), SourceMap::Contiguous(Location{"d.yaml", 4, 10}, 14));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].severity, Severity::Warning);
  EXPECT_EQ(found[1].severity, Severity::Error);
  EXPECT_EQ(found[1].location.file, "d.yaml");
  EXPECT_EQ(found[1].location.line, 4u);
  EXPECT_EQ(found[1].location.column, 19u);
  EXPECT_NE(found[1].message.find("`input`"), std::string::npos);
  ASSERT_EQ(found[1].notes.size(), 1u);
  EXPECT_NE(found[1].notes[0].find("'input'"), std::string::npos);
}

TEST(JqPolicyTest, CallersCanAllowItems) {
  Policy policy = Policy::Default();
  policy.Allow("range");
  policy.Allow("WM127");
  EXPECT_EQ(Findings("[range(3)] | .[0] = 1 | del(.[1])", policy), Strings{"WM120 25 3"});
}

TEST(JqPolicyTest, LocalDefinitionsShadowBuiltins) {
  EXPECT_EQ(Findings("def range: 1; range"), Strings{});
  EXPECT_EQ(Findings("def f(input): input; f(.)"), Strings{});
  EXPECT_EQ(Findings("def f($env): $env; f(1)"), Strings{});
  EXPECT_EQ(Findings("{} as $ENV | $ENV"), Strings{});
  EXPECT_EQ(Findings("(def range: 1; range), range(2)"), Strings{"WM121 24 5"});
  EXPECT_EQ(Findings("reduce .[] as $x (0; . + $x)"), Strings{});
  EXPECT_EQ(Findings(". as {(input): $v} | $v"), Strings{"WM128 8 5"});
}

}  // namespace
}  // namespace wm::jq
