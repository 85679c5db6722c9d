// Status extraction against upstream's rules (UPSTREAM.md 4.2): the fixed status order whatever
// order the bundle lists, every matching status reported, the last condition of a type wins,
// non-string condition fields are ignored, byPhase "" is not checked, byExpression compares the
// first result's tostring, an evaluation error fails the extraction, Undefined when none matches.
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/value/json.h"
#include "runtime/workload/status.h"
#include "runtime/workload/view.h"
#include "tests/unit/workload/bundle_fixture.h"

namespace wm::workload {
namespace {

using testing::CompileBundle;
using testing::ParseObject;

constexpr const char* kStatusDefinition = R"(apiVersion: run.ai/v1alpha1
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
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: kind
          statusFieldName: state
          reasonFieldName: why
        statusMappings:
          running:
          - byConditions: [{type: Ready, status: "True"}]
          failed:
          - byPhase: Failed
          - byExpression: {expression: .status.failed, expectedResult: "3"}
          completed:
          - byExpression: {expression: .status.done, expectedResult: "true"}
          resuming:
          - byConditions: [{type: Resuming, status: "True"}]
          suspended:
          - byPhase: ""
            byConditions: [{type: Held, reason: Paused}]
          initializing:
          - byPhase: Pending
            byConditions: [{type: Scheduled, reason: Waiting}]
          degraded:
          - byExpression: {expression: 'if .status.boom then error("boom") else .status.none end', expectedResult: "null"}
    childComponents:
    - name: worker
      ownerRef: thing
      specDefinition: {podSpecPath: .spec.pod}
)";

class StatusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bundle_ = CompileBundle(kStatusDefinition);
    ASSERT_NE(bundle_, nullptr);
    definition_ = bundle_->definitions().at(0);
  }
  Result<Status> StatusOf(std::string_view status_json) const {
    Accessor a(*bundle_, definition_, ParseObject(R"({"status": )" + std::string(status_json) + "}"));
    return ExtractStatus(a, definition_.root());
  }
  std::vector<std::string> Matched(std::string_view status_json) const {
    Result<Status> s = StatusOf(status_json);
    EXPECT_TRUE(s.ok()) << s.error.message;
    return s.value.matched_statuses;
  }

  std::shared_ptr<Bundle> bundle_;
  catalog::Definition definition_;  // a copy, so a test may reorder its mappings
};

using Names = std::vector<std::string>;

TEST_F(StatusTest, EveryMatchInUpstreamsFixedOrder) {
  // degraded matches too: the expression yields null, whose tostring is "null".
  EXPECT_EQ(Matched(R"({"phase": "Failed", "done": true,
      "conditions": [{"kind": "Ready", "state": "True"}, {"kind": "Resuming", "state": "True"}]})"),
            (Names{"Resuming", "Running", "Failed", "Completed", "Degraded"}));
  // The order is upstream's whatever order the bundle lists the mappings in.
  std::reverse(definition_.components[0].status.mappings.begin(),
               definition_.components[0].status.mappings.end());
  EXPECT_EQ(Matched(R"({"phase": "Failed", "conditions": [{"kind": "Resuming", "state": "True"}], "none": 1})"),
            (Names{"Resuming", "Failed"}));
}

TEST_F(StatusTest, UndefinedWhenNothingMatches) {
  EXPECT_EQ(Matched(R"({"none": 1})"), Names{"Undefined"});
  Result<Status> s = StatusOf(R"({"none": 1})");
  EXPECT_EQ(s.value.phase, "");  // a missing phase is null -> "", not absent
  EXPECT_TRUE(s.value.conditions.empty());
}

TEST_F(StatusTest, LastConditionOfATypeWins) {
  EXPECT_EQ(Matched(R"({"none": 1, "conditions": [{"kind": "Ready", "state": "True"}, {"kind": "Ready", "state": "False"}]})"),
            Names{"Undefined"});
  EXPECT_EQ(Matched(R"({"none": 1, "conditions": [{"kind": "Ready", "state": "False"}, {"kind": "Ready", "state": "True"}]})"),
            Names{"Running"});
}

