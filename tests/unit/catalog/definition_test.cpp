// The compiled catalog (runtime/catalog): finding a definition by the kind of a live object, and
// the manifest encoding the bundle stores (a round trip keeps every field; FromJson refuses
// resolver indexes outside the bundle's resolver table).
#include <gtest/gtest.h>

#include "runtime/catalog/definition.h"

namespace wm::catalog {
namespace {

Definition OneComponent(std::string name, base::GroupVersionKind kind) {
  Definition d;
  d.name = std::move(name);
  Component root;
  root.name = "root";
  root.kind = std::move(kind);
  d.components.push_back(std::move(root));
  return d;
}

TEST(CatalogFindByKind, MatchesApiVersionAndKindOfTheRoot) {
  std::vector<Definition> definitions = {
      OneComponent("jobset", {"jobset.x-k8s.io", "v1alpha2", "JobSet"}),
      OneComponent("pod", {"", "v1", "Pod"}),
  };
  EXPECT_EQ(FindByKind(definitions, "jobset.x-k8s.io/v1alpha2", "JobSet"), &definitions[0]);
  EXPECT_EQ(FindByKind(definitions, "v1", "Pod"), &definitions[1]);  // core group: no "group/"
  EXPECT_EQ(FindByKind(definitions, "jobset.x-k8s.io/v1", "JobSet"), nullptr);
  EXPECT_EQ(FindByKind(definitions, "v1", "JobSet"), nullptr);
  EXPECT_EQ(FindByKind({}, "v1", "Pod"), nullptr);
}

Definition Rich() {
  Definition d = OneComponent("app", {"example.com", "v1", "App"});
  Component& root = d.components[0];
  root.pod_template_spec = 0;
  root.replicas = 1;
  root.fragmented["containersPath"] = 2;
  StatusMatcher running;
  running.by_phase = "";  // a real (empty) phase, not an absent criterion
  running.by_conditions.push_back({"Ready", "True", ""});
  running.by_expression = 2;
  running.expected_result = Value::Bool(true);
  root.status.phase_path = 1;
  root.status.mappings.push_back({"running", {running}});
  Component worker;
  worker.name = "worker";
  worker.kind = {"", "v1", "Pod"};
  worker.owner = "root";
  worker.type_selector_labels["role"] = "worker";
  d.components.push_back(worker);
  d.additional_child_kinds.push_back({"", "v1", "Service"});
  d.gang_groups.push_back({"all", {{"worker", {0}, {1, 2}}}});
  return d;
}

TEST(CatalogManifest, RoundTripKeepsEveryField) {
  Definition back;
  std::string error;
  ASSERT_TRUE(FromJson(ToJson(Rich()), 3, &back, &error)) << error;
  ASSERT_EQ(back.components.size(), 2u);
  const Component& root = back.root();
  EXPECT_EQ(root.kind.ApiVersion(), "example.com/v1");
  EXPECT_EQ(root.pod_template_spec, 0);
  EXPECT_EQ(root.replicas, 1);
  EXPECT_EQ(root.pod_spec, kNoResolver);
  EXPECT_EQ(root.fragmented.at("containersPath"), 2);
  ASSERT_EQ(root.status.mappings.size(), 1u);
  const StatusMatcher& m = root.status.mappings[0].second.at(0);
  ASSERT_TRUE(m.by_phase.has_value());
  EXPECT_EQ(*m.by_phase, "");
  EXPECT_EQ(m.by_conditions.at(0).type, "Ready");
  EXPECT_EQ(m.by_expression, 2);
  EXPECT_TRUE(m.expected_result.IsBool());
  EXPECT_EQ(back.Find("worker")->owner, "root");
  EXPECT_EQ(back.Find("worker")->type_selector_labels.at("role"), "worker");
  EXPECT_EQ(back.Find("missing"), nullptr);
  EXPECT_EQ(back.additional_child_kinds.at(0).kind, "Service");
  EXPECT_EQ(back.gang_groups.at(0).members.at(0).group_by_key_paths, (std::vector<int32_t>{1, 2}));
}

TEST(CatalogManifest, RefusesResolverIndexesOutsideTheTable) {
  Definition back;
  std::string error;
  EXPECT_FALSE(FromJson(ToJson(Rich()), 2, &back, &error));  // index 2 needs three resolvers
  EXPECT_NE(error.find("not a valid resolver index"), std::string::npos) << error;
}

TEST(CatalogManifest, RefusesADefinitionWithoutComponents) {
  Definition empty;
  empty.name = "hollow";
  Definition back;
  std::string error;
  EXPECT_FALSE(FromJson(ToJson(empty), 0, &back, &error));
  EXPECT_EQ(error, "definition 'hollow' has no components");
}

}  // namespace
}  // namespace wm::catalog
