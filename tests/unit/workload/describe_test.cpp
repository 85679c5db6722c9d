// The describe view of UPSTREAM.md section 5 on compiled definitions: Kubernetes quantity text
// (milli CPU, binary-or-decimal memory), the pod-request math (init containers, sidecars,
// pod-level resources, overhead, requests else limits), the owner-chain filter, and the tree:
// per-instance rows with their pods, replicas defaults, grouping roll-ups, dropped plumbing,
// the sole-pod-bearing rule and upstream's error wrapping.
#include <gtest/gtest.h>

#include "runtime/workload/describe.h"
#include "tests/unit/workload/bundle_fixture.h"

namespace wm::workload {
namespace {

using wm::testing::CompileBundle;
using wm::testing::ParseObject;

TEST(DescribeQuantity, CpuIsAMilliQuantityInCanonicalForm) {
  EXPECT_EQ(FormatCpuMillis(20000), "20");
  EXPECT_EQ(FormatCpuMillis(500), "500m");
  EXPECT_EQ(FormatCpuMillis(1500), "1500m");
  EXPECT_EQ(FormatCpuMillis(2000000), "2k");
  EXPECT_EQ(FormatCpuMillis(0), "0");
  EXPECT_EQ(FormatCpuMillis(-250), "-250m");
}

TEST(DescribeQuantity, MemoryPrefersBinarySuffixesElseDecimal) {
  EXPECT_EQ(FormatMemoryBytes(int64_t{64} << 30), "64Gi");
  EXPECT_EQ(FormatMemoryBytes(1536 * 1024), "1536Ki");
  EXPECT_EQ(FormatMemoryBytes(70000000), "70M");
  EXPECT_EQ(FormatMemoryBytes(512), "512");
  EXPECT_EQ(FormatMemoryBytes(1500), "1500");
  EXPECT_EQ(FormatMemoryBytes(0), "0");
}

TEST(DescribeQuantity, ValuesRoundUpAsResourceQuantityDoes) {
  EXPECT_EQ(QuantityMilliValue(Value::String("0.3")), 300);  // not 301 from binary rounding
  EXPECT_EQ(QuantityMilliValue(Value::String("2")), 2000);
  EXPECT_EQ(QuantityValue(Value::String("1.5")), 2);
  EXPECT_EQ(QuantityValue(Value::String("1Gi")), int64_t{1} << 30);
  EXPECT_EQ(QuantityValue(Value::Number(4)), 4);
  EXPECT_EQ(QuantityValue(Value::String("lots")), std::nullopt);
}

TEST(DescribeRequest, LargestInitContainerVersusContainersPlusSidecars) {
  Value spec = ParseObject(R"({
    "initContainers": [
      {"name": "warmup", "resources": {"requests": {"cpu": "4", "memory": "1Gi"}}},
      {"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "500m"}}}],
    "containers": [
      {"name": "main", "resources": {"requests": {"cpu": "2", "memory": "2Gi"},
                                     "limits": {"nvidia.com/gpu": "2"}}},
      {"name": "log", "resources": {"limits": {"cpu": "250m", "memory": "64Mi"}}}]})");
  DescribeResources r = PodRequest(spec);
  EXPECT_EQ(r.gpus, 2);                                   // limits stand in for requests
  EXPECT_EQ(r.cpu_millis, 4000);                          // init 4 > 2 + 0.25 + 0.5 (sidecar)
  EXPECT_EQ(r.memory_bytes, (int64_t{2} << 30) + (64 << 20));  // containers 2Gi+64Mi > init 1Gi
}

TEST(DescribeRequest, PodLevelResourcesReplaceAndOverheadAdds) {
  Value spec = ParseObject(R"({
    "resources": {"limits": {"cpu": "8"}},
    "overhead": {"cpu": "100m", "memory": "10Mi"},
    "containers": [{"name": "main", "resources": {"requests": {"cpu": "2", "memory": "1Gi",
                                                               "nvidia.com/gpu": 1}}}]})");
  DescribeResources r = PodRequest(spec);
  EXPECT_EQ(r.cpu_millis, 8100);
  EXPECT_EQ(r.memory_bytes, (int64_t{1} << 30) + (10 << 20));
  EXPECT_EQ(r.gpus, 1);
}

TEST(DescribeOwners, ChainThroughOwnersOfTheInputUpToSixLevels) {
  auto object = [](const std::string& kind, const std::string& uid, const std::string& owner, bool controller) {
    std::string refs = owner.empty() ? "[]"
                                     : R"([{"uid":")" + owner + R"(","controller":)" + (controller ? "true" : "false") + "}]";
    return ParseObject(R"({"kind":")" + kind + R"(","metadata":{"name":")" + uid + R"(","uid":")" + uid +
                       R"(","ownerReferences":)" + refs + "}}");
  };
  std::vector<Value> objects = {
      object("Pod", "direct", "root", false),   // any reference naming the root claims the pod
      object("Pod", "via-rs", "rs", true),      // through the ReplicaSet in the input
      object("ReplicaSet", "rs", "root", true),
      object("Pod", "orphan", "gone", true),    // owner missing from the input: not claimed
      object("Pod", "other", "rs2", true),      // another workload's ReplicaSet
      object("ReplicaSet", "rs2", "other-root", true),
      object("Pod", "loop", "l1", true),        // a cycle ends after six levels
      object("Job", "l1", "l2", true),
      object("Job", "l2", "l1", true),
  };
  std::vector<std::string> names;
  for (const Value& pod : PodsOwnedBy(objects, "root")) names.emplace_back(pod.Find("metadata")->Find("name")->AsString());
  EXPECT_EQ(names, (std::vector<std::string>{"direct", "via-rs"}));
  EXPECT_TRUE(PodsOwnedBy(objects, "").empty());
}

