// Tests of the type checker, one rule at a time, on a small hand-written CRD (imported through
// the real importer) and a minimal core v1 Pod: unknown fields with did-you-mean, iteration and
// indexing of scalars, arithmetic, enum comparisons, role shapes, byPhase, condition fields,
// multi- and single-instance cardinality, null-safety, suspend values, preserve-unknown, and
// where each diagnostic points.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "compiler/check/typecheck.h"
#include "compiler/definition/loader.h"
#include "compiler/jq/parser.h"
#include "compiler/schema/import.h"

namespace wm::check {
namespace {

const char* kCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: trainers.example.com}
spec:
  group: example.com
  names: {kind: Trainer}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object}
          spec:
            type: object
            required: [roles]
            properties:
              suspend: {type: boolean}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              workers:
                type: array
                items: {type: object, properties: {replicas: {type: integer}}}
              roles:
                type: array
                items:
                  type: object
                  required: [name, template]
                  properties:
                    name: {type: string}
                    replicas: {type: integer, default: 1}
                    port: {x-kubernetes-int-or-string: true}
                    template:
                      type: object
                      required: [spec]
                      properties:
                        metadata:
                          type: object
                          properties:
                            labels: {type: object, additionalProperties: {type: string}}
                        spec:
                          type: object
                          required: [containers]
                          properties:
                            containers:
                              type: array
                              x-kubernetes-list-type: map
                              x-kubernetes-list-map-keys: [name]
                              items:
                                type: object
                                required: [name]
                                properties:
                                  name: {type: string}
                                  image: {type: string}
          status:
            type: object
            properties:
              phase: {type: string, enum: [Pending, Running, Done]}
              conditions:
                type: array
                items:
                  type: object
                  required: [type, status]
                  properties:
                    type: {type: string}
                    status: {type: string}
)";

const char* kPod = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pods}
spec:
  group: ""
  names: {kind: Pod}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string}
              labels: {type: object, additionalProperties: {type: string}}
          spec:
            type: object
            properties:
              schedulerName: {type: string}
)";

class TypeCheckTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    schema::ImportResult r;
    std::string error;
    ASSERT_TRUE(schema::ImportText(kCrd, "trainer.yaml", &r, &error)) << error;
    ASSERT_TRUE(schema::ImportText(kPod, "pod.yaml", &r, &error)) << error;
    std::map<std::string, schema::SchemaPtr> all;
    for (const auto& s : r.schemas) all[s.RelativePath()] = s.schema;
    // The Pod "CRD" above has an inline metadata; the Trainer's refers to ObjectMeta.
    all[schema::kObjectMetaPath] = *all["core/v1/Pod"]->Property("metadata");
    // The core Container type the fragmented roles are compared with.
    all["core/v1/Container"] = schema::FromJson(nlohmann::json::parse(R"({"type": "object",
        "properties": {"image": {"type": "string"}, "name": {"type": "string"},
          "resources": {"type": "object", "properties": {"limits": {"type": "object"},
                                                         "requests": {"type": "object"}}}}})"),
                                                &error);
    ASSERT_TRUE(all["core/v1/Container"]) << error;
    registry_ = schema::SchemaRegistry::FromMemory(std::move(all)).release();
  }
  static void TearDownTestSuite() { delete registry_; }

  // A definition of a Trainer with one child component; `child` is spliced in as YAML lines of
  // the child component, `root_extra` into the root component.
  std::vector<Diagnostic> Check(const std::string& child, const std::string& root_extra = "",
                                const std::string& gang = "") {
    std::string text = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: trainer}
spec:
  structureDefinition:
    rootComponent:
      name: trainer
      kind: {group: example.com, version: v1, kind: Trainer}
)" + root_extra + R"(    childComponents:
    - name: role
      ownerRef: trainer
)" + child + gang;
    DiagnosticSink sink;
    definition::LoadOptions options;
    auto loaded = definition::LoadDefinitions("def.yaml", text, options, sink);
    for (const Diagnostic& d : sink.items()) {
      EXPECT_NE(d.severity, Severity::Error) << d.rule << " " << d.message << "\n" << text;
    }
    EXPECT_EQ(loaded.definitions.size(), 1u);
    if (loaded.definitions.empty()) return {};
    definitions_.push_back(std::move(loaded.definitions[0]));
    return TypeCheck(definitions_.back(), *registry_);
  }

  static const Diagnostic* Find(const std::vector<Diagnostic>& ds, const std::string& rule) {
    for (const Diagnostic& d : ds) {
      if (d.rule == rule) return &d;
    }
    return nullptr;
  }
  static std::string All(const std::vector<Diagnostic>& ds) {
    std::string s;
    for (const Diagnostic& d : ds) {
      s += d.rule + " " + std::to_string(d.location.line) + ":" +
           std::to_string(d.location.column) + " " + d.message + "\n";
    }
    return s;
  }

  static schema::SchemaRegistry* registry_;
  std::vector<definition::Definition> definitions_;
};
schema::SchemaRegistry* TypeCheckTest::registry_ = nullptr;

