// Tests of the jq rule settings: --allow items and policy files are applied to the policy and to
// the portability rules, the target engine is read, and unknown items, keys and values are WM008
// errors located in the file (or at the flag) with a did-you-mean.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "compiler/definition/jq_policy.h"

namespace wm::definition {
namespace {

struct Resolved {
  bool ok = false;
  JqRuleOptions options;
  DiagnosticSink sink;
};

std::string WritePolicy(const std::string& text) {
  std::string path = std::string(WM_BINARY_DIR) + "/jq_policy_test_" +
                     std::to_string(std::hash<std::string>{}(text)) + ".yaml";
  std::ofstream(path) << text;
  return path;
}

void Resolve(const JqPolicyFlags& flags, Resolved* r) {
  std::string text;
  r->ok = ResolveJqRules(flags, &r->options, r->sink, &text);
}

TEST(JqPolicySettings, DefaultsRefuseEverythingAndTargetGojq) {
  Resolved r;
  Resolve({}, &r);
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.options.policy.allowed.empty());
  EXPECT_EQ(r.options.portability.target, jq::Engine::kGojq);
}

TEST(JqPolicySettings, AllowFlagsTakeNamesAndRuleIds) {
  JqPolicyFlags flags;
  flags.allow = {"range", "WM127", "keys_unsorted"};
  flags.target = "jq";
  Resolved r;
  Resolve(flags, &r);
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.options.policy.IsAllowed(*r.options.policy.Find("range")));
  EXPECT_TRUE(r.options.policy.IsAllowed(*r.options.policy.Find("assign")));
  EXPECT_FALSE(r.options.policy.IsAllowed(*r.options.policy.Find("del")));
  EXPECT_EQ(r.options.portability.allowed.count("keys_unsorted"), 1u);
  EXPECT_EQ(r.options.portability.target, jq::Engine::kJq);
}

TEST(JqPolicySettings, UnknownFlagValuesSuggestTheClosestItem) {
  JqPolicyFlags flags;
  flags.allow = {"rnage"};
  flags.target = "go";
  Resolved r;
  Resolve(flags, &r);
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.sink.items().size(), 2u);
  EXPECT_EQ(r.sink.items()[0].rule, "WM008");
  EXPECT_EQ(r.sink.items()[0].location.file, "--allow");
  EXPECT_EQ(r.sink.items()[0].message, "unknown policy item 'rnage'; did you mean 'range'?");
  EXPECT_EQ(r.sink.items()[1].message, "unknown target engine 'go' (gojq or jq)");
}

TEST(JqPolicySettings, PolicyFileAllowsAndSetsTheTarget) {
  JqPolicyFlags flags;
  flags.policy_file = WritePolicy("allow: [range, WM126]\ntarget: jq\n");
  Resolved r;
  Resolve(flags, &r);
  ASSERT_TRUE(r.ok) << (r.sink.items().empty() ? "" : r.sink.items()[0].message);
  EXPECT_TRUE(r.options.policy.IsAllowed(*r.options.policy.Find("..")));
  EXPECT_EQ(r.options.portability.target, jq::Engine::kJq);
  // The command line overrides the file's target.
  flags.target = "gojq";
  Resolved again;
  Resolve(flags, &again);
  EXPECT_EQ(again.options.portability.target, jq::Engine::kGojq);
}

TEST(JqPolicySettings, PolicyFileErrorsAreLocated) {
  JqPolicyFlags flags;
  flags.policy_file = WritePolicy("allow:\n  - range\n  - walkk\nallwo: [del]\n");
  Resolved r;
  Resolve(flags, &r);
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.sink.items().size(), 2u);
  const Diagnostic& item = r.sink.items()[0];
  EXPECT_EQ(item.location.file, flags.policy_file);
  EXPECT_EQ(item.location.line, 3u);
  EXPECT_EQ(item.location.column, 5u);
  EXPECT_EQ(item.length, 5u);
  EXPECT_EQ(item.message, "unknown policy item 'walkk'; did you mean 'walk'?");
  EXPECT_EQ(r.sink.items()[1].location.line, 4u);
  EXPECT_EQ(r.sink.items()[1].message, "unknown field 'allwo' in the policy file; did you mean 'allow'?");
}

TEST(JqPolicySettings, MalformedAndMissingFiles) {
  JqPolicyFlags flags;
  flags.policy_file = WritePolicy("allow: range\n");
  Resolved r;
  Resolve(flags, &r);
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.sink.items().size(), 1u);
  EXPECT_EQ(r.sink.items()[0].message, "'allow' must be a list of policy items");
  flags.policy_file = std::string(WM_BINARY_DIR) + "/no-such-policy.yaml";
  Resolved missing;
  Resolve(flags, &missing);
  EXPECT_FALSE(missing.ok);
  ASSERT_EQ(missing.sink.items().size(), 1u);
  EXPECT_EQ(missing.sink.items()[0].rule, "WM008");
}

}  // namespace
}  // namespace wm::definition
