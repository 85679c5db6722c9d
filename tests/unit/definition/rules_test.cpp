// Tests of the structural rules: one or more failing inputs per rule id, each checked for the id,
// the severity and the position of the offending field, plus the clean catalog definitions.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/check/typecheck.h"
#include "compiler/definition/loader.h"
#include "compiler/definition/rules.h"
#include "compiler/jq/policy.h"

namespace wm::definition {
namespace {

struct Checked {
  DiagnosticSink sink;
  std::vector<Definition> definitions;
  std::vector<const Diagnostic*> With(std::string_view rule) const {
    std::vector<const Diagnostic*> out;
    for (const Diagnostic& d : sink.items()) {
      if (d.rule == rule) out.push_back(&d);
    }
    return out;
  }
  std::set<std::string> Rules() const {
    std::set<std::string> out;
    for (const Diagnostic& d : sink.items()) out.insert(d.rule);
    return out;
  }
};

Checked Check(const std::string& text, bool parse_jq = false) {
  Checked c;
  LoadOptions options;
  options.parse_jq = parse_jq;  // most rules do not depend on jq syntax
  c.definitions = LoadDefinitions("r.yaml", text, options, c.sink).definitions;
  for (const Definition& d : c.definitions) CheckDefinition(d, c.sink);
  return c;
}

// A clean two-level definition; tests splice fields into the marked places.
std::string Def(const std::string& root_extra = "", const std::string& children = "",
                const std::string& tail = "") {
  return "apiVersion: run.ai/v1alpha1\n"
         "kind: Karta\n"
         "metadata:\n"
         "  name: test\n"
         "spec:\n"
         "  structureDefinition:\n"
         "    rootComponent:\n"
         "      name: top\n"
         "      kind: {group: example.com, version: v1, kind: Top}\n"
         "      statusDefinition:\n"
         "        phaseDefinition: {path: .status.phase}\n"
         "        statusMappings:\n"
         "          running: [{byPhase: Running}]\n" +
         root_extra +
         "    childComponents:\n"
         "    - name: worker\n"
         "      ownerRef: top\n"
         "      specDefinition: {podTemplateSpecPath: .spec.template}\n" +
         children + tail;
}

TEST(Rules, CleanDefinitionHasNoFindings) {
  Checked c = Check(Def());
  EXPECT_TRUE(c.sink.items().empty()) << c.sink.items()[0].message;
}

TEST(Rules, MissingMetadataNameAndRoot) {
  Checked c = Check("apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata: {}\nspec: {}\n");
  EXPECT_EQ(c.With("WM006").size(), 2u);
}

TEST(Rules, WM010_EmptyName) {
  Checked c = Check(Def("", "    - ownerRef: top\n      specDefinition: {podSpecPath: .x}\n"));
  auto d = c.With("WM010");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->location.line, 18u);
  EXPECT_FALSE(c.Rules().count("WM070"));  // graph rules stop when names are broken
}

TEST(Rules, WM011_DuplicateName) {
  Checked c = Check(Def("", "    - name: worker\n      ownerRef: top\n"
                            "      specDefinition: {podSpecPath: .x}\n"));
  auto d = c.With("WM011");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->location.line, 18u);
  EXPECT_EQ(d[0]->location.column, 13u);
  EXPECT_NE(d[0]->message.find("component name 'worker' is not unique"), std::string::npos);
}

TEST(Rules, WM012_RootKindIncomplete) {
  std::string text = Def();
  text.replace(text.find("group: example.com, "), 20, "");
  Checked c = Check(text);
  auto d = c.With("WM012");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0]->message.find("missing group"), std::string::npos) << d[0]->message;
  EXPECT_EQ(d[0]->location.line, 9u);
}

TEST(Rules, WM012_CorePodNeedsNoGroup) {
  std::string text = Def();
  text.replace(text.find("{group: example.com, version: v1, kind: Top}"), 44,
               "{group: \"\", version: v1, kind: Pod}");
  EXPECT_TRUE(Check(text).With("WM012").empty());
}

TEST(Rules, WM013_RootOwnerRef) {
  Checked c = Check(Def("      ownerRef: worker\n"));
  auto d = c.With("WM013");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->location.line, 14u);
  EXPECT_EQ(d[0]->location.column, 17u);
}

