// Workload resolution on the view engine (runtime/workload/fused.h): objects given as JSON text
// resolve exactly as their Values do. Every catalog example through ResolveOnView and through
// Resolve (the whole resolution as JSON), the Accessor's every extraction from text and from the
// Value on every example (fused definitions or not), and errors and spent budgets worded as on
// the Value path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/yaml/yaml_json.h"
#include "runtime/value/json.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/fused.h"
#include "runtime/workload/view.h"
#include "runtime/workload/workload.h"
#include "tests/unit/workload/bundle_fixture.h"
#include "tests/unit/repository_bundle_util.h"

namespace wm::workload {
namespace {

std::shared_ptr<Bundle> CatalogBundle() {
  std::string bytes = wm::testing::CompileRepositoryBundle("catalog", /*type_check=*/false);
  if (bytes.empty()) return nullptr;
  std::string error;
  std::shared_ptr<Bundle> bundle = Bundle::FromBytes(bytes, "catalog.wmb", &error);
  EXPECT_TRUE(bundle) << error;
  return bundle;
}

// Every document of catalog/examples as JSON text.
std::vector<std::string> CatalogExamples() {
  namespace fs = std::filesystem;
  std::vector<std::string> files, documents;
  for (const auto& entry : fs::directory_iterator(std::string(WM_SOURCE_DIR) + "/catalog/examples")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    std::string text, error;
    EXPECT_TRUE(base::ReadWholeFile(file, &text, &error)) << error;
    base::yaml::Error yaml_error;
    std::vector<std::string> in_file;
    EXPECT_TRUE(base::yaml::TextToJson(text, {}, &in_file, &yaml_error)) << file;
    documents.insert(documents.end(), in_file.begin(), in_file.end());
  }
  return documents;
}

Value Parse(std::string_view json) {
  Value v;
  JsonError e;
  EXPECT_TRUE(ParseJson(json, &v, &e)) << e.message;
  return v;
}

std::string ResolvedText(const ResolvedWorkload& w) { return ToJson(WorkloadJson(w)); }

// Everything an Accessor extracts for one component, as text (values, errors and codes).
std::string Extractions(const Accessor& a, const catalog::Component& c) {
  std::string out;
  auto error = [&](const Error& e) { out += "error " + std::to_string(static_cast<int>(e.code)) + " " + e.message + "\n"; };
  auto values = [&](const char* what, const Result<std::vector<Value>>& r) {
    out += std::string(what) + ": ";
    if (!r.ok()) return error(r.error);
    for (const Value& v : r.value) out += ToJson(v) + " ";
    out += "\n";
  };
  Result<std::vector<std::string>> ids = a.InstanceIds(c);
  out += "ids: ";
  if (ids.ok()) for (const std::string& id : ids.value) out += id + ",";
  else error(ids.error);
  values("pod template specs", a.PodTemplateSpecs(c));
  values("pod specs", a.PodSpecs(c));
  values("pod metadata", a.PodMetadata(c));
  Result<std::vector<FragmentedPodSpec>> fragmented = a.FragmentedPodSpecs(c);
  out += "fragmented: ";
  if (!fragmented.ok()) error(fragmented.error);
  for (const FragmentedPodSpec& f : fragmented.value) for (const Value& v : f.values) out += ToJson(v) + " ";
  Result<std::vector<Scale>> scales = a.Scales(c);
  out += "\nscales: ";
  if (!scales.ok()) error(scales.error);
  for (const Scale& s : scales.value) {
    out += std::to_string(s.replicas.value_or(-1)) + "/" + std::to_string(s.min_replicas.value_or(-1)) + "/" +
           std::to_string(s.max_replicas.value_or(-1)) + " ";
  }
  Result<Status> status = ExtractStatus(a, c);
  out += "\nstatus: ";
  if (!status.ok()) error(status.error);
  else out += ToJson(StatusJson(status.value));
  return out + "\n";
}

class FusedCatalogTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bundle_ = CatalogBundle();
    examples_ = CatalogExamples();
  }
  static void TearDownTestSuite() {
    bundle_.reset();
    examples_.clear();
  }
  static inline std::shared_ptr<Bundle> bundle_;
  static inline std::vector<std::string> examples_;
};

