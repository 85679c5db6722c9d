// Tests of the checker's builtin signature table against the IR builtin table
// (runtime/ir/builtins.def) and the jq prelude: native rows accept what the runtime accepts, and
// every jq-defined builtin with closure arguments says what each argument runs on.
#include <gtest/gtest.h>

#include <string>

#include "compiler/check/internal/builtin_signatures.h"
#include "compiler/check/internal/types.h"
#include "compiler/lower/internal/prelude.h"
#include "runtime/ir/builtins.h"

namespace wm::check::internal {
namespace {

// Every row that names a native IR builtin accepts exactly what the IR signature says the runtime
// accepts (jq 1.7): an override would refuse inputs that run, or pass inputs that always fail.
TEST(BuiltinSignatures, NativeRowsAcceptWhatTheRuntimeAccepts) {
  size_t native = 0;
  for (const BuiltinSignature& row : AllBuiltinSignatures()) {
    const ir::BuiltinInfo* builtin = ir::FindBuiltin(row.name, row.arity);
    if (!builtin) continue;
    ++native;
    const ir::TypeSet input = ir::BuiltinSignatureOf(builtin->id).input;
    const uint8_t expected = input == ir::kTypeAny ? 0 : KindsOfIrTypes(input);
    EXPECT_EQ(int(row.accepts), int(expected)) << row.name << "/" << int(row.arity);
  }
  EXPECT_GE(native, 30u);
}

// The eight inputs the table used to override, as jq 1.7 (and wmc's runtime) treat them.
TEST(BuiltinSignatures, FormerOverridesFollowJq17) {
  auto accepts = [](const char* name, size_t arity, uint8_t kind) {
    const BuiltinSignature* s = FindBuiltinSignature(name, arity);
    return s != nullptr && (s->accepts == 0 || (s->accepts & kind) != 0);
  };
  EXPECT_TRUE(accepts("to_entries", 0, kArr));       // keys are the indexes
  EXPECT_FALSE(accepts("utf8bytelength", 0, kArr));  // only strings have a UTF-8 length
  EXPECT_FALSE(accepts("utf8bytelength", 0, kNull));
  EXPECT_TRUE(accepts("add", 0, kObj));              // adds the values
  EXPECT_FALSE(accepts("add", 0, kNull));            // "Cannot iterate over null"
  EXPECT_FALSE(accepts("min", 0, kNull));            // "cannot be iterated over"
  EXPECT_FALSE(accepts("max", 0, kNull));
  EXPECT_TRUE(accepts("reverse", 0, kObj));          // `{} | reverse` is []
  EXPECT_TRUE(accepts("reverse", 0, kStr));          // "cba"
  EXPECT_TRUE(accepts("has", 1, kNull));             // false
  EXPECT_TRUE(accepts("join", 1, kObj));             // joins the values
  EXPECT_FALSE(accepts("join", 1, kNull));
  EXPECT_TRUE(accepts("with_entries", 1, kArr));     // when f makes the keys strings
  EXPECT_TRUE(accepts("from_entries", 0, kObj));     // `reduce .[] as $e ({}; ...)`
}

// Every jq-defined builtin with closure parameters has a row saying what each argument runs on:
// without one, its arguments are walked on an unknown input and nothing in them is checked.
TEST(BuiltinSignatures, EveryPreludeFunctionWithClosuresHasARow) {
  const lower::internal::Prelude& prelude = lower::internal::GetPrelude();
  ASSERT_TRUE(prelude.error.empty()) << prelude.error;
  for (const auto& [key, def] : prelude.definitions) {
    if (def->text.empty() || def->text[0] == '_') continue;
    bool closures = false;
    for (const std::string& p : def->params) closures = closures || (!p.empty() && p[0] != '$');
    if (!closures) continue;
    EXPECT_NE(FindBuiltinSignature(def->text, def->params.size()), nullptr) << key;
  }
}

TEST(BuiltinSignatures, ArgumentsRunWhereTheBuiltinRunsThem) {
  using A = ArgumentInput;
  EXPECT_EQ(FindBuiltinSignature("any", 2)->arguments[1], A::kOutputsOfFirst);
  EXPECT_EQ(FindBuiltinSignature("all", 2)->arguments[1], A::kOutputsOfFirst);
  EXPECT_EQ(FindBuiltinSignature("INDEX", 2)->arguments[1], A::kOutputsOfFirst);
  EXPECT_EQ(FindBuiltinSignature("recurse", 2)->arguments[1], A::kOutputsOfFirst);
  EXPECT_EQ(FindBuiltinSignature("map", 1)->arguments[0], A::kElements);
  EXPECT_EQ(FindBuiltinSignature("any", 1)->arguments[0], A::kElements);
  EXPECT_EQ(FindBuiltinSignature("with_entries", 1)->arguments[0], A::kEntries);
  EXPECT_EQ(FindBuiltinSignature("walk", 1)->arguments[0], A::kAnyValue);
  EXPECT_EQ(FindBuiltinSignature("sub", 2)->arguments[1], A::kMatch);
  EXPECT_EQ(FindBuiltinSignature("first", 1)->arguments[0], A::kInput);
  EXPECT_EQ(FindBuiltinSignature("until", 2)->arguments[1], A::kInput);
}

TEST(BuiltinSignatures, FindReturnsTheRowOfTheTable) {
  const BuiltinSignature* length = FindBuiltinSignature("length", 0);
  ASSERT_NE(length, nullptr);
  EXPECT_EQ(length->effect, BuiltinEffect::kFixed);
  EXPECT_EQ(length->needs, "a string, array, object, number or null");
  EXPECT_EQ(FindBuiltinSignature("length", 1), nullptr);
  ASSERT_NE(FindBuiltinSignature("map", 1), nullptr);  // a prelude function, not an IR builtin
  EXPECT_EQ(ir::FindBuiltin("map", 1), nullptr);
}

TEST(BuiltinSignatures, IrTypeSetsMapToCheckerKinds) {
  EXPECT_EQ(KindsOfIrTypes(ir::kTypeNone), 0);
  EXPECT_EQ(KindsOfIrTypes(ir::kTypeNumber), kNumeric);
  EXPECT_EQ(KindsOfIrTypes(ir::kTypeString | ir::kTypeNull), kStr | kNull);
  EXPECT_EQ(KindsOfIrTypes(ir::kTypeAny), kNull | kBool | kNumeric | kStr | kArr | kObj);
}

}  // namespace
}  // namespace wm::check::internal
