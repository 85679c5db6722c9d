// Builtin effects of the abstract evaluator with more than a line of logic (the effects are
// listed in internal/builtin_signatures.h; ApplyEffect in abstract_eval_calls.cpp dispatches).
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

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

// [{key, value}] where value has the collection's element schema: `.value.x` stays checked. An
// array's keys are its indexes (jq 1.7).
Result AbstractEvaluator::ToEntries(const AType& in) {
  auto fields = std::make_shared<std::map<std::string, AType>>();
  const bool array = !in.any && in.Only(kArr | kNull) && (in.kinds & kArr);
  const Schema* element = !in.schema ? nullptr
                          : array    ? in.schema->items.get()
                                     : in.schema->additional_properties.get();
  (*fields)["key"] = AType::Of(array ? kNumeric : kStr);
  (*fields)["value"] = element ? FromSchema(element, in.path + "[]", "") : AType::Any();
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
  if (!(sig.kinds & kNull)) r.type.optional_at.clear();  // `values`: never null
  r.card.min = 0;
  return r;
}

namespace {

bool IsConstant(const Node* n) {
  if (!n) return false;
  switch (n->kind) {
    case NodeKind::String: return n->kids.empty() && n->format.empty();
    case NodeKind::Number:
    case NodeKind::True:
    case NodeKind::False:
    case NodeKind::Null: return true;
    default: return false;
  }
}

// `.name` of the input itself.
const Node* OwnField(const Node* n) {
  return n && n->kind == NodeKind::Field && (!n->kid(0) || n->kid(0)->kind == NodeKind::Identity)
             ? n
             : nullptr;
}

// The fields a condition compares with constants, through `and` (every conjunct must hold):
// `.name == "main" and .ready`, `"main" == .name`.
void FieldsEqualToConstants(const Node* c, std::vector<std::string>* out) {
  while (c && c->kind == NodeKind::Paren) c = c->kid(0);
  if (!c) return;
  if (c->kind == NodeKind::And) {
    FieldsEqualToConstants(c->kid(0), out);
    FieldsEqualToConstants(c->kid(1), out);
    return;
  }
  if (c->kind != NodeKind::Compare || c->text != "==") return;
  const Node* field = OwnField(c->kid(0)) && IsConstant(c->kid(1))   ? c->kid(0)
                      : OwnField(c->kid(1)) && IsConstant(c->kid(0)) ? c->kid(1)
                                                                     : nullptr;
  if (field) out->push_back(field->text);
}

}  // namespace

// select(f): the input where f holds, narrowed by a type test in f. The fields f compares with
// constants are recorded: on a list-map keyed by them at most one element passes.
Result AbstractEvaluator::Select(const Node& call, const AType& in, const Result& condition) {
  AType passing = Narrowed(in, call.kid(0));
  // No value of the input passes the type test: nothing follows, so nothing after is checked.
  if (!passing.any && passing.kinds == 0) {
    Result none = One(AType::Any());
    none.card = {0, 0};
    return none;
  }
  Result r = One(passing);
  r.card = {0, condition.card.max};
  if (r.card.max == kMany) r.origin_known = false;
  FieldsEqualToConstants(call.kid(0), &r.selected_keys);
  return r;
}

Result AbstractEvaluator::Map(const BuiltinSignature& sig, const AType& in, const Result& f) {
  if (sig.effect == BuiltinEffect::kMap) {
    AType t = AType::Of(kArr);
    t.elem = std::make_shared<AType>(f.type);
    return One(t);
  }
  return One(AType::Of(in.any ? kObj | kArr : in.kinds & (kObj | kArr)));
}

// sort/unique/reverse/flatten (no argument) and sort_by, unique_by, group_by, min_by, max_by
// (whose argument ran on each element).
Result AbstractEvaluator::SortedBy(const BuiltinSignature& sig, const Node& call, const AType& in) {
  if (sig.effect == BuiltinEffect::kExtremeBy) {
    ++suppress_;  // RequireInput reported an input that cannot be iterated
    AType t = IterateOf(One(in), call).type;
    --suppress_;
    if (!t.any) t.kinds |= kNull;
    return One(t);
  }
  if (sig.effect == BuiltinEffect::kGroupBy) return One(AType::Of(kArr));
  AType t = in;
  t.optional_at.clear();
  return One(t);
}

// limit(n; f): at most one output when n is a literal 1, none when it is 0 or less.
Result AbstractEvaluator::Limit(const Node& call, const Result& f) {
  Result r = f;
  r.card.min = 0;
  r.list_map = nullptr;
  const Node* count = call.kid(0);
  if (count && count->kind == NodeKind::Number && count->number <= 1 && r.card.max != kUnknownMax) {
    r.card.max = std::min<uint8_t>(r.card.max, count->number <= 0 ? 0 : 1);
  }
  return r;
}

}  // namespace wm::check::internal