// A JobSet-like definition: grouping root, a multi-instance pod-bearing child told apart by label.
const char* kDescribeDefinition = R"(apiVersion: run.ai/v1alpha1
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
    - name: role
      ownerRef: top
      kind: {group: batch, version: v1, kind: Job}
      instanceIdPath: .spec.roles[].name
      specDefinition: {podTemplateSpecPath: '.spec.roles[].template'}
      scaleDefinition: {replicasPath: '.spec.roles[].replicas', minReplicasPath: '.spec.roles[].min'}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels.role'}
        componentInstanceSelector: {idPath: .metadata.labels.role}
    - name: plumbing
      ownerRef: top
      kind: {group: example.com, version: v1, kind: Plumbing}
)";

Value Workload() {
  return ParseObject(R"({"apiVersion":"example.com/v1","kind":"Top",
    "metadata":{"name":"demo","namespace":"ns","uid":"root"},
    "spec":{"roles":[
      {"name":"worker","replicas":2,"template":{"spec":{"containers":[{"resources":{"limits":{"nvidia.com/gpu":4},"requests":{"cpu":"1","memory":"1Gi"}}}]}}},
      {"name":"driver","min":3,"template":{"spec":{"containers":[{"resources":{"requests":{"cpu":"500m"}}}]}}}]},
    "status":{"phase":"Running"}})");
}

Value Pod(const std::string& name, const std::string& role, bool ready, const std::string& node) {
  std::string ready_text = ready ? "True" : "False";
  return ParseObject(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","labels":{"role":")" +
                     role + R"("}},"spec":{"nodeName":")" + node +
                     R"(","containers":[{"resources":{"limits":{"nvidia.com/gpu":4}}}]},"status":{"phase":"Running",
                     "conditions":[{"type":"Ready","status":")" + ready_text + R"(","reason":"ContainersNotReady"}]}})");
}

TEST(DescribeView, InstancesSortedWithTheirPodsReplicasAndResources) {
  auto bundle = CompileBundle(kDescribeDefinition);
  ASSERT_NE(bundle, nullptr);
  std::vector<Value> pods = {Pod("w-1", "worker", true, "node-b"), Pod("w-0", "worker", false, ""),
                             Pod("d-0", "driver", true, "node-a")};
  DescribeViewOptions options;
  options.origin = "built-in";
  auto view = BuildDescribeView(*bundle, bundle->definitions().front(), Workload(), pods, options);
  ASSERT_TRUE(view.ok()) << view.error.message;
  EXPECT_EQ(view.value.phases, (std::vector<std::string>{"Running"}));
  ASSERT_EQ(view.value.components.size(), 1u);  // the empty plumbing component is dropped
  const DescribeComponent& role = view.value.components[0];
  EXPECT_EQ(role.name, "role");
  EXPECT_EQ(role.kind, "Job");
  ASSERT_EQ(role.children.size(), 2u);
  EXPECT_EQ(role.children[0].name, "driver");  // instance keys sorted
  EXPECT_EQ(role.children[0].replicas.desired, 3);  // minReplicas when replicas is absent
  EXPECT_EQ(role.children[0].resources.cpu_millis, 1500);
  const DescribeComponent& worker = role.children[1];
  EXPECT_EQ(worker.replicas.desired, 2);
  EXPECT_EQ(worker.replicas.current, 2);
  EXPECT_EQ(worker.replicas.ready, 1);
  EXPECT_EQ(worker.resources.gpus, 8);
  ASSERT_EQ(worker.pods.size(), 2u);
  EXPECT_EQ(worker.pods[0].name, "w-0");  // sorted by name
  EXPECT_EQ(worker.pods[0].reason, "ContainersNotReady");
  EXPECT_FALSE(worker.pods[0].node.has_value());
  EXPECT_EQ(worker.nodes, (std::vector<std::string>{"node-b"}));
  EXPECT_EQ(role.replicas.desired, 5);
  EXPECT_EQ(role.nodes, (std::vector<std::string>{"node-a", "node-b"}));
  EXPECT_EQ(view.value.resources.gpus, 8);
  EXPECT_EQ(view.value.resources.memory_bytes, int64_t{2} << 30);
}

