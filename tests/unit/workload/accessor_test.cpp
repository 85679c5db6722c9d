// The Accessor against upstream's rules (UPSTREAM.md 4.1 and 9): instances of map-shaped components
// in sorted key order, zip strictly by index (a `A[].x // d` stream that yields one result for
// three instances is an error, never reused), empty instance ids, numeric-string scales, missing
// definitions, fragmented specs, and the extracted instances with their JSON.
#include <gtest/gtest.h>

#include "runtime/value/json.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/view.h"
#include "runtime/workload/workload.h"
#include "tests/unit/workload/bundle_fixture.h"

namespace wm::workload {
namespace {

using testing::CompileBundle;
using testing::ParseObject;

constexpr const char* kAccessorDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: thing
spec:
  structureDefinition:
    rootComponent:
      name: thing
      kind: {group: example.com, version: v1, kind: Thing}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running:
          - byPhase: Running
    childComponents:
    - name: services
      ownerRef: thing
      instanceIdPath: '.spec.services | to_entries[] | .key'
      specDefinition: {podSpecPath: '.spec.services[] | .podSpec'}
      scaleDefinition:
        replicasPath: '.spec.services[] | .replicas'
        minReplicasPath: '.spec.services[] | .min'
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels.svc'}
    - name: jobs
      ownerRef: thing
      instanceIdPath: '.spec.jobs[].name'
      specDefinition: {podTemplateSpecPath: '.spec.jobs[].template'}
      scaleDefinition: {replicasPath: '.spec.jobs[].replicas // 1'}
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels.job'}
    - name: frag
      ownerRef: thing
      specDefinition:
        fragmentedPodSpecDefinition:
          schedulerNamePath: .spec.frag.scheduler
          labelsPath: .spec.frag.labels
          containersPath: .spec.frag.containers
          imagePath: .spec.frag.images[]
)";

class AccessorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bundle_ = CompileBundle(kAccessorDefinition);
    ASSERT_NE(bundle_, nullptr);
    definition_ = &bundle_->definitions().at(0);
  }
  Accessor Make(std::string_view object_json) const {
    return Accessor(*bundle_, *definition_, ParseObject(object_json));
  }
  const catalog::Component& C(std::string_view name) const { return *definition_->Find(name); }

  std::shared_ptr<Bundle> bundle_;
  const catalog::Definition* definition_ = nullptr;
};

constexpr const char* kServices = R"({"apiVersion": "example.com/v1", "kind": "Thing",
  "spec": {"services": {
    "b": {"replicas": 2, "podSpec": {"containers": [{"name": "b"}]}},
    "a": {"replicas": "3", "min": 1, "podSpec": {"containers": [{"name": "a"}]}}}}})";

TEST_F(AccessorTest, MapShapedComponentsListInstancesInSortedKeyOrder) {
  Accessor a = Make(kServices);
  auto ids = a.InstanceIds(C("services"));
  ASSERT_TRUE(ids.ok()) << ids.error.message;
  EXPECT_EQ(ids.value, (std::vector<std::string>{"a", "b"}));
  auto scales = a.Scales(C("services"));
  ASSERT_TRUE(scales.ok()) << scales.error.message;
  ASSERT_EQ(scales.value.size(), 2u);
  EXPECT_EQ(scales.value[0].replicas, 3);  // "3", a numeric string
  EXPECT_EQ(scales.value[0].min_replicas, 1);
  EXPECT_EQ(scales.value[1].replicas, 2);
  EXPECT_FALSE(scales.value[1].min_replicas);  // `.min` of b is null
  auto specs = a.PodSpecs(C("services"));
  ASSERT_TRUE(specs.ok());
  EXPECT_EQ(ToJson(specs.value[0]), R"({"containers":[{"name":"a"}]})");
  // The accessor's object is key-sorted at every depth; the caller's object is untouched.
  EXPECT_EQ(a.object().AsObject()[0].first.AsString(), "apiVersion");
  EXPECT_EQ(ToJson(*a.object().Find("spec")->Find("services")->AsObject()[0].second.Find("min")), "1");
}

