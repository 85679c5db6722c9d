// The view engine's shared-path mechanisms (runtime/eval/view): trie paths below `.[]` shared by
// several resolvers (one iteration, one scan per element), constant-key chains matched by length
// then bytes, the per-runner buffers reused across objects of different shapes, and the
// fallbacks those paths must still take. Every result is compared with the interpreter.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/eval/view/view.h"
#include "runtime/eval/view/view_program.h"
#include "runtime/value/json.h"
#include "tests/unit/view/view_test_util.h"

namespace wm::testing {
namespace {

// `exprs` lowered onto one trie, as a kind's resolvers are; a refused one fails the test and is
// left out (callers check the count).
struct LoweredKind {
  view::PathTrie trie;
  std::vector<std::unique_ptr<view::ViewProgram>> owned;
  std::vector<view::ViewProgram*> programs;
};
std::unique_ptr<LoweredKind> LowerKind(const std::vector<std::string>& exprs) {
  auto kind = std::make_unique<LoweredKind>();
  for (const std::string& e : exprs) {
    std::string reason;
    auto program = view::LowerToView(*Lowered(e), &kind->trie, &reason);
    EXPECT_NE(program, nullptr) << e << ": " << reason;
    if (program == nullptr) continue;
    kind->programs.push_back(program.get());
    kind->owned.push_back(std::move(program));
  }
  return kind;
}

// How many nodes of `expr`, lowered and marked, have `flag` set (0 after a test failure naming why
// it was refused).
size_t FlaggedNodes(const std::string& expr, bool view::VNode::*flag) {
  auto program = Marked(expr);
  size_t count = 0;
  if (program != nullptr) {
    for (const view::VNode& node : program->nodes) count += node.*flag;
  }
  return count;
}

const std::vector<std::string> kCliqueResolvers = {
    ".spec.cliques[].name",
    ".spec.cliques[] | .spec.podSpec.schedulerName",
    ".spec.cliques[].spec.podSpec.containers",
    "(.spec.replicas // 1) as $sets | .spec.cliques[] | $sets * (.spec.replicas // 1)",
    ".spec.cliques[] | {n: .name, r: (.spec.replicas // 0)}",
    ".spec.cliques[] | (.spec.cliques // 0)",
    ".spec.cliques[] | [.spec.cliques[]?.name]",
    ".spec.cliques[] | (.spec.cliques[] | .name) + .name",
    "[.spec.cliques[] | .spec.replicas] | length",
    "(.spec.cliques[] | .spec.podSpec.x)?",
};

TEST(ViewSharedPathsTest, ResolversBelowOneIterationShareItsTrieNodes) {
  view::PathTrie trie;
  std::string reason;
  auto a = view::LowerToView(*Lowered(".spec.cliques[].spec.podSpec.schedulerName"), &trie, &reason);
  auto b = view::LowerToView(*Lowered(".spec.cliques[] | .spec.podSpec.containers"), &trie, &reason);
  auto c = view::LowerToView(*Lowered(".spec.cliques[] | .name"), &trie, &reason);
  ASSERT_TRUE(a && b && c) << reason;
  size_t iterations = 0;
  uint32_t pod_spec = 0;
  for (uint32_t id = 0; id < trie.nodes.size(); ++id) {
    if (trie.nodes[id].iteration) ++iterations;
    if (trie.nodes[id].key == "podSpec") pod_spec = id;
  }
  EXPECT_EQ(iterations, 1u);  // one iteration node for the three resolvers
  ASSERT_NE(pod_spec, 0u);
  // podSpec has both resolvers' keys as children: one scan of it per element serves both.
  EXPECT_EQ(trie.nodes[pod_spec].children.size(), 2u);
  EXPECT_NE(trie.nodes[pod_spec].owner, 0u);
}

TEST(ViewSharedPathsTest, NestedUseOfTheSameIterationIsNotShared) {
  // `.c[] | (.c[] | .name) + .name`: the inner iteration may not reuse the outer one's element.
  view::PathTrie trie;
  std::string reason;
  auto program = view::LowerToView(*Lowered(".c[] | (.c[] | .name) + .name"), &trie, &reason);
  ASSERT_TRUE(program) << reason;
  size_t each = 0, iterate = 0;
  for (const view::VNode& node : program->nodes) {
    each += node.op == view::VOp::kIterEach;
    iterate += node.op == view::VOp::kIterate;
  }
  EXPECT_EQ(each, 1u);
  EXPECT_EQ(iterate, 1u);
}

TEST(ViewSharedPathsTest, SharedIterationsAgreeAcrossObjectsOfEveryShape) {
  const std::vector<std::string> docs = {
      R"({"spec":{"replicas":2,"cliques":[{"name":"a","spec":{"replicas":3,"podSpec":{"schedulerName":"s","containers":[1]}}},
          {"name":"b","spec":{"podSpec":{}}},{"name":"c"}]}})",
      R"({"spec":{"cliques":[{"name":"only","spec":{"replicas":1,"podSpec":{"x":5}}}]}})",
      R"({"spec":{"cliques":[]}})",
      R"({"spec":{}})",
      R"({"spec":{"cliques":[{"spec":null},{"spec":{"podSpec":null}},{},{"name":"z","spec":{"replicas":7}},
          {"name":"y"},{"name":"x","spec":{"podSpec":{"schedulerName":"t"}}}]}})",
      R"({"spec":{"cliques":{"k2":{"name":"second"},"k1":{"name":"first","spec":{"replicas":4}}}}})",
      R"({"spec":{"replicas":5,"cliques":[{"name":"a","spec":{"replicas":2}},{"name":"b","spec":{"replicas":3}}]}})",
  };
  uint64_t answered = ExpectAgree(kCliqueResolvers, docs);
  EXPECT_GT(answered, 0u);
}

TEST(ViewSharedPathsTest, ErrorsBelowAnIterationFallBackWithTheEnginesMessage) {
  // Iterating null or a number, indexing a string element, and a repeated key in an element:
  // the view engine must hand these to the engine (or swallow them only inside `?`).
  const std::vector<std::string> docs = {
      R"({"spec":{"cliques":null}})",
      R"({"spec":{"cliques":7}})",
      R"({"spec":{"cliques":["str",{"name":"n"}]}})",
      R"({"spec":{"cliques":[{"name":"a","spec":{"podSpec":{"x":1}}},{"spec":{"podSpec":3}}]}})",
      R"({"spec":{"cliques":[{"name":"first","name":"last"}]}})",
      R"({"spec":{"cliques":{"a":{"name":1},"a":{"name":2}}}})",
      R"({"spec":"text"})",
  };
  uint64_t answered = ExpectAgree(kCliqueResolvers, docs);
  EXPECT_LT(answered, kCliqueResolvers.size() * docs.size());  // some runs went to the engine
}

