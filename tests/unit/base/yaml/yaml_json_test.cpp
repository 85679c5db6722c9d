// Tests of base/yaml/yaml_json.h: the one scalar typing rule, the JSON text it writes, the node,
// depth and size budgets (an alias bomb is refused, located), duplicate and non-string keys, and
// malformed YAML with its position.
#include "base/yaml/yaml_json.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace wm::base::yaml {
namespace {

// The JSON of the first document of `text` ("ERROR: message" when the conversion fails).
std::string Json(const std::string& text, TextOptions options = {}) {
  std::vector<std::string> documents;
  Error error;
  if (!TextToJson(text, options, &documents, &error)) return "ERROR: " + error.message;
  return documents.empty() ? "<none>" : documents.front();
}

// A value of 2^levels nodes written in about 40 bytes per level.
std::string AliasBomb(int levels) {
  std::string text = "l0: &a0 [x, x]\n";
  for (int i = 1; i <= levels; ++i) {
    text += "l" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) +
            ", *a" + std::to_string(i - 1) + "]\n";
  }
  return text;
}

TEST(ClassifyPlain, KubernetesReaderTyping) {
  for (const char* s : {"", "~", "null", "Null", "NULL"}) EXPECT_EQ(ClassifyPlain(s), PlainKind::kNull) << s;
  for (const char* s : {"true", "False", "yes", "No", "on", "OFF", "y", "N"}) {
    EXPECT_EQ(ClassifyPlain(s), PlainKind::kBool) << s;
  }
  for (const char* s : {"3", "-7", "+5", "0x1F", "0o17", "1_000"}) EXPECT_EQ(ClassifyPlain(s), PlainKind::kInt) << s;
  for (const char* s : {"1.5", ".5", "1.", "1e3", "-2.5E-3", ".inf", ".NaN"}) {
    EXPECT_EQ(ClassifyPlain(s), PlainKind::kFloat) << s;
  }
  for (const char* s : {"abc", "1.2.3", "0x", "e3", "1e", "True!", "v1"}) {
    EXPECT_EQ(ClassifyPlain(s), PlainKind::kString) << s;
  }
  EXPECT_TRUE(PlainBoolValue("On"));
  EXPECT_FALSE(PlainBoolValue("n"));
}

TEST(TextToJson, ScalarsTakeTheTypingRuleQuotedOnesStayStrings) {
  EXPECT_EQ(Json("a: yes\nb: 'yes'\nc: \"3\"\nd: 3\ne: ~\nf: !!str 4\ng: text\n"),
            R"({"a":true,"b":"yes","c":"3","d":3,"e":null,"f":"4","g":"text"})");
  // JSON spellings are copied exactly; YAML-only spellings become floating-point values; a
  // spelling strtod cannot read whole, or that is not finite, stays text.
  EXPECT_EQ(Json("[12345678901234567890, 1e3, 0x1F, 1_000, +5, .5, 0o17, .inf]"),
            R"([12345678901234567890,1e3,31.0,1000.0,5.0,0.5,"0o17",".inf"])");
  EXPECT_EQ(Json("s: \"tab\\tquote\\\" nl\\n ctl\\x01\"\n"), R"({"s":"tab\tquote\" nl\n ctl\u0001"})");
  EXPECT_EQ(Json("k: [a, {b: }]\n"), R"({"k":["a",{"b":null}]})");
}

TEST(TextToJson, DocumentsAndEmptyText) {
  std::vector<std::string> documents;
  Error error;
  ASSERT_TRUE(TextToJson("a: 1\n---\n- 2\n", {}, &documents, &error));
  EXPECT_EQ(documents, (std::vector<std::string>{R"({"a":1})", "[2]"}));
  ASSERT_TRUE(TextToJson("", {}, &documents, &error));
  EXPECT_TRUE(documents.empty());
  TextOptions first;
  first.first_document_only = true;
  ASSERT_TRUE(TextToJson("a: 1\n---\n- [\n", first, &documents, &error));
  EXPECT_EQ(documents, (std::vector<std::string>{R"({"a":1})"}));
  ASSERT_TRUE(TextToJson("", first, &documents, &error));
  EXPECT_EQ(documents, (std::vector<std::string>{"null"}));
}

