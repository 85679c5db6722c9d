// Lowering: name resolution diagnostics (with locations), IR conventions (variable levels,
// value parameters, prelude functions copied on demand), and lowering of a hand-built AST.
#include <gtest/gtest.h>

#include "compiler/jq/parser.h"
#include "compiler/lower/lower.h"
#include "runtime/eval/eval.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

lower::LowerResult LowerText(const std::string& text, const lower::LowerOptions& options = {}) {
  jq::ParseResult parsed = jq::Parse(text);
  EXPECT_TRUE(parsed.ok()) << text;
  if (!parsed.ok()) return {};
  return lower::Lower(*parsed.ast, text, options);
}

TEST(Lower, UnknownFunctionIsWM110AtTheCallToken) {
  lower::LowerResult r = LowerText(".a | foo(1)");
  EXPECT_EQ(r.program, nullptr);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].rule, "WM110");
  EXPECT_EQ(r.diagnostics[0].message, "jq: error: foo/1 is not defined");
  EXPECT_EQ(r.diagnostics[0].location.line, 1u);
  EXPECT_EQ(r.diagnostics[0].location.column, 6u);
  EXPECT_EQ(r.diagnostics[0].length, 3u);
}

TEST(Lower, ArityMattersAndEveryUnknownNameIsReported) {
  lower::LowerResult r = LowerText("map, ltrimstr, $nope");
  EXPECT_EQ(r.program, nullptr);
  ASSERT_EQ(r.diagnostics.size(), 3u);
  EXPECT_EQ(r.diagnostics[0].message, "jq: error: map/0 is not defined");
  EXPECT_EQ(r.diagnostics[1].message, "jq: error: ltrimstr/0 is not defined");
  EXPECT_EQ(r.diagnostics[2].rule, "WM111");
  EXPECT_EQ(r.diagnostics[2].message, "jq: error: $nope is not defined");
  EXPECT_EQ(r.diagnostics[2].location.column, 16u);
}

TEST(Lower, ScopesEndWithTheirConstruct) {
  EXPECT_EQ(LowerText("(1 as $x | $x), $x").program, nullptr);
  EXPECT_EQ(LowerText("(def f: 1; f), f").program, nullptr);
  EXPECT_EQ(LowerText("def f(g): g; g").program, nullptr);
  EXPECT_EQ(LowerText("break $out").diagnostics.at(0).rule, "WM112");
  EXPECT_NE(LowerText("label $out | 1, break $out").program, nullptr);
  EXPECT_EQ(LowerText("input").diagnostics.at(0).message, "jq: error: input/0 is not defined");
}

TEST(Lower, GlobalsTakeTheFirstSlots) {
  lower::LowerOptions options;
  options.global_vars = {"a", "b"};
  lower::LowerResult r = LowerText("$b", options);
  ASSERT_NE(r.program, nullptr);
  const ir::Function& main = r.program->functions[0];
  EXPECT_EQ(main.num_slots, 2u);
  const ir::Node& var = r.program->nodes[main.body];
  EXPECT_EQ(var.op, ir::Op::Var);
  EXPECT_EQ(var.a, 1u);
}

TEST(Lower, OuterVariablesAreAddressedByLevel) {
  lower::LowerResult r = LowerText("1 as $x | def f: $x; f");
  ASSERT_NE(r.program, nullptr);
  bool found = false;
  for (const ir::Node& n : r.program->nodes) {
    if (n.op == ir::Op::Var) {
      EXPECT_EQ(n.a >> 16, 1u);  // one lexical level up: main's frame
      found = true;
    }
  }
  EXPECT_TRUE(found);
  ASSERT_GE(r.program->functions.size(), 2u);
  EXPECT_EQ(r.program->functions[1].parent, 0);
}

TEST(Lower, ValueParametersBindTheirClosure) {
  lower::LowerResult r = LowerText("def f($a): $a + 1; f(2)");
  ASSERT_NE(r.program, nullptr);
  const ir::Function& f = r.program->functions[1];
  EXPECT_EQ(f.num_closure_params, 1u);
  const ir::Node& body = r.program->nodes[f.body];
  EXPECT_EQ(body.op, ir::Op::Bind);
  EXPECT_EQ(r.program->nodes[body.kids[0]].op, ir::Op::CallParam);
}

TEST(Lower, OnlyCalledPreludeFunctionsAreCopied) {
  lower::LowerResult small = LowerText(".a");
  ASSERT_NE(small.program, nullptr);
  EXPECT_EQ(small.program->functions.size(), 1u);
  lower::LowerResult with_map = LowerText("map(.a)");
  ASSERT_NE(with_map.program, nullptr);
  EXPECT_EQ(with_map.program->functions.size(), 2u);
  EXPECT_EQ(with_map.program->functions[1].name, "map/1");
  EXPECT_EQ(with_map.program->functions[1].parent, -1);
}