TEST(ViewSharedPathsTest, EachObjectsFillDecidesEveryAbsoluteNode) {
  // Each object's absolute nodes are all marked missing and then filled from one descent of the
  // document: a node under an absent member or null is null, under a string, number, boolean or
  // array an error, and a repeated key's last value is the one descended into. Documents that
  // are not objects are errors at every node, or nulls for null.
  const std::vector<std::string> exprs = {
      ".a.b.c", ".a.b", ".a", ".k", ".a.b.c // 0", "[.a.b.c?]", "(.a.b.c == null)", ".a.x", ".q.r.s", "[.q.r?]",
  };
  const std::vector<std::string> no_errors = {
      R"({"a":{"b":{"c":1}}})", R"({"a":{"b":{}}})", R"({"a":{}})", R"({})", R"({"k":2})",
      R"({"a":{"b":null}})", R"({"a":null})", "null", R"({"a":{"b":{"c":null}}})",
      R"({"a":{"b":{"c":1}},"a":{"x":2}})", R"({"a":"early","a":{"b":{"c":3}}})",
  };
  EXPECT_EQ(ExpectAgree(exprs, no_errors), exprs.size() * no_errors.size());
  const std::vector<std::string> docs = {
      R"({"a":{"b":"t"},"q":1})", R"({"a":{"b":[1]},"q":{"r":true}})", R"({"a":5})", R"("text")",
      "[1,2]", "3", "true", R"({"a":{"b":{"c":1}},"a":"late"})",
  };
  ExpectAgree(exprs, docs);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
}

TEST(ViewSharedPathsTest, AnElementsFillDecidesEveryNodeBelowIt) {
  // An element's fill marks every node below the iteration missing and then writes what it finds:
  // a node under an absent member is null, under a string, number, boolean or array an error,
  // under null null, and a repeated key's last value is the one descended into, whichever of the
  // two is an object. Each resolver also runs alone, so each node is read first by every shape.
  const std::vector<std::string> exprs = {
      ".s[] | .a.b.c",         ".s[] | .a.b",           ".s[] | .a",     ".s[] | .k",
      ".s[] | .a.b.c // 0",    "[.s[] | .a.b.c?]",      ".s[] | (.a.b.c == null)",
      ".s[] | .a.x",           ".s[] | .q.r.s",         "[.s[] | .q.r?]",
  };
  // No resolver fails on these, so the view engine must answer every run itself: an error it
  // reported wrongly would only send the run to the engine, which answers right.
  const std::vector<std::string> no_errors = {
      R"({"s":[{"a":{"b":{"c":1}}},{"a":{"b":{}}},{"a":{}},{},{"k":2}]})",
      R"({"s":[{"a":{"b":null}},{"a":null},null,{"a":{"b":{"c":null}}}]})",
      R"({"s":[{"a":{"b":{"c":1}},"a":{"x":2}}]})",
      R"({"s":[{"a":"early","a":{"b":{"c":3}}}]})",
  };
  EXPECT_EQ(ExpectAgree(exprs, no_errors), exprs.size() * no_errors.size());
  const std::vector<std::string> docs = {
      R"({"s":[{"a":{"b":"t"}},{"q":1}]})",
      R"({"s":[{"a":{"b":[1]}},{"q":{"r":true}}]})",
      R"({"s":[{"a":5}]})",
      R"({"s":["text"]})",
      R"({"s":[[1,2]]})",
      R"({"s":[{"a":{"b":{"c":1}},"a":"late"}]})",
      R"({"s":{"one":{"a":{"b":{"c":1}}},"two":{"q":{"r":{"s":2}}}}})",
  };
  ExpectAgree(exprs, docs);
  for (const std::string& expr : exprs) ExpectAgree({expr}, docs);
}

TEST(ViewSharedPathsTest, KeysAreMatchedByLengthAndBytes) {
  const std::vector<std::string> exprs = {
      ".a", ".ab", ".abc", ".b.a", ".b.ab", ".[\"\"]", ".\"é\"", ".\"\\u0000x\"", ".x[] | .ab, .a",
      ".b | .a, .ab, .abd", ".x[].abc",
  };
  const std::vector<std::string> docs = {
      R"({"ab":1,"a":2,"abd":3,"abc":4,"":5,"é":6,"\u0000x":7,"b":{"ab":8,"a":9,"abd":10},"x":[{"a":1,"ab":2,"abc":3},{"abd":4}]})",
      R"({"abc":1,"b":{"abc":2},"x":[{"ac":1}]})",
      R"({"a":1,"a":2,"b":{"a":3,"a":4},"x":[{"ab":5,"ab":6}]})",
  };
  ExpectAgree(exprs, docs);
}

// The trie's keys are compared a word at a time (SamePaddedKey): keys of every size from 1 to 24
// bytes, each beside members of its size that differ from it in the first, a middle or the last
// byte only, and members one byte shorter or longer.
TEST(ViewSharedPathsTest, KeysOfEverySizeMatchOnlyTheSameBytes) {
  std::vector<std::string> exprs;
  std::string doc = "{\"spec\":{";
  std::string elements = "[";
  bool first_member = true;
  auto member = [&](const std::string& key, int value) {
    doc += (first_member ? "\"" : ",\"") + key + "\":" + std::to_string(value);
    elements += std::string(first_member ? "{\"" : ",{\"") + key + "\":" + std::to_string(value) + "}";
    first_member = false;
  };
  for (int size = 1; size <= 24; ++size) {
    std::string key;
    for (int i = 0; i < size; ++i) key += static_cast<char>('a' + (i * 7 + size) % 26);
    exprs.push_back(".spec.\"" + key + "\"");
    exprs.push_back(".list[] | .\"" + key + "\"");
    for (size_t at : {size_t{0}, key.size() / 2, key.size() - 1}) {
      std::string other = key;
      other[at] = other[at] == 'z' ? 'y' : static_cast<char>(other[at] + 1);
      member(other, 1000 + size);
    }
    member(key + "q", 2000 + size);
    if (size > 1) member(key.substr(0, key.size() - 1), 3000 + size);
    if (size % 3 != 0) member(key, size);  // every third key is absent: only its near misses are there
  }
  doc += "},\"list\":" + elements + "]}";
  ExpectAgree(exprs, {doc});
  view::FusedKind kind([&] {
    std::vector<std::shared_ptr<const ir::Program>> programs;
    for (const std::string& e : exprs) programs.push_back(Lowered(e));
    return programs;
  }());
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(doc, {}, &error));
  for (int size = 1; size <= 24; ++size) {
    const std::string expected = size % 3 != 0 ? std::to_string(size) : "null";
    EXPECT_EQ(Describe(runner.result(2 * (size - 1))), expected + "\n") << exprs[2 * (size - 1)];
  }
}

