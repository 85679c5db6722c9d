// The type checker (typecheck.h). An abstract interpreter walks each jq AST with an abstract
// input value (a set of JSON types, the schema node it came from, its schema path) and computes
// the abstract output and how many outputs there are; operations that can only fail on every
// concrete value of their input are reported. Role and cardinality rules then compare each
// field's result with what its role needs. Errors inside `?`, `try` and the left side of `//`
// are not reported (jq swallows them), except unknown fields, which are schema mistakes.
#include "compiler/check/typecheck.h"

#include "base/did_you_mean.h"
#include "compiler/schema/import.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace wm::check {
namespace {

using schema::Schema;
using jq::Node;
using jq::NodeKind;

constexpr uint8_t kNull = schema::kNullBit, kBool = schema::kBooleanBit,
                  kInt = schema::kIntegerBit, kNum = schema::kNumberBit,
                  kStr = schema::kStringBit, kArr = schema::kArrayBit,
                  kObj = schema::kObjectBit;
constexpr uint8_t kNumeric = kInt | kNum;

// ---- the abstract value

struct AType {
  bool any = true;                  // nothing known
  uint8_t kinds = 0;                // possible JSON types when !any
  const Schema* schema = nullptr;   // the (dereferenced) schema node describing the value
  std::string path;                 // its schema path (".spec.replicatedJobs[]"), with schema
  std::vector<std::string> enums;   // known possible values (JSON text), when finite
  std::shared_ptr<AType> elem;      // element type of arrays built by [...], keys, to_entries
  // For keys / to_entries of a schema object: the path of that object, so iterating the result
  // counts as iterating the object itself (`to_entries[]` and `.[]` name the same instances).
  std::optional<std::string> elem_source;
  std::shared_ptr<std::map<std::string, AType>> fields;  // fields of objects built by {...}
  std::string optional_at;          // schema path of the first non-required field passed
  std::string default_json;         // the schema default of the value, if any

