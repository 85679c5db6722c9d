// Unit tests for the Value model (runtime/value/value.h): constructors and accessors, sharing and
// copy-on-write, object lookup (small and indexed), negative array indexes, and jq's total order
// (each ordering rule was checked against /usr/bin/jq 1.6).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

#include "runtime/value/json.h"
#include "runtime/value/value.h"

namespace wm {
namespace {

Value Json(std::string_view text) {
  Value v;
  JsonError error;
  EXPECT_TRUE(ParseJson(text, &v, &error)) << text << ": " << error.message;
  return v;
}

Value Str(std::string_view s) { return Value::String(s); }
Value Num(double d) { return Value::Number(d); }

TEST(Value, LayoutIsSixteenBytesWithKindFirst) {
  EXPECT_EQ(sizeof(Value), 16u);
  Value n = Num(1.5);
  // Native code reads the kind byte at offset 0 and the payload at offset 8.
  EXPECT_EQ(*reinterpret_cast<const uint8_t*>(&n), static_cast<uint8_t>(Kind::Number));
  double payload;
  std::memcpy(&payload, reinterpret_cast<const char*>(&n) + 8, sizeof(double));
  EXPECT_EQ(payload, 1.5);
  Value s = Str("x");
  void* cell;
  std::memcpy(&cell, reinterpret_cast<const char*>(&s) + 8, sizeof(void*));
  EXPECT_EQ(cell, static_cast<void*>(s.heap_cell()));
}

TEST(Value, ScalarsAndKinds) {
  EXPECT_TRUE(Value().IsNull());
  EXPECT_EQ(Value::Null().kind(), Kind::Null);
  EXPECT_EQ(Value::Bool(true).kind(), Kind::True);
  EXPECT_EQ(Value::Bool(false).kind(), Kind::False);
  EXPECT_TRUE(Value::Bool(false).IsBool());
  EXPECT_EQ(Num(2.5).AsNumber(), 2.5);
  EXPECT_EQ(Str("héllo").AsString(), "héllo");
  EXPECT_EQ(Str("").AsString(), "");
  EXPECT_EQ(Str(std::string_view("a\0b", 3)).AsString().size(), 3u);
  EXPECT_TRUE(Value::EmptyArray().AsArray().empty());
  EXPECT_TRUE(Value::EmptyObject().AsObject().empty());
}

TEST(Value, IdenticalMeansTheSameHeapValueOrEqualScalars) {
  Value built = Value::MakeArray({Value::Number(1)});
  Value copy = built;  // shares the cell
  Value equal = Value::MakeArray({Value::Number(1)});
  EXPECT_TRUE(Identical(built, copy));
  EXPECT_FALSE(Identical(built, equal));
  EXPECT_TRUE(built == equal);
  EXPECT_TRUE(Identical(Value::Number(2), Value::Number(2)));
  EXPECT_FALSE(Identical(Value::Number(0.0), Value::Number(-0.0)));  // bitwise, as jq
  EXPECT_TRUE(Identical(Value::Null(), Value::Null()));
  EXPECT_FALSE(Identical(Value::Null(), Value::Bool(false)));
}

TEST(Value, Truthiness) {
  EXPECT_FALSE(Value().Truthy());
  EXPECT_FALSE(Value::Bool(false).Truthy());
  EXPECT_TRUE(Value::Bool(true).Truthy());
  EXPECT_TRUE(Num(0).Truthy());
  EXPECT_TRUE(Str("").Truthy());
  EXPECT_TRUE(Value::EmptyArray().Truthy());
}

TEST(Value, KindNames) {
  EXPECT_STREQ(KindName(Kind::Null), "null");
  EXPECT_STREQ(KindName(Kind::False), "boolean");
  EXPECT_STREQ(KindName(Kind::True), "boolean");
  EXPECT_STREQ(KindName(Kind::Number), "number");
  EXPECT_STREQ(KindName(Kind::String), "string");
  EXPECT_STREQ(KindName(Kind::Array), "array");
  EXPECT_STREQ(KindName(Kind::Object), "object");
}

TEST(Value, CopyShareAndMoveLeavesNull) {
  Value a = Str("shared");
  Value b = a;
  EXPECT_EQ(a.heap_cell(), b.heap_cell());
  Value c = std::move(b);
  EXPECT_TRUE(b.IsNull());  // NOLINT(bugprone-use-after-move): documented moved-from state
  EXPECT_EQ(c.AsString(), "shared");
  c = a;  // copy-assign over a live value
  c = c;  // self-assignment is harmless
  EXPECT_EQ(c.AsString(), "shared");
  Value d = Num(3);
  d = std::move(c);
  EXPECT_EQ(d.AsString(), "shared");
  // Assigning a child over its own parent must not read the child after freeing the parent.
  {
    Value nested = Value::MakeArray({Value::MakeArray({Str("kept")})});
    nested = nested.AsArray()[0];  // copy-assign
    EXPECT_EQ(ToJson(nested), R"(["kept"])");
    nested = nested.AsArray()[0];
    EXPECT_EQ(nested.AsString(), "kept");
  }
  // Move-assigning a child over its own parent must not free the child first.
  Value parent = Value::MakeArray({Value::MakeArray({Str("inner")})});
  Value child = parent.AsArray()[0];
  parent = std::move(parent.MutableArray()[0]);
  EXPECT_EQ(parent, child);
}

TEST(Value, MakeObjectDuplicateKeysLastWinsAtFirstPosition) {
  Value o = Value::MakeObject({{Str("a"), Num(1)}, {Str("b"), Num(2)}, {Str("a"), Num(3)}});
  ASSERT_EQ(o.AsObject().size(), 2u);
  EXPECT_EQ(o.AsObject()[0].first.AsString(), "a");
  EXPECT_EQ(o.AsObject()[0].second.AsNumber(), 3);
  EXPECT_EQ(o.AsObject()[1].first.AsString(), "b");
}

TEST(Value, MakeObjectDuplicatesInLargeObject) {
  std::vector<Member> members;
  for (int i = 0; i < 40; ++i) members.emplace_back(Str("k" + std::to_string(i % 30)), Num(i));
  Value o = Value::MakeObject(std::move(members));
  ASSERT_EQ(o.AsObject().size(), 30u);
  EXPECT_EQ(o.Find("k0")->AsNumber(), 30);
  EXPECT_EQ(o.Find("k9")->AsNumber(), 39);
  EXPECT_EQ(o.Find("k10")->AsNumber(), 10);
  EXPECT_EQ(o.AsObject()[5].first.AsString(), "k5");
}

TEST(Value, FindSmallAndLargeObjects) {
  for (int size : {0, 1, 15, 16, 17, 200}) {
    Value o = Value::EmptyObject();
    for (int i = 0; i < size; ++i) o.Set("key" + std::to_string(i), Num(i));
    ASSERT_EQ(o.AsObject().size(), static_cast<size_t>(size));
    for (int i = 0; i < size; ++i) {
      const Value* found = o.Find("key" + std::to_string(i));
      ASSERT_NE(found, nullptr) << size << " " << i;
      EXPECT_EQ(found->AsNumber(), i);
    }
    EXPECT_EQ(o.Find("missing"), nullptr);
    EXPECT_EQ(o.Find("key"), nullptr);
    // Insertion order is preserved.
    for (int i = 0; i < size; ++i) EXPECT_EQ(o.AsObject()[i].first.AsString(), "key" + std::to_string(i));
  }
}

TEST(Value, SetReplacesInPlaceAndAppendsNewKeysAfterIndexWasBuilt) {
  Value o = Value::EmptyObject();
  for (int i = 0; i < 20; ++i) o.Set("k" + std::to_string(i), Num(i));
  ASSERT_NE(o.Find("k3"), nullptr);  // index exists now
  o.Set("k3", Str("three"));
  o.Set("new", Num(99));
  EXPECT_EQ(o.AsObject().size(), 21u);
  EXPECT_EQ(o.AsObject()[3].second.AsString(), "three");
  EXPECT_EQ(o.Find("new")->AsNumber(), 99);
  EXPECT_EQ(o.AsObject().back().first.AsString(), "new");
  o.Set(Str("viaValueKey"), Num(7));
  EXPECT_EQ(o.Find("viaValueKey")->AsNumber(), 7);
}

TEST(Value, EraseKeepsOrderAndLookupsWork) {
  Value o = Value::EmptyObject();
  for (int i = 0; i < 20; ++i) o.Set("k" + std::to_string(i), Num(i));
  ASSERT_NE(o.Find("k19"), nullptr);
  EXPECT_TRUE(o.Erase("k5"));
  EXPECT_FALSE(o.Erase("k5"));
  EXPECT_EQ(o.Find("k5"), nullptr);
  EXPECT_EQ(o.Find("k19")->AsNumber(), 19);
  EXPECT_EQ(o.AsObject()[5].first.AsString(), "k6");
  Value small = Json(R"({"a":1,"b":2,"c":3})");
  EXPECT_TRUE(small.Erase("b"));
  EXPECT_EQ(ToJson(small), R"({"a":1,"c":3})");
}

TEST(Value, CopyOnWriteArray) {
  Value a = Json("[1,2,3]");
  Value b = a;
  b.MutableArray().push_back(Num(4));
  EXPECT_EQ(ToJson(a), "[1,2,3]");
  EXPECT_EQ(ToJson(b), "[1,2,3,4]");
  // A unique owner mutates in place: no new cell.
  detail::HeapCell* cell = b.heap_cell();
  b.MutableArray()[0] = Num(10);
  EXPECT_EQ(b.heap_cell(), cell);
  EXPECT_EQ(ToJson(b), "[10,2,3,4]");
}

TEST(Value, CopyOnWriteObject) {
  Value a = Json(R"({"x":1,"y":{"z":2}})");
  Value b = a;
  b.Set("x", Num(5));
  b.Set("w", Num(6));
  EXPECT_EQ(ToJson(a), R"({"x":1,"y":{"z":2}})");
  EXPECT_EQ(ToJson(b), R"({"x":5,"y":{"z":2},"w":6})");
  Value c = a;
  EXPECT_FALSE(c.Erase("missing"));
  EXPECT_EQ(c.heap_cell(), a.heap_cell());  // no copy for a no-op erase
  EXPECT_TRUE(c.Erase("x"));
  EXPECT_NE(c.heap_cell(), a.heap_cell());
  EXPECT_EQ(ToJson(a), R"({"x":1,"y":{"z":2}})");
  EXPECT_EQ(ToJson(c), R"({"y":{"z":2}})");
}

TEST(Value, AtNegativeIndexes) {
  Value a = Json("[10,20,30]");
  EXPECT_EQ(a.At(0)->AsNumber(), 10);
  EXPECT_EQ(a.At(2)->AsNumber(), 30);
  EXPECT_EQ(a.At(-1)->AsNumber(), 30);
  EXPECT_EQ(a.At(-3)->AsNumber(), 10);
  EXPECT_EQ(a.At(3), nullptr);
  EXPECT_EQ(a.At(-4), nullptr);
  EXPECT_EQ(a.At(INT64_MIN), nullptr);
  EXPECT_EQ(Value::EmptyArray().At(0), nullptr);
}

TEST(Value, DeepValuesAreFreedWithoutRecursion) {
  // 300k nested arrays: a recursive destructor would overflow the stack.
  Value v = Value::EmptyArray();
  for (int i = 0; i < 300000; ++i) v = Value::MakeArray({std::move(v)});
  Value copy = v;
  EXPECT_EQ(Compare(v, copy), 0);
  std::string text;
  WriteJson(Json("[[[]]]"), &text);
  EXPECT_EQ(text, "[[[]]]");
  v = Value();
  copy = Value();
}

TEST(Value, WideAndDeepMixturesAreFreed) {
  // More pending containers than the inline queue holds (exercises the overflow queue).
  Array wide;
  for (int i = 0; i < 2000; ++i) {
    wide.push_back(Value::MakeArray({Value::MakeObject({{Str("k"), Value::MakeArray({Num(i)})}})}));
  }
  Value v = Value::MakeArray(std::move(wide));
  Value shared_child = v.AsArray()[1234];
  v = Value();
  EXPECT_EQ(ToJson(shared_child), R"([{"k":[1234]}])");
}

TEST(Value, DeepObjectsCompareAndSerializeIteratively) {
  Value a = Value::EmptyObject();
  Value b = Value::EmptyObject();
  for (int i = 0; i < 200000; ++i) {
    Value na = Value::EmptyObject();
    na.Set("k", std::move(a));
    a = std::move(na);
    Value nb = Value::EmptyObject();
    nb.Set("k", std::move(b));
    b = std::move(nb);
  }
  EXPECT_EQ(Compare(a, b), 0);
  std::string text = ToJson(a);
  EXPECT_EQ(text.size(), 200000u * 6 + 2);
}

// ---- ordering (jq's): checked with `jq -n '...'` on jq 1.6.

int Cmp(std::string_view a, std::string_view b) { return Compare(Json(a), Json(b)); }

TEST(Compare, KindsInJqOrder) {
  const char* ordered[] = {"null", "false", "true", "-1e300", "0", "\"\"", "[]", "{}"};
  for (size_t i = 0; i < std::size(ordered); ++i) {
    for (size_t j = 0; j < std::size(ordered); ++j) {
      int expected = i < j ? -1 : (i == j ? 0 : 1);
      EXPECT_EQ(Cmp(ordered[i], ordered[j]), expected) << ordered[i] << " vs " << ordered[j];
    }
  }
}

TEST(Compare, Numbers) {
  EXPECT_EQ(Cmp("1", "2"), -1);
  EXPECT_EQ(Cmp("2", "1"), 1);
  EXPECT_EQ(Cmp("1.0", "1"), 0);
  EXPECT_EQ(Compare(Num(-0.0), Num(0.0)), 0);
  EXPECT_EQ(Cmp("-1e1000", "-1e300"), -1);
}

TEST(Compare, NanIsBelowEveryNumberAndUnequalToItself) {
  // jq: [(nan < 1), (1 < nan), (nan < nan), (nan == nan), (nan < -infinite)] = [true,false,true,false,true]
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_LT(Compare(Num(nan), Num(1)), 0);
  EXPECT_GT(Compare(Num(1), Num(nan)), 0);
  EXPECT_LT(Compare(Num(nan), Num(nan)), 0);
  EXPECT_NE(Num(nan), Num(nan));
  EXPECT_LT(Compare(Num(nan), Num(-inf)), 0);
  EXPECT_GT(Compare(Num(nan), Value()), 0);  // still a number: above null
  Value a = Value::MakeArray({Num(nan)});
  EXPECT_NE(a, a);  // jq: [nan] == [nan] is false, even for the same value
}

TEST(Compare, StringsBytewise) {
  EXPECT_EQ(Cmp(R"("a")", R"("ab")"), -1);
  EXPECT_EQ(Cmp(R"("ab")", R"("b")"), -1);
  EXPECT_EQ(Cmp(R"("é")", R"("z")"), 1);  // jq: "é" < "z" is false (0xC3 > 0x7A)
  EXPECT_EQ(Cmp(R"("Z")", R"("a")"), -1);
  EXPECT_EQ(Cmp(R"("\u0000")", R"("")"), 1);
  EXPECT_EQ(Cmp(R"("same")", R"("same")"), 0);
}

TEST(Compare, ArraysLexicographic) {
  EXPECT_EQ(Cmp("[1,2]", "[1,2,0]"), -1);
  EXPECT_EQ(Cmp("[1,3]", "[1,2,0]"), 1);
  EXPECT_EQ(Cmp("[]", "[null]"), -1);
  EXPECT_EQ(Cmp("[[1],2]", "[[1],2]"), 0);
  EXPECT_EQ(Cmp("[[1,[2]],2]", "[[1,[3]],0]"), -1);
}

TEST(Compare, ObjectsByKeySetThenValues) {
  EXPECT_EQ(Cmp(R"({"a":2})", R"({"b":1})"), -1);           // keys ["a"] < ["b"]
  EXPECT_EQ(Cmp(R"({"a":1,"b":2})", R"({"a":2})"), 1);      // ["a"] < ["a","b"]
  EXPECT_EQ(Cmp(R"({"b":1})", R"({"a":1,"c":0})"), 1);      // ["b"] > ["a","c"]
  EXPECT_EQ(Cmp(R"({"a":1,"b":2})", R"({"a":1,"b":3})"), -1);
  EXPECT_EQ(Cmp(R"({"b":1,"a":3})", R"({"a":2,"b":5})"), 1);  // values in sorted key order
  EXPECT_EQ(Cmp(R"({"b":1,"a":2})", R"({"a":2,"b":1})"), 0);  // insertion order is irrelevant
  EXPECT_EQ(Cmp(R"({"a":{"x":[1]}})", R"({"a":{"x":[1]}})"), 0);
  EXPECT_EQ(Cmp(R"({"a":{"x":[1]}})", R"({"a":{"x":[0,5]}})"), 1);
}

TEST(Value, ConcurrentFindOnSharedLargeObject) {
  // A shared constant whose index is built lazily by whichever thread looks first.
  std::vector<Member> members;
  for (int i = 0; i < 100; ++i) members.emplace_back(Str("k" + std::to_string(i)), Num(i));
  const Value shared = Value::MakeObject(std::move(members));
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&shared, &failures] {
      for (int round = 0; round < 50; ++round) {
        Value copy = shared;
        for (int i = 0; i < 100; ++i) {
          const Value* v = copy.Find("k" + std::to_string(i));
          if (v == nullptr || v->AsNumber() != i) failures++;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

// StringField / StringAt: how names, uids and kinds are read; anything but a string reads as "".
TEST(Value, StringFieldAndStringAtReadTextOrNothing) {
  Value pod = Json(R"({"kind":"Pod","metadata":{"name":"p-0","uid":7,"labels":null},"spec":[1]})");
  EXPECT_EQ(StringField(pod, "kind"), "Pod");
  EXPECT_EQ(StringField(pod, "apiVersion"), "");    // absent
  EXPECT_EQ(StringField(pod, "metadata"), "");      // an object
  EXPECT_EQ(StringField(Value::Number(1), "kind"), "");  // not an object
  EXPECT_EQ(StringAt(pod, {"metadata", "name"}), "p-0");
  EXPECT_EQ(StringAt(pod, {"metadata", "uid"}), "");        // a number
  EXPECT_EQ(StringAt(pod, {"metadata", "labels", "x"}), "");  // through null
  EXPECT_EQ(StringAt(pod, {"spec", "x"}), "");               // through an array
  EXPECT_EQ(StringAt(pod, {"kind"}), "Pod");
  EXPECT_EQ(StringAt(Value::String("top"), {}), "top");      // the empty path: the value itself
}

}  // namespace
}  // namespace wm

namespace wm {
namespace {

// SortKeysDeep: the key order of a Go map round trip, at every depth; sorted parts are shared.
TEST(SortKeysDeep, SortsEveryObjectAndSharesSortedSubtrees) {
  Value sorted_leaf = Value::MakeObject({{Value::String("a"), Value::Number(1)}, {Value::String("b"), Value::Number(2)}});
  Value input = Value::MakeObject({
      {Value::String("z"), Value::MakeArray({Value::MakeObject({{Value::String("y"), Value::Null()},
                                                                {Value::String("x"), Value::Bool(true)}})})},
      {Value::String("B"), sorted_leaf},
      {Value::String("a"), Value::String("s")},
  });
  Value out = SortKeysDeep(input);
  const auto& members = out.AsObject();
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[0].first.AsString(), "B");  // bytewise: uppercase first, as Go sorts
  EXPECT_EQ(members[1].first.AsString(), "a");
  EXPECT_EQ(members[2].first.AsString(), "z");
  const Value& nested = members[2].second.AsArray()[0];
  EXPECT_EQ(nested.AsObject()[0].first.AsString(), "x");
  EXPECT_TRUE(Identical(members[0].second, sorted_leaf));  // already sorted: shared, not copied
  EXPECT_EQ(input.AsObject()[0].first.AsString(), "z");   // the input keeps its order
  EXPECT_TRUE(Identical(SortKeysDeep(out), out));          // sorting a sorted value is free
  EXPECT_EQ(out, input);                                   // same members: equal as jq compares
}

}  // namespace
}  // namespace wm