TEST(ViewSharedPathsTest, ComputedValuesKeepJqSemantics) {
  // Scalars the evaluator computes without Values (numbers, booleans) and their uses, and the
  // single-output nodes it evaluates directly (`//`, and/or, comparisons, arithmetic).
  const std::vector<std::string> exprs = {
      ".a + .b", ".a - .b", ".a * .b", "-.a", ".a * 1e308 * 10", ".n + 1", "null + .a", ".s + .s",
      ".a < .b", ".a == 2", "(.a > 1) and (.b > 1)", "[.a == 2, .b != 2] | .[0]", ".a as $x | $x * $x",
      "{x: (.a + .b)} | .x", "[.l[] | . * 2]", ".l | length", "(.s | length) + 1", ".l | any(. > 2)",
      ".l | all(. > 0)", "if .a == 2 then .b else .a end", ".m | .[] | . + 1",
      // directly evaluated single-output nodes, with errors inside them
      "(.s.x // 1)?", "(.a.b // .c) and (.x == 1)", "(-(.s))?", "(.l.x)? // 3", ".nope // .a // 7",
      "(.a == .b) or (.s.q == 1)", "try (.a.b == 1)", "(.a // .s) - 1", ".m.q // .m.p",
  };
  const std::vector<std::string> docs = {
      R"({"a":2,"b":3.5,"s":"xy","l":[1,2,3],"m":{"q":1,"p":2}})",
      R"({"a":-0.5,"b":1e300,"s":"\u00e9","l":[],"m":{}})",
      R"({"a":9007199254740993,"b":18446744073709551615,"s":"","l":[0],"m":{"z":-1}})",
  };
  ExpectAgree(exprs, docs);
}

// `with_entries(select(.value OP c))` keeps each member whose value passes, tested in place (no
// entries built): lowered to that form, and every answer the interpreter's, for DOM and built
// objects, each comparison, values of every type, a repeated key and inputs that are not objects.
TEST(ViewSharedPathsTest, MemberFiltersKeepTheMembersWhoseValuePasses) {
  auto lowered_form = [](const std::string& expr) {
    view::PathTrie trie;
    std::string reason;
    auto program = view::LowerToView(*Lowered(expr), &trie, &reason);
    EXPECT_TRUE(program) << expr << ": " << reason;
    for (const view::VNode& node : program ? program->nodes : std::vector<view::VNode>{}) {
      if (node.op == view::VOp::kWithEntries) return node.a;
    }
    return ~0u;
  };
  EXPECT_EQ(lowered_form(".m | with_entries(select(.value != null))"), view::kKeepMembersWhere);
  EXPECT_EQ(lowered_form("{a: .x} | with_entries(select(.value > 1))"), view::kKeepMembersWhere);
  // Other fs keep the general form: a key test, a value path deeper than .value, a computed side.
  EXPECT_EQ(lowered_form(".m | with_entries(select(.key != \"a\"))"), 0u);
  EXPECT_EQ(lowered_form(".m | with_entries(select(.value.x != null))"), 0u);
  EXPECT_EQ(lowered_form(".m | with_entries(select(.value != .a))"), 0u);

  const std::vector<std::string> exprs = {
      ".m | with_entries(select(.value != null))", ".m | with_entries(select(.value == null))",
      ".m | with_entries(select(.value > 1))", ".m | with_entries(select(.value <= \"b\"))",
      ".m | with_entries(select(.value == {}))", ".m | with_entries(select(.value >= []))",
      "{cpu: .r.cpu, memory: .r.memory, gpu: .r.gpu} | with_entries(select(.value != null))",
      "{a: .m, b: null, c: .m.n} | with_entries(select(.value != null)) | keys_unsorted",
      ".l | with_entries(select(.value != null))", ".m.n | with_entries(select(.value != null))",
      ".s | with_entries(select(.value != null))", "(.s | with_entries(select(.value != null)))?",
      "{x: (.m | with_entries(select(.value != false)))} | .x",
  };
  const std::vector<std::string> docs = {
      R"({"m":{"n":null,"a":1,"z":"a","b":2,"o":{},"e":[],"t":true,"f":false},"r":{"cpu":"1","gpu":null},"l":[1,null],"s":"x"})",
      R"({"m":{},"r":{"memory":"1Gi","cpu":null,"gpu":2},"l":[],"s":1})",
      R"({"m":{"a":null,"a":2},"r":null,"l":null})",
  };
  ExpectAgree(exprs, docs);
}

// A subexpression several resolvers of a kind compute on the same input gets one memo slot: on
// the document's root (computed once per object), or on an iteration's element (once per
// element); one that reads a variable, another iteration's element or an unknown input does not.
TEST(ViewSharedPathsTest, RepeatedSubexpressionsShareAMemoSlot) {
  const std::vector<std::string> exprs = {
      "(.a // 1) > 0", "(.a // 1) < 5 and ((.l // []) | any(. == 2))", "(.l // []) | any(. == 2) | not",
      ".x[] | (.a // 1)", "(.a // 1) as $v | $v + 1", "(.x[0] | (.a // 1)) + 1", "[.x[] | .a // 1]",
      ".y[] | (.a // 1) as $v | $v", ".x[] | .z[0] | (.a // 1)",
  };
  auto kind = LowerKind(exprs);
  ASSERT_EQ(kind->programs.size(), exprs.size());
  const std::vector<view::ViewProgram*>& programs = kind->programs;
  const view::SharedSubexpressions shared = view::ShareRepeatedSubexpressions(programs, kind->trie);
  // On the root: `(.a // 1)`, `(.l // [])` and the `any(. == 2)` of its value (a pipe's second
  // part sees the first part's value: the two anys are one value); `.a // 1` on each element of
  // `.x[]`.
  ASSERT_EQ(shared.slots(), 4u);
  EXPECT_EQ(std::count(shared.iteration.begin(), shared.iteration.end(), 0u), 3);
  auto memoized = [&](size_t p) {
    size_t count = 0;
    for (const view::VNode& node : programs[p]->nodes) count += node.memo != 0;
    return count;
  };
  EXPECT_EQ(memoized(0), 1u);  // (.a // 1)
  EXPECT_EQ(memoized(1), 3u);  // (.a // 1), (.l // []) and the any
  EXPECT_EQ(memoized(2), 2u);  // (.l // []) and the any
  EXPECT_EQ(memoized(3), 1u);  // each element's .a // 1, shared with the collect's
  EXPECT_EQ(memoized(4), 1u);  // a binding's source (its body reads the variable)
  EXPECT_EQ(memoized(5), 0u);  // used once
  EXPECT_EQ(memoized(6), 1u);
  EXPECT_EQ(memoized(7), 0u);  // .y's elements: `.a // 1` there once (its body reads $v)
  EXPECT_EQ(memoized(8), 0u);  // used once
}

