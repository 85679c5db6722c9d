// Unit tests for the IR utilities: names and arities (runtime/ir/ir.h), the readable dump, and the
// binary form (runtime/ir/ir_binary.h): round trips, validation of corrupt programs, every
// truncation of a valid blob, and random byte flips.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>

#include "runtime/ir/ir.h"
#include "runtime/ir/ir_binary.h"
#include "runtime/value/json.h"

namespace wm::ir {
namespace {

// Builds programs node by node for the tests.
class Builder {
 public:
  NodeId Add(Op op, std::vector<NodeId> kids = {}, uint32_t a = 0) {
    Node n;
    n.op = op;
    n.a = a;
    n.kids = std::move(kids);
    program.nodes.push_back(std::move(n));
    return static_cast<NodeId>(program.nodes.size() - 1);
  }
  NodeId Const(std::string_view json) {
    Value v;
    JsonError error;
    EXPECT_TRUE(ParseJson(json, &v, &error)) << json;
    program.consts.push_back(v);
    return Add(Op::Const, {}, static_cast<uint32_t>(program.consts.size() - 1));
  }
  NodeId Field(NodeId target, std::string_view name) {
    return Add(Op::Index, {target, Const("\"" + std::string(name) + "\"")});
  }
  uint32_t AddPattern(Pattern p) {
    program.patterns.push_back(std::move(p));
    return static_cast<uint32_t>(program.patterns.size() - 1);
  }
  Program program;
};

// A program touching every op, pattern kind and optional child:
//   def twice(f): f | f;
//   .spec.replicas // 1 | ... (see the golden dump below for the full shape)
Program SampleProgram() {
  Builder b;
  Program& p = b.program;
  p.source = "sample";
  // fn 1: twice(f): f | f
  NodeId param1 = b.Add(Op::CallParam, {}, 0);
  NodeId param2 = b.Add(Op::CallParam, {}, 0);
  NodeId twice_body = b.Add(Op::Pipe, {param1, param2});

  NodeId replicas = b.Field(b.Field(b.Add(Op::Identity), "spec"), "replicas");
  NodeId alt = b.Add(Op::Alternative, {replicas, b.Const("1")});
  NodeId plus = b.Add(Op::Binary, {b.Add(Op::Identity), b.Const("1")}, static_cast<uint32_t>(BinaryOp::Add));
  NodeId call = b.Add(Op::Call, {plus}, 1);
  NodeId slice = b.Add(Op::Slice, {b.Add(Op::Identity), b.Const("1"), kNoNode});
  NodeId iter = b.Add(Op::Iterate, {b.Add(Op::RecurseAll)});
  NodeId collect = b.Add(Op::Collect, {b.Add(Op::Comma, {slice, iter})});
  NodeId obj = b.Add(Op::Object, {b.Const("\"k\""), b.Add(Op::Neg, {b.Const("2")})});
  NodeId cond = b.Add(Op::If, {b.Add(Op::And, {b.Add(Op::Identity), b.Add(Op::Or, {b.Add(Op::Empty), b.Add(Op::Identity)})}),
                               obj, b.Add(Op::Identity)});
  NodeId tried = b.Add(Op::Try, {b.Add(Op::Error, {b.Const("\"boom\"")}), kNoNode});
  NodeId caught = b.Add(Op::Try, {b.Add(Op::Error, {kNoNode}), b.Add(Op::Identity)});
  NodeId builtin = b.Add(Op::CallBuiltin, {b.Const("2")}, static_cast<uint32_t>(BuiltinId::Pow));
  b.program.nodes[builtin].kids.push_back(b.Const("3"));
  NodeId fmt = b.Add(Op::Format);
  p.nodes[fmt].str = "base64";
  NodeId interp = b.Add(Op::StringInterp, {b.Const("\"n=\""), b.Add(Op::Identity)});
  // reduce .[] as [$a, {"b": $c, $d, (.k): $e}] (0; . + $a)
  Pattern var_a{Pattern::Kind::Var, 1, {}, {}};
  Pattern var_c{Pattern::Kind::Var, 2, {}, {}};
  Pattern var_e{Pattern::Kind::Var, 4, {}, {}};
  uint32_t pa = b.AddPattern(var_a);
  uint32_t pc = b.AddPattern(var_c);
  uint32_t pe = b.AddPattern(var_e);
  Pattern obj_pat;
  obj_pat.kind = Pattern::Kind::Object;
  obj_pat.entries.push_back({b.Const("\"b\""), -1, static_cast<int32_t>(pc)});
  obj_pat.entries.push_back({b.Const("\"d\""), 3, -1});
  obj_pat.entries.push_back({b.Field(b.Add(Op::Identity), "k"), -1, static_cast<int32_t>(pe)});
  uint32_t po = b.AddPattern(obj_pat);
  Pattern arr_pat;
  arr_pat.kind = Pattern::Kind::Array;
  arr_pat.elements = {pa, po};
  uint32_t parr = b.AddPattern(arr_pat);
  NodeId reduce = b.Add(Op::Reduce, {b.Add(Op::Iterate, {b.Add(Op::Identity)}), b.Const("0"),
                                     b.Add(Op::Binary, {b.Add(Op::Identity), b.Add(Op::Var, {}, 1)},
                                           static_cast<uint32_t>(BinaryOp::Add))});
  p.nodes[reduce].patterns = {parr};
  Pattern var_x{Pattern::Kind::Var, 5, {}, {}};
  uint32_t px = b.AddPattern(var_x);
  NodeId foreach = b.Add(Op::Foreach, {b.Add(Op::Identity), b.Const("null"), b.Add(Op::Var, {}, 5), kNoNode});
  p.nodes[foreach].patterns = {px};
  NodeId bind = b.Add(Op::Bind, {b.Add(Op::Identity), b.Add(Op::Var, {}, 5)});
  p.nodes[bind].patterns = {px, pa};
  NodeId label = b.Add(Op::Label, {b.Add(Op::Break, {}, 6)}, 6);
  NodeId path = b.Add(Op::PathOf, {b.Add(Op::GetPathGen, {b.Const("[\"a\",0]")})});
  NodeId loc = b.Add(Op::Loc);
  p.consts.push_back(Value::Number(std::numeric_limits<double>::quiet_NaN()));
  p.nodes[loc].a = static_cast<uint32_t>(p.consts.size() - 1);
  NodeId special = b.Const("{\"inf\":1e1000,\"s\":\"\\u0000é\",\"nested\":[[],{}]}");

  // Chain everything with Comma into one body.
  std::vector<NodeId> parts = {alt, call, collect, cond, tried, caught, builtin, fmt, interp,
                               reduce, foreach, bind, label, path, loc, special};
  NodeId body = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) body = b.Add(Op::Comma, {body, parts[i]});

