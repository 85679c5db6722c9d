// Differential tests of the native backends on hand-built IR: every program runs through the
// interpreter, the ORC JIT and an AOT shared object (all programs of the suite linked into one .so
// loaded by NativeModule), on several inputs; outputs and error status/messages must agree with
// each other and with the expected jq results written here.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "runtime/bundle/native_module.h"
#include "runtime/eval/eval.h"
#include "runtime/eval/native_abi.h"
#include "runtime/ir/ir.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

using ir::BinaryOp;
using ir::NodeId;
using ir::Op;

// Builds ir::Program values by hand (the parser and lowering are tested elsewhere).
class Builder {
 public:
  Builder() { program_.functions.push_back({"main", 0, {}, 0, ir::kNoNode, -1}); }

  NodeId Node(Op op, std::vector<NodeId> kids = {}, uint32_t a = 0) {
    ir::Node node;
    node.op = op;
    node.kids = std::move(kids);
    node.a = a;
    program_.nodes.push_back(std::move(node));
    return static_cast<NodeId>(program_.nodes.size() - 1);
  }
  NodeId Dot() { return Node(Op::Identity); }
  NodeId Json(const std::string& text) {
    Value v;
    JsonError error;
    EXPECT_TRUE(ParseJson(text, &v, &error)) << text;
    program_.consts.push_back(v);
    return Node(Op::Const, {}, static_cast<uint32_t>(program_.consts.size() - 1));
  }
  NodeId Str(const std::string& s) { return Json("\"" + s + "\""); }
  NodeId Field(NodeId target, const std::string& key) { return Node(Op::Index, {target, Str(key)}); }
  // .a.b.c from the input
  NodeId Path(std::initializer_list<const char*> keys) {
    NodeId n = Dot();
    for (const char* k : keys) n = Field(n, k);
    return n;
  }
  NodeId Pipe(NodeId a, NodeId b) { return Node(Op::Pipe, {a, b}); }
  NodeId Comma(NodeId a, NodeId b) { return Node(Op::Comma, {a, b}); }
  NodeId Iter(NodeId t) { return Node(Op::Iterate, {t}); }
  NodeId Bin(BinaryOp op, NodeId a, NodeId b) {
    return Node(Op::Binary, {a, b}, static_cast<uint32_t>(op));
  }
  NodeId Builtin(ir::BuiltinId id, std::vector<NodeId> args = {}) {
    return Node(Op::CallBuiltin, std::move(args), static_cast<uint32_t>(id));
  }
  NodeId Pattern(uint32_t slot) {
    ir::Pattern p;
    p.kind = ir::Pattern::Kind::Var;
    p.slot = slot;
    program_.patterns.push_back(p);
    return static_cast<NodeId>(program_.patterns.size() - 1);
  }
  uint32_t AddPattern(ir::Pattern p) {
    program_.patterns.push_back(std::move(p));
    return static_cast<uint32_t>(program_.patterns.size() - 1);
  }
  NodeId WithPatterns(NodeId n, std::vector<uint32_t> patterns) {
    program_.nodes[n].patterns = std::move(patterns);
    return n;
  }
  // def select(f): if f then . else empty end;  (function index returned)
  uint32_t DefineSelect() {
    NodeId body = Node(Op::If, {Node(Op::CallParam, {}, 0), Dot(), Node(Op::Empty)});
    program_.functions.push_back({"select/1", 1, {}, 0, body, -1});
    return static_cast<uint32_t>(program_.functions.size() - 1);
  }
  std::shared_ptr<const ir::Program> Finish(NodeId body, uint32_t slots = 0,
                                            const std::string& source = "") {
    program_.functions[0].body = body;
    program_.functions[0].num_slots = slots;
    program_.source = source;
    return std::make_shared<const ir::Program>(program_);
  }

 private:
  ir::Program program_;
};

struct Outcome {
  std::vector<std::string> outputs;
  bool error = false;
  bool limit = false;
  std::string message;
};

Outcome RunOne(const Filter& filter, const std::string& input_json, const RunOptions& options) {
  Value input;
  JsonError json_error;
  EXPECT_TRUE(ParseJson(input_json, &input, &json_error)) << input_json;
  Outcome outcome;
  EvalError error;
  EvalStatus status = filter.Run(
      input,
      [&](const Value& v) {
        outcome.outputs.push_back(ToJson(v));
        return true;
      },
      &error, options);
  if (status == EvalStatus::kError) {
    outcome.error = true;
    outcome.limit = error.limit;
    outcome.message = error.Message();
  }
  return outcome;
}