TEST(ViewSharedPathsTest, SharedSubexpressionsAgreeAcrossObjects) {
  // Shared tests that succeed, fail (an error is not kept: each resolver falls back with its own
  // message), build containers (not kept) or short-circuit, over objects that change what they give.
  const std::vector<std::string> exprs = {
      "(.a // 1) > 0", "(.a // 1) < 5 and ((.l // []) | any(. == 2))", "((.l // []) | any(. == 2)) or .b",
      "(.a // 1) + (.a // 1)", "((.l // []) | any(. == 2) | not) and ((.a // 1) == 1)", "[.l[]?] | length",
      "([.l[]?] | length) + 1", "{n: (.a // 1)} | .n", "(.s | length) > 1", "((.s | length) > 1) or false",
      "if (.a // 1) == 1 then [.l[]?] else {a: (.a // 1)} end", "(.a // 1) as $v | $v",
      // per element of a shared iteration: errors, nulls, built values and nested tests
      ".x[] | (.c // []) | map(select(. > 1)) | first", "[.x[] | (.c // []) | map(select(. > 1)) | first | . + 1]",
      ".x[] | ((.c // []) | length) > 1", "[.x[] | ((.c // []) | length) > 1] | any", ".x[] | .d.e // \"none\"",
      ".x[] | .d | (.e // \"none\")", "[.x[] | .d.e // \"none\"] | length",
  };
  const std::vector<std::string> docs = {
      R"({"a":2,"l":[1,2],"s":"xyz","b":true,"x":[{"c":[1,3,5],"d":{"e":1}},{"c":[]},{"d":null}]})",
      R"({"l":[3],"s":5,"x":[{"c":"s"},{"c":[2]},{"d":{"e":false}}]})",
      R"({"a":null,"l":"text","s":{"k":1},"x":{"p":{"c":[9]},"q":{"c":null,"d":5}}})",
      R"({"a":0,"l":null,"s":[1,2],"x":[]})",
      R"({"a":7,"l":[2],"s":null,"b":false,"x":[{"c":[0,0,4]},{"c":[7]},{"c":[7]},{"c":1}]})",
  };
  ExpectAgree(exprs, docs);
}

TEST(ViewSharedPathsTest, DirectComparisonsReadTheirOperandsInLine) {
  // Which binary operators are marked: a comparison or `+`, `-`, `*` whose operands are each a
  // constant, a variable, the input, a trie path or `path // constant`.
  view::PathTrie trie;
  std::string reason;
  auto marked = [&](const std::string& expr) {
    auto program = view::LowerToView(*Lowered(expr), &trie, &reason);
    EXPECT_NE(program, nullptr) << expr << ": " << reason;
    return program != nullptr && program->nodes[program->root].direct_operands;
  };
  EXPECT_TRUE(marked("(.status.readyReplicas // 0) == (.spec.replicas // 1)"));
  EXPECT_TRUE(marked(".status.currentRevision != .status.updateRevision"));
  EXPECT_TRUE(marked(".spec.replicas > 0"));
  EXPECT_TRUE(marked("1 < (.a.b // 2)"));
  EXPECT_FALSE(marked("(.a // .b) == 1"));        // a default that is not a constant
  EXPECT_FALSE(marked("((.a // 0) + 1) == 1"));   // arithmetic in an operand
  EXPECT_TRUE(marked("(.replicas // 0) * (.numOfHosts // 1)"));
  EXPECT_TRUE(marked(".a + .b"));
  EXPECT_TRUE(marked(". == \"x\""));                 // the input
  auto marked_inside = [&](const std::string& expr) {  // some node below the root
    auto program = view::LowerToView(*Lowered(expr), &trie, &reason);
    EXPECT_NE(program, nullptr) << expr << ": " << reason;
    return program != nullptr && std::any_of(program->nodes.begin(), program->nodes.end(),
                                             [](const view::VNode& node) { return node.direct_operands; });
  };
  EXPECT_TRUE(marked_inside("(.spec.x // 2) as $n | .a[] | $n * (.replicas // 1)"));  // a variable
  EXPECT_FALSE(marked_inside("(.spec.x // 2) as $n | .a[] | $n * (.replicas | length)"));
  EXPECT_FALSE(marked(".a / .b"));                // division: not a single node
  EXPECT_FALSE(marked(".[] == 1"));               // a generator

  // The answers, over operands that are present, absent, null, false (the default is taken),
  // 0 and "" (kept: they are truthy), of every kind against every kind, below a parent that is
  // absent or null, and through a scalar parent (an error the regular engine reports).
  const std::vector<std::string> exprs = {
      "(.s.r // 0) == (.p.n // 1)", "(.s.r // 0) != (.p.n // 1)", "(.s.r // 0) < (.p.n // 1)",
      "(.s.r // 0) <= (.p.n // 1)", "(.s.r // 0) > (.p.n // 1)", "(.s.r // 0) >= (.p.n // 1)",
      ".s.r == .p.n", ".s.r < .p.n", ".s.v != .p.v", ".s.v > \"m\"", "(.s.v // \"d\") <= \"d\"",
      "(.s.o // {}) == {}", "(.s.o // {}) < [1]", "(.s.r // false) == false", "null == .s.missing",
      "(.p.n // 1) > 0 and (.s.r // 0) < (.p.n // 1)", "(.s.r // 0) == (.s.r // 0)",
      // arithmetic: numbers in line; strings, arrays, objects, null and errors as the engine
      "(.s.r // 0) * (.p.n // 1)", "(.s.r // 0) + (.p.n // 1)", "(.s.r // 0) - (.p.n // 1)", ".s.v + .p.v",
      ".s.o + .s.o", "(.s.o // {}) + (.p.o // {})", ".s.missing + 1", "2 - .s.r", ".s.v * 2",
      // variables and the input as operands
      "(.p.n // 2) as $n | $n * (.s.r // 1)", ".s.v as $v | $v == .p.v", "[.s[]? | . == 2]",
      ".s.r as $r | [.p[]? | . > $r]",
  };
  const std::vector<std::string> docs = {
      R"({"s":{"r":2,"v":"x","o":{"k":1}},"p":{"n":2,"v":"x"}})",
      R"({"s":{"r":null,"v":false,"o":null},"p":{"n":false,"v":null}})",
      R"({"s":{"r":0,"v":"","o":{}},"p":{"n":0,"v":"a"}})",
      R"({"s":{"r":-1.5,"v":[1],"o":[1,2]},"p":{"n":1e300,"v":{"a":1}}})",
      R"({"s":null,"p":{}})",
      R"({})",
      R"({"s":{"r":"2","v":3,"o":true},"p":{"n":"10","v":true}})",
      R"({"s":7,"p":{"n":1}})",
      R"({"s":{"r":1},"p":"text"})",
  };
  ExpectAgree(exprs, docs);
}

TEST(ViewSharedPathsTest, ComparisonsWithNullAndBooleansFollowTheKindOrder) {
  // `x OP null|false|true` is decided by kinds alone (null < false < true < numbers < strings <
  // arrays < objects; each of the three constants is alone in its kind): every operator, with
  // the constant on either side, over a value of every kind, absent, and under a null or scalar
  // parent.
  std::vector<std::string> exprs;
  for (const char* op : {"==", "!=", "<", "<=", ">", ">="}) {
    for (const char* constant : {"null", "false", "true"}) {
      exprs.push_back(std::string(".s.v ") + op + " " + constant);
      exprs.push_back(std::string(constant) + " " + op + " .s.v");
      exprs.push_back(std::string("(.s.v // false) ") + op + " " + constant);
    }
  }
  const std::vector<std::string> docs = {
      R"({"s":{"v":null}})",   R"({"s":{"v":false}})", R"({"s":{"v":true}})",  R"({"s":{"v":0}})",
      R"({"s":{"v":-2.5}})",   R"({"s":{"v":""}})",    R"({"s":{"v":"true"}})", R"({"s":{"v":[]}})",
      R"({"s":{"v":[null]}})", R"({"s":{"v":{}}})",    R"({"s":{"v":{"a":false}}})",
      R"({"s":{}})",           R"({"s":null})",        R"({})",                R"({"s":"text"})",
  };
  uint64_t flat_runs = 0;
  ExpectAgree(exprs, docs, &flat_runs);
  // All but the scalar parent's (an error, left to the regular engine) ran as flat code.
  EXPECT_EQ(flat_runs, exprs.size() * (docs.size() - 1));
}