const char* kGoodChild = R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
      scaleDefinition:
        replicasPath: .spec.roles[] | .replicas // 1
)";

TEST_F(TypeCheckTest, CleanDefinitionHasNoFindings) {
  auto ds = Check(kGoodChild);
  EXPECT_TRUE(ds.empty()) << All(ds);
}

TEST_F(TypeCheckTest, UnknownFieldWithDidYouMean) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podTemplateSpecPath: .spec.roles[].templat
)");
  const Diagnostic* d = Find(ds, kUnknownField);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->message,
            "field 'templat' not found in example.com/v1 Trainer at .spec.roles[]; did you mean "
            "'template'?");
  EXPECT_EQ(d->severity, Severity::Error);
  // Points at `.templat` inside the expression (the scalar starts at 14:30, offset 13).
  EXPECT_EQ(d->location.line, 14u);
  EXPECT_GE(d->location.column, 30u + 13u);
  EXPECT_LE(d->location.column, 30u + 14u);
  ASSERT_FALSE(d->notes.empty());
  EXPECT_NE(d->notes[0].find(".spec.roles[]"), std::string::npos);
}

TEST_F(TypeCheckTest, PreserveUnknownFieldsAreNotChecked) {
  auto ds = Check(R"(      specDefinition:
        podTemplateSpecPath: .spec.extra.anything.at.all
)");
  EXPECT_EQ(Find(ds, kUnknownField), nullptr) << All(ds);
  EXPECT_EQ(Find(ds, kRoleType), nullptr) << All(ds);
}

TEST_F(TypeCheckTest, IteratingAndIndexingScalars) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name[]
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
      scaleDefinition:
        replicasPath: .spec.roles[].replicas.count
)");
  const Diagnostic* iter = Find(ds, kCannotIterate);
  ASSERT_NE(iter, nullptr) << All(ds);
  EXPECT_EQ(iter->message, "cannot iterate over string");
  const Diagnostic* index = Find(ds, kCannotIndex);
  ASSERT_NE(index, nullptr) << All(ds);
  EXPECT_EQ(index->message, "cannot index integer with \"count\"");
  // Under `?` jq swallows the error: nothing to report.
  ds = Check(R"(      instanceIdPath: .spec.roles[].name[]?
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
)");
  EXPECT_EQ(Find(ds, kCannotIterate), nullptr) << All(ds);
}

TEST_F(TypeCheckTest, ArithmeticThatCanOnlyFail) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
      scaleDefinition:
        replicasPath: .spec.roles[] | .name - 1
)");
  const Diagnostic* d = Find(ds, kBadArithmetic);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->message, "string and integer cannot be combined with '-'");
  // int-or-string may be a number: not an error.
  ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
      scaleDefinition:
        replicasPath: .spec.roles[] | .port + 1
)");
  EXPECT_EQ(Find(ds, kBadArithmetic), nullptr) << All(ds);
}

TEST_F(TypeCheckTest, PodTemplateSpecPathThatIsAPodSpec) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template.spec
)");
  const Diagnostic* d = Find(ds, kRoleType);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_NE(d->message.find("not a PodTemplateSpec"), std::string::npos) << d->message;
  bool hint = false;
  for (const auto& n : d->notes) hint |= n.find("use podSpecPath") != std::string::npos;
  EXPECT_TRUE(hint);
  // And the right shape through podSpecPath is fine.
  ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podSpecPath: .spec.roles[].template.spec
        metadataPath: .spec.roles[].template.metadata
)");
  EXPECT_TRUE(ds.empty()) << All(ds);
}

