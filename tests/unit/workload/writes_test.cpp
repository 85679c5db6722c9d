// Writes through a compiled bundle (runtime/workload/writes.h) against upstream's rules
// (UPSTREAM.md 4.3): Assign creates intermediates and follows `//`, AssignZip refuses a count
// mismatch, per-instance updates go in instance-id order, fragmented updates skip all-empty
// fields and refuse undefined paths in upstream's field order, suspend/resume apply their JSON
// values in order, and the input object is never modified.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "runtime/bundle/bundle.h"
#include "runtime/value/json.h"
#include "tests/unit/workload/bundle_fixture.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/writes.h"

namespace wm::workload {
namespace {


constexpr const char* kWritesDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: writes
spec:
  structureDefinition:
    rootComponent:
      name: app
      kind: {group: example.com, version: v1, kind: App}
      specDefinition:
        podSpecPath: .spec.pod
        metadataPath: .spec.meta
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running:
          - byPhase: Running
      suspendDefinition:
        suspendActions:
        - {path: .spec.control.suspend, value: "true"}
        - {path: .spec.control.replicas, value: "0"}
        - {path: .spec.control.mode, value: '"first"'}
        - {path: .spec.control.mode, value: '"paused"'}
        - {path: .spec.control.note, value: "null"}
        resumeActions:
        - {path: .spec.control.suspend, value: "false"}
        - {path: .spec.control.mode, value: '"running"'}
    childComponents:
    - name: group
      ownerRef: app
      instanceIdPath: .spec.groups[].name
      specDefinition:
        podTemplateSpecPath: .spec.groups[].template
      podSelector:
        componentTypeSelector: {matchLabels: {kind: group}}
        componentInstanceSelector: {idPath: '.metadata.labels["group"]'}
    - name: role
      ownerRef: app
      instanceIdPath: .spec.roles[].name
      specDefinition:
        fragmentedPodSpecDefinition:
          schedulerNamePath: .spec.roles[].scheduler
          imagePath: .spec.roles[].image
          labelsPath: .spec.roles[].labels
          resourcesPath: .spec.roles[].resources
          containersPath: .spec.roles[].containers
      podSelector:
        componentTypeSelector: {matchLabels: {kind: role}}
        componentInstanceSelector: {idPath: '.metadata.labels["role"]'}
    - name: odd
      ownerRef: app
      instanceIdPath: .spec.odd[].name
      specDefinition:
        fragmentedPodSpecDefinition:
          imagePath: .spec.odd[] | select(.image) | .image
          labelsPath: .spec.odd[].meta.labels
      podSelector:
        componentTypeSelector: {matchLabels: {kind: odd}}
        componentInstanceSelector: {idPath: '.metadata.labels["odd"]'}
    - name: alt
      ownerRef: app
      specDefinition:
        podSpecPath: .spec.primary // .spec.fallback
      podSelector:
        componentTypeSelector: {matchLabels: {kind: alt}}
)";

// Compiles kWritesDefinition once (native code for what the backends support) and loads the bundle.
class Writes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bundle_ = testing::CompileBundle(kWritesDefinition, {.native = true, .opt_level = 0, .findings_fail = true});
    ASSERT_NE(bundle_, nullptr);
  }
  static void TearDownTestSuite() { bundle_.reset(); }

  static const catalog::Component& Component(const std::string& name) {
    return *bundle_->definitions().at(0).Find(name);
  }
  static Value Json(std::string_view text) { return testing::ParseObject(text); }
  static std::string Text(const Value& v) { return ToJson(v); }

  static std::shared_ptr<Bundle> bundle_;
};
std::shared_ptr<Bundle> Writes::bundle_;

constexpr const char* kGroups =
    R"({"spec":{"groups":[{"name":"zeta","template":{"n":1}},{"name":"alpha","template":{"n":2}}]}})";
constexpr const char* kWritesRoles =
    R"({"spec":{"roles":[{"name":"r1","image":"old:1"},{"name":"r2","image":"old:2"}]}})";

TEST_F(Writes, PathProgramsAndValueResolversAreNative) {
  const catalog::Component& group = Component("group");
  ASSERT_GE(group.write_paths.pod_template_spec, 0);
  const ResolverInfo& path = bundle_->resolver_info(group.write_paths.pod_template_spec);
  EXPECT_EQ(path.role, "pod-template-spec-path");
  EXPECT_EQ(path.source, ".spec.groups[].template");
  EXPECT_FALSE(path.native_symbol.empty());
  EXPECT_FALSE(bundle_->resolver_info(group.pod_template_spec).native_symbol.empty());
  // Suspend action paths keep their own role name.
  EXPECT_EQ(bundle_->resolver_info(Component("app").suspend->suspend_actions[0].path).role, "suspend-path");
}

