// Tests of the definition loader: the model it builds, locations of fields and jq expressions,
// strictness (unknown fields with did-you-mean, duplicate keys, wrong types), multi-document YAML,
// JSON, `kind: List`, malformed input, and parsing of every jq field.
#include <gtest/gtest.h>

#include <string>

#include "base/did_you_mean.h"
#include "compiler/definition/loader.h"

namespace wm::definition {
namespace {

struct Loaded {
  LoadResult result;
  DiagnosticSink sink;
  const Diagnostic* First(std::string_view rule) const {
    for (const Diagnostic& d : sink.items()) {
      if (d.rule == rule) return &d;
    }
    return nullptr;
  }
};

Loaded Load(const std::string& text, bool parse_jq = false) {
  Loaded out;
  LoadOptions options;
  options.parse_jq = parse_jq;
  out.result = LoadDefinitions("def.yaml", text, options, out.sink);
  return out;
}

const char* kJobSet = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: jobset
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: kind
        statusMappings:
          completed:
          - byConditions:
            - type: Completed
              status: "True"
          running:
          - byExpression:
              expression: '.status.active > 0'
              expectedResult: "true"
      suspendDefinition:
        suspendActions:
        - {path: .spec.suspend, value: true}
        resumeActions:
        - {path: .spec.suspend, value: "false"}
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: .spec.replicatedJobs[].name
      specDefinition:
        podTemplateSpecPath: .spec.replicatedJobs[].template.spec.template
      scaleDefinition:
        replicasPath: .spec.replicatedJobs[].replicas
      podSelector:
        componentInstanceSelector:
          idPath: .metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]
        componentTypeSelector:
          matchLabels: {app: trainer}
    additionalChildKinds:
    - {group: "", version: v1, kind: Service}
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: g
        members:
        - componentName: replicatedjob
          filters: ['.spec.x']
          groupByKeyPaths: [.metadata.name]
)";

TEST(Loader, BuildsTheModel) {
  Loaded l = Load(kJobSet);
  EXPECT_EQ(l.sink.items().size(), 0u) << l.sink.items()[0].message;
  ASSERT_EQ(l.result.definitions.size(), 1u);
  const Definition& d = l.result.definitions[0];
  EXPECT_EQ(d.kind, DefinitionKind::kKarta);
  EXPECT_EQ(d.name.value, "jobset");
  ASSERT_TRUE(d.has_root);
  EXPECT_TRUE(d.root.is_root);
  ASSERT_TRUE(d.root.kind);
  EXPECT_EQ(d.root.kind->ToString(), "jobset.x-k8s.io/v1alpha2, Kind=JobSet");
  ASSERT_TRUE(d.root.status && d.root.status->conditions);
  EXPECT_EQ(d.root.status->conditions->type_field_name.value, "kind");
  EXPECT_EQ(d.root.status->conditions->status_field_name.value, "status");  // default
  ASSERT_EQ(d.root.status->mappings.size(), 2u);
  EXPECT_EQ(d.root.status->mappings[0].status, ResourceStatus::kCompleted);
  const StatusMapping* running = d.root.status->Find(ResourceStatus::kRunning);
  ASSERT_TRUE(running);
  ASSERT_TRUE(running->matchers[0].by_expression);
  EXPECT_EQ(running->matchers[0].by_expression->expected_result->value, "true");
  ASSERT_TRUE(d.root.suspend);
  EXPECT_EQ(d.root.suspend->suspend_actions[0].value->json, "true");
  EXPECT_FALSE(d.root.suspend->suspend_actions[0].value->from_string);
  EXPECT_EQ(d.root.suspend->resume_actions[0].value->json, "false");
  EXPECT_TRUE(d.root.suspend->resume_actions[0].value->from_string);
  ASSERT_EQ(d.children.size(), 1u);
  const Component& child = d.children[0];
  EXPECT_EQ(child.owner_ref->value, "jobset");
  EXPECT_TRUE(child.HasPodDefinition());
  EXPECT_EQ(child.pod_selector->component_type_selector->match_labels->at(0).key.value, "app");
  ASSERT_EQ(d.additional_child_kinds.size(), 1u);
  EXPECT_EQ(d.additional_child_kinds[0].ToString(), "v1, Kind=Service");
  EXPECT_EQ(d.FindComponent("replicatedjob"), &d.children[0]);
  EXPECT_EQ(d.FindComponent("nope"), nullptr);
}

