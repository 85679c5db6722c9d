// The view engine (runtime/eval/view): every supported form, both key orders, the fallbacks
// (errors, unsupported forms, documents simdjson cannot represent exactly, limits) and the
// equivalence with the interpreter on every catalog resolver and catalog example object.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/yaml/yaml_json.h"
#include "compiler/driver/definitions.h"
#include "compiler/driver/expression.h"
#include "runtime/bundle/bundle.h"
#include "runtime/eval/view/view.h"
#include "runtime/value/json.h"
#include "tests/unit/view/view_test_util.h"
#include "tests/unit/repository_bundle_util.h"

namespace wm::testing {
namespace {

struct ViewRun {
  std::string text;   // Describe() of the result
  bool fused_program = false;  // the program lowered to a view program
  bool answered = false;       // the view engine answered (no fallback)
  view::FusedStats stats;
};

ViewRun RunView(const std::string& expr, const std::string& json, bool sort_keys = false,
                const RunOptions& options = {}) {
  view::FusedKind kind({Lowered(expr)}, Options(sort_keys, false));
  view::FusedRunner runner(kind);
  JsonError error;
  ViewRun run;
  run.fused_program = kind.fused(0);
  // The same text again, followed by readable bytes the parse may look at but must not take as
  // part of the document (FusedRunner::Run's `readable_after`: parsed in place, no copy): they
  // are JSON-looking on purpose, and the answer must not change.
  std::string padded = json;
  while (padded.size() < json.size() + view::FusedRunner::kTextPadding) padded += "\"}]-0,1";
  view::FusedRunner in_place(kind);
  JsonError in_place_error;
  bool in_place_ok = in_place.Run(std::string_view(padded.data(), json.size()), options, &in_place_error,
                                  padded.size() - json.size());
  if (!runner.Run(json, options, &error)) {
    run.text = "invalid JSON: " + error.message;
    EXPECT_FALSE(in_place_ok) << json;
    return run;
  }
  run.text = Describe(runner.result(0));
  run.answered = runner.result(0).fused;
  run.stats = runner.stats();
  // The same with the trie's fills as native code.
  view::FusedKind native_kind({Lowered(expr)}, Options(sort_keys, true));
  EXPECT_EQ(native_kind.native_error(), "");
  view::FusedRunner native_runner(native_kind);
  JsonError native_error;
  EXPECT_TRUE(native_runner.Run(json, options, &native_error)) << json;
  EXPECT_EQ(Describe(native_runner.result(0)), run.text) << expr << " on " << json << " (native fill)";
  EXPECT_TRUE(in_place_ok) << json;
  if (in_place_ok) {
    EXPECT_EQ(Describe(in_place.result(0)), run.text) << json << " (parsed in place)";
    EXPECT_EQ(in_place.stats().document_fallbacks, run.stats.document_fallbacks) << json;
  }
  return run;
}

// The view engine answers `expr` on `json` itself, with the interpreter's outputs, in both orders.
void ExpectFused(const std::string& expr, const std::string& json) {
  for (bool sorted : {false, true}) {
    ViewRun run = RunView(expr, json, sorted);
    EXPECT_TRUE(run.answered) << expr << " on " << json << " (sorted " << sorted << ")";
    EXPECT_EQ(run.text, Interpret(*Lowered(expr), json, sorted)) << expr << " on " << json;
  }
}

const char* kJobSet = R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",
  "metadata":{"name":"js","generation":3},
  "spec":{"suspend":false,"replicatedJobs":[
    {"name":"leader","replicas":1,"template":{"spec":{"parallelism":1,"template":{"spec":{"containers":[{"name":"l"}]}}}}},
    {"name":"workers","replicas":3,"template":{"spec":{"parallelism":4,"template":{"spec":{"containers":[{"name":"w","image":"i:1"}]}}}}}]},
  "status":{"conditions":[{"type":"Completed","status":"False"},{"type":"Failed","status":"True"}],
            "replicatedJobsStatus":[{"ready":0,"active":2}]}})";

TEST(ViewEngineTest, EverySupportedFormAnswersOnTheDom) {
  const std::vector<std::string> forms = {
      ".", ".metadata", ".metadata.name", ".spec.replicatedJobs[]", ".spec.replicatedJobs[]?",
      ".metadata.name?", ".nope.deeper", ".spec.replicatedJobs[].name", ".spec.replicatedJobs[0]",
      ".spec.replicatedJobs[-1].name", ".spec.replicatedJobs[5]", ".spec[\"suspend\"]",
      ".spec.suspend // true", ".missing // \"dflt\"", "1", "\"s\"", "null", "[1, {\"a\": 2}]",
      ".metadata.generation == 3", ".metadata.generation != 3", ".metadata.generation < 4",
      ".metadata.generation <= 3", ".metadata.generation > 3", ".metadata.generation >= 3",
      ".metadata.name == \"js\"", ".spec == .spec", ".status.conditions[0] < .status.conditions[1]",
      ".spec.suspend and true", ".spec.suspend or false", ".spec.suspend | not",
      "if .spec.suspend then 0 else 1 end", "if .metadata.name then .metadata.name else 0 end",
      ".metadata.generation + 1", ".metadata.generation - 1", ".metadata.generation * 2",
      ".metadata.name + \"-x\"", "null + .metadata.generation", "-.metadata.generation",
      ".metadata.generation as $g | .spec.replicatedJobs[] | .replicas * $g",
      ".status.conditions | any(.type == \"Failed\" and .status == \"True\")",
      ".status.conditions | all(.status == \"True\")", "[] | any(.)", "[] | all(.)",
      ".status.conditions | length", ".metadata | length", ".metadata.name | length", "null | length",
      ".metadata.generation | length", "{name: .metadata.name, n: .metadata.generation}",
      "{(.metadata.name): 1}", "[.spec.replicatedJobs[].replicas]", ".metadata.name, .metadata.generation",
      ".spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1)",
      ".spec.replicatedJobs[].template.spec.template", "empty", ".metadata | .[]",
      "(.a?) // 5", ".metadata.name.x?", ".spec.replicatedJobs[]?.name",
      "[{}, {\"t\": 2}] | any(.t == null)", "[{\"t\": 2}] | all(.t >= 2)", ".spec.replicatedJobs[] | .replicas < 2",
      ".spec.replicatedJobs[] | .name != \"leader\"", "[.spec.replicatedJobs[] | .template > {}]",
      // The prelude's select, map and first, inlined.
      ".spec.replicatedJobs[] | select(.replicas > 1) | .name", "[.spec.replicatedJobs[] | select(.name)] | first",
      ".spec.replicatedJobs | map(.replicas * 2)", ".status.conditions | map(select(.status == \"True\"))",
      ".spec.replicatedJobs | first | .name", ".spec.replicatedJobs | map(.template.spec.template) | first",
      "[.status.conditions[] | select(.type == \"Failed\", .type == \"Completed\")]",
      "[.metadata, .metadata.name, .metadata.generation, .spec.suspend, null, .spec.replicatedJobs, true] | map(type)",
      "[.spec.replicatedJobs[] | select(type == \"object\" and .replicas > 1)] | first | .name",
      // Pure builtins without arguments, on the converted input.
      ".metadata.name | ascii_upcase", ".metadata | to_entries", ".metadata | keys", ".spec.replicatedJobs | map(.replicas) | add",
      ".metadata.generation | tostring | tonumber", ".status | tojson | fromjson", "[.spec.replicatedJobs[].name] | sort | reverse",
  };
  for (const std::string& form : forms) ExpectFused(form, kJobSet);
}

