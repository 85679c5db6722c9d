// Builtins through the interpreter where jq 1.7 is the reference (cases where 1.6 differs or is
// not the point): each native and prelude builtin at least once, including its error text.
#include <gtest/gtest.h>

#include "tests/unit/eval/eval_test_util.h"

namespace wm {
namespace {

using testing::Jq;

TEST(Builtins, Issue2Slice) {
  EXPECT_EQ(Jq("length", R"([1,2])"), "2");
  EXPECT_EQ(Jq("not", "false"), "true");
  EXPECT_EQ(Jq("tostring", "1.5"), R"("1.5")");
  EXPECT_EQ(Jq("to_entries", "[5]"), R"([{"key":0,"value":5}])");
  EXPECT_EQ(Jq("keys", R"({"b":1,"a":2})"), R"(["a","b"])");
  EXPECT_EQ(Jq("has(\"a\")", R"({"a":null})"), "true");
  EXPECT_EQ(Jq("type", "[]"), R"("array")");
  EXPECT_EQ(Jq("add", R"(["a","b"])"), R"("ab")");
  EXPECT_EQ(Jq("tonumber", R"("42")"), "42");
  EXPECT_EQ(Jq("tojson", R"({"a":[1]})"), R"("{\"a\":[1]}")");
}

TEST(Builtins, JqSevenBehaviour) {
  EXPECT_EQ(Jq("[limit(0; 1, 2)]"), "[]");
  EXPECT_EQ(Jq("reverse", R"("abc")"), R"("cba")");
  // The 1.7 manual (Recursion) defines repeat(f) as `def _repeat: f, _repeat;`: f applies to
  // the same input each time.
  EXPECT_EQ(Jq("[limit(4; repeat(. * 2))]", "1"), "[2,2,2,2]");
  EXPECT_EQ(Jq("[limit(3; repeat(1, 2))]"), "[1,2,1]");
  // 1.7 NEWS: nth past the end is empty; `|= empty` deletes, all deletions at the end.
  EXPECT_EQ(Jq("[nth(5; 1, 2)]"), "[]");
  EXPECT_EQ(Jq("(.[] | select(. >= 2)) |= empty", "[1,5,3,0,7]"), "[1,0]");
  // 1.7 manual (sub): one result per output of the replacement stream.
  EXPECT_EQ(Jq("[sub(\"(?<a>.)\"; \"\\(.a|ascii_upcase)\", \"\\(.a|ascii_downcase)\")]", R"("aB")"),
            R"(["AB","aB"])");
  EXPECT_EQ(Jq("\"b a r\" as $bar | {$bar: 1}"), R"({"b a r":1})");
  // The jq 1.7 manual: from_entries accepts "key", "Key", "name", "Name", "value" and "Value"
  // (as 1.6 does); a key that is missing or not a string is an error.
  EXPECT_EQ(Jq("from_entries", R"([{"Key":"a","Value":1},{"name":"b","value":2},{"Name":"c"}])"),
            R"({"a":1,"b":2,"c":null})");
  EXPECT_EQ(Jq("from_entries", R"([{"k":"a","v":1}])"), "error: Cannot use null (null) as object key");
  EXPECT_EQ(Jq("to_entries | from_entries", "[1,2]"), "error: Cannot use number (0) as object key");
  EXPECT_EQ(Jq("pick(.a, .b.c)", R"({"a":1,"b":{"c":2,"d":3},"e":4})"), R"({"a":1,"b":{"c":2}})");
  EXPECT_EQ(Jq("[.[] | abs]", "[-1, 2, -0.5]"), "[1,2,0.5]");
  EXPECT_EQ(Jq("[.[] | toarray]", R"([1, [2]])"), "[[1],[2]]");
  EXPECT_EQ(Jq("trim, ltrim, rtrim", R"("  a  ")"), R"("a" "a  " "  a")");
  EXPECT_EQ(Jq("have_decnum"), "false");
  EXPECT_EQ(Jq("gsub(\"\"; \"-\")", R"("abc")"), R"("-a-b-c-")");
  EXPECT_EQ(Jq("[match(\"\"; \"g\")] | length", R"("abc")"), "4");
  EXPECT_EQ(Jq("splits(1)"), "error: null (null) cannot be matched, as it is not a string");
  EXPECT_EQ(Jq("nth(-1; 1)"), "error: Out of bounds negative array index");
  EXPECT_EQ(Jq("ascii_downcase", "1"), "error: ascii_downcase input must be a string");
  EXPECT_EQ(Jq("test(\"(\")", R"("x")"),
            "error: ( (at offset 0) is not a valid regex: end pattern with unmatched parenthesis");
  EXPECT_EQ(Jq("test(\"a\"; \"q\")", R"("a")"), "error: q is not a valid modifier string");
  EXPECT_EQ(Jq("1 % 0"), "error: number (1) and number (0) cannot be divided because the divisor is zero");
  EXPECT_EQ(Jq("65 | ascii"), R"("A")");
  EXPECT_EQ(Jq("indices(\"é\")", R"("aéé")"), "[1,2]");
  EXPECT_EQ(Jq("getpath([\"a\",\"b\"])", R"({"a":1})"), R"(error: Cannot index number with "b")");
}

TEST(Builtins, Math) {
  EXPECT_EQ(Jq("[.[] | floor, ceil, round, trunc]", "[1.5]"), "[1,2,2,1]");
  EXPECT_EQ(Jq("sqrt, cbrt", "64"), "8 4");
  EXPECT_EQ(Jq("[pow(2; 0.5), log2, exp2, exp10]", "3"), "[1.4142135623730951,1.584962500721156,8,1000]");
  EXPECT_EQ(Jq("[sin, cos, tan, asin, acos, atan] | map(. * 1000 | round)", "0.5"), "[479,878,546,524,1047,464]");
  EXPECT_EQ(Jq("[fmin(1; 2), fmax(1; 2), fmod(7; 3), hypot(3; 4), copysign(1; -2), fma(2; 3; 4)]"), "[1,2,1,5,-1,10]");
  EXPECT_EQ(Jq("frexp, modf, lgamma_r", "8"), "[0.5,4] [0,8] [8.525161361065413,1]");
  EXPECT_EQ(Jq("[infinite, -infinite, nan] | map(isinfinite, isnan, isnormal)"),
            "[true,false,false,true,false,false,false,true,false]");
  EXPECT_EQ(Jq("significand", "12"), "1.5");
  EXPECT_EQ(Jq("sqrt", R"("a")"), R"(error: string ("a") number required)");
  // jq answers false rather than a type error for non-numbers.
  EXPECT_EQ(Jq("[.[] | isnan, isinfinite, isnormal] | any", R"(["a",null,[1],{}])"), "false");
}

TEST(Builtins, EdgesOfInputKinds) {
  EXPECT_EQ(Jq("has(\"a\"), has(0), has([])"), "false false false");
  EXPECT_EQ(Jq("index(\",\"), rindex(\",\"), indices(\",\")", "{}"), "null null null");
  EXPECT_EQ(Jq("index(\",\")", R"({",":3})"), "error: Cannot index number with number");
  EXPECT_EQ(Jq("indices(1)", R"([0,1,1])"), "[1,2]");
  EXPECT_EQ(Jq(".[null]"), "error: Cannot index null with null");
  EXPECT_EQ(Jq(".[{}]", "[1,2]"), "error: Start and end indices of an array slice must be numbers");
  EXPECT_EQ(Jq(".[{\"start\":1}]", "[1,2]"), "error: Start and end indices of an array slice must be numbers");
  EXPECT_EQ(Jq(".[{\"start\":1,\"end\":null}]", "[1,2]"), "[2]");
  EXPECT_EQ(Jq(".[[]], .[[3]], .[[1]]", "[1,2,1]"), "[] [] [0,2]");
  EXPECT_EQ(Jq("inside({\"k1\":10})", R"({"k1":{"c":1}})"), "false");
  EXPECT_EQ(Jq("[true] | contains([false])"), "false");
  EXPECT_EQ(Jq("true | contains(false)"),
            "error: boolean (true) and boolean (false) cannot have their containment checked");
  EXPECT_EQ(Jq("delpaths([[], [0,0]])", "{}"), "null");
  EXPECT_EQ(Jq("delpaths([[0,0]])", "{}"), "error: Cannot index object with number");
  // jq checks every path before deleting anything (after sorting them: 1 sorts before []).
  EXPECT_EQ(Jq("delpaths([[], 1])", "{}"), "error: Path must be specified as array, not number");
  EXPECT_EQ(Jq("@tsv \"a\\(1)\""), "error: number (1) cannot be tsv-formatted, only an array can be");
  EXPECT_EQ(Jq("@csv \"a\\(.)\"", "[1,\"b\"]"), R"("a1,\"b\"")");
}

TEST(Builtins, SortingAndGrouping) {
  EXPECT_EQ(Jq("sort", R"([{"a":1},[2],"s",3,true,false,null])"), R"([null,false,true,3,"s",[2],{"a":1}])");
  EXPECT_EQ(Jq("sort_by(.n)", R"([{"n":2,"i":0},{"n":1,"i":1},{"n":2,"i":2}])"),
            R"([{"n":1,"i":1},{"n":2,"i":0},{"n":2,"i":2}])");
  EXPECT_EQ(Jq("group_by(. % 2)", "[1,2,3,4]"), "[[2,4],[1,3]]");
  EXPECT_EQ(Jq("unique_by(length)", R"(["ab","c","de"])"), R"(["c","ab"])");
  EXPECT_EQ(Jq("min_by(.x), max_by(.x)", R"([{"x":1,"i":0},{"x":1,"i":1},{"x":0,"i":2},{"x":2,"i":3},{"x":2,"i":4}])"),
            R"({"x":0,"i":2} {"x":2,"i":4})");
  EXPECT_EQ(Jq("sort", "{}"), "error: object ({}) cannot be sorted, as it is not an array");
  EXPECT_EQ(Jq("min", "1"), "error: number (1) and number (1) cannot be iterated over");
}

TEST(Builtins, StringsAndRegex) {
  EXPECT_EQ(Jq("[match(\"(a)(x)?\"; \"g\")] | length, .[0].captures[1]", R"("aa")"),
            R"(2 {"offset":-1,"length":0,"string":null,"name":null})");
  EXPECT_EQ(Jq("match(\"é(?<n>b)\") | .offset, .captures[0].offset", R"("aéb")"), "1 2");
  EXPECT_EQ(Jq("capture(\"(?<a>\\\\d+)\")", R"("x12")"), R"({"a":"12"})");
  EXPECT_EQ(Jq("[scan(\"\\\\d\")]", R"("a1b2")"), R"(["1","2"])");
  EXPECT_EQ(Jq("sub(\"(?<x>a)\"; \"\\(.x)\\(.x)\", \"-\")", R"("ab")"), R"("aab" "-b")");
  EXPECT_EQ(Jq("split(\"a+\"; \"g\")", R"("baab")"), R"(["b","b"])");
  EXPECT_EQ(Jq("test(\"B\"; \"ix\")", R"("a b")"), "true");
  EXPECT_EQ(Jq("[.[] | utf8bytelength]", R"(["é","abc"])"), "[2,3]");
  EXPECT_EQ(Jq("implode", "[1114112]"), R"("�")");
  EXPECT_EQ(Jq("ltrimstr(\"a\"), rtrimstr(1)", R"("ab")"), R"("b" "ab")");
  EXPECT_EQ(Jq("startswith(1)", R"("a")"), "error: startswith() requires string inputs");
  EXPECT_EQ(Jq("@base32d", R"("MFRGGZDFMY======")"), R"("abcdef")");
}

TEST(Builtins, Dates) {
  EXPECT_EQ(Jq("todate", "0"), R"("1970-01-01T00:00:00Z")");
  EXPECT_EQ(Jq("gmtime", "1425599621.25"), "[2015,2,5,23,53,41.25,4,63]");
  EXPECT_EQ(Jq("strptime(\"%Y-%m-%d\") | mktime", R"("2020-02-29")"), "1582934400");
  EXPECT_EQ(Jq("strftime(\"%H:%M\")", "[2020,0,1,13,5,0,3,0]"), R"("13:05")");
  EXPECT_EQ(Jq("mktime", R"("x")"), "error: mktime requires array inputs");
  EXPECT_EQ(Jq("strptime(\"%Y\")", R"("x")"), R"(error: date "x" does not match format "%Y")");
  EXPECT_EQ(Jq("now | type"), R"("number")");
  EXPECT_EQ(Jq("localtime | length", "0"), "8");
}

TEST(Builtins, PathsAndStreams) {
  EXPECT_EQ(Jq("setpath([\"a\", 1]; 5)"), R"({"a":[null,5]})");
  EXPECT_EQ(Jq("setpath([-1]; 1)", "[]"), "error: Out of bounds negative array index");
  EXPECT_EQ(Jq("delpaths([[\"a\"]])", "1"), "error: Cannot delete fields from number");
  EXPECT_EQ(Jq("delpaths([[0]])", "{}"), "error: Cannot delete number field of object");
  EXPECT_EQ(Jq("[tostream]", "[]"), "[[[],[]]]");
  EXPECT_EQ(Jq("[getpath([\"a\"], [\"b\"])]", R"({"a":1})"), "[1,null]");
  EXPECT_EQ(Jq("[paths]", "[[1]]"), "[[0],[0,0]]");
  EXPECT_EQ(Jq("[splits(\", \")]", R"("a, b")"), R"(["a","b"])");
  EXPECT_EQ(Jq("builtins | map(select(. == \"map/1\" or . == \"length/0\")) | sort"), R"(["length/0","map/1"])");
  EXPECT_EQ(Jq("env | type, ($ENV | type)"), R"("object" "object")");
  EXPECT_EQ(Jq("flatten(-1)", "[[1]]"), "error: flatten depth must not be negative");
}

}  // namespace
}  // namespace wm