std::string Describe(const Outcome& o) {
  std::string text = "[";
  for (size_t i = 0; i < o.outputs.size(); ++i) text += (i ? ", " : "") + o.outputs[i];
  text += "]";
  if (o.error) text += " error: " + o.message + (o.limit ? " (limit)" : "");
  return text;
}

// One program and its expected behaviour on some inputs. `expected` is the jq result as
// "out1 out2 ..." (compact JSON separated by spaces) followed by "!msg" when it ends in an error.
struct Case {
  std::string name;
  std::shared_ptr<const ir::Program> program;
  std::vector<std::pair<std::string, std::string>> runs;  // input JSON -> expected
  RunOptions options;
};

Outcome Expected(const std::string& text) {
  Outcome o;
  std::string outputs = text;
  size_t bang = text.find('!');
  if (bang != std::string::npos) {
    o.error = true;
    o.message = text.substr(bang + 1);
    outputs = text.substr(0, bang);
  }
  std::vector<Value> values;
  JsonError error;
  EXPECT_TRUE(ParseJsonStream(outputs, &values, &error)) << text;
  for (const Value& v : values) o.outputs.push_back(ToJson(v));
  return o;
}

const char* kJobSet = R"({"metadata":{"name":"js","labels":{"jobset.sigs.k8s.io/replicatedjob-name":"w"}},
  "spec":{"replicatedJobs":[
    {"name":"driver","replicas":1,"template":{"spec":{"parallelism":1,"template":{"spec":{"containers":[{"name":"d"}]}}}}},
    {"name":"workers","replicas":3,"template":{"spec":{"template":{"spec":{"containers":[{"name":"w"}]}}}}}]},
  "status":{"conditions":[{"type":"Started","status":"True"},{"type":"Completed","status":"False"}]}})";

