// The view engine as native code (codegen::MakeNativeViewCompiler): a kind whose trie is filled
// by generated code, and whose programs' flat code runs as generated code, answers exactly as
// the tables, Exec and the interpreter, on the cases the generated code could get wrong: keys of
// every size around the 8-byte words, keys sharing a first word or a size, repeated keys, objects
// under scalars, arrays and null, iteration elements of every kind, escaped and non-ASCII keys;
// programs' reads of every state, truthiness of every kind of value, comparisons, the memo shared
// between resolvers, and the step budget. (Every other view test also runs its kinds native:
// ExpectAgree, RunView.)
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/unit/view/view_test_util.h"

namespace wm::testing {
namespace {

// Keys of sizes 0 to 26, several per size, sharing their first 8 bytes and their last 8.
std::vector<std::string> TrickyKeys() {
  std::vector<std::string> keys = {"", "a", "b", "ab", "ba", "abcdefg", "abcdefh", "abcdefgh", "abcdefgi", "abcdefghi",
                                   "abcdefghj", "replicas", "replicasX", "readyReplicas", "readyReplicaz",
                                   "updatedReplicasXYZ", "updatedReplicasXYW", "zpdatedReplicasXYZ",
                                   "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyZ", "aBcdefghijklmnopqrstuvwxyz"};
  return keys;
}

std::string Quoted(const std::string& key) { return "\"" + key + "\""; }

// `exprs` as one kind with native code, each native but those in `not_native`, one runner over
// `docs` in turn: every result equals the interpreter's. Returns the runner's counters.
view::FusedStats ExpectNativeAgrees(const std::vector<std::string>& exprs, const std::vector<std::string>& docs,
                                    const std::set<size_t>& not_native = {}) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  view::FusedKind kind(programs, Options(false, true));
  for (size_t i = 0; i < exprs.size(); ++i) EXPECT_EQ(kind.native_program(i), !not_native.count(i)) << exprs[i];
  view::FusedRunner runner(kind);
  for (const std::string& doc : docs) {
    JsonError error;
    EXPECT_TRUE(runner.Run(doc, {}, &error)) << doc;
    for (size_t i = 0; i < exprs.size(); ++i) {
      EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, false)) << exprs[i] << " on " << doc;
    }
  }
  return runner.stats();
}

// `expr` on `doc` under `options`, by a runner of a kind with native code and one without (Exec):
// the same answer, and the same answer by the view engine or its fallback. Returns the native
// runner's native runs.
uint64_t ExpectNativeAsExec(const std::string& expr, const std::string& doc, const RunOptions& options,
                            const std::string& context) {
  view::FusedKind kind({Lowered(expr)}, Options(false, true));
  view::FusedKind exec({Lowered(expr)}, Options(false, false));
  EXPECT_TRUE(kind.native_program(0)) << expr;
  view::FusedRunner runner(kind), exec_runner(exec);
  JsonError error;
  EXPECT_TRUE(runner.Run(doc, options, &error));
  EXPECT_TRUE(exec_runner.Run(doc, options, &error));
  EXPECT_EQ(Describe(runner.result(0)), Describe(exec_runner.result(0))) << context;
  EXPECT_EQ(runner.result(0).fused, exec_runner.result(0).fused) << context;
  return runner.stats().native_runs;
}

TEST(ViewNativeFillTest, KindsCompileToNativeViewCode) {
  view::FusedKind kind({Lowered(".spec.replicas"), Lowered(".spec.list[] | .name"), Lowered(".status.phase")},
                       Options(false, true));
  EXPECT_TRUE(kind.native_code()) << kind.native_error();
  view::FusedKind tables({Lowered(".spec.replicas")}, Options(false, false));
  EXPECT_FALSE(tables.native_code());
}

TEST(ViewNativeFillTest, KeysOfEverySizeAreToldApart) {
  // Each key read at the root and one level down; the documents hold every key, a subset, keys
  // one byte off (the same size, the same head or tail), and the keys in another order.
  std::vector<std::string> exprs;
  for (const std::string& key : TrickyKeys()) {
    exprs.push_back("." + Quoted(key));
    exprs.push_back(".spec." + Quoted(key));
  }
  std::vector<std::string> docs;
  std::string all = "{", spec = "{", near = "{";
  int n = 0;
  for (const std::string& key : TrickyKeys()) {
    const std::string sep = n == 0 ? "" : ",";
    all += sep + Quoted(key) + ":" + std::to_string(n);
    spec += sep + Quoted(key) + ":{\"v\":" + std::to_string(n) + "}";
    std::string off = key.empty() ? "x" : key;
    off.back() = static_cast<char>(off.back() + 1);
    near += sep + Quoted(off) + ":" + std::to_string(n);
    ++n;
  }
  docs.push_back(all + ",\"spec\":" + spec + "}}");
  docs.push_back(near + ",\"spec\":" + near + "}}");
  docs.push_back(R"({"spec":{"abcdefghi":1,"replicas":[1,2]},"abcdefgh":"x","readyReplicas":null})");
  docs.push_back("{}");
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
}

