// Gang rules of UPSTREAM.md 4.5 and the KAI Karta grouper: effective minimums, subtree scales
// (leaf, own x S, S when own is 0, own when S is 0, one instance, the leaf count without any scale
// definition), effective components (direct mention before ancestor, filters that must yield
// boolean true), PodGroup names, podGroup plans and subgroup membership. Scales and instance ids
// come from a fake reader, as the Accessor would give them.
#include <gtest/gtest.h>

#include <map>

#include "runtime/workload/gangs.h"
#include "tests/unit/workload/bundle_fixture.h"

namespace wm::workload {
namespace {

using wm::testing::CompileBundle;

// Instance ids and per-instance scales by component name; a component not listed has [""] and
// no scale definition.
struct FakeWorkload {
  std::map<std::string, std::vector<std::string>> ids;
  std::map<std::string, std::vector<Scale>> scales;

  ScaleReader Reader() const {
    ScaleReader r;
    r.instance_ids = [this](const catalog::Component& c) -> Result<std::vector<std::string>> {
      auto it = ids.find(c.name);
      return {it == ids.end() ? std::vector<std::string>{""} : it->second, {}};
    };
    r.scales = [this](const catalog::Component& c) -> Result<std::vector<Scale>> {
      auto it = scales.find(c.name);
      return {it == scales.end() ? std::vector<Scale>{} : it->second, {}};
    };
    return r;
  }
};

Scale Counts(std::optional<int32_t> replicas, std::optional<int32_t> min_replicas) {
  Scale s;
  s.replicas = replicas;
  s.min_replicas = min_replicas;
  return s;
}
Scale Replicas(int32_t n) { return Counts(n, std::nullopt); }

// job -> group -> {leader, worker}; `scaled` lists the components with a scaleDefinition, `pods`
// the pod-bearing ones, `instanced` those with an instanceIdPath (resolver ids are placeholders:
// these tests read no resolver).
catalog::Definition Tree(std::vector<std::string> scaled, std::vector<std::string> instanced = {}) {
  catalog::Definition d;
  d.name = "demo";
  for (auto [name, owner] : std::vector<std::pair<std::string, std::string>>{
           {"job", ""}, {"group", "job"}, {"leader", "group"}, {"worker", "group"}}) {
    catalog::Component c;
    c.name = name;
    c.owner = owner;
    if (name == "leader" || name == "worker") c.pod_template_spec = 0;
    for (const auto& s : scaled) {
      if (s == name) c.replicas = 0;
    }
    for (const auto& s : instanced) {
      if (s == name) c.instance_id = 0;
    }
    d.components.push_back(c);
  }
  return d;
}

std::string ScaleText(const catalog::Definition& d, const FakeWorkload& w, const char* component,
                      std::optional<std::string> instance = std::nullopt) {
  StructureSummary summary(d);
  ScaleReader reader = w.Reader();
  auto r = CalculateSubtreeScale(summary, reader, *d.Find(component), instance);
  return r.ok() ? std::to_string(r.value) : "error: " + r.error.message;
}

TEST(EffectiveMinReplicas, MinThenReplicasThenZero) {
  EXPECT_EQ(EffectiveMinReplicas(Counts(4, 2)), 2);
  EXPECT_EQ(EffectiveMinReplicas(Counts(4, 0)), 4);
  EXPECT_EQ(EffectiveMinReplicas(Counts(4, std::nullopt)), 4);
  EXPECT_EQ(EffectiveMinReplicas(Counts(-1, std::nullopt)), 0);
  EXPECT_EQ(EffectiveMinReplicas(Scale{}), 0);
}

TEST(SubtreeScale, LeafOwnTimesChildrenSum) {
  catalog::Definition d = Tree({"group", "leader", "worker"});
  FakeWorkload w;
  w.scales = {{"group", {Replicas(3)}}, {"leader", {Replicas(1)}}, {"worker", {Counts(4, 2)}}};
  EXPECT_EQ(ScaleText(d, w, "leader"), "1");  // a leaf: its own scale
  EXPECT_EQ(ScaleText(d, w, "worker"), "2");  // minReplicas wins
  EXPECT_EQ(ScaleText(d, w, "group"), "9");   // own 3 x (1 + 2)
  EXPECT_EQ(ScaleText(d, w, "job"), "9");     // no own scale: carries the children's sum
}

TEST(SubtreeScale, ChildrenWithoutScaleLeaveItToTheParent) {
  catalog::Definition d = Tree({"group"});
  FakeWorkload w;
  w.scales = {{"group", {Replicas(5)}}};
  EXPECT_EQ(ScaleText(d, w, "group"), "5");  // S == 0 -> own
  EXPECT_EQ(ScaleText(d, w, "leader"), "0");
}

TEST(SubtreeScale, OneInstanceOfAMultiInstanceComponent) {
  catalog::Definition d = Tree({"worker"}, {"worker"});
  FakeWorkload w;
  w.ids = {{"worker", {"a", "b"}}};
  w.scales = {{"worker", {Counts(6, 2), Replicas(3)}}};
  EXPECT_EQ(ScaleText(d, w, "worker"), "5");
  EXPECT_EQ(ScaleText(d, w, "worker", "b"), "3");
  EXPECT_EQ(ScaleText(d, w, "worker", "c"), "error: instance id c not found");
  EXPECT_EQ(ScaleText(d, w, "worker", ""), "error: instance id is empty");
  // The instance only narrows the subtree root, not an ancestor's sum.
  EXPECT_EQ(ScaleText(d, w, "group", "b"), "5");
}

TEST(SubtreeScale, SingleInstanceIgnoresTheInstanceId) {
  catalog::Definition d = Tree({"worker"});
  FakeWorkload w;
  w.scales = {{"worker", {Replicas(4)}}};
  // Upstream looks the id up only when there are several instances.
  EXPECT_EQ(ScaleText(d, w, "worker", "anything"), "4");
}

TEST(SubtreeScale, RepeatedInstanceIdCountsOnce) {
  catalog::Definition d = Tree({"worker"}, {"worker"});
  FakeWorkload w;
  w.ids = {{"worker", {"a", "a"}}};
  w.scales = {{"worker", {Replicas(2), Replicas(7)}}};
  EXPECT_EQ(ScaleText(d, w, "worker"), "7");  // upstream's map by id keeps the last
}

TEST(SubtreeScale, WithoutAnyScaleDefinitionCountsPodBearingLeaves) {
  catalog::Definition d = Tree({}, {"worker"});
  FakeWorkload w;
  w.ids = {{"worker", {"a", "b", "c"}}};
  EXPECT_EQ(ScaleText(d, w, "job"), "4");    // leader 1 + worker's 3 instances
  EXPECT_EQ(ScaleText(d, w, "leader"), "1");
  EXPECT_EQ(ScaleText(d, w, "worker", "b"), "1");
  EXPECT_EQ(ScaleText(d, w, "worker", "z"), "error: instance id z not found");
}

TEST(SubtreeScale, ReaderErrorsPropagateButMissingScaleIsZero) {
  catalog::Definition d = Tree({"group", "worker"});
  FakeWorkload w;
  StructureSummary summary(d);
  ScaleReader reader = w.Reader();
  reader.scales = [](const catalog::Component& c) -> Result<std::vector<Scale>> {
    if (c.name == "worker") return {{}, {ErrorCode::kEvaluation, "replicas value \"x\" at index 0 is not a number"}};
    return {{}, {ErrorCode::kNoDefinition, "component " + c.name + " does not have scale definition"}};
  };
  auto r = CalculateSubtreeScale(summary, reader, *d.Find("group"));
  EXPECT_EQ(r.error.message, "replicas value \"x\" at index 0 is not a number");
  EXPECT_EQ(CalculateSubtreeScale(summary, reader, *d.Find("leader")).value, 0);
}

// A gang definition compiled to a bundle: LWS-like group -> leader/worker with legacy podGroups
// whose members are filtered, plus the current podGroup with subgroups.
const char* kGangDefinition = R"(apiVersion: run.ai/v1alpha1
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
    - name: group
      ownerRef: top
      scaleDefinition: {replicasPath: .spec.groups}
    - name: leader
      ownerRef: group
      specDefinition: {podTemplateSpecPath: .spec.leader}
      scaleDefinition: {replicasPath: "1"}
      podSelector:
        componentTypeSelector: {keyPath: .metadata.labels.role, value: leader}
    - name: worker
      ownerRef: group
      specDefinition: {podTemplateSpecPath: .spec.worker}
      scaleDefinition: {replicasPath: .spec.workers}
      podSelector:
        componentTypeSelector: {keyPath: .metadata.labels.role, value: worker}
  optimizationInstructions:
    gangScheduling:
      podGroup:
        name: gang
        topology: {topologyName: dc, requiredTopologyLevel: rack, preferredTopologyLevel: host}
        subGroups:
        - componentName: leader
        - componentName: group
          topology: {topologyName: dc, preferredTopologyLevel: host}
      podGroups:
      - name: special
        members:
        - componentName: worker
          filters: ['.metadata.labels.special']
          groupByKeyPaths: ['.metadata.labels.job']
      - name: all
        members:
        - componentName: group
          groupByKeyPaths: ['.metadata.labels.job', '.metadata.labels.index']
)";

class Gangs : public ::testing::Test {
 protected:
  void SetUp() override {
    bundle_ = CompileBundle(kGangDefinition);
    ASSERT_NE(bundle_, nullptr);
    d_ = &bundle_->definitions().front();
    summary_ = std::make_unique<StructureSummary>(*d_);
    workload_.scales = {{"group", {Replicas(2)}}, {"leader", {Replicas(1)}}, {"worker", {Replicas(3)}}};
    identity_ = {"lws", "ns", "uid-1"};
  }
  const catalog::Component& C(const char* name) { return *d_->Find(name); }

