// Differential test over the catalog: every jq expression of every definition in catalog/*.yaml,
// plus a hand-written list covering the issue-2 slice of jq, run on every example object of
// catalog/examples/ through libjq 1.6 and every wm engine. Outputs and error-or-not must agree.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "base/yaml/yaml_json.h"
#include "tests/diff/diff_harness.h"

namespace wm::diff {
namespace {

namespace fs = std::filesystem;

// Keys whose scalar values are jq expressions in Karta / ResourceInterface definitions.
bool IsExpressionKey(const std::string& key) {
  auto ends_with = [&](const char* suffix) {
    std::string s = suffix;
    return key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0;
  };
  return ends_with("Path") || ends_with("path") || ends_with("expression") ||
         ends_with("Expression");
}
// Keys whose sequence entries are jq expressions.
bool IsExpressionListKey(const std::string& key) {
  return key == "filters" || key == "groupByKeyPaths" ||
         (key.size() > 5 && key.compare(key.size() - 5, 5, "Paths") == 0);
}

// Collects jq expressions from a definition document. Iterative walk (explicit stack) with a
// depth bound: definitions are user input.
void CollectExpressions(const YAML::Node& root, std::set<std::string>* out) {
  struct Item {
    YAML::Node node;
    int depth;
  };
  std::vector<Item> stack = {{root, 0}};
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    if (item.depth > 64) continue;
    if (item.node.IsMap()) {
      for (const auto& kv : item.node) {
        std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
        const YAML::Node& value = kv.second;
        if (value.IsScalar() && IsExpressionKey(key) && !value.Scalar().empty()) {
          out->insert(value.Scalar());
        } else if (value.IsSequence() && IsExpressionListKey(key)) {
          for (const auto& entry : value) {
            if (entry.IsScalar() && !entry.Scalar().empty()) out->insert(entry.Scalar());
          }
        }
        if (value.IsMap() || value.IsSequence()) stack.push_back({value, item.depth + 1});
      }
    } else if (item.node.IsSequence()) {
      for (const auto& entry : item.node) stack.push_back({entry, item.depth + 1});
    }
  }
}

std::vector<fs::path> YamlFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && (entry.path().extension() == ".yaml" || entry.path().extension() == ".yml")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The issue-2 slice: paths, literals, operators, and the builtins definitions use.
const std::vector<std::string>& HandWrittenExpressions() {
  static const std::vector<std::string> list = {
      // identity and field access
      ".", ".metadata", ".metadata.name", ".\"metadata\"", ".[\"metadata\"]", ".metadata[\"name\"]",
      ".metadata.\"name\"", ".\"metadata\".\"name\"", ".[\"metadata\"][\"labels\"]", ".missing",
      ".missing.deeper", ".metadata.labels", ".spec", ".status", ".kind", ".apiVersion",
      ".metadata.labels[\"kueue.x-k8s.io/queue-name\"]", ".metadata.annotations",
      // array indexing and iteration
      ".spec.replicatedJobs", ".spec.replicatedJobs[0]", ".spec.replicatedJobs[1]",
      ".spec.replicatedJobs[-1]", ".spec.replicatedJobs[5]", ".spec.replicatedJobs[0].name",
      ".spec.replicatedJobs[].name", ".spec.replicatedJobs[]", ".spec.replicatedJobs[].replicas",
      ".status.conditions[]", ".status.conditions[].type", ".status.conditions[0].status",
      ".[]", ".metadata[]", ".spec.replicatedJobs[0:1]", ".spec.replicatedJobs[1:]",
      ".spec.replicatedJobs[:-1]", ".metadata.name[0:3]", ".metadata.name[-3:]",
      ".spec.replicatedJobs[].template.spec.template.spec.containers[].name",
      ".spec.replicatedJobs[].template.spec.template.spec.containers[].resources.limits",
      ".spec.replicatedJobs[].template.spec.template.spec.containers[].resources.limits[\"nvidia.com/gpu\"]",
      // errors and postfix ?
      ".metadata.name.first", ".metadata.name[0]", ".spec.replicatedJobs.name", ".kind[]",
      ".metadata.name.first?", ".metadata.name[0]?", ".spec.replicatedJobs.name?", ".kind[]?",
      ".spec.replicatedJobs[]?.name", ".missing[]?", ".missing[]", "[.[]?]", "[..]|length",
      ".spec.replicatedJobs[0]?.name", "[.status.conditions[]?.type]",
      // pipes, comma, parentheses
      ".metadata | .name", ".spec | .replicatedJobs | length", ".metadata.name, .kind",
      "(.metadata.name, .kind) | length", ".spec.replicatedJobs[] | .name, .replicas",
      "(.spec.replicatedJobs[] | .name), .kind", "[.spec.replicatedJobs[] | .name]",
      "(.metadata)", "((.metadata).name)", ".metadata | (.name, .namespace)",
      // literals
      "null", "true", "false", "0", "1", "-1", "3.5", "100", "\"text\"", "\"\"", "\"a\\nb\"",
      "\"é日本\"", "[]", "{}", "[1,2,3]", "{\"a\":1,\"b\":[true,null]}", "[.kind, 1, \"x\"]",
      "{kind}", "{kind, name: .metadata.name}", "{\"k\": .kind}", "{(.kind): 1}",
      "{a: .spec.replicatedJobs[].name}", "[.spec.replicatedJobs[].replicas, 5]",
      // alternative //
      ".missing // \"default\"", ".spec.suspend // false", ".metadata.name // 1",
      "(.status.conditions // []) | length", ".missing // .also_missing // 3",
      "[.spec.replicatedJobs[].replicas // 1]", "false // null // 2", "empty // 1",
      "(.a, .b) // 7", "[.spec.replicatedJobs[] | .replicas // 1]",
      // comparisons
      ".kind == \"JobSet\"", ".kind != \"JobSet\"", "1 < 2", "2 <= 2", "3 > 4", "\"a\" >= \"b\"",
      "null < false", "[1] < [1,0]", "{} == {}", "{\"a\":1} == {\"a\":1.0}", ".metadata == .metadata",
      ".spec.replicatedJobs[0].replicas > 0", "(.spec.replicatedJobs | length) >= 2",
      // and / or / not
      "true and false", "true or false", "null or false", "1 and \"x\"", ".kind and .metadata",
      "(.spec.suspend // false) | not", "[true, false, null, 0] | map(not)",
      ".missing and (1 / (.missing // 0) > 0)", "true or (.kind | error)", "(.a // true) and (.b // false)",
      // arithmetic
      "1 + 2", "5 - 3", "2 * 3", "7 / 2", "7 % 3", "-7 % 3", "1 + 2 * 3", "(1 + 2) * 3",
      "10 / 4 * 2", "\"a\" + \"b\"", "[1] + [2]", "{\"a\":1} + {\"b\":2}", "null + 1",
      "1 + null", "\"ab\" * 0", "\"ab\" * 3", "{\"a\":{\"b\":1}} * {\"a\":{\"c\":2}}",
      "[1,2,3,2] - [2]", "\"a,b\" / \",\"", ".spec.replicatedJobs[0].replicas * 4",
      "(.spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1))",
      ".kind + 1", "{} - 1", "(.missing // 1) / 0", "0.1 + 0.2", "1e3 * 1e3", "-(.spec.replicatedJobs[0].replicas)",
      "[.[] | numbers]", "3 - -2",
      // length and friends
      "length", ".metadata | length", ".metadata.name | length", ".spec.replicatedJobs | length",
      "null | length", "-5 | length", "true | length", ".kind | utf8bytelength", "\"é\" | length",
      // select / any / all
      ".spec.replicatedJobs[] | select(.name == \"worker\")",
      ".spec.replicatedJobs[] | select(.replicas > 1) | .name",
      "[.status.conditions[]? | select(.status == \"True\") | .type]",
      ".status.conditions | any(.type == \"Completed\")", ".status.conditions | all(.status == \"True\")",
      "(.status.conditions // []) | any(.type == \"Failed\" and .status == \"True\")",
      "[1,2,3] | any(. > 2)", "[1,2,3] | all(. > 0)", "[] | any", "[] | all", "[null, 1] | any",
      "any(.spec.replicatedJobs[]; .replicas > 1)", "all(.spec.replicatedJobs[]?; .name != null)",
      "select(.kind == \"JobSet\") | .metadata.name", "select(false)", "[.[] | select(type == \"object\")] | length",
      // to_entries, keys, has
      ".metadata.labels | to_entries", ".metadata | to_entries | map(.key)", ".metadata | keys",
      ".metadata | keys_unsorted", ".metadata | has(\"name\")", ".spec.replicatedJobs | has(0)",
      "[.metadata.labels | to_entries[] | select(.value | startswith(\"team\")) | .key]",
      ".metadata.labels | with_entries(.value |= ascii_upcase)", "[.metadata.labels | keys[]]",
      // tostring / tonumber / type
      ".metadata.name | tostring", ".spec.replicatedJobs[0].replicas | tostring", ".metadata | tostring",
      "[1, \"1\", null, true, [1], {\"a\":1}] | map(tostring)", "\"12\" | tonumber", ".kind | tonumber",
      // tonumber's quick path (integers of up to 15 digits, then any plain JSON number) and the reader
      "[\"0\", \"-0\", \"12\", \"-7\", \"007\", \"1.5\", \"1e3\", \"1E+3\", \"-1.25e-2\", \"123456789012345\", "
      "\"1234567890123456\", \"12345678901234567890\", \"1e999\", \" 1\", \"1 \", \"\", \"-\", \"+1\", \"1.\", "
      "\".5\", \"nan\", \"1e\", \"--1\", \"0x10\", \"[1]\", \"-.5\", \"+.5e1\", \"1.e2\", \"00.5\", \".\", \"+\", \"1e+\", "
      "\"1_0\", \"-nan\", \"NaN\", \"inf\", \"-Infinity\", \"infin\", \"nan(1)\", \"1e400\", \"-1e400\", \"1e-400\", "
      "\"- 1\", \" 2 \", \"\\t5\\n\", \"1\\r\", \"1 2\", \"true\", \"null\"] | map(try tonumber catch \"no\")",
      // fromjson reads number tokens as jq's reader does, inside arrays and objects too
      "[\"007\", \"+1\", \"1.\", \".5\", \"-inf\", \"[007, +1, .5]\", \"{\\\"a\\\": 1., \\\"b\\\": -.5e1}\", "
      "\"0x10\", \"+\", \"--1\", \"1e\", \"[1 2]\", \"nanx\", \"tru\", \" 2 \", \"[nan, NaN, -Infinity]\", \"1 2\", "
      "\"-0\", \"[-0,+0]\", \"{\\\"a\\\":[1e999,00.5]}\", \"[1,]\", \"nul\"] | map(try fromjson catch \"no\")",
      "[null, true, [1], {\"a\":1}, \"x\", \"5\"] | map(try tonumber catch type)", "[null, \"2\", true] | map(tonumber?)",
      ".metadata.labels[\"missing\"] | tonumber?", "(.metadata.labels[\"missing\"] // \"3\") | tonumber",
      "[.[] | type]", ".spec.replicatedJobs | map(.replicas | type)", "\"v\\(.kind)-\\(1 + 1)\"",
      // arrays and objects
      "[.spec.replicatedJobs[] | {name, replicas}]", "[.spec.replicatedJobs[].name] | sort",
      "[.spec.replicatedJobs[].name] | join(\",\")", "[.spec.replicatedJobs[].replicas] | add",
      "[.spec.replicatedJobs[].name, 1, null, true] | join(null)", "[.spec.replicatedJobs[]] | join(null)",
      "[.spec.replicatedJobs[].name] | join(1)", "[] | join(null)", "[null] | join(null)",
      "[.spec.replicatedJobs[].replicas] | max", "[.spec.replicatedJobs[].replicas] | min",
      ".spec.replicatedJobs | map(.name)", ".spec.replicatedJobs | first", ".spec.replicatedJobs | last",
      ".spec.replicatedJobs | reverse | map(.name)", "[.spec.replicatedJobs[] | .name] | unique",
      ".spec.replicatedJobs | sort_by(.name) | map(.name)", ".spec.replicatedJobs | group_by(.replicas) | length",
      ".spec.replicatedJobs | map(.replicas // 1) | add", "[paths] | length", "[paths(type == \"number\")]",
      ".metadata | del(.labels)", ".metadata | .extra = 1", ".metadata.labels |= length",
      ".spec.replicatedJobs[0].replicas += 10", "getpath([\"metadata\", \"name\"])",
      "[.status.conditions[]? | .type] | index(\"Completed\")", "[limit(2; .spec.replicatedJobs[])] | length",
      "first(.spec.replicatedJobs[].name)", "[.spec.replicatedJobs[].name] | contains([\"worker\"])",
      ".metadata.name | test(\"llama\")", ".metadata.name | ascii_upcase", ".metadata.name | split(\"-\")",
      ".metadata.name | ltrimstr(\"llama-\")", ".metadata.name | startswith(\"llama\")",
      "reduce .spec.replicatedJobs[] as $j (0; . + ($j.replicas // 1))",
      ".spec.replicatedJobs[] as $j | $j.name", "if .kind == \"JobSet\" then 1 else 2 end",
      "if .status then \"has status\" elif .spec then \"spec only\" else \"empty\" end",
      "try error(\"boom\") catch .", "[.[] | try tonumber catch \"nan\"]", ".metadata | to_entries | from_entries",
      "@base64 \"\\(.kind)\"", ".metadata.name | @base64", ".metadata.name | @base64 | @base64d", "[.metadata.name] | @csv",
      ".metadata.labels | tojson", ".metadata.labels | tojson | fromjson", "label $out | 1, break $out, 2",
      "def f: .metadata; f.name", "def addone($x): $x + 1; addone(2)", "[range(3)]", "[recurse | numbers] | length",
      "[.. | strings] | length", "path(.metadata.name)", "[path(..)] | length", "tostream | select(length == 2) | .[0] | length",
  };
  return list;
}

TEST(CatalogDiff, EveryCatalogExpressionAgreesWithLibjq) {
  const fs::path source = WM_SOURCE_DIR;
  std::set<std::string> catalog_expressions;
  for (const fs::path& file : YamlFiles(source / "catalog")) {
    try {
      for (const YAML::Node& doc : YAML::LoadAllFromFile(file.string())) {
        CollectExpressions(doc, &catalog_expressions);
      }
    } catch (const YAML::Exception& e) {
      ADD_FAILURE() << file << ": " << e.what();
    }
  }
  std::vector<std::string> inputs;
  for (const fs::path& file : YamlFiles(source / "catalog" / "examples")) {
    try {
      for (const YAML::Node& doc : YAML::LoadAllFromFile(file.string())) {
        std::string json;
        base::yaml::Error error;
        if (!doc.IsMap()) continue;
        ASSERT_TRUE(base::yaml::NodeToJson(doc, {}, &json, &error)) << error.Located(file.string());
        inputs.push_back(json);
      }
    } catch (const YAML::Exception& e) {
      ADD_FAILURE() << file << ": " << e.what();
    }
  }
  // Degenerate objects too: definitions run on partially filled workloads.
  inputs.push_back("{}");
  inputs.push_back("null");

  std::vector<std::string> expressions(catalog_expressions.begin(), catalog_expressions.end());
  for (const std::string& e : HandWrittenExpressions()) expressions.push_back(e);

  LibjqOracle oracle;
  EngineOptions options;
  Watchdog watchdog(std::chrono::seconds(60));
  MismatchLog log(30);
  std::vector<std::unique_ptr<PreparedProgram>> prepared;
  AotBatch batch;
  size_t rejected_by_libjq = 0;
  for (const std::string& e : expressions) {
    if (!oracle.Compiles(e)) {
      // A jq 1.7-only construct in a definition (e.g. `if` without `else`); not comparable.
      ++rejected_by_libjq;
      std::fprintf(stderr, "note: libjq 1.6 rejects %s\n", e.c_str());
    }
    prepared.push_back(Prepare(e, options));
    if (prepared.back()->program != nullptr && prepared.back()->native_supported) batch.Add(prepared.back().get());
  }
  std::string aot_error;
  if (!batch.Build(&aot_error)) std::fprintf(stderr, "AOT batch failed: %s\n", aot_error.c_str());

  size_t cases = 0;
  size_t native = 0, fused = 0;
  for (const auto& p : prepared) {
    native += p->native_supported ? 1 : 0;
    fused += p->view != nullptr ? 1 : 0;
    for (const std::string& input_json : inputs) {
      Value input;
      std::string error;
      ASSERT_TRUE(ParseInput(input_json, &input, &error)) << error << "\n" << input_json;
      watchdog.Begin(p->text, input_json);
      CaseInfo info;
      for (Mismatch& m : RunCase(oracle, *p, input_json, input, options.max_outputs, &info)) {
        log.Add(std::move(m));
      }
      watchdog.End();
      cases += info.skipped ? 0 : 1;
    }
  }
  std::fprintf(stderr,
               "catalog diff: %zu catalog expressions + %zu hand-written, %zu inputs, %zu cases, "
               "%zu natively compiled programs, %zu fused on the view engine, %zu rejected by libjq 1.6, "
               "%zu mismatches\n",
               catalog_expressions.size(), HandWrittenExpressions().size(), inputs.size(), cases,
               native, fused, rejected_by_libjq, log.total());
  EXPECT_GT(catalog_expressions.size(), 0u) << "no expressions found under catalog/";
  EXPECT_GT(inputs.size(), 2u) << "no example objects found under catalog/examples/";
  EXPECT_EQ(log.total(), 0u) << log.Summary(oracle, options);
}

}  // namespace
}  // namespace wm::diff