// All runs of one write (instance ids, each path program) share one object budget
// (docs/limits.md), given by the caller or made from WriteOptions::object.
TEST_F(Writes, OneWriteIsChargedToOneObjectBudget) {
  const Value object = Json(R"({"kind":"App"})");
  const catalog::Component& app = Component("app");
  WriteOptions measure;
  measure.budget = std::make_shared<ObjectBudget>(ObjectLimits{});
  ASSERT_TRUE(Suspend(*bundle_, object, app, measure).ok());
  uint64_t used = ObjectLimits{}.fuel - measure.budget->fuel_left.load();
  ASSERT_GE(used, 5u);  // five actions, one path program run each
  // One step fewer than the five runs need: the last action is the one cut short.
  WriteOptions tight;
  tight.object.fuel = used - 1;
  auto cut = Suspend(*bundle_, object, app, tight);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error.code, ErrorCode::kLimit);
  EXPECT_EQ(cut.error.message.rfind("suspendActions[4]: suspend-path `.spec.control.note`: ", 0), 0u)
      << cut.error.message;
  EXPECT_NE(cut.error.message.find("step budget exhausted"), std::string::npos) << cut.error.message;
  // A budget already spent stops the first run, with the object limit's diagnostic.
  WriteOptions spent;
  spent.budget = std::make_shared<ObjectBudget>(ObjectLimits{.fuel = 7});
  spent.budget->fuel_left = 0;
  auto refused = UpdatePodTemplateSpec(*bundle_, Json(kGroups), Component("group"),
                                       {{"alpha", Json("{}")}, {"zeta", Json("{}")}}, spent);
  EXPECT_EQ(refused.error.code, ErrorCode::kLimit);
  EXPECT_EQ(refused.error.message,
            "failed to unzip given pod template specs and instance ids: failed to get instance ids: "
            "failed to extract instance ids for component group: JQ execution error for expression "
            "'.spec.groups[].name': object evaluation step budget exhausted (fuel 7)");
}

TEST_F(Writes, AssignCreatesIntermediateObjects) {
  Value object = Json(R"({"kind":"App"})");
  auto r = Assign(*bundle_, object, Component("app").write_paths.pod_spec, Json(R"({"x":1})"));
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(Text(r.value), R"({"kind":"App","spec":{"pod":{"x":1}}})");
  EXPECT_EQ(Text(object), R"({"kind":"App"})");
}

TEST_F(Writes, AssignThroughAlternativeTakesTheFirstTruthyPath) {
  int32_t alt = Component("alt").write_paths.pod_spec;
  auto primary = Assign(*bundle_, Json(R"({"spec":{"primary":"p","fallback":"f"}})"), alt, Json("\"new\""));
  ASSERT_TRUE(primary.ok()) << primary.error.message;
  EXPECT_EQ(Text(primary.value), R"({"spec":{"primary":"new","fallback":"f"}})");
  auto fallback = Assign(*bundle_, Json(R"({"spec":{"fallback":"f"}})"), alt, Json("\"new\""));
  ASSERT_TRUE(fallback.ok()) << fallback.error.message;
  EXPECT_EQ(Text(fallback.value), R"({"spec":{"fallback":"new"}})");
}

TEST_F(Writes, AssignReportsPathErrorsWithTheResolver) {
  auto r = Assign(*bundle_, Json(R"({"spec":3})"), Component("app").write_paths.pod_spec, Json("1"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.code, ErrorCode::kEvaluation);
  EXPECT_EQ(r.error.message.rfind("pod-spec-path `.spec.pod`: Cannot index number with", 0), 0u)
      << r.error.message;
}

TEST_F(Writes, AssignZipWritesByPositionAndRefusesCountMismatch) {
  int32_t path = Component("group").write_paths.pod_template_spec;
  Value object = Json(kGroups);
  auto ok = AssignZip(*bundle_, object, path, {Json("\"A\""), Json("\"B\"")});
  ASSERT_TRUE(ok.ok()) << ok.error.message;
  EXPECT_EQ(Text(ok.value), R"({"spec":{"groups":[{"name":"zeta","template":"A"},{"name":"alpha","template":"B"}]}})");
  auto mismatch = AssignZip(*bundle_, object, path, {Json("1")});
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.error.code, ErrorCode::kMismatch);
  EXPECT_EQ(mismatch.error.message, "array length mismatch: expected 2 values but got 1");
  EXPECT_EQ(Text(object), kGroups);
}

