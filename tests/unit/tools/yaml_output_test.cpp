// Tests of tools/yaml_output.h: the layout kubectl users expect (block style, sequences at their
// key's column, {} and []), quoting of every string a YAML reader would retype, and the round trip
// through base/yaml (the reader every wmc command uses) for nested values and tricky strings.
#include "tools/yaml_output.h"

#include <gtest/gtest.h>

#include "base/yaml/yaml_json.h"
#include "runtime/value/json.h"

namespace wm::tools {
namespace {

Value Json(const std::string& text) {
  Value v;
  JsonError error;
  EXPECT_TRUE(ParseJson(text, &v, &error)) << error.message;
  return v;
}

// Reads YAML text back as base/yaml does for workload objects and definitions.
Value ReadBack(const std::string& yaml) {
  std::vector<std::string> documents;
  base::yaml::Error error;
  EXPECT_TRUE(base::yaml::TextToJson(yaml, {}, &documents, &error)) << error.message << "\n" << yaml;
  if (documents.size() != 1) return Value::String("<documents: " + std::to_string(documents.size()) + ">");
  return Json(documents.front());
}

TEST(YamlOutput, BlockLayoutAsKubectlPrints) {
  Value v = Json(R"({"apiVersion":"v1","kind":"List","items":[{"name":"a","ports":[80,443]},{"x":[[1,2],[]]}],
                    "empty":{},"none":[],"meta":{"labels":{"app":"web"}},"nil":null,"t":true,"f":false,"d":1.5})");
  EXPECT_EQ(ToYaml(v),
            "apiVersion: v1\n"
            "kind: List\n"
            "items:\n"
            "- name: a\n"
            "  ports:\n"
            "  - 80\n"
            "  - 443\n"
            "- x:\n"
            "  - - 1\n"
            "    - 2\n"
            "  - []\n"
            "empty: {}\n"
            "none: []\n"
            "meta:\n"
            "  labels:\n"
            "    app: web\n"
            "nil: null\n"
            "t: true\n"
            "f: false\n"
            "d: 1.5\n");
}

TEST(YamlOutput, ScalarsAtTopLevel) {
  EXPECT_EQ(ToYaml(Value::Null()), "null\n");
  EXPECT_EQ(ToYaml(Value::Number(3)), "3\n");
  EXPECT_EQ(ToYaml(Value::String("true")), "\"true\"\n");
  // `n` is a YAML 1.1 boolean (as `y`, `yes`, `off`): quoted as a key too.
  EXPECT_EQ(ToYaml(Value::MakeObject({{Value::String("n"), Value::Number(1)}})), "\"n\": 1\n");
  EXPECT_EQ(ToYaml(Value::EmptyArray()), "[]\n");
  EXPECT_EQ(ToYaml(Value::EmptyObject()), "{}\n");
}

TEST(YamlOutput, QuotesWhatAReaderWouldRetype) {
  for (const char* s : {"", "true", "True", "yes", "no", "on", "OFF", "y", "null", "~", "Null", "1", "-1",
                        "1.5", "1e3", "0x1F", "0o17", "1_000", ".inf", "-.inf", ".nan", " lead", "trail ",
                        "a: b", "a #b", "#c", "- x", "-x", "[a]", "{a}", "a,b", "*ref", "&anchor", "!tag",
                        "|", ">", "'q'", "\"q\"", "%x", "@x", "`x", "2024-05-01", "2024-05-01T10:00:00Z",
                        "12:30", "<<", "=", "...", "---", "a:", "line\nbreak", "tab\there", "caf\xc3\xa9"}) {
    EXPECT_FALSE(IsPlainSafe(s)) << '"' << s << '"';
  }
  for (const char* s : {"web", "llama-pretrain", "nvidia.com/gpu", "team-a", "a:b", "Running", "v1",
                        "jobset.x-k8s.io/v1alpha2", "a b", "x#y", "PodScheduled"}) {
    EXPECT_TRUE(IsPlainSafe(s)) << '"' << s << '"';
  }
}

TEST(YamlOutput, DoubleQuotedEscapes) {
  EXPECT_EQ(DoubleQuoted("a\"b\\c\n\t\r"), R"("a\"b\\c\n\t\r")");
  EXPECT_EQ(DoubleQuoted(std::string("\x01\x7f", 2)), R"("\u0001\u007F")");
  EXPECT_EQ(DoubleQuoted("\xc2\x85"), R"("\u0085")");          // NEL
  EXPECT_EQ(DoubleQuoted("\xe2\x80\xa8"), R"("\u2028")");      // line separator
  EXPECT_EQ(DoubleQuoted("\xef\xbb\xbf" "x"), R"("\uFEFFx")"); // BOM
  EXPECT_EQ(DoubleQuoted("caf\xc3\xa9"), "\"caf\xc3\xa9\"");   // other UTF-8 stays as it is
}

TEST(YamlOutput, RoundTripsTrickyStringsAsValuesAndKeys) {
  std::vector<std::string> strings = {"", "true", "yes", "No", "null", "~", "1", "-1", "0x10", "1e3", ".5",
                                      "+1", ".inf", " a", "a ", "a: b", "a #b", "#", "-", "- a", "?", "? a",
                                      ":", "[", "]", "{", "}", ",", "*", "&", "!", "|", ">", "'", "\"", "%",
                                      "@", "`", "<<", "=", "...", "---", "2024-05-01", "12:30:00",
                                      "multi\nline\n", "tab\t", "back\\slash", "caf\xc3\xa9", "\xe2\x80\xa8",
                                      std::string("nul\x01", 4), "plain words", "nvidia.com/gpu"};
  for (const std::string& s : strings) {
    Value value = Value::MakeObject({{Value::String(s), Value::String(s)},
                                     {Value::String("list"), Value::MakeArray({Value::String(s)})}});
    std::string yaml = ToYaml(value);
    EXPECT_EQ(ToJson(ReadBack(yaml)), ToJson(value)) << yaml;
  }
}

TEST(YamlOutput, RoundTripsNestedValues) {
  const char* texts[] = {
      R"({"a":[{"b":[[],[{}],[[1,[2,{"c":null}]]]]},{"d":{"e":{"f":[true,false,-0.25,1e300]}}}]})",
      R"([[[[]]],{"":{"":""}},"x",[{"k":"v","l":[1]}]])",
      R"({"spec":{"template":{"spec":{"containers":[{"name":"c","args":["--flag=1","-v","2"],
          "resources":{"limits":{"nvidia.com/gpu":"4","memory":"16Gi"}}}]}}}})"};
  for (const char* text : texts) {
    Value value = Json(text);
    EXPECT_EQ(ToJson(ReadBack(ToYaml(value))), ToJson(value)) << ToYaml(value);
  }
}

}  // namespace
}  // namespace wm::tools
