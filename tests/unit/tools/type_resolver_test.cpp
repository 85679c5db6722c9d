// Tests of tools/type_resolver.h: TYPE tokens as kli resolves them (kind in any case, plural,
// singular, short names, kind.version.group, plural.group), the preferred version, built-in groups
// before CRD groups, kli's wording for unknown and ambiguous tokens, and the kubectl argument.
#include "tools/type_resolver.h"

#include <gtest/gtest.h>

namespace wm::tools {
namespace {

using base::GroupVersionKind;

// A catalog shaped like the built-in one where it matters: two Jobs, two versions of one CRD.
std::vector<GroupVersionKind> Covered() {
  return {{"", "v1", "Pod"},
          {"apps", "v1", "Deployment"},
          {"batch", "v1", "Job"},
          {"batch.volcano.sh", "v1alpha1", "Job"},
          {"jobset.x-k8s.io", "v1alpha2", "JobSet"},
          {"leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet"},
          {"nvidia.com", "v1alpha1", "DynamoGraphDeployment"},
          {"nvidia.com", "v1beta1", "DynamoGraphDeployment"},
          {"example.com", "v1", "Widget"},
          {"other.example.org", "v1", "Widget"}};
}

std::string Resolve(std::string_view token) {
  TypeError error;
  auto type = ResolveType(Covered(), token, &error);
  return type ? type->KubectlResource() : "error: " + error.message;
}

TEST(TypeResolverTest, KindPluralSingularAndShortNamesInAnyCase) {
  EXPECT_EQ(Resolve("JobSet"), "jobsets.v1alpha2.jobset.x-k8s.io");
  EXPECT_EQ(Resolve("jobset"), "jobsets.v1alpha2.jobset.x-k8s.io");
  EXPECT_EQ(Resolve("JOBSETS"), "jobsets.v1alpha2.jobset.x-k8s.io");
  EXPECT_EQ(Resolve("lws"), "leaderworkersets.v1.leaderworkerset.x-k8s.io");
  EXPECT_EQ(Resolve("deploy"), "deployments.v1.apps");
  EXPECT_EQ(Resolve("po"), "pods");
  EXPECT_EQ(Resolve("Pod"), "pods");
}

TEST(TypeResolverTest, QualifiedForms) {
  EXPECT_EQ(Resolve("JobSet.v1alpha2.jobset.x-k8s.io"), "jobsets.v1alpha2.jobset.x-k8s.io");
  EXPECT_EQ(Resolve("jobsets.jobset.x-k8s.io"), "jobsets.v1alpha2.jobset.x-k8s.io");
  EXPECT_EQ(Resolve("deployments.apps"), "deployments.v1.apps");
  EXPECT_EQ(Resolve("deployment.v1.apps"), "deployments.v1.apps");
  // A group that starts like a version is read as X.group when X.version.group finds nothing.
  EXPECT_EQ(Resolve("jobs.batch.volcano.sh"), "jobs.v1alpha1.batch.volcano.sh");
  EXPECT_EQ(Resolve("vcjob"), "jobs.v1alpha1.batch.volcano.sh");
  // The version selects one definition of a kind several versions cover.
  EXPECT_EQ(Resolve("dgd.v1alpha1.nvidia.com"), "dynamographdeployments.v1alpha1.nvidia.com");
  EXPECT_EQ(Resolve("Pod.v1"), "error: no Karta definition covers \"Pod.v1\"");
  EXPECT_EQ(Resolve("jobsets.v9.jobset.x-k8s.io"), "error: no Karta definition covers \"jobsets.v9.jobset.x-k8s.io\"");
}

TEST(TypeResolverTest, PreferredVersionAndBuiltinGroupFirst) {
  EXPECT_EQ(Resolve("dgd"), "dynamographdeployments.v1beta1.nvidia.com");
  // kubectl lists built-in groups before CRD groups: `job` is batch/v1 Job.
  EXPECT_EQ(Resolve("job"), "jobs.v1.batch");
  EXPECT_EQ(Resolve("Jobs"), "jobs.v1.batch");
}

TEST(TypeResolverTest, UnknownAndAmbiguousInKlisWording) {
  EXPECT_EQ(Resolve("foo"), "error: no Karta definition covers \"foo\"");
  EXPECT_EQ(Resolve("replicasets"), "error: no Karta definition covers \"replicasets\"");
  EXPECT_EQ(Resolve("widgets"),
            "error: \"widgets\" matches more than one Karta definition, retry with one of: "
            "Widget.v1.example.com, Widget.v1.other.example.org");
  EXPECT_EQ(Resolve("widgets.example.com"), "widgets.v1.example.com");
}

TEST(TypeResolverTest, NamesFromTheTableElseKubectlsGuess) {
  EXPECT_EQ(NamesOf("milvus.io", "Milvus").plural, "milvuses");
  EXPECT_EQ(NamesOf("agents.x-k8s.io", "Sandbox").plural, "sandboxes");
  EXPECT_EQ(NamesOf("kueue.x-k8s.io", "Workload").short_names.front(), "kwl");
  EXPECT_EQ(NamesOf("example.com", "Widget").plural, "widgets");
  EXPECT_EQ(NamesOf("example.com", "Policy").plural, "policies");
  EXPECT_EQ(NamesOf("example.com", "Class").plural, "classes");
  EXPECT_EQ(NamesOf("example.com", "Class").singular, "class");
}

TEST(TypeResolverTest, AllCoveredTypesOnePerGroupAndKind) {
  std::vector<std::string> resources;
  for (const auto& t : AllCoveredTypes(Covered())) resources.push_back(t.KubectlResource());
  EXPECT_EQ(resources, (std::vector<std::string>{"pods", "deployments.v1.apps", "jobs.v1.batch",
                                                 "jobs.v1alpha1.batch.volcano.sh", "widgets.v1.example.com",
                                                 "jobsets.v1alpha2.jobset.x-k8s.io",
                                                 "leaderworkersets.v1.leaderworkerset.x-k8s.io",
                                                 "dynamographdeployments.v1beta1.nvidia.com",
                                                 "widgets.v1.other.example.org"}));
}

TEST(TypeResolverTest, KubeVersionPriority) {
  std::vector<std::string> order = {"v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v1alpha2", "v1alpha1", "abc", "xyz"};
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    EXPECT_GT(CompareKubeVersions(order[i], order[i + 1]), 0) << order[i] << " vs " << order[i + 1];
    EXPECT_LT(CompareKubeVersions(order[i + 1], order[i]), 0) << order[i + 1] << " vs " << order[i];
  }
  EXPECT_EQ(CompareKubeVersions("v1beta1", "v1beta1"), 0);
  EXPECT_LT(CompareKubeVersions("v1beta", "v1alpha1"), 0);  // not a Kubernetes version
}

}  // namespace
}  // namespace wm::tools
