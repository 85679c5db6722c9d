// Pod-side rules of UPSTREAM.md 4.4 on compiled definitions: which component a pod belongs to
// (sole pod-bearing leaf, keyPath with and without value, matchLabels ANDed with keyPath), its
// instance (upstream's not-found and no-selector errors), the single-result rule and its
// stringification, and the replica key inherited from the nearest ancestor.
#include <gtest/gtest.h>

#include "runtime/workload/pods.h"
#include "tests/unit/workload/bundle_fixture.h"

namespace wm::workload {
namespace {

using wm::testing::CompileBundle;

// A definition with root `top` and the given child components (YAML list items, 4 spaces deep).
std::string Definition(const std::string& children) {
  return R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: demo}
spec:
  structureDefinition:
    rootComponent:
      name: top
      kind: {group: example.com, version: v1, kind: Top}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running: [{byPhase: Running}]
    childComponents:
)" + children;
}

// Two roles told apart by the label `role` (head by value, worker by matchLabels + keyPath).
const char* kPodsRoles = R"(    - name: head
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.head}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels.role', value: head}
    - name: worker
      ownerRef: top
      instanceIdPath: .spec.groups[].name
      specDefinition: {podTemplateSpecPath: '.spec.groups[].template'}
      podSelector:
        componentTypeSelector:
          keyPath: .metadata.labels.group
          matchLabels: {role: worker}
        componentInstanceSelector: {idPath: .metadata.labels.group}
)";

class Pods : public ::testing::Test {
 protected:
  void Load(const std::string& children) {
    bundle_ = CompileBundle(Definition(children));
    ASSERT_NE(bundle_, nullptr);
    definition_ = &bundle_->definitions().front();
    summary_ = std::make_unique<StructureSummary>(*definition_);
  }
  // The component name InferPodComponent gives, or "error: <message>".
  std::string ComponentOf(const Value& pod) {
    PodQuerier querier(*bundle_, pod);
    auto c = InferPodComponent(querier, *summary_);
    return c.ok() ? c.value->name : "error: " + c.error.message;
  }
  const catalog::Component& C(const char* name) { return *definition_->Find(name); }

  std::shared_ptr<Bundle> bundle_;
  const catalog::Definition* definition_ = nullptr;
  std::unique_ptr<StructureSummary> summary_;
};

TEST_F(Pods, SolePodBearingLeafClaimsEveryPod) {
  Load(R"(    - name: worker
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.template}
      podSelector:
        componentTypeSelector: {keyPath: .metadata.labels.role, value: worker}
)");
  // The selector is not consulted: a pod it rejects still belongs to the only leaf.
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", R"({"role":"other"})")), "worker");
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", "{}")), "worker");
}

TEST_F(Pods, KeyPathWithValueAndMatchLabelsAndKeyPath) {
  Load(kPodsRoles);
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("h", R"({"role":"head"})")), "head");
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("w", R"({"role":"worker","group":"g1"})")), "worker");
  // matchLabels alone is not enough: the keyPath (no value) must also yield a non-null result.
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("w2", R"({"role":"worker"})")), "error: no component found for pod w2");
  // keyPath alone is not enough either: matchLabels requires role=worker.
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("w3", R"({"role":"trainer","group":"g1"})")),
            "error: no component found for pod w3");
}

TEST_F(Pods, KeyPathWithoutValueIsAnyNonNullResult) {
  Load(R"(    - name: a
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.a}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels.x, .metadata.labels.a'}
    - name: b
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.b}
      podSelector:
        componentTypeSelector: {keyPath: .metadata.labels.b}
)");
  // One non-null result among several is enough; false is not null.
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", R"({"a":false})")), "a");
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", R"({"b":""})")), "b");
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", "{}")), "error: no component found for pod p");
}

TEST_F(Pods, KeyPathValueComparesAsJsonString) {
  Load(R"(    - name: three
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.a}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels.n, .metadata.labels.m', value: "3"}
    - name: other
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.b}
)");
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", R"({"m":"3"})")), "three");  // any result equal
  // The number 3 is not the string "3" (upstream compares with `== "3"`).
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", R"({"n":3})")), "error: no component found for pod p");
}