  static AType Any() { return AType{}; }
  static AType Of(uint8_t k) {
    AType t;
    t.any = false;
    t.kinds = k;
    return t;
  }
  bool Only(uint8_t mask) const { return !any && kinds != 0 && (kinds & ~mask) == 0; }
  bool May(uint8_t mask) const { return any || (kinds & mask) != 0; }
};

// Union of two abstract values: keeps structure only when both agree on it.
AType Join(const AType& a, const AType& b) {
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

std::string Describe(const AType& t, int depth = 0) {
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

// How many outputs: min 0/1; max 0, 1, kMany, or kUnknownMax (cannot tell).
constexpr uint8_t kMany = 2, kUnknownMax = 3;
struct Card {
  uint8_t min = 1, max = 1;
};
Card Seq(Card a, Card b) {  // a | b
  Card c;
  c.min = a.min && b.min;
  if (a.max == 0 || b.max == 0) c.max = 0;
  else if (a.max == kUnknownMax || b.max == kUnknownMax) c.max = kUnknownMax;
  else c.max = std::max(a.max, b.max);
  return c;
}
Card Both(Card a, Card b) {  // a , b
  Card c;
  c.min = a.min || b.min;
  if (a.max == kUnknownMax || b.max == kUnknownMax) c.max = kUnknownMax;
  else c.max = std::min<int>(a.max + b.max, kMany);
  return c;
}
Card Either(Card a, Card b) {  // if/else branches
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

struct Result {
  AType type;
  Card card;
  std::string origin;          // schema path of the last iterated collection
  bool origin_known = true;    // false: outputs multiply for a reason we cannot name
  bool defaulted = false;      // ends in `// default`
};

// ---- did-you-mean

// Schema field names and enum values: a difference in case alone is the likeliest typo.
size_t EditDistance(std::string_view a, std::string_view b) {
  return base::EditDistance(a, b, {.ignore_ascii_case = true});
}

std::string Suggest(std::string_view name, const Schema& s) {
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& p : s.properties) {
    size_t d = EditDistance(name, p.first);
    if (d < best_d) {
      best_d = d;
      best = p.first;
    }
  }
  return best;
}

// ---- the interpreter

struct Var {
  std::string name;
  AType type;
};

class Interpreter {
 public:
  Interpreter(const schema::SchemaRegistry& schemas, const SourceMap& map, std::string owner,
              int max_depth, std::vector<Diagnostic>* out)
      : schemas_(schemas), map_(map), owner_(std::move(owner)), max_depth_(max_depth),
        out_(out) {}

  AType FromSchema(const Schema* node, std::string path, std::string optional_at) const {
    node = schemas_.Deref(node);
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

  Result Eval(const Node* n, const AType& in, int depth);
  const std::vector<Diagnostic>& diagnostics() const { return *out_; }

 private:
  void Report(Severity sev, const char* rule, const Node& at, std::string message,
              std::vector<std::string> notes = {}, bool always = false) {
    if (suppress_ > 0 && !always) return;
    // The same node can be walked more than once (both branches of a join): report once.
    // Point at the operator / name token when the parser recorded one, else the construct.
    jq::Range r = at.token.end > at.token.begin ? at.token : at.range;
    if (!reported_.insert({r.begin, r.end, rule}).second) return;
    Diagnostic d;
    d.severity = sev;
    d.rule = rule;
    d.location = map_.Map(r.begin);
    Location end = map_.Map(r.end > r.begin ? r.end - 1 : r.begin);
    d.length = (end.line == d.location.line && end.column >= d.location.column)
                   ? end.column - d.location.column + 1
                   : 1;
    d.message = std::move(message);
    d.notes = std::move(notes);
    out_->push_back(std::move(d));
  }

  std::string Where(const AType& t) const {
    return owner_ + " at " + (t.path.empty() ? std::string(".") : t.path);
  }

  AType FieldOf(const AType& t, const std::string& name, const Node& at);
  Result IterateOf(const Result& r, const Node& at);
  Result CallBuiltin(const Node& n, const AType& in, int depth);
  AType Arith(const Node& n, const AType& a, const AType& b);
  void Compare(const Node& n, const AType& a, const AType& b);
  const AType* Lookup(const std::string& name) const {
    for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
      if (it->name == name) return &it->type;
    }
    return nullptr;
  }
  void BindPattern(const Node* pattern, const AType& value, int depth);

  const schema::SchemaRegistry& schemas_;
  const SourceMap& map_;
  std::string owner_;
  int max_depth_;
  std::vector<Diagnostic>* out_;
  int suppress_ = 0;
  std::vector<Var> vars_;
  std::set<std::tuple<uint32_t, uint32_t, std::string>> reported_;
};

AType Interpreter::FieldOf(const AType& t, const std::string& name, const Node& at) {
  std::string path = t.path + "." + name;
  if (t.fields) {
    auto it = t.fields->find(name);
    return it != t.fields->end() ? it->second : AType::Of(kNull);
  }
  if (!t.any && !t.May(kObj | kNull)) {
    Report(Severity::Error, kCannotIndex, at,
           "cannot index " + Describe(t) + " with \"" + name + "\"",
           {"the value at " + Where(t) + " is " + Describe(t)});
    return AType::Any();
  }
  if (t.Only(kNull)) return AType::Of(kNull);
  const Schema* s = t.schema;
  if (!s || (!t.any && !(t.kinds & kObj))) return AType::Any();
  std::string optional = t.optional_at;
  // The root's own fields (metadata, spec, status) are not counted as optional: every stored
  // object has metadata and spec, and status paths are expected to see null before reconciling.
  bool counts = !t.path.empty();
  if (const schema::SchemaPtr* p = s->Property(name)) {
    if (optional.empty() && counts && !s->IsRequired(name)) optional = path;
    return FromSchema(p->get(), path, optional);
  }
  if (s->additional_properties) {
    if (optional.empty() && counts) optional = path;
    return FromSchema(s->additional_properties.get(), t.path + "." + name, optional);
  }
  if (s->AllowsUnknownKeys()) return AType::Any();
  std::string message = "field '" + name + "' not found in " + Where(t);
  std::string hint = Suggest(name, *s);
  std::vector<std::string> notes;
  if (!hint.empty()) message += "; did you mean '" + hint + "'?";
  std::string known;
  for (size_t i = 0; i < s->properties.size() && i < 12; ++i) {
    known += (i ? ", " : "") + s->properties[i].first;
  }
  if (s->properties.size() > 12) known += ", ...";
  notes.push_back("schema path " + (t.path.empty() ? std::string(".") : t.path) + " of " +
                  owner_ + " has fields: " + known);
  Report(Severity::Error, kUnknownField, at, message, notes, /*always=*/true);
  // At run time the field is null, but the mistake is reported once: what follows it is unknown,
  // so `[]` or `.x` after a misspelt field does not add a second, derived finding.
  return AType::Any();
}

Result Interpreter::IterateOf(const Result& r, const Node& at) {
  const AType& t = r.type;
  Result out;
  out.card = Seq(r.card, Card{0, kMany});
  out.origin = r.origin;
  out.origin_known = r.origin_known;
  if (!t.any && !t.May(kArr | kObj)) {
    Report(Severity::Error, kCannotIterate, at, "cannot iterate over " + Describe(t),
           {"the value at " + Where(t) + " is " + Describe(t)});
    out.type = AType::Any();
    return out;
  }
  std::string path = t.path + "[]";
  out.origin = path;
  // Only iterations of schema paths name a collection; a computed array does not.
  out.origin_known = t.schema != nullptr;
  if (t.elem) {
    out.type = *t.elem;
    out.origin_known = t.elem_source.has_value();
    if (t.elem_source) out.origin = *t.elem_source + "[]";
    return out;
  }
  const Schema* s = t.schema;
  // An absent list makes `[]` fail rather than yield null, so optionality before an iteration
  // does not reach the results: only fields after the last `[]` can make them null.
  if (s && s->items && (t.any || t.kinds & kArr)) {
    out.type = FromSchema(s->items.get(), path, "");
  } else if (s && s->additional_properties && (t.any || t.kinds & kObj)) {
    out.type = FromSchema(s->additional_properties.get(), path, "");
  } else {
    out.type = AType::Any();
  }
  return out;
}

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

AType Interpreter::Arith(const Node& n, const AType& a, const AType& b) {
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
      if (!(b.kinds & y)) continue;
      if (!ArithOk(op, x, y)) continue;
      any_ok = true;
      if (op == '+' && x == kNull) result |= y;
      else if (op == '+' && y == kNull) result |= x;
      else if (op == '/' && x == kStr) result |= kArr;
      else if (op == '*' && (x == kStr || y == kStr)) result |= kStr | kNull;
      else if ((x & kNumeric) && (y & kNumeric)) result |= kNumeric;
      else result |= x;
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
void Interpreter::Compare(const Node& n, const AType& a, const AType& b) {
  if (n.text != "==" && n.text != "!=") return;
  auto check = [&](const AType& x, const AType& lit) {
    if (x.any || lit.any || lit.enums.size() != 1) return;
    const std::string& v = lit.enums[0];
    if (!x.enums.empty() && std::find(x.enums.begin(), x.enums.end(), v) == x.enums.end()) {
      std::string values;
      for (size_t i = 0; i < x.enums.size(); ++i) values += (i ? ", " : "") + x.enums[i];
      Report(Severity::Warning, kAlwaysFalse, n,
             "comparison is always " + std::string(n.text == "==" ? "false" : "true") + ": " +
                 v + " is not one of the values of " + Where(x),
             {"allowed values: " + values});
      return;
    }
    uint8_t xk = x.kinds & ~kNull;
    uint8_t lk = lit.kinds;
    if (lk & kNumeric) lk |= kNumeric;
    if (xk && lk && !(xk & lk) && !(lit.kinds & kNull)) {
      Report(Severity::Warning, kAlwaysFalse, n,
             "comparison is always " + std::string(n.text == "==" ? "false" : "true") + ": " +
                 Where(x) + " is " + Describe(x) + ", never " + Describe(lit),
             {});
    }
  };
  check(a, b);
  check(b, a);
}

void Interpreter::BindPattern(const Node* p, const AType& value, int depth) {
  if (!p || depth > max_depth_) return;
  switch (p->kind) {
    case NodeKind::PatternVar:
    case NodeKind::Variable: vars_.push_back({p->text, value}); return;
    case NodeKind::PatternArray:
      for (const auto& k : p->kids) BindPattern(k.get(), AType::Any(), depth + 1);
      return;
    case NodeKind::PatternObject:
      for (const auto& entry : p->kids) {
        if (!entry) continue;
        const Node* key = entry->kid(0);
        if (key && key->kind == NodeKind::Variable) vars_.push_back({key->text, AType::Any()});
        BindPattern(entry->kid(1), AType::Any(), depth + 1);
      }
      return;
    default: return;
  }
}

// Literal helpers.
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

Result One(AType t) {
  Result r;
  r.type = std::move(t);
  return r;
}

Result Interpreter::Eval(const Node* n, const AType& in, int depth) {
  if (!n) return One(in);
  if (depth > max_depth_) {
    Result r;
    r.card.max = kUnknownMax;
    r.origin_known = false;
    return r;
  }
  auto eval = [&](const Node* k, const AType& input) { return Eval(k, input, depth + 1); };
  switch (n->kind) {
    case NodeKind::Identity: return One(in);
    case NodeKind::RecurseDefault: {
      Result r;
      r.card = {1, kMany};
      r.origin_known = false;
      return r;
    }
    case NodeKind::Field: {
      Result target = eval(n->kid(0), in);
      AType t = FieldOf(target.type, n->text, *n);
      target.type = std::move(t);
      target.defaulted = false;
      return target;
    }
    case NodeKind::Index: {
      Result target = eval(n->kid(0), in);
      const Node* key = n->kid(1);
      Result k = eval(key, in);
      target.card = Seq(target.card, k.card);
      target.defaulted = false;
      const AType& t = target.type;
      if (key && key->kind == NodeKind::String && key->kids.size() <= 1 &&
          (key->kids.empty() || key->kids[0]->kind == NodeKind::String)) {
        target.type = FieldOf(t, key->text, *n);
        return target;
      }
      if (!k.type.any && k.type.Only(kNumeric)) {
        if (!t.any && !t.May(kArr | kNull)) {
          Report(Severity::Error, kCannotIndex, *n, "cannot index " + Describe(t) + " with a number",
                 {"the value at " + Where(t) + " is " + Describe(t)});
          target.type = AType::Any();
          return target;
        }
        AType elem = AType::Any();
        if (t.elem) elem = *t.elem;
        else if (t.schema && t.schema->items) {
          elem = FromSchema(t.schema->items.get(), t.path + "[]", t.optional_at.empty() ? t.path + "[]" : t.optional_at);
        }
        if (!elem.any) elem.kinds |= kNull;  // out of range yields null
        target.type = elem;
        return target;
      }
      target.type = AType::Any();
      return target;
    }
    case NodeKind::Slice: {
      Result target = eval(n->kid(0), in);
      eval(n->kid(1), in);
      eval(n->kid(2), in);
      const AType& t = target.type;
      if (!t.any && !t.May(kArr | kStr | kNull)) {
        Report(Severity::Error, kCannotIndex, *n, "cannot slice " + Describe(t),
               {"the value at " + Where(t) + " is " + Describe(t)});
        target.type = AType::Any();
      }
      target.defaulted = false;
      return target;
    }
    case NodeKind::Iterate: {
      Result target = eval(n->kid(0), in);
      return IterateOf(target, *n);
    }
    case NodeKind::Optional: {
      ++suppress_;
      Result r = eval(n->kid(0), in);
      --suppress_;
      r.card.min = 0;
      return r;
    }
    case NodeKind::Number: {
      char buf[64];
      double v = n->number;
      if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
      } else {
        std::snprintf(buf, sizeof buf, "%.17g", v);
      }
      return One(Literal(std::floor(v) == v ? kInt : kNum, buf));
    }
    case NodeKind::String: {
      bool plain = true;
      for (const auto& part : n->kids) {
        if (part && part->kind != NodeKind::String) {
          // An interpolation: any type converts with tostring, but errors inside still count.
          plain = false;
          eval(part.get(), in);
        }
      }
      if (plain && n->format.empty()) return One(Literal(kStr, JsonString(n->text)));
      return One(AType::Of(kStr));
    }
    case NodeKind::Format: return One(AType::Of(kStr));
    case NodeKind::Null: return One(Literal(kNull, "null"));
    case NodeKind::True: return One(Literal(kBool, "true"));
    case NodeKind::False: return One(Literal(kBool, "false"));
    case NodeKind::Array: {
      AType t = AType::Of(kArr);
      if (const Node* e = n->kid(0)) {
        Result r = eval(e, in);
        t.elem = std::make_shared<AType>(r.type);
      }
      return One(t);
    }
    case NodeKind::Object: {
      AType t = AType::Of(kObj);
      auto fields = std::make_shared<std::map<std::string, AType>>();
      bool known = true;
      Card card;
      for (const auto& entry : n->kids) {
        if (!entry) continue;
        const Node* key = entry->kid(0);
        const Node* value = entry->kid(1);
        std::string name;
        if (key && key->kind == NodeKind::String && key->kids.size() <= 1 && key->format.empty()) {
          name = key->text;
        } else if (key && key->kind == NodeKind::Variable) {
          name = key->text;
        } else {
          known = false;
          if (key) card = Seq(card, eval(key, in).card);
        }
        AType vt;
        if (value) {
          Result r = eval(value, in);
          card = Seq(card, r.card);
          vt = r.type;
        } else if (key && key->kind == NodeKind::Variable) {
          if (const AType* v = Lookup(key->text)) vt = *v;
        } else if (!name.empty()) {
          vt = FieldOf(in, name, *entry);
        }
        if (!name.empty()) (*fields)[name] = vt;
      }
      if (known) t.fields = fields;
      Result r = One(t);
      r.card = card;
      r.origin_known = card.max <= 1;
      return r;
    }
    case NodeKind::Paren: return eval(n->kid(0), in);
    case NodeKind::Variable: {
      if (const AType* v = Lookup(n->text)) return One(*v);
      return One(AType::Any());
    }
    case NodeKind::Call: return CallBuiltin(*n, in, depth);
    case NodeKind::Pipe: {
      Result a = eval(n->kid(0), in);
      Result b = eval(n->kid(1), a.type);
      Result r;
      r.type = b.type;
      r.card = Seq(a.card, b.card);
      r.defaulted = b.defaulted;
      if (b.card.max >= kMany) {
        r.origin = b.origin;
        r.origin_known = b.origin_known;
      } else {
        r.origin = a.origin;
        r.origin_known = a.origin_known && b.origin_known;
      }
      return r;
    }
    case NodeKind::Comma: {
      Result a = eval(n->kid(0), in);
      Result b = eval(n->kid(1), in);
      Result r;
      r.type = Join(a.type, b.type);
      r.card = Both(a.card, b.card);
      r.origin_known = false;  // outputs come from two expressions, not one collection
      return r;
    }
    case NodeKind::Alternative: {
      ++suppress_;
      Result a = eval(n->kid(0), in);
      --suppress_;
      Result b = eval(n->kid(1), in);
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
      r.defaulted = true;
      return r;
    }
    case NodeKind::Assign: {
      Result target = eval(n->kid(0), in);
      eval(n->kid(1), n->text == "=" ? in : target.type);
      return One(in);
    }
    case NodeKind::Or:
    case NodeKind::And: {
      Result a = eval(n->kid(0), in);
      Result b = eval(n->kid(1), in);
      Result r = One(AType::Of(kBool));
      r.card = Seq(a.card, b.card);
      return r;
    }
    case NodeKind::Compare: {
      Result a = eval(n->kid(0), in);
      Result b = eval(n->kid(1), in);
      Compare(*n, a.type, b.type);
      Result r = One(AType::Of(kBool));
      r.card = Seq(a.card, b.card);
      return r;
    }
    case NodeKind::Arith: {
      Result a = eval(n->kid(0), in);
      Result b = eval(n->kid(1), in);
      Result r = One(Arith(*n, a.type, b.type));
      r.card = Seq(b.card, a.card);
      // jq evaluates the right operand in the outer loop; both iterate the same input here.
      if (a.card.max >= kMany && b.card.max >= kMany) r.origin_known = false;
      else {
        const Result& many = a.card.max >= kMany ? a : b;
        r.origin = many.origin;
        r.origin_known = a.origin_known && b.origin_known;
      }
      return r;
    }
    case NodeKind::Neg: {
      Result a = eval(n->kid(0), in);
      if (!a.type.any && !a.type.May(kNumeric)) {
        Report(Severity::Error, kBadArithmetic, *n, Describe(a.type) + " cannot be negated",
               {"the value at " + Where(a.type) + " is " + Describe(a.type)});
      }
      a.type = AType::Of(kNumeric);
      return a;
    }
    case NodeKind::If: {
      Result out;
      bool first = true;
      size_t i = 0;
      Card card;
      for (; i + 1 < n->kids.size(); i += 2) {
        Result cond = eval(n->kid(i), in);
        Result branch = eval(n->kid(i + 1), in);
        Card c = Seq(cond.card, branch.card);
        out.type = first ? branch.type : Join(out.type, branch.type);
        card = first ? c : Either(card, c);
        out.origin_known = out.origin_known && branch.origin_known;
        if (branch.card.max >= kMany) out.origin = branch.origin;
        first = false;
      }
      Result otherwise = i < n->kids.size() && n->kid(i) ? eval(n->kid(i), in) : One(in);
      out.type = first ? otherwise.type : Join(out.type, otherwise.type);
      out.card = first ? otherwise.card : Either(card, otherwise.card);
      return out;
    }
    case NodeKind::TryCatch: {
      ++suppress_;
      Result body = eval(n->kid(0), in);
      --suppress_;
      if (const Node* handler = n->kid(1)) {
        Result h = eval(handler, AType::Of(kStr | kObj));
        body.type = Join(body.type, h.type);
      }
      body.card.min = 0;
      return body;
    }
    case NodeKind::Reduce:
    case NodeKind::Foreach: {
      Result source = eval(n->kid(0), in);
      size_t mark = vars_.size();
      BindPattern(n->kid(1), source.type, depth + 1);
      Result init = eval(n->kid(2), in);
      Result update = eval(n->kid(3), init.type);
      if (n->kind == NodeKind::Foreach && n->kid(4)) eval(n->kid(4), update.type);
      vars_.resize(mark);
      Result r;
      r.type = n->kind == NodeKind::Reduce ? Join(init.type, update.type) : AType::Any();
      r.card = n->kind == NodeKind::Reduce ? init.card : Card{0, kUnknownMax};
      r.origin_known = n->kind == NodeKind::Reduce;
      return r;
    }
    case NodeKind::Bind: {
      Result source = eval(n->kid(0), in);
      size_t mark = vars_.size();
      for (size_t i = 1; i + 1 < n->kids.size(); ++i) BindPattern(n->kid(i), source.type, depth + 1);
      Result body = eval(n->kids.empty() ? nullptr : n->kids.back().get(), in);
      vars_.resize(mark);
      Result r = body;
      r.card = Seq(source.card, body.card);
      if (body.card.max < kMany) {
        r.origin = source.origin;
        r.origin_known = source.origin_known && body.origin_known;
      }
      return r;
    }
    case NodeKind::Label: {
      Result r = eval(n->kid(0), in);
      r.card.min = 0;
      return r;
    }
    case NodeKind::Break: {
      Result r = One(AType::Any());
      r.card = {0, 0};
      return r;
    }
    case NodeKind::FuncDef: {
      // User functions are not analysed (their bodies depend on the call site); the rest is.
      Result r = eval(n->kid(1), in);
      return r;
    }
    case NodeKind::Program: return eval(n->kids.empty() ? nullptr : n->kids.back().get(), in);
    default: {
      Result r;
      r.card.max = kUnknownMax;
      r.origin_known = false;
      return r;
    }
  }
}

// Builtins whose input or output types are known. Anything else (user functions, rare
// builtins) yields an unknown value with an unknown number of outputs.
Result Interpreter::CallBuiltin(const Node& n, const AType& in, int depth) {
  const std::string& name = n.text;
  size_t arity = n.kids.size();
  auto arg = [&](size_t i, const AType& input) { return Eval(n.kid(i), input, depth + 1); };
  auto require = [&](uint8_t accepted, const char* what) {
    if (!in.any && in.kinds && !(in.kinds & accepted)) {
      Report(Severity::Error, kBuiltinInput, n,
             name + " cannot be applied to " + Describe(in) + " (it needs " + what + ")",
             {"the input at " + Where(in) + " is " + Describe(in)});
    }
  };
  auto of = [](uint8_t k) { return One(AType::Of(k)); };
  auto none = [] {
    Result r = One(AType::Any());
    r.card = {0, 0};
    return r;
  };
  if (arity == 0) {
    if (name == "empty") return none();
    if (name == "not") return of(kBool);
    if (name == "length" || name == "utf8bytelength") {
      require(kNull | kNumeric | kStr | kArr | kObj, "a string, array, object, number or null");
      return of(kNumeric);
    }
    if (name == "keys" || name == "keys_unsorted") {
      require(kArr | kObj, "an object or array");
      AType t = AType::Of(kArr);
      t.elem = std::make_shared<AType>(AType::Of(kStr | kNumeric));
      if (in.schema) t.elem_source = in.path;
      return One(t);
    }
    if (name == "tostring" || name == "tojson" || name == "type" || name == "ascii_downcase" ||
        name == "ascii_upcase" || name == "@text" || name == "@json") {
      if (name == "ascii_downcase" || name == "ascii_upcase") require(kStr, "a string");
      return of(kStr);
    }
    if (name == "tonumber") {
      require(kStr | kNumeric, "a string or number");
      return of(kNumeric);
    }
    if (name == "floor" || name == "ceil" || name == "round" || name == "sqrt" || name == "fabs") {
      require(kNumeric, "a number");
      return of(kNumeric);
    }
    if (name == "to_entries") {
      require(kObj, "an object");
      // [{key, value}] where value has the map's value schema: `.value.x` stays checked.
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
    if (name == "from_entries") {
      require(kArr, "an array");
      return of(kObj);
    }
    if (name == "add" || name == "first" || name == "last" || name == "min" || name == "max") {
      require(kArr | kNull, "an array");
      Result elem = IterateOf(One(in), n);
      Result r = One(name == "add" ? AType::Any() : elem.type);
      if (!r.type.any) r.type.kinds |= kNull;
      return r;
    }
    if (name == "sort" || name == "unique" || name == "reverse" || name == "flatten") {
      require(kArr | (name == "reverse" ? kStr | kNull : 0), "an array");
      AType t = in;
      t.optional_at.clear();
      return One(t);
    }
    if (name == "any" || name == "all") {
      require(kArr | kObj, "an array or object");
      return of(kBool);
    }
    if (name == "values" || name == "nulls" || name == "booleans" || name == "numbers" ||
        name == "strings" || name == "arrays" || name == "objects" || name == "iterables" ||
        name == "scalars") {
      uint8_t keep = name == "values"      ? uint8_t(~kNull)
                     : name == "nulls"     ? kNull
                     : name == "booleans"  ? kBool
                     : name == "numbers"   ? kNumeric
                     : name == "strings"   ? kStr
                     : name == "arrays"    ? kArr
                     : name == "objects"   ? kObj
                     : name == "iterables" ? uint8_t(kArr | kObj)
                                           : uint8_t(kNull | kBool | kNumeric | kStr);
      Result r = One(in);
      if (!r.type.any) r.type.kinds &= keep;
      r.card.min = 0;
      return r;
    }
    if (name == "recurse" || name == "paths" || name == "leaf_paths") {
      Result r = One(AType::Any());
      r.card = {1, kMany};
      r.origin_known = false;
      return r;
    }
    if (name == "env" || name == "$__loc__" || name == "now" || name == "input_line_number") {
      return One(AType::Any());
    }
  }
  if (arity == 1) {
    if (name == "select") {
      Result cond = arg(0, in);
      Result r = One(in);
      r.card = {0, cond.card.max == 0 ? uint8_t(0) : uint8_t(cond.card.max == kUnknownMax ? kUnknownMax : cond.card.max)};
      if (r.card.max == kMany) r.origin_known = false;
      return r;
    }
    if (name == "map" || name == "map_values") {
      require(kArr | kObj | kNull, "an array or object");
      Result elem = IterateOf(One(in), n);
      Result f = arg(0, elem.type);
      AType t = AType::Of(name == "map" ? kArr : (in.any ? kObj | kArr : in.kinds & (kObj | kArr)));
      if (name == "map") t.elem = std::make_shared<AType>(f.type);
      return One(t);
    }
    if (name == "has" || name == "contains" || name == "inside" || name == "startswith" ||
        name == "endswith" || name == "test" || name == "in" || name == "any" || name == "all" ||
        name == "isempty") {
      if (name == "has") require(kObj | kArr, "an object or array");
      if (name == "startswith" || name == "endswith" || name == "test") require(kStr, "a string");
      if (name == "any" || name == "all") {
        Result elem = IterateOf(One(in), n);
        arg(0, elem.type);
      } else {
        arg(0, in);
      }
      return of(kBool);
    }
    if (name == "ltrimstr" || name == "rtrimstr") {
      arg(0, in);
      return One(in.any ? AType::Any() : AType::Of(in.kinds));
    }
    if (name == "split" || name == "join") {
      arg(0, in);
      if (name == "split") {
        require(kStr, "a string");
        AType t = AType::Of(kArr);
        t.elem = std::make_shared<AType>(AType::Of(kStr));
        return One(t);
      }
      require(kArr, "an array");
      return of(kStr);
    }
    if (name == "first" || name == "last" || name == "limit") {
      Result r = arg(0, in);
      r.card.min = 0;
      if (r.card.max > 1 && r.card.max != kUnknownMax) r.card.max = 1;
      return r;
    }
    if (name == "sort_by" || name == "unique_by" || name == "group_by" || name == "min_by" ||
        name == "max_by") {
      require(kArr, "an array");
      Result elem = IterateOf(One(in), n);
      arg(0, elem.type);
      if (name == "min_by" || name == "max_by") {
        AType t = elem.type;
        if (!t.any) t.kinds |= kNull;
        return One(t);
      }
      if (name == "group_by") return of(kArr);
      AType t = in;
      t.optional_at.clear();
      return One(t);
    }
    if (name == "with_entries") {
      require(kObj, "an object");
      AType entry = AType::Of(kObj);
      arg(0, entry);
      return of(kObj);
    }
    if (name == "tostring" || name == "ascii_downcase") return of(kStr);
    if (name == "error") {
      arg(0, in);
      return none();
    }
    if (name == "recurse") {
      arg(0, in);
      Result r = One(AType::Any());
      r.card = {1, kMany};
      r.origin_known = false;
      return r;
    }
  }
  if (arity == 2) {
    if (name == "sub" || name == "gsub") {
      require(kStr, "a string");
      arg(0, in);
      arg(1, AType::Of(kObj));
      return of(kStr);
    }
    if (name == "limit") {
      arg(0, in);
      Result r = arg(1, in);
      r.card.min = 0;
      const Node* n0 = n.kid(0);
      if (n0 && n0->kind == NodeKind::Number && n0->number <= 1 && r.card.max != kUnknownMax) {
        r.card.max = std::min<uint8_t>(r.card.max, n0->number <= 0 ? 0 : 1);
      }
      return r;
    }
  }
  // Unknown: still walk the arguments against the input (most builtins do), without their types.
  ++suppress_;
  for (size_t i = 0; i < arity; ++i) arg(i, in);
  --suppress_;
  Result r = One(AType::Any());
  r.card = {0, kUnknownMax};
  r.origin_known = false;
  return r;
}

// ---- role rules

struct Shape {
  uint8_t kinds;                           // the JSON types the role accepts
  std::vector<std::string> any_of_fields;  // an object must declare one of these (when known)
  const char* name;                        // what the role expects, for messages
};

// Expected result of each workload/pod role; kinds 0 = no expectation.
Shape ShapeOf(definition::JqRole role) {
  using R = definition::JqRole;
  switch (role) {
    case R::kInstanceId: return {kStr | kNumeric, {}, "a string (the instance id)"};
    case R::kPodTemplateSpec: return {kObj, {"spec"}, "a PodTemplateSpec"};
    case R::kPodSpec: return {kObj, {"containers"}, "a PodSpec"};
    case R::kMetadata: return {kObj, {"labels", "annotations", "name"}, "an ObjectMeta"};
    case R::kSchedulerName:
    case R::kPriorityClassName:
    case R::kImage: return {kStr, {}, "a string"};
    case R::kLabels:
    case R::kAnnotations: return {kObj, {}, "a map of strings"};
    case R::kResources: return {kObj, {"limits", "requests", "claims"}, "a ResourceRequirements"};
    case R::kResourceClaims: return {kArr, {}, "an array of PodResourceClaims"};
    case R::kPodAffinity:
      return {kObj,
              {"requiredDuringSchedulingIgnoredDuringExecution",
               "preferredDuringSchedulingIgnoredDuringExecution"},
              "a PodAffinity"};
    case R::kNodeAffinity:
      return {kObj,
              {"requiredDuringSchedulingIgnoredDuringExecution",
               "preferredDuringSchedulingIgnoredDuringExecution"},
              "a NodeAffinity"};
    case R::kContainers: return {kArr, {}, "an array of Containers"};
    case R::kContainer: return {kObj, {"image", "name", "command"}, "a Container"};
    case R::kReplicas:
    case R::kMinReplicas:
    case R::kMaxReplicas: return {kNumeric | kStr, {}, "an integer or a numeric string"};
    case R::kPhase: return {kStr, {}, "a string"};
    case R::kConditions: return {kArr, {}, "an array of condition objects"};
    case R::kTypeSelectorKey: return {kStr, {}, "a string"};
    case R::kInstanceSelectorId:
    case R::kReplicaSelectorKey:
    case R::kGangGroupByKey: return {kStr | kNumeric, {}, "a string or a number"};
    case R::kGangFilter: return {kBool, {}, "a boolean"};
    default: return {0, {}, ""};
  }
}

bool IsSpecOrScaleRole(definition::JqRole role) {
  using R = definition::JqRole;
  switch (role) {
    case R::kPodTemplateSpec: case R::kPodSpec: case R::kMetadata: case R::kSchedulerName:
    case R::kLabels: case R::kAnnotations: case R::kResources: case R::kResourceClaims:
    case R::kPodAffinity: case R::kNodeAffinity: case R::kContainers: case R::kContainer:
    case R::kPriorityClassName: case R::kImage: case R::kReplicas: case R::kMinReplicas:
    case R::kMaxReplicas:
      return true;
    default: return false;
  }
}

// Roles whose absence (null) breaks the component: the null-safety rule applies to them.
bool NeedsValue(definition::JqRole role) {
  using R = definition::JqRole;
  return role == R::kInstanceId || role == R::kReplicas;
}

struct FieldResult {
  std::string component;
  definition::JqRole role;
  const definition::JqField* field;
  Result result;
};

class DefinitionChecker {
 public:
  DefinitionChecker(const definition::Definition& def, const schema::SchemaRegistry& schemas,
                    const TypeCheckOptions& options)
      : def_(def), schemas_(schemas), options_(options) {}

  std::vector<Diagnostic> Run();

 private:
  Diagnostic At(const definition::JqField& f, Severity sev, const char* rule, std::string message,
                std::vector<std::string> notes = {}) const {
    Diagnostic d;
    d.severity = sev;
    d.rule = rule;
    d.location = f.map.empty() ? f.location : f.map.Map(0);
    d.length = static_cast<uint32_t>(std::max<size_t>(1, f.text.size()));
    Location end = f.map.empty() ? d.location : f.map.Map(f.text.empty() ? 0 : f.text.size() - 1);
    if (end.line != d.location.line) d.length = 1;
    d.message = std::move(message);
    d.notes = std::move(notes);
    return d;
  }
  void CheckRole(const FieldResult& fr);
  void CheckShapeFields(const FieldResult& fr, const Shape& shape);
  void CheckConditions(const FieldResult& fr);
  void CheckPhaseValues(const FieldResult& fr);
  void CheckCardinality(const std::vector<FieldResult>& results);
  void CheckSuspendValues(const std::vector<FieldResult>& results);

  const definition::Definition& def_;
  const schema::SchemaRegistry& schemas_;
  const TypeCheckOptions& options_;
  std::vector<Diagnostic> out_;
  std::string workload_name_;
  std::string pod_name_ = "v1 Pod";
  const Schema* workload_ = nullptr;
  const Schema* pod_ = nullptr;
};

std::string PathOf(const AType& t) { return t.path.empty() ? "." : t.path; }

void DefinitionChecker::CheckShapeFields(const FieldResult& fr, const Shape& shape) {
  const AType& t = fr.result.type;
  const Schema* s = t.schema;
  if (!s || shape.any_of_fields.empty() || s->properties.empty()) return;
  for (const std::string& f : shape.any_of_fields) {
    if (s->Property(f)) {
      if (fr.role == definition::JqRole::kPodTemplateSpec) {
        // The template's spec must itself be a PodSpec.
        const Schema* spec = schemas_.Deref(s->Property("spec")->get());
        if (spec && !spec->properties.empty() && !spec->Property("containers")) {
          out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                            std::string(definition::FieldName(fr.role)) + " yields an object whose "
                            "'spec' has no 'containers', not " + shape.name,
                            {"result schema: " + PathOf(t) + " in " + workload_name_}));
        }
      }
      return;
    }
  }
  std::string message = std::string(definition::FieldName(fr.role)) + " yields an object without " +
                        (shape.any_of_fields.size() == 1 ? "'" + shape.any_of_fields[0] + "'"
                                                         : "any of its usual fields") +
                        ", not " + shape.name;
  std::vector<std::string> notes{"result schema: " + PathOf(t) + " in " +
                                 (InputOf(fr.role) == definition::JqInput::kPod ? pod_name_
                                                                                : workload_name_)};
  if (fr.role == definition::JqRole::kPodTemplateSpec && s->Property("containers")) {
    notes.push_back("this is a PodSpec: use podSpecPath, or drop the trailing '.spec'");
  } else if (fr.role == definition::JqRole::kPodSpec && s->Property("spec")) {
    const Schema* spec = schemas_.Deref(s->Property("spec")->get());
    if (spec && spec->Property("containers")) {
      notes.push_back("this is a PodTemplateSpec: append '.spec' or use podTemplateSpecPath");
    }
  }
  out_.push_back(At(*fr.field, Severity::Error, kRoleType, message, notes));
}

void DefinitionChecker::CheckConditions(const FieldResult& fr) {
  const AType& t = fr.result.type;
  if (!t.schema || !t.schema->items) return;
  const Schema* item = schemas_.Deref(t.schema->items.get());
  if (!item || item->AllowsUnknownKeys()) return;
  const definition::ConditionsDefinition* cd =
      def_.root.status && def_.root.status->conditions ? &*def_.root.status->conditions : nullptr;
  if (!cd) return;
  for (const definition::Text* name : {&cd->type_field_name, &cd->status_field_name}) {
    if (item->Property(name->value)) continue;
    std::string hint = Suggest(name->value, *item);
    Diagnostic d = At(*fr.field, Severity::Error, kConditionShape,
                      "conditions at " + PathOf(t) + " have no field '" + name->value + "'" +
                          (hint.empty() ? "" : "; did you mean '" + hint + "'?"),
                      {"condition items of " + workload_name_ + " at " + PathOf(t) + "[]"});
    if (name->location.line != 0) {  // point at typeFieldName / statusFieldName when written
      d.location = name->location;
      d.length = static_cast<uint32_t>(std::max<size_t>(1, name->value.size()));
    }
    out_.push_back(std::move(d));
  }
}

void DefinitionChecker::CheckPhaseValues(const FieldResult& fr) {
  const AType& t = fr.result.type;
  if (t.enums.empty() || !def_.root.status) return;
  for (const definition::StatusMapping& m : def_.root.status->mappings) {
    for (const definition::StatusMatcher& matcher : m.matchers) {
      if (!matcher.by_phase) continue;
      std::string v = JsonString(matcher.by_phase->value);
      if (std::find(t.enums.begin(), t.enums.end(), v) != t.enums.end()) continue;
      std::string values;
      for (size_t i = 0; i < t.enums.size(); ++i) values += (i ? ", " : "") + t.enums[i];
      Diagnostic d;
      d.severity = Severity::Error;
      d.rule = kPhaseNotInEnum;
      d.location = matcher.by_phase->location;
      d.length = static_cast<uint32_t>(std::max<size_t>(1, matcher.by_phase->value.size()));
      d.message = "byPhase '" + matcher.by_phase->value + "' can never match: " + PathOf(t) +
                  " of " + workload_name_ + " is one of " + values;
      std::string hint;
      size_t best = matcher.by_phase->value.size() / 3 + 2;
      for (const std::string& e : t.enums) {
        std::string plain = e.size() >= 2 ? e.substr(1, e.size() - 2) : e;
        size_t dist = EditDistance(matcher.by_phase->value, plain);
        if (dist < best) {
          best = dist;
          hint = plain;
        }
      }
      if (!hint.empty()) d.notes.push_back("did you mean '" + hint + "'?");
      out_.push_back(std::move(d));
    }
  }
}

// The core type a fragmented pod-spec role must yield, as a schemas-directory path and a field
// path in it ("" when the role has no such counterpart).
std::pair<const char*, const char*> CoreTypeOf(definition::JqRole role) {
  using R = definition::JqRole;
  switch (role) {
    case R::kSchedulerName: return {"core/v1/PodSpec", ".schedulerName"};
    case R::kPriorityClassName: return {"core/v1/PodSpec", ".priorityClassName"};
    case R::kLabels: return {schema::kObjectMetaPath, ".labels"};
    case R::kAnnotations: return {schema::kObjectMetaPath, ".annotations"};
    case R::kResources: return {"core/v1/Container", ".resources"};
    case R::kResourceClaims: return {"core/v1/PodSpec", ".resourceClaims"};
    case R::kPodAffinity: return {"core/v1/Affinity", ".podAffinity"};
    case R::kNodeAffinity: return {"core/v1/Affinity", ".nodeAffinity"};
    case R::kContainers: return {"core/v1/PodSpec", ".containers"};
    case R::kContainer: return {"core/v1/Container", ""};
    case R::kImage: return {"core/v1/Container", ".image"};
    default: return {nullptr, nullptr};
  }
}

// Whether a value described by `actual` can be what `expected` describes: the JSON types
// overlap and, for objects (or array items) that both list properties, they share at least one
// property name. Depth-limited: only the top and the array item level are compared.
bool Compatible(const schema::SchemaRegistry& reg, const Schema* actual, const Schema* expected,
                int depth, std::string* why) {
  actual = reg.Deref(actual);
  expected = reg.Deref(expected);
  if (!actual || !expected || depth > 2) return true;
  auto kinds = [](const Schema* s) {
    uint8_t k = s->types;
    if (s->int_or_string) k |= kInt | kStr;
    if (k & kNum) k |= kInt;
    if (k & kInt) k |= kNum;
    return k;
  };
  uint8_t a = kinds(actual), e = kinds(expected);
  if (a && e && !(a & e)) {
    *why = schema::TypeNames(a) + " where the pod field is " + schema::TypeNames(e);
    return false;
  }
  if (actual->items && expected->items) {
    return Compatible(reg, actual->items.get(), expected->items.get(), depth + 1, why);
  }
  if (!actual->properties.empty() && !expected->properties.empty() && !actual->preserve_unknown) {
    for (const auto& p : actual->properties) {
      if (expected->Property(p.first)) return true;
    }
    std::string names;
    for (size_t i = 0; i < actual->properties.size() && i < 6; ++i) {
      names += (i ? ", " : "") + actual->properties[i].first;
    }
    *why = "an object with fields " + names + " (none of them in the pod field's type)";
    return false;
  }
  return true;
}

void DefinitionChecker::CheckRole(const FieldResult& fr) {
  const Result& r = fr.result;
  Shape shape = ShapeOf(fr.role);
  const std::string field_name(definition::FieldName(fr.role));
  // Fragmented pod-spec roles: compare with the real Kubernetes type when the schemas have it.
  auto [core_path, core_field] = CoreTypeOf(fr.role);
  if (core_path && r.type.schema) {
    std::string error;
    const Schema* core = schemas_.LookupPath(core_path);
    const Schema* expected = core ? schemas_.Walk(core, core_field, &error) : nullptr;
    std::string why;
    if (expected && !Compatible(schemas_, r.type.schema, expected, 0, &why)) {
      out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                        field_name + " yields " + why,
                        {"result schema: " + PathOf(r.type) + " in " + workload_name_,
                         std::string("expected the type of ") + core_path + core_field}));
      return;
    }
  }
  if (shape.kinds && !r.type.any && r.type.kinds) {
    uint8_t have = r.type.kinds & ~kNull;
    if (have && !(have & shape.kinds)) {
      std::vector<std::string> notes;
      if (r.type.schema) {
        notes.push_back("result schema: " + PathOf(r.type) + " in " +
                        (InputOf(fr.role) == definition::JqInput::kPod ? pod_name_
                                                                        : workload_name_));
      }
      out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                        field_name + " yields " + Describe(r.type) + ", not " + shape.name,
                        std::move(notes)));
      return;
    }
  }
  if (shape.kinds & kObj) CheckShapeFields(fr, shape);
  if (fr.role == definition::JqRole::kContainers && r.type.schema && r.type.schema->items) {
    const Schema* item = schemas_.Deref(r.type.schema->items.get());
    if (item && !item->properties.empty() && !item->Property("name") && !item->Property("image")) {
      out_.push_back(At(*fr.field, Severity::Error, kRoleType,
                        field_name + " yields an array whose items are not Containers",
                        {"result schema: " + PathOf(r.type) + " in " + workload_name_}));
    }
  }
  if (fr.role == definition::JqRole::kConditions) CheckConditions(fr);
  if (fr.role == definition::JqRole::kPhase) CheckPhaseValues(fr);
  if (NeedsValue(fr.role) && !r.defaulted && !r.type.optional_at.empty() &&
      InputOf(fr.role) == definition::JqInput::kWorkload) {
    std::string fallback = !r.type.default_json.empty() ? r.type.default_json
                           : fr.role == definition::JqRole::kInstanceId ? "\"\""
                                                                        : "1";
    Diagnostic d = At(*fr.field, options_.null_safety_severity, kNullSafety,
                      field_name + " goes through optional field " + r.type.optional_at +
                          " and yields null when it is absent; add a default",
                      {r.type.optional_at + " is not required in " + workload_name_});
    d.fixit = fr.field->text + " // " + fallback;
    out_.push_back(std::move(d));
  }
}