TEST(Loader, VisitsEveryJqFieldWithRole) {
  Loaded l = Load(kJobSet);
  ASSERT_EQ(l.result.definitions.size(), 1u);
  std::vector<std::string> seen;
  ForEachJqField(l.result.definitions[0],
                 [&](std::string_view component, JqRole role, const JqField& field) {
                   seen.push_back(std::string(component) + ":" + std::string(RoleName(role)) +
                                  ":" + field.text);
                 });
  std::vector<std::string> expected = {
      "jobset:conditions:.status.conditions",
      "jobset:status-expression:.status.active > 0",
      "jobset:suspend-path:.spec.suspend",
      "jobset:resume-path:.spec.suspend",
      "replicatedjob:instance-id:.spec.replicatedJobs[].name",
      "replicatedjob:pod-template-spec:.spec.replicatedJobs[].template.spec.template",
      "replicatedjob:replicas:.spec.replicatedJobs[].replicas",
      "replicatedjob:instance-selector-id:.metadata.labels[\"jobset.sigs.k8s.io/replicatedjob-name\"]",
      "replicatedjob:gang-filter:.spec.x",
      "replicatedjob:gang-group-by-key:.metadata.name",
  };
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(InputOf(JqRole::kInstanceSelectorId), JqInput::kPod);
  EXPECT_EQ(InputOf(JqRole::kReplicas), JqInput::kWorkload);
  EXPECT_EQ(FieldName(JqRole::kPodTemplateSpec), "podTemplateSpecPath");
}

TEST(Loader, JqFieldLocations) {
  Loaded l = Load(kJobSet);
  const Definition& d = l.result.definitions[0];
  const JqField& conditions = *d.root.status->conditions->path;
  EXPECT_EQ(conditions.location.line, 12u);
  EXPECT_EQ(conditions.location.column, 17u);
  // Single-quoted: offset 0 is the byte after the quote.
  const JqField& expr = *d.root.status->Find(ResourceStatus::kRunning)->matchers[0].by_expression->expression;
  Location gt = expr.map.Map(static_cast<uint32_t>(expr.text.find('>')));
  EXPECT_EQ(gt.line, 21u);
  EXPECT_EQ(gt.column, 43u);
  const JqField& filter = d.instructions.gang_scheduling->pod_groups->at(0).members[0].filters[0];
  EXPECT_EQ(filter.location.line, 50u);
  EXPECT_EQ(filter.location.column, 22u);  // past the quote
}

TEST(Loader, BlockScalarExpressionMapsToItsLines) {
  std::string text = std::string(kJobSet);
  std::string from = "expression: '.status.active > 0'";
  text.replace(text.find(from), from.size(),
               "expression: |\n                .status\n                  | .active > 0");
  Loaded l = Load(text);
  ASSERT_EQ(l.sink.errors(), 0);
  const JqField& expr = *l.result.definitions[0].root.status->Find(ResourceStatus::kRunning)
                             ->matchers[0].by_expression->expression;
  EXPECT_EQ(expr.text, ".status\n  | .active > 0\n");
  Location active = expr.map.Map(static_cast<uint32_t>(expr.text.find(".active")));
  EXPECT_EQ(active.line, 23u);
  EXPECT_EQ(active.column, 21u);
}

TEST(Loader, UnknownFieldSuggestsTheClosestName) {
  std::string text = std::string(kJobSet);
  text.replace(text.find("instanceIdPath"), 14, "instanceIDPath");
  Loaded l = Load(text);
  const Diagnostic* d = l.First("WM002");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->location.line, 32u);
  EXPECT_EQ(d->location.column, 7u);
  EXPECT_NE(d->message.find("did you mean 'instanceIdPath'?"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("component 'replicatedjob'"), std::string::npos) << d->message;
  EXPECT_EQ(d->fixit, "instanceIdPath");
}

