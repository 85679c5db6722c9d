// Tests of the definition model's helpers: role names and inputs, status keys, kind printing.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compiler/definition/loader.h"
#include "compiler/definition/model.h"

namespace wm::definition {
namespace {

TEST(Model, RoleNamesAreDistinctAndInputsMatchTheUpstreamDocs) {
  std::set<std::string_view> names;
  for (int r = static_cast<int>(JqRole::kInstanceId); r <= static_cast<int>(JqRole::kGangGroupByKey);
       ++r) {
    JqRole role = static_cast<JqRole>(r);
    EXPECT_TRUE(names.insert(RoleName(role)).second) << RoleName(role);
    EXPECT_FALSE(FieldName(role).empty());
  }
  EXPECT_EQ(names.size(), 28u);
  // Pod selectors and gang paths read pods; everything else reads the workload object.
  EXPECT_EQ(InputOf(JqRole::kTypeSelectorKey), JqInput::kPod);
  EXPECT_EQ(InputOf(JqRole::kGangFilter), JqInput::kPod);
  EXPECT_EQ(InputOf(JqRole::kInstanceId), JqInput::kWorkload);
  EXPECT_EQ(InputOf(JqRole::kStatusExpression), JqInput::kWorkload);
}

TEST(Model, StatusKeysRoundTripInPrecedenceOrder) {
  const char* keys[] = {"resuming", "suspending", "suspended", "running",
                        "failed",   "completed",  "initializing", "degraded"};
  for (int i = 0; i < kResourceStatusCount; ++i) {
    ResourceStatus status = static_cast<ResourceStatus>(i);
    EXPECT_EQ(StatusKey(status), keys[i]);
    EXPECT_EQ(StatusFromKey(keys[i]), status);
  }
  EXPECT_EQ(StatusDisplayName(ResourceStatus::kRunning), "Running");
  EXPECT_FALSE(StatusFromKey("Running"));
}

TEST(Model, KindToString) {
  GroupVersionKind pod;
  pod.version.value = "v1";
  pod.kind.value = "Pod";
  EXPECT_EQ(pod.ToString(), "v1, Kind=Pod");
  EXPECT_TRUE(pod.full());
  GroupVersionKind job = pod;
  job.group.value = "batch";
  job.kind.value = "Job";
  EXPECT_EQ(job.ToString(), "batch/v1, Kind=Job");
  job.version.value.clear();
  EXPECT_FALSE(job.full());
}

TEST(Model, ComponentsAndPodDefinition) {
  Definition d;
  d.has_root = true;
  d.root.name.value = "root";
  Component child;
  child.name.value = "child";
  child.spec.emplace();
  EXPECT_FALSE(child.HasPodDefinition());
  child.spec->fragmented.emplace();
  EXPECT_TRUE(child.HasPodDefinition());
  d.children.push_back(std::move(child));
  const Definition& cd = d;
  ASSERT_EQ(cd.Components().size(), 2u);
  EXPECT_EQ(cd.Components()[0]->name.value, "root");
  EXPECT_EQ(cd.FindComponent("child"), &d.children[0]);
}

// Every jq field's Go-style path names where it sits in the YAML, with list indexes, in the
// visiting order of ForEachJqField.
TEST(Model, JqFieldPathsFollowTheDocument) {
  const char* text = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: paths}
spec:
  structureDefinition:
    rootComponent:
      name: top
      kind: {group: example.com, version: v1, kind: Top}
      suspendDefinition:
        suspendActions: [{path: .spec.a, value: "true"}, {path: .spec.b, value: "1"}]
        resumeActions: [{path: .spec.a, value: "false"}]
    childComponents:
    - name: worker
      ownerRef: top
      specDefinition:
        fragmentedPodSpecDefinition: {labelsPath: .l, imagePath: .i}
      podSelector:
        componentTypeSelector: {keyPath: .k}
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: g
        members:
        - {componentName: worker, filters: [.f0, .f1], groupByKeyPaths: [.g0]}
)";
  DiagnosticSink sink;
  LoadOptions options;
  options.parse_jq = false;
  std::vector<Definition> defs = LoadDefinitions("p.yaml", text, options, sink).definitions;
  ASSERT_EQ(defs.size(), 1u);
  std::vector<std::string> paths, texts, plain;
  ForEachJqFieldWithPath(defs[0], [&](std::string_view, JqRole, const std::string& path,
                                      const JqField& field) {
    paths.push_back(path);
    texts.push_back(field.text);
  });
  ForEachJqField(defs[0], [&](std::string_view, JqRole, const JqField& field) {
    plain.push_back(field.text);
  });
  EXPECT_EQ(texts, plain);
  const std::string root = "spec.structureDefinition.rootComponent.suspendDefinition.";
  const std::string child = "spec.structureDefinition.childComponents[0].";
  const std::string member = "spec.optimizationInstructions.gangScheduling.podGroups[0].members[0].";
  EXPECT_EQ(paths, (std::vector<std::string>{
                       root + "suspendActions[0].path",
                       root + "suspendActions[1].path",
                       root + "resumeActions[0].path",
                       child + "specDefinition.fragmentedPodSpecDefinition.labelsPath",
                       child + "specDefinition.fragmentedPodSpecDefinition.imagePath",
                       child + "podSelector.componentTypeSelector.keyPath",
                       member + "filters[0]",
                       member + "filters[1]",
                       member + "groupByKeyPaths[0]",
                   }));
}

}  // namespace
}  // namespace wm::definition
