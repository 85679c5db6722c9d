// Unit tests of the value-level ops (runtime/eval/ops.h): results and jq 1.7's error wording.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/eval/ops.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

Value J(const char* json) {
  Value v;
  JsonError e;
  EXPECT_TRUE(ParseJson(json, &v, &e)) << json;
  return v;
}

std::string BinaryResult(ir::BinaryOp op, const char* a, const char* b) {
  Value out, err;
  if (!ops::Binary(op, J(a), J(b), &out, &err)) return "error: " + std::string(err.AsString());
  return ToJson(out);
}

std::string IndexResult(const char* t, const char* k) {
  Value out, err;
  if (!ops::Index(J(t), J(k), &out, &err)) return "error: " + std::string(err.AsString());
  return ToJson(out);
}

TEST(Ops, IndexObjectsArraysNull) {
  EXPECT_EQ(IndexResult(R"({"a":1})", R"("a")"), "1");
  EXPECT_EQ(IndexResult(R"({"a":1})", R"("b")"), "null");
  EXPECT_EQ(IndexResult("[1,2,3]", "-1"), "3");
  EXPECT_EQ(IndexResult("[1,2,3]", "1.7"), "2");
  EXPECT_EQ(IndexResult("[1,2,3]", "5"), "null");
  EXPECT_EQ(IndexResult("null", R"("a")"), "null");
  EXPECT_EQ(IndexResult("null", "0"), "null");
  EXPECT_EQ(IndexResult("[1,2,1,2]", "[1,2]"), "[0,2]");
  EXPECT_EQ(IndexResult("[1,2,3]", R"({"start":1,"end":null})"), "[2,3]");
}

TEST(Ops, IndexErrorsUseJqWording) {
  EXPECT_EQ(IndexResult("1", R"("a")"), R"(error: Cannot index number with "a")");
  EXPECT_EQ(IndexResult("{}", "0"), "error: Cannot index object with number");
  EXPECT_EQ(IndexResult(R"("abc")", "0"), "error: Cannot index string with number");
  EXPECT_EQ(IndexResult("[]", R"("a")"), R"(error: Cannot index array with "a")");
  EXPECT_EQ(IndexResult("true", "null"), "error: Cannot index boolean with null");
}

TEST(Ops, SliceByCodepointsAndBounds) {
  Value out, err;
  ASSERT_TRUE(ops::Slice(J(R"("aéc")"), J("1"), J("null"), &out, &err));
  EXPECT_EQ(ToJson(out), R"("éc")");
  ASSERT_TRUE(ops::Slice(J("[1,2,3]"), J("1.2"), J("2.8"), &out, &err));
  EXPECT_EQ(ToJson(out), "[2,3]");
  ASSERT_TRUE(ops::Slice(J("[1,2,3,4,5]"), J("-2"), J("null"), &out, &err));
  EXPECT_EQ(ToJson(out), "[4,5]");
  ASSERT_TRUE(ops::Slice(J("null"), J("1"), J("2"), &out, &err));
  EXPECT_EQ(ToJson(out), "null");
  EXPECT_FALSE(ops::Slice(J("{}"), J("1"), J("2"), &out, &err));
  EXPECT_EQ(err.AsString(), "Cannot index object with object");
  EXPECT_FALSE(ops::Slice(J("[1]"), J(R"("a")"), J("2"), &out, &err));
  EXPECT_EQ(err.AsString(), "Start and end indices of an array slice must be numbers");
}

TEST(Ops, Iterate) {
  Array items;
  Value err;
  ASSERT_TRUE(ops::IterateInto(J(R"({"a":1,"b":[2]})"), &items, &err));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(ToJson(items[1]), "[2]");
  EXPECT_FALSE(ops::IterateInto(J("1"), &items, &err));
  EXPECT_EQ(err.AsString(), "Cannot iterate over number (1)");
  EXPECT_FALSE(ops::IterateInto(J("null"), &items, &err));
  EXPECT_EQ(err.AsString(), "Cannot iterate over null");
}

TEST(Ops, Addition) {
  using ir::BinaryOp;
  EXPECT_EQ(BinaryResult(BinaryOp::Add, "null", "1"), "1");
  EXPECT_EQ(BinaryResult(BinaryOp::Add, "1", "null"), "1");
  EXPECT_EQ(BinaryResult(BinaryOp::Add, R"("a")", R"("b")"), R"("ab")");
  EXPECT_EQ(BinaryResult(BinaryOp::Add, "[1]", "[2]"), "[1,2]");
  EXPECT_EQ(BinaryResult(BinaryOp::Add, R"({"a":1,"b":2})", R"({"a":3})"), R"({"a":3,"b":2})");
  EXPECT_EQ(BinaryResult(BinaryOp::Add, "{}", "1"), "error: object ({}) and number (1) cannot be added");
}