TEST_F(TypeCheckTest, ScalarRoles) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].template
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
      scaleDefinition:
        replicasPath: .spec.roles[].template.spec.containers
)");
  int role_errors = 0;
  for (const auto& d : ds) role_errors += d.rule == kRoleType;
  EXPECT_EQ(role_errors, 2) << All(ds);
}

TEST_F(TypeCheckTest, FragmentedRolesHaveTheTypesOfThePodFields) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        fragmentedPodSpecDefinition:
          labelsPath: .spec.roles[].template.metadata.labels
          imagePath: .spec.roles[].template.spec.containers
          resourcesPath: .spec.roles[].template.metadata
          containerPath: .spec.roles[].template.spec.containers[0]
)");
  std::vector<std::string> messages;
  for (const auto& d : ds) {
    if (d.rule == kRoleType) messages.push_back(d.message);
  }
  ASSERT_EQ(messages.size(), 2u) << All(ds);
  EXPECT_EQ(messages[0], "imagePath yields array where the pod field is string");
  EXPECT_EQ(messages[1],
            "resourcesPath yields an object with fields labels (none of them in the pod field's "
            "type)");
}

TEST_F(TypeCheckTest, PhaseValuesAndConditionFields) {
  auto ds = Check(kGoodChild, R"(      statusDefinition:
        phaseDefinition:
          path: .status.phase
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: kind
        statusMappings:
          running:
          - byPhase: Runing
          completed:
          - byPhase: Done
)");
  const Diagnostic* phase = Find(ds, kPhaseNotInEnum);
  ASSERT_NE(phase, nullptr) << All(ds);
  EXPECT_NE(phase->message.find("'Runing'"), std::string::npos);
  ASSERT_FALSE(phase->notes.empty());
  EXPECT_EQ(phase->notes[0], "did you mean 'Running'?");
  int phase_errors = 0;
  for (const auto& d : ds) phase_errors += d.rule == kPhaseNotInEnum;
  EXPECT_EQ(phase_errors, 1);  // "Done" is fine
  const Diagnostic* cond = Find(ds, kConditionShape);
  ASSERT_NE(cond, nullptr) << All(ds);
  EXPECT_NE(cond->message.find("no field 'kind'"), std::string::npos);
}

TEST_F(TypeCheckTest, ComparisonOutsideTheEnum) {
  auto ds = Check(kGoodChild, R"(      statusDefinition:
        statusMappings:
          running:
          - byExpression:
              expression: .status.phase == "Runing"
              expectedResult: "true"
)");
  const Diagnostic* d = Find(ds, kAlwaysFalse);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->severity, Severity::Warning);
}

TEST_F(TypeCheckTest, MultiInstancePathsIterateTheSameList) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
      scaleDefinition:
        replicasPath: .spec.workers[].replicas // 1
)");
  const Diagnostic* d = Find(ds, kInstanceMismatch);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->message, "replicasPath iterates .spec.workers[] but instanceIdPath iterates .spec.roles[]");
  ASSERT_FALSE(d->notes.empty());
  EXPECT_NE(d->notes[0].find("'.spec.roles[].name'"), std::string::npos);
  EXPECT_NE(d->notes[0].find("'.spec.workers[].replicas // 1'"), std::string::npos);
}

// Certain counts are errors, possible ones (a select decides) warnings.
TEST_F(TypeCheckTest, CountSeverityFollowsCertainty) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        fragmentedPodSpecDefinition:
          containerPath: '.spec.roles[] | .template.spec.containers[]'
          imagePath: '.spec.roles[] | .template.spec.containers[] | select(.image != null) | .image'
          resourcesPath: '.spec.roles[] | .template.spec.containers[] | select(.name == "x") | .resources'
)");
  std::vector<const Diagnostic*> found;
  for (const Diagnostic& d : ds) {
    if (d.rule == kInstanceMismatch) found.push_back(&d);
  }
  ASSERT_EQ(found.size(), 2u) << All(ds);
  EXPECT_EQ(found[0]->severity, Severity::Error);    // containerPath: one per container
  EXPECT_EQ(found[1]->severity, Severity::Warning);  // imagePath: filtered by a non-key field
  EXPECT_NE(found[1]->message.find("may yield several results per instance"), std::string::npos);

  ds = Check(R"(      specDefinition:
        fragmentedPodSpecDefinition:
          containerPath: '.spec.roles[0].template.spec.containers[] | select(.image != null)'
)");
  const Diagnostic* d = Find(ds, kSeveralResults);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->severity, Severity::Warning);
  ASSERT_FALSE(d->notes.empty());
  EXPECT_NE(d->notes[0].find("instance ids count (1) does not match results count (N)"),
            std::string::npos);
}

