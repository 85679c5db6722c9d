// Tests of tools/object_input.h JsonValueStream: values in order with jq's line numbers, values
// without separators, a value larger than the read chunk, strings with escaped quotes and
// brackets, a located error after the earlier values, an unterminated last value, and the NDJSON
// fast path's guesses (lines across read-chunk boundaries, lines that are not one value).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/value/json.h"
#include "tools/object_input.h"

namespace wm::tools {
namespace {

namespace fs = std::filesystem;

struct Read {
  std::vector<std::string> values;  // compact JSON
  std::vector<size_t> lines;
  std::string error;
};

Read ReadAll(const std::string& text) {
  fs::path path = fs::temp_directory_path() / ("wm_json_stream_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << text;
  Read out;
  JsonValueStream in;
  EXPECT_TRUE(in.Open(path.string(), &out.error)) << out.error;
  EXPECT_EQ(in.size_hint(), text.size());
  for (Value v; in.Next(&v);) {
    out.values.push_back(ToJson(v));
    out.lines.push_back(in.line());
  }
  out.error = in.error();
  fs::remove(path);
  return out;
}

TEST(JsonValueStreamTest, ValuesInOrderWithJqLines) {
  Read r = ReadAll("{\"a\":1}\n\n[1,\n2]\n\"s\" 3\n");
  EXPECT_EQ(r.values, (std::vector<std::string>{"{\"a\":1}", "[1,2]", "\"s\"", "3"}));
  EXPECT_EQ(r.lines, (std::vector<size_t>{1, 4, 4, 5}));
  EXPECT_EQ(r.error, "");
}

TEST(JsonValueStreamTest, ValuesWithoutSeparatorsAndTrickyStrings) {
  Read r = ReadAll("{\"k\":\"}{\\\"]\\\\\"}[\"\\\\\\\"\"]true null");
  EXPECT_EQ(r.values, (std::vector<std::string>{"{\"k\":\"}{\\\"]\\\\\"}", "[\"\\\\\\\"\"]", "true", "null"}));
  EXPECT_EQ(r.error, "");
}

TEST(JsonValueStreamTest, ValueLargerThanTheReadChunk) {
  std::string big(3 << 20, 'x');
  Read r = ReadAll("{\"s\":\"" + big + "\"}\n12345");
  ASSERT_EQ(r.values.size(), 2u);
  EXPECT_EQ(r.values[0].size(), big.size() + 8);
  EXPECT_EQ(r.values[1], "12345");  // a number at the very end of the input is complete
}

TEST(JsonValueStreamTest, MalformedValueAfterGoodOnesIsLocated) {
  Read r = ReadAll("{\"a\":1}\n{\"a\" 2}\n{\"a\":3}\n");
  EXPECT_EQ(r.values, (std::vector<std::string>{"{\"a\":1}"}));
  EXPECT_NE(r.error.find("invalid JSON in "), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(" at offset 13: "), std::string::npos) << r.error;
}

TEST(JsonValueStreamTest, UnterminatedLastValueIsAnError) {
  Read r = ReadAll("1 [2, 3");
  EXPECT_EQ(r.values, (std::vector<std::string>{"1"}));
  EXPECT_NE(r.error.find("invalid JSON"), std::string::npos);
}

// Every value and its line, read through NextText's NDJSON guesses the way `wmc eval` reads
// (a guess the parser rejects is unread and scanned exactly); counts the guesses taken.
struct GuessedRead : Read {
  size_t guesses = 0;
};

GuessedRead ReadGuessing(const std::string& text) {
  fs::path path = fs::temp_directory_path() / ("wm_json_stream_g_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << text;
  GuessedRead out;
  JsonValueStream in;
  EXPECT_TRUE(in.Open(path.string(), &out.error)) << out.error;
  std::string_view value_text;
  size_t offset = 0;
  bool speculative = false;
  while (in.NextText(&value_text, &offset, &speculative)) {
    // Every text is followed by kReadableAfterText readable bytes (the view engine parses it in
    // place): read them, as simdjson may, so that ASan builds check the promise.
    volatile unsigned char after = 0;
    for (size_t i = 0; i < JsonValueStream::kReadableAfterText; ++i) after = value_text.data()[value_text.size() + i];
    (void)after;
    Value v;
    JsonError error;
    if (!ParseJson(value_text, &v, &error)) {
      if (!speculative) {
        out.error = in.InvalidJsonMessage(offset, error);
        break;
      }
      in.Unread();
      continue;
    }
    out.guesses += speculative;
    out.values.push_back(ToJson(v));
    out.lines.push_back(in.line());
  }
  if (out.error.empty()) out.error = in.error();
  fs::remove(path);
  return out;
}

TEST(JsonValueStreamTest, NdjsonLinesAcrossReadChunksAreGuessedWhole) {
  // ~2.5 MiB of lines of varying length: many straddle the 1 MiB read chunks.
  std::string text;
  std::vector<std::string> expected;
  std::vector<size_t> lines;  // jq counts the newline only when it follows the value at once
  for (size_t i = 0; text.size() < (5u << 19); ++i) {
    std::string line = "{\"i\":" + std::to_string(i) + ",\"s\":\"" + std::string(i % 997, 'a') + "\"}";
    expected.push_back(line);
    text += line + (i % 3 == 0 ? "\r\n" : "\n");
    lines.push_back(i % 3 == 0 ? i : i + 1);
  }
  GuessedRead r = ReadGuessing(text);
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.values, expected);
  EXPECT_EQ(r.lines, lines);
  EXPECT_EQ(r.guesses, expected.size());
  // The same values and lines without guessing.
  Read exact = ReadAll(text);
  EXPECT_EQ(exact.values, expected);
  EXPECT_EQ(exact.lines, lines);
}

TEST(JsonValueStreamTest, LinesThatAreNotOneValueAreScannedExactly) {
  // Two values on a line; a pretty-printed object whose first line ends with a brace; a value
  // split over lines; a scalar; the same guesses as Next makes.
  std::string text = "{\"a\":1} {\"a\":2}\n{\"b\": {},\n \"c\": [1]}\n[1,\n2] [3]\n\"s\"\n[4]";
  std::vector<std::string> values = {"{\"a\":1}", "{\"a\":2}", "{\"b\":{},\"c\":[1]}", "[1,2]", "[3]", "\"s\"", "[4]"};
  GuessedRead guessed = ReadGuessing(text);
  EXPECT_EQ(guessed.error, "");
  EXPECT_EQ(guessed.values, values);
  EXPECT_EQ(guessed.lines, (std::vector<size_t>{0, 1, 3, 4, 5, 6, 6}));
  EXPECT_EQ(guessed.guesses, 3u);  // {"a":2}, [3] and [4]
  Read exact = ReadAll(text);
  EXPECT_EQ(exact.values, values);
  EXPECT_EQ(exact.lines, guessed.lines);
}

TEST(JsonValueStreamTest, MalformedLineIsLocatedAfterTheRejectedGuess) {
  GuessedRead r = ReadGuessing("{\"a\":1}\n{\"a\" 2}\n{\"a\":3}\n");
  EXPECT_EQ(r.values, (std::vector<std::string>{"{\"a\":1}"}));
  EXPECT_NE(r.error.find(" at offset 13: "), std::string::npos) << r.error;
}

TEST(JsonValueStreamTest, MissingFileAndDirectory) {
  JsonValueStream missing, directory;
  std::string error;
  EXPECT_FALSE(missing.Open("/nonexistent/wm.json", &error));
  EXPECT_EQ(error.rfind("cannot open /nonexistent/wm.json", 0), 0u) << error;
  EXPECT_FALSE(directory.Open(fs::temp_directory_path().string(), &error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

}  // namespace
}  // namespace wm::tools