TEST(Ops, SubtractionMultiplicationDivision) {
  using ir::BinaryOp;
  EXPECT_EQ(BinaryResult(BinaryOp::Sub, "[1,2,1,3]", "[1]"), "[2,3]");
  EXPECT_EQ(BinaryResult(BinaryOp::Sub, "{}", "1"), "error: object ({}) and number (1) cannot be subtracted");
  EXPECT_EQ(BinaryResult(BinaryOp::Sub, R"({"aaaaaaaaaaaaaaaaa":1})", "1"),
            R"(error: object ({"aaaaaaaaa...) and number (1) cannot be subtracted)");
  EXPECT_EQ(BinaryResult(BinaryOp::Mul, R"("ab")", "2.5"), R"("abab")");
  EXPECT_EQ(BinaryResult(BinaryOp::Mul, "2", R"("ab")"), R"("abab")");
  EXPECT_EQ(BinaryResult(BinaryOp::Mul, R"("x")", "0"), "null");
  EXPECT_EQ(BinaryResult(BinaryOp::Mul, R"("x")", "-1"), "null");
  EXPECT_EQ(BinaryResult(BinaryOp::Mul, R"({"a":{"b":1}})", R"({"a":{"c":2}})"), R"({"a":{"b":1,"c":2}})");
  EXPECT_EQ(BinaryResult(BinaryOp::Mul, "null", "2"), "error: null (null) and number (2) cannot be multiplied");
  EXPECT_EQ(BinaryResult(BinaryOp::Div, "1", "0"),
            "error: number (1) and number (0) cannot be divided because the divisor is zero");
  EXPECT_EQ(BinaryResult(BinaryOp::Div, R"("a,b")", R"(",")"), R"(["a","b"])");
  EXPECT_EQ(BinaryResult(BinaryOp::Div, R"("")", R"(",")"), "[]");
  EXPECT_EQ(BinaryResult(BinaryOp::Div, R"("a")", "0"), R"(error: string ("a") and number (0) cannot be divided)");
}

TEST(Ops, ModuloTruncatesLikeJq) {
  using ir::BinaryOp;
  EXPECT_EQ(BinaryResult(BinaryOp::Mod, "5", "-2"), "1");
  EXPECT_EQ(BinaryResult(BinaryOp::Mod, "-5", "2"), "-1");
  EXPECT_EQ(BinaryResult(BinaryOp::Mod, "5.5", "2.7"), "1");
  EXPECT_EQ(BinaryResult(BinaryOp::Mod, "1", "0.4"),
            "error: number (1) and number (0.4) cannot be divided because the divisor is zero");
}

TEST(Ops, ComparisonsUseJqOrder) {
  using ir::BinaryOp;
  EXPECT_EQ(BinaryResult(BinaryOp::Lt, "null", "false"), "true");
  EXPECT_EQ(BinaryResult(BinaryOp::Lt, "{}", "[]"), "false");
  EXPECT_EQ(BinaryResult(BinaryOp::Eq, "[1,{\"a\":2}]", "[1,{\"a\":2}]"), "true");
  EXPECT_EQ(BinaryResult(BinaryOp::Ge, R"("b")", R"("a")"), "true");
}

TEST(Ops, Negate) {
  Value out, err;
  ASSERT_TRUE(ops::Negate(J("2"), &out, &err));
  EXPECT_EQ(ToJson(out), "-2");
  EXPECT_FALSE(ops::Negate(J(R"("a")"), &out, &err));
  EXPECT_EQ(err.AsString(), R"(string ("a") cannot be negated)");
}

std::string Format(const char* name, const char* json) {
  Value out, err;
  if (!ops::ApplyFormat(name, J(json), &out, &err)) return "error: " + std::string(err.AsString());
  return std::string(out.AsString());
}

