// Tests of the definition model's helpers: role names and inputs, status keys, kind printing.
#include <gtest/gtest.h>

#include <set>
#include <string>

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

}  // namespace
}  // namespace wm::definition
