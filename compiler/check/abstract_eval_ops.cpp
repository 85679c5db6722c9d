// The abstract evaluator's operators and control flow (internal/abstract_eval.h): pipes,
// commas, alternatives, assignment, logic, comparisons, arithmetic, if, try, reduce/foreach and
// `as` bindings. Each function receives the depth of its node's children.
#include <algorithm>

#include "compiler/check/internal/abstract_eval.h"
#include "compiler/check/typecheck.h"

namespace wm::check::internal {

using jq::Node;
using jq::NodeKind;

Result AbstractEvaluator::EvalPipe(const Node& n, const AType& in, int depth) {
  Result a = Eval(n.kid(0), in, depth);
  Result b = Eval(n.kid(1), a.type, depth);
  return Compose(a, b);
}

Result AbstractEvaluator::EvalComma(const Node& n, const AType& in, int depth) {
  Result a = Eval(n.kid(0), in, depth);
  Result b = Eval(n.kid(1), in, depth);
  Result r;
  r.type = Join(a.type, b.type);
  r.card = Both(a.card, b.card);
  r.origin_known = false;  // outputs come from two expressions, not one collection
  return r;
}

Result AbstractEvaluator::EvalAlternative(const Node& n, const AType& in, int depth) {
  ++suppress_;
  Result a = Eval(n.kid(0), in, depth);
  --suppress_;
  Result b = Eval(n.kid(1), in, depth);
  AType left = a.type;
  if (!left.any) left.kinds &= ~kNull;
  left.optional_at.clear();
  AType right = b.type;
  right.optional_at.clear();
  Result r;
  r.type = left.any || left.kinds ? Join(left, right) : right;
  r.type.optional_at.clear();
  r.card.min = b.card.min || a.card.min;
  r.card.max = (a.card.max == kUnknownMax || b.card.max == kUnknownMax)
                   ? kUnknownMax
                   : std::max(a.card.max, b.card.max);
  r.origin = a.origin;
  r.origin_known = a.origin_known;
  // `A[].x // d` drops the null and false outputs of a stream when one of them is truthy.
  r.filtered = a.filtered || a.card.max >= kMany;
  r.defaulted = true;
  return r;
}

Result AbstractEvaluator::EvalAssign(const Node& n, const AType& in, int depth) {
  Result target = Eval(n.kid(0), in, depth);
  Eval(n.kid(1), n.text == "=" ? in : target.type, depth);
  return One(in);
}

// `or`, `and` and comparisons: one boolean per pair of operand outputs. The right side of
// `and` runs only where the left holds: `type == "object" and .storageUri` reads a field of
// objects only.
Result AbstractEvaluator::EvalBoolean(const Node& n, const AType& in, int depth) {
  Result a = Eval(n.kid(0), in, depth);
  Result b = n.kind == NodeKind::And ? EvalNarrowed(n.kid(1), in, n.kid(0), depth)
                                     : Eval(n.kid(1), in, depth);
  if (n.kind == NodeKind::Compare) Compare(n, a.type, b.type);
  Result r = One(AType::Of(kBool));
  r.card = Seq(a.card, b.card);
  return r;
}

Result AbstractEvaluator::EvalArith(const Node& n, const AType& in, int depth) {
  Result a = Eval(n.kid(0), in, depth);
  Result b = Eval(n.kid(1), in, depth);
  Result r = One(Arith(n, a.type, b.type));
  r.card = Seq(b.card, a.card);
  // jq evaluates the right operand in the outer loop; both iterate the same input here.
  if (a.card.max >= kMany && b.card.max >= kMany) {
    r.origin_known = false;
  } else {
    const Result& many = a.card.max >= kMany ? a : b;
    r.origin = many.origin;
    r.origin_known = a.origin_known && b.origin_known;
  }
  return r;
}

Result AbstractEvaluator::EvalNeg(const Node& n, const AType& in, int depth) {
  Result a = Eval(n.kid(0), in, depth);
  if (!a.type.any && !a.type.May(kNumeric)) {
    Report(Severity::Error, kBadArithmetic, n, Describe(a.type) + " cannot be negated",
           {"the value at " + Where(a.type) + " is " + Describe(a.type)});
  }
  a.type = AType::Of(kNumeric);
  return a;
}

// kids: cond, then, [elif-cond, elif-then]..., else|null
Result AbstractEvaluator::EvalIf(const Node& n, const AType& in, int depth) {
  Result out;
  bool first = true;
  size_t i = 0;
  Card card;
  for (; i + 1 < n.kids.size(); i += 2) {
    Result cond = Eval(n.kid(i), in, depth);
    Result branch = EvalNarrowed(n.kid(i + 1), in, n.kid(i), depth);
    Card c = Seq(cond.card, branch.card);
    out.type = first ? branch.type : Join(out.type, branch.type);
    card = first ? c : Either(card, c);
    out.origin_known = out.origin_known && branch.origin_known;
    if (branch.card.max >= kMany) out.origin = branch.origin;
    first = false;
  }
  Result otherwise = i < n.kids.size() && n.kid(i) ? Eval(n.kid(i), in, depth) : One(in);
  out.type = first ? otherwise.type : Join(out.type, otherwise.type);
  out.card = first ? otherwise.card : Either(card, otherwise.card);
  return out;
}

Result AbstractEvaluator::EvalTry(const Node& n, const AType& in, int depth) {
  ++suppress_;
  Result body = Eval(n.kid(0), in, depth);
  --suppress_;
  if (const Node* handler = n.kid(1)) {
    Result h = Eval(handler, AType::Of(kStr | kObj), depth);
    body.type = Join(body.type, h.type);
  }
  body.card.min = 0;
  return body;
}

// Reduce: source, pattern, init, update; Foreach: source, pattern, init, update, extract|null.
Result AbstractEvaluator::EvalFold(const Node& n, const AType& in, int depth) {
  const bool is_reduce = n.kind == NodeKind::Reduce;
  Result source = Eval(n.kid(0), in, depth);
  size_t mark = variables_.size();
  BindPattern(&n, n.kid(1), source.type, depth);
  Result init = Eval(n.kid(2), in, depth);
  Result update = Eval(n.kid(3), init.type, depth);
  if (!is_reduce && n.kid(4)) Eval(n.kid(4), update.type, depth);
  variables_.resize(mark);
  Result r;
  r.type = is_reduce ? Join(init.type, update.type) : AType::Any();
  r.card = is_reduce ? init.card : Card{0, kUnknownMax};
  r.origin_known = is_reduce;
  return r;
}

// kids: source, pattern, [alternative patterns...], body
Result AbstractEvaluator::EvalBind(const Node& n, const AType& in, int depth) {
  Result source = Eval(n.kid(0), in, depth);
  size_t mark = variables_.size();
  for (size_t i = 1; i + 1 < n.kids.size(); ++i) BindPattern(&n, n.kid(i), source.type, depth);
  Result body = Eval(n.kids.empty() ? nullptr : n.kids.back().get(), in, depth);
  variables_.resize(mark);
  Result r = body;
  r.card = Seq(source.card, body.card);
  if (body.card.max < kMany) {
    r.origin = source.origin;
    r.origin_known = source.origin_known && body.origin_known;
  }
  return r;
}

// ---- arithmetic and comparison

namespace {

// jq's arithmetic: which operand type pairs succeed (null is the identity of +).
bool ArithOk(char op, uint8_t a, uint8_t b) {
  auto num = [](uint8_t k) { return (k & kNumeric) != 0; };
  switch (op) {
    case '+':
      return a == kNull || b == kNull || (num(a) && num(b)) || (a == b && (a & (kStr | kArr | kObj)));
    case '-': return (num(a) && num(b)) || (a == kArr && b == kArr);
    case '*':
      return (num(a) && num(b)) || (a == kStr && num(b)) || (num(a) && b == kStr) ||
             (a == kObj && b == kObj);
    case '/': return (num(a) && num(b)) || (a == kStr && b == kStr);
    case '%': return num(a) && num(b);
  }
  return true;
}

// The kind of `x op y` for one accepted pair of operand kinds.
uint8_t ArithResult(char op, uint8_t x, uint8_t y) {
  if (op == '+' && x == kNull) return y;
  if (op == '+' && y == kNull) return x;
  if (op == '/' && x == kStr) return kArr;
  if (op == '*' && (x == kStr || y == kStr)) return kStr | kNull;
  if ((x & kNumeric) && (y & kNumeric)) return kNumeric;
  return x;
}

}  // namespace

AType AbstractEvaluator::Arith(const Node& n, const AType& a, const AType& b) {
  char op = n.text.empty() ? '+' : n.text[0];
  if (a.any || b.any) {
    if (op == '-' || op == '%') return AType::Of(kNumeric | kArr);
    return AType::Any();
  }
  uint8_t result = 0;
  bool any_ok = false;
  for (uint8_t x = 1; x; x <<= 1) {
    if (!(a.kinds & x)) continue;
    for (uint8_t y = 1; y; y <<= 1) {
      if (!(b.kinds & y) || !ArithOk(op, x, y)) continue;
      any_ok = true;
      result |= ArithResult(op, x, y);
    }
  }
  if (!any_ok) {
    Report(Severity::Error, kBadArithmetic, n,
           Describe(a) + " and " + Describe(b) + " cannot be combined with '" + n.text + "'",
           {"left operand: " + (a.schema ? Where(a) : Describe(a)) +
                "; right operand: " + (b.schema ? Where(b) : Describe(b))});
    return AType::Any();
  }
  return AType::Of(result);
}

// `==` / `!=` against a literal outside the value's enum, or across disjoint types, has a
// fixed answer: almost always a typo ("Runing") or a type confusion (`.replicas == "1"`).
void AbstractEvaluator::Compare(const Node& n, const AType& a, const AType& b) {
  if (n.text != "==" && n.text != "!=") return;
  CompareWithLiteral(n, a, b);
  CompareWithLiteral(n, b, a);
}

void AbstractEvaluator::CompareWithLiteral(const Node& n, const AType& x, const AType& lit) {
  if (x.any || lit.any || lit.enums.size() != 1) return;
  const std::string answer = n.text == "==" ? "false" : "true";
  const std::string& v = lit.enums[0];
  if (!x.enums.empty() && std::find(x.enums.begin(), x.enums.end(), v) == x.enums.end()) {
    std::string values;
    for (size_t i = 0; i < x.enums.size(); ++i) values += (i ? ", " : "") + x.enums[i];
    Report(Severity::Warning, kAlwaysFalse, n,
           "comparison is always " + answer + ": " + v + " is not one of the values of " + Where(x),
           {"allowed values: " + values});
    return;
  }
  uint8_t xk = x.kinds & ~kNull;
  uint8_t lk = lit.kinds;
  if (lk & kNumeric) lk |= kNumeric;
  if (xk && lk && !(xk & lk) && !(lit.kinds & kNull)) {
    Report(Severity::Warning, kAlwaysFalse, n,
           "comparison is always " + answer + ": " + Where(x) + " is " + Describe(x) + ", never " +
               Describe(lit),
           {});
  }
}

}  // namespace wm::check::internal