  std::shared_ptr<Bundle> bundle_;
  const catalog::Definition* d_ = nullptr;
  std::unique_ptr<StructureSummary> summary_;
  FakeWorkload workload_;
  WorkloadIdentity identity_;
};

TEST_F(Gangs, CandidatesListDirectMentionsBeforeAncestors) {
  const auto& candidates = summary_->candidates.at("worker");
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].component, "worker");
  EXPECT_EQ(candidates[0].group, "special");
  EXPECT_EQ(candidates[1].component, "group");
  EXPECT_EQ(summary_->candidates.at("leader").size(), 1u);
  EXPECT_EQ(summary_->candidates.count("top"), 0u);
}

TEST_F(Gangs, FilterMustYieldBooleanTrue) {
  auto effective_of = [&](const std::string& labels) {
    Value pod = wm::testing::PodWithLabels("w", labels);
    PodQuerier q(*bundle_, pod);
    auto r = GetPodGroupingEffectiveComponent(q, *summary_, C("worker"));
    if (!r.ok()) return "error: " + r.error.message;
    return r.value ? r.value->group + "/" + r.value->component->name : std::string("none");
  };
  EXPECT_EQ(effective_of(R"({"special":true})"), "special/worker");
  // The string "true" is not true: the worker falls back to its ancestor's member.
  EXPECT_EQ(effective_of(R"({"special":"true"})"), "all/group");
  EXPECT_EQ(effective_of(R"({"special":false})"), "all/group");
  // A filter yielding nothing usable is an error, not a failed filter.
  EXPECT_EQ(effective_of("{}"),
            "error: failed to evaluate filters for component worker in group special: failed to evaluate "
            "filter \".metadata.labels.special\": query result is empty <nil>");
}

