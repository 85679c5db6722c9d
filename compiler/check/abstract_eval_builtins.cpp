// Builtin effects of the abstract evaluator with more than a line of logic (the effects are
// listed in internal/builtin_signatures.h; ApplyEffect in abstract_eval_calls.cpp dispatches).
#include <algorithm>
#include <map>
#include <memory>

#include "compiler/check/internal/abstract_eval.h"

namespace wm::check::internal {

using jq::Node;
using jq::NodeKind;

Result AbstractEvaluator::Keys(const AType& in) {
  AType t = AType::Of(kArr);
  t.elem = std::make_shared<AType>(AType::Of(kStr | kNumeric));
  if (in.schema) t.elem_source = in.path;
  return One(t);
}

// [{key, value}] where value has the map's value schema: `.value.x` stays checked.
Result AbstractEvaluator::ToEntries(const AType& in) {
  auto fields = std::make_shared<std::map<std::string, AType>>();
  (*fields)["key"] = AType::Of(kStr);
  (*fields)["value"] = in.schema && in.schema->additional_properties
                           ? FromSchema(in.schema->additional_properties.get(), in.path + "[]", "")
                           : AType::Any();
  AType entry = AType::Of(kObj);
  entry.fields = fields;
  AType t = AType::Of(kArr);
  t.elem = std::make_shared<AType>(entry);
  if (in.schema) t.elem_source = in.path;
  return One(t);
}

Result AbstractEvaluator::ElementOrNull(const BuiltinSignature& sig, const Node& call, const AType& in) {
  Result elem = IterateOf(One(in), call);
  Result r = One(sig.effect == BuiltinEffect::kAddElements ? AType::Any() : elem.type);
  if (!r.type.any) r.type.kinds |= kNull;
  return r;
}

Result AbstractEvaluator::KeepKinds(const BuiltinSignature& sig, const AType& in) {
  Result r = One(in);
  if (!r.type.any) r.type.kinds &= sig.kinds;
  r.card.min = 0;
  return r;
}

Result AbstractEvaluator::Select(const Node& call, const AType& in, int depth) {
  Result cond = Argument(call, 0, in, depth);
  Result r = One(in);
  r.card = {0, cond.card.max};
  if (r.card.max == kMany) r.origin_known = false;
  return r;
}

Result AbstractEvaluator::Map(const BuiltinSignature& sig, const Node& call, const AType& in, int depth) {
  Result elem = IterateOf(One(in), call);
  Result f = Argument(call, 0, elem.type, depth);
  if (sig.effect == BuiltinEffect::kMap) {
    AType t = AType::Of(kArr);
    t.elem = std::make_shared<AType>(f.type);
    return One(t);
  }
  return One(AType::Of(in.any ? kObj | kArr : in.kinds & (kObj | kArr)));
}

Result AbstractEvaluator::PredicateOnElements(const Node& call, const AType& in, int depth) {
  Result elem = IterateOf(One(in), call);
  Argument(call, 0, elem.type, depth);
  return One(AType::Of(kBool));
}

Result AbstractEvaluator::AtMostOneOutput(const Node& call, const AType& in, int depth) {
  Result r = Argument(call, 0, in, depth);
  r.card.min = 0;
  if (r.card.max > 1 && r.card.max != kUnknownMax) r.card.max = 1;
  return r;
}

// sort/unique/reverse/flatten (no argument) and sort_by, unique_by, group_by, min_by, max_by,
// whose argument runs on each element.
Result AbstractEvaluator::SortedBy(const BuiltinSignature& sig, const Node& call, const AType& in,
                                   int depth) {
  if (sig.effect != BuiltinEffect::kSameArray) {
    Result elem = IterateOf(One(in), call);
    Argument(call, 0, elem.type, depth);
    if (sig.effect == BuiltinEffect::kExtremeBy) {
      AType t = elem.type;
      if (!t.any) t.kinds |= kNull;
      return One(t);
    }
    if (sig.effect == BuiltinEffect::kGroupBy) return One(AType::Of(kArr));
  }
  AType t = in;
  t.optional_at.clear();
  return One(t);
}

// limit(n; f): at most one output when n is a literal 1, none when it is 0 or less.
Result AbstractEvaluator::Limit(const Node& call, const AType& in, int depth) {
  Argument(call, 0, in, depth);
  Result r = Argument(call, 1, in, depth);
  r.card.min = 0;
  const Node* count = call.kid(0);
  if (count && count->kind == NodeKind::Number && count->number <= 1 && r.card.max != kUnknownMax) {
    r.card.max = std::min<uint8_t>(r.card.max, count->number <= 0 ? 0 : 1);
  }
  return r;
}

}  // namespace wm::check::internal