TEST(ViewSharedPathsTest, KeysAfterADefaultEmptyObjectAreTriePaths) {
  // `(P // {}) | f`: f's keys are read below P in the trie (one scan of P for all of them).
  view::PathTrie trie;
  std::string reason;
  auto program = view::LowerToView(*Lowered("(.spec.res // {}) | {cpu: .req.cpu, mem: .req.mem}"), &trie, &reason);
  ASSERT_NE(program, nullptr) << reason;
  size_t paths = 0;
  for (const view::VNode& node : program->nodes) paths += node.op == view::VOp::kPath;
  EXPECT_EQ(paths, 3u);  // .spec.res, .spec.res.req.cpu, .spec.res.req.mem
  EXPECT_EQ(trie.nodes.size(), 6u);  // root, spec, res, req, cpu, mem

  // The answers, where P is an object, absent, null, false (the trie's error sends the resolver
  // to the regular engine, which answers on {}), a scalar or an array (errors), below an
  // iteration too, and with f reading its input itself (`.`, `keys`, `.[]`: on {}, not on P).
  const std::vector<std::string> exprs = {
      "(.r // {}) | {cpu: .q.cpu, mem: .q.mem}", "(.r // {}) | .q.cpu // \"none\"", "(.r // {}) | .",
      "(.r // {}) | keys", "(.r // {}) | [.[]]", "(.r // {}) | length", "(.r // {}) | .q | length",
      "(.r // {}) | (.q // {}) | .cpu", "[.x[] | (.r // {}) | .q.cpu]", ".x[] | (.r // {}) | {c: .q.cpu}",
      "(.r // {}) | .q[]?",
  };
  const std::vector<std::string> docs = {
      R"({"r":{"q":{"cpu":"1","mem":"2Gi"}},"x":[{"r":{"q":{"cpu":2}}},{"r":null},{}]})",
      R"({"x":[{"r":{"q":null}},{"r":{"q":{"mem":1}}}]})",
      R"({"r":null,"x":[]})",
      R"({"r":{},"x":[{"r":{}}]})",
      R"({"r":false,"x":[{"r":false}]})",
      R"({"r":{"q":7},"x":[{"r":{"q":"s"}}]})",
      R"({"r":3,"x":[{"r":[1]}]})",
      R"({"r":{"q":{"cpu":"a","cpu":"b"}},"x":[{"r":{"q":{"cpu":"c"}}}]})",
  };
  ExpectAgree(exprs, docs);
  // Iterating the defaulted input is not P's iteration (which fails on null): answered on the DOM.
  view::FusedKind kind({Lowered("(.r // {}) | [.[]]"), Lowered("(.r // {}) | .q.cpu")});
  view::FusedRunner runner(kind);
  JsonError error;
  ASSERT_TRUE(runner.Run(R"({"r":null})", {}, &error));
  EXPECT_TRUE(runner.result(0).fused);
  EXPECT_TRUE(runner.result(1).fused);
  EXPECT_EQ(Describe(runner.result(0)), "[]\n");
  EXPECT_EQ(Describe(runner.result(1)), "null\n");
}

TEST(ViewSharedPathsTest, EmptyContainerLiteralsAreConstants) {
  // `[]` and `{}` are lowered as constants: `P // []` and `P // {}` have the direct form
  // `path // constant`, and `(A // {}) + (B // {})` reads both operands in line.
  auto program = Marked("[(.a // []), (.b // {}), ((.c // {}) + (.d // {}))]");
  ASSERT_NE(program, nullptr);
  size_t defaults = 0, direct_sums = 0, collects = 0, objects = 0;
  for (const view::VNode& node : program->nodes) {
    defaults += node.form == view::VForm::kPathOrConst;
    direct_sums += node.op == view::VOp::kBinary && node.direct_operands;
    collects += node.op == view::VOp::kCollect;
    objects += node.op == view::VOp::kObject;
  }
  EXPECT_EQ(defaults, 4u);
  EXPECT_EQ(direct_sums, 1u);
  EXPECT_EQ(collects, 1u);  // the outer array only
  EXPECT_EQ(objects, 0u);

  // The constants are shared by every run: what the programs build from them must be new values,
  // and the constants stay empty for the next resolver and the next object.
  const std::vector<std::string> exprs = {
      "[]", "{}", "[] | length", "{} | keys", ". == {}", ".a == []", "(.a // []) | length",
      "(.a // []) + [1]", "[1] + (.a // [])", "(.b // {}) + {k: 1}", "{k: 1} + (.b // {})",
      "(.c // {}) + (.d // {})", "((.c // {}) + (.d // {})) != {}", "(.a // []) | map(. + 1)",
      "(.b // {}) | to_entries", "(.b // {}) | with_entries(select(.value != null))",
      "[(.a // [])[], (.b // {})[]]", "[] | first", "{} | .x", "[] | .[0]", "(.a // []) | add",
      "if (.c // {}) == {} then 1 else 2 end", "[.x[]? | (.a // []) | length]",
  };
  const std::vector<std::string> docs = {
      R"({"a":[1,2],"b":{"k":0,"j":null},"c":{"x":1},"d":{"y":2,"x":3}})",
      R"({})",
      R"({"a":null,"b":false,"c":null,"d":{}})",
      R"({"a":[],"b":{},"c":{},"d":null,"x":[{"a":[5]},{}]})",
      R"({"a":"s","b":3,"c":[1],"d":{"z":1}})",
      R"({"b":{"k":1,"k":2},"c":{"q":1,"q":2},"d":{"q":3}})",
  };
  ExpectAgree(exprs, docs);
}

TEST(ViewSharedPathsTest, OnlyObjectsWithDistinctConstantKeysSkipTheRepeatCheck) {
  // MarkSingle flags an object construction whose keys are distinct string constants; one that
  // repeats a constant key, or computes a key, is still checked (the last value stays, at the
  // first key's place).
  const std::vector<std::pair<std::string, bool>> flagged = {
      {"{a: .x, b: .y}", true},      {"{a: .x, b: .y, a: .z}", false}, {"{(.k): .x, a: .y}", false},
      {"{a: 1, \"a\": 2}", false}, {"{\"a b\": 1, a: 2}", true},     {"{a: (.x, .y), b: 1}", true},
  };
  for (const auto& [expr, distinct] : flagged) {
    auto program = Marked(expr);
    ASSERT_NE(program, nullptr);
    size_t objects = 0, flags = 0;
    for (const view::VNode& node : program->nodes) {
      objects += node.op == view::VOp::kObject;
      flags += node.op == view::VOp::kObject && node.distinct_constant_keys;
    }
    EXPECT_EQ(objects, 1u) << expr;
    EXPECT_EQ(flags, distinct ? 1u : 0u) << expr;
  }
  std::vector<std::string> exprs;
  for (const auto& entry : flagged) exprs.push_back(entry.first);
  exprs.push_back("[.r[] | {a: .x, b: .x, a: .y}]");
  const std::vector<std::string> docs = {
      R"({"x":1,"y":2,"z":3,"k":"a","r":[{"x":1,"y":2},{"x":3}]})",
      R"({"x":null,"k":"b"})",
      R"({"k":"a","x":{"a":1},"y":[1]})",
  };
  ExpectAgree(exprs, docs);
}