TEST(Rules, WM014_RootWithoutStatus) {
  std::string text = Def();
  size_t from = text.find("      statusDefinition:");
  size_t to = text.find("    childComponents:");
  text.erase(from, to - from);
  Checked c = Check(text);
  auto d = c.With("WM014");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0]->message.find("root component 'top' must have a statusDefinition"),
            std::string::npos);
}

TEST(Rules, WM015_ChildWithoutOwner) {
  Checked c = Check(Def("", "    - name: orphan\n      specDefinition: {podSpecPath: .x}\n"));
  auto d = c.With("WM015");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0]->message.find("'orphan'"), std::string::npos);
}

TEST(Rules, WM016_UnknownOwnerWithSuggestion) {
  Checked c = Check(Def("", "    - name: helper\n      ownerRef: workr\n"
                            "      specDefinition: {podSpecPath: .x}\n"));
  auto d = c.With("WM016");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->location.line, 19u);
  EXPECT_EQ(d[0]->location.column, 17u);
  ASSERT_EQ(d[0]->notes.size(), 1u);
  EXPECT_EQ(d[0]->notes[0], "did you mean 'worker'?");
}

TEST(Rules, WM017_OwnershipCycle) {
  std::string text = Def("", "    - name: a\n      ownerRef: b\n      specDefinition: {podSpecPath: .x}\n"
                             "    - name: b\n      ownerRef: a\n      specDefinition: {podSpecPath: .y}\n"
                             "    - name: self\n      ownerRef: self\n"
                             "      specDefinition: {podSpecPath: .z}\n");
  Checked c = Check(text);
  auto d = c.With("WM017");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NE(d[0]->message.find("'a' -> 'b' -> 'a'"), std::string::npos) << d[0]->message;
  EXPECT_NE(d[1]->message.find("'self' -> 'self'"), std::string::npos) << d[1]->message;
}

TEST(Rules, WM018_ChildKindIncomplete) {
  Checked c = Check(Def("", "      kind: {group: batch, kind: Job}\n"));
  ASSERT_EQ(c.With("WM018").size(), 1u);
}

TEST(Rules, WM020_MultiplePodShapes) {
  Checked c = Check(Def("", "    - name: both\n      ownerRef: top\n"
                            "      specDefinition:\n        podSpecPath: .a\n"
                            "        fragmentedPodSpecDefinition: {labelsPath: .l}\n"
                            "      podSelector: {componentTypeSelector: {keyPath: .k}}\n"));
  auto d = c.With("WM020");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0]->message.find("(podSpecPath, fragmentedPodSpecDefinition)"), std::string::npos);
  EXPECT_EQ(d[0]->location.line, 20u);
}

TEST(Rules, WM021_MetadataWithoutPodSpec) {
  std::string text = Def();
  text.replace(text.find("{podTemplateSpecPath: .spec.template}"), 37,
               "{podTemplateSpecPath: .spec.template, metadataPath: .m}");
  Checked c = Check(text);
  auto d = c.With("WM021");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->location.column, 75u);
}

TEST(Rules, WM022_WM023_InstanceSelectorPairs) {
  Checked c = Check(Def("", "      instanceIdPath: .spec.items[].name\n"));
  ASSERT_EQ(c.With("WM022").size(), 1u);
  Checked c2 = Check(Def("", "      podSelector:\n        componentInstanceSelector: {idPath: .x}\n"));
  ASSERT_EQ(c2.With("WM023").size(), 1u);
  Checked c3 = Check(Def("", "      instanceIdPath: .spec.items[].name\n      podSelector:\n"
                             "        componentInstanceSelector: {idPath: .x}\n"));
  EXPECT_TRUE(c3.sink.items().empty());
}

TEST(Rules, WM024_WM025_TypeSelector) {
  Checked c = Check(Def("", "      podSelector:\n        componentTypeSelector: {value: leader}\n"));
  EXPECT_EQ(c.With("WM024").size(), 1u);
  EXPECT_EQ(c.With("WM025").size(), 1u);
}