TEST(TextToJson, AliasBombIsRefusedQuicklyAndLocated) {
  // 2^40 nodes once expanded: only a refusal by the node count, before the expansion, returns
  // at all (ctest's timeout stops a run that expands).
  std::vector<std::string> documents;
  Error error;
  EXPECT_FALSE(TextToJson(AliasBomb(40), {}, &documents, &error));
  EXPECT_EQ(error.kind, ErrorKind::kTooManyNodes);
  EXPECT_NE(error.message.find("nodes"), std::string::npos);
  EXPECT_GT(error.line, 0u);
  EXPECT_EQ(error.Located("bomb.yaml").rfind("bomb.yaml:", 0), 0u);
  // A few aliases of a small value are fine.
  EXPECT_EQ(Json("a: &x [1, 2]\nb: *x\n"), R"({"a":[1,2],"b":[1,2]})");
}

// Fuzz finding (tests/fuzz object_fuzzer): yaml-cpp 0.7 never returned on a text like this one
// (NUL, commas, NUL, two bytes, a quote). A NUL anywhere is refused, located, before yaml-cpp
// sees it.
TEST(TextToJson, NulByteIsRefusedBeforeParsing) {
  std::string hang = std::string(1, '\0') + std::string(91, ',') + std::string(1, '\0') + "\x84\x9a\"";
  TextOptions options;
  std::vector<std::string> documents;
  Error error;
  EXPECT_FALSE(TextToJson(hang, options, &documents, &error));
  EXPECT_EQ(error.Located("x.yaml"), "x.yaml:1:1: malformed YAML: NUL byte (YAML text cannot contain it)");
  EXPECT_FALSE(TextToJson(std::string("a: 1\nb: x\0y\n", 12), options, &documents, &error));
  EXPECT_EQ(error.line, 2u);
  EXPECT_EQ(error.column, 5u);
}

TEST(TextToJson, WholeTextBudgetGrowsWithTheText) {
  // 150,000 nodes without aliases: above max_nodes but below max_nodes + text size.
  std::string text = "[";
  for (int i = 0; i < 150000; ++i) text += i ? ",1" : "1";
  text += "]";
  EXPECT_EQ(Json(text).substr(0, 6), "[1,1,1");
}

TEST(TextToJson, DepthAndSizeLimits) {
  TextOptions options;
  options.limits.max_depth = 3;
  EXPECT_EQ(Json("[[[1]]]", options), "[[[1]]]");
  EXPECT_EQ(Json("[[[[1]]]]", options), "ERROR: value nested deeper than 3 levels");
  options.limits.max_bytes = 4;
  std::vector<std::string> documents;
  Error error;
  EXPECT_FALSE(TextToJson("[1, 2]", options, &documents, &error));
  EXPECT_EQ(error.kind, ErrorKind::kTooLarge);
  EXPECT_EQ(error.Located("f.yaml"), "f.yaml:1:1: input is 6 bytes; the limit is 4");
}

TEST(TextToJson, KeysMustBeUniqueStrings) {
  std::vector<std::string> documents;
  Error error;
  EXPECT_FALSE(TextToJson("a: 1\nb: 2\na: 3\n", {}, &documents, &error));
  EXPECT_EQ(error.kind, ErrorKind::kDuplicateKey);
  EXPECT_EQ(error.Located("f.yaml"), "f.yaml:3:1: duplicate key 'a' in value");
  EXPECT_FALSE(TextToJson("? [a]\n: 1\n", {}, &documents, &error));
  EXPECT_EQ(error.kind, ErrorKind::kNonStringKey);
}

TEST(TextToJson, MalformedYamlIsLocated) {
  std::vector<std::string> documents;
  Error error;
  EXPECT_FALSE(TextToJson("a: [1, 2\nb: }\n", {}, &documents, &error));
  EXPECT_EQ(error.kind, ErrorKind::kSyntax);
  EXPECT_EQ(error.message.rfind("malformed YAML: ", 0), 0u);
  EXPECT_GT(error.line, 0u);
}