TEST(ViewNativeFillTest, RepeatedKeysAndWhatIsUnderScalars) {
  // The last of a repeated key is read and descended into; a path under a string, number,
  // boolean or array is an error, under null it is null; a member after a nested object or a
  // number (two tape words) is still found.
  const std::vector<std::string> exprs = {".a.b.c", ".a.b", ".a.d", ".e", ".a.b.c.x"};
  const std::vector<std::string> docs = {
      R"({"a":{"b":{"c":1},"b":{"c":2}},"e":3})",
      R"({"a":{"b":{"c":1},"d":2.5,"b":{"c":{"x":[1]}}},"e":1e300})",
      R"({"a":{"b":"str"},"e":[{"a":1}]})",
      R"({"a":{"b":17},"e":true})",
      R"({"a":{"b":[{"c":1}]},"e":false})",
      R"({"a":{"b":null},"e":null})",
      R"({"a":null})",
      R"({"a":"x","e":{"a":{"b":{"c":9}}}})",
      R"({"a":{"n":-1,"u":18446744073709551615,"d":0.5,"b":{"c":{"x":"deep"}}},"e":{}})",
      R"({"a":{"b":{"c":true},"d":{"b":{"c":1}}},"e":"end"})",
      R"([1,2])",
      R"("text")",
      R"(null)",
  };
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
}

TEST(ViewNativeFillTest, IterationElementsOfEveryKind) {
  const std::vector<std::string> exprs = {".spec.items[] | .name", ".spec.items[] | .meta.labels.app",
                                          ".spec.items[]? | .meta.size", ".spec.map[] | .x.y",
                                          "[.spec.items[] | select(.meta.size > 1) | .name]"};
  const std::vector<std::string> docs = {
      R"({"spec":{"items":[{"name":"a","meta":{"labels":{"app":"x"},"size":2}},{"name":"b"},{"meta":null},
                            {"meta":{"labels":"s"}},{"name":"c","name":"d","meta":{"size":3,"labels":{"app":1}}}],
                  "map":{"k1":{"x":{"y":1}},"k2":{"x":null},"k3":{"x":[1]},"k4":7}}})",
      R"({"spec":{"items":[1,"s",null,true,[{"name":"n"}]],"map":{}}})",
      R"({"spec":{"items":[],"map":{"only":{"x":{"y":"z"}}}}})",
      R"({"spec":{"items":{"a":{"name":"in object"},"b":{"meta":{"size":5}}},"map":[{"x":{"y":2}}]}})",
      R"({"spec":{}})",
  };
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
}

TEST(ViewNativeFillTest, EscapedAndNonAsciiKeys) {
  const std::vector<std::string> exprs = {R"(.["a\"b"])", R"(.["é"].x)", R"(.["tab\tkey"])", R"(.["\u0000z"])",
                                          R"(.["ünïcödé-long-key"].y)"};
  const std::vector<std::string> docs = {
      R"({"a\"b":1,"\u00e9":{"x":2},"tab\tkey":3,"\u0000z":4,"ünïcödé-long-key":{"y":5}})",
      R"({"a\\b":1,"e":{"x":2},"tab key":3,"z":4,"ünïcödé-long-kex":{"y":5}})",
  };
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
}