std::vector<Case> BuildCases() {
  std::vector<Case> cases;
  auto add = [&](std::string name, std::shared_ptr<const ir::Program> program,
                 std::vector<std::pair<std::string, std::string>> runs, RunOptions options = {}) {
    cases.push_back({std::move(name), std::move(program), std::move(runs), options});
  };
  {
    Builder b;
    NodeId body = b.Field(b.Iter(b.Path({"spec", "replicatedJobs"})), "name");
    add("iterate_field", b.Finish(body),
        {{kJobSet, R"("driver" "workers")"},
         {"{}", "!Cannot iterate over null"},
         {R"({"spec":{"replicatedJobs":[1]}})", R"(!Cannot index number with "name")"}});
  }
  {
    // .spec.replicatedJobs[] | .replicas * (.template.spec.parallelism // 1)
    Builder b;
    NodeId body = b.Pipe(b.Iter(b.Path({"spec", "replicatedJobs"})),
                         b.Bin(BinaryOp::Mul, b.Path({"replicas"}),
                               b.Node(Op::Alternative, {b.Path({"template", "spec", "parallelism"}),
                                                        b.Json("1")})));
    add("replicas_times_parallelism", b.Finish(body), {{kJobSet, "1 3"}});
  }
  {
    // [.spec.replicatedJobs[].name], {n: .metadata.name, l: .metadata.labels["jobset..."]}
    Builder b;
    NodeId names = b.Node(Op::Collect, {b.Field(b.Iter(b.Path({"spec", "replicatedJobs"})), "name")});
    NodeId obj = b.Node(Op::Object, {b.Str("n"), b.Path({"metadata", "name"}), b.Str("l"),
                                     b.Field(b.Path({"metadata", "labels"}),
                                             "jobset.sigs.k8s.io/replicatedjob-name")});
    add("collect_and_object", b.Finish(b.Comma(names, obj)),
        {{kJobSet, R"(["driver","workers"] {"n":"js","l":"w"})"}, {R"({"spec":{"replicatedJobs":[]}})", R"([] {"n":null,"l":null})"},
         {"null", "!Cannot iterate over null"}});
  }
  {
    // .status.conditions[] | select(.type == "Completed") | .status
    Builder b;
    uint32_t select = b.DefineSelect();
    NodeId cond = b.Bin(BinaryOp::Eq, b.Path({"type"}), b.Str("Completed"));
    NodeId body = b.Pipe(b.Iter(b.Path({"status", "conditions"})),
                         b.Pipe(b.Node(Op::Call, {cond}, select), b.Path({"status"})));
    add("select_call", b.Finish(body), {{kJobSet, R"("False")"}, {R"({"status":{}})", "!Cannot iterate over null"}});
  }
  {
    // {a:(1,2), b:(3,4)} : cartesian order, first key outermost
    Builder b;
    NodeId body = b.Node(Op::Object, {b.Str("a"), b.Comma(b.Json("1"), b.Json("2")), b.Str("b"),
                                      b.Comma(b.Json("3"), b.Json("4"))});
    add("object_cartesian", b.Finish(body),
        {{"null", R"({"a":1,"b":3} {"a":1,"b":4} {"a":2,"b":3} {"a":2,"b":4})"}});
  }
  {
    // (1,2) + (10,20): right operand outer; (.a - .b), -(.a), .a / 0, .a % 3
    Builder b;
    NodeId sum = b.Bin(BinaryOp::Add, b.Comma(b.Json("1"), b.Json("2")), b.Comma(b.Json("10"), b.Json("20")));
    NodeId diff = b.Bin(BinaryOp::Sub, b.Path({"a"}), b.Path({"b"}));
    NodeId neg = b.Node(Op::Neg, {b.Path({"a"})});
    NodeId mod = b.Bin(BinaryOp::Mod, b.Path({"a"}), b.Json("3"));
    NodeId cmp = b.Node(Op::Collect, {b.Comma(b.Bin(BinaryOp::Lt, b.Path({"a"}), b.Path({"b"})),
                                              b.Bin(BinaryOp::Ge, b.Path({"a"}), b.Path({"b"})))});
    NodeId body = b.Comma(sum, b.Comma(diff, b.Comma(neg, b.Comma(mod, cmp))));
    add("arithmetic", b.Finish(body),
        {{R"({"a":7,"b":2})", "11 12 21 22 5 -7 1 [false,true]"},
         {R"({"a":"x","b":"y"})", "11 12 21 22 !string (\"x\") and string (\"y\") cannot be subtracted"},
         {R"({"a":[1,2,2],"b":[2]})", "11 12 21 22 [1] !array ([1,2,2]) cannot be negated"}});
  }
  {
    // .a / .b with division by zero, string division (split)
    Builder b;
    add("division", b.Finish(b.Bin(BinaryOp::Div, b.Path({"a"}), b.Path({"b"}))),
        {{R"({"a":1,"b":4})", "0.25"},
         {R"({"a":1,"b":0})", "!number (1) and number (0) cannot be divided because the divisor is zero"},
         {R"({"a":"a,b","b":","})", R"(["a","b"])"}});
  }
  {
    // .[1:3], .[-1:], .s[2:]
    Builder b;
    NodeId s1 = b.Node(Op::Slice, {b.Path({"a"}), b.Json("1"), b.Json("3")});
    NodeId s2 = b.Node(Op::Slice, {b.Path({"a"}), b.Json("-1"), ir::kNoNode});
    NodeId s3 = b.Node(Op::Slice, {b.Path({"s"}), b.Json("2"), ir::kNoNode});
    add("slice", b.Finish(b.Comma(s1, b.Comma(s2, s3))),
        {{R"({"a":[1,2,3,4],"s":"hello"})", R"([2,3] [4] "llo")"}, {"{}", "null null null"}});
  }
  {
    // if .a then "yes" elif .b then "b" else "no" end ; and/or with generators
    Builder b;
    NodeId inner = b.Node(Op::If, {b.Path({"b"}), b.Str("b"), b.Str("no")});
    NodeId iff = b.Node(Op::If, {b.Path({"a"}), b.Str("yes"), inner});
    NodeId both = b.Node(Op::Collect, {b.Node(Op::And, {b.Path({"a"}), b.Comma(b.Json("true"), b.Json("null"))})});
    NodeId either = b.Node(Op::Collect, {b.Node(Op::Or, {b.Path({"b"}), b.Comma(b.Json("false"), b.Json("1"))})});
    add("conditionals", b.Finish(b.Comma(iff, b.Comma(both, either))),
        {{R"({"a":1})", R"("yes" [true,false] [false,true])"},
         {R"({"b":0})", R"("b" [false] [true])"},
         {R"({"a":false,"b":null})", R"("no" [false] [false,true])"}});
  }
  {
    // try error("boom") catch ., (.a.b)?, [.[] | (.x // "d")], (error({"a":1}))
    Builder b;
    NodeId caught = b.Node(Op::Try, {b.Node(Op::Error, {b.Str("boom")}), b.Dot()});
    NodeId suppressed = b.Node(Op::Try, {b.Path({"a", "b"}), ir::kNoNode});
    NodeId alt = b.Node(Op::Collect, {b.Pipe(b.Iter(b.Path({"list"})),
                                             b.Node(Op::Alternative, {b.Path({"x"}), b.Str("d")}))});
    NodeId raise = b.Node(Op::Error, {b.Json(R"({"a":1})")});
    add("errors", b.Finish(b.Comma(caught, b.Comma(suppressed, b.Comma(alt, raise)))),
        {{R"({"a":{"b":2},"list":[{"x":1},{"x":false},{},{"x":null}]})",
          R"("boom" 2 [1,"d","d","d"] !{"a":1} (not a string))"},
         {R"({"a":5,"list":[]})", R"("boom" [] !{"a":1} (not a string))"},
         // errors of the left side of // propagate (jq 1.6, the interpreter)
         {R"({"list":[3]})", R"("boom" null !Cannot index number with "x")"}});
  }
  {
    // try (.[] | error) catch . : the body stops at its first error; errors raised after the
    // try (downstream) are not caught: (try .a catch "c") | error
    Builder b;
    NodeId first = b.Node(Op::Try, {b.Pipe(b.Iter(b.Dot()), b.Node(Op::Error, {ir::kNoNode})), b.Dot()});
    NodeId downstream = b.Pipe(b.Node(Op::Try, {b.Json("\"x\""), b.Str("c")}), b.Node(Op::Error, {ir::kNoNode}));
    add("try_scope", b.Finish(b.Comma(first, downstream)), {{R"(["e1","e2"])", R"("e1" !x)"}});
  }
  {
    // reduce .[] as $x (0; . + $x), [foreach .[] as $x (0; . + $x)], [.[] as $v | $v * 2]
    Builder b;
    uint32_t px = b.Pattern(0);
    NodeId reduce = b.WithPatterns(
        b.Node(Op::Reduce, {b.Iter(b.Dot()), b.Json("0"), b.Bin(BinaryOp::Add, b.Dot(), b.Node(Op::Var, {}, 0))}), {px});
    NodeId foreach = b.Node(Op::Collect, {b.WithPatterns(
        b.Node(Op::Foreach, {b.Iter(b.Dot()), b.Json("0"), b.Bin(BinaryOp::Add, b.Dot(), b.Node(Op::Var, {}, 0)), ir::kNoNode}),
        {px})});
    uint32_t pv = b.Pattern(1);
    NodeId bind = b.Node(Op::Collect, {b.WithPatterns(
        b.Node(Op::Bind, {b.Iter(b.Dot()), b.Bin(BinaryOp::Mul, b.Node(Op::Var, {}, 1), b.Json("2"))}), {pv})});
    add("variables", b.Finish(b.Comma(reduce, b.Comma(foreach, bind)), 2),
        {{"[1,2,3]", "6 [1,3,6] [2,4,6]"}, {"[]", "0 [] []"}, {"3", "!Cannot iterate over number (3)"}});
  }
  {
    // .arr as [$a, {b: $c, $d}] | [$a, $c, $d]  and  .obj as {(.k, .j): $v} | $v  (object-pattern
    // keys are filters on the input of `as`, per ir.h and the interpreter)
    Builder b;
    uint32_t pa = b.Pattern(0), pc = b.Pattern(1);
    ir::Pattern object;
    object.kind = ir::Pattern::Kind::Object;
    object.entries.push_back({b.Str("b"), -1, static_cast<int32_t>(pc)});
    object.entries.push_back({b.Str("d"), 2, -1});
    uint32_t po = b.AddPattern(object);
    ir::Pattern array;
    array.kind = ir::Pattern::Kind::Array;
    array.elements = {pa, po};
    uint32_t parr = b.AddPattern(array);
    NodeId triple = b.Node(Op::Collect, {b.Comma(b.Node(Op::Var, {}, 0),
                                                 b.Comma(b.Node(Op::Var, {}, 1), b.Node(Op::Var, {}, 2)))});
    NodeId first = b.WithPatterns(b.Node(Op::Bind, {b.Path({"arr"}), triple}), {parr});
    ir::Pattern keyed;
    keyed.kind = ir::Pattern::Kind::Object;
    keyed.entries.push_back({b.Comma(b.Path({"k"}), b.Path({"j"})), -1, static_cast<int32_t>(b.Pattern(3))});
    uint32_t pk = b.AddPattern(keyed);
    NodeId second = b.WithPatterns(b.Node(Op::Bind, {b.Path({"obj"}), b.Node(Op::Var, {}, 3)}), {pk});
    add("destructuring", b.Finish(b.Comma(first, second), 4),
        {{R"({"arr":[1,{"b":2,"d":3}],"k":"a","j":"b","obj":{"a":10,"b":20}})", "[1,2,3] 10 20"},
         {R"({"arr":[1],"obj":{}})", R"([1,null,null] !Cannot index object with null)"},
         {R"({"arr":{"a":1}})", "!Cannot index object with number"}});
  }
  {
    // [range(0,1; 3,4)], [range(.a; 0; -2)], range("a"; 2)
    Builder b;
    NodeId two = b.Node(Op::Collect, {b.Builtin(ir::BuiltinId::Range, {b.Comma(b.Json("0"), b.Json("1")),
                                                                       b.Comma(b.Json("3"), b.Json("4"))})});
    NodeId three = b.Node(Op::Collect, {b.Node(Op::CallBuiltin, {b.Path({"a"}), b.Json("0"), b.Json("-2")}, static_cast<uint32_t>(ir::BuiltinId::Range3))});
    NodeId bad = b.Builtin(ir::BuiltinId::Range, {b.Str("a"), b.Json("2")});
    add("range", b.Finish(b.Comma(two, b.Comma(three, bad))),
        {{R"({"a":5})", "[0,1,2,0,1,2,3,1,2,1,2,3] [5,3,1] !Range bounds must be numeric"}});
  }
  {
    // reduce with a string accumulator (heap values through the state)
    Builder b;
    uint32_t px = b.Pattern(0);
    NodeId reduce = b.WithPatterns(
        b.Node(Op::Reduce, {b.Iter(b.Dot()), b.Str(""), b.Bin(BinaryOp::Add, b.Dot(), b.Node(Op::Var, {}, 0))}), {px});
    add("reduce_strings", b.Finish(reduce, 1), {{R"(["a","b","c"])", R"("abc")"}});
  }
  {
    // [label $out | .[] | if . > 2 then break $out else . end]
    Builder b;
    NodeId body = b.Pipe(b.Iter(b.Dot()),
                         b.Node(Op::If, {b.Bin(BinaryOp::Gt, b.Dot(), b.Json("2")), b.Node(Op::Break, {}, 0), b.Dot()}));
    add("label_break", b.Finish(b.Node(Op::Collect, {b.Node(Op::Label, {body}, 0)}), 1),
        {{"[1,2,3,1]", "[1,2]"}, {"[]", "[]"}});
  }
  {
    // [..], length, keys, "a\(.x)b"
    Builder b;
    NodeId all = b.Node(Op::Collect, {b.Node(Op::RecurseAll)});
    NodeId len = b.Builtin(ir::BuiltinId::Length);
    NodeId interp = b.Node(Op::StringInterp, {b.Str("a"), b.Path({"x"}), b.Str("b")});
    add("recurse_builtins_interp", b.Finish(b.Comma(all, b.Comma(len, interp))),
        {{R"({"x":[1,{"y":2}]})", R"([{"x":[1,{"y":2}]},[1,{"y":2}],1,{"y":2},2] 1 "a[1,{\"y\":2}]b")"},
         {R"({"x":"s"})", R"([{"x":"s"},"s"] 1 "asb")"}});
  }
  {
    // Output cap: reaching max_outputs (3) is the error, as upstream; two outputs stay below it.
    Builder b;
    RunOptions options;
    options.limits.max_outputs = 3;
    add("output_cap", b.Finish(b.Iter(b.Dot())), {{"[1,2,3]", ""}, {"[1,2]", "1 2"}}, options);
  }
  {
    // Call depth: def f(g): g; f(f(f(.))) nests 3 calls (closure invocations do not count).
    Builder b;
    NodeId param = b.Node(Op::CallParam, {}, 0);
    uint32_t f = 1;
    NodeId body = b.Node(Op::Call, {b.Node(Op::Call, {b.Node(Op::Call, {b.Dot()}, f)}, f)}, f);
    auto program = std::make_shared<ir::Program>(*b.Finish(body));
    program->functions.push_back({"f/1", 1, {}, 0, param, -1});
    RunOptions shallow;
    shallow.limits.max_depth = 2;
    add("depth_limit", program, {{"1", ""}}, shallow);
    RunOptions enough;
    enough.limits.max_depth = 3;
    add("depth_enough", program, {{"1", "1"}}, enough);
  }
  {
    // Fuel: one step per node evaluation (as the interpreter): [.[] | . + 1] needs 3 + 3 per element.
    Builder b;
    RunOptions options;
    options.limits.fuel = 20;
    NodeId body = b.Node(Op::Collect, {b.Pipe(b.Iter(b.Dot()), b.Bin(BinaryOp::Add, b.Dot(), b.Json("1")))});
    add("fuel", b.Finish(body), {{"[1,2,3,4,5,6,7,8,9,10]", ""}, {"[1,2,3,4,5]", "[2,3,4,5,6]"}}, options);
  }
  return cases;
}

class NativeEnginesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cases_ = new std::vector<Case>(BuildCases());
    std::vector<codegen::AotUnit> units;
    for (size_t i = 0; i < cases_->size(); ++i) {
      units.push_back({"case_" + std::to_string(i), (*cases_)[i].program});
    }
    codegen::AotResult aot = codegen::CompileAot(units);
    aot_error_ = new std::string(aot.error);
    if (!aot.shared_object.empty()) {
      module_ = new std::shared_ptr<NativeModule>(NativeModule::Create(aot.shared_object, aot_error_));
    }
  }
  static void TearDownTestSuite() {
    delete cases_;
    delete aot_error_;
    delete module_;
  }
  static std::vector<Case>* cases_;
  static std::string* aot_error_;
  static std::shared_ptr<NativeModule>* module_;
};
std::vector<Case>* NativeEnginesTest::cases_ = nullptr;
std::string* NativeEnginesTest::aot_error_ = nullptr;
std::shared_ptr<NativeModule>* NativeEnginesTest::module_ = nullptr;