TEST_F(TypeCheckTest, SingleInstancePathMustYieldOneResult) {
  auto ds = Check(R"(      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
)");
  const Diagnostic* d = Find(ds, kSeveralResults);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->severity, Severity::Error);  // one result per role, whatever the data
  EXPECT_NE(d->message.find("component 'role' has no instanceIdPath"), std::string::npos);
  ds = Check(R"(      specDefinition:
        podTemplateSpecPath: .spec.roles[0].template
)");
  EXPECT_EQ(Find(ds, kSeveralResults), nullptr) << All(ds);
}

TEST_F(TypeCheckTest, NullSafetySuggestsADefault) {
  auto ds = Check(R"(      instanceIdPath: .spec.roles[].name
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
      scaleDefinition:
        replicasPath: .spec.roles[].replicas
)");
  const Diagnostic* d = Find(ds, kNullSafety);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->severity, Severity::Warning);
  EXPECT_EQ(d->fixit, ".spec.roles[].replicas // 1");  // the schema default
  EXPECT_NE(d->message.find(".spec.roles[].replicas"), std::string::npos);
}

TEST_F(TypeCheckTest, PodPathsAreCheckedAgainstPod) {
  auto ds = Check(std::string(kGoodChild) + R"(      podSelector:
        componentInstanceSelector:
          idPath: .metadata.labelz["x"]
)", "",
                  R"(  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: g
        members:
        - componentName: role
          filters: ['.metadata.name']
          groupByKeyPaths: ['.metadata.labels["x"]']
)");
  const Diagnostic* d = Find(ds, kUnknownField);
  ASSERT_NE(d, nullptr) << All(ds);
  EXPECT_EQ(d->message, "field 'labelz' not found in v1 Pod at .metadata; did you mean 'labels'?");
  const Diagnostic* filter = Find(ds, kRoleType);
  ASSERT_NE(filter, nullptr) << All(ds);
  EXPECT_EQ(filter->message, "filters yields string, not a boolean");
}

TEST_F(TypeCheckTest, SuspendValueMustFitTheField) {
  auto ds = Check(kGoodChild, R"(      suspendDefinition:
        suspendActions:
        - {path: .spec.suspend, value: '"yes"'}
        resumeActions:
        - {path: .spec.suspend, value: false}
)");
  const Diagnostic* d = Find(ds, kSuspendValue);
  ASSERT_NE(d, nullptr) << All(ds);
  int n = 0;
  for (const auto& x : ds) n += x.rule == kSuspendValue;
  EXPECT_EQ(n, 1) << All(ds);
}

// A definition whose root kind has no schema.
const char* kNoSchemaDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: x}
spec:
  structureDefinition:
    rootComponent:
      name: x
      kind: {group: nowhere.io, version: v1, kind: Thing}
      statusDefinition:
        conditionsDefinition:
          path: .status.whatever
)";

TEST_F(TypeCheckTest, MissingSchemaIsANote) {
  DiagnosticSink sink;
  auto loaded = definition::LoadDefinitions("def.yaml", kNoSchemaDefinition, {}, sink);
  ASSERT_EQ(loaded.definitions.size(), 1u);
  auto ds = TypeCheck(loaded.definitions[0], *registry_);
  ASSERT_EQ(ds.size(), 1u) << All(ds);
  EXPECT_EQ(ds[0].rule, kNoSchema);
  EXPECT_EQ(ds[0].severity, Severity::Note);
}

