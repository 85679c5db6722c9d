// The abstract evaluator: walks one jq AST with an abstract input (internal/types.h) and computes
// the abstract output and how many outputs there are, reporting operations that can only fail on
// every concrete value of their input (WM201-WM205, WM213). Calls are dispatched through the
// name resolution (compiler/jq/resolve.h): a local def's body is evaluated at the call site with
// its arguments as closures, a builtin through its signature (internal/builtin_signatures.h).
//
//   AbstractEvaluator eval(schemas, map, resolution, "example.com/v1 Trainer", 200, &diagnostics);
//   Result r = eval.Eval(ast, eval.FromSchema(root_schema, "", ""), 0);
//
// Errors inside `?`, `try` and the left side of `//` are not reported (jq swallows them), except
// unknown fields, which are schema mistakes.
#pragma once

#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compiler/check/internal/builtin_signatures.h"
#include "compiler/check/internal/types.h"
#include "compiler/jq/ast.h"
#include "compiler/jq/resolve.h"
#include "compiler/source/diagnostic.h"

namespace wm::check::internal {

class AbstractEvaluator {
 public:
  // `owner` names the input's kind in messages ("example.com/v1 Trainer"); the schemas, map and
  // resolution must outlive the evaluator.
  AbstractEvaluator(const schema::SchemaRegistry& schemas, const SourceMap& map,
                    const jq::Resolution& resolution, std::string owner, int max_depth,
                    std::vector<Diagnostic>* out);

  AType FromSchema(const Schema* node, std::string path, std::string optional_at) const {
    return internal::FromSchema(schemas_, node, std::move(path), std::move(optional_at));
  }
  // The outputs of `n` on input `in`; null `n` is the identity.
  Result Eval(const jq::Node* n, const AType& in, int depth);

 private:
  // A bound variable: its binding construct (from the resolution), name and type.
  struct Variable {
    const jq::Node* site;
    std::string name;
    AType type;
  };
  // A closure parameter of an active local def call: the argument expression it stands for.
  struct Closure {
    const jq::Node* def;
    size_t index;
    const jq::Node* argument;
  };

  void Report(Severity sev, const char* rule, const jq::Node& at, std::string message,
              std::vector<std::string> notes = {}, bool always = false);
  std::string Where(const AType& t) const;

  // Paths (abstract_eval.cpp).
  AType FieldOf(const AType& t, const std::string& name, const jq::Node& at);
  void ReportUnknownField(const AType& t, const std::string& name, const jq::Node& at);
  Result IterateOf(const Result& r, const jq::Node& at);
  Result EvalField(const jq::Node& n, const AType& in, int depth);
  Result EvalIndex(const jq::Node& n, const AType& in, int depth);
  Result IndexByNumber(Result target, const jq::Node& n);
  Result EvalSlice(const jq::Node& n, const AType& in, int depth);
  Result EvalOptional(const jq::Node& n, const AType& in, int depth);
  // Literals and constructors.
  Result EvalNumber(const jq::Node& n);
  Result EvalString(const jq::Node& n, const AType& in, int depth);
  Result EvalArray(const jq::Node& n, const AType& in, int depth);
  Result EvalObject(const jq::Node& n, const AType& in, int depth);
  // Operators and control flow (abstract_eval_ops.cpp).
  Result EvalPipe(const jq::Node& n, const AType& in, int depth);
  Result EvalComma(const jq::Node& n, const AType& in, int depth);
  Result EvalAlternative(const jq::Node& n, const AType& in, int depth);
  Result EvalAssign(const jq::Node& n, const AType& in, int depth);
  Result EvalBoolean(const jq::Node& n, const AType& in, int depth);
  Result EvalArith(const jq::Node& n, const AType& in, int depth);
  Result EvalNeg(const jq::Node& n, const AType& in, int depth);
  Result EvalIf(const jq::Node& n, const AType& in, int depth);
  Result EvalTry(const jq::Node& n, const AType& in, int depth);
  Result EvalFold(const jq::Node& n, const AType& in, int depth);
  Result EvalBind(const jq::Node& n, const AType& in, int depth);
  AType Arith(const jq::Node& n, const AType& a, const AType& b);
  void Compare(const jq::Node& n, const AType& a, const AType& b);
  void CompareWithLiteral(const jq::Node& n, const AType& x, const AType& literal);
  // Variables.
  Result EvalVariable(const jq::Node& n);
  const AType* LookupVariable(const jq::Node& use) const;
  void BindPattern(const jq::Node* binder, const jq::Node* pattern, const AType& value, int depth);
  // Calls (abstract_eval_calls.cpp).
  Result EvalCall(const jq::Node& n, const AType& in, int depth);
  Result CallLocalDef(const jq::Node& call, const jq::Node& def, const AType& in, int depth);
  Result CallParameter(const jq::Node& call, const jq::Binding& binding, const AType& in, int depth);
  Result CallUnknown(const jq::Node& call, const AType& in, int depth);
  Result CallBuiltin(const jq::Node& call, const AType& in, int depth);
  void RequireInput(const BuiltinSignature& sig, const jq::Node& call, const AType& in);
  // Each argument evaluated on what the signature says it runs on, in argument order.
  std::vector<Result> EvaluateArguments(const BuiltinSignature& sig, const jq::Node& call,
                                        const AType& in, int depth);
  AType ArgumentInputOf(ArgumentInput where, const jq::Node& call, const AType& in,
                        const std::vector<Result>& earlier);
  Result ApplyEffect(const BuiltinSignature& sig, const jq::Node& call, const AType& in,
                     const std::vector<Result>& args);
  Result Argument(const jq::Node& call, size_t i, const AType& input, int depth) {
    return Eval(call.kid(i), input, depth + 1);
  }
  // Builtin effects with more than a line of logic (abstract_eval_builtins.cpp).
  Result Keys(const AType& in);
  Result ToEntries(const AType& in);
  Result ElementOrNull(const BuiltinSignature& sig, const jq::Node& call, const AType& in);
  Result KeepKinds(const BuiltinSignature& sig, const AType& in);
  Result Select(const jq::Node& call, const AType& in, const Result& condition);
  Result Map(const BuiltinSignature& sig, const AType& in, const Result& f);
  Result SortedBy(const BuiltinSignature& sig, const jq::Node& call, const AType& in);
  Result Limit(const jq::Node& call, const Result& f);
  // Type tests (`type == "object"`, `. != null`, combined with and/or): the kinds a condition
  // lets through, or 0xFF when it tests no type. Narrows `select(...)`, `if` and `and` operands.
  uint8_t KindsPassing(const jq::Node* condition) const;
  AType Narrowed(const AType& in, const jq::Node* condition) const;
  Result EvalNarrowed(const jq::Node* n, const AType& in, const jq::Node* condition, int depth);

  const schema::SchemaRegistry& schemas_;
  const SourceMap& map_;
  const jq::Resolution& resolution_;
  std::string owner_;
  int max_depth_;
  std::vector<Diagnostic>* out_;
  int suppress_ = 0;
  std::vector<Variable> variables_;
  std::vector<Closure> closures_;
  std::vector<const jq::Node*> active_defs_;  // local defs being evaluated (recursion guard)
  long steps_ = 0;                            // nodes evaluated so far (budget of def calls)
  std::set<std::tuple<uint32_t, uint32_t, std::string>> reported_;
};

}  // namespace wm::check::internal