// Arrays and objects the program builds keep their members as views of the document: what a
// program then does with them (index, iterate, length, compare, builtins, write, convert) gives
// the interpreter's answer, including for repeated keys and several outputs per member.
TEST(ViewEngineTest, BuiltContainersReferToTheDocument) {
  const std::vector<std::string> forms = {
      "{metadata: .metadata, spec: .spec}", "{metadata, spec} | .spec.replicatedJobs[0].name",
      "[.spec.replicatedJobs[].template] | .[1]", "[.spec.replicatedJobs[].name] | .[-1]",
      "[.spec.replicatedJobs[].name] | .[5]", "[.spec.replicatedJobs[].name] | .[-3]",
      "[.spec.replicatedJobs[].name] | .[0.5]", "[.metadata, .spec] | length",
      "{a: 1, b: .metadata} | length", "{a: 1, b: .metadata} | .[]", "{a: .metadata} | .a.name",
      "{a: .metadata} | .nope", "{a: .metadata} | keys", "{a: .metadata} == {a: .metadata}",
      "[.metadata] < [.spec]", "{a: .metadata} | type", "[.metadata] | first", "{x: .metadata} | tojson",
      "{a: [.metadata, {b: .spec.suspend}]}", "{a: (.metadata.name, .spec.suspend), b: (1, 2)}",
      "[.spec.replicatedJobs[] | {n: .name}] | map(.n)", ".spec.replicatedJobs as $r | {r: $r} | .r[0].name",
      "{a: .metadata} | .a as $m | [$m.name, $m]", "[[.metadata]] | .[0][0].generation + 1",
      "if {a: .spec} then [.status] else 0 end", "[] | length", "{} | .[]",
      // Repeated keys: the object is a Value, as MakeObject decides (the last value, first place).
      "{a: .metadata, a: .spec}", "{(.metadata.name): 1, js: 2}",
      "{a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, a: .metadata}",
      "{a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: .metadata} | .i.name",
      // to_entries of a DOM object: entries that refer to the document.
      ".spec | to_entries", ".spec | to_entries[] | .key", ".spec | to_entries[] | .value | type",
      ".metadata | to_entries | map(.key)", ".metadata | to_entries | .[1].value", ".metadata | to_entries | length",
      ".spec.replicatedJobs | to_entries | .[1].key", "{} | to_entries", ".metadata | to_entries | map(.value)",
      // from_entries and with_entries, inlined: every key and value spelling, a repeated key
      // (its value replaced in place), entries from the document, from Values and built.
      ".metadata | to_entries | from_entries", ".metadata | with_entries(select(.value != 3))",
      ".metadata | with_entries({key: .key, value: [.value]})",
      "[{key: \"a\", value: 1}, {Key: \"b\", Value: 2}, {name: \"c\"}, {Name: \"d\", value: null}, "
      "{key: null, name: \"e\", Value: 5}, {key: \"a\", value: 6}] | from_entries",
      ".status.conditions | map({name: .type, value: .status}) | from_entries",
      "{x: {key: \"k\", value: .metadata}} | from_entries | .k.name", "[] | from_entries",
      ".spec | with_entries(select(.key == \"suspend\"))",
      "{cpu: .metadata.name, memory: .nope, gpu: 2} | with_entries(select(.value != null))",
      // with_entries on an object runs f on one entry at a time: f keeping the entry (a fresh one
      // for the next member), several outputs or none, a repeated key, nested, on built objects.
      ".metadata | with_entries({key: .key, value: .})", ".metadata | with_entries(., {key: (.key + \"2\"), value: 1})",
      ".metadata | with_entries(empty)", ".metadata | with_entries({key: \"same\", value: .value})",
      "{a: .metadata, b: {x: 1}} | with_entries({key, value: (.value | with_entries(select(.key != \"name\")))})",
      "{a: 1, b: .metadata} | with_entries(select(.key == \"b\")) | .b.name", "{} | with_entries(.)",
      "[.metadata | with_entries(select(.key == \"name\"))] + [.spec | with_entries(select(.value == false))]",
      // Object addition and comparisons with an empty container, without converting.
      ".metadata + {}", "{} + .metadata", ".metadata + {name: \"x\", extra: 1}", "{a: 1, name: 2} + .metadata",
      ".metadata + .metadata", ".spec + {suspend: true} | keys", "(.metadata // {}) + (.nope // {}) != {}",
      "[.status.conditions[] | . + {x: 1}]", "{a: .metadata} + {b: .spec.suspend, a: 0}", "[] < [1]", "{} < .metadata",
      ".metadata == {}", "[] == []", "{} == {}", ".spec.replicatedJobs > []", "{} != .metadata", "[[]] > [{}]",
      "{} <= {}", "[.metadata.nope[]?] == []",
      // Objects that are Values (converted by a builtin): read, added, listed.
      ".metadata | tojson | fromjson | .name", "(.metadata | tojson | fromjson) + {a: 1}",
      ".metadata | tojson | fromjson | to_entries", "{x: 1} + (.metadata | tojson | fromjson)",
  };
  for (const std::string& form : forms) ExpectFused(form, kJobSet);
  // Errors raised on a built container fall back with the engine's message.
  for (const char* expr : {"[1] | from_entries", "[{key: 1, value: 2}] | from_entries", "null | from_entries",
                           "[{value: 2}] | from_entries", ".metadata | from_entries", ".status.conditions | from_entries",
                           ".metadata | with_entries(.key |= 1)", ".spec.replicatedJobs | with_entries(.)",
                           ".metadata | with_entries({key: 1, value: .value})", ".metadata | with_entries(.value.x)", "null | with_entries(.)", "{a: .metadata} | .a.name.x", "[.metadata] | .[\"x\"]", "{a: 1} | .[0]",
                           "[.metadata] | .a", "{a: .metadata} | .[] | .[0]", ".metadata | to_entries | .[0].key.x"}) {
    for (bool sorted : {false, true}) {
      EXPECT_EQ(RunView(expr, kJobSet, sorted).text, Interpret(*Lowered(expr), kJobSet, sorted)) << expr;
    }
  }
}

// A built output is converted (ToValue) and written in every form as the interpreter's Value is.
TEST(ViewEngineTest, BuiltOutputsConvertAndWriteAsValues) {
  // Outputs are the evaluator's composites as built: members that are views, computed scalars,
  // constants, keys read from the document (with_entries), composites in arrays and objects.
  for (const char* expr : {"{metadata: .metadata, spec: .spec}", "[.spec.replicatedJobs[].template, {z: 1, a: .metadata}]",
                           ".metadata | to_entries", ".metadata | with_entries(select(.value != null))",
                           "[[.metadata.generation, 2], [], {}, [{k: .kind}], \"s\", null, (.metadata.generation + 1)]",
                           "{a: [], b: {c: [.spec.suspend, true]}}"}) {
    for (bool sorted : {false, true}) {
      view::FusedKind kind({Lowered(expr)}, Options(sorted, false));
      view::FusedRunner runner(kind);
      JsonError error;
      ASSERT_TRUE(runner.Run(kJobSet, {}, &error));
      ASSERT_TRUE(runner.result(0).fused) << expr;
      ASSERT_EQ(runner.result(0).outputs.size(), 1u) << expr;
      const view::ViewOutput& out = runner.result(0).outputs[0];
      EXPECT_FALSE(out.is_view());
      EXPECT_FALSE(out.IsString());
      std::string expected_line = Interpret(*Lowered(expr), kJobSet, sorted);
      Value expected;
      ASSERT_TRUE(ParseJson(expected_line, &expected, &error));
      EXPECT_EQ(Compare(out.ToValue(), expected), 0) << expr;
      EXPECT_EQ(ToJson(out.ToValue()), ToJson(expected)) << expr << " (key order)";
      for (int indent : {0, 2}) {
        for (bool sort : {false, true}) {
          std::string text;
          out.WriteJson(&text, JsonWriteOptions{indent, sort});
          EXPECT_EQ(text, ToJson(expected, JsonWriteOptions{indent, sort})) << expr << " " << indent << sort;
        }
      }
    }
  }
}

// The null output (an absent path's, a missing member's) holds no Value: it converts, writes and
// tests as null, its copies and moves are null, and a composite output moved from becomes null.
TEST(ViewEngineTest, NullOutputsAreNullInEveryUse) {
  view::FusedKind kind({Lowered(".spec.absent"), Lowered(".spec.list[] | .name"), Lowered("{a: .spec.absent}")});
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(R"({"spec":{"list":[{"name":"x"},{}]}})", {}, &error));
  ASSERT_EQ(runner.result(0).outputs.size(), 1u);
  ASSERT_EQ(runner.result(1).outputs.size(), 2u);
  for (const view::ViewOutput* out : {&runner.result(0).outputs[0], &runner.result(1).outputs[1], }) {
    EXPECT_FALSE(out->is_view());
    EXPECT_FALSE(out->IsString());
    EXPECT_TRUE(out->ToValue().IsNull());
    for (int indent : {0, 2}) {
      std::string text;
      out->WriteJson(&text, JsonWriteOptions{indent, true});
      EXPECT_EQ(text, "null");
    }
    view::ViewOutput copy = *out;
    view::ViewOutput moved = std::move(copy);
    EXPECT_TRUE(moved.ToValue().IsNull());
    copy = moved;  // assigned to after the move
    EXPECT_TRUE(copy.ToValue().IsNull());
  }
  EXPECT_TRUE(runner.result(1).outputs[0].IsString());  // the element that has a name: a view
  view::ViewOutput built = runner.result(2).outputs[0];
  view::ViewOutput taken = std::move(built);
  EXPECT_EQ(ToJson(taken.ToValue()), R"({"a":null})");
  EXPECT_TRUE(built.ToValue().IsNull());  // NOLINT(bugprone-use-after-move): moved from is null
  std::string text;
  built.WriteJson(&text);
  EXPECT_EQ(text, "null");
  EXPECT_TRUE(view::ViewOutput().ToValue().IsNull());
}

