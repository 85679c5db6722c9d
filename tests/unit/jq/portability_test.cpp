// Tests of the gojq portability walk and the stream-alternative check: each rule fires at its
// construct (rule, column, length) and stays quiet on the portable spelling, user definitions
// shadow missing builtins, --target=jq and allowed rules silence it, fix-its rewrite the whole
// field, the regex scanner skips escapes and classes, and every rule is documented.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/jq/internal/regex_scan.h"
#include "compiler/jq/parser.h"
#include "compiler/jq/portability.h"

namespace wm::jq {
namespace {

using Strings = std::vector<std::string>;

std::vector<Diagnostic> Run(std::string_view text, const PortabilityOptions& options = {}) {
  ParseResult r = Parse(text);
  EXPECT_TRUE(r.ok()) << text;
  if (!r.ok()) return {};
  return CheckPortability(*r.ast, text, SourceMap(), options);
}

// "RULE col len" for each finding.
Strings PortabilityFindings(std::string_view text, const PortabilityOptions& options = {}) {
  Strings out;
  for (const Diagnostic& d : Run(text, options)) {
    out.push_back(d.rule + " " + std::to_string(d.location.column) + " " + std::to_string(d.length));
  }
  return out;
}

std::string FixIt(std::string_view text) {
  auto found = Run(text);
  return found.empty() ? "<none>" : found[0].fixit;
}

TEST(JqPortabilityTest, PortableResolversAreClean) {
  EXPECT_EQ(PortabilityFindings(".spec.replicatedJobs[] | (.replicas // 1)"), Strings{});
  EXPECT_EQ(PortabilityFindings("[.status.conditions[]? | select(.type == \"Ready\")] | length > 0"), Strings{});
  EXPECT_EQ(PortabilityFindings(".metadata.name | test(\"^worker-[0-9]+$\"; \"i\")"), Strings{});
  EXPECT_EQ(PortabilityFindings(".spec.x | keys | .[0]"), Strings{});
  EXPECT_EQ(PortabilityFindings("{a: 1, b: 2} | tojson"), Strings{});
  EXPECT_EQ(PortabilityFindings(".a[1.5], .a[0:2], 9007199254740992"), Strings{});
}

TEST(JqPortabilityTest, BuiltinsGojqLacks) {
  EXPECT_EQ(PortabilityFindings(".spec | keys_unsorted"), Strings{"WM300 9 13"});
  EXPECT_EQ(PortabilityFindings("$__loc__"), Strings{"WM301 1 8"});
  EXPECT_EQ(PortabilityFindings("input_line_number"), Strings{"WM302 1 17"});
  EXPECT_EQ(PortabilityFindings("get_search_list"), Strings{"WM303 1 15"});
  EXPECT_EQ(PortabilityFindings("get_prog_origin"), Strings{"WM304 1 15"});
  EXPECT_EQ(PortabilityFindings("get_jq_origin"), Strings{"WM305 1 13"});
  EXPECT_EQ(PortabilityFindings("[recurse_down]"), Strings{"WM306 2 12"});
  EXPECT_EQ(PortabilityFindings("\"x\" | @base32d"), Strings{"WM314 7 8"});
  EXPECT_EQ(PortabilityFindings("@base32 \"\\(.a)\""), Strings{"WM314 1 7"});
}

TEST(JqPortabilityTest, LocalDefinitionsShadowMissingBuiltins) {
  EXPECT_EQ(PortabilityFindings("def keys_unsorted: keys; keys_unsorted"), Strings{});
  EXPECT_EQ(PortabilityFindings("def f(get_jq_origin): get_jq_origin; f(.)"), Strings{});
  EXPECT_EQ(PortabilityFindings("1 as $ENV | $ENV"), Strings{});
}

TEST(JqPortabilityTest, SyntaxGojqRefuses) {
  EXPECT_EQ(PortabilityFindings("def true: 1; .a"), Strings{"WM307 5 4"});
  EXPECT_EQ(PortabilityFindings("[-1 as $x | 1, $x]"), Strings{"WM309 2 1"});
  EXPECT_EQ(PortabilityFindings("[(-1) as $x | 1, $x]"), Strings{});
}

TEST(JqPortabilityTest, NumbersAndIndexes) {
  EXPECT_EQ(PortabilityFindings(".a + 100000000000000000001"), Strings{"WM310 6 21"});
  EXPECT_EQ(PortabilityFindings(".a[-0.5]"), Strings{"WM311 4 4"});
  EXPECT_EQ(PortabilityFindings(".a[1:2.5]"), Strings{"WM311 6 3"});
  EXPECT_EQ(PortabilityFindings(".a[-1.5:]"), Strings{"WM311 4 4"});
  EXPECT_EQ(PortabilityFindings("\"abc\"[1]"), Strings{"WM312 1 8"});
}

TEST(JqPortabilityTest, StringFunctions) {
  EXPECT_EQ(PortabilityFindings(".name | index(\"-\")"), Strings{"WM313 9 5"});
  EXPECT_EQ(PortabilityFindings(".xs | index(1)"), Strings{});
  EXPECT_EQ(PortabilityFindings(".s | @base64d"), Strings{"WM315 6 8"});
  EXPECT_EQ(PortabilityFindings("$ENV.HOME, env.HOME"), (Strings{"WM316 1 4", "WM316 12 3"}));
  PortabilityOptions refused;
  refused.refused = {"$ENV"};
  EXPECT_EQ(PortabilityFindings("$ENV.HOME, env.HOME", refused), Strings{"WM316 12 3"});
  EXPECT_EQ(PortabilityFindings(".a | ltrimstr(1)"), Strings{"WM323 6 8"});
  EXPECT_EQ(PortabilityFindings(".a | ltrimstr(\"x\")"), Strings{});
}

TEST(JqPortabilityTest, RegularExpressions) {
  EXPECT_EQ(PortabilityFindings("test(\"(a)\\\\1\")"), Strings{"WM317 6 8"});
  EXPECT_EQ(PortabilityFindings("test(\"a(?=b)\")"), Strings{"WM318 6 8"});
  EXPECT_EQ(PortabilityFindings("sub(\"(?<!x)y\"; \"z\")"), Strings{"WM318 5 9"});
  EXPECT_EQ(PortabilityFindings("test(\"a++\")"), Strings{"WM319 6 5"});
  EXPECT_EQ(PortabilityFindings("test(\"\\\\h+\")"), Strings{"WM320 6 6"});
  EXPECT_EQ(PortabilityFindings("test(\"a b\"; \"x\")"), Strings{"WM321 13 3"});
  EXPECT_EQ(PortabilityFindings("gsub(\"a.b\"; \"c\"; \"gm\")"), Strings{"WM321 18 4"});
  EXPECT_EQ(PortabilityFindings("[scan(\"(?<n>a)\"; \"g\")]"), Strings{});
  EXPECT_EQ(PortabilityFindings("split(\", \")"), Strings{});
}

TEST(JqPortabilityTest, ObjectOrder) {
  EXPECT_EQ(PortabilityFindings("{b: 1, a: 2} | tojson"), Strings{"WM322 16 6"});
  EXPECT_EQ(PortabilityFindings(".x | {b: 1, a: 2} | tojson | length"), Strings{"WM322 21 6"});
  EXPECT_EQ(PortabilityFindings("{b: 1, a: 2} | .[]"), Strings{"WM322 16 3"});
  EXPECT_EQ(PortabilityFindings("{b: 1, a: 2}[]"), Strings{"WM322 1 14"});
  EXPECT_EQ(PortabilityFindings("{(.k): 1, a: 2} | to_entries"), Strings{"WM322 19 10"});
  // The workload's own objects reach gojq and wmc's runtime with sorted keys: no difference.
  EXPECT_EQ(PortabilityFindings(".spec.replicaSpecs | to_entries[] | .key"), Strings{});
  EXPECT_EQ(PortabilityFindings("{a: 1, b: 2} | to_entries"), Strings{});
}

TEST(JqPortabilityTest, TargetJqAndAllowedRulesAreQuiet) {
  PortabilityOptions jq;
  jq.target = Engine::kJq;
  EXPECT_EQ(PortabilityFindings("keys_unsorted, $__loc__", jq), Strings{});
  PortabilityOptions allowed;
  allowed.allowed = {"keys_unsorted", "WM301"};
  EXPECT_EQ(PortabilityFindings("keys_unsorted, $__loc__, input_line_number", allowed), Strings{"WM302 26 17"});
  Engine engine = Engine::kJq;
  EXPECT_TRUE(ParseEngine("gojq", &engine));
  EXPECT_EQ(engine, Engine::kGojq);
  EXPECT_FALSE(ParseEngine("jq1.6", &engine));
}

TEST(JqPortabilityTest, FixIts) {
  EXPECT_EQ(FixIt(".spec | keys_unsorted | .[0]"), ".spec | keys | .[0]");
  EXPECT_EQ(FixIt("{at: $__loc__}"), "{at: {\"file\": \"<top-level>\", \"line\": 1}}");
  EXPECT_EQ(FixIt("-1 as $x | $x"), "-(1 as $x | $x)");
}

std::vector<Diagnostic> Alternatives(std::string_view text) {
  ParseResult r = Parse(text);
  EXPECT_TRUE(r.ok()) << text;
  if (!r.ok()) return {};
  return CheckStreamAlternatives(*r.ast, text, SourceMap());
}

TEST(JqStreamAlternativeTest, FindsStreamsLeftOfTheAlternative) {
  auto found = Alternatives(".spec.replicatedJobs[].replicas // 1");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "WM330");
  EXPECT_EQ(found[0].severity, Severity::Warning);
  EXPECT_EQ(found[0].location.column, 33u);
  EXPECT_EQ(found[0].length, 2u);
  EXPECT_EQ(found[0].fixit, ".spec.replicatedJobs[] | (.replicas // 1)");
  EXPECT_EQ(Alternatives("(.a[], .b) // 1").size(), 1u);
  EXPECT_EQ(Alternatives(".a[] | (.x // 1)").size(), 0u);
  EXPECT_EQ(Alternatives("[.a[]] // []").size(), 0u);
  EXPECT_EQ(Alternatives(".a.b // \"x\"").size(), 0u);
  // Collected or consumed streams do not change the number of results.
  EXPECT_EQ(Alternatives("reduce (.a[] // 0) as $x (0; . + $x)").size(), 0u);
  EXPECT_EQ(Alternatives("first(.a[] // 0)").size(), 0u);
  EXPECT_EQ(Alternatives("def f: .a[] // 0; 1").size(), 0u);
  EXPECT_EQ(Alternatives("{n: (.a[].x // 0)}").size(), 1u);
  EXPECT_TRUE(CheckStreamAlternatives(*Parse(".a[].b // 1").ast, ".a[].b // 1", SourceMap(),
                                      {"stream-alternative"}).empty());
}

TEST(JqStreamAlternativeTest, FixItKeepsTheRestOfTheField) {
  EXPECT_EQ(Alternatives(".a[].x.y // 0 | tostring")[0].fixit, ".a[] | (.x.y // 0) | tostring");
  EXPECT_EQ(Alternatives(".a[][\"k\"] // 0")[0].fixit, ".a[] | (.[\"k\"] // 0)");
  EXPECT_EQ(Alternatives(".a[] // 0")[0].fixit, ".a[] | (. // 0)");
  EXPECT_EQ(Alternatives("(.a[].x // 0) + 1")[0].fixit, "(.a[] | (.x // 0)) + 1");
  EXPECT_EQ(Alternatives(".a[]?.x // 0")[0].fixit, ".a[]? | (.x // 0)");
  EXPECT_EQ(Alternatives("(.a[], .b) // 1")[0].fixit, "");
}

TEST(JqRegexScanTest, SkipsEscapesAndClasses) {
  using internal::ScanRegex;
  EXPECT_EQ(ScanRegex("\\\\1").backreference, "");
  EXPECT_EQ(ScanRegex("[(?=]").lookaround, "");
  EXPECT_EQ(ScanRegex("[]a+]+").atomic, "");
  EXPECT_EQ(ScanRegex("a+?b*?").atomic, "");
  EXPECT_EQ(ScanRegex("\\++").atomic, "");
  EXPECT_EQ(ScanRegex("x{2}+").atomic, "}+");
  EXPECT_EQ(ScanRegex("(?<name>a)\\k<name>").backreference, "\\k<");
  EXPECT_EQ(ScanRegex("(?<name>a)").lookaround, "");
  EXPECT_EQ(ScanRegex("(?<=a)b").lookaround, "(?<=");
  EXPECT_EQ(ScanRegex("(?>a)").atomic, "(?>");
  EXPECT_EQ(ScanRegex("a(?#note)\\Z").oniguruma_only, "(?#");
}

TEST(JqPortabilityTest, EveryRuleIsDocumented) {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/docs/rules.md");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  for (const PortabilityRule& rule : PortabilityRules()) {
    EXPECT_NE(text.str().find("## " + std::string(rule.id) + "\n"), std::string::npos)
        << rule.id << " is missing from docs/rules.md";
    EXPECT_EQ(FindPortabilityRule(rule.name), &rule);
  }
  EXPECT_NE(text.str().find("## WM008\n"), std::string::npos);
}

}  // namespace
}  // namespace wm::jq