TEST_F(AccessorTest, StreamAlternativeWithOneResultForThreeInstancesIsAZipError) {
  Accessor a = Make(R"({"spec": {"jobs": [{"name": "x"}, {"name": "y"}, {"name": "z"}]}})");
  // `.spec.jobs[].replicas // 1` yields a single 1: upstream's Accessor gives one scale ...
  auto extracted = a.ExtractScales(C("jobs"));
  ASSERT_TRUE(extracted.ok());
  EXPECT_EQ(extracted.value.size(), 1u);
  // ... and zipping it with three ids is an error, never the one value reused three times.
  auto scales = a.Scales(C("jobs"));
  EXPECT_EQ(scales.error.code, ErrorCode::kMismatch);
  EXPECT_EQ(scales.error.message, "instance ids count (3) does not match results count (1)");
  auto instances = a.ExtractedInstances(C("jobs"));
  EXPECT_EQ(instances.error.message,
            "failed to get scales: instance ids count (3) does not match results count (1)");
  EXPECT_TRUE(instances.value.empty());
  // Templates: three nulls convert to three (empty) PodTemplateSpecs, so that zip is fine.
  auto templates = a.PodTemplateSpecs(C("jobs"));
  ASSERT_TRUE(templates.ok()) << templates.error.message;
  EXPECT_EQ(templates.value.size(), 3u);
  EXPECT_EQ(ToJson(templates.value[0]), "{}");
}

TEST_F(AccessorTest, EmptyInstanceIdIsAnErrorListingEveryId) {
  Accessor a = Make(R"({"spec": {"jobs": [{"name": "x"}, {}, {"name": "z"}]}})");
  auto raw = a.ExtractInstanceIds(C("jobs"));
  EXPECT_EQ(raw.error.message, "instance id path contained empty string values [x,,z]");
  auto ids = a.InstanceIds(C("jobs"));
  EXPECT_EQ(ids.error.message,
            "failed to extract instance ids for component jobs: instance id path contained empty "
            "string values [x,,z]");
  auto templates = a.PodTemplateSpecs(C("jobs"));
  EXPECT_EQ(templates.error.message,
            "failed to get instance ids: failed to extract instance ids for component jobs: instance "
            "id path contained empty string values [x,,z]");
  // A number is not a string id (upstream converts results to Go strings).
  auto numeric = Make(R"({"spec": {"jobs": [{"name": 7}]}})").ExtractInstanceIds(C("jobs"));
  EXPECT_EQ(numeric.error.message,
            "failed to convert object at index 0 to type string: failed to unmarshal to destination: "
            "json: cannot unmarshal number into Go value of type string");
}

TEST_F(AccessorTest, ScaleParsesNumericStringsAsBase10Int32) {
  auto scale_of = [&](std::string_view replicas) {
    std::string object = R"({"spec": {"services": {"a": {"replicas": )" + std::string(replicas) + "}}}}";
    return Make(object).ExtractScales(C("services"));
  };
  EXPECT_EQ(scale_of(R"("+4")").value.at(0).replicas, 4);
  EXPECT_EQ(scale_of(R"("-1")").value.at(0).replicas, -1);
  EXPECT_EQ(scale_of("7").value.at(0).replicas, 7);
  EXPECT_EQ(scale_of(R"("x")").error.message, R"(replicas value "x" at index 0 is not a number)");
  EXPECT_EQ(scale_of(R"("4.0")").error.message, R"(replicas value "4.0" at index 0 is not a number)");
  EXPECT_EQ(scale_of(R"("99999999999")").error.message,
            R"(replicas value "99999999999" at index 0 is not a number)");
  EXPECT_EQ(scale_of("2.5").error.message,
            "failed to convert object at index 0 to type *int32: failed to unmarshal to destination: "
            "json: cannot unmarshal number 2.5 into Go value of type int32");
  EXPECT_EQ(scale_of("true").error.message,
            "failed to convert object at index 0 to type *int32: failed to unmarshal to destination: "
            "json: cannot unmarshal bool into Go value of type int32");
  // Component level: upstream's wrapping.
  Accessor a = Make(R"({"spec": {"services": {"a": {"replicas": "two"}}}})");
  EXPECT_EQ(a.Scales(C("services")).error.message,
            R"(failed to extract scales: replicas value "two" at index 0 is not a number)");
}

TEST_F(AccessorTest, MissingDefinitionsGiveUpstreamsErrors) {
  Accessor a = Make("{}");
  auto expect = [](const Error& e, const std::string& message) {
    EXPECT_EQ(e.code, ErrorCode::kNoDefinition);
    EXPECT_EQ(e.message, message);
  };
  expect(a.ExtractPodSpecs(C("thing")).error, "component thing does not have spec definition");
  expect(a.ExtractPodTemplateSpecs(C("services")).error,
         "component services does not have pod template spec definition");
  expect(a.ExtractPodSpecs(C("jobs")).error, "component jobs does not have pod spec definition");
  expect(a.ExtractPodMetadata(C("jobs")).error, "component jobs does not have pod metadata definition");
  expect(a.ExtractFragmentedPodSpecs(C("jobs")).error,
         "component jobs does not have fragmented pod spec definition");
  expect(a.ExtractScales(C("frag")).error, "component frag does not have scale definition");
  expect(a.ExtractInstanceIds(C("frag")).error, "no instance id path defined");
  // Component level: a single anonymous instance, and nothing to extract.
  EXPECT_EQ(a.InstanceIds(C("thing")).value, std::vector<std::string>{""});
  auto scales = a.Scales(C("thing"));
  EXPECT_TRUE(scales.ok());
  EXPECT_TRUE(scales.value.empty());
  auto instances = a.ExtractedInstances(C("thing"));
  ASSERT_TRUE(instances.ok());
  ASSERT_EQ(instances.value.size(), 1u);
  EXPECT_EQ(ToJson(ExtractedInstanceJson(instances.value[0])), "{}");
}

