// The type checker's lattice (internal/types.h): joins, cardinality arithmetic, the abstract
// value of a schema node, and the names types and cardinalities have in messages and dumps.
#include "compiler/check/internal/types.h"

#include <algorithm>
#include <utility>

namespace wm::check::internal {

namespace {

// `[]` and `{}` written as defaults (`.items // []`): they add their kind, not a structure, so
// joining them keeps the other side's schema (its elements and fields stay checked).
bool IsEmptyLiteral(const AType& t) {
  if (t.any || t.schema || t.elem) return false;
  if (t.kinds == kArr) return true;
  return t.kinds == kObj && t.fields && t.fields->empty();
}

}  // namespace

AType Join(const AType& a, const AType& b) {
  if (IsEmptyLiteral(b) && !a.any && a.schema) {
    AType t = a;
    t.kinds |= b.kinds;
    return t;
  }
  if (IsEmptyLiteral(a) && !b.any && b.schema) return Join(b, a);
  if (a.any || b.any) {
    AType t = AType::Any();
    if (a.schema == b.schema) {
      t.schema = a.schema;
      t.path = a.path;
    }
    return t;
  }
  AType t = AType::Of(a.kinds | b.kinds);
  if (a.schema && a.schema == b.schema) {
    t.schema = a.schema;
    t.path = a.path;
  }
  if (!a.enums.empty() && !b.enums.empty()) {
    t.enums = a.enums;
    for (const auto& e : b.enums) {
      if (std::find(t.enums.begin(), t.enums.end(), e) == t.enums.end()) t.enums.push_back(e);
    }
  }
  if (a.elem && b.elem) t.elem = std::make_shared<AType>(Join(*a.elem, *b.elem));
  t.optional_at = !a.optional_at.empty() ? a.optional_at : b.optional_at;
  return t;
}

std::string Describe(const AType& t, int depth) {
  if (t.any) return "unknown";
  uint8_t k = t.kinds;
  if (k & kInt && k & kNum) k &= ~kInt;
  std::string s = schema::TypeNames(k);
  if (t.kinds == kArr) {
    if (t.schema && t.schema->items) return "array";  // element described by the schema
    if (t.elem && depth < 3) return "array of " + Describe(*t.elem, depth + 1);
  }
  return s;
}

std::string PathOf(const AType& t) { return t.path.empty() ? "." : t.path; }

AType FromSchema(const schema::SchemaRegistry& schemas, const Schema* node, std::string path,
                 std::string optional_at) {
  node = schemas.Deref(node);
  AType t;
  t.schema = node;
  t.path = std::move(path);
  t.optional_at = std::move(optional_at);
  if (!node) return t;
  t.default_json = node->default_json;
  uint8_t k = node->types;
  if (node->int_or_string) k |= kInt | kStr;
  if (k & kNum) k |= kInt;
  if (k != 0) {
    t.any = false;
    t.kinds = k | (node->nullable ? kNull : 0);
  }
  t.enums = node->enum_values;
  return t;
}

AType Literal(uint8_t kind, std::string json) {
  AType t = AType::Of(kind);
  t.enums.push_back(std::move(json));
  return t;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

Card Seq(Card a, Card b) {
  Card c;
  c.min = a.min && b.min;
  if (a.max == 0 || b.max == 0) c.max = 0;
  else if (a.max == kUnknownMax || b.max == kUnknownMax) c.max = kUnknownMax;
  else c.max = std::max(a.max, b.max);
  return c;
}

Card Both(Card a, Card b) {
  Card c;
  c.min = a.min || b.min;
  if (a.max == kUnknownMax || b.max == kUnknownMax) c.max = kUnknownMax;
  else c.max = std::min<int>(a.max + b.max, kMany);
  return c;
}

Card Either(Card a, Card b) {
  Card c;
  c.min = a.min && b.min;
  c.max = (a.max == kUnknownMax || b.max == kUnknownMax) ? kUnknownMax : std::max(a.max, b.max);
  return c;
}

std::string DescribeCard(Card c) {
  if (c.max == kUnknownMax) return "unknown";
  if (c.max == 0) return "none";
  if (c.max == kMany) return "many";
  return c.min ? "one" : "optional";
}

namespace {

bool Covers(const std::vector<std::string>& selected, const std::vector<std::string>& keys) {
  if (selected.empty() || keys.empty()) return false;
  for (const std::string& k : keys) {
    if (std::find(selected.begin(), selected.end(), k) == selected.end()) return false;
  }
  return true;
}

// The part of a Result that ListMapIteration remembers, as a Result.
Result OuterOf(const ListMapIteration& lm) {
  Result r;
  r.card = lm.outer_card;
  r.origin = lm.outer_origin;
  r.origin_known = lm.outer_origin_known;
  r.filtered = lm.outer_filtered;
  return r;
}

}  // namespace

Result Compose(const Result& a, const Result& b) {
  Result r;
  r.type = b.type;
  r.card = Seq(a.card, b.card);
  r.defaulted = b.defaulted;
  if (b.card.max >= kMany) {
    r.origin = b.origin;
    r.origin_known = b.origin_known;
    r.filtered = b.filtered;
  } else {
    r.origin = a.origin;
    r.origin_known = a.origin_known && b.origin_known;
    // b may drop some of a's several outputs (select, `?`, empty branches).
    r.filtered = a.filtered || (a.card.max >= kMany && b.card.min == 0);
  }
  if (b.card.max <= 1 && a.list_map && Covers(b.selected_keys, a.list_map->keys)) {
    // `.containers[] | select(.name == "main")`: at most one element per parent list.
    Result outer = OuterOf(*a.list_map);
    r.card = Seq(outer.card, Card{0, 1});
    r.origin = outer.origin;
    r.origin_known = outer.origin_known;
    r.filtered = outer.filtered;
  } else if (b.list_map) {
    // b's list-map iteration multiplies what a yields times b's own outer part.
    Result outer = Compose(a, OuterOf(*b.list_map));
    auto lm = std::make_shared<ListMapIteration>(*b.list_map);
    lm->outer_card = outer.card;
    lm->outer_origin = outer.origin;
    lm->outer_origin_known = outer.origin_known;
    lm->outer_filtered = outer.filtered;
    r.list_map = std::move(lm);
  } else if (b.card.max <= 1) {
    r.list_map = a.list_map;
  }
  if (b.card.max <= 1) r.selected_keys = a.selected_keys;  // `select(.name == "x") | .image`
  return r;
}

Result One(AType t) {
  Result r;
  r.type = std::move(t);
  return r;
}

Result Unknown() {
  Result r = One(AType::Any());
  r.card = {0, kUnknownMax};
  r.origin_known = false;
  return r;
}

}  // namespace wm::check::internal