// The view path is taken for the examples of every definition the view engine fuses whole, and
// the resolution (components, instances, pod shapes, scales, GPUs, status, problems) is the same
// JSON as Resolve's on the parsed object.
TEST_F(FusedCatalogTest, ResolveOnViewEqualsResolveOnEveryExample) {
  ASSERT_NE(bundle_, nullptr);
  ASSERT_GT(examples_.size(), 20u);
  FusedDefinitions fused(*bundle_);
  size_t taken = 0, resolvable = 0, answered = 0, runs = 0;
  for (const std::string& doc : examples_) {
    ResolvedWorkload on_value, on_view;
    std::string error;
    bool resolved = Resolve(*bundle_, Parse(doc), &on_value, &error);
    bool viewed = ResolveOnView(*bundle_, doc, fused, &on_view);
    if (!resolved) {
      EXPECT_FALSE(viewed) << doc;
      continue;
    }
    ++resolvable;
    EXPECT_EQ(viewed, fused.For(*on_value.definition).complete()) << on_value.definition->name;
    if (!viewed) continue;
    ++taken;
    EXPECT_EQ(ResolvedText(on_view), ResolvedText(on_value)) << doc;
    FusedDefinition::Answers answers;
    ASSERT_TRUE(fused.For(*on_value.definition).Evaluate(doc, {}, &answers));
    for (const auto& a : answers) answered += a.has_value();
    runs += answers.size();
  }
  size_t complete = 0;
  for (const catalog::Definition& d : bundle_->definitions()) complete += fused.For(d).complete();
  std::printf("[ fused ] %zu of %zu catalog definitions fused whole; %zu of %zu resolvable examples resolved on "
              "the view engine, %zu of their %zu resolver runs answered on it\n",
              complete, bundle_->definitions().size(), taken, resolvable, answered, runs);
  EXPECT_GT(taken, 0u);
}

// The Accessor from text equals the Accessor from the Value on every example and every
// component, whether or not its definition is fused whole (the rest runs on the parsed Value).
TEST_F(FusedCatalogTest, AccessorFromTextEqualsAccessorFromValue) {
  ASSERT_NE(bundle_, nullptr);
  FusedDefinitions fused(*bundle_);
  size_t compared = 0;
  for (const std::string& doc : examples_) {
    Value object = Parse(doc);
    const Value* api = object.IsObject() ? object.Find("apiVersion") : nullptr;
    const Value* kind = object.IsObject() ? object.Find("kind") : nullptr;
    if (!api || !kind || !api->IsString() || !kind->IsString()) continue;
    const catalog::Definition* d = bundle_->FindDefinition(api->AsString(), kind->AsString());
    if (d == nullptr) continue;
    Accessor from_value(*bundle_, *d, object);
    Accessor from_text(*bundle_, *d, doc, fused.For(*d));
    EXPECT_TRUE(from_text.on_view());
    for (const catalog::Component& c : d->components) {
      EXPECT_EQ(Extractions(from_text, c), Extractions(from_value, c)) << d->name << " " << c.name;
      ++compared;
    }
    EXPECT_EQ(ToJson(from_text.object()), ToJson(from_value.object()));
  }
  EXPECT_GT(compared, 20u);
}

constexpr const char* kFusedDefinition = R"(apiVersion: run.ai/v1alpha1
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
    - name: jobs
      ownerRef: thing
      instanceIdPath: '.spec.jobs[].name'
      specDefinition: {podTemplateSpecPath: '.spec.jobs[].template'}
      scaleDefinition: {replicasPath: '.spec.jobs[].replicas + 0'}
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels.job'}
)";

class FusedAccessorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bundle_ = testing::CompileBundle(kFusedDefinition);
    ASSERT_NE(bundle_, nullptr);
    definition_ = &bundle_->definitions().at(0);
    fused_ = std::make_unique<FusedDefinitions>(*bundle_);
  }
  std::shared_ptr<Bundle> bundle_;
  const catalog::Definition* definition_ = nullptr;
  std::unique_ptr<FusedDefinitions> fused_;
};

TEST_F(FusedAccessorTest, EveryResolverOfTheDefinitionIsFusedAndAnsweredFromText) {
  const FusedDefinition& f = fused_->For(*definition_);
  EXPECT_EQ(f.object_resolver_count(), 4u);  // phase, ids, template, replicas
  EXPECT_TRUE(f.complete());
  std::string doc = R"({"apiVersion":"example.com/v1","kind":"Thing","status":{"phase":"Running"},
    "spec":{"jobs":[{"name":"b","replicas":2,"template":{"spec":{"containers":[]}}},{"name":"a","replicas":1}]}})";
  ResolvedWorkload on_view, on_value;
  ASSERT_TRUE(ResolveOnView(*bundle_, doc, *fused_, &on_view));
  std::string error;
  ASSERT_TRUE(Resolve(*bundle_, Parse(doc), &on_value, &error)) << error;
  EXPECT_EQ(ResolvedText(on_view), ResolvedText(on_value));
  EXPECT_EQ(on_view.status.matched_statuses, std::vector<std::string>{"Running"});
  // Every resolver was answered on the view engine (none left to the regular engine).
  FusedDefinition::Answers answers;
  ASSERT_TRUE(f.Evaluate(doc, {}, &answers));
  ASSERT_EQ(answers.size(), 4u);
  for (const auto& a : answers) EXPECT_TRUE(a.has_value());
}

// A document the view engine hands whole to the regular reader (a -0) is left to the caller's
// regular path (ResolveOnView declines it); the objects after it, on the same pooled runner, are
// answered on the view engine again, every resolver of them.
TEST_F(FusedAccessorTest, ObjectsAfterADocumentFallbackAreAnsweredOnTheViewAgain) {
  const FusedDefinition& f = fused_->For(*definition_);
  const std::string ordinary = R"({"apiVersion":"example.com/v1","kind":"Thing","status":{"phase":"Running"},
    "spec":{"jobs":[{"name":"a","replicas":1}]}})";
  const std::string negative_zero = R"({"apiVersion":"example.com/v1","kind":"Thing","status":{"phase":"Failed"},
    "spec":{"jobs":[{"name":"a","replicas":-0}]}})";
  FusedDefinition::Answers answers;
  for (const std::string* doc : {&ordinary, &negative_zero, &ordinary, &ordinary}) {
    ASSERT_TRUE(f.Evaluate(*doc, {}, &answers));
    ASSERT_EQ(answers.size(), 4u);
    for (const auto& a : answers) EXPECT_EQ(a.has_value(), doc == &ordinary) << *doc;
    ResolvedWorkload on_view, on_value;
    ASSERT_EQ(ResolveOnView(*bundle_, *doc, *fused_, &on_view), doc == &ordinary) << *doc;
    if (doc != &ordinary) continue;
    std::string error;
    ASSERT_TRUE(Resolve(*bundle_, Parse(*doc), &on_value, &error)) << error;
    EXPECT_EQ(ResolvedText(on_view), ResolvedText(on_value)) << *doc;
  }
}