TEST_F(AccessorTest, FragmentedSpecTakesTheIthResultOfEachField) {
  Accessor a = Make(R"({"spec": {"frag": {"scheduler": "kai", "labels": {},
      "containers": [{"name": "c"}], "images": ["i0", "i1"]}}})");
  auto specs = a.ExtractFragmentedPodSpecs(C("frag"));
  ASSERT_TRUE(specs.ok()) << specs.error.message;
  ASSERT_EQ(specs.value.size(), 2u);  // the longest field (images) decides the count
  EXPECT_EQ(ToJson(FragmentedPodSpecJson(specs.value[0])),
            R"({"schedulerName":"kai","containers":[{"name":"c"}],"image":"i0"})");
  EXPECT_EQ(ToJson(FragmentedPodSpecJson(specs.value[1])), R"({"image":"i1"})");
  // One anonymous instance, two results: a zip error.
  EXPECT_EQ(a.FragmentedPodSpecs(C("frag")).error.message,
            "instance ids count (1) does not match results count (2)");
  auto bad = Make(R"({"spec": {"frag": {"scheduler": 5}}})").ExtractFragmentedPodSpecs(C("frag"));
  EXPECT_EQ(bad.error.message,
            "failed to convert object at index 0 to type string: failed to unmarshal to destination: "
            "json: cannot unmarshal number into Go value of type string");
  auto containers = Make(R"({"spec": {"frag": {"containers": {"name": "c"}}}})").ExtractFragmentedPodSpecs(C("frag"));
  EXPECT_EQ(containers.error.message,
            "failed to convert object at index 0 to type []v1.Container: failed to unmarshal to "
            "destination: json: cannot unmarshal object into Go value of type []v1.Container");
}

TEST_F(AccessorTest, ExtractedInstancesZipEveryPartByIndex) {
  Accessor a = Make(kServices);
  auto instances = a.ExtractedInstances(C("services"));
  ASSERT_TRUE(instances.ok()) << instances.error.message;
  ASSERT_EQ(instances.value.size(), 2u);
  EXPECT_EQ(instances.value[0].id, "a");
  EXPECT_EQ(ToJson(ExtractedInstanceJson(instances.value[0])),
            R"({"podSpec":{"containers":[{"name":"a"}]},"scale":{"replicas":3,"minReplicas":1}})");
  EXPECT_EQ(ToJson(ExtractedInstanceJson(instances.value[1])),
            R"({"podSpec":{"containers":[{"name":"b"}]},"scale":{"replicas":2}})");
}

TEST_F(AccessorTest, ResolveReportsAZipErrorAndKeepsTheInstances) {
  ResolvedWorkload w;
  std::string error;
  ASSERT_TRUE(Resolve(*bundle_, ParseObject(R"({"apiVersion": "example.com/v1", "kind": "Thing",
      "spec": {"jobs": [{"name": "x", "template": {"spec": {"containers": [
        {"resources": {"limits": {"nvidia.com/gpu": 2}}}]}}}, {"name": "y"}, {"name": "z"}]}})"),
                      &w, &error))
      << error;
  const ResolvedComponent& jobs = w.components.at(2);
  ASSERT_EQ(jobs.definition->name, "jobs");
  EXPECT_EQ(jobs.problems, std::vector<std::string>{
                               "failed to get scales: instance ids count (3) does not match results count (1)"});
  ASSERT_EQ(jobs.instances.size(), 3u);
  EXPECT_EQ(jobs.instances[1].id(), "y");
  EXPECT_FALSE(jobs.instances[0].extracted.scale);
  EXPECT_EQ(jobs.gpus, 0);  // nothing extracted: no GPUs guessed from a reused template
  EXPECT_EQ(w.status.matched_statuses, std::vector<std::string>{"Undefined"});
  EXPECT_EQ(w.status.phase, "");  // `.status.phase` yields null: phase "" (not absent)
  Value json = WorkloadJson(w);
  EXPECT_EQ(ToJson(*json.Find("phase")), "\"\"");
}

}  // namespace
}  // namespace wm::workload