TEST(ViewSharedPathsTest, SelectEachTestsTheElementsOfADocumentArrayInOneLoop) {
  // `map(select(c))` with c one boolean per element (a field comparison, or any single
  // condition) is flagged; a condition with several outputs is not.
  const std::vector<std::pair<std::string, bool>> flagged = {
      {"map(select(.name == \"main\"))", true},
      {"map(select((.a // 0) > 1))", true},
      {"map(select(.x and (.y | not)))", true},
      {"[.[] | select(.t.u != null)]", false},  // the root's `.[]` is the trie's iteration
      {"map(select(.a, .b))", false},
      {"map(select(.a) | .b)", false},
  };
  for (const auto& [expr, select_each] : flagged) {
    EXPECT_EQ(FlaggedNodes(expr, &view::VNode::select_each), select_each ? 1u : 0u) << expr;
  }
  // The answers, on arrays of objects, of scalars and nulls (errors), empty, repeated keys; on
  // built arrays, objects, null and scalars (the general path), and below an iteration.
  std::vector<std::string> exprs;
  for (const auto& entry : flagged) exprs.push_back(entry.first);
  for (const char* more : {".c | map(select(.name == \"main\"))", "(.c // []) | map(select(.name == \"main\")) | first",
                           "[.s[] | .c // [] | map(select(.name == \"main\")) | first.image][]",
                           "[.c[]?] | map(select(.name == \"main\"))", ".c | map(select(.name == \"main\")) | length"}) {
    exprs.push_back(more);
  }
  const std::vector<std::string> docs = {
      R"([{"name":"main","a":2,"x":1,"y":false,"t":{"u":1}},{"name":"side","a":0},{"a":5,"name":"main","b":3}])",
      R"([])",
      R"([null,{"name":"main"}])",
      R"([1,{"name":"main"}])",
      R"([{"name":"x","name":"main","a":1,"a":3,"t":{"u":null}}])",
      R"({"c":[{"name":"main","image":"i"},{"name":"main","image":"j"}],"s":[{"c":[{"name":"o"},{"name":"main","image":"k"}]},{"c":null},{}]})",
      R"({"c":{"p":{"name":"main"}},"s":[]})",
      R"({"c":null,"s":[{"c":[]}]})",
      R"({"c":"str","s":[{"c":[{"name":"main"}]}]})",
      R"({"a":{"name":"main"},"x":{"y":1}})",
      R"("text")",
  };
  ExpectAgree(exprs, docs);
}

TEST(ViewSharedPathsTest, AnyAndAllTestConditionsInOneLoop) {
  // A condition is one boolean-like output or an error: a field comparison, a single node, or
  // `and` / `or` of conditions. any/all over an array of the document test it element by element
  // and stop at the first element that decides, as jq (a later error is not reached).
  auto program = Marked("(.c // []) | any((.type == \"A\" or .type == \"B\") and .status == \"True\")");
  ASSERT_NE(program, nullptr);
  size_t conditions = 0;
  for (const view::VNode& node : program->nodes) {
    conditions += node.condition && (node.op == view::VOp::kAnd || node.op == view::VOp::kOr ||
                                     node.op == view::VOp::kFieldCompare);
  }
  EXPECT_EQ(conditions, 5u);  // three comparisons, the `or`, the `and`

  const std::vector<std::string> exprs = {
      "(.c // []) | any((.type == \"A\" or .type == \"B\") and .status == \"True\")",
      "(.c // []) | all(.type == \"A\" or .status != \"True\")",
      "(.c // []) | any(.type == \"A\" and (.n // 0) > 1)",
      "(.c // []) | all((.n // 0) >= 0)",
      "(.c // []) | any(.t.u == 1 or .t == null)",
      "(.c // []) | any(.a, .b)",
      "[.s[] | (.c // []) | any(.type == \"A\")]",
      "((.c // []) | any(.type == \"A\")) and ((.c // []) | all(.status == \"True\"))",
  };
  const std::vector<std::string> docs = {
      R"({"c":[{"type":"A","status":"True","n":2},{"type":"B","status":"False"}]})",
      R"({"c":[{"type":"C","status":"True"},{"type":"B","status":"True","n":-1}]})",
      R"({"c":[]})",
      R"({"c":null,"s":[{"c":[{"type":"A"}]},{"c":null},{}]})",
      R"({"c":[{"type":"A","status":"True"},3]})",
      R"({"c":[3,{"type":"A"}]})",
      R"({"c":[null,{"type":"A","status":"True","t":{"u":1}}]})",
      R"({"c":[{"type":"A","type":"B","status":"True","t":{"u":2}},{"type":"A","n":"x"}]})",
      R"({"c":{"x":{"type":"A"}}})",
      R"({"c":"text"})",
  };
  ExpectAgree(exprs, docs);
}

TEST(ViewSharedPathsTest, AndOrChainsTestTheirComparisonsInLine) {
  // The status resolvers' chains: `and` / `or` of comparisons of direct operands, nested, with
  // kids the kind shares (memo slots), truthy non-booleans, and errors on the side that jq
  // evaluates only when the other does not decide.
  const std::vector<std::string> exprs = {
      "(.s.r // 0) == (.p.r // 1) and (.s.u // 0) == (.p.r // 1) and .s.cur == .s.upd",
      "(.p.r // 1) > 0 and ((.s.g // 0) != (.m.g // 0) or (.s.r // 0) == 0 or .s.cur != .s.upd)",
      "(.s.r // 0) > 0 and (.s.r // 0) < (.p.r // 1) or (.s.u // 0) >= 2",
      "(.p.r // 1) > 0 and (.s.r // 0) == (.p.r // 1)",
      ".s.cur and .s.upd", ".s.cur or (.s.r > 1)", "(.s.r // 0) > 0 and (.s.cur | length) > 0",
      "(.s.r // 0) == 0 or (.s.cur | length) > 0", "((.s.r // 0) == (.p.r // 1)) and true",
      "[.x[] | (.a // 0) > 1 and (.b // 0) < 3 or .c == null]",
  };
  const std::vector<std::string> docs = {
      R"({"s":{"r":3,"u":3,"cur":"a","upd":"a","g":2},"p":{"r":3},"m":{"g":2},"x":[{"a":2,"b":1},{"c":1},{"a":0}]})",
      R"({"s":{"r":1,"u":0,"cur":"a","upd":"b"},"p":{"r":3},"m":{"g":1}})",
      R"({"s":{"r":0,"cur":null,"upd":false},"p":{},"x":[]})",
      R"({"s":{"r":2,"u":"2","cur":5,"upd":[1]},"p":{"r":"3"},"m":{"g":null}})",
      R"({"s":{"r":-1,"cur":"x","upd":"x"},"p":{"r":0}})",
      R"({"s":null,"p":null,"m":null,"x":[{"a":5,"b":2,"c":null}]})",
      R"({"s":{"r":1,"r":0,"cur":"q"},"p":{"r":1}})",
      R"({"s":7,"p":{"r":1}})",
  };
  ExpectAgree(exprs, docs);
}