TEST(Loader, UnknownStatusKeyHasItsOwnRule) {
  std::string text = std::string(kJobSet);
  text.replace(text.find("running:"), 8, "runing:");
  Loaded l = Load(text);
  const Diagnostic* d = l.First("WM030");
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("did you mean 'running'?"), std::string::npos);
}

TEST(Loader, DuplicateKeyIsAnError) {
  std::string text = std::string(kJobSet);
  text.replace(text.find("      ownerRef: jobset\n"), 0, "      ownerRef: other\n");
  Loaded l = Load(text);
  const Diagnostic* d = l.First("WM003");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->location.line, 32u);
  EXPECT_NE(d->message.find("duplicate key 'ownerRef'"), std::string::npos);
  ASSERT_EQ(d->notes.size(), 1u);
  EXPECT_NE(d->notes[0].find("line 31"), std::string::npos);
  // The first occurrence wins, as in yaml-cpp lookups.
  EXPECT_EQ(l.result.definitions[0].children[0].owner_ref->value, "other");
}

TEST(Loader, WrongScalarTypes) {
  std::string text = std::string(kJobSet);
  text.replace(text.find("replicasPath: .spec.replicatedJobs[].replicas"), 45, "replicasPath: 3");
  text.replace(text.find("status: \"True\""), 14, "status: True");
  Loaded l = Load(text);
  int wm004 = 0;
  for (const Diagnostic& d : l.sink.items()) {
    if (d.rule == "WM004") ++wm004;
  }
  EXPECT_EQ(wm004, 2);
  const Diagnostic* d = l.First("WM004");
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("must be a string, not a boolean"), std::string::npos) << d->message;
}

TEST(Loader, MappingExpectedButSequenceGiven) {
  std::string text = std::string(kJobSet);
  std::string from = "      scaleDefinition:\n        replicasPath: .spec.replicatedJobs[].replicas";
  text.replace(text.find(from), from.size(), "      scaleDefinition: [replicas]");
  Loaded l = Load(text);
  const Diagnostic* d = l.First("WM004");
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("must be a mapping, not a sequence"), std::string::npos) << d->message;
}

TEST(Loader, MultipleDocumentsAndForeignKinds) {
  std::string text = std::string(kJobSet) + "---\napiVersion: v1\nkind: ConfigMap\n---\n" +
                     std::string(kJobSet) + "...\n";
  Loaded l = Load(text);
  EXPECT_EQ(l.result.definitions.size(), 2u);
  EXPECT_EQ(l.result.definitions[1].document_index, 2);
  const Diagnostic* d = l.First("WM005");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->location.line, 54u);  // the `kind: ConfigMap` line
}

TEST(Loader, ListItems) {
  std::string text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: run.ai/v1alpha1\n"
                     "  kind: Karta\n  metadata: {name: a}\n"
                     "- apiVersion: optimization.nvidia.com/v1alpha1\n  kind: ResourceInterface\n"
                     "  metadata: {name: b}\n";
  Loaded l = Load(text);
  EXPECT_EQ(l.sink.errors(), 0);
  ASSERT_EQ(l.result.definitions.size(), 2u);
  EXPECT_EQ(l.result.definitions[1].kind, DefinitionKind::kResourceInterface);
  EXPECT_EQ(l.result.definitions[1].name.location.line, 9u);
}

TEST(Loader, JsonInput) {
  std::string text =
      "{\n\t\"apiVersion\": \"run.ai/v1alpha1\", \"kind\": \"Karta\",\n"
      "\t\"metadata\": {\"name\": \"j\"},\n"
      "\t\"spec\": {\"structureDefinition\": {\"rootComponent\": {\"name\": \"r\",\n"
      "\t\t\"specDefinition\": {\"podSpecPath\": \".spec\\t| .x\"}}}}\n}\n";
  Loaded l = Load(text);
  EXPECT_EQ(l.sink.errors(), 0);
  ASSERT_EQ(l.result.definitions.size(), 1u);
  const JqField& path = *l.result.definitions[0].root.spec->pod_spec_path;
  EXPECT_EQ(path.text, ".spec\t| .x");
  Location x = path.map.Map(static_cast<uint32_t>(path.text.find(".x")));
  EXPECT_EQ(x.line, 5u);
  EXPECT_EQ(x.column, 47u);  // tabs are one byte; `\\t` is two
}