  Function main_fn;
  main_fn.name = "main";
  main_fn.num_slots = 7;
  main_fn.body = body;
  Function twice_fn;
  twice_fn.name = "twice/1";
  twice_fn.num_closure_params = 1;
  twice_fn.value_param_slots = {0};
  twice_fn.num_slots = 1;
  twice_fn.body = twice_body;
  twice_fn.parent = 0;
  p.functions = {main_fn, twice_fn};
  return p;
}

TEST(IrNames, OpNamesAreUniqueAndNonEmpty) {
  std::set<std::string> names;
  for (int op = 0; op <= static_cast<int>(Op::Loc); ++op) {
    std::string name = OpName(static_cast<Op>(op));
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name[0], '?') << op;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_STREQ(OpName(Op::Identity), "Identity");
  EXPECT_STREQ(OpName(Op::CallBuiltin), "CallBuiltin");
}

TEST(IrNames, BinaryOps) {
  EXPECT_STREQ(BinaryOpName(BinaryOp::Add), "+");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Sub), "-");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Mul), "*");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Div), "/");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Mod), "%");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Eq), "==");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Ne), "!=");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Lt), "<");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Le), "<=");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Gt), ">");
  EXPECT_STREQ(BinaryOpName(BinaryOp::Ge), ">=");
}

