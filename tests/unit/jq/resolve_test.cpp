// Tests of jq name resolution (compiler/jq/resolve.h): local defs shadowing builtins, later defs
// shadowing earlier ones, recursion, parameters shadowing defs and being shadowed by nested defs,
// value parameters, `as` / reduce / foreach scopes, globals, and the annotated dump.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/jq/parser.h"
#include "compiler/jq/resolve.h"

namespace wm::jq {
namespace {

class ResolveTest : public ::testing::Test {
 protected:
  const Node& Parse(const std::string& text) {
    ParseResult r = jq::Parse(text);
    EXPECT_TRUE(r.ok()) << text;
    asts_.push_back(std::move(r.ast));
    return *asts_.back();
  }

  // The uses of `name` (calls, or variables when name starts with '$') in pre-order.
  static std::vector<const Node*> Uses(const Node& ast, const std::string& name) {
    std::vector<const Node*> out;
    std::vector<const Node*> pending{&ast};
    while (!pending.empty()) {
      const Node* n = pending.back();
      pending.pop_back();
      if (!n) continue;
      bool variable = name[0] == '$';
      if (!variable && n->kind == NodeKind::Call && n->text == name) out.push_back(n);
      if (variable && n->kind == NodeKind::Variable && "$" + n->text == name) out.push_back(n);
      for (size_t i = n->kids.size(); i-- > 0;) pending.push_back(n->kids[i].get());
    }
    return out;
  }

  // How the i-th use of `name` resolves, as DescribeBinding prints it.
  std::string BindingOf(const std::string& text, const std::string& name, size_t i = 0) {
    const Node& ast = Parse(text);
    Resolution r = Resolve(ast);
    std::vector<const Node*> uses = Uses(ast, name);
    if (i >= uses.size()) return "<no use " + std::to_string(i) + ">";
    const Binding* b = r.Find(*uses[i]);
    return b ? DescribeBinding(*uses[i], *b) : "<unresolved>";
  }

  std::vector<std::unique_ptr<Node>> asts_;
};

TEST_F(ResolveTest, LocalDefShadowsTheBuiltin) {
  EXPECT_EQ(BindingOf("def keys: .; .spec | keys", "keys"), "def keys/0 [4,8)");
  EXPECT_EQ(BindingOf(".spec | keys", "keys"), "builtin keys/0");
  // Name and arity both count: keys/1 does not bind keys/0.
  EXPECT_EQ(BindingOf("def keys(f): f; keys", "keys"), "builtin keys/0");
}

TEST_F(ResolveTest, DefsAreVisibleOnlyInTheirBodyAndRest) {
  // `def f: def g: 1; g; g`: the inner g is not visible after f.
  EXPECT_EQ(BindingOf("def f: def g: 1; g; g", "g", 0), "def g/0 [11,12)");
  EXPECT_EQ(BindingOf("def f: def g: 1; g; g", "g", 1), "builtin g/0");
}

TEST_F(ResolveTest, LaterDefsShadowEarlierOnes) {
  const char* text = "def f: 1; def f: 2; f";
  EXPECT_EQ(BindingOf(text, "f"), "def f/0 [14,15)");
}

TEST_F(ResolveTest, RecursionBindsTheDefItself) {
  const char* text = "def f: if . > 0 then . - 1 | f else . end; f";
  EXPECT_EQ(BindingOf(text, "f", 0), "def f/0 [4,5)");
  EXPECT_EQ(BindingOf(text, "f", 1), "def f/0 [4,5)");
}

TEST_F(ResolveTest, ParametersShadowDefsAndNestedDefsShadowParameters) {
  // The parameter `keys` shadows the outer def and the builtin inside f's body.
  const char* text = "def keys: 1; def f(keys): keys; f(2), keys";
  EXPECT_EQ(BindingOf(text, "keys", 0), "param keys of f/1 [17,18)");
  EXPECT_EQ(BindingOf(text, "keys", 1), "def keys/0 [4,8)");
  // A def nested in the body shadows the parameter.
  const char* nested = "def f(g): def g: 3; g; f(1)";
  EXPECT_EQ(BindingOf(nested, "g"), "def g/0 [14,15)");
  // Parameters are filters of arity 0 only.
  EXPECT_EQ(BindingOf("def f(g): g(1); f(.)", "g"), "builtin g/1");
}

TEST_F(ResolveTest, ValueParametersBindBothForms) {
  const char* text = "def f($n): $n + n; f(1)";
  EXPECT_EQ(BindingOf(text, "$n"), "param $n of f/1 [4,5)");
  EXPECT_EQ(BindingOf(text, "n"), "param n of f/1 [4,5)");
}

TEST_F(ResolveTest, VariableScopes) {
  EXPECT_EQ(BindingOf(".a as $x | $x", "$x"), "var $x of Bind [0,13)");
  EXPECT_EQ(BindingOf("$x", "$x"), "global $x");
  EXPECT_EQ(BindingOf("$ENV", "$ENV"), "global $ENV");
  // reduce: init does not see $x, update does.
  const char* fold = "reduce .[] as $x ($x; . + $x)";
  EXPECT_EQ(BindingOf(fold, "$x", 0), "global $x");
  EXPECT_EQ(BindingOf(fold, "$x", 1), "var $x of Reduce [0,29)");
  // foreach: the extract sees it too; `?//` alternatives bind all their names.
  EXPECT_EQ(BindingOf("foreach .[] as $x (0; .; $x)", "$x"), "var $x of Foreach [0,28)");
  EXPECT_EQ(BindingOf(". as [$a] ?// $b | $b", "$b"), "var $b of Bind [0,21)");
  // Object patterns: `{$name}` binds, key expressions see the enclosing variables.
  // (use 0 of $a is its binding occurrence in the pattern, which is not a use)
  const char* object = ".k as $k | . as {$a, ($k): $b} | $a";
  EXPECT_EQ(BindingOf(object, "$a", 0), "<unresolved>");
  EXPECT_EQ(BindingOf(object, "$a", 1), "var $a of Bind [11,35)");
  EXPECT_EQ(BindingOf(object, "$k"), "var $k of Bind [0,35)");
  // The body of a def sees the variables of its definition site.
  EXPECT_EQ(BindingOf("1 as $x | def f: $x; f", "$x"), "var $x of Bind [0,22)");
}

TEST_F(ResolveTest, DumpAnnotatesCallsAndVariables) {
  const Node& ast = Parse("def keys: .; .spec | keys, $x");
  std::string dump = Dump(ast, Resolve(ast));
  EXPECT_EQ(dump,
            "FuncDef [0,29) keys\n"
            "  Identity [10,11)\n"
            "  Pipe [13,29) |\n"
            "    Field [13,18) spec\n"
            "      <none>\n"
            "    Comma [21,29) ,\n"
            "      Call [21,25) keys -> def keys/0 [4,8)\n"
            "      Variable [27,29) $x -> global $x\n")
      << dump;
}

TEST_F(ResolveTest, EveryCallAndVariableIsRecorded) {
  const Node& ast = Parse("def f(g): g | map(. + $v); [1] as $v | f(length)");
  Resolution r = Resolve(ast);
  // g, map, $v, f, length
  EXPECT_EQ(r.size(), 5u);
}

}  // namespace
}  // namespace wm::jq
