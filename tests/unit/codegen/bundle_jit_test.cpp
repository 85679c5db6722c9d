// The bundle's JIT hook (codegen::MakeJitCompiler, runtime/bundle/native_compiler.h): the catalog
// compiled without native code, opened with the hook, resolves every catalog example exactly as
// the interpreter does, on JIT code for the kinds it used.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/yaml/yaml_json.h"
#include "compiler/codegen/codegen.h"
#include "runtime/bundle/bundle.h"
#include "runtime/value/json.h"
#include "runtime/workload/fused.h"
#include "runtime/workload/view.h"
#include "runtime/workload/workload.h"
#include "tests/unit/repository_bundle_util.h"

namespace wm {
namespace {

std::string CatalogBundle() { return testing::CompileRepositoryBundle("catalog", /*type_check=*/false); }

std::vector<Value> CatalogExamples() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(std::string(WM_SOURCE_DIR) + "/catalog/examples")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Value> objects;
  for (const std::string& file : files) {
    std::string text, error;
    EXPECT_TRUE(base::ReadWholeFile(file, &text, &error)) << error;
    base::yaml::Error yaml_error;
    std::vector<std::string> documents;
    EXPECT_TRUE(base::yaml::TextToJson(text, {}, &documents, &yaml_error)) << file;
    for (const std::string& doc : documents) {
      Value object;
      JsonError json_error;
      EXPECT_TRUE(ParseJson(doc, &object, &json_error)) << file;
      objects.push_back(std::move(object));
    }
  }
  return objects;
}

// The workload view of `object`, or "error: ..." as Resolve words it.
std::string Resolved(const Bundle& bundle, const Value& object) {
  workload::ResolvedWorkload resolved;
  std::string error;
  if (!workload::Resolve(bundle, object, &resolved, &error)) return "error: " + error;
  return ToJson(workload::WorkloadJson(resolved));
}

TEST(BundleJit, EveryCatalogExampleResolvesAsOnTheInterpreter) {
  std::string bytes = CatalogBundle();
  std::string error;
  std::shared_ptr<Bundle> interp = Bundle::FromBytes(bytes, "catalog.wmb", &error);
  ASSERT_TRUE(interp) << error;
  codegen::CodegenOptions jit_options;
  jit_options.opt_level = 1;
  BundleLoadOptions load;
  load.compiler = codegen::MakeJitCompiler(jit_options);
  std::shared_ptr<Bundle> jit = Bundle::FromBytes(bytes, "catalog.wmb", &error, load);
  ASSERT_TRUE(jit) << error;
  EXPECT_EQ(jit->compiled_resolver_count(), 0u);
  std::vector<Value> examples = CatalogExamples();
  ASSERT_GT(examples.size(), 20u);
  size_t resolved = 0;
  for (const Value& object : examples) {
    std::string expected = Resolved(*interp, object);
    ASSERT_EQ(Resolved(*jit, object), expected) << ToJson(object);
    resolved += expected.rfind("error: ", 0) == 0 ? 0 : 1;
  }
  EXPECT_GT(resolved, 20u);
  // The kinds the examples used run JIT code now (path programs stay on the interpreter).
  EXPECT_GT(jit->compiled_resolver_count(), jit->resolver_count() / 2);
  const catalog::Definition* jobset = jit->FindDefinition("jobset.x-k8s.io/v1alpha2", "JobSet");
  ASSERT_NE(jobset, nullptr);
  EXPECT_STREQ(jit->resolver(jobset->components.at(1).instance_id).engine_name(), "jit");
}

}  // namespace
}  // namespace wm

namespace wm {
namespace {

// With the JIT hook, the view engine that resolves objects given as text (FusedDefinition) runs
// its fills and programs as native code (NativeCompiler::ViewCompiler), and every catalog example
// resolves on it as on the interpreter's Value path.
TEST(BundleJit, ViewEngineRunsNativeCodeFromTheHook) {
  std::string bytes = CatalogBundle();
  std::string error;
  std::shared_ptr<Bundle> interp = Bundle::FromBytes(bytes, "catalog.wmb", &error);
  ASSERT_TRUE(interp) << error;
  BundleLoadOptions load;
  load.compiler = codegen::MakeJitCompiler();
  std::shared_ptr<Bundle> jit = Bundle::FromBytes(bytes, "catalog.wmb", &error, load);
  ASSERT_TRUE(jit) << error;
  workload::FusedDefinitions fused(*jit);
  size_t on_view = 0, native_kinds = 0;
  for (const Value& object : CatalogExamples()) {
    const std::string expected = Resolved(*interp, object);
    workload::ResolvedWorkload resolved;
    if (!workload::ResolveOnView(*jit, ToJson(object), fused, &resolved)) continue;
    ++on_view;
    EXPECT_EQ(ToJson(workload::WorkloadJson(resolved)), expected) << ToJson(object);
    const workload::FusedDefinition& definition = fused.For(*resolved.definition);
    EXPECT_TRUE(definition.kind().native_code()) << resolved.definition->name << ": " << definition.kind().native_error();
    native_kinds += definition.kind().native_code();
  }
  EXPECT_GT(on_view, 10u);
  EXPECT_EQ(native_kinds, on_view);
  // Without the hook, the tables and Exec.
  workload::FusedDefinitions plain(*interp);
  for (const catalog::Definition& definition : interp->definitions()) {
    EXPECT_FALSE(plain.For(definition).kind().native_code()) << definition.name;
  }
}

}  // namespace
}  // namespace wm