// A field read on a node's input (`.ready`, `.a.b`, `.ready // 0`: an element's, a built
// object's) is a direct operand: `(.ready // 0) > 0` is read in line, one step. Indexing a
// string, number, boolean or array there is the interpreter's error (or its `//` default).
TEST(ViewSharedPathsTest, FieldReadsOnTheInputAreDirectOperands) {
  for (const char* expr : {"map(select((.ready // 0) > 0))", "any(.a.b == 1)", "{x: .q} | (.x // 5) + 1"}) {
    EXPECT_EQ(FlaggedNodes(expr, &view::VNode::direct_operands), 1u) << expr;
  }
  const std::vector<std::string> exprs = {
      "(.s // []) | any((.ready // 0) > 0)", "(.s // []) | all((.ready // 0) == 0)", "[.s[]? | .a.b // \"none\"]",
      ".s | map(select(.a.b != null))", "{x: .q} | (.x // 5) + 1", "{x: .q, y: {z: .q}} | .y.z // .x",
      "[.s[]? | (.ready // 0) * 2]",
  };
  const std::vector<std::string> docs = {
      R"({"s":[{"ready":2},{"ready":0},{"a":{"b":1}},{}],"q":3})",
      R"({"s":[{"ready":null,"a":null},{"ready":false,"a":{"b":false}}],"q":null})",
      R"({"s":[],"q":false})",
      R"({"s":[{"ready":1,"ready":0},{"a":{"b":2,"b":null}}]})",
      R"({"s":["str",{"ready":1}],"q":"x"})",
      R"({"s":[{"a":[1]},{"a":"t"}]})",
      R"({"s":[3,true,null]})",
      R"({"s":{"k":{"ready":4}}})",
  };
  ExpectAgree(exprs, docs);
  EXPECT_EQ(ExpectAgree(exprs, {docs[0], docs[1], docs[2]}), exprs.size() * 3);
}

// `{...} | with_entries(select(.value OP c))` filters the object the pipe just built where it is;
// an object something else still reads (a variable, the other side of a comma, a subexpression
// the kind's resolvers share, the array it came from) is left as it was.
TEST(ViewSharedPathsTest, WithEntriesFiltersABuiltObjectInPlaceOnlyWhenNothingElseHoldsIt) {
  const std::vector<std::string> exprs = {
      "{a: .x, b: .y, c: null} | with_entries(select(.value != null))",
      "{a: .x, b: .y, c: null} | with_entries(select(.value != null)) | length",
      "{a: .x, b: .y, c: null} | (with_entries(select(.value != null)), .)",
      "{a: .x, b: .y, c: null} as $o | ($o | with_entries(select(.value != null))), $o",
      "[{a: .x, b: .y}, {c: null}] | (.[] | with_entries(select(.value != null))), .",
      "[{a: .x, b: .y}] | .[0] | with_entries(select(.value == 1))",
      "{n: ({a: .x, b: .y} | with_entries(select(.value == null))), m: {a: .x, b: .y}}",
      "{a: .x, b: .y} | with_entries(select(.value != null))",
      "({a: .x, b: .y} | with_entries(select(.value != null))) as $f | {a: .x, b: .y}, $f",
  };
  const std::vector<std::string> docs = {
      R"({"x":1,"y":null})", R"({"x":null,"y":{"k":[1]}})", R"({"x":1,"y":2})", R"({})", R"({"x":false,"y":0})",
  };
  EXPECT_EQ(ExpectAgree(exprs, docs), exprs.size() * docs.size());
}

// The paths below an iteration are filled for a whole element at once (PathCache::FillElement):
// below a missing, null or empty parent every deeper path is null and the view engine answers
// itself (no fallback); below a string, number or array parent they are the error the
// interpreter words.
TEST(ViewSharedPathsTest, AnElementsPathsAreFilledAtOnceAtEveryDepth) {
  const std::vector<std::string> exprs = {
      ".s[].a.b.c", ".s[] | .a.b", ".s[].a", ".s[] | (.x.y // 0)", "[.s[] | .a.b.c]", ".s[] | .a.b.c.d",
  };
  const std::vector<std::string> answered_docs = {
      R"({"s":[{"a":{"b":{"c":{"e":1}}}},{"a":{"b":null}},{"a":null},{},{"a":{"b":{}}},{"a":{"b":{"c":{"d":1}}}}]})",
      R"({"s":{"k":{"a":{"b":{"c":{"d":2}}},"x":{"y":3}},"j":{},"i":{"a":{}}}})",
      R"({"s":[null,{"a":{"b":{"c":null}}},{"x":null}]})",
      R"({"s":[]})",
  };
  EXPECT_EQ(ExpectAgree(exprs, answered_docs), exprs.size() * answered_docs.size());
  ExpectAgree(exprs, {R"({"s":[{"a":"str"},{"a":{"b":1}}]})", R"({"s":[{"a":{"b":[2]}},{"a":{"b":{"c":true}}}]})",
                      R"({"s":[3]})", R"({"s":null})", R"({"s":[{"a":{"b":{"c":1}}},{"a":{"b":0}}]})"});
}

// `map(select(c)) | first` (and `first.k`, `first | g`) is one search: on an array of the
// document each element is tested in one loop, the first that passes is the output (null when
// none), and an error on any element, before or after that one, is still the resolver's error.
// Resolvers that go on differently after `first` share the search (one memo slot).
TEST(ViewSharedPathsTest, FirstSelectedIsOneSearchSharedByTheResolversAfterIt) {
  const std::vector<std::pair<std::string, bool>> flagged = {
      {"map(select(.name == \"main\")) | first", true},
      {"map(select(.name == \"main\")) | first.image", true},
      {"map(select(.name == \"main\")) | first | .image", true},
      {"map(select(.name == \"main\")) | .[1]", false},
      {"map(select(.name == \"main\")) | .[-1]", false},
      {"map(.name) | first", false},
  };
  for (const auto& [expr, first_selected] : flagged) {
    EXPECT_EQ(FlaggedNodes(expr, &view::VNode::first_selected), first_selected ? 1u : 0u) << expr;
  }
  const std::vector<std::string> below = {
      "[.s[] | .c // [] | map(select(.name == \"main\")) | first][]",
      "[.s[] | .c // [] | map(select(.name == \"main\")) | first.image][]",
  };
  auto kind = LowerKind(below);
  ASSERT_EQ(kind->programs.size(), below.size());
  view::ShareRepeatedSubexpressions(kind->programs, kind->trie);
  std::vector<uint32_t> memos;
  for (const view::ViewProgram* program : kind->programs) {
    for (const view::VNode& node : program->nodes) {
      if (node.first_selected) memos.push_back(node.memo);
    }
  }
  ASSERT_EQ(memos.size(), 2u);
  EXPECT_NE(memos[0], 0u);
  EXPECT_EQ(memos[0], memos[1]);

  std::vector<std::string> exprs = below;
  for (const auto& entry : flagged) exprs.push_back(entry.first);
  const std::vector<std::string> docs = {
      R"([{"name":"main","image":"a"},{"name":"main","image":"b"}])",
      R"([{"name":"x"},{"image":"c","name":"main"}])",
      R"([{"name":"main"},1])",
      R"([1,{"name":"main"}])",
      R"([{"name":"x"},null])",
      R"([])",
      R"({"p":{"name":"main"},"q":{"name":"main","image":"o"}})",
      R"(null)",
      R"("text")",
      R"({"s":[{"c":[{"name":"o"},{"name":"main","image":"k"}]},{"c":null},{},{"c":[{"name":"main","image":"z"},{"name":"main","image":"y"}]}]})",
      R"({"s":[{"c":[{"name":"main"},3]}]})",
      R"({"s":[{"c":{"a":{"name":"main","image":"m"}}}]})",
  };
  ExpectAgree(exprs, docs);
}