TEST_F(Gangs, LegacyPodGroupNameKeysAndMinimum) {
  Value pod = wm::testing::PodWithLabels("w", R"({"role":"worker","special":true,"job":"lws"})");
  pod.Set("metadata", [&] {
    Value m = *pod.Find("metadata");
    m.Set("namespace", Value::String("ns"));
    return m;
  }());
  PodQuerier q(*bundle_, pod);
  ScaleReader reader = workload_.Reader();
  auto g = LegacyPodGroupOf(q, *summary_, reader, C("worker"), identity_);
  ASSERT_TRUE(g.ok()) << g.error.message;
  EXPECT_EQ(g.value.name, "pg-uid-1-lws");
  EXPECT_EQ(g.value.group_keys, (std::vector<std::string>{"lws"}));
  EXPECT_EQ(g.value.min_member, 3);  // the worker subtree, its own (single) instance

  Value other = wm::testing::PodWithLabels("l", R"({"role":"leader","job":"lws","index":"0"})");
  PodQuerier lq(*bundle_, other);
  auto all = LegacyPodGroupOf(lq, *summary_, reader, C("leader"), identity_);
  ASSERT_TRUE(all.ok()) << all.error.message;
  EXPECT_EQ(all.value.name, "pg-uid-1-lws-0");
  EXPECT_EQ(all.value.effective.component->name, "group");
  EXPECT_EQ(all.value.min_member, 8);  // group 2 x (leader 1 + worker 3)

  Value upper = wm::testing::PodWithLabels("l", R"({"role":"leader","job":"LWS","index":"0"})");
  PodQuerier uq(*bundle_, upper);
  EXPECT_EQ(LegacyPodGroupOf(uq, *summary_, reader, C("leader"), identity_).error.message.rfind(
                "Karta grouping keys [LWS 0] produce invalid Kubernetes PodGroup name \"pg-uid-1-LWS-0\": a "
                "lowercase RFC 1123 subdomain",
                0),
            0u);
}