// A runner reuses the built arrays and objects it outputs from one object to the next (their
// allocations kept in the evaluator's pool): outputs a caller still holds are never refilled, and
// every object's outputs are its own. (Members that are views of the document are only valid
// until the next run, so the held outputs here are built of computed values.)
TEST(ViewEngineTest, BuiltOutputsHeldByTheCallerSurviveTheNextRun) {
  const std::string expr = "{n: (.n + 1), inner: {k: (.k + \"!\"), list: [.n * 2, \"c\"]}}";
  view::FusedKind kind({Lowered(expr)});
  view::FusedRunner runner(kind);
  std::vector<view::ViewOutput> held;
  std::vector<std::string> held_text;
  for (int i = 0; i < 40; ++i) {
    const std::string doc = "{\"n\":" + std::to_string(i) + ",\"k\":\"key" + std::to_string(i) + "\"}";
    JsonError error;
    ASSERT_TRUE(runner.Run(doc, {}, &error)) << doc;
    ASSERT_TRUE(runner.result(0).fused);
    ASSERT_EQ(runner.result(0).outputs.size(), 1u);
    std::string text;
    runner.result(0).outputs[0].WriteJson(&text);
    EXPECT_EQ(text + "\n", Interpret(*Lowered(expr), doc, false)) << doc;
    // Keep every third object's output; the others are dropped and their composites reused.
    if (i % 3 == 0) {
      ASSERT_FALSE(runner.result(0).outputs[0].is_view());
      held.push_back(runner.result(0).outputs[0]);
      held_text.push_back(text);
    }
  }
  for (size_t i = 0; i < held.size(); ++i) {
    std::string text;
    held[i].WriteJson(&text);
    EXPECT_EQ(text, held_text[i]) << i;
  }
}

// A composite output is a reference to what the evaluator built: copies and moves share it, and
// one held past its runner (built of computed values and the kind's constants) still reads and
// writes as it was.
TEST(ViewEngineTest, BuiltOutputsOutliveTheirRunner) {
  const std::string expr = "{n: (.n * 10), list: [(.n - 0), {deep: (.n + 1)}]}";
  view::FusedKind kind({Lowered(expr)});
  std::vector<view::ViewOutput> held;
  {
    view::FusedRunner runner(kind);
    JsonError error;
    ASSERT_TRUE(runner.Run(R"({"n":4})", {}, &error));
    ASSERT_TRUE(runner.result(0).fused);
    view::ViewOutput copy = runner.result(0).outputs[0];
    held.push_back(copy);                  // a second reference
    held.push_back(std::move(copy));       // the copy's reference moves
    EXPECT_FALSE(copy.is_view());          // NOLINT(bugprone-use-after-move): moved from, it is null
    EXPECT_EQ(ToJson(copy.ToValue()), "null");  // NOLINT(bugprone-use-after-move)
    ASSERT_TRUE(runner.Run(R"({"n":5})", {}, &error));
  }
  for (const view::ViewOutput& out : held) {
    std::string text;
    out.WriteJson(&text);
    EXPECT_EQ(text, R"({"n":40,"list":[4,{"deep":5}]})");
    EXPECT_EQ(ToJson(out.ToValue()), text);
  }
}

// select, map and first keep jq's errors: an error inside them (map over a number, first of an
// object, a condition that fails) falls back with the interpreter's message.
TEST(ViewEngineTest, InlinedPreludeFunctionsKeepTheirErrors) {
  for (const char* expr : {".metadata.generation | map(. + 1)", ".metadata | first", ".metadata | select(.name.x)",
                                  "[.spec.replicatedJobs[] | select(.replicas.x)]", ".spec.replicatedJobs | map(.name + 1)"}) {
    for (bool sorted : {false, true}) {
      EXPECT_EQ(RunView(expr, kJobSet, sorted).text, Interpret(*Lowered(expr), kJobSet, sorted)) << expr;
    }
  }
}

TEST(ViewEngineTest, ObjectKeyOrderFollowsTheOption) {
  const std::string doc = R"({"b":1,"a":{"d":2,"c":3}})";
  EXPECT_EQ(RunView(".[]", doc, false).text, "1\n{\"d\":2,\"c\":3}\n");
  EXPECT_EQ(RunView(".[]", doc, true).text, "{\"c\":3,\"d\":2}\n1\n");
  EXPECT_EQ(RunView(".", doc, false).text, "{\"b\":1,\"a\":{\"d\":2,\"c\":3}}\n");
  EXPECT_EQ(RunView(".", doc, true).text, "{\"a\":{\"c\":3,\"d\":2},\"b\":1}\n");
  // ToValue converts the sub-document in the same order.
  view::FusedKind kind({Lowered(".a")}, Options(true, false));
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(doc, {}, &error));
  ASSERT_TRUE(runner.result(0).outputs[0].is_view());
  EXPECT_EQ(ToJson(runner.result(0).outputs[0].ToValue()), "{\"c\":3,\"d\":2}");
}

TEST(ViewEngineTest, WriterIsByteIdenticalToWriteJson) {
  const std::string doc =
      R"({"s":"tab\t nl\n quote\" bs\\ ctl\u0001 del\u007f é \ud83d\ude00 \/","n":[0,1.5,1e100,1e-5,0.0001,)"
      R"(12345678901234567890,-3,1e16,12e15,100000000000000000000000,-1.25e-300],"e":{},"a":[],"t":true,"f":false,"z":null})";
  Value parsed;
  JsonError error;
  ASSERT_TRUE(ParseJson(doc, &parsed, &error));
  for (int indent : {0, 2}) {
    for (bool sort : {false, true}) {
      view::FusedKind kind({Lowered(".")});
      view::FusedRunner runner(kind);
      ASSERT_TRUE(runner.Run(doc, {}, &error));
      std::string text;
      runner.result(0).outputs[0].WriteJson(&text, JsonWriteOptions{indent, sort});
      EXPECT_EQ(text, ToJson(parsed, JsonWriteOptions{indent, sort})) << indent << sort;
    }
  }
}

TEST(ViewEngineTest, ErrorsFallBackToTheEngineWithItsMessage) {
  for (const char* expr : {".a.b", ".a[]", ".a | length", ".a + \"x\"", ".[0]", "{(.a): 1}",
                           "(.b?) | .c", ".a as $x | $x.y", ".b | any(.)", "[.b] | any(.t == 1)"}) {
    ViewRun run = RunView(expr, R"({"a":true,"b":1})");
    EXPECT_TRUE(run.fused_program) << expr;
    EXPECT_FALSE(run.answered) << expr;
    EXPECT_EQ(run.text, Interpret(*Lowered(expr), R"({"a":true,"b":1})", false)) << expr;
    EXPECT_NE(run.text.find("error: "), std::string::npos) << expr << ": " << run.text;
  }
  EXPECT_EQ(RunView(".a.b", R"({"a":1})").text, "error: Cannot index number with \"b\"\n");
  // An error inside `?` is the view engine's own business; outputs before it stay.
  ViewRun quiet = RunView("(.[] | .x)?", R"([{"x":1},2,{"x":3}])");
  EXPECT_TRUE(quiet.answered);
  EXPECT_EQ(quiet.text, "1\n");
}

TEST(ViewEngineTest, UnsupportedFormsRunOnTheEngine) {
  for (const char* expr : {"map(ltrimstr(\"x\"))", "def with_entries(f): 1; .a | with_entries(.)",
                           "def from_entries: 1; [] | from_entries", "def any(f): 1; any(.x)", "try .a catch .",
                           ".. | numbers", "[.[] | select(test(\"x\"))]", "def select(f): 1; select(.x)", "path(.a)",
                           ".a |= 1", "$__loc__", "reduce .[] as $x (0; . + $x)", "ltrimstr(\"x\")", "env"}) {
    view::FusedKind kind({Lowered(expr)});
    EXPECT_FALSE(kind.fused(0)) << expr;
    EXPECT_FALSE(kind.unsupported_reason(0).empty()) << expr;
    ViewRun run = RunView(expr, R"({"a":{"x":1}})");
    EXPECT_FALSE(run.answered);
    EXPECT_EQ(run.text, Interpret(*Lowered(expr), R"({"a":{"x":1}})", false)) << expr;
  }
}