namespace wm::check::internal {

// ---- type tests (`type == "object"`, `. != null`)

namespace {

uint8_t KindsOfTypeName(const std::string& name) {
  if (name == "null") return kNull;
  if (name == "boolean") return kBool;
  if (name == "number") return kNumeric;
  if (name == "string") return kStr;
  if (name == "array") return kArr;
  if (name == "object") return kObj;
  return 0;
}

constexpr uint8_t kNoTypeTest = 0xFF;
constexpr uint8_t kAllKinds = kNull | kBool | kNumeric | kStr | kArr | kObj;

}  // namespace

uint8_t AbstractEvaluator::KindsPassing(const Node* c) const {
  while (c && c->kind == NodeKind::Paren) c = c->kid(0);
  if (!c) return kNoTypeTest;
  if (c->kind == NodeKind::And || c->kind == NodeKind::Or) {
    uint8_t a = KindsPassing(c->kid(0)), b = KindsPassing(c->kid(1));
    if (c->kind == NodeKind::And) return a == kNoTypeTest ? b : b == kNoTypeTest ? a : (a & b);
    return a == kNoTypeTest || b == kNoTypeTest ? kNoTypeTest : (a | b);
  }
  if (c->kind != NodeKind::Compare || (c->text != "==" && c->text != "!=")) return kNoTypeTest;
  // `. != null` / `. == null`
  auto is_dot = [](const Node* x) { return x && x->kind == NodeKind::Identity; };
  auto is_null = [](const Node* x) { return x && x->kind == NodeKind::Null; };
  if ((is_dot(c->kid(0)) && is_null(c->kid(1))) || (is_null(c->kid(0)) && is_dot(c->kid(1)))) {
    return c->text == "==" ? kNull : uint8_t(kAllKinds & ~kNull);
  }
  auto is_type_call = [&](const Node* x) {
    if (!x || x->kind != NodeKind::Call || x->text != "type" || !x->kids.empty()) return false;
    const jq::Binding* b = resolution_.Find(*x);
    return b == nullptr || b->kind == jq::BindingKind::kBuiltin;
  };
  auto literal = [](const Node* x) -> const Node* {
    return x && x->kind == NodeKind::String && x->kids.empty() && x->format.empty() ? x : nullptr;
  };
  const Node* name = is_type_call(c->kid(0)) ? literal(c->kid(1))
                     : is_type_call(c->kid(1)) ? literal(c->kid(0))
                                               : nullptr;
  if (!name || !KindsOfTypeName(name->text)) return kNoTypeTest;
  uint8_t kinds = KindsOfTypeName(name->text);
  return c->text == "==" ? kinds : uint8_t(kAllKinds & ~kinds);
}

AType AbstractEvaluator::Narrowed(const AType& in, const Node* condition) const {
  uint8_t kinds = KindsPassing(condition);
  if (kinds == kNoTypeTest) return in;
  AType t = in;
  t.kinds = in.any ? kinds : (in.kinds & kinds);
  t.any = false;
  if (!(kinds & kNull)) t.optional_at.clear();  // what passes is never null
  return t;
}

// `n` where `condition` held: on the input narrowed by the condition's type test. A branch that
// no value of the input can reach (`if type == "array"` on a string field) is not checked.
Result AbstractEvaluator::EvalNarrowed(const Node* n, const AType& in, const Node* condition,
                                       int depth) {
  AType narrowed = Narrowed(in, condition);
  if (narrowed.any || narrowed.kinds != 0) return Eval(n, narrowed, depth);
  ++suppress_;
  Result r = Eval(n, AType::Any(), depth);
  --suppress_;
  return r;
}

}  // namespace wm::check::internal