// Status-style programs (the catalog's): every one native, answering as the interpreter on
// values of every kind, absent paths, paths under scalars (an error: the regular engine words
// it) and the shared subexpressions of several resolvers.
TEST(ViewNativeProgramTest, StatusProgramsRunNativeAndAgree) {
  const std::vector<std::string> exprs = {
      ".spec.replicas // 1",
      "(.spec.suspend // false) == true",
      "(.spec.suspend // false) != true and .status.lastScheduleTime != null",
      "(.spec.suspend // false) != true and .status.lastScheduleTime == null",
      "(.status.readyReplicas // 0) == (.spec.replicas // 1)",
      "(.status.readyReplicas // 0) >= (.spec.replicas // 1) or .status.phase == \"Running\"",
      "if .status.phase == \"Failed\" then \"bad\" elif .status.phase then .status.phase else null end",
      ".status.phase < \"M\"",
      ".spec.replicas > 2",
      ". == {}",
      "(.spec.suspend | not) and (.status.ready // false)",
  };
  const std::vector<std::string> docs = {
      R"({"spec":{"replicas":3,"suspend":false},"status":{"readyReplicas":3,"phase":"Running","lastScheduleTime":"t"}})",
      R"({"spec":{"replicas":0,"suspend":true},"status":{"readyReplicas":0,"phase":"Failed","ready":true}})",
      R"({"spec":{"suspend":null},"status":{"phase":false,"ready":0}})",
      R"({"spec":{"replicas":"3","suspend":"yes"},"status":{"readyReplicas":[1],"phase":{"a":1},"ready":""}})",
      R"({"spec":{"replicas":2.5,"suspend":[]},"status":{"readyReplicas":null,"phase":null,"ready":{}}})",
      R"({"spec":"scalar","status":7})",
      R"({"spec":[1],"status":null})",
      R"({})",
      R"(null)",
  };
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs);
  EXPECT_GT(stats.native_runs, docs.size() * 5);
  EXPECT_EQ(ExpectAgree(exprs, docs) > 0, true);
}

TEST(ViewNativeProgramTest, OtherFlatCodeStaysOnExec) {
  // Division and builtins run on the tree are Exec's; objects with constant keys are native.
  view::FusedKind kind({Lowered("(.spec.replicas // 1) / 2"), Lowered(".metadata.name | ascii_downcase"),
                        Lowered("{a: .spec.replicas, b: .spec.x}"), Lowered(".spec.replicas == 3")},
                       Options(false, true));
  ASSERT_TRUE(kind.native_code()) << kind.native_error();
  EXPECT_FALSE(kind.native_program(0));
  EXPECT_FALSE(kind.native_program(1));
  EXPECT_TRUE(kind.native_program(2));
  EXPECT_TRUE(kind.native_program(3));
}

// Objects with constant keys (with and without a member test, nested, per element, more members
// than the 64 a test's bits hold) and sums compared with {} run as native code through the
// runtime's helpers: every answer the interpreter's, on members of every kind, objects that
// are empty or not, and sums of other kinds, which decline to Exec. Built outputs outlive the
// run that made them.
TEST(ViewNativeProgramTest, ObjectsAndSumTestsRunNativeAndAgree) {
  std::string wide = "{";
  for (int k = 0; k < 70; ++k) wide += std::string(k ? ", " : "") + "k" + std::to_string(k) + ": .spec.w" + std::to_string(k % 3);
  wide += "} | with_entries(select(.value != null))";
  const std::vector<std::string> exprs = {
      "{a: .spec.a, b: .spec.b}",
      "{a: .spec.a, b: .spec.b, c: .spec.c} | with_entries(select(.value != null))",
      ".spec.services | to_entries[] | .value | if ((.x.limits // {}) + (.x.requests // {})) != {} then .x "
      "else (.resources // {}) | {requests: ({cpu: .requests.cpu, gpu: .requests.gpu} | with_entries(select(.value != "
      "null))), limits: ({cpu: .limits.cpu} | with_entries(select(.value != null)))} end",
      "(.spec.a + .spec.b) == {}",
      wide,
  };
  const std::vector<std::string> docs = {
      R"({"spec":{"a":{"x":1},"b":{},"c":null,"w0":1,"w2":"z","services":{"s":{"x":{"limits":{"cpu":"1"}}},"t":{"resources":{"requests":{"cpu":"2","gpu":null},"limits":{}}},"u":{}}}})",
      R"({"spec":{"a":{},"b":{},"c":"c","w1":[1],"services":{"s":{"x":{"limits":{},"requests":{}},"resources":{"limits":{"cpu":0}}}}}})",
      R"({"spec":{"a":1,"b":2,"services":{}}})",
      R"({"spec":{"a":null,"b":null,"services":{"s":{"x":{"limits":5}}}}})",
      R"({"spec":{"a":"s","b":"t","services":{"s":"text","t":{"x":{"requests":{"gpu":"1"}}}}}})",
      R"({"spec":{"a":[1],"b":[],"c":false,"w0":false,"services":{"s":{"resources":{"requests":{"cpu":-0}}}}}})",
      R"({"spec":{"a":{"k":1},"b":null,"services":{"s":{"x":null,"resources":null}}}})",
      R"({"spec":"text"})",
      R"({})",
  };
  // (The first is an object of root paths, built without the evaluator; sums of other kinds decline.)
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs);
  EXPECT_GT(stats.native_runs, docs.size() * 2);

  // Objects built natively hold their members, not the registers: outputs of numbers the code
  // computed stay valid after the next object and after the runner is gone (a view inside would
  // be valid until the next object only).
  const std::string numbers = ".spec.list[] | {n: ((.n // 1) * 10), inner: {deep: ((.n // 0) + 1)}}";
  view::FusedKind kind({Lowered(numbers)}, Options(false, true));
  ASSERT_TRUE(kind.native_program(0));
  std::vector<view::ViewOutput> held;
  {
    view::FusedRunner runner(kind);
    JsonError error;
    for (const char* doc : {R"({"spec":{"list":[{"n":2},{}]}})", R"({"spec":{"list":[{"n":5}]}})"}) {
      ASSERT_TRUE(runner.Run(doc, {}, &error));
      for (const view::ViewOutput& out : runner.result(0).outputs) held.push_back(out);
    }
    EXPECT_EQ(runner.stats().native_runs, 2u);
  }
  std::string written;
  for (const view::ViewOutput& out : held) {
    out.WriteJson(&written);
    written += "\n";
  }
  EXPECT_EQ(written, "{\"n\":20,\"inner\":{\"deep\":3}}\n{\"n\":10,\"inner\":{\"deep\":1}}\n"
                     "{\"n\":50,\"inner\":{\"deep\":6}}\n");
}

