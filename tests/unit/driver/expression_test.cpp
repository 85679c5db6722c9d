// Tests of the driver's single-expression pipeline: every engine from one call, the stage a
// failure is reported at (syntax, policy, names, native support), AOT batches, and the
// `--emit` dumps of an expression.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "compiler/jq/policy.h"
#include "runtime/value/json.h"

namespace wm::driver {
namespace {

std::string Outputs(const Filter& filter, const std::string& input_json) {
  Value input;
  JsonError json_error;
  EXPECT_TRUE(ParseJson(input_json, &input, &json_error)) << input_json;
  std::string out;
  EvalError error;
  EvalStatus status = filter.Run(
      input,
      [&](const Value& v) {
        out += ToJson(v) + " ";
        return true;
      },
      &error);
  if (status == EvalStatus::kError) out += "error: " + error.Message();
  return out;
}

ExpressionOptions WithEngine(Engine engine) {
  ExpressionOptions options;
  options.engine = engine;
  return options;
}

TEST(DriverStage, NamesRoundTrip) {
  for (Stage stage :
       {Stage::kAst, Stage::kResolved, Stage::kChecked, Stage::kIr, Stage::kLlvm, Stage::kAsm}) {
    EXPECT_EQ(StageFromName(StageName(stage)), stage);
  }
  for (Engine engine : {Engine::kInterp, Engine::kJit, Engine::kAot, Engine::kAuto}) {
    EXPECT_EQ(EngineFromName(EngineName(engine)), engine);
  }
  EXPECT_FALSE(StageFromName("obj").has_value());
  EXPECT_FALSE(EngineFromName("fast").has_value());
  EXPECT_EQ(StageNames(), "ast, resolved, checked, ir, llvm, asm");
}

TEST(DriverExpression, EveryEngineRunsTheSameExpression) {
  const std::string text = ".spec.replicatedJobs[] | (.replicas // 1) * 2";
  const std::string input = R"({"spec":{"replicatedJobs":[{"replicas":3},{}]}})";
  for (Engine engine : {Engine::kInterp, Engine::kJit, Engine::kAot, Engine::kAuto}) {
    SCOPED_TRACE(std::string(EngineName(engine)));
    Expected<Executable> compiled = CompileExpression(text, WithEngine(engine));
    ASSERT_TRUE(compiled.ok()) << compiled.failure().Summary();
    EXPECT_EQ(Outputs(*compiled->filter, input), "6 2 ");
    EXPECT_NE(compiled->program, nullptr);
  }
  EXPECT_EQ(CompileExpression(text, WithEngine(Engine::kAuto))->engine, Engine::kJit);
  EXPECT_STREQ(CompileExpression(text, WithEngine(Engine::kAot))->filter->engine_name(), "aot");
}

TEST(DriverExpression, FailuresNameTheirStage) {
  Expected<Executable> syntax = CompileExpression(".a |");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.failure().stage, Stage::kAst);
  ASSERT_FALSE(syntax.failure().diagnostics.empty());
  EXPECT_EQ(syntax.failure().diagnostics[0].rule, "WM100");
  EXPECT_EQ(syntax.failure().diagnostics[0].location.file, "<expr>");