TEST(Loader, WrongApiVersion) {
  Loaded l = Load("apiVersion: run.ai/v1\nkind: Karta\nmetadata: {name: a}\n");
  const Diagnostic* d = l.First("WM005");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->location.line, 1u);
  EXPECT_EQ(d->location.column, 13u);
}

TEST(Loader, MalformedYamlDoesNotHideOtherDocuments) {
  std::string text = "apiVersion: v1\nkind: ConfigMap\n---\nkey: [1, 2\n";
  Loaded l = Load(text);
  EXPECT_TRUE(l.First("WM005"));
  const Diagnostic* d = l.First("WM001");
  ASSERT_TRUE(d);
  EXPECT_GE(d->location.line, 4u);
}

TEST(Loader, GarbageNeverThrows) {
  for (const char* text : {"\t\t:", "[", "{a: }}", "- - - -", "%YAML 9\n---\n", "a: *x",
                           "\xff\xfe\x00", "key: \"unterminated"}) {
    DiagnosticSink sink;
    EXPECT_NO_THROW(LoadDefinitions("g.yaml", text, LoadOptions{}, sink));
  }
}

TEST(Loader, FileSizeLimit) {
  LoadOptions options;
  options.max_file_bytes = 10;
  DiagnosticSink sink;
  LoadDefinitions("big.yaml", std::string(100, '#'), options, sink);
  ASSERT_EQ(sink.items().size(), 1u);
  EXPECT_EQ(sink.items()[0].rule, "WM007");
}

TEST(Loader, DeepSuspendValueIsBounded) {
  std::string value;
  for (int i = 0; i < 100; ++i) value += "[";
  for (int i = 0; i < 100; ++i) value += "]";
  std::string text = std::string(kJobSet);
  text.replace(text.find("value: true"), 11, "value: " + value);
  Loaded l = Load(text);
  EXPECT_TRUE(l.First("WM007"));
}

TEST(Loader, AliasBombInSuspendValueIsBounded) {
  // Each level holds two aliases of the previous one: 2^30 nodes if expanded.
  std::string value = "          value:\n            l0: &a0 [x, x]\n";
  for (int i = 1; i <= 30; ++i) {
    value += "            l" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" +
             std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + "]\n";
  }
  std::string text = std::string(kJobSet);
  std::string from = "        - {path: .spec.suspend, value: true}\n";
  text.replace(text.find(from), from.size(), "        - path: .spec.suspend\n" + value);
  Loaded l = Load(text);
  const Diagnostic* d = l.First("WM007");
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("nodes"), std::string::npos);
}

TEST(Loader, NamespaceWarning) {
  Loaded l = Load("apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata: {name: a, namespace: x}\n");
  const Diagnostic* d = l.First("WM009");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->severity, Severity::Warning);
}

TEST(Loader, ParsesJqFieldsAndLocatesSyntaxErrors) {
  std::string text = std::string(kJobSet);
  text.replace(text.find("replicasPath: .spec.replicatedJobs[].replicas"), 45,
               "replicasPath: .spec | .a!");
  Loaded l = Load(text, /*parse_jq=*/true);
  const Definition& d = l.result.definitions[0];
  EXPECT_TRUE(d.root.status->conditions->path->parsed());
  EXPECT_FALSE(d.children[0].scale->replicas_path->parsed());
  const Diagnostic* error = nullptr;
  for (const Diagnostic& diag : l.sink.items()) {
    if (diag.rule.rfind("WM1", 0) == 0) error = &diag;
  }
  ASSERT_TRUE(error);
  EXPECT_EQ(error->location.file, "def.yaml");
  EXPECT_EQ(error->location.line, 36u);
  EXPECT_EQ(error->location.column, 33u);  // the `!`
}

TEST(DidYouMean, EditDistance) {
  EXPECT_EQ(base::EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(base::EditDistance("", "abc"), 3u);
  EXPECT_EQ(base::ClosestMatch("ownerref", {"ownerRef", "name"}), "ownerRef");
  EXPECT_EQ(base::ClosestMatch("zzzzzz", {"ownerRef", "name"}), "");
}

}  // namespace
}  // namespace wm::definition
