// Integration test of the IR binary form with real lowered programs: every builtin jq knows (the
// `builtins` list, prelude and native) and a set of constructs lowered by compiler/lower must
// serialize, pass the loader's validation, and round-trip to identical bytes and dumps.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/ir/ir_binary.h"

namespace wm::ir {
namespace {

std::shared_ptr<const Program> LowerText(const std::string& text) {
  driver::Expected<driver::LoweredExpression> lowered = driver::LowerExpression(text);
  return lowered.ok() ? lowered->program : nullptr;
}

void ExpectRoundTrip(const std::string& text) {
  std::shared_ptr<const Program> program = LowerText(text);
  ASSERT_NE(program, nullptr) << "does not lower: " << text;
  std::string blob = SerializeProgram(*program);
  Program back;
  std::string error;
  ASSERT_TRUE(DeserializeProgram(blob, &back, &error)) << text << ": " << error;
  EXPECT_EQ(SerializeProgram(back), blob) << text;
  EXPECT_EQ(Dump(back), Dump(*program)) << text;
}

TEST(IrBinaryLowered, ConstructsRoundTrip) {
  for (const char* text : {
           ".spec.replicas // 1",
           "[.[] | select(.a > 1)] | length",
           "def f(g): def h: g; h | h; f(. + 1)",
           "def f($a; $b): $a + $b; f(1; 2)",
           "reduce .[] as [$a, {b: $c, $d}] (0; . + $a)",
           "foreach .[] as $x (0; . + $x; [$x, .])",
           ". as [$a] ?// $a | $a",
           "label $out | .[] | if . > 2 then ., break $out else . end",
           "path(..)",
           "{a: 1, (.b): 2, $__loc__}",
           "\"x\\(.a)y\" | @base64",
           "try error(\"x\") catch .",
           ".a[1:2] |= 3",
           "del(.a, .b)",
           "def f(x): x as $v | def g: $v + 1; g; f(.)",
           ".. |= (numbers |= . + 1)",
           "@sh \"echo \\(.)\"",
           "getpath([\"a\", \"b\"]) = 5",
           ". as {a: $x, $y, (\"c\"): [$z]} | [$x, $y, $z]",
       }) {
    ExpectRoundTrip(text);
  }
}

TEST(IrBinaryLowered, EveryBuiltinRoundTrips) {
  std::shared_ptr<const Program> list_program = LowerText("builtins");
  ASSERT_NE(list_program, nullptr);
  // `builtins` lowers to a constant array of "name/arity" strings.
  const Value* names = nullptr;
  for (const Value& c : list_program->consts) {
    if (c.IsArray()) names = &c;
  }
  ASSERT_NE(names, nullptr);
  ASSERT_GT(names->AsArray().size(), 100u);
  int lowered = 0;
  for (const Value& entry : names->AsArray()) {
    std::string key(entry.AsString());
    std::string name = key.substr(0, key.find('/'));
    int arity = std::stoi(key.substr(key.find('/') + 1));
    std::string call = name;
    for (int i = 0; i < arity; ++i) call += (i == 0 ? "(." : "; .");
    if (arity > 0) call += ")";
    if (LowerText(call) == nullptr) continue;  // e.g. I/O builtins rejected by policy
    ExpectRoundTrip(call);
    ++lowered;
  }
  EXPECT_GT(lowered, 100);
}

}  // namespace
}  // namespace wm::ir