// Upstream pastes `<keyPath> == "<value>"` (UPSTREAM.md 4.4, MatchesComponentType): a keyPath
// ending in a looser operator compares only its last operand. Through a pipe the tail decides; a
// parenthesised keyPath is fine.
TEST(Rules, WM027_LooseKeyPathWithValue) {
  auto selector = [](const std::string& key_path, bool with_value) {
    return "      podSelector:\n        componentTypeSelector:\n          keyPath: '" + key_path + "'\n" +
           (with_value ? "          value: submitter\n" : "");
  };
  for (const char* loose : {".metadata.labels[\"x\"] // \"submitter\"", ".a, .b", ".a or .b", ".a and .b",
                            ".metadata | .labels.x // \"d\"", ". as $p | $p.a, $p.b"}) {
    Checked c = Check(Def("", selector(loose, true)), /*parse_jq=*/true);
    EXPECT_EQ(c.With("WM027").size(), 1u) << loose;
  }
  for (const char* fine : {"(.metadata.labels[\"x\"] // \"submitter\")", ".metadata.labels.x", ".a | .b",
                           "if .a then .b else .c end", "[.a, .b] | first"}) {
    EXPECT_TRUE(Check(Def("", selector(fine, true)), true).With("WM027").empty()) << fine;
  }
  // Without a value upstream evaluates the keyPath alone: nothing is pasted.
  EXPECT_TRUE(Check(Def("", selector(".a // .b", false)), true).With("WM027").empty());
}

TEST(Rules, WM026_MatchLabels) {
  Checked c = Check(Def("", "      podSelector:\n        componentTypeSelector:\n"
                            "          matchLabels: {\"bad key!\": x, role: \"-bad-\", ok.io/n: v}\n"));
  auto d = c.With("WM026");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NE(d[0]->message.find("'bad key!' is not a valid label key"), std::string::npos);
  EXPECT_NE(d[1]->message.find("'-bad-'"), std::string::npos);
  Checked empty = Check(Def("", "      podSelector:\n        componentTypeSelector:\n"
                                "          matchLabels: {}\n"));
  EXPECT_EQ(empty.With("WM026").size(), 1u);
}

TEST(Rules, WM031_WM033_MatchersNeedDefinitions) {
  std::string text = Def();
  text.replace(text.find("        phaseDefinition: {path: .status.phase}\n"), 47, "");
  text.replace(text.find("running: [{byPhase: Running}]"), 29,
               "running: [{byPhase: Running}]\n          failed: [{byConditions: [{type: Failed, status: \"True\"}]}]");
  Checked c = Check(text);
  EXPECT_EQ(c.With("WM033").size(), 1u);
  EXPECT_EQ(c.With("WM031").size(), 1u);
}

TEST(Rules, WM032_ConditionEntries) {
  std::string text = Def();
  text.replace(text.find("        phaseDefinition: {path: .status.phase}\n"), 47,
               "        conditionsDefinition: {path: .status.conditions}\n");
  text.replace(text.find("running: [{byPhase: Running}]"), 29,
               "running: [{byConditions: [{type: Ready}, {status: \"True\"}]}]");
  Checked c = Check(text);
  EXPECT_EQ(c.With("WM032").size(), 2u);
  EXPECT_EQ(c.With("WM033").size(), 0u);
}

TEST(Rules, WM034_WM035_Expressions) {
  std::string text = Def();
  text.replace(text.find("running: [{byPhase: Running}]"), 29,
               "running: [{byExpression: {expression: .a}}, {}]");
  Checked c = Check(text);
  EXPECT_EQ(c.With("WM034").size(), 1u);
  EXPECT_EQ(c.With("WM035").size(), 1u);
}

TEST(Rules, WM036_StatusOnChild) {
  Checked c = Check(Def("", "      statusDefinition: {statusMappings: {running: [{byPhase: R}]}, "
                            "phaseDefinition: {path: .p}}\n"));
  auto d = c.With("WM036");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->severity, Severity::Warning);
}

TEST(Rules, WM037_NoMappings) {
  std::string text = Def();
  text.replace(text.find("          running: [{byPhase: Running}]\n"), 40, "");
  text.replace(text.find("statusMappings:"), 15, "statusMappings: {}");
  EXPECT_EQ(Check(text).With("WM037").size(), 1u);
}