TEST_F(NativeEnginesTest, AllEnginesAgreeWithExpectedResults) {
  ASSERT_NE(module_, nullptr) << *aot_error_;
  ASSERT_NE(*module_, nullptr) << *aot_error_;
  for (size_t i = 0; i < cases_->size(); ++i) {
    const Case& c = (*cases_)[i];
    SCOPED_TRACE(c.name);
    std::string why;
    ASSERT_TRUE(codegen::Supports(*c.program, &why)) << why;
    codegen::JitResult jit = codegen::CompileJit(c.program);
    ASSERT_NE(jit.filter, nullptr) << jit.error;
    EXPECT_STREQ(jit.filter->engine_name(), "jit");
    std::unique_ptr<Filter> aot = (*module_)->GetFilter("case_" + std::to_string(i), c.program);
    ASSERT_NE(aot, nullptr);
    EXPECT_STREQ(aot->engine_name(), "aot");
    std::unique_ptr<Filter> interp = MakeInterpreter(c.program);
    ASSERT_NE(interp, nullptr);
    for (const auto& [input, expected_text] : c.runs) {
      SCOPED_TRACE("input " + input);
      Outcome reference = RunOne(*interp, input, c.options);
      Outcome from_jit = RunOne(*jit.filter, input, c.options);
      Outcome from_aot = RunOne(*aot, input, c.options);
      EXPECT_EQ(Describe(from_jit), Describe(reference)) << "jit vs interpreter";
      EXPECT_EQ(Describe(from_aot), Describe(reference)) << "aot vs interpreter";
      if (expected_text.empty()) {
        // Limit cases (wording checked against the interpreter above).
        EXPECT_TRUE(from_jit.error && from_jit.limit) << Describe(from_jit);
        EXPECT_TRUE(from_aot.error && from_aot.limit) << Describe(from_aot);
        continue;
      }
      EXPECT_EQ(Describe(from_jit), Describe(Expected(expected_text))) << "jit vs expected";
    }
  }
}

