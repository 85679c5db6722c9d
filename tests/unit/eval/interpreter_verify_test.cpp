// The interpreter refuses programs the IR verifier (runtime/ir/verify.h) rejects, with the same
// message the bundle loader gives: there is one verifier, so the engines cannot disagree on which
// shapes are valid (a three-child Foreach or a one-child Try used to pass here and fail there).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "runtime/eval/eval.h"
#include "runtime/ir/ir.h"

namespace wm {
namespace {

std::string RunError(const ir::Program& program) {
  std::unique_ptr<Filter> filter = MakeInterpreter(std::make_shared<ir::Program>(program));
  EvalError error;
  EvalStatus status = filter->Run(Value(), [](const Value&) { return true; }, &error);
  return status == EvalStatus::kError ? error.Message() : "ran";
}

ir::Program TryWith(std::vector<ir::NodeId> kids) {
  ir::Program p;
  p.nodes.push_back(ir::Node{ir::Op::Identity, 0, {}, {}, "", 0, 0});
  p.nodes.push_back(ir::Node{ir::Op::Try, 0, std::move(kids), {}, "", 0, 0});
  ir::Function main_fn;
  main_fn.body = 1;
  p.functions = {main_fn};
  return p;
}

TEST(InterpreterVerify, RunsTheCanonicalShape) {
  EXPECT_EQ(RunError(TryWith({0, ir::kNoNode})), "ran");
}

TEST(InterpreterVerify, RefusesWhatTheVerifierRejects) {
  EXPECT_EQ(RunError(TryWith({0})), "invalid program: node 1 (Try): expected 2 children, found 1");
  ir::Program no_functions;
  EXPECT_EQ(RunError(no_functions), "invalid program: program has no functions (function 0 is the entry)");
}

TEST(InterpreterVerify, RefusesAWrongBuiltinArity) {
  ir::Program p;
  p.consts.push_back(Value::Number(3));
  p.nodes.push_back(ir::Node{ir::Op::Const, 0, {}, {}, "", 0, 0});
  p.nodes.push_back(ir::Node{ir::Op::CallBuiltin, static_cast<uint32_t>(ir::BuiltinId::Range3), {0, 0}, {}, "", 0, 0});
  ir::Function main_fn;
  main_fn.body = 1;
  p.functions = {main_fn};
  EXPECT_EQ(RunError(p), "invalid program: node 1 (CallBuiltin): expected 3 children, found 2");
}

}  // namespace
}  // namespace wm
