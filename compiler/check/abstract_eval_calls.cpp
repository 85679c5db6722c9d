// Calls in the abstract evaluator (internal/abstract_eval.h), dispatched on what the name
// resolution bound them to: a local def's body is evaluated with the call's input, its closure
// parameters standing for the call's argument expressions; a closure parameter evaluates that
// argument; a builtin applies its signature. A recursive call, or one past the evaluation budget,
// yields an unknown result, as does a builtin the signature table does not know.
#include <algorithm>
#include <memory>
#include <vector>

#include "compiler/check/internal/abstract_eval.h"
#include "compiler/check/typecheck.h"
#include "runtime/ir/builtins.h"

namespace wm::check::internal {
namespace {

// Evaluation steps after which local def calls are no longer expanded: without def calls the walk
// is linear in the AST, but a chain of defs each calling the previous one twice would otherwise
// cost 2^n steps, and a large body called many times its size times the calls.
constexpr long kMaxStepsForLocalCalls = 1000000;

}  // namespace

using jq::BindingKind;
using jq::Node;

Result AbstractEvaluator::EvalCall(const Node& n, const AType& in, int depth) {
  const jq::Binding* binding = resolution_.Find(n);
  if (binding == nullptr || binding->kind == BindingKind::kBuiltin) return CallBuiltin(n, in, depth);
  if (binding->kind == BindingKind::kLocalDef) return CallLocalDef(n, *binding->site, in, depth);
  if (binding->kind == BindingKind::kParameter) return CallParameter(n, *binding, in, depth);
  return CallUnknown(n, in, depth);
}

Result AbstractEvaluator::CallLocalDef(const Node& call, const Node& def, const AType& in, int depth) {
  bool recursive = std::find(active_defs_.begin(), active_defs_.end(), &def) != active_defs_.end();
  if (recursive || steps_ >= kMaxStepsForLocalCalls) return CallUnknown(call, in, depth);
  const size_t variables_mark = variables_.size(), closures_mark = closures_.size();
  // `def f($a): body` is `def f(a): a as $a | body`: every output of the argument runs the body.
  Card arguments;
  for (size_t i = 0; i < def.params.size(); ++i) {
    closures_.push_back({&def, i, call.kid(i)});
    const std::string& param = def.params[i];
    if (param.empty() || param[0] != '$') continue;
    Result value = Argument(call, i, in, depth);
    arguments = Seq(arguments, value.card);
    variables_.push_back({&def, param.substr(1), value.type});
  }
  active_defs_.push_back(&def);
  Result r = Eval(def.kid(0), in, depth + 1);
  active_defs_.pop_back();
  variables_.resize(variables_mark);
  closures_.resize(closures_mark);
  r.card = Seq(arguments, r.card);
  return r;
}

Result AbstractEvaluator::CallParameter(const Node& call, const jq::Binding& binding, const AType& in,
                                        int depth) {
  for (size_t i = closures_.size(); i-- > 0;) {
    const Closure& c = closures_[i];
    if (c.def == binding.site && c.index == binding.index) return Eval(c.argument, in, depth + 1);
  }
  return CallUnknown(call, in, depth);
}

// Nothing is known of the result. A native builtin runs its arguments on its input, so they are
// walked there (unknown fields in them are real); any other callee (a prelude function the table
// lacks, a recursive def) may run them on anything, so they are walked on an unknown input.
Result AbstractEvaluator::CallUnknown(const Node& call, const AType& in, int depth) {
  const jq::Binding* binding = resolution_.Find(call);
  bool native = (binding == nullptr || binding->kind == BindingKind::kBuiltin) &&
                ir::FindBuiltin(call.text, call.kids.size()) != nullptr;
  ++suppress_;
  for (size_t i = 0; i < call.kids.size(); ++i) Argument(call, i, native ? in : AType::Any(), depth);
  --suppress_;
  return Unknown();
}

Result AbstractEvaluator::CallBuiltin(const Node& call, const AType& in, int depth) {
  const BuiltinSignature* sig = FindBuiltinSignature(call.text, call.kids.size());
  if (sig == nullptr) return CallUnknown(call, in, depth);
  RequireInput(*sig, call, in);
  return ApplyEffect(*sig, call, in, EvaluateArguments(*sig, call, in, depth));
}

void AbstractEvaluator::RequireInput(const BuiltinSignature& sig, const Node& call, const AType& in) {
  if (sig.accepts == 0 || in.any || !in.kinds || (in.kinds & sig.accepts)) return;
  Report(Severity::Error, kBuiltinInput, call,
         call.text + " cannot be applied to " + Describe(in) + " (it needs " +
             std::string(sig.needs) + ")",
         {"the input at " + Where(in) + " is " + Describe(in)});
}

std::vector<Result> AbstractEvaluator::EvaluateArguments(const BuiltinSignature& sig, const Node& call,
                                                         const AType& in, int depth) {
  std::vector<Result> args;
  for (size_t i = 0; i < call.kids.size(); ++i) {
    ArgumentInput where = i < sig.arguments.size() ? sig.arguments[i] : ArgumentInput::kInput;
    args.push_back(Argument(call, i, ArgumentInputOf(where, call, in, args), depth));
  }
  return args;
}

AType AbstractEvaluator::ArgumentInputOf(ArgumentInput where, const Node& call, const AType& in,
                                         const std::vector<Result>& earlier) {
  using A = ArgumentInput;
  switch (where) {
    case A::kInput: return in;
    case A::kElements: {
      // RequireInput already reported an input that cannot be iterated.
      ++suppress_;
      AType element = IterateOf(One(in), call).type;
      --suppress_;
      return element;
    }
    case A::kOutputsOfFirst: return earlier.size() > 0 ? earlier[0].type : AType::Any();
    case A::kOutputsOfSecond: return earlier.size() > 1 ? earlier[1].type : AType::Any();
    case A::kEntries: return *ToEntries(in).type.elem;
    case A::kMatch: return AType::Of(kObj);
    case A::kAnyValue: return AType::Any();
    case A::kNull: return Literal(kNull, "null");
  }
  return AType::Any();
}

Result AbstractEvaluator::ApplyEffect(const BuiltinSignature& sig, const Node& call, const AType& in,
                                      const std::vector<Result>& args) {
  using E = BuiltinEffect;
  switch (sig.effect) {
    case E::kNoOutput: {
      Result r = One(AType::Any());
      r.card = {0, 0};
      return r;
    }
    case E::kFixed: return One(sig.kinds ? AType::Of(sig.kinds) : AType::Any());
    case E::kKeys: return Keys(in);
    case E::kToEntries: return ToEntries(in);
    case E::kElementOrNull:
    case E::kAddElements: return ElementOrNull(sig, call, in);
    case E::kSameArray:
    case E::kSortedBy:
    case E::kGroupBy:
    case E::kExtremeBy: return SortedBy(sig, call, in);
    case E::kSameAsInput: {
      AType t = in;
      t.optional_at.clear();
      return One(t);
    }
    case E::kKeepKinds: return KeepKinds(sig, in);
    case E::kGenerator: {
      Result r = One(sig.kinds ? AType::Of(sig.kinds) : AType::Any());
      r.card = {1, kMany};
      r.origin_known = false;
      return r;
    }
    case E::kPerOutputOfLast: {
      Result r = args.empty() ? One(AType::Any()) : args.back();
      r.type = sig.kinds ? AType::Of(sig.kinds) : AType::Any();
      r.list_map = nullptr;
      r.selected_keys.clear();
      return r;
    }
    case E::kSelect: return Select(call, in, args.at(0));
    case E::kMap:
    case E::kMapValues: return Map(sig, in, args.at(0));
    case E::kTrimmed: return One(in.any ? AType::Any() : AType::Of(in.kinds));
    case E::kSplit: {
      AType t = AType::Of(kArr);
      t.elem = std::make_shared<AType>(AType::Of(kStr));
      return One(t);
    }
    case E::kAtMostOneOutput: {
      Result r = args.empty() ? One(AType::Any()) : args.back();
      r.card.min = 0;
      if (r.card.max > 1 && r.card.max != kUnknownMax) r.card.max = 1;
      r.list_map = nullptr;
      return r;
    }
    case E::kLimit: return Limit(call, args.at(1));
  }
  return Unknown();
}

}  // namespace wm::check::internal
