// Name resolution over the jq AST: for every call (`f`, `f(a; b)`) and every variable reference
// (`$x`) it records what the name binds to under jq's scoping rules, before any later stage reads
// names as text. Entry points: `Resolution Resolve(const Node&)`, then `resolution.Find(node)`;
// `Dump(ast, resolution)` prints the AST annotated with the bindings (`--emit=resolved`).
//
// Scoping, as jq defines it:
// - `def f(params): body; rest`: f/arity is visible in its own body (recursion) and in `rest`,
//   never outside that FuncDef node; a later def of the same name/arity shadows an earlier one.
// - Closure parameters are filters of arity 0 visible in the body; they shadow outer defs of the
//   same name/0 and are shadowed by defs nested in the body. `$p` binds both the filter `p` and
//   the variable `$p`.
// - `E as $x | body` binds $x in body; `reduce/foreach E as $x (init; update; extract)` binds $x
//   in update and extract, not in init; names of every `?//` alternative pattern are all bound.
// - A call with no def or parameter in scope binds to the builtin or prelude function of that
//   name/arity (the resolver does not know the builtin table: an undefined name also lands there,
//   and the lowering reports it); a variable with no binder is global ($ENV, $__loc__, --arg).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "compiler/jq/ast.h"

namespace wm::jq {

enum class BindingKind : uint8_t {
  kLocalDef,        // call of a `def` in scope: `site` is its FuncDef node
  kParameter,       // call of a closure parameter: `site` is the FuncDef, `index` the parameter
  kBuiltin,         // call with no local binding: a builtin / prelude function of that name/arity
  kVariable,        // $x bound by `as`, reduce or foreach: `site` is that Bind/Reduce/Foreach node
  kValueParameter,  // $x bound by `def f($x)`: `site` is the FuncDef, `index` the parameter
  kGlobal,          // $x with no binder in the program ($ENV, $__loc__, --arg names, undefined)
};

struct Binding {
  BindingKind kind = BindingKind::kBuiltin;
  const Node* site = nullptr;  // the binding construct, null for kBuiltin / kGlobal
  size_t index = 0;            // parameter index for kParameter / kValueParameter
};

// The bindings of one AST's Call and Variable nodes (keys are the nodes' addresses: the AST must
// outlive the Resolution and must not be moved or edited in between).
class Resolution {
 public:
  // The binding of a Call or Variable node; null for other nodes and for uses deeper than the
  // resolver walks (see ResolveOptions::max_depth).
  const Binding* Find(const Node& use) const;
  void Record(const Node& use, const Binding& binding);
  size_t size() const { return bindings_.size(); }

 private:
  std::unordered_map<const Node*, Binding> bindings_;
};

struct ResolveOptions {
  // Deepest AST nesting walked; uses below it are left unrecorded (the parser caps ASTs at 4096).
  int max_depth = 8192;
};

Resolution Resolve(const Node& ast, const ResolveOptions& options = {});

// One binding as text: "def f/1 [4,5)", "param g of f/1 [4,5)", "builtin keys/0",
// "var $x of Bind [3,20)", "param $n of f/1 [4,5)", "global $ENV" (a def is located by its
// name token, other binders by their whole range).
std::string DescribeBinding(const Node& use, const Binding& binding);

// DumpAst (parser.h) with each resolved Call and Variable line followed by ` -> ` and its
// binding, e.g. `Call [21,25) keys -> def keys/0 [4,8)`.
std::string Dump(const Node& ast, const Resolution& resolution);

}  // namespace wm::jq