TEST(ViewEngineTest, DocumentsSimdjsonCannotRepresentGoToTheReader) {
  // simdjson reads -0 as 0; jq prints -0.
  ViewRun zero = RunView(".a", R"({"a":-0})");
  EXPECT_EQ(zero.text, "-0\n");
  EXPECT_EQ(zero.stats.document_fallbacks, 1u);
  // Invalid UTF-8 is repaired by the reader (U+FFFD), as ParseJson does.
  ViewRun utf8 = RunView(".a", "{\"a\":\"x\xff\"}");
  EXPECT_EQ(utf8.text, "\"x\xEF\xBF\xBD\"\n");
  EXPECT_EQ(utf8.stats.document_fallbacks, 1u);
  EXPECT_EQ(RunView(".a", R"({"a":1e999})").text, "1.7976931348623157e+308\n");
  // The "-0" scan works 32, 16 and 8 bytes at a time: every offset of the pair against those
  // blocks (a pair across two blocks included), and look-alikes that are not the integer -0
  // (inside names, fractions, exponents) stay on the DOM.
  for (size_t pad = 0; pad < 80; ++pad) {
    // One -0 per document, so each offset is checked alone. With the tail, at pad 16 (and 15) a
    // '-' ends the first 32-byte block and a 16-byte block follows.
    for (const char* array : {"[1,-0]", "[1, -0]"}) {
      std::string doc = "{\"p\":\"" + std::string(pad, 'x') + "\",\"a\":" + array + ",\"q\":\"" +
                        std::string(10, 'y') + "\"}";
      ViewRun run = RunView(".a", doc);
      EXPECT_EQ(run.text, "[1,-0]\n") << doc;
      EXPECT_EQ(run.stats.document_fallbacks, 1u) << doc;
    }
    std::string lookalike = "{\"p\":\"" + std::string(pad, 'x') + "-0\",\"a\":[-0.5,-0e1,10,\"n-0\"]}";
    ViewRun kept = RunView(".a", lookalike);
    EXPECT_EQ(kept.text, "[-0.5,-0,10,\"n-0\"]\n") << lookalike;
    EXPECT_EQ(kept.stats.document_fallbacks, 0u) << lookalike;
  }
  EXPECT_EQ(RunView(".", "-0").text, "-0\n");
  EXPECT_EQ(RunView(".", "{\"a\":").text.rfind("invalid JSON", 0), 0u);
}

