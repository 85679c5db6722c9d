// Unit tests for the builtin table (runtime/ir/builtins.h): the signature parser, the accessors
// the type checker will read, name resolution, and the one contiguous id range.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runtime/ir/builtins.h"

namespace wm::ir {
namespace {

TEST(BuiltinSignature, ParsesInputOutputAndArguments) {
  constexpr BuiltinSignature plain = ParseSignature("string -> number");
  static_assert(plain.valid);  // usable at compile time
  EXPECT_EQ(plain.arity, 0);
  EXPECT_EQ(plain.input, kTypeString);
  EXPECT_EQ(plain.output, kTypeNumber);

  BuiltinSignature with_args = ParseSignature("(string; string|null) null|array -> any");
  ASSERT_TRUE(with_args.valid);
  EXPECT_EQ(with_args.arity, 2);
  EXPECT_EQ(with_args.args[0], kTypeString);
  EXPECT_EQ(with_args.args[1], kTypeString | kTypeNull);
  EXPECT_EQ(with_args.input, kTypeNull | kTypeArray);
  EXPECT_EQ(with_args.output, kTypeAny);

  BuiltinSignature never = ParseSignature("(any) any -> none");
  ASSERT_TRUE(never.valid);
  EXPECT_EQ(never.output, kTypeNone);
}

TEST(BuiltinSignature, RejectsMalformedText) {
  for (const char* bad : {"", "string", "string ->", "-> number", "strin -> number",
                          "(string number -> any", "string -> number extra", "(a) any -> any",
                          "(any; any; any; any) any -> any", "string|  -> number"}) {
    EXPECT_FALSE(ParseSignature(bad).valid) << bad;
  }
}

TEST(BuiltinSignature, AccessorReturnsEachRowsSignature) {
  const BuiltinSignature& length = BuiltinSignatureOf(BuiltinId::Length);
  EXPECT_EQ(length.input, kTypeNull | kTypeNumber | kTypeString | kTypeArray | kTypeObject);
  EXPECT_EQ(length.output, kTypeNumber);
  EXPECT_EQ(length.input & kTypeBoolean, 0);  // `true | length` is a type error

  const BuiltinSignature& starts = BuiltinSignatureOf(BuiltinId::StartsWith);
  EXPECT_EQ(starts.arity, 1);
  EXPECT_EQ(starts.args[0], kTypeString);
  EXPECT_EQ(starts.input, kTypeString);
  EXPECT_EQ(starts.output, kTypeBoolean);

  EXPECT_EQ(BuiltinSignatureOf(BuiltinId::Keys).input, kTypeArray | kTypeObject);
  EXPECT_EQ(BuiltinSignatureOf(BuiltinId::Error).output, kTypeNone);
  // Unknown ids answer "anything goes" rather than a wrong restriction.
  EXPECT_EQ(BuiltinSignatureOf(BuiltinId::Count).input, kTypeAny);
  EXPECT_EQ(BuiltinSignatureOf(BuiltinId::Count).output, kTypeAny);
}

TEST(BuiltinSignature, EveryRowParsesWithItsArity) {
  for (const BuiltinInfo& b : AllBuiltins()) {
    const BuiltinSignature& sig = BuiltinSignatureOf(b.id);
    EXPECT_TRUE(sig.valid) << b.name;
    EXPECT_EQ(sig.arity, b.arity) << b.name;
    EXPECT_EQ(ParseSignature(b.signature).input, sig.input) << b.name;
  }
}

TEST(BuiltinSignature, TypeSetText) {
  EXPECT_EQ(TypeSetText(kTypeAny), "any");
  EXPECT_EQ(TypeSetText(kTypeNone), "none");
  EXPECT_EQ(TypeSetText(kTypeString | kTypeNull), "null|string");
  EXPECT_EQ(TypeSetText(kTypeObject), "object");
}

TEST(BuiltinTable, OneContiguousRangeInIdOrder) {
  ASSERT_EQ(AllBuiltins().size(), kBuiltinCount);
  std::set<std::string> keys;
  for (size_t i = 0; i < AllBuiltins().size(); ++i) {
    const BuiltinInfo& b = AllBuiltins()[i];
    EXPECT_EQ(static_cast<size_t>(b.id), i);
    EXPECT_STREQ(BuiltinName(b.id), b.name);
    EXPECT_EQ(BuiltinArity(b.id), b.arity);
    EXPECT_LE(b.arity, kMaxBuiltinArity);
    EXPECT_TRUE(keys.insert(std::string(b.name) + "/" + std::to_string(b.arity)).second) << b.name;
  }
  EXPECT_FALSE(IsKnownBuiltin(BuiltinId::Count));
  EXPECT_STREQ(BuiltinName(BuiltinId::Count), "?builtin");
  EXPECT_EQ(BuiltinArity(BuiltinId::Count), -1);
}

TEST(BuiltinTable, GeneratorsAreExactlyTheRanges) {
  std::set<std::string> generators;
  for (const BuiltinInfo& b : AllBuiltins()) {
    EXPECT_EQ(IsGeneratorBuiltin(b.id), b.kind == BuiltinKind::kGenerator);
    if (IsGeneratorBuiltin(b.id)) generators.insert(std::string(b.name) + "/" + std::to_string(b.arity));
  }
  EXPECT_EQ(generators, (std::set<std::string>{"range/2", "range/3"}));
  EXPECT_FALSE(IsGeneratorBuiltin(BuiltinId::Count));
}

TEST(BuiltinTable, FindBuiltinResolvesNameAndArity) {
  ASSERT_NE(FindBuiltin("range", 2), nullptr);
  EXPECT_EQ(FindBuiltin("range", 2)->id, BuiltinId::Range);
  EXPECT_EQ(FindBuiltin("range", 3)->id, BuiltinId::Range3);
  EXPECT_EQ(FindBuiltin("range", 1), nullptr);  // lowered to range(0; n)
  EXPECT_EQ(FindBuiltin("_sort_by_impl", 1)->id, BuiltinId::SortBy);
  EXPECT_EQ(FindBuiltin("sort_by", 1), nullptr);  // a prelude function, not a row
  EXPECT_EQ(FindBuiltin("length", 1), nullptr);
}

}  // namespace
}  // namespace wm::ir