TEST_F(NativeEnginesTest, UnknownSymbolHasNoFilter) {
  ASSERT_NE(module_, nullptr);
  ASSERT_NE(*module_, nullptr) << *aot_error_;
  EXPECT_EQ((*module_)->GetFilter("no_such_entry", (*cases_)[0].program), nullptr);
  EXPECT_EQ((*module_)->GetFilter("wm_abi_version", (*cases_)[0].program), nullptr);
}

TEST_F(NativeEnginesTest, StopRequestedByConsumerStopsNativeCode) {
  ASSERT_NE(*module_, nullptr) << *aot_error_;
  Builder b;
  auto program = b.Finish(b.Iter(b.Dot()));
  codegen::JitResult jit = codegen::CompileJit(program);
  ASSERT_NE(jit.filter, nullptr) << jit.error;
  Value input;
  JsonError json_error;
  ASSERT_TRUE(ParseJson("[1,2,3]", &input, &json_error));
  int seen = 0;
  EvalError error;
  EXPECT_EQ(jit.filter->Run(input, [&](const Value&) { return ++seen < 2; }, &error),
            EvalStatus::kStopped);
  EXPECT_EQ(seen, 2);
}

// One JIT session for many programs (what a bundle's resolvers cost at load): each filter runs
// its own program, identical programs (emitted once) and invalid IR are handled per program.
TEST(NativeJitBatchTest, CompilesManyProgramsIntoOneSession) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const char* key : {"a", "b", "a"}) {
    Builder b;
    programs.push_back(b.Finish(b.Path({key})));
  }
  {
    Builder b;
    programs.push_back(b.Finish(b.Iter(b.Dot())));
  }
  ir::Program invalid;
  invalid.nodes.push_back({Op::Call, 7, {}, {}, "", 0, 0});  // no such function
  invalid.functions.push_back({"main", 0, {}, 0, 0, -1});
  programs.push_back(std::make_shared<const ir::Program>(invalid));

  codegen::JitBatchResult batch = codegen::CompileJitBatch(programs);
  ASSERT_TRUE(batch.error.empty()) << batch.error;
  ASSERT_EQ(batch.filters.size(), programs.size());
  const char* input = "{\"a\": 1, \"b\": [2]}";
  std::vector<std::vector<std::string>> expected = {{"1"}, {"[2]"}, {"1"}, {"1", "[2]"}};
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_NE(batch.filters[i], nullptr) << i << ": " << batch.errors[i];
    EXPECT_STREQ(batch.filters[i]->engine_name(), "jit");
    EXPECT_EQ(RunOne(*batch.filters[i], input, RunOptions{}).outputs, expected[i]) << i;
  }
  EXPECT_EQ(batch.filters[4], nullptr);
  EXPECT_NE(batch.errors[4].find("invalid IR"), std::string::npos) << batch.errors[4];
  // The filters keep the session alive on their own.
  std::unique_ptr<Filter> kept = std::move(batch.filters[1]);
  batch = {};
  EXPECT_EQ(RunOne(*kept, input, RunOptions{}).outputs, std::vector<std::string>{"[2]"});
}