// The trie nodes `expr` reads whole (MarkObservedNodes), as sorted paths: "." is the root.
std::vector<std::string> ObservedPaths(const std::string& expr) {
  view::PathTrie trie;
  std::string reason;
  auto program = view::LowerToView(*Lowered(expr), &trie, &reason);
  EXPECT_NE(program, nullptr) << expr << ": " << reason;
  if (program == nullptr) return {};
  std::vector<bool> observed;
  view::MarkObservedNodes(*program, trie, &observed);
  std::vector<std::string> paths;
  for (uint32_t node = 0; node < observed.size(); ++node) {
    if (!observed[node]) continue;
    std::string path;
    for (uint32_t up = node; up != 0; up = trie.nodes[up].parent) {
      path = (trie.nodes[up].iteration ? "[]" : "." + trie.nodes[up].key) + path;
    }
    paths.push_back(path.empty() ? "." : path);
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// Only the parts a program reads whole are checked for -0: a path it reads through to a child
// is not one of them, whatever reads a value whole (an output, an operand of arithmetic whose
// result is output, a builtin, `any`, `keys`, a variable's source) marks it, a node read below an
// iteration marks itself (checked at each element), and the iteration's own value its array. An
// any/all whose condition only compares or tests its element's members reads its array blind. A value only compared, tested for truth, or fed to
// arithmetic that is compared in turn is not marked: no sign of a zero shows there.
TEST(ViewObservedPartsTest, ProgramsMarkThePartsTheyReadWhole) {
  using Paths = std::vector<std::string>;
  const std::vector<std::pair<std::string, Paths>> cases = {
      {".spec.template", {".spec.template"}},
      {".spec | .template", {".spec.template"}},
      {".spec.replicas // 1", {".spec.replicas"}},
      {"(.spec.replicas // 1) * 2", {".spec.replicas"}},
      {"{metadata: .metadata, spec: .spec}", {".metadata", ".spec"}},
      {".spec | keys", {".spec"}},
      {".spec | tostring", {".spec"}},
      {".spec | {r: .replicas, t: .}", {".spec", ".spec.replicas"}},
      {".", {"."}},
      {"keys", {"."}},
      {"length", {"."}},
      {"1", {}},
      {"[.spec.containers[] | .name]", {".spec.containers[].name"}},
      {".spec.containers[] | .resources.limits", {".spec.containers[].resources.limits"}},
      {".spec.containers[]", {".spec.containers"}},
      {"[.spec.containers[] | .name, .]", {".spec.containers", ".spec.containers[].name"}},
      {"[.status.conditions[] | select(.type == \"Ready\")] | length", {".status.conditions"}},
      {".status.conditions | any(.type == \"Ready\")", {}},
      {"(.status.list // []) | any((.ready // 0) > 0 or .active == 0)", {}},
      {".status.list | all(.)", {}},
      {".status.list | any(tostring == \"0\")", {".status.list"}},
      {".status.list | any(keys == [\"a\"])", {".status.list"}},
      {"(.status.list // []) | any(length > 1)", {".status.list"}},
      {"try .a.b", {".a.b"}},
      {".a as $x | $x.b", {".a"}},
      {"if .a.b then .c else 1 end", {".c"}},
      {"if .a > 0 then .b else .c end", {".b", ".c"}},
      {"(.status.ready // 0) > 0", {}},
      {".status.ready == .spec.replicas and (.status.active // 0) != 0", {}},
      {"(.spec.replicas // 1) * 2 > 3", {}},
      {"-(.spec.replicas)", {".spec.replicas"}},
      {"-(.spec.replicas) < 0", {}},
      {".a or (.b | not)", {}},
      {".status.ready | . > 0", {}},
      {".status.ready | type", {}},
      {".a as $x | $x > 0", {".a"}},
      {"[.a, .b] == [1, 2]", {}},
      {"[.a, .b]", {".a", ".b"}},
      {"(.a // -1) | tostring", {".a"}},
      {".a[.b] > 1", {".b"}},
      {".a[.b]", {".a", ".b"}},
      {".status.conditions[] | .type == \"Ready\"", {}},
      {"(.status.ready // 0) > 0 // .spec.x", {".spec.x"}},
      {".metadata.labels | to_entries | map(.key)", {".metadata.labels"}},
      {".metadata.name, .status.phase", {".metadata.name", ".status.phase"}},
  };
  for (const auto& [expr, paths] : cases) EXPECT_EQ(ObservedPaths(expr), paths) << expr;
}

// An object's text, and how many times a runner sends it to the regular reader for its -0.
struct MinusZeroDoc {
  std::string text;
  uint64_t document_fallbacks;
};

// `exprs` as one kind over `docs`: every result agrees with the interpreter's (ExpectAgree, whose
// count of runs answered on the DOM it returns), and each object goes to the regular reader as
// many times as it says.
uint64_t ExpectFallbacks(const std::vector<std::string>& exprs, const std::vector<MinusZeroDoc>& docs) {
  std::vector<std::string> texts;
  for (const MinusZeroDoc& doc : docs) texts.push_back(doc.text);
  const uint64_t answered = ExpectAgree(exprs, texts);
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  view::FusedKind kind(programs);
  view::FusedRunner runner(kind);
  for (const MinusZeroDoc& doc : docs) {
    const uint64_t before = runner.stats().document_fallbacks;
    JsonError error;
    EXPECT_TRUE(runner.Run(doc.text, {}, &error)) << doc.text;
    EXPECT_EQ(runner.stats().document_fallbacks - before, doc.document_fallbacks) << doc.text;
  }
  return answered;
}

// simdjson reads -0 as 0: a kind's runner checks for it only in the parts its programs read, so
// an object whose -0 is elsewhere stays on the DOM with the right results, one with a -0 (or a
// 0 beside a "-0" elsewhere in the text) in those parts goes to the regular reader, and a
// resolver that falls back reads the whole document with its -0.
TEST(ViewEngineTest, MinusZeroIsCheckedWhereTheResolversRead) {
  const std::vector<std::string> exprs = {".spec.template", ".spec.replicas // 1", ".status.conditions"};
  const std::vector<MinusZeroDoc> docs = {
      {R"({"spec":{"replicas":2,"template":{"a":[1]}},"status":{"unavailable":-0,"conditions":[{"n":1}]}})", 0},
      {R"({"spec":{"replicas":2,"template":{"a":[1]}},"status":{"unavailable":0,"conditions":[]}})", 0},
      {R"({"spec":{"replicas":2,"template":{"a":[-0]}},"status":{"conditions":[]}})", 1},
      {R"({"spec":{"replicas":-0,"template":{}},"status":{}})", 1},
      {R"({"spec":{"replicas":2},"status":{"unavailable":-0,"conditions":[{"n":0}]}})", 1},
      {R"({"spec":{"replicas":2},"status":{"conditions":[{"n":-0}]}})", 1},
      {R"({"spec":{"replicas":2,"strategy":{"max":-0}},"status":{"conditions":[{"n":-0.0}]}})", 0},
  };
  EXPECT_EQ(ExpectFallbacks(exprs, docs), 3u * 3u);  // three objects' three resolvers each, per key order
  EXPECT_EQ(RunView(".spec.replicas // 1", docs[3].text).text, "-0\n");
  std::vector<std::string> texts;
  for (const MinusZeroDoc& doc : docs) texts.push_back(doc.text);
  auto programs = std::vector<std::shared_ptr<const ir::Program>>{};
  for (const std::string& e : exprs) programs.push_back(Lowered(e));

  // A resolver the view engine does not take reads the whole document, -0 included (the regular
  // reader, not the DOM's 0), while the others stay on the DOM; so does a kind that reads the root.
  std::vector<std::string> with_whole = exprs;
  with_whole.push_back("[.. | numbers]");
  ExpectAgree(with_whole, texts);
  programs.push_back(Lowered(with_whole.back()));
  view::FusedKind mixed(programs);
  view::FusedRunner mixed_runner(mixed);
  JsonError error;
  ASSERT_TRUE(mixed_runner.Run(docs[0].text, {}, &error));
  EXPECT_EQ(Describe(mixed_runner.result(3)), "[2,1,-0,1]\n");
  EXPECT_FALSE(mixed_runner.result(3).fused);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(mixed_runner.result(i).fused) << exprs[i];
  ExpectAgree({".status.conditions", "keys"}, texts);
  EXPECT_EQ(RunView("[.status.conditions, .spec]", docs[0].text).stats.document_fallbacks, 0u);
  EXPECT_EQ(RunView("[.status.conditions, .]", docs[0].text).stats.document_fallbacks, 1u);
}

// An array that any/all only test member by member (a JobSet's replicated job counters) is not
// checked: a -0 there stays on the DOM with the results of the regular reader all the same. A
// condition that reads its element whole (tostring) has its array checked.
TEST(ViewEngineTest, MinusZeroInAnArrayAnyOnlyTestsStaysOnTheDom) {
  const std::vector<std::string> exprs = {"(.status.list // []) | any((.ready // 0) > 0)",
                                          ".status.list | all(.active == 0)", ".status.conditions"};
  const std::vector<MinusZeroDoc> docs = {
      {R"({"status":{"list":[{"ready":-0,"active":-0},{"ready":0}],"conditions":[]}})", 0},
      {R"({"status":{"list":[{"ready":0}],"conditions":[{"n":-0}]}})", 1},
      {R"({"status":{"list":[{"ready":1,"active":-0}]},"spec":{"x":-0}})", 0},
  };
  ExpectFallbacks(exprs, docs);
  ExpectFallbacks({".status.list | any(tostring == \"[-0]\")"},
                  {{R"({"status":{"list":[[-0]]}})", 1}, {R"({"status":{"list":[[1]],"x":-0}})", 0}});
  EXPECT_EQ(RunView(".status.list | any(tostring == \"[-0]\")", R"({"status":{"list":[[-0]]}})").text, "true\n");
}

// A node read below an iteration is checked at each element, not the whole array: a JobSet's
// jobs whose pod templates hold no zero stay on the DOM whatever their other fields hold (a
// backoffLimit of 0 or -0); a -0 in one element's template, or a 0 there beside a "-0" elsewhere
// in the text, sends the object to the regular reader, over arrays and objects of elements alike.
TEST(ViewEngineTest, MinusZeroBelowAnIterationIsCheckedAtEachElement) {
  const std::vector<std::string> exprs = {".spec.jobs[].template", ".spec.jobs[] | (.replicas // 1)",
                                          "(.status.ready // 0) > 0"};
  const std::vector<MinusZeroDoc> docs = {
      {R"({"spec":{"jobs":[{"backoff":0,"template":{"a":1}},{"backoff":-0,"template":{"b":[2]},"replicas":3}]}})", 0},
      {R"({"spec":{"jobs":[{"template":{"a":1}},{"template":{"b":[-0]}}]},"status":{"ready":0}})", 1},
      {R"({"spec":{"jobs":[{"backoff":-0,"template":{"a":0}}]}})", 1},
      {R"({"spec":{"jobs":[{"template":{}},{"replicas":-0}]}})", 1},
      {R"({"spec":{"jobs":{"x":{"backoff":-0,"template":{"c":1}},"y":{"template":{"c":-0}}}}})", 1},
      {R"({"spec":{"jobs":{"x":{"backoff":-0,"template":{"c":1}}}},"status":{"ready":-0}})", 0},
      {R"({"spec":{"jobs":7,"backoff":-0}})", 0},
      {R"({"spec":{"jobs":[1,null,{"template":-0}]}})", 1},
  };
  ExpectFallbacks(exprs, docs);
  EXPECT_EQ(RunView(".spec.jobs[].template", docs[1].text).text, "{\"a\":1}\n{\"b\":[-0]}\n");
  // The elements themselves as outputs: the array is read whole.
  ExpectFallbacks({".spec.jobs[]"}, {{docs[0].text, 1}, {R"({"spec":{"jobs":[{"a":1}],"x":-0}})", 0}});
}

// A -0 that the resolvers only compare or test (a Job's status counters) stays on the DOM: the
// results are those of the regular reader all the same. One that arithmetic passes to an output
// sends the object to the regular reader, whose -0 the output keeps.
TEST(ViewEngineTest, MinusZeroWhereOnlyComparedStaysOnTheDom) {
  const std::vector<std::string> exprs = {
      ".status.conditions", "(.status.ready // 0) > 0 and (.status.active // 0) == 0",
      "(.spec.parallelism // 1) * 2 > 1", "if .status.failed then 1 else 2 end", ".spec.replicas * 2"};
  const std::vector<MinusZeroDoc> docs = {
      {R"({"spec":{"replicas":2,"parallelism":-0},"status":{"ready":-0,"active":-0,"failed":-0,"conditions":[]}})", 0},
      {R"({"spec":{"replicas":2,"parallelism":0},"status":{"ready":0,"active":-0,"conditions":[{"n":1}]}})", 0},
      {R"({"spec":{"replicas":-0},"status":{"ready":1}})", 1},
      {R"({"spec":{"replicas":1},"status":{"ready":-0,"conditions":[{"n":-0}]}})", 1},
  };
  EXPECT_EQ(ExpectFallbacks(exprs, docs), 2u * exprs.size());  // the first two objects, per key order
  EXPECT_EQ(RunView(".spec.replicas * 2", docs[2].text).text, "-0\n");
  EXPECT_EQ(RunView(".spec.replicas * 2", docs[3].text).text, "2\n");
}

TEST(ViewEngineTest, RepeatedKeysKeepTheLastValueAtTheFirstPosition) {
  const std::string doc = R"({"a":1,"b":2,"a":3})";
  for (const char* expr : {".a", ".", "length", ".[]", "[.[]]", "keys", "to_entries", "{x: .} | .x.a", ". + {a: 5}", "{} + .",
                           ". + {c: 1}", "{b: 0} + .", ". == {}", "with_entries(.)", "to_entries | from_entries"}) {
    for (bool sorted : {false, true}) {
      EXPECT_EQ(RunView(expr, doc, sorted).text, Interpret(*Lowered(expr), doc, sorted)) << expr;
    }
  }
  EXPECT_EQ(RunView(".", doc).text, "{\"a\":3,\"b\":2}\n");
  EXPECT_TRUE(RunView(".a", doc).answered);
}

TEST(ViewEngineTest, LimitsAreTheEnginesLimits) {
  RunOptions two;
  two.limits.max_outputs = 2;
  ViewRun outputs = RunView(".[]", "[1,2,3]", false, two);
  EXPECT_EQ(outputs.text, Interpret(*Lowered(".[]"), "[1,2,3]", false, two));
  EXPECT_NE(outputs.text.find("query results exceed the allowed number 2"), std::string::npos);
  EXPECT_EQ(RunView(".[]", "[1]", false, two).text, "1\n");
  RunOptions tight;
  tight.limits.fuel = 20;
  std::string big = "[";
  for (int i = 0; i < 100; ++i) big += (i ? "," : "") + std::to_string(i);
  big += "]";
  // A resolver that is one path has one output: a cap of one makes it the engine's error too.
  RunOptions one;
  one.limits.max_outputs = 1;
  for (const char* doc : {R"({"a":{"b":1}})", R"({"x":1})"}) {
    ViewRun capped = RunView(".a", doc, false, one);
    EXPECT_EQ(capped.text, Interpret(*Lowered(".a"), doc, false, one)) << doc;
    EXPECT_FALSE(capped.answered) << doc;
  }
  ViewRun fuel = RunView(".[] | . + 1", big, false, tight);
  EXPECT_FALSE(fuel.answered);
  EXPECT_NE(fuel.text.find("evaluation step budget exhausted (fuel 20)"), std::string::npos);
}

TEST(ViewEngineTest, PathsSharedByResolversAreReadOnce) {
  std::vector<std::shared_ptr<const ir::Program>> programs = {
      Lowered(".spec.replicatedJobs[].name"), Lowered(".spec.suspend // false"),
      Lowered(".status.conditions"), Lowered("map(.x | ltrimstr(\"a\"))")};
  view::FusedKind kind(programs);
  EXPECT_EQ(kind.fused_count(), 3u);
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(kJobSet, {}, &error));
  EXPECT_EQ(Describe(runner.result(0)), "\"leader\"\n\"workers\"\n");
  EXPECT_EQ(Describe(runner.result(1)), "false\n");
  EXPECT_EQ(Describe(runner.result(3)), "error: Cannot index string with \"x\"\n");
  EXPECT_EQ(runner.stats().fused_runs, 3u);
  EXPECT_EQ(runner.stats().fallback_runs, 1u);
  // The runner is reusable: the next object replaces every result.
  ASSERT_TRUE(runner.Run(R"({"spec":{"suspend":true,"replicatedJobs":[]}})", {}, &error));
  EXPECT_EQ(Describe(runner.result(0)), "");
  EXPECT_EQ(Describe(runner.result(1)), "true\n");
  EXPECT_EQ(Describe(runner.result(2)), "null\n");
}

// Resolvers that are one trie path are answered before the others, in one loop; a path through a
// value that is not an object is left to the engine (its error), and every result and counter is
// the object's own, whatever the previous object gave.
TEST(ViewEngineTest, PathResolversAnsweredFirstKeepTheirResults) {
  std::vector<std::shared_ptr<const ir::Program>> programs = {Lowered(".a.b"), Lowered(".a | length"),
                                                              Lowered(".c"), Lowered(".a.b.c")};
  view::FusedKind kind(programs);
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(R"({"a":1,"c":[2]})", {}, &error));
  EXPECT_EQ(Describe(runner.result(0)), "error: Cannot index number with \"b\"\n");
  EXPECT_EQ(Describe(runner.result(1)), "1\n");
  EXPECT_EQ(Describe(runner.result(2)), "[2]\n");
  EXPECT_EQ(Describe(runner.result(3)), "error: Cannot index number with \"b\"\n");
  EXPECT_FALSE(runner.result(0).fused);
  EXPECT_TRUE(runner.result(2).fused);
  EXPECT_EQ(runner.stats().fused_runs, 2u);
  EXPECT_EQ(runner.stats().fallback_runs, 2u);
  ASSERT_TRUE(runner.Run(R"({"a":{"b":{"c":3}}})", {}, &error));
  EXPECT_EQ(Describe(runner.result(0)), "{\"c\":3}\n");
  EXPECT_EQ(Describe(runner.result(2)), "null\n");
  EXPECT_EQ(Describe(runner.result(3)), "3\n");
  EXPECT_TRUE(runner.result(0).fused);
  EXPECT_EQ(runner.stats().fused_runs, 6u);
  EXPECT_EQ(runner.stats().fallback_runs, 2u);
}