// `tonumber` (kToNumber, through the runtime's helper) and `try` bodies (the catalog's
// `.annotations["..."] // 1 | tonumber` and `| tonumber?`) run as native code: numbers pass
// through, strings in every number form jq reads, strings that are none and other kinds are
// errors, caught inside `try`'s body (no output, answered on the DOM) and not before it (a path
// under a string stays an error, which the regular engine words).
TEST(ViewNativeProgramTest, NumbersReadAndTryBodiesRunNativeAndAgree) {
  const std::vector<std::string> exprs = {
      R"(.spec.a["x/min-scale"] // 1 | tonumber)",
      R"(.spec.a["x/max-scale"] | tonumber?)",
      R"(try (.spec.a["x/max-scale"] | tonumber))",
      R"((.spec.a["x/min-scale"] // "3" | tonumber) * 2)",
      R"(.spec.a.x | try (. + 1))",
  };
  const std::vector<std::string> docs = {
      R"({"spec":{"a":{"x/max-scale":"5","x/min-scale":"2","x":1}}})",
      R"({"spec":{"a":{"x/max-scale":"many","x/min-scale":" 7 "}}})",
      R"({"spec":{"a":{"x/max-scale":null,"x/min-scale":"-0","x":"s"}}})",
      R"({"spec":{"a":{"x/max-scale":"nan","x/min-scale":"1e1000"}}})",
      R"({"spec":{"a":{"x/max-scale":"0x10","x/min-scale":".5","x":[1]}}})",
      R"({"spec":{"a":{"x/max-scale":100000000000000000001,"x/min-scale":-0}}})",
      R"({"spec":{"a":{"x/max-scale":"","x/min-scale":false}}})",
      R"({"spec":{"a":{"x/max-scale":true,"x/min-scale":{"a":1},"x":null}}})",
      R"({"spec":{"a":"flat"}})",
      R"({"spec":{"a":[1]}})",
      R"({})",
  };
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs);
  EXPECT_GE(stats.native_runs, docs.size() * 3);
  // An error of the body is caught by native code itself: the run is answered on the DOM.
  view::FusedKind kind({Lowered(exprs[1])}, Options(false, true));
  ASSERT_TRUE(kind.native_program(0));
  view::FusedRunner runner(kind);
  JsonError error;
  for (const size_t d : {size_t{1}, size_t{2}, size_t{6}, size_t{7}}) {
    ASSERT_TRUE(runner.Run(docs[d], {}, &error));
    EXPECT_TRUE(runner.result(0).fused) << docs[d];
    EXPECT_TRUE(runner.result(0).outputs.empty()) << docs[d];
  }
  EXPECT_EQ(runner.stats().native_runs, 4u);
  ASSERT_TRUE(runner.Run(docs[8], {}, &error));  // `.spec.a` of a string: the path's error, not caught
  EXPECT_FALSE(runner.result(0).fused);
}