TEST(DescribeView, JsonCarriesUpstreamFieldNames) {
  auto bundle = CompileBundle(kDescribeDefinition);
  ASSERT_NE(bundle, nullptr);
  DescribeViewOptions options;
  options.file_mode = true;
  auto view = BuildDescribeView(*bundle, bundle->definitions().front(), Workload(), {}, options);
  ASSERT_TRUE(view.ok()) << view.error.message;
  Value json = DescribeViewJson(view.value);
  EXPECT_EQ(json.Find("fileMode")->kind(), Kind::True);
  EXPECT_EQ(json.Find("createdAt")->AsString(), "0001-01-01T00:00:00Z");
  EXPECT_EQ(json.Find("resources")->Find("cpuMillis")->AsNumber(), 3500);
  const Value& role = json.Find("components")->AsArray().front();
  EXPECT_EQ(role.Find("replicas")->Find("desired")->AsNumber(), 5);
  EXPECT_EQ(role.Find("pods"), nullptr);  // omitempty
  EXPECT_NE(role.Find("children"), nullptr);
}

TEST(DescribeView, ExtractionErrorsAreWrappedAsUpstreamDoes) {
  auto bundle = CompileBundle(kDescribeDefinition);
  ASSERT_NE(bundle, nullptr);
  Value broken = ParseObject(R"({"apiVersion":"example.com/v1","kind":"Top","metadata":{"name":"x"},
    "spec":{"roles":[{"name":"a","replicas":"many"}]}})");
  auto view = BuildDescribeView(*bundle, bundle->definitions().front(), broken, {});
  ASSERT_FALSE(view.ok());
  EXPECT_EQ(view.error.message.rfind("build tree: build instance nodes for component top: get extracted "
                                     "instances for component role: ",
                                     0),
            0u)
      << view.error.message;
}

TEST(DescribeRequest, FragmentedSpecCountsCrLevelResourcesOnlyWithoutContainerRequests) {
  ExtractedInstance instance;
  instance.fragmented_pod_spec.emplace();
  FragmentedPodSpec& f = *instance.fragmented_pod_spec;
  f[FragmentedField::kResources] = ParseObject(R"({"limits": {"nvidia.com/gpu": "4", "cpu": "8"}})");
  EXPECT_EQ(InstanceRequest(instance).gpus, 4);
  EXPECT_EQ(InstanceRequest(instance).cpu_millis, 8000);
  f[FragmentedField::kContainer] = ParseObject(R"({"name": "main", "resources": {"requests": {"cpu": "1"}}})");
  f[FragmentedField::kContainers] = ParseObject(R"([{"resources": {"requests": {"nvidia.com/gpu": 1}}}])");
  EXPECT_EQ(InstanceRequest(instance), (DescribeResources{1, 1000, 0}));
}

// Two pod-bearing components: the one without a componentTypeSelector claims no pod (it is not
// the sole pod-bearing component), the other keeps the pods its selector matches.
TEST(DescribeView, SelectorlessPeerClaimsNoPod) {
  auto bundle = CompileBundle(R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: pair}
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
    - name: server
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.server}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels.role', value: server}
    - name: sidecar
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.sidecar}
)");
  ASSERT_NE(bundle, nullptr);
  Value object = ParseObject(R"({"apiVersion":"example.com/v1","kind":"Top","metadata":{"name":"p"},
    "spec":{"server":{"spec":{"containers":[{}]}},"sidecar":{"spec":{"containers":[{}]}}}})");
  auto view = BuildDescribeView(*bundle, bundle->definitions().front(), object,
                                {Pod("s-0", "server", true, "n1"), Pod("x-0", "other", true, "n2")});
  ASSERT_TRUE(view.ok()) << view.error.message;
  ASSERT_EQ(view.value.components.size(), 2u);
  ASSERT_EQ(view.value.components[0].pods.size(), 1u);
  EXPECT_EQ(view.value.components[0].pods[0].name, "s-0");
  EXPECT_TRUE(view.value.components[1].pods.empty());  // kept at 1 desired, 0 current
  EXPECT_EQ(view.value.components[1].replicas.desired, 1);
  EXPECT_EQ(view.value.phases, (std::vector<std::string>{"Undefined"}));  // no phase definition matched
}

}  // namespace
}  // namespace wm::workload