  ExpressionOptions named;
  named.source_name = "resolver.jq";
  Expected<Executable> names = CompileExpression(".a | nosuch", named);
  ASSERT_FALSE(names.ok());
  EXPECT_EQ(names.failure().stage, Stage::kIr);
  EXPECT_EQ(names.failure().diagnostics.at(0).rule, "WM110");
  EXPECT_EQ(names.failure().diagnostics.at(0).location.file, "resolver.jq");
  EXPECT_EQ(names.failure().Summary().rfind("WM110: ", 0), 0u) << names.failure().Summary();
}

TEST(DriverExpression, PolicyOnlyWhenAsked) {
  EXPECT_TRUE(CompileExpression("$ENV.HOME").ok());
  jq::Policy policy = jq::Policy::Default();
  ExpressionOptions options;
  options.policy = &policy;
  Expected<Executable> refused = CompileExpression("$ENV.HOME", options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.failure().stage, Stage::kAst);
  EXPECT_FALSE(refused.failure().diagnostics.empty());
}

TEST(DriverExpression, NativeEnginesCompilePathExpressionsAndRecursion) {
  for (const std::string text : {"[paths]", "[recurse(.a?; . != null)] | length"}) {
    Expected<Executable> jit = CompileExpression(text, WithEngine(Engine::kJit));
    ASSERT_TRUE(jit.ok()) << jit.failure().Summary();
    Expected<Executable> automatic = CompileExpression(text, WithEngine(Engine::kAuto));
    ASSERT_TRUE(automatic.ok()) << automatic.failure().Summary();
    EXPECT_EQ(automatic->engine, Engine::kJit) << text;
  }
  Expected<Executable> paths = CompileExpression("[paths]", WithEngine(Engine::kJit));
  EXPECT_EQ(Outputs(*paths->filter, R"({"a":1})"), R"([["a"]] )");
}

TEST(DriverExpression, AotBatchKeepsProgramOrder) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const char* text : {".a", ".b + 1", "[.a, .b]"})
    programs.push_back(LowerExpression(text)->program);
  Expected<std::vector<std::unique_ptr<Filter>>> filters = BuildAotBatch(programs);
  ASSERT_TRUE(filters.ok()) << filters.failure().message;
  ASSERT_EQ(filters->size(), 3u);
  const std::string input = R"({"a":1,"b":2})";
  EXPECT_EQ(Outputs(*(*filters)[0], input), "1 ");
  EXPECT_EQ(Outputs(*(*filters)[1], input), "3 ");
  EXPECT_EQ(Outputs(*(*filters)[2], input), "[1,2] ");
  EXPECT_TRUE(BuildAotBatch({}).ok());
}

TEST(DriverExpression, EmitsEveryStage) {
  Expected<std::string> ast = EmitExpression(".a", Stage::kAst);
  ASSERT_TRUE(ast.ok());
  EXPECT_EQ(*ast, "Field [0,2) a\n  <none>\n");
  Expected<std::string> ir = EmitExpression(".a", Stage::kIr);
  ASSERT_TRUE(ir.ok());
  EXPECT_NE(ir->find("fn 0 main:"), std::string::npos) << *ir;
  Expected<std::string> llvm = EmitExpression(".a", Stage::kLlvm);
  ASSERT_TRUE(llvm.ok()) << llvm.failure().message;
  EXPECT_NE(llvm->find("@wm_expression("), std::string::npos);
  Expected<std::string> assembly = EmitExpression(".a", Stage::kAsm);
  ASSERT_TRUE(assembly.ok()) << assembly.failure().message;
  EXPECT_NE(assembly->find("wm_expression:"), std::string::npos) << *assembly;
  Expected<std::string> resolved = EmitExpression("def keys: .; keys | length", Stage::kResolved);
  ASSERT_TRUE(resolved.ok()) << resolved.failure().Summary();
  EXPECT_NE(resolved->find("keys -> def keys/0"), std::string::npos) << *resolved;
  EXPECT_NE(resolved->find("length -> builtin length/0"), std::string::npos) << *resolved;
  Expected<std::string> checked = EmitExpression("\"a\"", Stage::kChecked);
  ASSERT_TRUE(checked.ok()) << checked.failure().Summary();
  EXPECT_EQ(*checked, "<expr>: \"a\" => string, one\n");
  // The AST stage stops before lowering; the IR stage reports the unknown name.
  EXPECT_TRUE(EmitExpression("nosuch", Stage::kAst).ok());
  EXPECT_EQ(EmitExpression("nosuch", Stage::kIr).failure().stage, Stage::kIr);
  EXPECT_EQ(EmitExpression("nosuch", Stage::kResolved).failure().stage, Stage::kIr);
  EXPECT_EQ(EmitExpression("nosuch", Stage::kChecked).failure().stage, Stage::kIr);
  EXPECT_TRUE(EmitExpression("[paths]", Stage::kAsm).ok());
}

}  // namespace
}  // namespace wm::driver
