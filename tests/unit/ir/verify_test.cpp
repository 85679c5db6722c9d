// Unit tests for the IR verifier (runtime/ir/verify.h) and the op table it reads: the canonical
// shapes of Foreach and Try, builtin arities from the builtin table, optional children, and the
// message format the loader and the interpreter both report.
#include <gtest/gtest.h>

#include <string>

#include "runtime/ir/ir.h"
#include "runtime/ir/ir_binary.h"
#include "runtime/ir/verify.h"

namespace wm::ir {
namespace {

// One function whose body is the last node added.
struct SmallProgram {
  Program program;
  NodeId Add(Op op, std::vector<NodeId> kids = {}, uint32_t a = 0) {
    Node n;
    n.op = op;
    n.a = a;
    n.kids = std::move(kids);
    program.nodes.push_back(std::move(n));
    return static_cast<NodeId>(program.nodes.size() - 1);
  }
  NodeId Number(double d) {
    program.consts.push_back(Value::Number(d));
    return Add(Op::Const, {}, static_cast<uint32_t>(program.consts.size() - 1));
  }
  // Makes `body` the entry function's body with `slots` slots; returns the verifier's verdict.
  std::string Verdict(NodeId body, uint32_t slots = 0) {
    Function main_fn;
    main_fn.name = "main";
    main_fn.body = body;
    main_fn.num_slots = slots;
    program.functions = {main_fn};
    std::string error;
    return Verify(program, &error) ? "ok" : error;
  }
};

NodeId ForeachWith(SmallProgram& p, size_t kids) {
  p.program.patterns.push_back(Pattern{Pattern::Kind::Var, 0, {}, {}});
  std::vector<NodeId> children = {p.Add(Op::Identity), p.Number(0), p.Add(Op::Identity), kNoNode};
  children.resize(kids);
  NodeId id = p.Add(Op::Foreach, children);
  p.program.nodes[id].patterns = {0};
  return id;
}

TEST(IrVerify, ForeachHasFourChildrenTheLastOptional) {
  SmallProgram with_extract_missing;
  EXPECT_EQ(with_extract_missing.Verdict(ForeachWith(with_extract_missing, 4), 1), "ok");
  SmallProgram three;
  EXPECT_EQ(three.Verdict(ForeachWith(three, 3), 1), "node 3 (Foreach): expected 4 children, found 3");
}

TEST(IrVerify, FoldsTakeOneOrMorePatterns) {
  SmallProgram alternatives;  // foreach .[] as [$a] ?// $a (...): both patterns bind slot 0
  NodeId id = ForeachWith(alternatives, 4);
  alternatives.program.patterns.push_back(Pattern{Pattern::Kind::Array, 0, {0}, {}});
  alternatives.program.nodes[id].patterns = {1, 0};
  EXPECT_EQ(alternatives.Verdict(id, 1), "ok");
  SmallProgram none;
  NodeId bare = ForeachWith(none, 4);
  none.program.nodes[bare].patterns.clear();
  EXPECT_EQ(none.Verdict(bare, 1), "node 3 (Foreach): missing pattern");
}

TEST(IrVerify, TryHasTwoChildrenTheHandlerOptional) {
  SmallProgram suppress;
  EXPECT_EQ(suppress.Verdict(suppress.Add(Op::Try, {suppress.Add(Op::Identity), kNoNode})), "ok");
  SmallProgram one;
  EXPECT_EQ(one.Verdict(one.Add(Op::Try, {one.Add(Op::Identity)})),
            "node 1 (Try): expected 2 children, found 1");
  SmallProgram body_missing;
  EXPECT_EQ(body_missing.Verdict(body_missing.Add(Op::Try, {kNoNode, body_missing.Add(Op::Identity)})),
            "node 1 (Try): child 0 is not a valid node");
}

TEST(IrVerify, CallBuiltinHasItsBuiltinsArity) {
  SmallProgram pow;
  EXPECT_EQ(pow.Verdict(pow.Add(Op::CallBuiltin, {pow.Number(2), pow.Number(3)},
                                static_cast<uint32_t>(BuiltinId::Pow))),
            "ok");
  SmallProgram short_pow;
  EXPECT_EQ(short_pow.Verdict(short_pow.Add(Op::CallBuiltin, {short_pow.Number(2)},
                                            static_cast<uint32_t>(BuiltinId::Pow))),
            "node 1 (CallBuiltin): expected 2 children, found 1");
  SmallProgram short_range;  // range/1 must be lowered to range(0; n)
  EXPECT_EQ(short_range.Verdict(short_range.Add(Op::CallBuiltin, {short_range.Number(2)},
                                                static_cast<uint32_t>(BuiltinId::Range))),
            "node 1 (CallBuiltin): expected 2 children, found 1");
  SmallProgram unknown;
  EXPECT_EQ(unknown.Verdict(unknown.Add(Op::CallBuiltin, {}, static_cast<uint32_t>(kBuiltinCount))),
            "node 0 (CallBuiltin): unknown builtin " + std::to_string(kBuiltinCount));
}

TEST(IrVerify, OptionalChildrenOnlyWhereTheOpRowAllowsThem) {
  SmallProgram slice;
  EXPECT_EQ(slice.Verdict(slice.Add(Op::Slice, {slice.Add(Op::Identity), kNoNode, kNoNode})), "ok");
  SmallProgram error0;
  EXPECT_EQ(error0.Verdict(error0.Add(Op::Error, {kNoNode})), "ok");
  SmallProgram pipe;
  EXPECT_EQ(pipe.Verdict(pipe.Add(Op::Pipe, {pipe.Add(Op::Identity), kNoNode})),
            "node 1 (Pipe): child 1 is not a valid node");
  SmallProgram object;
  EXPECT_EQ(object.Verdict(object.Add(Op::Object, {object.Number(1)})),
            "node 1 (Object): odd number of key/value children");
}

TEST(IrVerify, ImmediatesAreChecked) {
  SmallProgram constant;
  EXPECT_EQ(constant.Verdict(constant.Add(Op::Const, {}, 3)), "node 0 (Const): constant index out of range");
  SmallProgram binary;
  EXPECT_EQ(binary.Verdict(binary.Add(Op::Binary, {binary.Number(1), binary.Number(2)}, kBinaryOpCount)),
            "node 2 (Binary): unknown binary operator");
  SmallProgram var;
  EXPECT_EQ(var.Verdict(var.Add(Op::Var, {}, ScopedIndex(0, 2)), 2),
            "node 0 (Var) in function 0: index out of range of its scope");
  SmallProgram label;
  EXPECT_EQ(label.Verdict(label.Add(Op::Label, {label.Add(Op::Identity)}, 1), 1),
            "node 1 (Label) in function 0: label slot out of range");
}

TEST(IrVerify, OpTableMatchesTheEnum) {
  EXPECT_EQ(kOpCount, static_cast<size_t>(Op::Loc) + 1);
  EXPECT_STREQ(OpInfoOf(Op::Foreach).name, "Foreach");
  EXPECT_EQ(OpInfoOf(Op::Foreach).min_kids, 4);
  EXPECT_EQ(OpInfoOf(Op::Foreach).optional_kids, 0b1000u);
  EXPECT_EQ(OpInfoOf(Op::Try).optional_kids, 0b10u);
  EXPECT_EQ(OpInfoOf(Op::CallBuiltin).kids, KidRule::kBuiltinArity);
  EXPECT_EQ(OpInfoOf(Op::Var).immediate, ImmediateKind::kScopedSlot);
  EXPECT_EQ(OpInfoOf(Op::Bind).patterns, PatternRule::kOneOrMore);
  EXPECT_EQ(OpInfoOf(Op::Reduce).patterns, PatternRule::kOneOrMore);  // `reduce .[] as [$a] ?// $a`
  EXPECT_EQ(OpInfoOf(Op::Identity).patterns, PatternRule::kNone);
  EXPECT_STREQ(OpName(static_cast<Op>(kOpCount)), "?op");
  for (size_t i = 0; i < kOpCount; ++i) {
    const OpInfo& info = OpInfoOf(static_cast<Op>(i));
    EXPECT_LE(info.min_kids, info.max_kids) << info.name;
    EXPECT_EQ(info.optional_kids >> info.max_kids, 0u) << info.name;  // only existing children
  }
}

TEST(IrBinary, RefusesOtherVersionsNamingBoth) {
  SmallProgram p;
  p.Verdict(p.Add(Op::Identity));
  std::string blob = SerializeProgram(p.program);
  blob[4] = 1;  // the version before builtin ids were renumbered
  Program out;
  std::string error;
  EXPECT_FALSE(DeserializeProgram(blob, &out, &error));
  EXPECT_NE(error.find("unsupported IR version 1 (this build reads version " +
                       std::to_string(kIrBinaryVersion)),
            std::string::npos)
      << error;
  EXPECT_EQ(kIrBinaryVersion, 2u);
}

TEST(IrBinary, LoaderReportsTheVerifiersMessage) {
  SmallProgram three;
  three.Verdict(ForeachWith(three, 3), 1);
  Program out;
  std::string error;
  EXPECT_FALSE(DeserializeProgram(SerializeProgram(three.program), &out, &error));
  EXPECT_EQ(error, "invalid IR: node 3 (Foreach): expected 4 children, found 3");
}

}  // namespace
}  // namespace wm::ir