// `length` (kLength, through the runtime's helper) runs as native code on every kind of value:
// a string's codepoints, an array's elements, an object's distinct keys (a repeated key goes to
// the regular reader), null's 0, a number's absolute value, a boolean's error (caught in `try`).
TEST(ViewNativeProgramTest, LengthsRunNativeAndAgree) {
  const std::vector<std::string> exprs = {
      "(.status.conditions // []) | length == 0",
      ".spec.v | length",
      ".spec.v | try length",
      "{a: .spec.v} | length",
  };
  const std::vector<std::string> docs = {
      R"({"status":{"conditions":[{"type":"Ready"}]},"spec":{"v":"h\u00e9llo \ud83d\ude00"}})",
      R"({"status":{"conditions":[]},"spec":{"v":[1,[2,3],{"a":4}]}})",
      R"({"status":{"conditions":null},"spec":{"v":{"a":1,"b":2,"a":3}}})",
      R"({"status":{},"spec":{"v":{"a":1,"b":{"c":2}}}})",
      R"({"spec":{"v":-2.5}})",
      R"({"spec":{"v":true}})",
      R"({"spec":{"v":null}})",
      R"({"status":{"conditions":"text"},"spec":{"v":""}})",
      R"({})",
  };
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs);
  EXPECT_GT(stats.native_runs, docs.size() * 3);
}

// `map(select(c)) | first` (kFirstWhere) runs as native code, also where two resolvers of the
// kind share it per element (dynamo's main container and its image), and so do field reads whose
// value is the program's output (kept in the register's place, not the code's stack): on every
// element the condition runs (a later element's error is still the resolver's), the first that
// passes is kept, null when none; inputs that are no array of the document decline to Exec.
TEST(ViewNativeProgramTest, SearchesAndOutputFieldsRunNativeAndAgree) {
  const std::vector<std::string> exprs = {
      R"([.spec.components[] | .pod.containers // [] | map(select(.name == "main")) | first][])",
      R"([.spec.components[] | .pod.containers // [] | map(select(.name == "main")) | first.image][])",
      R"(.spec.list // [] | map(select(.n > 1)) | first)",
      R"((.spec.list // []) | map(select(.n > 1 and .ok)) | first | .n)",
      R"(((.spec.list // []) | map(select(.ok)) | first.n) as $v | $v)",
      R"((.spec.x // .spec.y).v)",
      R"(.spec | (.x // .y // .z).v)",
  };
  const std::vector<std::string> docs = {
      R"({"spec":{"components":[{"pod":{"containers":[{"name":"side","image":"s"},{"name":"main","image":"m1"},
                                                     {"name":"main","image":"m2"}]}},
                                {"pod":{"containers":[{"name":"other"}]}},{"pod":{}},{"pod":{"containers":null}}],
                 "list":[{"n":1},{"n":2,"ok":true},{"n":3,"ok":false}],"x":{"v":"7"}}})",
      R"({"spec":{"components":[{"pod":{"containers":[{"name":"main"},{"name":"main","image":"late"}]}}],
                 "list":[{"n":5,"ok":"12"},{"n":"s"}],"x":null,"y":{"v":3}}})",
      R"({"spec":{"components":[{"pod":{"containers":[{"name":"main","image":"m"},5]}}],"list":[{"n":2},null]}})",
      R"({"spec":{"components":[{"pod":{"containers":[null,{"name":"main","image":"n"}]}}],"list":[],"x":{"w":1}}})",
      R"({"spec":{"components":[{"pod":{"containers":{"a":{"name":"main"}}}}],"list":{"a":{"n":2}},"x":{"v":[1]}}})",
      R"({"spec":{"components":[{"pod":{"containers":"text"}}],"list":"s","x":"str"}})",
      R"({"spec":{"components":[],"list":[{"n":3,"ok":true,"n":1}],"x":{"v":{"deep":true}}}})",
      R"({"spec":{"x":{"v":null},"y":{"v":2}}})",
      R"({})",
  };
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs);
  EXPECT_GT(stats.native_runs, docs.size());
  EXPECT_LT(stats.native_runs, stats.flat_runs);  // the searches of no array declined to Exec
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
  // On the dynamo-like objects every program runs native, also where a field is read of a
  // search's null (a component without a main container: null) and where the search is of `[]`
  // (containers null: `// []`).
  EXPECT_EQ(ExpectNativeAgrees(exprs, {docs[0]}).native_runs, exprs.size());
  EXPECT_EQ(ExpectNativeAgrees(exprs, {docs[1]}).native_runs, exprs.size());
}

