// Tests of tools/object_input.h JsonValueStream: values in order with jq's line numbers, values
// without separators, a value larger than the read chunk, strings with escaped quotes and
// brackets, a located error after the earlier values, and an unterminated last value.
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