void DefinitionChecker::CheckCardinality(const std::vector<FieldResult>& results) {
  for (const definition::Component* c : def_.Components()) {
    const FieldResult* id = nullptr;
    std::vector<const FieldResult*> paths;
    for (const FieldResult& fr : results) {
      if (fr.component != c->name.value) continue;
      if (InputOf(fr.role) != definition::JqInput::kWorkload) continue;
      if (fr.role == definition::JqRole::kInstanceId) id = &fr;
      else if (IsSpecOrScaleRole(fr.role)) paths.push_back(&fr);
    }
    if (c->instance_id_path) {
      if (!id || !id->result.origin_known || id->result.card.max != kMany) continue;
      for (const FieldResult* p : paths) {
        if (!p->result.origin_known || p->result.card.max == kUnknownMax) continue;
        if (p->result.card.max == kMany && p->result.origin == id->result.origin) continue;
        // An iteration whose collection is unnamed went through a field already reported as
        // missing or not iterable: a mismatch message could only name an empty collection.
        if (p->result.card.max == kMany && p->result.origin.empty()) continue;
        std::string theirs = p->result.card.max == kMany
                                 ? "iterates " + p->result.origin
                                 : "does not iterate (one result for every instance)";
        out_.push_back(At(*p->field, Severity::Error, kInstanceMismatch,
                          std::string(definition::FieldName(p->role)) + " " + theirs +
                              " but instanceIdPath iterates " + id->result.origin,
                          {"in a multi-instance component every spec and scale path must yield "
                           "one result per instance: instanceIdPath '" + id->field->text +
                           "' and " + std::string(definition::FieldName(p->role)) + " '" +
                           p->field->text + "'"}));
      }
    } else {
      for (const FieldResult* p : paths) {
        if (p->result.card.max != kMany) continue;
        out_.push_back(At(*p->field, Severity::Error, kSeveralResults,
                          std::string(definition::FieldName(p->role)) +
                              " can yield several results but component '" + c->name.value +
                              "' has no instanceIdPath",
                          {p->result.origin.empty()
                               ? std::string("add instanceIdPath or make the path yield one value")
                               : "it iterates " + p->result.origin +
                                     "; add an instanceIdPath iterating the same list, or "
                                     "select one element"}));
      }
    }
  }
  // Status paths of the root yield one value.
  for (const FieldResult& fr : results) {
    if (fr.role != definition::JqRole::kPhase && fr.role != definition::JqRole::kConditions) continue;
    if (fr.result.card.max != kMany) continue;
    out_.push_back(At(*fr.field, Severity::Error, kSeveralResults,
                      std::string(definition::FieldName(fr.role)) + " can yield several results",
                      {fr.result.origin.empty() ? std::string("status paths must yield one value")
                                                : "it iterates " + fr.result.origin}));
  }
}