TEST(Rules, WM040_WM041_Suspend) {
  Checked c = Check(Def("      suspendDefinition:\n        suspendActions:\n"
                        "        - {path: .spec.suspend, value: \"paused\"}\n"));
  EXPECT_EQ(c.With("WM040").size(), 1u);
  auto d = c.With("WM041");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->location.line, 16u);
  Checked ok = Check(Def("      suspendDefinition:\n"
                         "        suspendActions: [{path: .spec.suspend, value: true}]\n"
                         "        resumeActions: [{path: .spec.suspend, value: \"false\"}]\n"));
  EXPECT_TRUE(ok.sink.items().empty());
}

TEST(Rules, GangScheduling) {
  std::string gang =
      "  optimizationInstructions:\n"
      "    gangScheduling:\n"
      "      podGroup:\n"
      "        name: all\n"
      "        topology: {requiredTopologyLevel: rack}\n"
      "        subGroups: [{componentName: workr}]\n"
      "      podGroups:\n"
      "      - {name: g, members: [{componentName: worker}]}\n"
      "      - {name: g, members: []}\n";
  Checked c = Check(Def("", "", gang));
  EXPECT_EQ(c.With("WM050").size(), 1u);
  EXPECT_EQ(c.With("WM050")[0]->notes[0], "did you mean 'worker'?");
  EXPECT_EQ(c.With("WM051").size(), 1u);
  EXPECT_EQ(c.With("WM052").size(), 1u);
  EXPECT_EQ(c.With("WM053").size(), 1u);
  EXPECT_EQ(c.With("WM054").size(), 1u);
}

// Both gang forms may stand side by side when they gang the same pods: a legacy member naming
// an ancestor covers the pod-bearing components below it.
TEST(Rules, AgreeingGangFormsAreClean) {
  std::string gang =
      "  optimizationInstructions:\n"
      "    gangScheduling:\n"
      "      podGroup:\n"
      "        name: all\n"
      "        subGroups: [{componentName: worker}]\n"
      "      podGroups:\n"
      "      - {name: all, members: [{componentName: top}]}\n";
  Checked agreeing = Check(Def("", "", gang));
  EXPECT_TRUE(agreeing.With("WM053").empty());

  std::string helper = "    - name: helper\n"
                       "      ownerRef: top\n"
                       "      specDefinition: {podTemplateSpecPath: .spec.helper}\n";
  std::string partial =
      "  optimizationInstructions:\n"
      "    gangScheduling:\n"
      "      podGroup:\n"
      "        name: all\n"
      "        subGroups: [{componentName: worker}]\n"
      "      podGroups:\n"
      "      - {name: all, members: [{componentName: top}]}\n";
  Checked differing = Check(Def("", helper, partial));
  EXPECT_EQ(differing.With("WM053").size(), 1u);
}

TEST(Rules, AdditionalChildKinds) {
  std::string kinds = "    additionalChildKinds:\n"
                      "    - {group: example.com, version: v1, kind: Top}\n"
                      "    - {group: \"\", kind: Service}\n"
                      "    - {group: \"\", version: v1, kind: ConfigMap}\n"
                      "    - {group: \"\", version: v1, kind: ConfigMap}\n"
                      "    - {group: a.io, version: v1, kind: PodGroup}\n"
                      "    - {group: b.io, version: v1, kind: PodGroup}\n";
  Checked c = Check(Def("", kinds));
  EXPECT_EQ(c.With("WM060").size(), 1u);
  EXPECT_EQ(c.With("WM061").size(), 1u);
  EXPECT_EQ(c.With("WM062").size(), 1u);
  ASSERT_EQ(c.With("WM063").size(), 1u);
  EXPECT_EQ(c.With("WM063")[0]->severity, Severity::Warning);
  EXPECT_EQ(c.With("WM063")[0]->location.line, 24u);  // the second entry
}

TEST(Rules, WM070_ChildWithoutPods) {
  Checked c = Check(Def("", "    - name: empty\n      ownerRef: top\n"));
  auto d = c.With("WM070");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]->severity, Severity::Warning);
  // A pod-less intermediate component with children is fine.
  Checked mid = Check(Def("", "    - name: group\n      ownerRef: top\n"
                              "    - name: leaf\n      ownerRef: group\n"
                              "      specDefinition: {podSpecPath: .x}\n"));
  EXPECT_TRUE(mid.With("WM070").empty());
  // So is a pod-less child naming the kind of the objects it stands for (upstream's
  // Deployment -> replicaset).
  Checked typed = Check(Def("", "    - name: replicaset\n      ownerRef: top\n"
                                "      kind: {group: apps, version: v1, kind: ReplicaSet}\n"));
  EXPECT_TRUE(typed.With("WM070").empty());
}

