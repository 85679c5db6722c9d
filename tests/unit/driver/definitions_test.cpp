// Tests of the driver's definition pipeline: each jq field is lowered once and keeps its IR and
// Go-style path, lowering diagnostics are reported once, the bundle is built from that IR and
// loads, findings are sorted by position, and the --emit dump of a definition is headed per field.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler/driver/definitions.h"
#include "runtime/bundle/bundle.h"

namespace wm::driver {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: small
spec:
  structureDefinition:
    rootComponent:
      name: top
      kind: {group: example.com, version: v1, kind: Top}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          running:
          - byPhase: Running
          - byExpression: {expression: .status.phase, expectedResult: Running}
    childComponents:
    - name: worker
      ownerRef: top
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: .spec.replicas}
)";

// A temporary directory with files, removed at the end of the test.
class DriverDefinitions : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wm-driver-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream((dir_ / name).string()) << text;
    return (dir_ / name).string();
  }
  static DefinitionOptions NoSchemas(Goal goal = Goal::kCheck) {
    DefinitionOptions options;
    options.goal = goal;
    options.type_check = false;
    return options;
  }
  fs::path dir_;
};

TEST_F(DriverDefinitions, EveryFieldKeepsItsPathAndIr) {
  std::string file = Write("small.yaml", kDefinition);
  Expected<CompiledDefinitions> compiled = CompileDefinitions({file}, NoSchemas());
  ASSERT_TRUE(compiled.ok()) << compiled.failure().message;
  EXPECT_EQ(compiled->sink.errors(), 0);
  std::vector<std::string> paths;
  for (const CompiledField& f : compiled->fields) {
    paths.push_back(f.path);
    EXPECT_NE(f.program, nullptr) << f.path;
    EXPECT_EQ(f.definition->name.value, "small");
  }
  EXPECT_EQ(paths,
            (std::vector<std::string>{
                "spec.structureDefinition.rootComponent.statusDefinition.phaseDefinition.path",
                "spec.structureDefinition.rootComponent.statusDefinition.statusMappings."
                "running[1].byExpression.expression",
                "spec.structureDefinition.childComponents[0].specDefinition.podTemplateSpecPath",
                "spec.structureDefinition.childComponents[0].scaleDefinition.replicasPath",
            }));
  EXPECT_EQ(compiled->fields[2].component, "worker");
  EXPECT_EQ(compiled->fields[3].role, definition::JqRole::kReplicas);
  EXPECT_FALSE(compiled->bundle.has_value());  // kCheck builds no bundle
}

TEST_F(DriverDefinitions, LoweringErrorsAreReportedOnce) {
  std::string text = kDefinition;
  text.replace(text.find("{path: .status.phase}"), 21, "{path: .status.phase | nosuch}");
  std::string file = Write("bad.yaml", text);
  for (Goal goal : {Goal::kCheck, Goal::kBundle}) {
    Expected<CompiledDefinitions> compiled = CompileDefinitions({file}, NoSchemas(goal));
    ASSERT_TRUE(compiled.ok());
    int unknown = 0;
    for (const Diagnostic& d : compiled->sink.items()) unknown += d.rule == "WM110";
    EXPECT_EQ(unknown, 1);
    EXPECT_EQ(compiled->fields[0].program, nullptr);
    EXPECT_FALSE(compiled->bundle.has_value());
  }
}

TEST_F(DriverDefinitions, PolicyRefusalsAreNotLowered) {
  std::string text = kDefinition;
  text.replace(text.find("{path: .status.phase}"), 21, "{path: '$ENV.PHASE'}");
  Expected<CompiledDefinitions> compiled =
      CompileDefinitions({Write("env.yaml", text)}, NoSchemas());
  ASSERT_TRUE(compiled.ok());
  ASSERT_EQ(compiled->sink.items().size(), 1u) << compiled->sink.items()[0].message;
  EXPECT_NE(compiled->sink.items()[0].rule, "WM111");
  EXPECT_EQ(compiled->fields[0].program, nullptr);
}

TEST_F(DriverDefinitions, BundleIsBuiltFromTheLoweredFieldsAndLoads) {
  std::string file = Write("small.yaml", kDefinition);
  DefinitionOptions options = NoSchemas(Goal::kBundle);
  options.opt_level = 0;
  Expected<CompiledDefinitions> compiled = CompileDefinitions({file}, options);
  ASSERT_TRUE(compiled.ok());
  ASSERT_TRUE(compiled->bundle.has_value()) << compiled->bundle_error;
  // `.status.phase` appears twice with different roles (phase, status expression): not shared.
  // The fifth is the write path program of podTemplateSpecPath: native code too, as the native
  // backends compile path expressions.
  EXPECT_EQ(compiled->bundle->catalog.resolvers.size(), 5u);
  EXPECT_EQ(compiled->bundle->native_resolvers, 5u);
  EXPECT_EQ(compiled->bundle->catalog.resolvers[0].program, compiled->fields[0].program);
  std::string error;
  auto loaded = Bundle::FromBytes(compiled->bundle->bytes, "small.wmb", &error);
  ASSERT_NE(loaded, nullptr) << error;
  EXPECT_EQ(loaded->definitions().size(), 1u);
  EXPECT_EQ(loaded->resolver_count(), 5u);

  options.native = false;
  Expected<CompiledDefinitions> interpreted = CompileDefinitions({file}, options);
  ASSERT_TRUE(interpreted->bundle.has_value());
  EXPECT_EQ(interpreted->bundle->native_resolvers, 0u);
}