TEST_F(Gangs, PodGroupPlanUsesSubtreeScalesPerSubgroup) {
  ScaleReader reader = workload_.Reader();
  auto plan = PlanPodGroup(*summary_, reader, identity_);
  ASSERT_TRUE(plan.ok()) << plan.error.message;
  EXPECT_EQ(plan.value.name, "pg-uid-1-gang");
  ASSERT_TRUE(plan.value.topology);
  EXPECT_EQ(plan.value.topology->required_level, "rack");
  ASSERT_EQ(plan.value.sub_groups.size(), 2u);
  EXPECT_EQ(plan.value.sub_groups[0].name, "leader");
  EXPECT_EQ(plan.value.sub_groups[0].min_member, 1);
  EXPECT_EQ(plan.value.sub_groups[1].name, "group");
  EXPECT_EQ(plan.value.sub_groups[1].min_member, 8);
  EXPECT_EQ(plan.value.min_sub_groups, 2);
  EXPECT_EQ(plan.value.min_member, 0);

  workload_.scales["leader"] = {Replicas(0)};
  workload_.scales["group"] = {Replicas(0)};
  workload_.scales["worker"] = {Replicas(0)};
  EXPECT_EQ(PlanPodGroup(*summary_, reader, identity_).error.message,
            "component leader must expose a replica scale definition");
}

TEST_F(Gangs, PodGroupMembershipNearestSubgroupAndKaiSubgroups) {
  Value worker = wm::testing::PodWithLabels("w", R"({"role":"worker"})");
  PodQuerier wq(*bundle_, worker);
  auto m = PodGroupOf(wq, *summary_, &C("worker"), identity_);
  ASSERT_TRUE(m.ok()) << m.error.message;
  EXPECT_EQ(m.value.name, "pg-uid-1-gang");
  EXPECT_EQ(m.value.sub_group, "group");  // no subgroup of its own: its parent's
  EXPECT_EQ(m.value.kai_sub_groups, (std::vector<std::string>{"group"}));

  Value leader = wm::testing::PodWithLabels("l", R"({"role":"leader"})");
  PodQuerier lq(*bundle_, leader);
  auto l = PodGroupOf(lq, *summary_, &C("leader"), identity_);
  EXPECT_EQ(l.value.sub_group, "leader");
  // KAI lists a pod in every subgroup whose subtree has a selector matching it.
  EXPECT_EQ(l.value.kai_sub_groups, (std::vector<std::string>{"leader", "group"}));
}

TEST_F(Gangs, AnswerPodCollectsEveryAnswerAndKaisName) {
  ScaleReader reader = workload_.Reader();
  Value worker = wm::testing::PodWithLabels("w", R"({"role":"worker","special":false,"job":"lws","index":"1"})");
  PodQuerier wq(*bundle_, worker);
  PodAnswers a = AnswerPod(wq, *summary_, reader, identity_);
  ASSERT_TRUE(a.component.ok());
  EXPECT_EQ(a.component.value->name, "worker");
  EXPECT_TRUE(a.instance.ok() && !a.instance.value);
  ASSERT_TRUE(a.legacy && a.legacy->ok()) << a.legacy->error.message;
  EXPECT_EQ(a.legacy->value.name, "pg-uid-1-lws-1");  // the filter failed: the ancestor's member
  ASSERT_TRUE(a.pod_group && a.pod_group->ok());
  EXPECT_EQ(a.source, GangSource::kPodGroup);
  EXPECT_EQ(a.pod_group_name, "pg-uid-1-gang");

  // No component claims the pod: every per-component answer carries that error, but KAI's
  // podGroup form still names the pod's PodGroup (it does not infer the component).
  Value stray = wm::testing::PodWithLabels("s", R"({"role":"other"})");
  PodQuerier sq(*bundle_, stray);
  PodAnswers b = AnswerPod(sq, *summary_, reader, identity_);
  EXPECT_EQ(b.component.error.message, "no component found for pod s");
  EXPECT_EQ(b.instance.error.message, "no component found for pod s");
  EXPECT_EQ(b.legacy->error.message, "no component found for pod s");
  EXPECT_EQ(b.pod_group_name, "pg-uid-1-gang");
  EXPECT_TRUE(b.pod_group->value.kai_sub_groups.empty());
}

TEST_F(Gangs, KaiReadsPodGroupFirst) {
  EXPECT_EQ(PreferredGangSource(*d_), GangSource::kPodGroup);
  catalog::Definition legacy = *d_;
  legacy.pod_group.reset();
  EXPECT_EQ(PreferredGangSource(legacy), GangSource::kPodGroups);
  legacy.gang_groups.clear();
  EXPECT_EQ(PreferredGangSource(legacy), GangSource::kDefault);
  EXPECT_EQ(DefaultPodGroupName(identity_), "pg-lws-uid-1");
}

TEST(Dns1123, KubernetesWording) {
  EXPECT_EQ(Dns1123SubdomainProblems("pg-abc-0.x"), "");
  EXPECT_NE(Dns1123SubdomainProblems("pg-A"), "");
  EXPECT_NE(Dns1123SubdomainProblems("pg-"), "");
  EXPECT_NE(Dns1123SubdomainProblems("pg..x"), "");
  EXPECT_EQ(Dns1123SubdomainProblems(std::string(254, 'a')).rfind("must be no more than 253 characters", 0), 0u);
}

}  // namespace
}  // namespace wm::workload