TEST(Ops, Formats) {
  EXPECT_EQ(Format("text", "[1,2]"), "[1,2]");
  EXPECT_EQ(Format("json", R"("a")"), R"("a")");
  EXPECT_EQ(Format("html", R"("<&>'\"")"), "&lt;&amp;&gt;&apos;&quot;");
  EXPECT_EQ(Format("uri", R"("a b/é~")"), "a%20b%2F%C3%A9~");
  EXPECT_EQ(Format("csv", R"([1,"a\"b",null,true])"), R"(1,"a""b",,true)");
  EXPECT_EQ(Format("tsv", R"(["a\tb","c\\d"])"), "a\\tb\tc\\\\d");
  EXPECT_EQ(Format("csv", "[[1]]"), "error: array ([1]) is not valid in a csv row");
  EXPECT_EQ(Format("csv", "1"), "error: number (1) cannot be csv-formatted, only an array can be");
  EXPECT_EQ(Format("sh", R"([1,"it's"])"), "1 'it'\\''s'");
  EXPECT_EQ(Format("sh", "{}"), "error: object ({}) can not be escaped for shell");
  EXPECT_EQ(Format("base64", R"("é")"), "w6k=");
  EXPECT_EQ(Format("base64d", R"("YWJj")"), "abc");
  EXPECT_EQ(Format("base64d", R"("YWJ")"), "ab");
  EXPECT_EQ(Format("base32", R"("abc")"), "MFRGG===");
  EXPECT_EQ(Format("base32d", R"("MFRGG===")"), "abc");
  EXPECT_EQ(Format("nope", "1"), "error: nope is not a valid format");
}

std::string Builtin(ir::BuiltinId id, const char* input, std::vector<const char*> args = {}) {
  std::vector<Value> values;
  for (const char* a : args) values.push_back(J(a));
  Value out, err;
  if (!ops::CallBuiltin(id, J(input), values.data(), values.size(), &out, &err)) {
    return "error: " + (err.IsString() ? std::string(err.AsString()) : ToJson(err));
  }
  return ToJson(out);
}

TEST(Ops, CallBuiltinBasics) {
  using B = ir::BuiltinId;
  EXPECT_EQ(Builtin(B::Length, R"("aé")"), "2");
  EXPECT_EQ(Builtin(B::Length, "-3"), "3");
  EXPECT_EQ(Builtin(B::Length, "true"), "error: boolean (true) has no length");
  EXPECT_EQ(Builtin(B::Keys, R"({"b":1,"a":2})"), R"(["a","b"])");
  EXPECT_EQ(Builtin(B::KeysUnsorted, R"({"b":1,"a":2})"), R"(["b","a"])");
  EXPECT_EQ(Builtin(B::Has, "[1,2]", {"1"}), "true");
  EXPECT_EQ(Builtin(B::Has, "{}", {"1"}), "error: Cannot check whether object has a number key");
  EXPECT_EQ(Builtin(B::Add, "[1,2,3]"), "6");
  EXPECT_EQ(Builtin(B::Add, "[]"), "null");
  EXPECT_EQ(Builtin(B::Type, "{}"), R"("object")");
  EXPECT_EQ(Builtin(B::ToString, "[1]"), R"("[1]")");
  EXPECT_EQ(Builtin(B::ToNumber, R"("12.5")"), "12.5");
  EXPECT_EQ(Builtin(B::ToNumber, "[]"), "error: array ([]) cannot be parsed as a number");
  EXPECT_EQ(Builtin(B::ToJson, R"({"a":[1,"x"]})"), R"("{\"a\":[1,\"x\"]}")");
  EXPECT_EQ(Builtin(B::Not, "null"), "true");
  EXPECT_EQ(Builtin(B::Pow, "null", {"2", "10"}), "1024");
  EXPECT_EQ(Builtin(B::Floor, R"("a")"), R"(error: string ("a") number required)");
  EXPECT_EQ(Builtin(B::Contains, R"("foobar")", {R"("bar")"}), "true");
  EXPECT_EQ(Builtin(B::Contains, "true", {"false"}),
            "error: boolean (true) and boolean (false) cannot have their containment checked");
  EXPECT_EQ(Builtin(B::Split, R"("a,b")", {R"(",")"}), R"(["a","b"])");
  EXPECT_EQ(Builtin(B::Join, R"([1,null,true,"a"])", {R"("-")"}), R"("1--true-a")");
  EXPECT_EQ(Builtin(B::Join, "[{}]", {R"(",")"}), R"(error: string ("") and object ({}) cannot be added)");
  EXPECT_EQ(Builtin(B::Implode, R"(["a"])"),
            R"(error: string ("a") can't be imploded, unicode codepoint needs to be numeric)");
  EXPECT_EQ(Builtin(B::Error, "null", {R"({"a":1})"}), R"(error: {"a":1})");
}

}  // namespace
}  // namespace wm