TEST_F(Pods, SelectorErrorNamesTheComponent) {
  Load(R"(    - name: a
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.a}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels.x | error("boom")'}
    - name: b
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.b}
)");
  std::string got = ComponentOf(wm::testing::PodWithLabels("p", R"({"x":"1"})"));
  EXPECT_EQ(got.rfind("error: failed to check if pod matches component a: ", 0), 0u) << got;
  EXPECT_NE(got.find("boom"), std::string::npos) << got;
}

TEST_F(Pods, InstanceMatchingAndUpstreamErrors) {
  Load(kPodsRoles);
  Value pod = wm::testing::PodWithLabels("w", R"({"role":"worker","group":"g2"})");
  PodQuerier querier(*bundle_, pod);
  auto found = InferPodComponentInstance(querier, C("worker"), {"g1", "g2"});
  ASSERT_TRUE(found.ok()) << found.error.message;
  EXPECT_EQ(found.value, std::optional<std::string>("g2"));

  auto missing = InferPodComponentInstance(querier, C("worker"), {"a", "b"});
  EXPECT_EQ(missing.error.code, ErrorCode::kNotFound);
  EXPECT_EQ(missing.error.message, R"(could not match instance id "g2". existing instance ids [a b])");

  // A single-instance component has no instance, whatever the pod says.
  auto single = InferPodComponentInstance(querier, C("head"), {""});
  ASSERT_TRUE(single.ok());
  EXPECT_FALSE(single.value.has_value());

  // No componentInstanceSelector but named instances: upstream's error.
  auto no_selector = querier.MatchingInstanceId(C("head"), {"a"});
  EXPECT_EQ(no_selector.error.message, "no instance selector provided but instance ids are not empty");
  EXPECT_TRUE(querier.MatchingInstanceId(C("head"), {""}).ok());
}

// Every query on one pod is charged to one object budget (docs/limits.md), as the Accessor's reads
// of a workload are: the first run is cut short by what is left, the next finds it spent.
TEST_F(Pods, QueriesOfOnePodShareAnObjectBudget) {
  Load(kPodsRoles);
  Value pod = wm::testing::PodWithLabels("w", R"({"role":"worker","group":"g2"})");
  PodQueryOptions options;
  options.object.fuel = 1;
  PodQuerier querier(*bundle_, pod, options);
  auto first = querier.MatchingInstanceId(C("worker"), {"g1", "g2"});
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error.code, ErrorCode::kLimit);
  EXPECT_EQ(first.error.message,
            "failed to extract instance id from path \".metadata.labels.group\": JQ execution error for "
            "expression '.metadata.labels.group': evaluation step budget exhausted (fuel 1)");
  auto second = querier.MatchingInstanceId(C("worker"), {"g1", "g2"});
  EXPECT_EQ(second.error.code, ErrorCode::kLimit);
  EXPECT_EQ(second.error.message,
            "failed to extract instance id from path \".metadata.labels.group\": JQ execution error for "
            "expression '.metadata.labels.group': object evaluation step budget exhausted (fuel 1)");
  // A copy shares the budget; a new querier has its own.
  PodQuerier copy = querier;
  EXPECT_FALSE(copy.MatchingInstanceId(C("worker"), {"g1", "g2"}).ok());
  PodQuerier fresh(*bundle_, pod);
  EXPECT_TRUE(fresh.MatchingInstanceId(C("worker"), {"g1", "g2"}).ok());
}