// The path resolvers' results are rewritten only when the last object's are not what an object
// whose paths all answer gives; every object still gets its own outputs, statuses and counters,
// whichever way the objects before it went (all answered, a path left to the engine part way,
// an output cap that sends every path to it).
TEST(ViewEngineTest, PathResolversResultsFollowEachObject) {
  const std::vector<std::string> exprs = {".a.b", ".c", ".a.b.c", ".d | length", ".e"};
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  view::FusedKind kind(programs);
  view::FusedRunner runner(kind);
  RunOptions one;
  one.limits.max_outputs = 1;
  struct Step {
    const char* doc;
    const RunOptions* options;
    uint64_t answered_paths;  // of the four path resolvers
    bool document_fallback = false;  // simdjson cannot hold it exactly (-0): every resolver to the engine
  };
  const RunOptions defaults;
  const Step steps[] = {
      {R"({"a":{"b":{"c":1}},"c":2,"e":[1]})", &defaults, 4},
      {R"({"a":{"b":{"c":5}},"c":3,"d":"xy"})", &defaults, 4},
      {R"({"a":{"b":7},"c":4})", &defaults, 3},                // .a.b.c: the engine's error
      {R"({"a":{"b":{"c":6}},"e":{"f":null}})", &defaults, 4},  // that error is gone
      {R"({"a":"s","c":1})", &defaults, 2},                    // the first path fails
      {R"({"a":{"b":{"c":6}},"c":8})", &one, 0},                // a cap of one: every path to the engine
      {R"({"a":{"b":{"c":9}},"c":0})", &defaults, 4},
      {R"({"a":"s","c":-0})", &defaults, 0, true},   // after all four on the DOM: .a.b's error on the reader
      {R"({"a":{"b":{"c":2}},"c":3})", &defaults, 4},  // then each result is this object's again
      {R"({"a":{"b":{"c":3}},"c":-0})", &defaults, 0, true},
      {R"({"a":{"b":{"c":4}},"c":-1})", &defaults, 4},
  };
  uint64_t fused_runs = 0;
  for (const Step& step : steps) {
    JsonError error;
    ASSERT_TRUE(runner.Run(step.doc, *step.options, &error)) << step.doc;
    for (size_t i = 0; i < exprs.size(); ++i) {
      EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], step.doc, false, *step.options))
          << exprs[i] << " on " << step.doc;
      if (i == 3) continue;  // `.d | length` runs in the main loop
      // A path resolver is answered on the DOM exactly when it succeeds under the default cap.
      const bool on_dom =
          runner.result(i).status == EvalStatus::kOk && step.options == &defaults && !step.document_fallback;
      EXPECT_EQ(runner.result(i).fused, on_dom) << exprs[i] << " on " << step.doc;
    }
    fused_runs += step.answered_paths + (runner.result(3).fused ? 1 : 0);
    EXPECT_EQ(runner.stats().fused_runs, fused_runs) << step.doc;
  }
  // Text that is not JSON fails the run, and no result is left referring to the last object's
  // outputs; the object after it gets results of its own.
  JsonError error;
  ASSERT_TRUE(runner.Run(R"({"a":{"b":{"c":1}},"c":2})", defaults, &error));
  EXPECT_FALSE(runner.Run(R"({"a":{"b")", defaults, &error));
  for (size_t i = 0; i < exprs.size(); ++i) EXPECT_EQ(runner.result(i).outputs.size(), 0u) << exprs[i];
  const char* next = R"({"a":{"b":{"c":5}},"c":6})";
  ASSERT_TRUE(runner.Run(next, defaults, &error));
  for (size_t i = 0; i < exprs.size(); ++i) {
    EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], next, false, defaults)) << exprs[i];
  }
}

// A literal resolver's output is made once per runner and its result written only when the last
// run's is not already it: across objects, a cap of one (the engine's error), a document that goes
// to the reader and text that is not JSON, every result stays the interpreter's, in both key orders.
TEST(ViewEngineTest, ConstantResolversKeepTheirOutputAcrossObjects) {
  const std::vector<std::string> exprs = {"1", ".a", "\"s\"", "{b: 2, a: [1, {d: 1, c: 0}]}", "null", "[3, 2]"};
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  RunOptions one;
  one.limits.max_outputs = 1;
  const RunOptions defaults;
  struct Step {
    const char* doc;
    const RunOptions* options;
    bool on_dom;  // every literal answered without the regular engine
  };
  const Step steps[] = {
      {R"({"a":1})", &defaults, true},
      {R"({"a":2})", &defaults, true},
      {R"({"a":3})", &one, false},        // a cap of one: the engine's error
      {R"({"a":4})", &defaults, true},    // the outputs are back
      {R"({"a":-0})", &defaults, false},  // the reader's document: every resolver on the engine
      {R"({"a":5})", &defaults, true},
      {R"({"a":)", &defaults, false},     // not JSON: no result refers to an output
      {R"({"a":6})", &defaults, true},
  };
  for (bool sorted : {false, true}) {
    view::FusedKind kind(programs, Options(sorted, false));
    view::FusedRunner runner(kind);
    uint64_t literal_runs = 0;
    for (const Step& step : steps) {
      JsonError error;
      const uint64_t fused_before = runner.stats().fused_runs;
      if (!runner.Run(step.doc, *step.options, &error)) {
        for (size_t i = 0; i < exprs.size(); ++i) EXPECT_EQ(runner.result(i).outputs.size(), 0u) << exprs[i];
        continue;
      }
      for (size_t i = 0; i < exprs.size(); ++i) {
        EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], step.doc, sorted, *step.options))
            << exprs[i] << " on " << step.doc << " (sorted " << sorted << ")";
        if (i != 1) {
          EXPECT_EQ(runner.result(i).fused, step.on_dom) << exprs[i] << " on " << step.doc;
        }
      }
      // Every resolver here is a literal or a path: each one answered on the DOM counts once.
      if (step.on_dom) literal_runs += exprs.size();
      EXPECT_EQ(runner.stats().fused_runs - fused_before, step.on_dom ? exprs.size() : 0u) << step.doc;
    }
    EXPECT_EQ(runner.stats().fused_runs, literal_runs);
  }
}