TEST(NativeSupportTest, CompilesPathExpressionsAndRecursionRefusesInvalidIr) {
  {
    Builder b;
    auto program = b.Finish(b.Node(Op::PathOf, {b.Path({"a"})}));
    std::string why;
    EXPECT_TRUE(codegen::Supports(*program, &why)) << why;
    codegen::JitResult jit = codegen::CompileJit(program);
    ASSERT_NE(jit.filter, nullptr) << jit.error;
    Outcome outcome = RunOne(*jit.filter, "{\"a\": 1}", RunOptions{});
    EXPECT_EQ(outcome.outputs, std::vector<std::string>{"[\"a\"]"});
  }
  {
    // def f: f; f  (runs until a limit stops it)
    ir::Program p;
    p.nodes.push_back({Op::Call, 1, {}, {}, "", 0, 0});
    p.functions.push_back({"main", 0, {}, 0, 0, -1});
    p.functions.push_back({"f/0", 0, {}, 0, 0, -1});
    std::string why;
    EXPECT_TRUE(codegen::Supports(p, &why)) << why;
    p.nodes[0].a = 7;  // no such function
    EXPECT_FALSE(codegen::Supports(p, &why));
    EXPECT_NE(why.find("invalid IR"), std::string::npos) << why;
  }
}