// Native code builds objects only where Exec's steps for them (one per instruction, and one per
// member tested) fit in the budget, and charges their memory to each run alone: under every
// budget and memory limit, over several objects, its answers and fallbacks are Exec's.
TEST(ViewNativeProgramTest, BuiltObjectsKeepExecsStepsAndMemory) {
  // Two programs of one object, each charged 96 bytes: a limit of 150 holds each, not both.
  const std::string expr = "{a: .spec.a, b: .spec.b, c: .spec.c} | with_entries(select(.value != null))";
  const std::string other = "{x: .spec.a, y: .spec.b, z: .spec.c} | with_entries(select(.value != null))";
  const std::string doc = R"({"spec":{"a":1,"b":"x","c":null}})";
  view::FusedKind kind({Lowered(expr), Lowered(other)}, Options(false, true));
  view::FusedKind exec({Lowered(expr), Lowered(other)}, Options(false, false));
  ASSERT_TRUE(kind.native_program(0));
  ASSERT_TRUE(kind.native_program(1));
  for (uint64_t fuel : {uint64_t{4}, uint64_t{5}, uint64_t{6}, uint64_t{7}, uint64_t{8}, uint64_t{9}, uint64_t{10},
                        uint64_t{100000}}) {
    for (uint64_t memory : {uint64_t{64}, uint64_t{150}, uint64_t{1} << 30}) {
      RunOptions options;
      options.limits.fuel = fuel;
      options.limits.max_memory_bytes = memory;
      view::FusedRunner runner(kind), exec_runner(exec);
      for (int round = 0; round < 4; ++round) {
        JsonError error;
        ASSERT_TRUE(runner.Run(doc, options, &error));
        ASSERT_TRUE(exec_runner.Run(doc, options, &error));
        for (size_t i = 0; i < 2; ++i) {
          EXPECT_EQ(Describe(runner.result(i)), Describe(exec_runner.result(i))) << fuel << " " << memory;
          EXPECT_EQ(runner.result(i).fused, exec_runner.result(i).fused)
              << i << ": " << fuel << " " << memory << " round " << round;
        }
      }
    }
  }
}

// Code per element charges its objects to the one run over every element, as Exec does: three
// elements of 96 bytes each pass a limit of 200 one at a time, not together.
TEST(ViewNativeProgramTest, ObjectsPerElementAreChargedToTheWholeRun) {
  const std::string expr = ".spec.list[] | {a: .x, b: .y, c: .z}";
  const std::string doc = R"({"spec":{"list":[{"x":1},{"y":2},{"z":3}]}})";
  for (uint64_t memory : {uint64_t{150}, uint64_t{200}, uint64_t{300}, uint64_t{1} << 30}) {
    RunOptions options;
    options.limits.max_memory_bytes = memory;
    ExpectNativeAsExec(expr, doc, options, "memory " + std::to_string(memory));
  }
}

// Code per element (`.a[] | f`), with arithmetic on the element's paths and a bound variable:
// native per element on numbers of every tape form, declining to Exec on other operands, on
// elements that are not objects, and where a bound program has no element; an output limit
// and errors as Exec's.
TEST(ViewNativeProgramTest, PerElementCodeRunsNativeAndAgrees) {
  const std::vector<std::string> exprs = {
      ".spec.jobs[] | (.replicas // 1) * (.template.spec.parallelism // 1)",
      ".spec.jobs[] | (.replicas // 0) + 1 - (.template.spec.parallelism // 0)",
      "(.spec.scale // 1) as $s | .spec.jobs[] | (.replicas // 1) * $s",
      ".spec.jobs[]? | (.replicas // 2) > 1",
  };
  const std::vector<std::string> docs = {
      R"({"spec":{"scale":3,"jobs":[{"replicas":2,"template":{"spec":{"parallelism":4}}},{"replicas":-1},{},
                                     {"replicas":18446744073709551615,"template":{"spec":{"parallelism":0.5}}},
                                     {"replicas":9007199254740993,"template":{"spec":{"parallelism":-0.0}}}]}})",
      R"({"spec":{"scale":"x","jobs":[{"replicas":"2"},{"replicas":[1]},{"replicas":null,"template":null}]}})",
      R"({"spec":{"jobs":[1,"s",null,[{"replicas":2}],{"template":"t"}]}})",
      R"({"spec":{"jobs":[]}})",
      R"({"spec":{"jobs":{"a":{"replicas":5},"b":{"replicas":6}}}})",
      R"({"spec":{"jobs":"scalar","scale":2}})",
      R"({"spec":{"scale":{"no":1}}})",
      R"({})",
  };
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs);
  EXPECT_GT(stats.native_runs, docs.size());
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
  // The output limit reached per element: the regular engine words it, as after Exec.
  RunOptions limited;
  limited.limits.max_outputs = 3;
  const std::shared_ptr<const ir::Program> first = Lowered(exprs[0]);
  view::FusedKind kind({first}, Options(false, true));
  view::FusedRunner limited_runner(kind);
  JsonError error;
  ASSERT_TRUE(limited_runner.Run(docs[0], limited, &error));
  EXPECT_EQ(Describe(limited_runner.result(0)), Interpret(*first, docs[0], false, limited));
  EXPECT_FALSE(limited_runner.result(0).fused);
}

