// Tests of the checker's builtin signature table against the IR builtin table
// (runtime/ir/builtins.def): every row that names a native IR builtin keeps the input kinds and
// result kinds the checker had before they were derived from the IR signatures.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "compiler/check/internal/builtin_signatures.h"
#include "compiler/check/internal/types.h"
#include "runtime/ir/builtins.h"

namespace wm::check::internal {
namespace {

struct Kinds {
  uint8_t accepts;
  uint8_t kinds;
};

// The values the hand-written table held before the derivation, for every row with an IR builtin.
const std::map<std::pair<std::string, size_t>, Kinds>& OldKindsOfIrBackedRows() {
  constexpr uint8_t kMeasurable = kNull | kNumeric | kStr | kArr | kObj;
  static const auto* old = new std::map<std::pair<std::string, size_t>, Kinds>{
      {{"error", 1}, {0, 0}},
      {{"not", 0}, {0, kBool}},
      {{"length", 0}, {kMeasurable, kNumeric}},
      {{"utf8bytelength", 0}, {kMeasurable, kNumeric}},
      {{"keys", 0}, {kArr | kObj, 0}},
      {{"keys_unsorted", 0}, {kArr | kObj, 0}},
      {{"tostring", 0}, {0, kStr}},
      {{"tojson", 0}, {0, kStr}},
      {{"type", 0}, {0, kStr}},
      {{"ascii_downcase", 0}, {kStr, kStr}},
      {{"ascii_upcase", 0}, {kStr, kStr}},
      {{"tonumber", 0}, {kStr | kNumeric, kNumeric}},
      {{"floor", 0}, {kNumeric, kNumeric}},
      {{"ceil", 0}, {kNumeric, kNumeric}},
      {{"round", 0}, {kNumeric, kNumeric}},
      {{"sqrt", 0}, {kNumeric, kNumeric}},
      {{"fabs", 0}, {kNumeric, kNumeric}},
      {{"to_entries", 0}, {kObj, 0}},
      {{"add", 0}, {kArr | kNull, 0}},
      {{"min", 0}, {kArr | kNull, 0}},
      {{"max", 0}, {kArr | kNull, 0}},
      {{"sort", 0}, {kArr, 0}},
      {{"unique", 0}, {kArr, 0}},
      {{"reverse", 0}, {kArr | kStr | kNull, 0}},
      {{"env", 0}, {0, 0}},
      {{"now", 0}, {0, 0}},
      {{"has", 1}, {kObj | kArr, kBool}},
      {{"contains", 1}, {0, kBool}},
      {{"startswith", 1}, {kStr, kBool}},
      {{"endswith", 1}, {kStr, kBool}},
      {{"ltrimstr", 1}, {0, 0}},
      {{"rtrimstr", 1}, {0, 0}},
      {{"split", 1}, {kStr, 0}},
      {{"join", 1}, {kArr, kStr}},
  };
  return *old;
}

TEST(BuiltinSignatures, IrBackedRowsKeepTheirOldKinds) {
  size_t ir_backed = 0;
  for (const BuiltinSignature& row : AllBuiltinSignatures()) {
    if (!ir::FindBuiltin(row.name, row.arity)) continue;
    ++ir_backed;
    std::string name(row.name);
    auto old = OldKindsOfIrBackedRows().find({name, row.arity});
    ASSERT_NE(old, OldKindsOfIrBackedRows().end()) << name << "/" << int(row.arity);
    EXPECT_EQ(int(row.accepts), int(old->second.accepts)) << name << "/" << int(row.arity);
    EXPECT_EQ(int(row.kinds), int(old->second.kinds)) << name << "/" << int(row.arity);
  }
  EXPECT_EQ(ir_backed, OldKindsOfIrBackedRows().size());
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