TEST_F(TypeCheckTest, ExpressionTypesAndCardinality) {
  const schema::Schema* trainer =
      registry_->Lookup(schema::Gvk::FromApiVersion("example.com/v1", "Trainer"));
  ASSERT_NE(trainer, nullptr);
  struct Case {
    const char* expr;
    const char* type;
    const char* card;
    const char* iterated;
  } cases[] = {
      {".spec.roles", "array", "one", ""},
      {".spec.roles[].name", "string", "many", ".spec.roles[]"},
      {".spec.roles[] | .replicas // 1", "integer", "many", ".spec.roles[]"},
      {".spec.roles | length", "number", "one", ""},
      {".spec.roles[0].port", "integer|string", "one", ""},
      {"[.spec.roles[].name]", "array of string", "one", ""},
      {".spec.roles[] | select(.name == \"a\") | .template", "object", "many", ".spec.roles[]"},
      {"first(.spec.roles[] | select(.name == \"a\"))", "object", "optional", ""},
      {".status.phase", "string", "one", ""},
      {".spec.extra.x.y", "unknown", "one", ""},
      {"empty", "unknown", "none", ""},
      {".spec.roles[].name, .status.phase", "string", "many", ""},
      // to_entries / keys of a schema map iterate that map (same collection as `.[]`).
      {".spec.roles[0].template.metadata.labels | to_entries[] | .value", "string", "many",
       ".spec.roles[].template.metadata.labels[]"},
      {".spec.roles[0].template.metadata.labels | keys[]", "number|string", "many",
       ".spec.roles[].template.metadata.labels[]"},
      {"[1, 2] | .[]", "integer", "many", ""},  // a computed array names no collection
      {"limit(1; .spec.roles[].name)", "string", "optional", ""},
      // Containers are a list-map keyed by name: a select on the key keeps one per role.
      {".spec.roles[] | .template.spec.containers[] | select(.name == \"main\") | .image", "string",
       "many", ".spec.roles[]"},
      {".spec.roles[].template.spec.containers[] | select(\"main\" == .name and .image != null)",
       "object", "many", ".spec.roles[]"},
      {".spec.roles[] | .template.spec.containers[] | select(.image == \"x\")", "object", "many",
       ".spec.roles[].template.spec.containers[]"},
      {".spec.roles[0].template.spec.containers[] | select(.name == \"main\")", "object",
       "optional", ""},
      // to_entries of an array: index keys, the elements' schema as values.
      {".spec.roles | to_entries[] | .value.name", "string", "many", ".spec.roles[]"},
  };
  for (const Case& c : cases) {
    auto parsed = jq::Parse(c.expr);
    ASSERT_TRUE(parsed.ok()) << c.expr;
    std::vector<Diagnostic> ds;
    ExpressionType t = CheckExpression(*parsed.ast, {}, trainer, "example.com/v1 Trainer",
                                       *registry_, &ds);
    EXPECT_EQ(t.type, c.type) << c.expr;
    EXPECT_EQ(t.cardinality, c.card) << c.expr;
    EXPECT_EQ(t.iterated, c.iterated) << c.expr;
    EXPECT_TRUE(ds.empty()) << c.expr << "\n" << All(ds);
  }
}

// ---- name resolution: calls are checked by what they bind to

// The type of `expr` on a Trainer and its findings.
struct Checked {
  ExpressionType type;
  std::vector<Diagnostic> diagnostics;
};

class ResolvedCallsTest : public TypeCheckTest {
 protected:
  Checked On(const std::string& expr) {
    const schema::Schema* trainer =
        registry_->Lookup(schema::Gvk::FromApiVersion("example.com/v1", "Trainer"));
    EXPECT_NE(trainer, nullptr);
    auto parsed = jq::Parse(expr);
    EXPECT_TRUE(parsed.ok()) << expr;
    Checked out;
    if (!parsed.ok()) return out;
    out.type = CheckExpression(*parsed.ast, {}, trainer, "example.com/v1 Trainer", *registry_,
                               &out.diagnostics);
    return out;
  }
};

// Closure arguments run where the builtin runs them: fields are looked up there.
TEST_F(ResolvedCallsTest, ClosureArgumentsAreTypedOnWhatTheyRunOn) {
  for (const char* clean : {
           "any(.spec.roles[]; .name == \"a\")",
           "all(.status.conditions // [] | .[]; .type == \"Ready\")",
           "INDEX(.spec.roles[]; .name)",
           ".spec.roles | INDEX(.name)",
           ".spec.roles[0].template.metadata.labels | with_entries(select(.value != \"\"))",
           ".spec.roles | with_entries(.value.name)",
           "walk(if type == \"object\" then .whatever else . end)",
           "[paths(.whatever)]",
           "recurse(.spec.roles[]?; .name != null)",
           ".spec.roles[0] | IN(.name; \"a\", \"b\")",
       }) {
    Checked c = On(clean);
    EXPECT_TRUE(c.diagnostics.empty()) << clean << "\n" << All(c.diagnostics);
  }
  Checked typo = On("any(.spec.roles[]; .nmae == \"a\")");
  const Diagnostic* d = Find(typo.diagnostics, kUnknownField);
  ASSERT_NE(d, nullptr) << All(typo.diagnostics);
  EXPECT_EQ(d->message, "field 'nmae' not found in example.com/v1 Trainer at .spec.roles[]; did you "
                        "mean 'name'?");
  typo = On("INDEX(.spec.roles[]; .nmae)");
  EXPECT_NE(Find(typo.diagnostics, kUnknownField), nullptr) << All(typo.diagnostics);
}