// The catalog's condition tests: `any` / `all` over an array of the document with `.key OP
// constant` tests, native, on arrays of objects (repeated keys, absent keys, values of every
// kind), empty arrays, the `// []` default, and inputs it declines to Exec (objects, scalars and
// null where an array is expected, elements that are not objects), all agreeing with the
// interpreter.
TEST(ViewNativeProgramTest, ConditionTestsRunNativeAndAgree) {
  const std::vector<std::string> exprs = {
      "(.status.conditions // []) | any(.type == \"Ready\" and .status == \"True\")",
      "(.status.conditions // []) | all(.status != \"False\")",
      "((.status.conditions // []) | any((.type == \"Completed\" or .type == \"Failed\") and .status == \"True\") | not) "
      "and ((.status.replicated // []) | any((.ready // 0) > 0 or (.active // 0) > 0))",
      "(.status.conditions // []) | any(.observedGeneration >= 2)",
      ".status.conditions | any(.type == \"Ready\")",
      "(.status.conditions // []) as $c | ($c | any(.type == \"Ready\" and .status == \"True\")) and "
      "($c | any(.type == \"Failed\") | not)",
  };
  const std::vector<std::string> docs = {
      R"({"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"Failed","status":"False"}],
                    "replicated":[{"ready":0,"active":1}]}})",
      R"({"status":{"conditions":[{"type":"Ready","status":"False","type":"Failed"},{"status":"True","type":"Ready"}],
                    "replicated":[{"ready":0},{"active":0},{}]}})",
      R"({"status":{"conditions":[{"type":"Completed","status":"True","observedGeneration":3}],"replicated":[]}})",
      R"({"status":{"conditions":[],"replicated":null}})",
      R"({"status":{"conditions":null}})",
      R"({"status":{}})",
      R"({"status":{"conditions":[null,{"type":"Ready","status":"True"}]}})",
      R"({"status":{"conditions":[1,"x",[{"type":"Ready"}],true]}})",
      R"({"status":{"conditions":{"a":{"type":"Ready","status":"True"}},"replicated":{"x":{"ready":2}}}})",
      R"({"status":{"conditions":"text","replicated":7}})",
      R"({"status":{"conditions":[{"type":["Ready"],"status":{"s":1},"observedGeneration":"2"},{"observedGeneration":2.5}]}})",
      R"({"status":{"conditions":[{"typeX":"Ready","statu":"True","Type":"Ready"}]}})",
      R"({"status":{"conditions":[{"type":"Readz","status":"Trux"},{"type":"ready","status":"true"},{"type":"Failed","status":"Falsf"}]}})",
      R"({"status":{"conditions":[{"type":"Ready\u0000","status":"True"},{"type":"Completed","status":"True"}]}})",
  };
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs);
  EXPECT_GT(stats.native_runs, docs.size() * 2);
  EXPECT_LT(stats.native_runs, stats.flat_runs);  // some declined to Exec
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
}