TEST(NativeDumpTest, LlvmIrAndObjectFile) {
  Builder b;
  auto program = b.Finish(b.Field(b.Iter(b.Path({"spec", "items"})), "name"));
  codegen::EmitResult ir = codegen::EmitLlvmIr({{"resolve_names", program}});
  ASSERT_TRUE(ir.error.empty()) << ir.error;
  EXPECT_NE(ir.text.find("define i32 @resolve_names(ptr"), std::string::npos) << ir.text;
  EXPECT_NE(ir.text.find("@wm_abi_version = constant i32"), std::string::npos) << ir.text;
  // Optimised, the continuations are inlined into the entry: besides the exported function only
  // the shared out-of-line paths for an exhausted step or depth limit remain (wm.limit_exceeded,
  // and wm.charge_steps for the steps of a straight-line run charged at once).
  EXPECT_NE(ir.text.find("define internal i32 @wm.limit_exceeded("), std::string::npos) << ir.text;
  EXPECT_NE(ir.text.find("define internal i32 @wm.charge_steps("), std::string::npos) << ir.text;
  for (size_t at = ir.text.find("define internal"); at != std::string::npos;
       at = ir.text.find("define internal", at + 1)) {
    EXPECT_EQ(ir.text.compare(at, 24, "define internal i32 @wm."), 0) << ir.text.substr(at, 80);
  }

  codegen::EmitResult object = codegen::EmitObject({{"resolve_names", program}});
  ASSERT_TRUE(object.error.empty()) << object.error;
  ASSERT_GT(object.text.size(), 64u);
  EXPECT_EQ(object.text.substr(0, 4), "\x7f" "ELF");

  codegen::EmitResult duplicate = codegen::EmitLlvmIr({{"x", program}, {"x", program}});
  EXPECT_TRUE(duplicate.text.empty());
  EXPECT_NE(duplicate.error.find("duplicate"), std::string::npos) << duplicate.error;
}