TEST_F(DriverDefinitions, InputsAndFindingsAreOrdered) {
  Write("b.yaml", kDefinition);
  std::string text = kDefinition;
  text.replace(text.find("name: small"), 11, "name: first");
  text.replace(text.find("kind: Top"), 9, "kind: Top2");
  text.replace(text.find("{replicasPath: .spec.replicas}"), 30, "{replicasPath: '.a | f'}");
  text.replace(text.find("{path: .status.phase}"), 21, "{path: '.b | g'}");
  Write("a.yaml", text);
  fs::create_directories(dir_ / "examples");
  Write("examples/object.yaml", "not: a definition\n");
  Expected<CompiledDefinitions> compiled = CompileDefinitions({dir_.string()}, NoSchemas());
  ASSERT_TRUE(compiled.ok());
  ASSERT_EQ(compiled->files.size(), 2u);
  EXPECT_EQ(fs::path(compiled->files[0].path).filename(), "a.yaml");
  std::vector<Diagnostic> findings = compiled->SortedFindings();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_LT(findings[0].location.line, findings[1].location.line);
  EXPECT_NE(findings[0].message.find("g/0"), std::string::npos) << findings[0].message;
}

TEST_F(DriverDefinitions, MissingInputIsAFailure) {
  Expected<CompiledDefinitions> compiled = CompileDefinitions({(dir_ / "none.yaml").string()});
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.failure().message.find("none.yaml: no such file or directory"),
            std::string::npos);
}

TEST_F(DriverDefinitions, EmitHeadsEveryFieldWithItsPlace) {
  std::string file = Write("small.yaml", kDefinition);
  Expected<CompiledDefinitions> compiled = CompileDefinitions({file}, NoSchemas());
  ASSERT_TRUE(compiled.ok());
  Expected<std::string> ast = EmitDefinitions(*compiled, Stage::kAst);
  ASSERT_TRUE(ast.ok());
  EXPECT_EQ(ast->find("// ----- small spec.structureDefinition.rootComponent.statusDefinition."
                      "phaseDefinition.path (" +
                      file + ":11:33)\nField [0,13) phase\n"),
            0u)
      << *ast;
  Expected<std::string> ir = EmitDefinitions(*compiled, Stage::kIr);
  ASSERT_TRUE(ir.ok());
  size_t headers = 0;
  for (size_t at = ir->find("// ----- "); at != std::string::npos;
       at = ir->find("// ----- ", at + 1)) {
    ++headers;
  }
  EXPECT_EQ(headers, compiled->fields.size());
  Expected<std::string> assembly = EmitDefinitions(*compiled, Stage::kAsm);
  ASSERT_TRUE(assembly.ok()) << assembly.failure().message;
  EXPECT_NE(assembly->find("wm_field_3:"), std::string::npos);
  // Without a schema registry (type checking off) every field is dumped, as unchecked.
  Expected<std::string> checked = EmitDefinitions(*compiled, Stage::kChecked);
  ASSERT_TRUE(checked.ok()) << checked.failure().message;
  EXPECT_NE(checked->find("\nspec.structureDefinition.childComponents[0].scaleDefinition."
                          "replicasPath: .spec.replicas => unchecked\n"),
            std::string::npos)
      << *checked;
}

constexpr const char* kJobSetDefinition = R"(apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: typed
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        phaseDefinition: {path: 'def keys: .; .status | keys | .terminalState'}
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: .spec.replicatedJobs[].name
)";

TEST_F(DriverDefinitions, EmitResolvedShowsWhatEachCallBindsTo) {
  std::string file = Write("typed.yaml", kJobSetDefinition);
  Expected<CompiledDefinitions> compiled = CompileDefinitions({file}, NoSchemas());
  ASSERT_TRUE(compiled.ok());
  Expected<std::string> resolved = EmitDefinitions(*compiled, Stage::kResolved);
  ASSERT_TRUE(resolved.ok()) << resolved.failure().message;
  // The local def shadows the builtin keys/0.
  EXPECT_NE(resolved->find("keys -> def keys/0"), std::string::npos) << *resolved;
  EXPECT_EQ(resolved->find("builtin keys/0"), std::string::npos) << *resolved;
  EXPECT_EQ(resolved->find("// ----- typed spec.structureDefinition.rootComponent."), 0u);
}

TEST_F(DriverDefinitions, EmitCheckedTypesEveryFieldAgainstItsSchema) {
  std::string file = Write("typed.yaml", kJobSetDefinition);
  Expected<CompiledDefinitions> compiled = CompileDefinitions({file});
  ASSERT_TRUE(compiled.ok()) << compiled.failure().message;
  ASSERT_NE(compiled->schemas, nullptr);
  Expected<std::string> checked = EmitDefinitions(*compiled, Stage::kChecked);
  ASSERT_TRUE(checked.ok()) << checked.failure().message;
  EXPECT_NE(checked->find("instanceIdPath: .spec.replicatedJobs[].name => string, many"),
            std::string::npos)
      << *checked;
}

}  // namespace
}  // namespace wm::driver