// `{k: P, ...}` of root paths and literals (a Pod's `{metadata: .metadata, spec: .spec}`) is built
// without the evaluator, the object of the last run refilled in place unless the caller holds a
// copy; where a path is an error or a limit could be reached, its program answers. Every result is
// the interpreter's.
TEST(ViewEngineTest, ObjectsOfRootPathsAreRefilledUnlessHeld) {
  const std::string expr = R"({name: .metadata.name, spec: .spec, kind: "Pod", n: 1})";
  const auto program = Lowered(expr);
  RunOptions one, little_fuel, little_memory;
  one.limits.max_outputs = 1;
  little_fuel.limits.fuel = 2;
  little_memory.limits.max_memory_bytes = 100;
  const RunOptions defaults;
  struct Step {
    const char* doc;
    const RunOptions* options;
    bool direct;  // built without the evaluator
  };
  const Step steps[] = {
      {R"({"metadata":{"name":"a"},"spec":{"x":1}})", &defaults, true},
      {R"({"metadata":{"name":"b"}})", &defaults, true},                 // no spec: null
      {R"({"metadata":"text","spec":{"x":2}})", &defaults, false},      // .metadata.name fails
      {R"({"metadata":{"name":"c"},"spec":[1,2]})", &defaults, true},
      {R"({"metadata":{"name":"d"},"spec":{}})", &one, false},          // the output cap
      {R"({"metadata":{"name":"e"},"spec":{}})", &little_fuel, false},  // the step budget
      {R"({"metadata":{"name":"f"},"spec":{}})", &little_memory, false},
      {R"({"metadata":{"name":"g"},"spec":-0})", &defaults, false},     // the reader's document
      {R"({"metadata":{"name":"h"},"spec":{"y":[true]}})", &defaults, true},
  };
  for (bool sorted : {false, true}) {
    view::FusedKind kind({program}, Options(sorted, false));
    view::FusedRunner runner(kind);
    for (const Step& step : steps) {
      JsonError error;
      const uint64_t objects_before = runner.stats().object_runs;
      ASSERT_TRUE(runner.Run(step.doc, *step.options, &error)) << step.doc;
      EXPECT_EQ(Describe(runner.result(0)), Interpret(*program, step.doc, sorted, *step.options))
          << step.doc << " (sorted " << sorted << ")";
      EXPECT_EQ(runner.stats().object_runs - objects_before, step.direct ? 1u : 0u) << step.doc;
    }
  }
  // Refilled in place from one object to the next; a copy the caller holds is left as it was
  // (a new object is built instead), and its text stays the interpreter's while its document does.
  view::FusedKind kind({program});
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(steps[0].doc, defaults, &error));
  const view::ViewComposite* first = runner.result(0).outputs[0].composite();
  ASSERT_NE(first, nullptr);
  // An object whose paths are all absent holds no view of its document: readable after the next run.
  const char* absent = R"({"x":1})";
  ASSERT_TRUE(runner.Run(absent, defaults, &error));
  EXPECT_EQ(runner.result(0).outputs[0].composite(), first);
  const view::ViewOutput held = runner.result(0).outputs[0];
  std::string held_text;
  held.WriteJson(&held_text);
  ASSERT_TRUE(runner.Run(steps[3].doc, defaults, &error));
  EXPECT_NE(runner.result(0).outputs[0].composite(), held.composite());
  std::string text;
  runner.result(0).outputs[0].WriteJson(&text);
  EXPECT_EQ(text + "\n", Interpret(*program, steps[3].doc, false));
  std::string held_again;
  held.WriteJson(&held_again);
  EXPECT_EQ(held_again, held_text);
  EXPECT_EQ(held_text + "\n", Interpret(*program, absent, false));
}

// A resolver that is one trie iteration (`.a[]`, `.a[].b.c`, `.a[] | .d`) appends each element's
// value where the cache keeps it when all of them fit under the output limit, and otherwise
// goes through the evaluator's Emit, which leaves the limit's error to the engine: both give the
// interpreter's outputs, and an element that is not an object gives the engine's error.
TEST(ViewEngineTest, EachPathResolversAppendEveryElementsValue) {
  const std::vector<std::string> exprs = {".a[]", ".a[].b", ".a[].b.c", ".a[] | .d", ".e.f", ".a | to_entries[] | .key"};
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  view::FusedKind kind(programs);
  ASSERT_EQ(kind.fused_count(), exprs.size());
  view::FusedRunner runner(kind);
  const char* docs[] = {
      R"({"a":[{"b":{"c":1},"d":2},{"b":3},{}],"e":{"f":4}})",
      R"({"a":[]})",
      R"({"a":{"x":{"b":{"c":5}},"y":{"d":[6]}}})",       // an object's values, in key order
      R"({"a":[{"b":{"c":7}},8,{"b":null}]})",            // 8.b: the engine's error
      R"({"a":[{"b":"s"}]})",                             // "s".c: the engine's error
      R"({"a":null})",                                    // null | .[]: the engine's error
      R"({"a":[{"b":{"c":1},"b":{"c":9}},{"d":false}]})",  // a repeated key keeps its last value
  };
  for (size_t limit : {size_t{0}, size_t{2}, size_t{3}, size_t{4}}) {
    RunOptions options;
    if (limit != 0) options.limits.max_outputs = limit;
    for (const char* doc : docs) {
      JsonError error;
      ASSERT_TRUE(runner.Run(doc, options, &error)) << doc;
      for (size_t i = 0; i < exprs.size(); ++i) {
        EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, false, options))
            << exprs[i] << " on " << doc << " with limit " << limit;
      }
      // The resolvers over one iteration are answered together: one that meets an error at an
      // element goes to the regular engine alone, and the others stay on the DOM.
      if (limit == 0 && std::string(doc) == R"({"a":[{"b":{"c":7}},8,{"b":null}]})") {
        EXPECT_TRUE(runner.result(0).fused);   // .a[]
        EXPECT_FALSE(runner.result(1).fused);  // .a[].b: 8.b
        EXPECT_FALSE(runner.result(3).fused);  // .a[] | .d
        EXPECT_TRUE(runner.result(4).fused);   // .e.f
        EXPECT_TRUE(runner.result(5).fused);   // the keys
      }
    }
  }
}

// Each-path resolvers on an object whose iteration has no element (`.[]?` of what is not
// iterable, an empty array or object, an absent key), on a runner whose first object it is: no
// output each, as the interpreter gives, read from per-element arrays never allocated.
TEST(ViewEngineTest, EachPathResolversOnNoElementsGiveNothing) {
  const std::vector<std::string> exprs = {".a[]?.b", ".a[]?.b.c", ".a[]?", ".a[].b", ".a | to_entries[] | .key"};
  for (const char* doc : {R"({"a":1})", R"({"a":[]})", R"({"a":{}})", R"({})", R"({"a":"s"})"}) {
    std::vector<std::shared_ptr<const ir::Program>> programs;
    for (const std::string& e : exprs) programs.push_back(Lowered(e));
    view::FusedKind kind(programs);
    view::FusedRunner runner(kind);
    JsonError error;
    ASSERT_TRUE(runner.Run(doc, {}, &error)) << doc;
    for (size_t i = 0; i < exprs.size(); ++i) {
      EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, false)) << exprs[i] << " on " << doc;
    }
  }
}

