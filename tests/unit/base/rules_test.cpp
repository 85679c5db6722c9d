// Tests of the rule registry (base/rules.def): docs/rules.md documents every registered id with its
// severity and nothing else, every anchor resolves, and the stages that keep their own tables
// (the safety policy, the definition rules) agree with the registry.
#include "base/rules.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "compiler/check/typecheck.h"
#include "compiler/definition/rules.h"
#include "compiler/jq/policy.h"

namespace wm::base {
namespace {

// One `## WMnnn` section of docs/rules.md: its anchor and the severity its first line states.
struct DocumentedRule {
  std::string anchor;
  std::string severity;  // "error", "warning", "note"
};

std::map<std::string, DocumentedRule> ReadRulesDocument() {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/" + std::string(kRulesDocument));
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, DocumentedRule> out;
  static const std::regex kHeading(R"(^## (WM[0-9]{3})$)");
  static const std::regex kSeverity(R"(^\*\*(error|warning|note)\*\*)");
  std::string line, current;
  while (std::getline(text, line)) {
    std::smatch m;
    if (std::regex_match(line, m, kHeading)) {
      current = m[1];
      // GitHub's heading slug: lower case, spaces to dashes, punctuation dropped.
      std::string slug;
      for (char c : current) slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out[current].anchor = slug;
    } else if (!current.empty() && std::regex_search(line, m, kSeverity)) {
      if (out[current].severity.empty()) out[current].severity = m[1];
      current.clear();
    }
  }
  return out;
}

TEST(RuleRegistry, EveryRegisteredRuleIsDocumentedWithItsSeverity) {
  std::map<std::string, DocumentedRule> documented = ReadRulesDocument();
  ASSERT_FALSE(documented.empty()) << "cannot read " << kRulesDocument;
  for (const RuleInfo& rule : AllRules()) {
    auto it = documented.find(std::string(rule.id));
    ASSERT_NE(it, documented.end()) << rule.id << " is missing from " << kRulesDocument;
    EXPECT_EQ(it->second.severity, SeverityName(rule.severity)) << rule.id;
    EXPECT_EQ(it->second.anchor, DocAnchor(rule.id)) << rule.id;
    EXPECT_FALSE(rule.summary.empty()) << rule.id;
  }
}

TEST(RuleRegistry, EveryDocumentedRuleIsRegistered) {
  for (const auto& [id, doc] : ReadRulesDocument()) {
    EXPECT_NE(FindRule(id), nullptr) << id << " is documented but not in base/rules.def";
  }
}

TEST(RuleRegistry, LookupAndDefaults) {
  ASSERT_NE(FindRule("WM001"), nullptr);
  EXPECT_EQ(FindRule("WM001")->stage, Stage::Load);
  EXPECT_EQ(FindRule("WM120")->stage, Stage::Policy);
  EXPECT_EQ(FindRule("WM999"), nullptr);
  EXPECT_EQ(DefaultSeverity("WM009"), Severity::Warning);
  EXPECT_EQ(DefaultSeverity("WM200"), Severity::Note);
  EXPECT_EQ(DefaultSeverity("WM016"), Severity::Error);
  EXPECT_EQ(DefaultSeverity("WM999"), Severity::Error);
  EXPECT_EQ(DocAnchor("WM070"), "wm070");
  EXPECT_EQ(StageName(Stage::Types), "types");
}

TEST(RuleRegistry, SafetyPolicyAgreesWithTheRegistry) {
  for (const jq::PolicyItem& item : jq::Policy::Default().items) {
    const RuleInfo* rule = FindRule(item.rule);
    ASSERT_NE(rule, nullptr) << item.rule;
    EXPECT_EQ(rule->stage, Stage::Policy) << item.rule;
    // Every policy finding is an error (upstream's admission refuses it, or wmc does).
    EXPECT_EQ(rule->severity, Severity::Error) << item.rule;
  }
}

TEST(RuleRegistry, PortabilityRulesAreWarningsOfTheirStage) {
  for (const char* id : {"WM300", "WM316", "WM323", "WM330"}) {
    const RuleInfo* rule = FindRule(id);
    ASSERT_NE(rule, nullptr) << id;
    EXPECT_EQ(rule->stage, Stage::Portability) << id;
    EXPECT_EQ(rule->severity, Severity::Warning) << id;
  }
}

TEST(RuleRegistry, TypeCheckerIdsAreRegistered) {
  for (const char* id : {check::kNoSchema, check::kUnknownField, check::kCannotIterate,
                         check::kCannotIndex, check::kBadArithmetic, check::kAlwaysFalse,
                         check::kRoleType, check::kPhaseNotInEnum, check::kConditionShape,
                         check::kInstanceMismatch, check::kSeveralResults, check::kNullSafety,
                         check::kSuspendValue, check::kBuiltinInput, check::kSchemaLoad}) {
    const RuleInfo* rule = FindRule(id);
    ASSERT_NE(rule, nullptr) << id;
    EXPECT_EQ(rule->stage, Stage::Types) << id;
  }
}

TEST(RuleRegistry, DefinitionRulesAreTheRegistryStagesOfTheLoaderAndRules) {
  std::set<std::string_view> ids;
  for (const RuleInfo& rule : definition::AllRules()) ids.insert(rule.id);
  EXPECT_TRUE(ids.count("WM001"));
  EXPECT_TRUE(ids.count("WM080"));
  EXPECT_TRUE(ids.count("WM103"));
  EXPECT_FALSE(ids.count("WM110"));
  EXPECT_FALSE(ids.count("WM200"));
}

}  // namespace
}  // namespace wm::base