TEST(IrNames, BuiltinsUseJqNamesAndArities) {
  std::set<std::string> names;
  for (int id = 0; id < static_cast<int>(BuiltinId::Count); ++id) {
    std::string name = BuiltinName(static_cast<BuiltinId>(id));
    int arity = BuiltinArity(static_cast<BuiltinId>(id));
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name[0], '?') << id;
    // range/2 and range/3 share a name: the lowering resolves name and arity together.
    EXPECT_TRUE(names.insert(name + "/" + std::to_string(arity)).second) << name;
    EXPECT_GE(arity, 0);
    EXPECT_LE(arity, 3);
  }
  struct Expected {
    BuiltinId id;
    const char* name;
    int arity;
  } expected[] = {
      {BuiltinId::Length, "length", 0},          {BuiltinId::Utf8ByteLength, "utf8bytelength", 0},
      {BuiltinId::KeysUnsorted, "keys_unsorted", 0}, {BuiltinId::Has, "has", 1},
      {BuiltinId::ToJson, "tojson", 0},          {BuiltinId::FromJson, "fromjson", 0},
      {BuiltinId::Pow, "pow", 2},                {BuiltinId::SortBy, "_sort_by_impl", 1},
      {BuiltinId::AsciiDowncase, "ascii_downcase", 0}, {BuiltinId::LtrimStr, "ltrimstr", 1},
      {BuiltinId::IsInfinite, "isinfinite", 0},  {BuiltinId::SetPath, "setpath", 2},
      {BuiltinId::ToEntries, "to_entries", 0},   {BuiltinId::Atan2, "atan2", 2},
      {BuiltinId::Test, "_test_impl", 2},        {BuiltinId::Strflocaltime, "strflocaltime", 1},
      {BuiltinId::ToArray, "toarray", 0},        {BuiltinId::Range, "range", 2},
      {BuiltinId::Error, "error", 1},
  };
  for (const Expected& e : expected) {
    EXPECT_STREQ(BuiltinName(e.id), e.name);
    EXPECT_EQ(BuiltinArity(e.id), e.arity) << e.name;
  }
  EXPECT_EQ(BuiltinArity(BuiltinId::Count), -1);
  EXPECT_STREQ(BuiltinName(BuiltinId::Count), "?builtin");
  EXPECT_FALSE(IsKnownBuiltin(BuiltinId::Count));
  // One contiguous range: the builtins added last (trim, range/3, remainder) follow the others.
  EXPECT_TRUE(IsKnownBuiltin(BuiltinId::Trim));
  EXPECT_EQ(static_cast<size_t>(BuiltinId::Remainder), kBuiltinCount - 1);
  EXPECT_FALSE(IsKnownBuiltin(static_cast<BuiltinId>(kBuiltinCount)));
  EXPECT_FALSE(IsKnownBuiltin(static_cast<BuiltinId>(UINT16_MAX)));
}

TEST(IrBinary, AcceptsLateBuiltins) {
  Program p = SampleProgram();
  for (Node& n : p.nodes) {
    if (n.op == Op::CallBuiltin) n.a = static_cast<uint32_t>(BuiltinId::Atan2);
  }
  Program back;
  std::string error;
  ASSERT_TRUE(DeserializeProgram(SerializeProgram(p), &back, &error)) << error;
  EXPECT_NE(Dump(back).find("CallBuiltin atan2/2"), std::string::npos);
}

TEST(IrDump, GoldenForSmallProgram) {
  Builder b;
  NodeId replicas = b.Field(b.Field(b.Add(Op::Identity), "spec"), "replicas");
  NodeId body = b.Add(Op::Alternative, {replicas, b.Const("1")});
  Function main_fn;
  main_fn.name = "main";
  main_fn.body = body;
  b.program.functions = {main_fn};
  EXPECT_EQ(Dump(b.program),
            "program: 1 functions, 7 nodes, 3 consts, 0 patterns\n"
            "fn 0 main: closure_params=0 value_params=[] slots=0 parent=-1\n"
            "  Alternative\n"
            "    Index\n"
            "      target: Index\n"
            "        target: Identity\n"
            "        key: Const \"spec\"\n"
            "      key: Const \"replicas\"\n"
            "    Const 1\n");
}

TEST(IrDump, ShowsEveryDetail) {
  std::string dump = Dump(SampleProgram());
  for (const char* expected : {
           "fn 1 twice/1: closure_params=1 value_params=[0] slots=1 parent=0\n  Pipe\n    CallParam param=0\n",
           "Binary +", "Call fn=1 twice/1", "Slice", "from: Const 1", "to: <none>", "CallBuiltin pow/2",
           "Format @base64", "StringInterp @text", "Const \"n=\"",
           "Reduce as [$s1, {\"b\": $s2, \"d\" as $s3, (key ",
           "): $s4}]\n", "Foreach as $s5", "extract: <none>", "Bind as $s5 ?// $s1", "Label slot=6",
           "Break slot=6", "GetPathGen", "Const [\"a\",0]", "Loc null", "catch: <none>",
           "Error\n", "<none>", "Const {\"inf\":1.7976931348623157e+308,\"s\":\"\\u0000é\",\"nested\":[[],{}]}",
           "key: Const \"k\"", "value: Neg", "cond: And", "Or", "Empty", "RecurseAll", "Collect",
           "Iterate", "Var slot=1"}) {
    EXPECT_NE(dump.find(expected), std::string::npos) << "missing: " << expected << "\n" << dump;
  }
  // Computed pattern keys are printed as labeled subtrees.
  EXPECT_NE(dump.find("key "), std::string::npos);
  EXPECT_EQ(dump, Dump(SampleProgram()));  // deterministic
}