// suspend/resume values must fit the field they are assigned to (`.spec.suspend` is a boolean:
// `value: "True"` would store a string the controller rejects).
void DefinitionChecker::CheckSuspendValues(const std::vector<FieldResult>& results) {
  if (!def_.root.suspend) return;
  auto check = [&](const definition::SuspendAction& action) {
    if (!action.path || !action.value) return;
    const FieldResult* target = nullptr;
    for (const FieldResult& fr : results) {
      if (fr.field == &*action.path) target = &fr;
    }
    if (!target || target->result.type.any || !target->result.type.schema) return;
    nlohmann::json value = nlohmann::json::parse(action.value->json, nullptr, false);
    if (value.is_discarded()) return;  // the structural rules report unparsable values
    uint8_t kind = value.is_null()      ? kNull
                   : value.is_boolean() ? kBool
                   : value.is_number_integer() || value.is_number_unsigned() ? uint8_t(kInt | kNum)
                   : value.is_number() ? kNum
                   : value.is_string() ? kStr
                   : value.is_array()  ? kArr
                                       : kObj;
    const AType& t = target->result.type;
    if (kind == kNull || (t.kinds & kind)) return;
    Diagnostic d;
    d.severity = Severity::Error;
    d.rule = kSuspendValue;
    d.location = action.value->location;
    d.length = static_cast<uint32_t>(std::max<size_t>(1, action.value->json.size()));
    d.message = "value " + action.value->json + " is " + schema::TypeNames(kind & ~kInt) +
                " but " + PathOf(t) + " of " + workload_name_ + " is " + Describe(t);
    if (action.value->from_string) {
      d.notes.push_back("a YAML string is taken as the JSON text it holds");
    }
    out_.push_back(std::move(d));
  };
  for (const auto& a : def_.root.suspend->suspend_actions) check(a);
  for (const auto& a : def_.root.suspend->resume_actions) check(a);
}