TEST(Rules, WM071_IndistinguishableSiblings) {
  Checked c = Check(Def("", "    - name: second\n      ownerRef: top\n"
                            "      specDefinition: {podSpecPath: .x}\n"));
  auto d = c.With("WM071");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0]->message.find("'worker' and 'second'"), std::string::npos) << d[0]->message;
  std::string selectors =
      "      podSelector: {componentTypeSelector: {keyPath: '.metadata.labels.role', value: a}}\n"
      "    - name: second\n      ownerRef: top\n"
      "      specDefinition: {podSpecPath: .x}\n"
      "      podSelector: {componentTypeSelector: {keyPath: '.metadata.labels.role', value: b}}\n";
  EXPECT_TRUE(Check(Def("", selectors)).With("WM071").empty());
  std::string same =
      "      podSelector: {componentTypeSelector: {keyPath: '.metadata.labels.role', value: a}}\n"
      "    - name: second\n      ownerRef: top\n"
      "      specDefinition: {podSpecPath: .x}\n"
      "      podSelector: {componentTypeSelector: {keyPath: '.metadata.labels | .role', value: a}}\n";
  EXPECT_TRUE(Check(Def("", same)).With("WM071").empty());  // different text: not provably equal
}

// Children where 'worker' and 'second' carry the given componentTypeSelector flow mappings
// (an empty string leaves that component without a podSelector).
std::string Siblings(const std::string& worker_type, const std::string& second_type) {
  std::string out;
  if (!worker_type.empty()) {
    out += "      podSelector: {componentTypeSelector: " + worker_type + "}\n";
  }
  out += "    - name: second\n      ownerRef: top\n      specDefinition: {podSpecPath: .x}\n";
  if (!second_type.empty()) {
    out += "      podSelector: {componentTypeSelector: " + second_type + "}\n";
  }
  return out;
}

// The WM071 findings, copied out of the check result.
std::vector<Diagnostic> Wm071(const std::string& worker_type, const std::string& second_type) {
  Checked c = Check(Def("", Siblings(worker_type, second_type)));
  std::vector<Diagnostic> out;
  for (const Diagnostic* d : c.With("WM071")) out.push_back(*d);
  return out;
}

TEST(Rules, WM071_MatchLabelsOverlap) {
  // Compatible label sets: a pod with role=worker,tier=x matches both.
  auto d = Wm071("{matchLabels: {role: worker}}", "{matchLabels: {role: worker, tier: x}}");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].severity, Severity::Warning);
  EXPECT_EQ(d[0].location.line, 22u);  // the second component's componentTypeSelector
  EXPECT_NE(d[0].message.find("'worker' and 'second'"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("{role=worker, tier=x}"), std::string::npos) << d[0].message;
  // Disjoint keys are still compatible: one pod can carry both labels.
  EXPECT_EQ(Wm071("{matchLabels: {role: a}}", "{matchLabels: {tier: b}}").size(), 1u);
  // Identical label sets overlap too.
  EXPECT_EQ(Wm071("{matchLabels: {role: a}}", "{matchLabels: {role: a}}").size(), 1u);
}

TEST(Rules, WM071_MatchLabelsConflictingValueSeparates) {
  EXPECT_TRUE(Wm071("{matchLabels: {role: a}}", "{matchLabels: {role: b, tier: x}}").empty());
  EXPECT_TRUE(
      Wm071("{matchLabels: {tier: x, role: a}}", "{matchLabels: {role: b, tier: x}}").empty());
}

TEST(Rules, WM071_KeyPathOverlap) {
  auto same = Wm071("{keyPath: .metadata.labels.role, value: a}",
                    "{keyPath: '.metadata.labels.role', value: a}");
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0].location.line, 22u);
  EXPECT_NE(same[0].message.find("with value 'a'"), std::string::npos) << same[0].message;
  // Whitespace does not make two expressions different.
  EXPECT_EQ(Wm071("{keyPath: '.metadata.labels | .role', value: a}",
                  "{keyPath: '.metadata.labels|.role', value: a}")
                .size(),
            1u);
  // A keyPath without a value accepts the other's pods.
  auto open = Wm071("{keyPath: .metadata.labels.role}",
                    "{keyPath: .metadata.labels.role, value: b}");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_NE(open[0].message.find("'worker' selects on keyPath"), std::string::npos)
      << open[0].message;
  EXPECT_EQ(Wm071("{keyPath: .metadata.labels.role}", "{keyPath: .metadata.labels.role}").size(),
            1u);
}