// A resolver that raises an error (here `"x" + 0`) is left by the view engine to the regular
// engine: the same message and code as from the Value.
TEST_F(FusedAccessorTest, ErrorsAreTheRegularEnginesWords) {
  std::string doc = R"({"apiVersion":"example.com/v1","kind":"Thing","spec":{"jobs":[{"name":"a","replicas":"x"}]}})";
  FusedDefinition::Answers answers;
  ASSERT_TRUE(fused_->For(*definition_).Evaluate(doc, {}, &answers));
  int replicas = fused_->For(*definition_).Position(definition_->Find("jobs")->replicas);
  ASSERT_GE(replicas, 0);
  EXPECT_FALSE(answers[static_cast<size_t>(replicas)].has_value());
  Accessor from_text(*bundle_, *definition_, doc, fused_->For(*definition_));
  Accessor from_value(*bundle_, *definition_, Parse(doc));
  const catalog::Component& jobs = *definition_->Find("jobs");
  Result<std::vector<Scale>> text_scales = from_text.Scales(jobs);
  Result<std::vector<Scale>> value_scales = from_value.Scales(jobs);
  ASSERT_FALSE(value_scales.ok());
  EXPECT_EQ(text_scales.error.code, value_scales.error.code);
  EXPECT_EQ(text_scales.error.message, value_scales.error.message);
  EXPECT_NE(text_scales.error.message.find("cannot be added"), std::string::npos) << text_scales.error.message;
}

// Not taken: text that is not a Kubernetes object, a kind without a definition, invalid JSON
// (Resolve words those errors).
TEST_F(FusedAccessorTest, ResolveOnViewDeclinesWhatResolveWordsAsErrors) {
  ResolvedWorkload out;
  EXPECT_FALSE(ResolveOnView(*bundle_, "[1]", *fused_, &out));
  EXPECT_FALSE(ResolveOnView(*bundle_, R"({"apiVersion":"v1","kind":"Pod"})", *fused_, &out));
  EXPECT_FALSE(ResolveOnView(*bundle_, R"({"apiVersion":"example.com/v1"})", *fused_, &out));
  EXPECT_FALSE(ResolveOnView(*bundle_, R"({"apiVersion":"example.com/v1","kind":"Thing")", *fused_, &out));
  // Duplicate keys: the last one counts, as in ParseJson's Value.
  EXPECT_FALSE(ResolveOnView(*bundle_, R"({"apiVersion":"example.com/v1","kind":"Thing","kind":"Other"})", *fused_, &out));
  EXPECT_TRUE(ResolveOnView(*bundle_, R"({"apiVersion":"example.com/v1","kind":"Other","kind":"Thing"})", *fused_, &out));
  // An object budget below the defaults wants exact step accounting: the regular engines.
  ResolveOptions tight;
  tight.object.fuel = 1000;
  EXPECT_FALSE(ResolveOnView(*bundle_, R"({"apiVersion":"example.com/v1","kind":"Thing"})", *fused_, &out, tight));
  tight = {};
  tight.object.timeout_ms = 5;
  EXPECT_FALSE(ResolveOnView(*bundle_, R"({"apiVersion":"example.com/v1","kind":"Thing"})", *fused_, &out, tight));
  tight.object.timeout_ms = 0;  // none: nothing to charge
  EXPECT_TRUE(ResolveOnView(*bundle_, R"({"apiVersion":"example.com/v1","kind":"Thing"})", *fused_, &out, tight));
}

// A spent object budget stops the view engine's answers too: the same limit error as the Value
// path gives once the budget is gone.
TEST_F(FusedAccessorTest, SpentObjectBudgetIsTheRegularPathsError) {
  std::string doc = R"({"apiVersion":"example.com/v1","kind":"Thing","spec":{"jobs":[{"name":"a"}]}})";
  AccessorOptions options;
  Accessor from_text(*bundle_, *definition_, doc, fused_->For(*definition_), options);
  from_text.object_budget()->fuel_left = 0;
  Accessor from_value(*bundle_, *definition_, Parse(doc), options);
  from_value.object_budget()->fuel_left = 0;
  const catalog::Component& jobs = *definition_->Find("jobs");
  Result<std::vector<std::string>> a = from_text.InstanceIds(jobs), b = from_value.InstanceIds(jobs);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(a.error.code, ErrorCode::kLimit);
  EXPECT_EQ(a.error.message, b.error.message);
}

}  // namespace
}  // namespace wm::workload