TEST(ViewSharedPathsTest, MemberLookupsAreThisObjectsOwn) {
  // A lookup on a DOM object is kept for the next reads of that key there (`.type` three times
  // per condition): objects at the same place of the next document, other keys of the same
  // length, the same key in another node and a repeated key must all read their own value.
  const std::vector<std::string> exprs = {
      "map((.type == \"A\" or .type == \"B\" or .type == \"C\") and .status == \"True\")",
      "[.[] | select(.type == \"A\") | .stat // .status]", "map(.type)", "map(.t.u // 0)",
      "map(.t.u + (.t.v // 0))", "map(.type == .kind)",
  };
  const std::vector<std::string> docs = {
      R"([{"type":"A","status":"True","kind":"A","t":{"u":1}},{"type":"B","status":"False","kind":"X"}])",
      R"([{"type":"C","status":"False","kind":"Z","t":{"u":2,"v":3}},{"type":"A","status":"True","kind":"A"}])",
      R"([{"type":"B","status":"True","kind":"B","t":{"v":1,"u":5}},{"type":"Q","status":"True","kind":"Q"}])",
      R"([{"type":"A","type":"B","status":"True","stat":"s","t":{"u":1,"u":4}},{"kind":"A","status":"True"}])",
      R"([{"status":"True","t":null},{"type":"A","status":"True","t":{"u":"x"}}])",
  };
  ExpectAgree(exprs, docs);
}

// `P[]?` (the front end's `P | try .[]`) on a trie path shares P's iteration, marked optional: where
// P's value is not iterable it gives nothing, as the try does, while P's own error (a path through
// a string) and the errors after it (`.b` of an element that is a number) stay errors. Grove's
// `.spec.template.podCliqueScalingGroups[]?` resolvers take this form.
TEST(ViewSharedPathsTest, OptionalIterationsShareTheTriesIteration) {
  for (const char* expr : {".a[]?", ".a[]?.b", ".a[]? | .b.c", "(.r // 1) as $s | .a[]? | $s * (.r // 1)"}) {
    auto program = Marked(expr);
    ASSERT_NE(program, nullptr);
    const view::VNode* each = nullptr;
    for (const view::VNode& node : program->nodes) {
      if (node.op == view::VOp::kIterEach) each = &node;
      EXPECT_NE(node.op, view::VOp::kTry) << expr;
    }
    ASSERT_NE(each, nullptr) << expr;
    EXPECT_EQ(each->c, 1u) << expr;
  }
  auto plain = Marked(".a[].b");
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->nodes[0].op, view::VOp::kIterEach);
  EXPECT_EQ(plain->nodes[0].c, 0u);
  const std::vector<std::string> exprs = {
      ".a[]?", ".a[]?.b", ".a[]? | .b.c", "(.r // 1) as $s | .a[]? | $s * (.r // 1)", ".a[].b",
      "[.a[]?.b] | length", ".x.a[]?", ".a[]? | .b | length", ".a[]?, .a[]?.b"};
  const std::vector<std::string> docs = {
      R"({"a":[{"b":{"c":1}},{"b":2},{}],"r":3})",
      R"({"a":{"k":{"b":4},"j":{"b":{"c":5}}},"r":2})",
      R"({"a":null})",
      R"({})",
      R"({"a":"text"})",
      R"({"a":7,"r":false})",
      R"({"a":true})",
      R"({"a":[]})",
      R"({"a":[1,{"b":2}]})",
      R"({"a":{"k":1,"k":{"b":2}}})",
      R"({"x":"s"})",
      R"({"x":{"a":[{"b":"y"}]},"a":[{"b":[1,2]}]})",
  };
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
  // Where `.a` is not iterable the view engine answers itself (no elements), not the engine.
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (size_t i = 0; i < 4; ++i) programs.push_back(Lowered(exprs[i]));
  view::FusedKind kind(programs);
  view::FusedRunner runner(kind);
  for (const char* doc : {R"({"a":null})", R"({})", R"({"a":"text"})", R"({"a":7})", R"({"a":true})"}) {
    JsonError error;
    ASSERT_TRUE(runner.Run(doc, {}, &error));
    for (size_t i = 0; i < programs.size(); ++i) EXPECT_EQ(Describe(runner.result(i)), "") << exprs[i] << " on " << doc;
  }
  EXPECT_EQ(runner.stats().fused_runs, 20u);
  EXPECT_EQ(runner.stats().fallback_runs, 0u);
}

// Members are read straight from simdjson's tape, each value skipped by its words (two for a
// number of each kind, a container's up to its end): every key after values of every type is
// found, by the trie's fills (`.last`), by field comparisons (`select(.last == 42)`) and by field
// paths on values that are not trie paths (`.items[0].last`), the last of a repeated key winning.
TEST(ViewSharedPathsTest, MembersAfterValuesOfEveryTypeAreFound) {
  const std::string members =
      R"("i":-5,"u":18446744073709551615,"d":1.5e300,"s":"x\"y","t":true,"f":false,"n":null,)"
      R"("a":[1,{"z":[2,{"w":3}]}],"o":{"p":{"q":[]}},"e":{},"ea":[],"last":42)";
  const std::vector<std::string> exprs = {
      ".i", ".u", ".d", ".s", ".t", ".f", ".n", ".a", ".o.p.q", ".e", ".ea", ".last", ".o.p.missing",
      ".items[] | select(.last == 42) | .s", "[.items[] | .last]", ".items[0].last", ".items[0].o.p",
      ".items[] | .ea, .last", "[.items[] | select(.last != 42) | .i]"};
  const std::vector<std::string> docs = {
      "{" + members + R"(,"items":[{)" + members + R"(},{)" + members + R"(,"last":7}]})",
      "{" + members + R"(,"last":{"x":1},"items":[{"last":42,"s":1}]})",
      R"({"items":[{"i":0,"last":42}],"last":null})",
  };
  EXPECT_GT(ExpectAgree(exprs, docs), 0u);
}

}  // namespace
}  // namespace wm::testing