TEST(Rules, WM071_KeyPathDifferentValueOrExpressionSeparates) {
  EXPECT_TRUE(Wm071("{keyPath: .metadata.labels.role, value: a}",
                    "{keyPath: .metadata.labels.role, value: b}")
                  .empty());
  EXPECT_TRUE(Wm071("{keyPath: .metadata.labels.role, value: a}",
                    "{keyPath: .metadata.labels.kind, value: a}")
                  .empty());
}

TEST(Rules, WM071_DifferentMechanismsAreNotCompared) {
  EXPECT_TRUE(
      Wm071("{keyPath: .metadata.labels.role, value: a}", "{matchLabels: {role: a}}").empty());
  EXPECT_TRUE(
      Wm071("{matchLabels: {role: a}}", "{keyPath: .metadata.labels.role, value: a}").empty());
}

TEST(Rules, WM071_OneSelectorMissing) {
  auto first_missing = Wm071("", "{matchLabels: {role: b}}");
  ASSERT_EQ(first_missing.size(), 1u);
  EXPECT_NE(first_missing[0].message.find("'worker' has no componentTypeSelector"),
            std::string::npos)
      << first_missing[0].message;
  EXPECT_EQ(first_missing[0].location.line, 21u);  // its selector
  auto second_missing = Wm071("{matchLabels: {role: a}}", "");
  ASSERT_EQ(second_missing.size(), 1u);
  EXPECT_NE(second_missing[0].message.find("'second' has no componentTypeSelector"),
            std::string::npos)
      << second_missing[0].message;
  EXPECT_EQ(second_missing[0].location.line, 19u);  // its name: it has no selector to show
}

TEST(Rules, WM080_DuplicateKindsAcrossDefinitions) {
  Checked c = Check(Def() + "---\n" + Def());
  ASSERT_EQ(c.definitions.size(), 2u);
  std::vector<const Definition*> all = {&c.definitions[0], &c.definitions[1]};
  DiagnosticSink sink;
  CheckDefinitionSet(all, sink);
  ASSERT_EQ(sink.items().size(), 1u);
  EXPECT_EQ(sink.items()[0].rule, "WM080");
}

TEST(Rules, CatalogDefinitionsAreClean) {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  Checked c = Check(text.str());
  ASSERT_EQ(c.definitions.size(), 1u);
  EXPECT_TRUE(c.sink.items().empty()) << c.sink.items()[0].message;
}

TEST(Rules, EveryRuleIsDocumented) {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/docs/rules.md");
  std::stringstream text;
  text << in.rdbuf();
  for (const RuleInfo& rule : AllRules()) {
    EXPECT_NE(text.str().find("## " + std::string(rule.id)), std::string::npos)
        << rule.id << " is missing from docs/rules.md";
  }
}

// The rules of the other stages `wmc check` and `wmc compile` run: the lowering's name errors
// (ids fixed in compiler/lower/lower.h), every safety policy item and the type checker's ids.
TEST(Rules, EveryJqAndSchemaRuleIsDocumented) {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/docs/rules.md");
  std::stringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty());
  std::vector<std::string> ids = {"WM110", "WM111", "WM112", "WM113", "WM114"};
  for (const jq::PolicyItem& item : jq::Policy::Default().items) ids.push_back(item.rule);
  for (const char* id : {check::kNoSchema, check::kUnknownField, check::kCannotIterate,
                         check::kCannotIndex, check::kBadArithmetic, check::kAlwaysFalse,
                         check::kRoleType, check::kPhaseNotInEnum, check::kConditionShape,
                         check::kInstanceMismatch, check::kSeveralResults, check::kNullSafety,
                         check::kSuspendValue, check::kBuiltinInput, check::kSchemaLoad}) {
    ids.push_back(id);
  }
  for (const std::string& id : ids) {
    EXPECT_NE(text.str().find("## " + id + "\n"), std::string::npos)
        << id << " is missing from docs/rules.md";
  }
}

}  // namespace
}  // namespace wm::definition