std::vector<Diagnostic> DefinitionChecker::Run() {
  // The registry is shared across definitions: report only the load errors this check caused.
  size_t load_errors_before = schemas_.load_errors().size();
  if (def_.has_root && def_.root.kind && def_.root.kind->full()) {
    const definition::GroupVersionKind& k = *def_.root.kind;
    schema::Gvk gvk{k.group.value, k.version.value, k.kind.value};
    workload_name_ = gvk.ToString();
    workload_ = schemas_.Lookup(gvk);
    if (!workload_ && options_.note_missing_schema) {
      Diagnostic d;
      d.severity = Severity::Note;
      d.rule = kNoSchema;
      d.location = k.location;
      d.message = "no schema for " + workload_name_ + "; its jq paths are not type-checked";
      // Other versions of the same kind usually mean a version typo.
      std::string versions;
      for (const schema::Gvk& known : schemas_.KnownKinds()) {
        if (known.group == gvk.group && known.kind == gvk.kind && known.version != gvk.version) {
          versions += (versions.empty() ? "" : ", ") + known.version;
        }
      }
      if (!versions.empty()) d.notes.push_back("schemas exist for " + gvk.kind + " versions: " + versions);
      d.notes.push_back("import its CRD with `wmc schema import`, or pass --crd FILE / --schemas DIR");
      out_.push_back(std::move(d));
    }
  }
  pod_ = schemas_.Lookup(schema::Gvk{"", "v1", "Pod"});

  std::vector<FieldResult> results;
  definition::ForEachJqField(def_, [&](std::string_view component, definition::JqRole role,
                                       const definition::JqField& field) {
    if (!field.parsed()) return;
    bool pod = InputOf(role) == definition::JqInput::kPod;
    const Schema* input = pod ? pod_ : workload_;
    if (!input) return;
    Interpreter interp(schemas_, field.map, pod ? pod_name_ : workload_name_, options_.max_depth,
                       &out_);
    AType root = interp.FromSchema(input, "", "");
    // The top of the object: metadata, spec and status always exist on a stored object.
    Result r = interp.Eval(field.ast.get(), root, 0);
    results.push_back({std::string(component), role, &field, std::move(r)});
  });
  for (const FieldResult& fr : results) CheckRole(fr);
  CheckCardinality(results);
  CheckSuspendValues(results);
  std::vector<std::string> load_errors = schemas_.load_errors();
  for (size_t i = load_errors_before; i < load_errors.size(); ++i) {
    const std::string& e = load_errors[i];
    Diagnostic d;
    d.severity = Severity::Warning;
    d.rule = kSchemaLoad;
    d.location.file = def_.file;
    d.message = e;
    out_.push_back(std::move(d));
  }
  return std::move(out_);
}

}  // namespace

std::vector<Diagnostic> TypeCheck(const definition::Definition& definition,
                                  const schema::SchemaRegistry& schemas,
                                  const TypeCheckOptions& options) {
  DefinitionChecker checker(definition, schemas, options);
  std::vector<Diagnostic> out = checker.Run();
  // Reading order (the passes above report field by field, then role by role).
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.location.line != b.location.line) return a.location.line < b.location.line;
    return a.location.column < b.location.column;
  });
  return out;
}

ExpressionType CheckExpression(const jq::Node& ast, const SourceMap& map,
                               const schema::Schema* input, const std::string& input_name,
                               const schema::SchemaRegistry& schemas,
                               std::vector<Diagnostic>* diagnostics) {
  Interpreter interp(schemas, map, input_name, TypeCheckOptions{}.max_depth, diagnostics);
  AType root = input ? interp.FromSchema(input, "", "") : AType::Any();
  Result r = interp.Eval(&ast, root, 0);
  ExpressionType out;
  out.type = Describe(r.type);
  out.cardinality = DescribeCard(r.card);
  if (r.card.max == kMany && r.origin_known) out.iterated = r.origin;
  return out;
}

}  // namespace wm::check