// Native programs with one output set it in place after the paths' outputs, and leave their
// results as they are where the last object's were already these: one runner over objects that
// take every way out of that (a path resolver that errs, which leaves no places; a program that
// declines to Exec and errs there; an output limit of one, which leaves every program to the
// regular engine; an integer -0, which sends the object to the regular reader) and back, each object's results the interpreter's, under both limits.
TEST(ViewNativeProgramTest, OneOutputProgramsAreAnsweredInPlaceFromObjectToObject) {
  const std::vector<std::string> exprs = {
      ".spec.name",
      ".spec.replicas // 1",
      ".status.phase == \"Running\"",
      "(.spec.replicas // 0) + 1",
      ".status.phase // \"Pending\"",
      "if .status.ready then .status else null end",
      ".metadata.name | ascii_downcase",
      ".status.phase | not",
      ".status.list[]",  // a long list appended after a path that errs: the buffer as long as the places
  };
  const std::string normal = R"({"metadata":{"name":"A"},"spec":{"name":"a","replicas":3},"status":{"phase":"Running"}})";
  const std::vector<std::string> docs = {
      normal,
      R"({"metadata":{"name":"B"},"spec":{"name":"b"},"status":{"ready":true}})",
      R"({"metadata":{"name":"C"},"spec":5,"status":{"phase":"Failed","list":[1,2,3,4,5,6,7,8,9,10,11,12]}})",
      normal,
      R"({"metadata":{"name":"D"},"spec":{"name":"d","replicas":"3"},"status":{"phase":null,"ready":{"a":[1,2]}}})",
      normal,
      normal,
      R"({"metadata":{"name":"E"},"spec":{"name":"e","replicas":2.5},"status":{"phase":false,"ready":1}})",
      R"({"metadata":{"name":"F"},"spec":{"name":"f","replicas":-0},"status":{"phase":"Running"}})",  // the regular reader's
      normal,
  };
  const view::FusedStats stats = ExpectNativeAgrees(exprs, docs, {0, 6, 8});  // paths; a builtin
  EXPECT_GT(stats.native_runs, docs.size() * 4);

  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  view::FusedKind kind(programs, Options(false, true));
  view::FusedRunner runner(kind);
  RunOptions one_output;
  one_output.limits.max_outputs = 1;
  for (size_t round = 0; round < 2 * docs.size(); ++round) {
    const std::string& doc = docs[round % docs.size()];
    const RunOptions options = round % 3 == 2 ? one_output : RunOptions{};
    JsonError error;
    ASSERT_TRUE(runner.Run(doc, options, &error)) << doc;
    for (size_t i = 0; i < exprs.size(); ++i) {
      EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, false, options))
          << exprs[i] << " on " << doc << " round " << round;
    }
  }
}

// An `any` whose elements might take more steps than the budget allows without a second slice
// declines to Exec, which counts them: the answers are Exec's (the view engine's without native
// code) under every budget.
TEST(ViewNativeProgramTest, LongArraysUnderASmallBudgetRunExec) {
  const std::string expr = "(.status.conditions // []) | any(.type == \"Ready\")";
  std::string doc = R"({"status":{"conditions":[)";
  for (int i = 0; i < 300; ++i) doc += std::string(i ? "," : "") + R"({"type":"Waiting"})";
  doc += R"(,{"type":"Ready"}]}})";
  for (uint64_t fuel : {uint64_t{50}, uint64_t{600}, uint64_t{100000}}) {
    RunOptions options;
    options.limits.fuel = fuel;
    EXPECT_EQ(ExpectNativeAsExec(expr, doc, options, "fuel " + std::to_string(fuel)), fuel >= 100000 ? 1u : 0u) << fuel;
  }
}

TEST(ViewNativeProgramTest, AStepBudgetBelowTheCodesLengthRunsExec) {
  // Native code charges no steps: under a budget its code could reach, Exec runs and bails as
  // the tree would, and the regular engine words the limit.
  const std::string expr = "(.status.readyReplicas // 0) == (.spec.replicas // 1) and .status.phase == \"Running\"";
  const std::string doc = R"({"spec":{"replicas":1},"status":{"readyReplicas":1,"phase":"Running"}})";
  view::FusedKind kind({Lowered(expr)}, Options(false, true));
  ASSERT_TRUE(kind.native_program(0));
  for (uint64_t fuel : {uint64_t{2}, uint64_t{5}, uint64_t{10000}}) {
    RunOptions options;
    options.limits.fuel = fuel;
    view::FusedRunner runner(kind);
    JsonError error;
    ASSERT_TRUE(runner.Run(doc, options, &error));
    EXPECT_EQ(Describe(runner.result(0)), Interpret(*Lowered(expr), doc, false, options)) << fuel;
    EXPECT_EQ(runner.stats().native_runs, fuel >= 100 ? 1u : 0u) << fuel;
  }
}

}  // namespace
}  // namespace wm::testing