TEST(IrDump, MalformedProgramsDoNotCrash) {
  Program p;
  Node bad;
  bad.op = Op::Pipe;
  bad.kids = {0, 42};  // a self-cycle and an invalid id
  p.nodes.push_back(bad);
  Node c;
  c.op = Op::Const;
  c.a = 9;
  p.nodes.push_back(c);
  Function f;
  f.body = 0;
  Function g;
  g.body = 1;
  p.functions = {f, g};
  std::string dump = Dump(p);
  EXPECT_NE(dump.find("<invalid node 42>"), std::string::npos) << dump;
  EXPECT_NE(dump.find("<cycle"), std::string::npos) << dump;
  EXPECT_NE(dump.find("<invalid const 9>"), std::string::npos) << dump;
}

TEST(IrBinary, RoundTripIsExact) {
  Program p = SampleProgram();
  std::string blob = SerializeProgram(p);
  Program back;
  std::string error;
  ASSERT_TRUE(DeserializeProgram(blob, &back, &error)) << error;
  EXPECT_EQ(SerializeProgram(back), blob);
  EXPECT_EQ(Dump(back), Dump(p));
  EXPECT_EQ(back.source, "sample");
  // Constants keep their exact doubles, including NaN and infinity (JSON text could not).
  ASSERT_EQ(back.consts.size(), p.consts.size());
  bool saw_nan = false, saw_inf = false;
  for (const Value& v : back.consts) {
    if (v.IsNumber() && std::isnan(v.AsNumber())) saw_nan = true;
    if (v.IsObject() && v.Find("inf") != nullptr && std::isinf(v.Find("inf")->AsNumber())) saw_inf = true;
  }
  EXPECT_TRUE(saw_nan);
  EXPECT_TRUE(saw_inf);
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    EXPECT_EQ(back.nodes[i].source_begin, p.nodes[i].source_begin);
    EXPECT_EQ(back.nodes[i].kids, p.nodes[i].kids);
  }
}

TEST(IrBinary, EveryTruncationFailsCleanly) {
  std::string blob = SerializeProgram(SampleProgram());
  for (size_t len = 0; len < blob.size(); ++len) {
    Program out;
    std::string error;
    EXPECT_FALSE(DeserializeProgram(std::string_view(blob).substr(0, len), &out, &error)) << len;
    EXPECT_FALSE(error.empty()) << len;
  }
  Program out;
  std::string error;
  EXPECT_FALSE(DeserializeProgram(blob + "x", &out, &error));
  EXPECT_NE(error.find("trailing"), std::string::npos) << error;
}

TEST(IrBinary, RandomByteFlipsNeverCrash) {
  std::string blob = SerializeProgram(SampleProgram());
  std::mt19937 rng(7);
  int accepted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string mutated = blob;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i) {
      size_t at = rng() % mutated.size();
      mutated[at] = static_cast<char>(rng() % 3 == 0 ? 0xFF : (mutated[at] ^ (1u << (rng() % 8))));
    }
    Program out;
    std::string error;
    if (DeserializeProgram(mutated, &out, &error)) {
      ++accepted;
      Dump(out);  // an accepted program must be safe to walk
    } else {
      EXPECT_FALSE(error.empty());
    }
  }
  // Most flips land in structure and are rejected; some (source text, immediates) are benign.
  EXPECT_LT(accepted, 3000);
}

TEST(IrBinary, RejectsBadHeader) {
  std::string blob = SerializeProgram(SampleProgram());
  Program out;
  std::string error;
  std::string bad_magic = blob;
  bad_magic[0] = 'X';
  EXPECT_FALSE(DeserializeProgram(bad_magic, &out, &error));
  EXPECT_NE(error.find("magic"), std::string::npos) << error;
  std::string bad_version = blob;
  bad_version[4] = 99;
  EXPECT_FALSE(DeserializeProgram(bad_version, &out, &error));
  EXPECT_NE(error.find("version"), std::string::npos) << error;
}

TEST(IrBinary, HugeCountsDoNotAllocate) {
  // Header + empty source, then a constant count of 0xFFFFFFFF with nothing behind it.
  std::string blob = "WMIR";
  blob += std::string(1, static_cast<char>(kIrBinaryVersion)) + std::string("\x00\x00\x00", 3);
  blob += std::string("\x00\x00\x00\x00", 4);
  blob += std::string("\xFF\xFF\xFF\xFF", 4);
  Program out;
  std::string error;
  EXPECT_FALSE(DeserializeProgram(blob, &out, &error));
  EXPECT_NE(error.find("exceeds"), std::string::npos) << error;
}