TEST(Lower, FieldAccessIsIndexOfIdentity) {
  lower::LowerResult r = LowerText(".a");
  ASSERT_NE(r.program, nullptr);
  const ir::Node& index = r.program->nodes[r.program->functions[0].body];
  ASSERT_EQ(index.op, ir::Op::Index);
  EXPECT_EQ(r.program->nodes[index.kids[0]].op, ir::Op::Identity);
  const ir::Node& key = r.program->nodes[index.kids[1]];
  ASSERT_EQ(key.op, ir::Op::Const);
  EXPECT_EQ(ToJson(r.program->consts[key.a]), R"("a")");
  EXPECT_EQ(index.source_begin, 0u);
  EXPECT_EQ(index.source_end, 2u);
}

// `T.b?` guards only the final index (jq's INDEX_OPT): the target is piped into a Try whose body
// is an Index of `.`; `(E)?` guards the whole term.
TEST(Lower, PostfixOptionalGuardsOnlyTheLastIndex) {
  lower::LowerResult r = LowerText(".c.b?");
  ASSERT_NE(r.program, nullptr);
  const ir::Program& p = *r.program;
  const ir::Node& pipe = p.nodes[p.functions[0].body];
  ASSERT_EQ(pipe.op, ir::Op::Pipe);
  EXPECT_EQ(p.nodes[pipe.kids[0]].op, ir::Op::Index);  // .c, outside the Try
  const ir::Node& guard = p.nodes[pipe.kids[1]];
  ASSERT_EQ(guard.op, ir::Op::Try);
  EXPECT_EQ(guard.kids[1], ir::kNoNode);
  const ir::Node& index = p.nodes[guard.kids[0]];
  ASSERT_EQ(index.op, ir::Op::Index);
  EXPECT_EQ(p.nodes[index.kids[0]].op, ir::Op::Identity);
  EXPECT_EQ(p.nodes[index.kids[1]].op, ir::Op::Const);

  // A computed key is bound outside the Try and read back as a variable inside it.
  lower::LowerResult computed = LowerText(".a[.k]?");
  ASSERT_NE(computed.program, nullptr);
  const ir::Program& q = *computed.program;
  const ir::Node& bind = q.nodes[q.functions[0].body];
  ASSERT_EQ(bind.op, ir::Op::Bind);
  ASSERT_EQ(bind.patterns.size(), 1u);
  EXPECT_EQ(q.nodes[bind.kids[0]].op, ir::Op::Index);  // .k
  const ir::Node& body = q.nodes[bind.kids[1]];
  ASSERT_EQ(body.op, ir::Op::Pipe);
  const ir::Node& try_node = q.nodes[body.kids[1]];
  ASSERT_EQ(try_node.op, ir::Op::Try);
  const ir::Node& keyed = q.nodes[try_node.kids[0]];
  ASSERT_EQ(keyed.op, ir::Op::Index);
  EXPECT_EQ(q.nodes[keyed.kids[1]].op, ir::Op::Var);

  lower::LowerResult whole = LowerText("(.c.b)?");
  ASSERT_NE(whole.program, nullptr);
  const ir::Node& whole_try = whole.program->nodes[whole.program->functions[0].body];
  ASSERT_EQ(whole_try.op, ir::Op::Try);
  EXPECT_EQ(whole.program->nodes[whole_try.kids[0]].op, ir::Op::Index);
}

TEST(Lower, HandBuiltAst) {
  // `.x | length` built without the parser.
  auto field = std::make_unique<jq::Node>();
  field->kind = jq::NodeKind::Field;
  field->text = "x";
  field->kids.push_back(nullptr);
  auto call = std::make_unique<jq::Node>();
  call->kind = jq::NodeKind::Call;
  call->text = "length";
  jq::Node pipe;
  pipe.kind = jq::NodeKind::Pipe;
  pipe.kids.push_back(std::move(field));
  pipe.kids.push_back(std::move(call));
  lower::LowerResult r = lower::Lower(pipe, ".x | length");
  ASSERT_NE(r.program, nullptr);
  Value input;
  JsonError e;
  ASSERT_TRUE(ParseJson(R"({"x":[1,2,3]})", &input, &e));
  std::string got;
  EvalError error;
  MakeInterpreter(r.program)->Run(input, [&](const Value& v) { got = ToJson(v); return true; }, &error);
  EXPECT_EQ(got, "3");
}

// A call whose argument defines functions: lowering the argument grows the scope's function list
// (40 definitions certainly move its vector), and the call must still reach the function it named
// (found under ASan by the random differential suite: the binding was read after the move).
TEST(Lower, CallWhoseArgumentDefinesFunctionsCallsTheNamedFunction) {
  std::string defs;
  for (int i = 0; i < 40; ++i) defs += "def g" + std::to_string(i) + ": " + std::to_string(i) + "; ";
  std::string text = "def f(x): [x, \"f\"]; f(" + defs + "g39)";
  lower::LowerResult r = LowerText(text);
  ASSERT_NE(r.program, nullptr);
  std::string got;
  EvalError error;
  MakeInterpreter(r.program)->Run(Value(), [&](const Value& v) { got = ToJson(v); return true; }, &error);
  EXPECT_EQ(got, R"([39,"f"])");
}

}  // namespace
}  // namespace wm
