// Tests of tools/object_input.h: every document of a YAML stream or JSON value stream, a located
// error for a malformed later document (never dropped: issue 18), ReadObject refusing several
// documents, and `kind: List` flattening.
#include "tools/object_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <fstream>

#include <unistd.h>

#include "runtime/value/json.h"

namespace wm::tools {
namespace {

namespace fs = std::filesystem;

class ObjectInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wm_object_input_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  fs::path dir_;
};

std::string Names(const std::vector<Value>& objects) {
  std::string out;
  for (const Value& v : objects) {
    const Value* name = v.IsObject() ? v.Find("name") : nullptr;
    out += (out.empty() ? "" : ",") + (name && name->IsString() ? std::string(name->AsString()) : ToJson(v));
  }
  return out;
}

TEST_F(ObjectInputTest, ReadsEveryYamlDocumentAndSkipsEmptyOnes) {
  std::vector<Value> objects;
  std::string error;
  ASSERT_TRUE(ReadObjects(Write("s.yaml", "name: a\n---\n---\nname: b\n...\n---\nname: c\n"), &objects, &error))
      << error;
  EXPECT_EQ(Names(objects), "a,b,c");
}

TEST_F(ObjectInputTest, ReadsAJsonValueStream) {
  std::vector<Value> objects;
  std::string error;
  ASSERT_TRUE(ReadObjects(Write("s.json", "{\"name\":\"a\"}\n{\"name\":\"b\"} {\"name\":\"c\"}"), &objects, &error))
      << error;
  EXPECT_EQ(Names(objects), "a,b,c");
}

TEST_F(ObjectInputTest, MalformedLaterYamlDocumentIsALocatedError) {
  std::vector<Value> objects;
  std::string error;
  std::string path = Write("bad.yaml", "name: a\n---\nname: b\n---\nname: [c\n");
  EXPECT_FALSE(ReadObjects(path, &objects, &error));
  EXPECT_EQ(error.rfind(path + ":", 0), 0u) << error;
  EXPECT_NE(error.find("malformed YAML"), std::string::npos) << error;
  // Located in the third document (line 5 on), not in the first two.
  int line = std::atoi(error.c_str() + path.size() + 1);
  EXPECT_GE(line, 5) << error;
}

TEST_F(ObjectInputTest, TruncatedJsonStreamIsAnError) {
  std::vector<Value> objects;
  std::string error;
  std::string path = Write("bad.json", "{\"name\":\"a\"}\n{\"name\":");
  EXPECT_FALSE(ReadObjects(path, &objects, &error));
  EXPECT_NE(error.find("invalid JSON at byte"), std::string::npos) << error;
}

TEST_F(ObjectInputTest, ReadObjectReadsOneAndRefusesSeveral) {
  Value object;
  std::string error;
  ASSERT_TRUE(ReadObject(Write("one.yaml", "---\nname: a\n"), &object, &error)) << error;
  EXPECT_EQ(Names({object}), "a");
  std::string path = Write("two.yaml", "name: a\n---\nname: b\n");
  EXPECT_FALSE(ReadObject(path, &object, &error));
  EXPECT_EQ(error, path + " holds more than one document; this command reads one workload "
                          "(`wmc get -f` lists many)");
  std::string bad = Write("bad-later.yaml", "name: a\n---\n: : [\n");
  EXPECT_FALSE(ReadObject(bad, &object, &error));  // before issue 18's fix: exit 0, ignored
  EXPECT_EQ(error.rfind(bad + ":", 0), 0u) << error;
  ASSERT_TRUE(ReadObject(Write("empty.yaml", ""), &object, &error)) << error;
  EXPECT_TRUE(object.IsNull());
}

TEST(FlattenLists, ExpandsListsRecursivelyInOrder) {
  Value stream;
  JsonError json_error;
  ASSERT_TRUE(ParseJson(R"([{"kind":"List","items":[{"name":"a"},{"kind":"PodList","items":[{"name":"b"}]}]},
                          {"name":"c"},{"kind":"List","items":"not an array","name":"d"},
                          {"kind":"JobList","items":[]}])",
                        &stream, &json_error));
  EXPECT_EQ(Names(FlattenLists(stream.AsArray())), "a,b,c,d");
}

}  // namespace
}  // namespace wm::tools