TEST(NodeToJson, ConvertsASubtreeWithItsOwnBudget) {
  YAML::Node root = YAML::Load(AliasBomb(30));
  std::string json;
  Error error;
  Limits limits;
  ASSERT_TRUE(NodeToJson(root["l2"], limits, &json, &error)) << error.message;
  EXPECT_EQ(json, R"([[["x","x"],["x","x"]],[["x","x"],["x","x"]]])");
  EXPECT_FALSE(NodeToJson(root["l30"], limits, &json, &error));
  EXPECT_EQ(error.message, "value has more than 100000 nodes");
  EXPECT_GT(error.line, 0u);
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// yaml-cpp 0.7's YAML::LoadAll never returned on these (fuzz finding: the first byte, a ',', is
// not consumed, so each "next document" starts at it again). Finishing is the check, under
// ctest's timeout.
TEST(TextToJson, CommaOutsideFlowIsRefusedBeforeLoading) {
  std::vector<std::string> documents;
  Error error;
  std::string finding = ReadFile(std::string(WM_SOURCE_DIR) +
                                 "/tests/unit/base/yaml_inputs/refused-object_fuzzer-yaml-hang-80fe5b8f");
  ASSERT_EQ(finding.size(), 1760u);
  EXPECT_FALSE(TextToJson(finding, {}, &documents, &error));
  EXPECT_EQ(error.kind, ErrorKind::kSyntax);
  EXPECT_EQ(error.Located("f.yaml"), "f.yaml:1:1: malformed YAML: ',' outside a flow collection");
  // The same token after a document, a comment, `---`, an anchor or a tag.
  for (const char* text : {"- a\n,\n", "a\n...\n,", "# c\n,", "--- ,", "&a ,", "!t ,", "\"x\",", "[a],"}) {
    EXPECT_FALSE(TextToJson(text, {}, &documents, &error)) << text;
    EXPECT_EQ(error.message.rfind("malformed YAML: ", 0), 0u) << text;
  }
  EXPECT_FALSE(TextToJson("- a\n,\n", {}, &documents, &error));
  EXPECT_EQ(error.Located("f.yaml"), "f.yaml:2:1: malformed YAML: ',' outside a flow collection");
  // yaml-cpp's YAML::Load alone read a lone ',' as a null document.
  TextOptions first_only;
  first_only.first_document_only = true;
  EXPECT_FALSE(TextToJson(",", first_only, &documents, &error));
  // Commas that are YAML: in flow collections, inside plain and quoted scalars, in comments.
  EXPECT_EQ(Json("[a, , b]"), R"(["a",null,"b"])");
  EXPECT_EQ(Json("a: b, c\nd: 'e,f' # g, h\n"), R"({"a":"b, c","d":"e,f"})");
  EXPECT_EQ(Json("x,"), R"("x,")");
  EXPECT_EQ(Json("a: |\n  ,\n"), R"({"a":",\n"})");
}

// Short random texts of YAML's indicators (a fixed seed): each load ends, whatever it answers.
// Before the check, about one text in a thousand never returned (a ',' left unconsumed); the
// test finishing under ctest's timeout is the assertion.
TEST(TextToJson, RandomIndicatorTextsAllTerminate) {
  std::mt19937 random(18);
  const std::string alphabet = ",,,[]{}:-?&*!#'\"\n\n a1|>.%";
  size_t refused = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (int length = 1 + random() % 14; length > 0; --length) text += alphabet[random() % alphabet.size()];
    for (bool first_only : {false, true}) {
      TextOptions options;
      options.first_document_only = first_only;
      std::vector<std::string> documents;
      Error error;
      if (!TextToJson(text, options, &documents, &error)) ++refused;
    }
  }
  EXPECT_GT(refused, 0u);
}

// The check must not refuse real Kubernetes YAML: every YAML and JSON file of the catalog, the
// tests and the shared CRDs goes through it (only the refused-* fixtures above are refused).
TEST(CheckYamlCppTerminates, AcceptsEveryRepositoryYamlFile) {
  namespace fs = std::filesystem;
  size_t checked = 0;
  for (const char* dir : {"catalog", "tests", "../shared/crds"}) {
    fs::path root = fs::path(WM_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml" && ext != ".json")) continue;
      if (entry.path().filename().string().rfind("refused-", 0) == 0) continue;
      Error error;
      EXPECT_TRUE(CheckYamlCppTerminates(ReadFile(entry.path()), {}, &error))
          << error.Located(entry.path().string());
      ++checked;
    }
  }
  EXPECT_GT(checked, 300u);
}

}  // namespace
}  // namespace wm::base::yaml
