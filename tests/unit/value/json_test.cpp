// Unit tests for JSON parsing and serialization (runtime/value/json.h). Expected strings were
// produced by /usr/bin/jq 1.6 (`jq -c .`, `jq .`); the property test at the end re-checks a few
// hundred random documents against jq itself in a single jq run.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "runtime/value/json.h"
#include "runtime/value/json_dom.h"

namespace wm {
namespace {

// Parses with both parser paths (simdjson fast path and the built-in parser), checks that they
// agree, and serializes.
std::string Roundtrip(std::string_view text, const JsonWriteOptions& options = {}) {
  std::string results[2];
  for (int builtin_only = 0; builtin_only < 2; ++builtin_only) {
    JsonParseOptions parse_options;
    parse_options.use_simdjson = builtin_only == 0;
    Value v;
    JsonError error;
    if (!ParseJson(text, &v, &error, parse_options)) {
      results[builtin_only] = "ERROR@" + std::to_string(error.offset) + ": " + error.message;
    } else {
      results[builtin_only] = ToJson(v, options);
    }
  }
  EXPECT_EQ(results[0], results[1]) << "parser paths disagree on: " << text;
  return results[1];
}

JsonError ParseError(std::string_view text, JsonParseOptions options = {}) {
  Value v;
  JsonError error;
  EXPECT_FALSE(ParseJson(text, &v, &error, options)) << "accepted: " << text;
  JsonError builtin_error;
  options.use_simdjson = false;
  EXPECT_FALSE(ParseJson(text, &v, &builtin_error, options)) << "accepted: " << text;
  EXPECT_EQ(error.offset, builtin_error.offset) << text;
  return error;
}

std::string Fmt(double d) {
  std::string s;
  FormatNumber(d, &s);
  return s;
}

TEST(FormatNumber, MatchesJq16) {
  // `echo X | jq -c .` on jq 1.6.
  struct Case {
    const char* input;
    const char* jq;
  } cases[] = {
      {"0", "0"},
      {"1", "1"},
      {"-0", "-0"},
      {"-0.0", "-0"},
      {"3.0", "3"},
      {"0.1", "0.1"},
      {"0.3", "0.3"},
      {"1.5", "1.5"},
      {"100", "100"},
      {"1000000", "1000000"},
      {"1e15", "1000000000000000"},
      {"12e15", "12000000000000000"},
      {"123e15", "123000000000000000"},
      {"1.5e16", "15000000000000000"},
      {"1e16", "1e+16"},
      {"1e17", "1e+17"},
      {"1e19", "1e+19"},
      {"1e20", "1e+20"},
      {"100000000000000000000", "1e+20"},
      {"100000000000000000001", "1e+20"},
      {"123456789012345678", "123456789012345680"},
      {"12345678901234567890", "12345678901234567000"},
      {"9007199254740993", "9007199254740992"},
      {"1.5e300", "1.5e+300"},
      {"1e100", "1e+100"},
      {"1e308", "1e+308"},
      {"1e-4", "0.0001"},
      {"0.00012345", "0.00012345"},
      {"0.001234", "0.001234"},
      {"1e-5", "1e-05"},
      {"0.000012345", "1.2345e-05"},
      {"1e-7", "1e-07"},
      {"-1.5e-7", "-1.5e-07"},
      {"0.000001", "1e-06"},
      {"1.0e-10", "1e-10"},
      {"123e-20", "1.23e-18"},
      {"1.2345e-100", "1.2345e-100"},
      {"2e-308", "2e-308"},
      {"5e-324", "5e-324"},
      {"-5e-324", "-5e-324"},
      {"1234567.125", "1234567.125"},
      {"1.2e3", "1200"},
      {"3.14159", "3.14159"},
      {"4.35", "4.35"},
      {"1.7976931348623157e308", "1.7976931348623157e+308"},
      {"1e1000", "1.7976931348623157e+308"},
      {"-1e1000", "-1.7976931348623157e+308"},
      {"1e-400", "0"},
  };
  for (const Case& c : cases) EXPECT_EQ(Roundtrip(c.input), c.jq) << c.input;
}

TEST(FormatNumber, SpecialValues) {
  EXPECT_EQ(Fmt(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(Fmt(std::numeric_limits<double>::infinity()), "1.7976931348623157e+308");
  EXPECT_EQ(Fmt(-std::numeric_limits<double>::infinity()), "-1.7976931348623157e+308");
  EXPECT_EQ(Fmt(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(Fmt(-0.0), "-0");
  EXPECT_EQ(Fmt(1e21), "1e+21");
  EXPECT_EQ(Fmt(-42), "-42");
}

TEST(WriteJson, StringEscapesAsJq) {
  // jq -n -c '"\u0000\u0001\u001f\u007f\u0080é\t\n\r\b\f\"\\/ \u2028 \ud83d\ude00"'
  EXPECT_EQ(Roundtrip(R"("\u0000\u0001\u001f\u001b\u000b\u007f")"),
            R"("\u0000\u0001\u001f\u001b\u000b\u007f")");
  EXPECT_EQ(Roundtrip(R"("\t\n\r\b\f\"\\\/")"), R"("\t\n\r\b\f\"\\/")");
  EXPECT_EQ(Roundtrip(R"("\u0080é\u2028\ud83d\ude00")"), "\"\xC2\x80\xC3\xA9\xE2\x80\xA8\xF0\x9F\x98\x80\"");
  EXPECT_EQ(Roundtrip(R"("\u00e9")"), "\"\xC3\xA9\"");
  EXPECT_EQ(ToJson(Value::String(std::string_view("a\0b", 3))), R"("a\u0000b")");
  // Invalid UTF-8 in a string built at run time is written as U+FFFD, never as raw bytes.
  EXPECT_EQ(ToJson(Value::String("a\xff\xc3")), "\"a\xEF\xBF\xBD\xEF\xBF\xBD\"");
  EXPECT_EQ(ToJson(Value::String("\xed\xa0\x80z\xc3\xa9")), "\"\xEF\xBF\xBDz\xC3\xA9\"");
}

// The writer skips runs of plain ASCII 16 bytes at a time: every special byte (quote, backslash,
// control, DEL, UTF-8 lead, invalid byte) at every offset of a long string, and at the ends of
// 16-byte blocks, is escaped or checked exactly as in a short string.
TEST(WriteJson, SpecialBytesAtEveryOffsetOfLongStrings) {
  const std::vector<std::pair<std::string, std::string>> specials = {
      {"\"", "\\\""}, {"\\", "\\\\"}, {"\n", "\\n"}, {std::string(1, '\0'), "\\u0000"},
      {"\x1f", "\\u001f"}, {"\x7f", "\\u007f"}, {"\xc3\xa9", "\xc3\xa9"},
      {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"}, {"\xff", "\xEF\xBF\xBD"}, {"\xc3", "\xEF\xBF\xBD"}};
  for (const auto& [raw, written] : specials) {
    for (size_t at = 0; at <= 40; ++at) {
      for (size_t tail : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}}) {
        std::string before(at, 'a'), after(tail, ' ');
        EXPECT_EQ(ToJson(Value::String(before + raw + after)), "\"" + before + written + after + "\"")
            << "offset " << at << " tail " << tail;
      }
    }
  }
  EXPECT_EQ(ToJson(Value::String(std::string(100, 'x'))), "\"" + std::string(100, 'x') + "\"");
}

TEST(WriteJson, CompactAndIndented) {
  const char* doc = R"([1,{"a":[],"b":{},"c":[1,{"d":null}]},"x",true,false])";
  EXPECT_EQ(Roundtrip(doc), doc);
  JsonWriteOptions pretty;
  pretty.indent = 2;
  EXPECT_EQ(Roundtrip(doc, pretty),
            "[\n  1,\n  {\n    \"a\": [],\n    \"b\": {},\n    \"c\": [\n      1,\n      {\n"
            "        \"d\": null\n      }\n    ]\n  },\n  \"x\",\n  true,\n  false\n]");
  EXPECT_EQ(Roundtrip("[]", pretty), "[]");
  EXPECT_EQ(Roundtrip("{}", pretty), "{}");
  EXPECT_EQ(Roundtrip("[[]]", pretty), "[\n  []\n]");
  EXPECT_EQ(Roundtrip("5", pretty), "5");
  pretty.indent = 4;
  EXPECT_EQ(Roundtrip(R"({"a":[1]})", pretty), "{\n    \"a\": [\n        1\n    ]\n}");
}

TEST(WriteJson, SortKeys) {
  JsonWriteOptions sorted;
  sorted.sort_keys = true;
  EXPECT_EQ(Roundtrip(R"({"b":1,"a":{"z":1,"y":2},"é":0,"Z":3})", sorted),
            "{\"Z\":3,\"a\":{\"y\":2,\"z\":1},\"b\":1,\"\xC3\xA9\":0}");
}

TEST(WriteJson, AppendsToExistingOutput) {
  std::string out = "prefix:";
  WriteJson(Value::Number(1), &out);
  EXPECT_EQ(out, "prefix:1");
}

TEST(ParseJson, DuplicateKeysLastWins) {
  EXPECT_EQ(Roundtrip(R"({"a":1,"b":2,"a":3})"), R"({"a":3,"b":2})");
  std::string many = "{";
  for (int i = 0; i < 40; ++i) many += "\"k" + std::to_string(i % 20) + "\":" + std::to_string(i) + ",";
  many.back() = '}';
  Value v;
  JsonError error;
  ASSERT_TRUE(ParseJson(many, &v, &error)) << error.message;
  EXPECT_EQ(v.AsObject().size(), 20u);
  EXPECT_EQ(v.Find("k0")->AsNumber(), 20);
  EXPECT_EQ(v.AsObject()[0].first.AsString(), "k0");
}

TEST(ParseJson, WhitespaceAndScalars) {
  EXPECT_EQ(Roundtrip(" \t\r\n null \n"), "null");
  EXPECT_EQ(Roundtrip("true"), "true");
  EXPECT_EQ(Roundtrip("false"), "false");
  EXPECT_EQ(Roundtrip("\"\""), "\"\"");
  EXPECT_EQ(Roundtrip("[ 1 , [ ] , { } ]"), "[1,[],{}]");
  EXPECT_EQ(Roundtrip("{ \"a\" : 1 }"), "{\"a\":1}");
  EXPECT_EQ(Roundtrip("-12.5E+2"), "-1250");
}

TEST(ParseJson, InvalidUtf8IsReplacedAsJqDoes) {
  // printf '"\xff\xfe"' | jq -c .  ->  "\uFFFD\uFFFD" (raw), and so on.
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(Roundtrip("\"\xff\xfe\""), "\"" + fffd + fffd + "\"");
  EXPECT_EQ(Roundtrip("\"a\xc3\""), "\"a" + fffd + "\"");
  EXPECT_EQ(Roundtrip("\"\xed\xa0\x80\""), "\"" + fffd + "\"");      // UTF-8 encoded surrogate
  EXPECT_EQ(Roundtrip("\"\xf4\x90\x80\x80\""), "\"" + fffd + "\"");  // above U+10FFFF
  EXPECT_EQ(Roundtrip("\"\xc0\xaf\""), "\"" + fffd + fffd + "\"");   // overlong '/'
  EXPECT_EQ(Roundtrip("\"\xe2\x82x\""), "\"" + fffd + "x\"");        // truncated sequence
  EXPECT_EQ(Roundtrip(R"("\udc00x")"), "\"" + fffd + "x\"");         // lone low surrogate
  EXPECT_EQ(Roundtrip("\"\xF0\x9F\x98\x80\""), "\"\xF0\x9F\x98\x80\"");
}

TEST(ParseJson, ErrorsCarryOffsets) {
  struct Case {
    const char* text;
    size_t offset;
  } cases[] = {
      {"", 0},           {"   ", 3},       {"[1,2,]", 5},     {"{\"a\":1,}", 7},
      {"[1 2]", 3},      {"{\"a\" 1}", 5}, {"01", 1},         {"1.", 2},
      {".5", 0},         {"-", 1},         {"nan", 0},        {"tru", 0},
      {"\"a\tb\"", 2},   {"\"\\x\"", 2},   {"\"abc", 4},      {"[1,2", 4},
      {"1 2", 2},        {"{'a':1}", 1},   {"\"\\ud800\"", 7}, {"\"\\ud800\\u0041\"", 13},
      {"\"\\u12G4\"", 3}, {"nullx", 0},    {"[1]]", 3},       {"{\"a\":}", 5},
      {"{1:2}", 1},      {"1e", 2},        {"1e+", 3},        {"-01", 2},
  };
  for (const Case& c : cases) {
    JsonError error = ParseError(c.text);
    EXPECT_EQ(error.offset, c.offset) << c.text << ": " << error.message;
    EXPECT_FALSE(error.message.empty()) << c.text;
  }
}

TEST(ParseJson, DepthLimit) {
  JsonParseOptions options;
  options.max_depth = 3;
  Value v;
  JsonError error;
  EXPECT_TRUE(ParseJson("[[[1]]]", &v, &error, options));
  EXPECT_FALSE(ParseJson("[[[[]]]]", &v, &error, options));  // empty containers count too
  error = ParseError("[[[[1]]]]", options);
  EXPECT_EQ(error.offset, 3u);
  EXPECT_NE(error.message.find("depth"), std::string::npos);
  // Default limit: deep input is rejected, never a crash.
  std::string deep(100000, '[');
  error = ParseError(deep);
  EXPECT_NE(error.message.find("depth"), std::string::npos);
  // Within a large explicit limit, the iterative parser and writer handle deep nesting.
  options.max_depth = 100000;
  std::string ok = std::string(50000, '[') + std::string(50000, ']');
  ASSERT_TRUE(ParseJson(ok, &v, &error, options)) << error.message;
  EXPECT_EQ(ToJson(v), ok);
}

// ParseJsonNumber (tonumber's quick path) gives exactly ParseJson's number, sign included, for
// every text that is one JSON number, and refuses everything else (left to ParseJson, which also
// accepts surrounding whitespace).
// Workload objects are strict JSON; `fromjson` reads number tokens as jq's reader does
// (jq_number_tokens), with and without the simdjson fast path, and still refuses what jq refuses.
TEST(ParseJson, JqNumberTokensOnlyWhenAsked) {
  JsonParseOptions jq;
  jq.jq_number_tokens = true;
  for (bool simdjson : {true, false}) {
    jq.use_simdjson = simdjson;
    JsonParseOptions strict;
    strict.use_simdjson = simdjson;
    const std::vector<std::pair<std::string, std::string>> lenient = {
        {"007", "7"}, {"+1", "1"}, {"1.", "1"}, {".5", "0.5"}, {"-.5e1", "-5"}, {"NaN", "null"},
        {"-Infinity", "-1.7976931348623157e+308"}, {"[007, +1,.5]", "[7,1,0.5]"}, {"{\"a\":+0}", "{\"a\":0}"},
        {" -0 ", "-0"}, {"[1e999]", "[1.7976931348623157e+308]"}, {"[true,null,false]", "[true,null,false]"}};
    for (const auto& [text, json] : lenient) {
      Value value;
      JsonError error;
      ASSERT_TRUE(ParseJson(text, &value, &error, jq)) << text << ": " << error.message;
      EXPECT_EQ(ToJson(value), json) << text;
      if (text != " -0 " && text != "[1e999]" && text != "[true,null,false]") {
        EXPECT_FALSE(ParseJson(text, &value, &error, strict)) << text;
      }
    }
    for (const char* text : {"0x10", "1_0", "--1", "+", "1e", "nanx", "tru", "nul", "[1 2]", "1 2", "[1,]", "-"}) {
      Value value;
      JsonError error;
      EXPECT_FALSE(ParseJson(text, &value, &error, jq)) << text;
    }
  }
}

TEST(ParseJsonNumber, AgreesWithParseJsonOnEveryNumberAndRefusesTheRest) {
  const std::vector<std::string> numbers = {
      "0", "-0", "7", "-7", "12", "999999999999999", "123456789012345", "-123456789012345",
      "1234567890123456", "9007199254740993", "12345678901234567890", "1.5", "-0.0", "0.1", "1e3", "1E+3",
      "-1.25e-2", "1e999", "-1e999", "1e-999", "4.9e-324", "1.7976931348623157e308", "100000000000000000000000"};
  for (const std::string& text : numbers) {
    double quick = 0;
    ASSERT_TRUE(ParseJsonNumber(text, &quick)) << text;
    Value parsed;
    JsonError error;
    ASSERT_TRUE(ParseJson(text, &parsed, &error)) << text;
    ASSERT_TRUE(parsed.IsNumber()) << text;
    EXPECT_EQ(std::bit_cast<uint64_t>(quick), std::bit_cast<uint64_t>(parsed.AsNumber())) << text;
  }
  for (const char* text : {"", "-", "+1", "007", "-01", "1.", ".5", "1e", "1e+", "--1", "0x10", "nan", "NaN",
                           "Infinity", " 1", "1 ", "1,", "[1]", "\"1\"", "true", "1.2.3", "12a", "1234567890123456x"}) {
    double quick = 0;
    EXPECT_FALSE(ParseJsonNumber(text, &quick)) << text;
  }
}

TEST(ParseJsonStream, SeveralValues) {
  std::vector<Value> values;
  JsonError error;
  ASSERT_TRUE(ParseJsonStream(" 1 [2]{\"a\":3}\n\"s\"true null ", &values, &error)) << error.message;
  ASSERT_EQ(values.size(), 6u);
  EXPECT_EQ(ToJson(values[1]), "[2]");
  EXPECT_EQ(ToJson(values[2]), "{\"a\":3}");
  EXPECT_EQ(values[5].kind(), Kind::Null);
  values.clear();
  EXPECT_TRUE(ParseJsonStream("   ", &values, &error));
  EXPECT_TRUE(values.empty());
  EXPECT_FALSE(ParseJsonStream("1 [2,", &values, &error));
  EXPECT_EQ(error.offset, 5u);
}

std::string StreamToText(std::string_view text, bool use_simdjson) {
  JsonParseOptions options;
  options.use_simdjson = use_simdjson;
  std::vector<Value> values;
  JsonError error;
  std::string out;
  if (!ParseJsonStream(text, &values, &error, options)) {
    out = "ERROR@" + std::to_string(error.offset) + ": " + error.message + " after ";
  }
  for (const Value& v : values) out += ToJson(v) + "|";
  return out;
}

TEST(ParseJsonStream, AdjacentValuesAndTrickyStringsAgreeOnBothPaths) {
  struct Case {
    const char* text;
    const char* expected;
  } cases[] = {
      {"[1][2]", "[1]|[2]|"},
      {"1[2]", "1|[2]|"},
      {"\"a\"\"b\"", "\"a\"|\"b\"|"},
      {"{\"a\":\"]\"}{}", "{\"a\":\"]\"}|{}|"},
      {"[\"\\\"]\"] 3", "[\"\\\"]\"]|3|"},
      {"-0 [-0] 1e1000", "-0|[-0]|1.7976931348623157e+308|"},
      {"\"\xff\" 2", "\"\xEF\xBF\xBD\"|2|"},
      {"{\"a\":1,\"a\":2} null", "{\"a\":2}|null|"},
      {"[1,2", "ERROR@4: unexpected end of input after "},
      {"1 [1}] 2", "ERROR@4: expected ',' or ']' after array element after 1|"},
      {"[1]]", "ERROR@3: unexpected ']' after [1]|"},
      {"\"abc", "ERROR@4: unterminated string after "},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(StreamToText(c.text, true), c.expected) << c.text;
    EXPECT_EQ(StreamToText(c.text, false), c.expected) << c.text;
  }
}

// The scans' widths this CPU has, each set in turn (the widest restored after).
class EveryScanWidth : public ::testing::TestWithParam<json_dom::ScanWidth> {
 protected:
  void SetUp() override {
    if (GetParam() > json_dom::WidestScanWidth()) GTEST_SKIP() << "this CPU lacks the width";
    json_dom::SetScanWidth(GetParam());
    ASSERT_EQ(json_dom::CurrentScanWidth(), GetParam());
  }
  void TearDown() override { json_dom::SetScanWidth(json_dom::WidestScanWidth()); }
};
INSTANTIATE_TEST_SUITE_P(ParseDom, EveryScanWidth,
                         ::testing::Values(json_dom::ScanWidth::kBaseline, json_dom::ScanWidth::kAvx2,
                                           json_dom::ScanWidth::kAvx512),
                         [](const ::testing::TestParamInfo<json_dom::ScanWidth>& info) {
                           switch (info.param) {
                             case json_dom::ScanWidth::kBaseline: return std::string("Baseline");
                             case json_dom::ScanWidth::kAvx2: return std::string("Avx2");
                             default: return std::string("Avx512");
                           }
                         });

// The scan for the integer "-0" (whose sign simdjson's DOM would drop) looks at many bytes per
// step: a "-0" at any offset, across every step boundary, sends the document to the exact parser,
// and look-alikes ("-0" inside strings and dates, -0.5, -0e1) do not, in both the padded and the
// copying form of the DOM parse, at each scan width the CPU has.
TEST_P(EveryScanWidth, FindsTheIntegerMinusZeroAtEveryOffset) {
  simdjson::dom::parser parser;
  for (size_t pad = 0; pad < 420; ++pad) {
    const std::string filler = "\"" + std::string(pad, 'x') + "\",";
    const std::string decoys = "\"web-0\",\"2024-05-01T00:00:00Z\",-0.5,-0e1,-10,";
    for (bool padded : {false, true}) {
      auto dom_parses = [&](const std::string& text) {
        std::string buffer = text + std::string(simdjson::SIMDJSON_PADDING, ' ');
        simdjson::dom::element root;
        return json_dom::ParseDom(std::string_view(buffer.data(), text.size()), &parser, &root, padded);
      };
      const std::string minus_zero = "[" + filler + "-0]";
      EXPECT_FALSE(dom_parses(minus_zero)) << pad;
      // A top-level -0 that ends the text, and one before the dates' "-0" pairs.
      EXPECT_FALSE(dom_parses(std::string(pad, ' ') + "-0")) << pad;
      EXPECT_FALSE(dom_parses(std::string(pad, ' ') + "-0 ")) << pad;
      EXPECT_FALSE(dom_parses("[" + filler + "-0,\"2026-09-07T08:09:01Z\",\"x-01\"]")) << pad;
      EXPECT_FALSE(dom_parses("[" + filler + decoys + "-0," + decoys + "1]")) << pad;
      const std::string plain = "[" + filler + decoys + "1]";
      EXPECT_TRUE(dom_parses(plain)) << pad;
      // The copying form parses what it copied: every byte of the text, up to the last one.
      simdjson::dom::element root;
      std::string buffer = plain + std::string(simdjson::SIMDJSON_PADDING, ' ');
      ASSERT_TRUE(json_dom::ParseDom(std::string_view(buffer.data(), plain.size()), &parser, &root, padded)) << pad;
      simdjson::dom::parser direct;
      EXPECT_EQ(simdjson::to_string(root), simdjson::to_string(direct.parse(plain).value())) << pad;
      Value value;
      JsonError error;
      ASSERT_TRUE(ParseJson(minus_zero, &value, &error)) << pad;
      EXPECT_EQ(ToJson(value), "[\"" + std::string(pad, 'x') + "\",-0]") << pad;
    }
  }
}

// The text is scanned for "-0" only when the parse's tape holds an integer 0, which the tape
// test finds many words at a time: the integer -0 (and 0) at every tape offset against those
// steps, up to the tape's last words, sends a -0 document to the exact parser and keeps the
// others on the DOM, as does a number whose value word is the tape's integer type word (each
// scan width the CPU has).
TEST_P(EveryScanWidth, FindsTheIntegerZeroAtEveryTapeWord) {
  simdjson::dom::parser parser;
  auto dom_parses = [&](const std::string& text, bool padded) {
    std::string buffer = text + std::string(simdjson::SIMDJSON_PADDING, ' ');
    simdjson::dom::element root;
    return json_dom::ParseDom(std::string_view(buffer.data(), text.size()), &parser, &root, padded);
  };
  for (size_t lead = 0; lead < 40; ++lead) {
    std::string words;  // `true` is one tape word, a string one, an integer two
    for (size_t i = 0; i < lead; ++i) words += "true,";
    for (bool padded : {false, true}) {
      EXPECT_FALSE(dom_parses("[" + words + "-0]", padded)) << lead;
      EXPECT_FALSE(dom_parses("[" + words + "-0,\"tail\",true,true,true,true,true,true,true,true]", padded)) << lead;
      EXPECT_FALSE(dom_parses("{\"a\":[" + words + "1,-0,2]}", padded)) << lead;
      EXPECT_FALSE(dom_parses("[" + words + "0,-0]", padded)) << lead;
      EXPECT_TRUE(dom_parses("[" + words + "0]", padded)) << lead;
      EXPECT_TRUE(dom_parses("[" + words + "0,\"web-0\",-0.0,-0e1,7782220156096217088,0]", padded)) << lead;
      EXPECT_TRUE(dom_parses("[" + words + "7782220156096217088,true]", padded)) << lead;
    }
  }
  EXPECT_FALSE(dom_parses("-0", true));
  EXPECT_TRUE(dom_parses("0", true));
}

// The view engine checks only the parts it reads (ElementHoldsIntegerZero): an integer 0 at every
// tape word of an element's range, against the scan's steps and its masked last step, is found,
// and the integer zeros just outside the range, or a -0.0 inside it, are not.
TEST_P(EveryScanWidth, FindsTheIntegerZeroInsideAnElementOnly) {
  simdjson::dom::parser parser;
  auto element_holds_zero = [&](const std::string& x) {
    const std::string text = "{\"before\":0,\"x\":" + x + ",\"after\":[0]}";
    std::string buffer = text + std::string(simdjson::SIMDJSON_PADDING, ' ');
    simdjson::dom::element root;
    EXPECT_TRUE(json_dom::ParseDom(std::string_view(buffer.data(), text.size()), &parser, &root, true,
                                   json_dom::MinusZeroCheck::kDeferred));
    return json_dom::ElementHoldsIntegerZero(root["x"].value());
  };
  for (size_t lead = 0; lead < 40; ++lead) {
    std::string words;  // `true` is one tape word
    for (size_t i = 0; i < lead; ++i) words += "true,";
    for (size_t trail : {0, 1, 7, 8, 9, 15, 16, 17}) {
      std::string after;
      for (size_t i = 0; i < trail; ++i) after += ",true";
      EXPECT_TRUE(element_holds_zero("[" + words + "0" + after + "]")) << lead << " " << trail;
      EXPECT_TRUE(element_holds_zero("[" + words + "{\"a\":0}" + after + "]")) << lead << " " << trail;
      EXPECT_FALSE(element_holds_zero("[" + words + "1" + after + "]")) << lead << " " << trail;
      EXPECT_FALSE(element_holds_zero("[" + words + "-0.0,\"0\"" + after + "]")) << lead << " " << trail;
    }
  }
  EXPECT_TRUE(element_holds_zero("0"));
  EXPECT_TRUE(element_holds_zero("-0"));
  EXPECT_FALSE(element_holds_zero("2"));
  EXPECT_FALSE(element_holds_zero("\"0\""));
  EXPECT_FALSE(element_holds_zero("[]"));
  EXPECT_FALSE(element_holds_zero("{}"));
}

// ---- property test against jq

// Random JSON text with varied number spellings, escapes and non-ASCII text.
class JsonGenerator {
 public:
  explicit JsonGenerator(uint32_t seed) : rng_(seed) {}

  std::string Document() {
    std::string out;
    Generate(0, &out);
    return out;
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  void Generate(int depth, std::string* out) {
    int choice = Pick(depth > 3 ? 6 : 9);
    switch (choice) {
      case 0: out->append("null"); return;
      case 1: out->append(Pick(2) ? "true" : "false"); return;
      case 2:
      case 3: Number(out); return;
      case 4:
      case 5: String(out); return;
      case 6:
      case 7: {
        out->push_back('[');
        int n = Pick(5);
        for (int i = 0; i < n; ++i) {
          if (i) out->push_back(',');
          Generate(depth + 1, out);
        }
        out->push_back(']');
        return;
      }
      default: {
        out->push_back('{');
        int n = Pick(5);
        for (int i = 0; i < n; ++i) {
          if (i) out->push_back(',');
          if (Pick(4) == 0) {
            out->append("\"dup\"");  // duplicate keys now and then
          } else {
            String(out);
          }
          out->push_back(':');
          Generate(depth + 1, out);
        }
        out->push_back('}');
        return;
      }
    }
  }

  void Number(std::string* out) {
    switch (Pick(7)) {
      case 0: out->append(std::to_string(Pick(2000) - 1000)); return;
      case 1: {  // long integers, beyond 2^53 and beyond 1e17
        if (Pick(2)) out->push_back('-');
        out->push_back(static_cast<char>('1' + Pick(9)));
        int digits = Pick(25);
        for (int i = 0; i < digits; ++i) out->push_back(static_cast<char>('0' + Pick(10)));
        return;
      }
      case 2: {  // decimals
        out->append(std::to_string(Pick(1000)));
        out->push_back('.');
        int digits = 1 + Pick(18);
        for (int i = 0; i < digits; ++i) out->push_back(static_cast<char>('0' + Pick(10)));
        return;
      }
      case 3: {  // exponents across the whole range
        out->append(std::to_string(1 + Pick(999)));
        out->append(Pick(2) ? "e" : "E");
        int e = Pick(640) - 330;
        if (e >= 0 && Pick(2)) out->push_back('+');
        out->append(std::to_string(e));
        return;
      }
      case 4: {
        std::uniform_real_distribution<double> d(-1e6, 1e6);
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.17g", d(rng_));
        out->append(buf);
        return;
      }
      case 5: {
        const char* specials[] = {"0", "-0", "0.0", "1e16", "1e17", "1e-5", "0.0001", "1e400",
                                  "-1e400", "5e-324", "1.7976931348623157e308", "0.1", "3.0"};
        out->append(specials[Pick(std::size(specials))]);
        return;
      }
      default: {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.*g", 1 + Pick(17),
                      std::ldexp(std::uniform_real_distribution<double>(0.5, 1)(rng_), Pick(200) - 100));
        out->append(buf);
        return;
      }
    }
  }

  void String(std::string* out) {
    static const char* pieces[] = {"a", "key", "Z", " ", "\\\"", "\\\\", "\\/", "\\n", "\\t",
                                   "\\r", "\\b", "\\f", "\\u0000", "\\u001f", "\\u007f", "\\u00e9",
                                   "\\u2028", "\\ud83d\\ude00", "é", "日本", "\xF0\x9F\x98\x80",
                                   "\x7f", "\\u0041", "~"};
    out->push_back('"');
    int n = Pick(6);
    for (int i = 0; i < n; ++i) out->append(pieces[Pick(std::size(pieces))]);
    out->push_back('"');
  }

  std::mt19937 rng_;
};

// Mutated documents: whatever the fast path accepts, the built-in parser must accept with the
// same result, and errors must be reported identically (ParseJson and ParseJsonStream).
TEST(JsonProperty, ParserPathsAgreeOnMutatedDocuments) {
  JsonGenerator generator(99);
  std::mt19937 rng(1234);
  const char alphabet[] = "[]{},:\"\\-+.0123456789eEtrufalsn \t\n\x01\x7f\xc3\xa9\xff";
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string doc = generator.Document();
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !doc.empty(); ++e) {
      size_t at = rng() % doc.size();
      char c = alphabet[rng() % (sizeof(alphabet) - 1)];
      switch (rng() % 3) {
        case 0: doc[at] = c; break;
        case 1: doc.insert(doc.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: doc.erase(at, 1); break;
      }
    }
    std::string result = Roundtrip(doc);  // asserts both paths agree
    if (result.rfind("ERROR", 0) != 0) ++accepted;
    EXPECT_EQ(StreamToText(doc, true), StreamToText(doc, false)) << doc;
  }
  EXPECT_GT(accepted, 0);
}

std::string RunJq(const std::string& args, const std::string& input_path) {
  std::string command = "/usr/bin/jq " + args + " < " + input_path + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string output;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) output.append(buf, n);
  pclose(pipe);
  return output;
}

TEST(JsonProperty, MatchesJqOnRandomDocuments) {
  if (std::FILE* probe = std::fopen("/usr/bin/jq", "r")) {
    std::fclose(probe);
  } else {
    GTEST_SKIP() << "/usr/bin/jq not installed";
  }
  JsonGenerator generator(20261202);
  std::vector<std::string> docs;
  for (int i = 0; i < 400; ++i) docs.push_back(generator.Document());
  // The whole file as one stream gives the same values on both parser paths.
  std::string all;
  for (const std::string& d : docs) all += d + (docs.size() % 2 ? " " : "\n");
  EXPECT_EQ(StreamToText(all, true), StreamToText(all, false));
  std::string path = ::testing::TempDir() + "wm_json_property.ndjson";
  {
    std::ofstream file(path, std::ios::binary);
    for (const std::string& d : docs) file << d << "\n";
  }
  struct Mode {
    const char* jq_args;
    JsonWriteOptions options;
  };
  JsonWriteOptions compact, pretty, sorted;
  pretty.indent = 2;
  sorted.sort_keys = true;
  for (const Mode& mode : {Mode{"-c .", compact}, Mode{".", pretty}, Mode{"-S -c .", sorted}}) {
    std::string expected = RunJq(mode.jq_args, path);
    for (bool use_simdjson : {true, false}) {
      JsonParseOptions parse_options;
      parse_options.use_simdjson = use_simdjson;
      std::string actual;
      for (const std::string& d : docs) {
        Value v;
        JsonError error;
        ASSERT_TRUE(ParseJson(d, &v, &error, parse_options)) << d << ": " << error.message;
        WriteJson(v, &actual, mode.options);
        actual.push_back('\n');
      }
      if (expected == actual) continue;
      // Report the first differing document for a readable failure.
      size_t at = 0;
      while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) ++at;
      size_t from = at > 200 ? at - 200 : 0;
      ADD_FAILURE() << "jq " << mode.jq_args << " (simdjson " << use_simdjson << ") differs at byte "
                    << at << "\njq:   " << expected.substr(from, 300)
                    << "\nours: " << actual.substr(from, 300);
    }
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace wm