// Serializes a hand-broken program and expects the loader to reject it with `message`.
void ExpectRejected(const Program& p, const std::string& message) {
  Program out;
  std::string error;
  EXPECT_FALSE(DeserializeProgram(SerializeProgram(p), &out, &error)) << message;
  EXPECT_NE(error.find(message), std::string::npos) << "got: " << error;
}

TEST(IrBinary, ValidatesStructure) {
  {
    Program p = SampleProgram();
    p.nodes[2].kids[1] = 100000;
    ExpectRejected(p, "not a valid node");
  }
  {
    Program p = SampleProgram();
    p.nodes[2].kids[1] = 2;  // Pipe child points at itself
    ExpectRejected(p, "cycle");
  }
  {
    Program p = SampleProgram();
    p.nodes[2].kids.pop_back();
    ExpectRejected(p, "expected 2 children");
  }
  {
    Program p = SampleProgram();
    p.nodes[2].kids[0] = kNoNode;  // Pipe has no optional child
    ExpectRejected(p, "not a valid node");
  }
  {
    Program p = SampleProgram();
    for (Node& n : p.nodes) {
      if (n.op == Op::Const) {
        n.a = 5000;
        break;
      }
    }
    ExpectRejected(p, "constant index");
  }
  {
    Program p = SampleProgram();
    for (Node& n : p.nodes) {
      if (n.op == Op::Binary) n.a = 77;
    }
    ExpectRejected(p, "binary operator");
  }
  {
    Program p = SampleProgram();
    for (Node& n : p.nodes) {
      if (n.op == Op::CallBuiltin) n.a = static_cast<uint32_t>(BuiltinId::Count);
    }
    ExpectRejected(p, "unknown builtin");
  }
  {
    Program p = SampleProgram();
    for (Node& n : p.nodes) {
      if (n.op == Op::Call) n.a = 9;
    }
    ExpectRejected(p, "function index");
  }
  {
    Program p = SampleProgram();
    for (Node& n : p.nodes) {
      if (n.op == Op::Call) n.kids.clear();
    }
    ExpectRejected(p, "closure argument count");
  }
  {
    Program p = SampleProgram();
    for (Node& n : p.nodes) {
      if (n.op == Op::Reduce) n.patterns = {999};
    }
    ExpectRejected(p, "pattern index");
  }
  {
    Program p = SampleProgram();
    for (Pattern& pat : p.patterns) {
      if (pat.kind == Pattern::Kind::Array) pat.elements.push_back(static_cast<uint32_t>(&pat - &p.patterns[0]));
    }
    ExpectRejected(p, "patterns form a cycle");
  }
  {
    Program p = SampleProgram();
    p.functions[1].parent = 1;
    ExpectRejected(p, "parent");
  }
  {
    Program p = SampleProgram();
    p.functions[0].body = kNoNode;
    ExpectRejected(p, "body");
  }
  {
    Program p = SampleProgram();
    p.functions.clear();
    ExpectRejected(p, "no functions");
  }
}

TEST(IrBinary, ValidatesScopes) {
  auto first = [](Program& p, Op op) -> Node& {
    for (Node& n : p.nodes) {
      if (n.op == op) return n;
    }
    return p.nodes[0];
  };
  {
    Program p = SampleProgram();
    first(p, Op::Var).a = 7;  // main has 7 slots: 0..6
    ExpectRejected(p, "index out of range of its scope");
  }
  {
    Program p = SampleProgram();
    first(p, Op::Var).a = ScopedIndex(1, 0);  // main has no lexical parent
    ExpectRejected(p, "outside any function");
  }
  {
    Program p = SampleProgram();
    first(p, Op::CallParam).a = 1;  // twice/1 has one closure parameter
    ExpectRejected(p, "index out of range of its scope");
  }
  {
    Program p = SampleProgram();
    first(p, Op::Label).a = 9;
    ExpectRejected(p, "label slot out of range");
  }
  {
    Program p = SampleProgram();
    p.functions[0].num_slots = 5;  // the sample binds slot 5 and 6
    ExpectRejected(p, "out of range");
  }
  {
    // A closure reading its parent's slot 6 through one level is fine, and dumps as 6^1.
    Program p = SampleProgram();
    first(p, Op::CallParam) = Node{Op::Var, ScopedIndex(1, 6), {}, {}, "", 0, 0};
    Program back;
    std::string error;
    ASSERT_TRUE(DeserializeProgram(SerializeProgram(p), &back, &error)) << error;
    EXPECT_NE(Dump(back).find("Var slot=6^1"), std::string::npos) << Dump(back);
  }
}

}  // namespace
}  // namespace wm::ir