TEST(NativeModuleTest, RefusesGarbageTruncatedAndForeignBytes) {
  std::string error;
  EXPECT_EQ(NativeModule::Create("", &error), nullptr);
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_EQ(NativeModule::Create(std::string(200, 'x'),
                                 &error),
            nullptr);
  EXPECT_NE(error.find("ELF"), std::string::npos) << error;

  Builder b;
  codegen::AotResult aot = codegen::CompileAot({{"entry", b.Finish(b.Dot())}});
  ASSERT_FALSE(aot.shared_object.empty()) << aot.error;
  for (size_t cut : {size_t{16}, size_t{64}, aot.shared_object.size() / 2}) {
    error.clear();
    EXPECT_EQ(NativeModule::Create(std::string_view(aot.shared_object).substr(0, cut), &error), nullptr)
        << "cut at " << cut;
    EXPECT_FALSE(error.empty());
  }
  error.clear();
  EXPECT_NE(NativeModule::Create(aot.shared_object, &error), nullptr) << error;
}

TEST(NativeModuleTest, TwoModulesLoadedAtOnceKeepTheirOwnCode) {
  // A tool that loads two bundles holds both modules; each must resolve its own symbols (the
  // loader must not mistake the second library for the first one).
  Builder first_builder, second_builder;
  codegen::AotResult first = codegen::CompileAot({{"first_entry", first_builder.Finish(first_builder.Dot())}});
  codegen::AotResult second = codegen::CompileAot({{"second_entry", second_builder.Finish(second_builder.Dot())}});
  ASSERT_FALSE(first.shared_object.empty()) << first.error;
  ASSERT_FALSE(second.shared_object.empty()) << second.error;
  std::string error;
  auto first_module = NativeModule::Create(first.shared_object, &error);
  ASSERT_NE(first_module, nullptr) << error;
  auto second_module = NativeModule::Create(second.shared_object, &error);
  ASSERT_NE(second_module, nullptr) << error;
  Builder b;
  auto program = b.Finish(b.Dot());
  EXPECT_NE(first_module->GetFilter("first_entry", program), nullptr);
  EXPECT_EQ(first_module->GetFilter("second_entry", program), nullptr);
  EXPECT_NE(second_module->GetFilter("second_entry", program), nullptr);
  EXPECT_EQ(second_module->GetFilter("first_entry", program), nullptr);
}

// Builds a shared object from C source with the system compiler (as CompileAot links).
std::string BuildSharedObject(const std::string& c_source) {
  char dir_template[] = "/tmp/wm-native-test-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return "";
  std::string dir = dir_template;
  std::string source = dir + "/lib.c", library = dir + "/lib.so";
  {
    std::ofstream out(source);
    out << c_source;
  }
  std::string command = "cc -shared -nostdlib -fPIC -o " + library + " " + source + " 2>/dev/null";
  std::string bytes;
  if (std::system(command.c_str()) == 0) {
    std::ifstream in(library, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::remove(source.c_str());
  std::remove(library.c_str());
  rmdir(dir.c_str());
  return bytes;
}

TEST(NativeModuleTest, RefusesAbiVersionMismatchAndMissingVersion) {
  std::string wrong = BuildSharedObject(
      "const unsigned wm_abi_version = " + std::to_string(WM_NATIVE_ABI_VERSION + 1) +
      ";\nint entry(void* c, const void* v) { return 0; }\n");
  ASSERT_FALSE(wrong.empty()) << "cc could not build the test library";
  std::string error;
  EXPECT_EQ(NativeModule::Create(wrong, &error), nullptr);
  EXPECT_NE(error.find("ABI version"), std::string::npos) << error;

  std::string unversioned = BuildSharedObject("int entry(void* c, const void* v) { return 0; }\n");
  ASSERT_FALSE(unversioned.empty());
  error.clear();
  EXPECT_EQ(NativeModule::Create(unversioned, &error), nullptr);
  EXPECT_NE(error.find("wm_abi_version"), std::string::npos) << error;
}

}  // namespace
}  // namespace wm