TEST_F(Writes, PerInstanceUpdateFollowsInstanceIdOrder) {
  // The map is sorted alpha < zeta; the object lists zeta first: zeta must get zeta's value.
  auto r = UpdatePodTemplateSpec(*bundle_, Json(kGroups), Component("group"),
                                 {{"alpha", Json(R"({"a":true})")}, {"zeta", Json(R"({"z":true})")},
                                  {"unused", Json("0")}});
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(Text(r.value),
            R"({"spec":{"groups":[{"name":"zeta","template":{"z":true}},{"name":"alpha","template":{"a":true}}]}})");
}

TEST_F(Writes, PerInstanceUpdateNeedsAValueForEveryInstance) {
  auto r = UpdatePodTemplateSpec(*bundle_, Json(kGroups), Component("group"), {{"zeta", Json("1")}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.code, ErrorCode::kNotFound);
  EXPECT_EQ(r.error.message,
            "failed to unzip given pod template specs and instance ids: value not found for instance id: alpha");
}

TEST_F(Writes, SingleInstanceUpdatesAssignTheAnonymousInstancesValue) {
  Value object = Json(R"({"spec":{"pod":{"old":1}}})");
  auto spec = UpdatePodSpec(*bundle_, object, Component("app"), {{"", Json(R"({"new":1})")}});
  ASSERT_TRUE(spec.ok()) << spec.error.message;
  auto meta = UpdatePodMetadata(*bundle_, spec.value, Component("app"), {{"", Json(R"({"labels":{"a":"b"}})")}});
  ASSERT_TRUE(meta.ok()) << meta.error.message;
  EXPECT_EQ(Text(meta.value), R"({"spec":{"pod":{"new":1},"meta":{"labels":{"a":"b"}}}})");
  EXPECT_EQ(Text(object), R"({"spec":{"pod":{"old":1}}})");
}

TEST_F(Writes, MissingDefinitionsUseUpstreamWording) {
  auto none = UpdatePodTemplateSpec(*bundle_, Json("{}"), Component("app"), {{"", Json("1")}});
  EXPECT_EQ(none.error.code, ErrorCode::kNoDefinition);
  EXPECT_EQ(none.error.message, "component app does not have pod template spec definition");
  auto spec = UpdatePodSpec(*bundle_, Json(kGroups), Component("group"), {{"zeta", Json("1")}, {"alpha", Json("1")}});
  EXPECT_EQ(spec.error.message, "component group does not have pod spec definition");
  auto fragmented = UpdateFragmentedPodSpec(*bundle_, Json("{}"), Component("app"), {{"", Json("{}")}});
  EXPECT_EQ(fragmented.error.message, "component app does not have fragmented pod spec definition");
}

TEST_F(Writes, FragmentedUpdateWritesEachInstancesField) {
  auto r = UpdateFragmentedPodSpec(*bundle_, Json(kWritesRoles), Component("role"),
                                   {{"r1", Json(R"({"image":"new:1","resources":{}})")},
                                    {"r2", Json(R"({"image":"new:2","resources":{}})")}});
  ASSERT_TRUE(r.ok()) << r.error.message;
  // resources {} is a non-nil pointer in Go: not empty, so written. Component updates work on the
  // key-sorted object (as the Accessor reads it), so the result's keys are sorted.
  EXPECT_EQ(Text(r.value),
            R"({"spec":{"roles":[{"image":"new:1","name":"r1","resources":{}},{"image":"new:2","name":"r2","resources":{}}]}})");
}

TEST_F(Writes, FragmentedUpdateSkipsFieldsWhoseValuesAreAllEmpty) {
  // "" / {} / [] / null are Go's zero values for these fields: nothing is written, no null appears.
  auto r = UpdateFragmentedPodSpec(
      *bundle_, Json(kWritesRoles), Component("role"),
      {{"r1", Json(R"({"image":"","labels":{},"containers":[],"schedulerName":null,"annotations":{}})")},
       {"r2", Json("{}")}});
  ASSERT_TRUE(r.ok()) << r.error.message;
  EXPECT_EQ(Text(r.value), R"({"spec":{"roles":[{"image":"old:1","name":"r1"},{"image":"old:2","name":"r2"}]}})");
  // One non-empty value makes the whole field written, the empty one included.
  auto one = UpdateFragmentedPodSpec(*bundle_, Json(kWritesRoles), Component("role"),
                                     {{"r1", Json(R"({"image":"new:1"})")}, {"r2", Json(R"({"image":""})")}});
  ASSERT_TRUE(one.ok()) << one.error.message;
  EXPECT_EQ(Text(one.value), R"({"spec":{"roles":[{"image":"new:1","name":"r1"},{"image":"","name":"r2"}]}})");
}

TEST_F(Writes, FragmentedUpdateRefusesUndefinedPathsInUpstreamOrder) {
  // annotations and priorityClassName have no path; upstream updates priorityClassName first.
  auto r = UpdateFragmentedPodSpec(
      *bundle_, Json(kWritesRoles), Component("role"),
      {{"r1", Json(R"({"annotations":{"a":"b"},"priorityClassName":"high"})")}, {"r2", Json("{}")}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.code, ErrorCode::kNoDefinition);
  EXPECT_EQ(r.error.message, "failed to update priority class name: path is not defined and values are not empty");
  auto annotations = UpdateFragmentedPodSpec(*bundle_, Json(kWritesRoles), Component("role"),
                                             {{"r1", Json(R"({"annotations":{"a":"b"}})")}, {"r2", Json("{}")}});
  EXPECT_EQ(annotations.error.message, "failed to update annotations: path is not defined and values are not empty");
}

TEST_F(Writes, FragmentedFieldErrorsAreWrapped) {
  // odd's imagePath selects only the instances that have an image: fewer paths than instances.
  auto mismatch = UpdateFragmentedPodSpec(
      *bundle_, Json(R"({"spec":{"odd":[{"name":"a","image":"x"},{"name":"b"}]}})"), Component("odd"),
      {{"a", Json(R"({"image":"y"})")}, {"b", Json(R"({"image":"z"})")}});
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(mismatch.error.code, ErrorCode::kMismatch);
  EXPECT_EQ(mismatch.error.message, "failed to update image: array length mismatch: expected 1 values but got 2");
  auto path = UpdateFragmentedPodSpec(*bundle_, Json(R"({"spec":{"odd":[{"name":"a","meta":3}]}})"),
                                      Component("odd"), {{"a", Json(R"({"labels":{"k":"v"}})")}});
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.error.message.rfind("failed to update labels: labels-path `.spec.odd[].meta.labels`: Cannot index number", 0),
            0u)
      << path.error.message;
}

TEST_F(Writes, SuspendAppliesJsonValuesInOrder) {
  Value object = Json(R"({"spec":{"control":{"suspend":false}}})");
  auto r = Suspend(*bundle_, object, Component("app"));
  ASSERT_TRUE(r.ok()) << r.error.message;
  // true, 0, "paused" (the later action on .mode wins), null written as a value.
  EXPECT_EQ(Text(r.value), R"({"spec":{"control":{"suspend":true,"replicas":0,"mode":"paused","note":null}}})");
  auto back = Resume(*bundle_, r.value, Component("app"));
  ASSERT_TRUE(back.ok()) << back.error.message;
  EXPECT_EQ(Text(back.value), R"({"spec":{"control":{"suspend":false,"replicas":0,"mode":"running","note":null}}})");
  EXPECT_EQ(Text(object), R"({"spec":{"control":{"suspend":false}}})");
}

TEST_F(Writes, SuspendErrorsNameTheAction) {
  auto r = Suspend(*bundle_, Json(R"({"spec":"text"})"), Component("app"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error.message.rfind("suspendActions[0]: suspend-path `.spec.control.suspend`: ", 0), 0u)
      << r.error.message;
  auto none = Resume(*bundle_, Json("{}"), Component("group"));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error.code, ErrorCode::kNoDefinition);
  EXPECT_EQ(none.error.message, "component group does not have suspendDefinition");
}

TEST_F(Writes, InstanceIdsMustBeNonEmptyStrings) {
  auto ids = InstanceIdsOfSorted(*bundle_, SortKeysDeep(Json(kGroups)), Component("group"), {});
  ASSERT_TRUE(ids.ok()) << ids.error.message;
  EXPECT_EQ(ids.value, (std::vector<std::string>{"zeta", "alpha"}));
  EXPECT_EQ(InstanceIdsOfSorted(*bundle_, Json("{}"), Component("app"), {}).value, (std::vector<std::string>{""}));
  auto empty = UpdatePodTemplateSpec(*bundle_, Json(R"({"spec":{"groups":[{"name":"a"},{"name":""}]}})"),
                                     Component("group"), {});
  EXPECT_EQ(empty.error.message,
            "failed to unzip given pod template specs and instance ids: failed to get instance ids: failed to "
            "extract instance ids for component group: instance id path contained empty string values [a,]");
}

}  // namespace
}  // namespace wm::workload