// `P | to_entries[] | .value...` is lowered onto the trie's iteration of P (an entry's value is
// the element `.[]` gives, in the same order): same outputs as the interpreter in both key orders,
// on objects (a repeated key included) and arrays; the errors of other inputs come from the engine.
TEST(ViewEngineTest, EntryValuesAreTheIterationsElements) {
  const std::vector<std::string> exprs = {
      ".s | to_entries[] | .value", ".s | to_entries[] | .value.a", ".s | to_entries[] | .value.a.b",
      ".s | to_entries[] | .value | {x: .a, k: (.a // 0)}", "[.s | to_entries[] | .value.a]",
      ".s | to_entries[] | .value | .a // \"none\"", ".s | to_entries[] | .key",
      ".t[] | .s | to_entries[] | .value.a", ".s | (to_entries[] | .value.a), length",
      // keys: an object member's name, an array element's index, in the iteration's order
      ".s | to_entries[] | .key | tostring", "[.s | to_entries[] | .key] | length",
      ".s | to_entries[] | .key | . == \"m\"", "[.s | to_entries[] | .key, .value.a]"};
  const std::vector<std::string> answered_docs = {
      R"({"s":{"m":{"a":{"b":1}},"b":{"a":{"b":2}},"c":{}},"t":[{"s":{"q":{"a":3}}}]})",
      R"({"s":[{"a":{"b":1}},{"a":null,"z":0}],"t":[],"z":1})", R"({"s":{},"t":[]})", R"({"s":[],"t":[]})"};
  for (const std::string& expr : exprs) {
    for (const std::string& doc : answered_docs) ExpectFused(expr, doc);
  }
  // A repeated key: its last value at its first position, as the interpreter reads the document.
  for (const std::string& expr : exprs) {
    for (bool sorted : {false, true}) {
      const std::string doc = R"({"s":{"m":{"a":{"b":1}},"b":{"a":{}},"m":{"a":{"b":3}}},"t":[]})";
      EXPECT_EQ(RunView(expr, doc, sorted).text, Interpret(*Lowered(expr), doc, sorted)) << expr;
    }
  }
  // Each key alone needs no evaluator: the runner lists them where the tape keeps them.
  for (bool sorted : {false, true}) {
    const std::string expr = ".s | to_entries[] | .key";
    view::FusedKind kind({Lowered(expr)}, Options(sorted, false));
    view::FusedRunner runner(kind);
    for (const std::string& doc : answered_docs) {
      JsonError error;
      ASSERT_TRUE(runner.Run(doc, {}, &error)) << doc;
      EXPECT_EQ(Describe(runner.result(0)), Interpret(*Lowered(expr), doc, sorted)) << doc;
    }
    EXPECT_EQ(runner.stats().fused_runs, answered_docs.size());
    EXPECT_EQ(runner.stats().flat_runs, 0u);
  }
  for (const char* doc : {R"({"s":null,"t":[]})", R"({"s":"str","t":[]})", R"({"s":1,"t":[]})", R"({"t":[]})"}) {
    for (const char* expr : {".s | to_entries[] | .value.a", ".s | to_entries[] | .key"}) {
      ViewRun run = RunView(expr, doc);
      EXPECT_FALSE(run.answered) << doc;
      EXPECT_EQ(run.text, Interpret(*Lowered(expr), doc, false)) << doc;
      EXPECT_NE(run.text.find("has no keys"), std::string::npos) << doc << ": " << run.text;
    }
  }
}

TEST(ViewEngineTest, GlobalsAreTheFirstSlots) {
  driver::ExpressionOptions options;
  options.global_vars = {"x"};
  auto lowered = driver::LowerExpression("$x + .a", options);
  ASSERT_TRUE(lowered.ok());
  view::FusedKind kind({lowered->program});
  ASSERT_TRUE(kind.fused(0)) << kind.unsupported_reason(0);
  view::FusedRunner runner(kind);
  std::vector<Value> globals = {Value::Number(40)};
  RunOptions run;
  run.globals = &globals;
  JsonError error;
  ASSERT_TRUE(runner.Run(R"({"a":2})", run, &error));
  EXPECT_TRUE(runner.result(0).fused);
  EXPECT_EQ(Describe(runner.result(0)), "42\n");
}

// Every resolver of every catalog definition on every catalog example object (of any kind: the
// cross-kind runs exercise missing paths and errors), through the view engine and the
// interpreter, in both key orders.
TEST(ViewEngineTest, CatalogResolversAgreeWithTheInterpreter) {
  namespace fs = std::filesystem;
  std::string bytes = CompileRepositoryBundle("catalog", /*type_check=*/false);
  ASSERT_FALSE(bytes.empty());
  std::string error;
  std::shared_ptr<Bundle> bundle = Bundle::FromBytes(bytes, "catalog.wmb", &error);
  ASSERT_TRUE(bundle) << error;
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (size_t id = 0; id < bundle->resolver_count(); ++id) {
    programs.push_back(bundle->resolver_program(static_cast<int32_t>(id)));
  }
  std::vector<std::string> documents;
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(std::string(WM_SOURCE_DIR) + "/catalog/examples")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    std::string text;
    ASSERT_TRUE(base::ReadWholeFile(file, &text, &error)) << error;
    base::yaml::Error yaml_error;
    std::vector<std::string> in_file;
    ASSERT_TRUE(base::yaml::TextToJson(text, {}, &in_file, &yaml_error)) << file;
    documents.insert(documents.end(), in_file.begin(), in_file.end());
  }
  ASSERT_GT(documents.size(), 20u);
  size_t compared = 0, answered = 0;
  for (bool sorted : {false, true}) {
    view::FusedKind kind(programs, Options(sorted, false));
    view::FusedRunner runner(kind);
    for (const std::string& doc : documents) {
      JsonError json_error;
      ASSERT_TRUE(runner.Run(doc, {}, &json_error));
      for (size_t i = 0; i < programs.size(); ++i) {
        ASSERT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, sorted))
            << programs[i]->source << "\non " << doc;
        ++compared;
        answered += runner.result(i).fused ? 1 : 0;
      }
    }
    if (!sorted) {
      std::printf("[ view ] %zu of %zu catalog resolvers fused; %zu of %zu runs answered on the DOM\n",
                  kind.fused_count(), kind.size(), answered, compared);
    }
  }
  EXPECT_GT(answered, compared / 4);
}

// A whole resolver `[f][]` (dynamo's `[.components[] | ... | first][]`) is lowered as f: on the
// DOM it outputs f's values with no array built, and where f fails after some outputs (where
// `[f][]` has none) the resolver goes to the regular engine, whose answer is the interpreter's.
// Below `//`, `?` and `first(...)`, which keep f's outputs before an error, it stays `[f][]`.
TEST(ViewEngineTest, AWholeCollectThenIterateIsItsBody) {
  const std::vector<std::string> exprs = {
      "[.a[] | .b][]", "[.a[] | select(.b == 1) | .c][]", "[.a[].b | first(.[]?)][]",
      "([.a[] | .b.c][]) // \"none\"", "([.a[] | .b.c][])?", "try ([.a[] | .b.c][]) catch 0", "[[.a[] | .b.c][]]", "first([.a[] | .b.c][])",
      "[.a[] | .b.c][] | . + 1"};
  const std::vector<std::string> docs = {
      R"({"a":[{"b":1,"c":"x"},{"b":2,"c":"y"},{"b":1}]})",
      R"({"a":[{"b":{"c":1}},{"b":{"c":2}}]})",
      R"({"a":[{"b":{"c":1}},{"b":"s"},{"b":{"c":3}}]})",  // `.b.c` fails at the second element
      R"({"a":[{"b":[5,6]},{"b":7}]})", R"({"a":[]})", R"({"a":{"k":{"b":1}}})", R"({"a":3})", R"({})"};
  ExpectAgree(exprs, docs);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);

  // On the DOM where f does not fail; to the regular engine where it does, with none of the
  // outputs f made before failing. A path per element (answered by its iteration's group) and
  // code per element (which outputs as it goes) both.
  for (const std::string expr : {"[.a[] | .b.c][]", "[.a[] | .b.c + 10][]"}) {
    const std::shared_ptr<const ir::Program> whole = Lowered(expr);
    view::FusedKind kind({whole});
    view::FusedRunner runner(kind);
    JsonError error;
    const std::string fine = R"({"a":[{"b":{"c":1}},{"b":{"c":2}}]})";
    ASSERT_TRUE(runner.Run(fine, {}, &error));
    EXPECT_TRUE(runner.result(0).fused) << expr;
    EXPECT_EQ(Describe(runner.result(0)), Interpret(*whole, fine, false)) << expr;
    const std::string failing = R"({"a":[{"b":{"c":1}},{"b":"s"}]})";
    ASSERT_TRUE(runner.Run(failing, {}, &error));
    EXPECT_FALSE(runner.result(0).fused) << expr;
    EXPECT_EQ(Describe(runner.result(0)), Interpret(*whole, failing, false)) << expr;
    EXPECT_EQ(runner.result(0).outputs.size(), 0u) << expr;  // the first element's is not among them
  }
}

}  // namespace
}  // namespace wm::testing