// A `type` or null test lets only some kinds through: what follows reads only those.
TEST_F(ResolvedCallsTest, TypeTestsNarrowTheInput) {
  for (const char* clean : {
           ".spec.roles[0].name | if type == \"object\" then .x else . end",
           ".spec.roles[0].name | select(type == \"array\") | .[0]",
           ".spec.roles[0].name | type == \"object\" and .x",
       }) {
    Checked c = On(clean);
    EXPECT_TRUE(c.diagnostics.empty()) << clean << "\n" << All(c.diagnostics);
  }
  // Without the test the same read is a certain failure.
  EXPECT_NE(Find(On(".spec.roles[0].name | .x").diagnostics, kCannotIndex), nullptr);
}

TEST_F(ResolvedCallsTest, LocalDefIsNotTheBuiltin) {
  // The builtin keys on a string is WM213; the local `keys` is the identity.
  Checked builtin = On(".spec.roles[0].name | keys");
  ASSERT_NE(Find(builtin.diagnostics, kBuiltinInput), nullptr) << All(builtin.diagnostics);
  Checked local = On("def keys: .; .spec.roles[0].name | keys");
  EXPECT_TRUE(local.diagnostics.empty()) << All(local.diagnostics);
  EXPECT_EQ(local.type.type, "string");
  // On an object: the local def yields the object itself, not an array of keys.
  Checked object = On("def keys: .; .spec | keys");
  EXPECT_TRUE(object.diagnostics.empty()) << All(object.diagnostics);
  EXPECT_EQ(object.type.type, "object");
  EXPECT_EQ(On(".spec | keys").type.type, "array of number|string");
}

TEST_F(ResolvedCallsTest, ParametersShadowBuiltinsAndDefs) {
  Checked c = On("def f(keys): keys; .spec.roles[0].name | f(.)");
  EXPECT_TRUE(c.diagnostics.empty()) << All(c.diagnostics);
  EXPECT_EQ(c.type.type, "string");
  // The argument runs where the parameter is called, on that input.
  c = On("def keys: .spec; def pick(keys): .spec.roles[] | keys; pick(.replicas)");
  EXPECT_TRUE(c.diagnostics.empty()) << All(c.diagnostics);
  EXPECT_EQ(c.type.type, "integer");
  EXPECT_EQ(c.type.cardinality, "many");
  EXPECT_EQ(c.type.iterated, ".spec.roles[]");
  // Value parameters: `$i` is the argument's value.
  c = On("def at($i): .spec.roles[$i]; at(0).name");
  EXPECT_TRUE(c.diagnostics.empty()) << All(c.diagnostics);
  EXPECT_EQ(c.type.type, "string");
  EXPECT_EQ(c.type.cardinality, "one");
}

TEST_F(ResolvedCallsTest, NestedDefsAndTheirBodiesAreChecked) {
  Checked c = On("def outer: def keys: .name; keys; .spec.roles[] | outer");
  EXPECT_TRUE(c.diagnostics.empty()) << All(c.diagnostics);
  EXPECT_EQ(c.type.type, "string");
  EXPECT_EQ(c.type.iterated, ".spec.roles[]");
  // A def's body is evaluated on the input of its call: a misspelt field in it is found.
  c = On("def name: .nmae; .spec.roles[] | name");
  const Diagnostic* d = Find(c.diagnostics, kUnknownField);
  ASSERT_NE(d, nullptr) << All(c.diagnostics);
  EXPECT_EQ(d->message,
            "field 'nmae' not found in example.com/v1 Trainer at .spec.roles[]; did you mean "
            "'name'?");
  // A def that is never called is not evaluated (its input is unknown).
  EXPECT_TRUE(On("def name: .nmae; .spec").diagnostics.empty());
}

