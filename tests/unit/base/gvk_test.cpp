// Tests of base/gvk.h: parsing apiVersion + kind and the two printed spellings.
#include "base/gvk.h"

#include <gtest/gtest.h>

namespace wm::base {
namespace {

TEST(GroupVersionKind, FromApiVersion) {
  GroupVersionKind job = GroupVersionKind::FromApiVersion("batch/v1", "Job");
  EXPECT_EQ(job, (GroupVersionKind{"batch", "v1", "Job"}));
  GroupVersionKind pod = GroupVersionKind::FromApiVersion("v1", "Pod");
  EXPECT_EQ(pod, (GroupVersionKind{"", "v1", "Pod"}));
  EXPECT_EQ(GroupVersionKind::FromApiVersion("core/v1", "Pod"), pod);
}

TEST(GroupVersionKind, Spellings) {
  GroupVersionKind js{"jobset.x-k8s.io", "v1alpha2", "JobSet"};
  EXPECT_EQ(js.ApiVersion(), "jobset.x-k8s.io/v1alpha2");
  EXPECT_EQ(js.ToString(), "jobset.x-k8s.io/v1alpha2 JobSet");
  EXPECT_EQ(js.KubernetesString(), "jobset.x-k8s.io/v1alpha2, Kind=JobSet");
  GroupVersionKind pod{"", "v1", "Pod"};
  EXPECT_EQ(pod.ApiVersion(), "v1");
  EXPECT_EQ(pod.ToString(), "v1 Pod");
  EXPECT_EQ(pod.KubernetesString(), "v1, Kind=Pod");
}

TEST(GroupVersionKind, FullAndOrder) {
  EXPECT_TRUE((GroupVersionKind{"", "v1", "Pod"}).full());
  EXPECT_FALSE((GroupVersionKind{"batch", "", "Job"}).full());
  EXPECT_FALSE((GroupVersionKind{"batch", "v1", ""}).full());
  EXPECT_TRUE((GroupVersionKind{"", "v1", ""}).empty());
  EXPECT_LT((GroupVersionKind{"a", "v1", "X"}), (GroupVersionKind{"b", "v1", "X"}));
}

}  // namespace
}  // namespace wm::base
