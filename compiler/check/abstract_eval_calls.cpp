// Calls in the abstract evaluator (internal/abstract_eval.h), dispatched on what the name
// resolution bound them to: a local def's body is evaluated with the call's input, its closure
// parameters standing for the call's argument expressions; a closure parameter evaluates that
// argument; a builtin applies its signature. A recursive call, or one past the evaluation budget,
// yields an unknown result, as does a builtin the signature table does not know.
#include <algorithm>

#include "compiler/check/internal/abstract_eval.h"
#include "compiler/check/typecheck.h"

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

// Nothing is known of the result; the arguments are still walked against the input (most
// builtins run them there), without reporting what only their types would show.
Result AbstractEvaluator::CallUnknown(const Node& call, const AType& in, int depth) {
  ++suppress_;
  for (size_t i = 0; i < call.kids.size(); ++i) Argument(call, i, in, depth);
  --suppress_;
  return Unknown();
}

Result AbstractEvaluator::CallBuiltin(const Node& call, const AType& in, int depth) {
  const BuiltinSignature* sig = FindBuiltinSignature(call.text, call.kids.size());
  if (sig == nullptr) return CallUnknown(call, in, depth);
  RequireInput(*sig, call, in);
  return ApplyEffect(*sig, call, in, depth);
}

void AbstractEvaluator::RequireInput(const BuiltinSignature& sig, const Node& call, const AType& in) {
  if (sig.accepts == 0 || in.any || !in.kinds || (in.kinds & sig.accepts)) return;
  Report(Severity::Error, kBuiltinInput, call,
         call.text + " cannot be applied to " + Describe(in) + " (it needs " +
             std::string(sig.needs) + ")",
         {"the input at " + Where(in) + " is " + Describe(in)});
}

Result AbstractEvaluator::ApplyEffect(const BuiltinSignature& sig, const Node& call, const AType& in,
                                      int depth) {
  using E = BuiltinEffect;
  switch (sig.effect) {
    case E::kNoOutput: {
      for (size_t i = 0; i < call.kids.size(); ++i) Argument(call, i, in, depth);
      Result r = One(AType::Any());
      r.card = {0, 0};
      return r;
    }
    case E::kFixed: return One(AType::Of(sig.kinds));
    case E::kFixedAfterArguments:
      for (size_t i = 0; i < call.kids.size(); ++i) Argument(call, i, in, depth);
      return One(AType::Of(sig.kinds));
    case E::kOneUnknown: return One(AType::Any());
    case E::kKeys: return Keys(in);
    case E::kToEntries: return ToEntries(in);
    case E::kElementOrNull:
    case E::kAddElements: return ElementOrNull(sig, call, in);
    case E::kSameArray:
    case E::kSortedBy: return SortedBy(sig, call, in, depth);
    case E::kKeepKinds: return KeepKinds(sig, in);
    case E::kGenerator: {
      for (size_t i = 0; i < call.kids.size(); ++i) Argument(call, i, in, depth);
      Result r = One(AType::Any());
      r.card = {1, kMany};
      r.origin_known = false;
      return r;
    }
    case E::kSelect: return Select(call, in, depth);
    case E::kMap:
    case E::kMapValues: return Map(sig, call, in, depth);
    case E::kPredicateOnElements: return PredicateOnElements(call, in, depth);
    case E::kTrimmed:
      Argument(call, 0, in, depth);
      return One(in.any ? AType::Any() : AType::Of(in.kinds));
    case E::kSplit: {
      Argument(call, 0, in, depth);
      AType t = AType::Of(kArr);
      t.elem = std::make_shared<AType>(AType::Of(kStr));
      return One(t);
    }
    case E::kAtMostOneOutput: return AtMostOneOutput(call, in, depth);
    case E::kGroupBy:
    case E::kExtremeBy: return SortedBy(sig, call, in, depth);
    case E::kWithEntries:
      Argument(call, 0, AType::Of(kObj), depth);
      return One(AType::Of(kObj));
    case E::kSubstitute:
      Argument(call, 0, in, depth);
      Argument(call, 1, AType::Of(kObj), depth);
      return One(AType::Of(kStr));
    case E::kLimit: return Limit(call, in, depth);
  }
  return CallUnknown(call, in, depth);
}

}  // namespace wm::check::internal