TEST_F(Pods, SingleResultRuleAndStringification) {
  Load(R"(    - name: w
      ownerRef: top
      instanceIdPath: .spec.groups[].name
      specDefinition: {podTemplateSpecPath: '.spec.groups[].template'}
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels.g | if . == "two" then (1, 2) elif . == "n" then 3 else . end'}
)");
  auto instance_of = [&](const std::string& labels, std::vector<std::string> ids) {
    Value pod = wm::testing::PodWithLabels("p", labels);
    PodQuerier querier(*bundle_, pod);
    auto r = querier.MatchingInstanceId(C("w"), ids);
    return r.ok() ? r.value : "error: " + r.error.message;
  };
  const std::string path = R"(".metadata.labels.g | if . == \"two\" then (1, 2) elif . == \"n\" then 3 else . end")";
  EXPECT_EQ(instance_of("{}", {"a"}),
            "error: failed to extract instance id from path " + path + ": query result is empty <nil>");
  EXPECT_EQ(instance_of(R"({"g":""})", {"a"}),
            "error: failed to extract instance id from path " + path + ": query result is empty ");
  EXPECT_EQ(instance_of(R"({"g":"two"})", {"a"}),
            "error: failed to extract instance id from path " + path + ": expected single query result, got 2");
  // A number is stringified before it is compared with the ids (tonumber 3 -> "3").
  EXPECT_EQ(instance_of(R"({"g":"n"})", {"a", "3"}), "3");
}

TEST_F(Pods, ReplicaKeyIsInheritedFromTheNearestAncestor) {
  Load(R"(    - name: group
      ownerRef: top
      podSelector:
        replicaSelector: {keyPath: '.metadata.labels["group-index"]'}
    - name: leader
      ownerRef: group
      specDefinition: {podTemplateSpecPath: .spec.leader}
      podSelector:
        componentTypeSelector: {keyPath: .metadata.labels.role, value: leader}
    - name: worker
      ownerRef: group
      specDefinition: {podTemplateSpecPath: .spec.worker}
      podSelector:
        componentTypeSelector: {keyPath: .metadata.labels.role, value: worker}
        replicaSelector: {keyPath: '.metadata.labels["group-index"] + "/" + .metadata.labels["worker-index"]'}
)");
  Value leader = wm::testing::PodWithLabels("l", R"({"role":"leader","group-index":"2"})");
  PodQuerier lq(*bundle_, leader);
  auto inherited = ReplicaKeyOf(lq, *summary_, C("leader"));
  ASSERT_TRUE(inherited.ok()) << inherited.error.message;
  EXPECT_EQ(inherited.value, std::optional<std::string>("2"));

  Value worker = wm::testing::PodWithLabels("w", R"({"role":"worker","group-index":"2","worker-index":"3"})");
  PodQuerier wq(*bundle_, worker);
  EXPECT_EQ(ReplicaKeyOf(wq, *summary_, C("worker")).value, std::optional<std::string>("2/3"));

  // The root has no replicaSelector and no ancestor: no key, no error.
  auto none = ReplicaKeyOf(lq, *summary_, C("top"));
  EXPECT_TRUE(none.ok());
  EXPECT_FALSE(none.value.has_value());

  Value unlabelled = wm::testing::PodWithLabels("u", R"({"role":"leader"})");
  PodQuerier uq(*bundle_, unlabelled);
  EXPECT_EQ(ReplicaKeyOf(uq, *summary_, C("leader")).error.message,
            R"(failed to extract replica key from path ".metadata.labels[\"group-index\"]": query result is empty <nil>)");
}

TEST_F(Pods, NoPodBearingComponentClaimsNothing) {
  Load(R"(    - name: group
      ownerRef: top
)");
  EXPECT_EQ(ComponentOf(wm::testing::PodWithLabels("p", "{}")), "error: no component found for pod p");
}

TEST(GoText, PrintsAsGoFmt) {
  EXPECT_EQ(GoText(Value()), "<nil>");
  EXPECT_EQ(GoText(Value::String("a b")), "a b");
  EXPECT_EQ(GoText(wm::testing::ParseObject("3")), "3");
  EXPECT_EQ(GoText(std::vector<Value>{Value::String("a"), Value()}), "[a <nil>]");
  EXPECT_EQ(GoText(std::vector<std::string>{"a", "b"}), "[a b]");
  EXPECT_EQ(GoText(std::vector<std::string>{}), "[]");
}

}  // namespace
}  // namespace wm::workload