TEST_F(ResolvedCallsTest, RecursionYieldsUnknown) {
  Checked c = On("def f: if type == \"object\" then .spec | f else . end; f");
  EXPECT_TRUE(c.diagnostics.empty()) << All(c.diagnostics);
  EXPECT_EQ(c.type.type, "unknown");
  // Mutual recursion through a parameter terminates too.
  c = On("def f(g): g | f(g); f(.spec)");
  EXPECT_EQ(c.type.cardinality, "unknown");
}

TEST_F(ResolvedCallsTest, DefChainsStayWithinTheBudget) {
  // Each def calls the previous one twice: 2^40 body evaluations if every call were expanded.
  std::string expr = "def f0: .spec;";
  for (int i = 1; i <= 40; ++i) {
    expr += " def f" + std::to_string(i) + ": f" + std::to_string(i - 1) + ", f" +
            std::to_string(i - 1) + ";";
  }
  Checked c = On(expr + " f40");
  EXPECT_TRUE(c.diagnostics.empty()) << All(c.diagnostics);
  EXPECT_EQ(c.type.cardinality, "unknown");  // the expansion stopped somewhere
}

TEST_F(TypeCheckTest, LocalDefInADefinitionIsNotCheckedAsTheBuiltin) {
  auto ds = Check(R"(      instanceIdPath: 'def keys: .; .spec.roles[].name | keys'
      specDefinition:
        podTemplateSpecPath: .spec.roles[].template
)");
  EXPECT_EQ(Find(ds, kBuiltinInput), nullptr) << All(ds);
  EXPECT_EQ(Find(ds, kRoleType), nullptr) << All(ds);
  EXPECT_EQ(Find(ds, kInstanceMismatch), nullptr) << All(ds);
}

// ---- the per-field dump

TEST_F(TypeCheckTest, CheckDefinitionFieldsGivesPathsAndTypes) {
  auto ds = Check(std::string(kGoodChild) + R"(      podSelector:
        componentInstanceSelector:
          idPath: .metadata.name
)", R"(      statusDefinition:
        phaseDefinition:
          path: .status.phase
)");
  ASSERT_EQ(definitions_.size(), 1u);
  std::vector<CheckedField> fields = CheckDefinitionFields(definitions_.back(), *registry_);
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0].path, "spec.structureDefinition.rootComponent.statusDefinition.phaseDefinition.path");
  EXPECT_EQ(fields[0].component, "trainer");
  EXPECT_EQ(fields[0].role, "phase");
  EXPECT_EQ(fields[0].result.type, "string");
  EXPECT_EQ(fields[1].path, "spec.structureDefinition.childComponents[0].instanceIdPath");
  EXPECT_EQ(fields[1].expression, ".spec.roles[].name");
  EXPECT_TRUE(fields[1].checked);
  EXPECT_EQ(fields[1].result.type, "string");
  EXPECT_EQ(fields[1].result.cardinality, "many");
  EXPECT_EQ(fields[1].result.iterated, ".spec.roles[]");
  EXPECT_EQ(fields[2].path,
            "spec.structureDefinition.childComponents[0].specDefinition.podTemplateSpecPath");
  EXPECT_EQ(fields[2].result.type, "object");
  EXPECT_EQ(fields[3].path, "spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath");
  EXPECT_EQ(fields[3].result.type, "integer");
  EXPECT_EQ(fields[4].path,
            "spec.structureDefinition.childComponents[0].podSelector.componentInstanceSelector.idPath");
  EXPECT_EQ(fields[4].result.type, "string");  // checked against the Pod
  EXPECT_EQ(fields[4].result.cardinality, "one");
  EXPECT_EQ(DumpCheckedFields({fields[1]}),
            "spec.structureDefinition.childComponents[0].instanceIdPath: .spec.roles[].name => "
            "string, many, iterates .spec.roles[]\n");
}

TEST_F(TypeCheckTest, CheckDefinitionFieldsMarksUncheckedFields) {
  DiagnosticSink sink;
  auto loaded = definition::LoadDefinitions("def.yaml", kNoSchemaDefinition, {}, sink);
  ASSERT_EQ(loaded.definitions.size(), 1u);
  std::vector<CheckedField> fields = CheckDefinitionFields(loaded.definitions[0], *registry_);
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_FALSE(fields[0].checked);
  EXPECT_EQ(fields[0].result.type, "unknown");
  EXPECT_EQ(DumpCheckedFields(fields),
            "spec.structureDefinition.rootComponent.statusDefinition.conditionsDefinition.path: "
            ".status.whatever => unchecked\n");
}

}  // namespace
}  // namespace wm::check
