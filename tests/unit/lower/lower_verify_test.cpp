// The lowering's output always passes the IR verifier (runtime/ir/verify.h), for programs that
// exercise every op, the generator builtins, the prelude, closures over outer variables and
// `?//` alternatives; and builtins resolve through the one table of runtime/ir/builtins.def.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compiler/jq/parser.h"
#include "compiler/lower/lower.h"
#include "runtime/ir/verify.h"

namespace wm {
namespace {

std::shared_ptr<ir::Program> LowerOrNull(const std::string& text) {
  jq::ParseResult parsed = jq::Parse(text);
  EXPECT_TRUE(parsed.ok()) << text;
  if (!parsed.ok()) return nullptr;
  return lower::Lower(*parsed.ast, text).program;
}

TEST(LowerVerify, EveryLoweredProgramVerifies) {
  std::set<ir::Op> seen;
  for (const char* text : {
           ".", "..", "empty", "1", ".a[0]", ".[1:]", ".[:2]", ".[]", ".a | .b", "1, 2", "-.",
           ". + 1", "true and false", "true or false", ".a // 1", "if . then 1 else 2 end",
           "if . then 1 end", "try error(\"x\") catch .", ".a?", "[.[]]", "{a: 1, (.b): 2}",
           "@base64", "\"x\\(.)y\"", ". as $x | $x", ". as [$a] ?// $a | $a",
           "reduce .[] as $x (0; . + $x)", "foreach .[] as $x (0; . + $x)",
           "reduce .[] as [$a] ?// $a (0; . + $a)", "[foreach .[] as {$a} ?// [$a] (0; . + $a)]",
           "foreach .[] as $x (0; . + $x; [$x, .])", "label $out | 1, break $out",
           "def f(g): g | g; f(. + 1)", "def f($v): $v; f(1)", "def f: def g: $__loc__; g; f",
           "range(3)", "range(0; 10; 2)", "path(.a)", "getpath([\"a\"])", "error", "error(1)",
           "$__loc__", "sort_by(.a)", "test(\"a\")", "abs", "not", "$ENV", "builtins", "pow(2; 3)",
           ". as $x | def f: $x; f", "del(.a)", ".a |= 1", "limit(2; .[])", "trim", "atan2(1; 2)"}) {
    std::shared_ptr<ir::Program> program = LowerOrNull(text);
    ASSERT_NE(program, nullptr) << text;
    std::string error;
    EXPECT_TRUE(ir::Verify(*program, &error)) << text << ": " << error;
    for (const ir::Node& n : program->nodes) seen.insert(n.op);
  }
  EXPECT_EQ(seen.size(), ir::kOpCount) << "a lowering test program is missing for some op";
}

TEST(LowerVerify, NativeBuiltinsResolveThroughTheTable) {
  for (const char* text : {"abs", "not", "trim", "atan2(1; 2)", "range(0; 3; 1)", "ltrimstr(\"a\")"}) {
    std::shared_ptr<ir::Program> program = LowerOrNull(text);
    ASSERT_NE(program, nullptr) << text;
    const ir::Node& body = program->nodes[program->functions[0].body];
    ASSERT_EQ(body.op, ir::Op::CallBuiltin) << text;
    const ir::BuiltinInfo& row = ir::AllBuiltins()[body.a];
    EXPECT_EQ(std::string(text).substr(0, std::string(text).find('(')), row.name) << text;
    EXPECT_EQ(body.kids.size(), row.arity) << text;
  }
}

}  // namespace
}  // namespace wm