TEST_F(StatusTest, NonStringConditionFieldsAreIgnored) {
  Result<Status> s = StatusOf(R"({"none": 1, "conditions": [{"kind": "Ready", "state": true, "why": 3, "message": "m"}]})");
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s.value.conditions.size(), 1u);
  EXPECT_FALSE(s.value.conditions[0].status);
  EXPECT_FALSE(s.value.conditions[0].reason);
  EXPECT_EQ(s.value.conditions[0].message, "m");
  EXPECT_EQ(s.value.matched_statuses, Names{"Undefined"});  // Ready's status is not "True"
}

TEST_F(StatusTest, ByPhaseEmptyIsNotCheckedAndStatusAndReasonCountWhenGiven) {
  EXPECT_EQ(Matched(R"({"none": 1, "conditions": [{"kind": "Held", "why": "Paused"}]})"), Names{"Suspended"});
  EXPECT_EQ(Matched(R"({"none": 1, "conditions": [{"kind": "Held"}]})"), Names{"Undefined"});
  // wmc's compiler insists on a status or a reason (WM032); a bundle without either matches on
  // the condition type alone, as upstream.
  for (auto& [name, matchers] : definition_.components[0].status.mappings) {
    if (name == "Suspended") matchers[0].by_conditions[0].reason.clear();
  }
  EXPECT_EQ(Matched(R"({"none": 1, "conditions": [{"kind": "Held", "state": "False"}]})"), Names{"Suspended"});
  EXPECT_EQ(Matched(R"({"none": 1, "phase": "Pending", "conditions": [{"kind": "Scheduled", "why": "Waiting"}]})"),
            Names{"Initializing"});
  EXPECT_EQ(Matched(R"({"none": 1, "phase": "Pending", "conditions": [{"kind": "Scheduled", "why": "Other"}]})"),
            Names{"Undefined"});
}

TEST_F(StatusTest, ByExpressionComparesTheFirstResultsToString) {
  EXPECT_EQ(Matched(R"({"none": 1, "failed": 3})"), Names{"Failed"});
  EXPECT_EQ(Matched(R"({"none": 1, "failed": "3"})"), Names{"Failed"});
  EXPECT_EQ(Matched(R"({"none": 1, "failed": 3.5})"), Names{"Undefined"});
  EXPECT_EQ(Matched(R"({"none": 1, "done": "true"})"), Names{"Completed"});
  EXPECT_EQ(Matched(R"({"none": 1, "done": 1})"), Names{"Undefined"});
}

TEST_F(StatusTest, AnEvaluationErrorFailsTheExtraction) {
  Result<Status> s = StatusOf(R"({"boom": true, "phase": "Failed"})");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.error.code, ErrorCode::kEvaluation);
  // Worded as upstream's JQExecutionError (UPSTREAM.md 2, runtime limits and error types) wrapped
  // by the status code (4.2).
  EXPECT_EQ(s.error.message,
            "failed to match status: failed to evaluate matcher: failed to evaluate ByExpression: JQ execution "
            "error for expression 'if .status.boom then error(\"boom\") else .status.none end': boom");
}

TEST_F(StatusTest, PhaseAndConditionsConvertAsUpstream) {
  EXPECT_EQ(StatusOf(R"({"phase": 5})").error.message,
            "failed to extract phase: failed to convert object at index 0 to type string: failed to "
            "unmarshal to destination: json: cannot unmarshal number into Go value of type string");
  EXPECT_EQ(StatusOf(R"({"conditions": "no"})").error.message,
            "failed to extract conditions: failed to convert object at index 0 to type "
            "[]map[string]interface {}: failed to unmarshal to destination: json: cannot unmarshal "
            "string into Go value of type []map[string]interface {}");
  Accessor a(*bundle_, definition_, ParseObject("{}"));
  EXPECT_EQ(ExtractStatus(a, definition_.components[1]).error.message,
            "component worker does not have status definition");
}

TEST_F(StatusTest, JsonUsesUpstreamsNames) {
  Result<Status> s = StatusOf(R"({"phase": "Running", "none": 1,
      "conditions": [{"kind": "Ready", "state": "True", "why": "Up", "message": "ok"}]})");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ToJson(StatusJson(s.value)),
            R"({"phase":"Running","conditions":[{"type":"Ready","status":"True","message":"ok","reason":"Up"}],)"
            R"("matchedStatuses":["Running"]})");
}

}  // namespace
}  // namespace wm::workload
