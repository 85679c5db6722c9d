// The abstract evaluator (internal/abstract_eval.h): the dispatch over node kinds, reporting,
// paths (fields, indexes, slices, iteration), literals, constructors and variables. Operators
// and control flow are in abstract_eval_ops.cpp, calls in abstract_eval_calls.cpp and
// abstract_eval_builtins.cpp.
#include "compiler/check/internal/abstract_eval.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <utility>

#include "compiler/check/internal/did_you_mean.h"
#include "compiler/check/typecheck.h"

namespace wm::check::internal {

using jq::Node;
using jq::NodeKind;

AbstractEvaluator::AbstractEvaluator(const schema::SchemaRegistry& schemas, const SourceMap& map,
                                     const jq::Resolution& resolution, std::string owner,
                                     int max_depth, std::vector<Diagnostic>* out)
    : schemas_(schemas), map_(map), resolution_(resolution), owner_(std::move(owner)),
      max_depth_(max_depth), out_(out) {}

Result AbstractEvaluator::Eval(const Node* n, const AType& in, int depth) {
  if (!n) return One(in);
  ++steps_;
  if (depth > max_depth_) {
    Result r;
    r.card.max = kUnknownMax;
    r.origin_known = false;
    return r;
  }
  const int next = depth + 1;
  switch (n->kind) {
    case NodeKind::Identity: return One(in);
    case NodeKind::RecurseDefault: {
      Result r;
      r.card = {1, kMany};
      r.origin_known = false;
      return r;
    }
    case NodeKind::Field: return EvalField(*n, in, next);
    case NodeKind::Index: return EvalIndex(*n, in, next);
    case NodeKind::Slice: return EvalSlice(*n, in, next);
    case NodeKind::Iterate: return IterateOf(Eval(n->kid(0), in, next), *n);
    case NodeKind::Optional: return EvalOptional(*n, in, next);
    case NodeKind::Number: return EvalNumber(*n);
    case NodeKind::String: return EvalString(*n, in, next);
    case NodeKind::Format: return One(AType::Of(kStr));
    case NodeKind::Null: return One(Literal(kNull, "null"));
    case NodeKind::True: return One(Literal(kBool, "true"));
    case NodeKind::False: return One(Literal(kBool, "false"));
    case NodeKind::Array: return EvalArray(*n, in, next);
    case NodeKind::Object: return EvalObject(*n, in, next);
    case NodeKind::Paren: return Eval(n->kid(0), in, next);
    case NodeKind::Variable: return EvalVariable(*n);
    case NodeKind::Call: return EvalCall(*n, in, depth);
    case NodeKind::Pipe: return EvalPipe(*n, in, next);
    case NodeKind::Comma: return EvalComma(*n, in, next);
    case NodeKind::Alternative: return EvalAlternative(*n, in, next);
    case NodeKind::Assign: return EvalAssign(*n, in, next);
    case NodeKind::Or:
    case NodeKind::And:
    case NodeKind::Compare: return EvalBoolean(*n, in, next);
    case NodeKind::Arith: return EvalArith(*n, in, next);
    case NodeKind::Neg: return EvalNeg(*n, in, next);
    case NodeKind::If: return EvalIf(*n, in, next);
    case NodeKind::TryCatch: return EvalTry(*n, in, next);
    case NodeKind::Reduce:
    case NodeKind::Foreach: return EvalFold(*n, in, next);
    case NodeKind::Bind: return EvalBind(*n, in, next);
    case NodeKind::Label: {
      Result r = Eval(n->kid(0), in, next);
      r.card.min = 0;
      return r;
    }
    case NodeKind::Break: {
      Result r = One(AType::Any());
      r.card = {0, 0};
      return r;
    }
    // A def's body is evaluated where it is called (with that call's input); here only the rest.
    case NodeKind::FuncDef: return Eval(n->kid(1), in, next);
    case NodeKind::Program: return Eval(n->kids.empty() ? nullptr : n->kids.back().get(), in, next);
    default: {
      Result r;
      r.card.max = kUnknownMax;
      r.origin_known = false;
      return r;
    }
  }
}

// ---- reporting

void AbstractEvaluator::Report(Severity sev, const char* rule, const Node& at, std::string message,
                               std::vector<std::string> notes, bool always) {
  if (suppress_ > 0 && !always) return;
  // The same node can be walked more than once (both branches of a join): report once.
  // Point at the operator / name token when the parser recorded one, else the construct.
  jq::Range r = at.token.end > at.token.begin ? at.token : at.range;
  if (!reported_.insert({r.begin, r.end, rule}).second) return;
  Location begin = map_.Map(r.begin);
  Location end = map_.Map(r.end > r.begin ? r.end - 1 : r.begin);
  uint32_t length = (end.line == begin.line && end.column >= begin.column)
                        ? end.column - begin.column + 1
                        : 1;
  out_->push_back(MakeDiagnostic(rule, std::move(begin), std::move(message))
                      .WithSeverity(sev)
                      .Length(length)
                      .Notes(std::move(notes)));
}

std::string AbstractEvaluator::Where(const AType& t) const {
  return owner_ + " at " + (t.path.empty() ? std::string(".") : t.path);
}

// ---- paths

namespace {

// A field, index or slice of an iterated element is no longer that element: a select after it
// does not choose among the list-map's elements.
void ForgetElement(Result* r) {
  r->list_map = nullptr;
  r->selected_keys.clear();
}

}  // namespace

AType AbstractEvaluator::FieldOf(const AType& t, const std::string& name, const Node& at) {
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
  ReportUnknownField(t, name, at);
  // At run time the field is null, but the mistake is reported once: what follows it is unknown,
  // so `[]` or `.x` after a misspelt field does not add a second, derived finding.
  return AType::Any();
}

void AbstractEvaluator::ReportUnknownField(const AType& t, const std::string& name, const Node& at) {
  const Schema& s = *t.schema;
  std::string message = "field '" + name + "' not found in " + Where(t);
  std::string hint = Suggest(name, s);
  if (!hint.empty()) message += "; did you mean '" + hint + "'?";
  std::string known;
  for (size_t i = 0; i < s.properties.size() && i < 12; ++i) {
    known += (i ? ", " : "") + s.properties[i].first;
  }
  if (s.properties.size() > 12) known += ", ...";
  std::vector<std::string> notes{"schema path " + PathOf(t) + " of " + owner_ +
                                 " has fields: " + known};
  Report(Severity::Error, kUnknownField, at, message, notes, /*always=*/true);
}

Result AbstractEvaluator::IterateOf(const Result& r, const Node& at) {
  const AType& t = r.type;
  Result out;
  out.card = Seq(r.card, Card{0, kMany});
  out.origin = r.origin;
  out.origin_known = r.origin_known;
  out.filtered = r.filtered;
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
    if (!s->list_map_keys.empty()) {
      out.list_map = std::make_shared<ListMapIteration>(
          ListMapIteration{s->list_map_keys, r.card, r.origin, r.origin_known, r.filtered});
    }
  } else if (s && s->additional_properties && (t.any || t.kinds & kObj)) {
    out.type = FromSchema(s->additional_properties.get(), path, "");
  } else {
    out.type = AType::Any();
  }
  return out;
}

Result AbstractEvaluator::EvalField(const Node& n, const AType& in, int depth) {
  Result target = Eval(n.kid(0), in, depth);
  AType t = FieldOf(target.type, n.text, n);
  target.type = std::move(t);
  target.defaulted = false;
  ForgetElement(&target);
  return target;
}

Result AbstractEvaluator::EvalIndex(const Node& n, const AType& in, int depth) {
  Result target = Eval(n.kid(0), in, depth);
  const Node* key = n.kid(1);
  Result k = Eval(key, in, depth);
  target.card = Seq(target.card, k.card);
  target.defaulted = false;
  ForgetElement(&target);
  // A literal string key is a field name.
  if (key && key->kind == NodeKind::String && key->kids.size() <= 1 &&
      (key->kids.empty() || key->kids[0]->kind == NodeKind::String)) {
    target.type = FieldOf(target.type, key->text, n);
    return target;
  }
  if (!k.type.any && k.type.Only(kNumeric)) return IndexByNumber(std::move(target), n);
  target.type = AType::Any();
  return target;
}

Result AbstractEvaluator::IndexByNumber(Result target, const Node& n) {
  const AType& t = target.type;
  if (!t.any && !t.May(kArr | kNull)) {
    Report(Severity::Error, kCannotIndex, n, "cannot index " + Describe(t) + " with a number",
           {"the value at " + Where(t) + " is " + Describe(t)});
    target.type = AType::Any();
    return target;
  }
  AType elem = AType::Any();
  if (t.elem) {
    elem = *t.elem;
  } else if (t.schema && t.schema->items) {
    elem = FromSchema(t.schema->items.get(), t.path + "[]",
                      t.optional_at.empty() ? t.path + "[]" : t.optional_at);
  }
  if (!elem.any) elem.kinds |= kNull;  // out of range yields null
  target.type = elem;
  return target;
}

Result AbstractEvaluator::EvalSlice(const Node& n, const AType& in, int depth) {
  Result target = Eval(n.kid(0), in, depth);
  Eval(n.kid(1), in, depth);
  Eval(n.kid(2), in, depth);
  const AType& t = target.type;
  if (!t.any && !t.May(kArr | kStr | kNull)) {
    Report(Severity::Error, kCannotIndex, n, "cannot slice " + Describe(t),
           {"the value at " + Where(t) + " is " + Describe(t)});
    target.type = AType::Any();
  }
  target.defaulted = false;
  ForgetElement(&target);
  return target;
}

Result AbstractEvaluator::EvalOptional(const Node& n, const AType& in, int depth) {
  ++suppress_;
  Result r = Eval(n.kid(0), in, depth);
  --suppress_;
  r.card.min = 0;
  return r;
}

// ---- literals and constructors

Result AbstractEvaluator::EvalNumber(const Node& n) {
  char buf[64];
  double v = n.number;
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  return One(Literal(std::floor(v) == v ? kInt : kNum, buf));
}

Result AbstractEvaluator::EvalString(const Node& n, const AType& in, int depth) {
  bool plain = true;
  for (const auto& part : n.kids) {
    if (part && part->kind != NodeKind::String) {
      // An interpolation: any type converts with tostring, but errors inside still count.
      plain = false;
      Eval(part.get(), in, depth);
    }
  }
  if (plain && n.format.empty()) return One(Literal(kStr, JsonString(n.text)));
  return One(AType::Of(kStr));
}

Result AbstractEvaluator::EvalArray(const Node& n, const AType& in, int depth) {
  AType t = AType::Of(kArr);
  if (const Node* e = n.kid(0)) {
    Result r = Eval(e, in, depth);
    t.elem = std::make_shared<AType>(r.type);
  }
  return One(t);
}

Result AbstractEvaluator::EvalObject(const Node& n, const AType& in, int depth) {
  AType t = AType::Of(kObj);
  auto fields = std::make_shared<std::map<std::string, AType>>();
  bool known = true;
  Card card;
  for (const auto& entry : n.kids) {
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
      if (key) card = Seq(card, Eval(key, in, depth).card);
    }
    AType vt;
    if (value) {
      Result r = Eval(value, in, depth);
      card = Seq(card, r.card);
      vt = r.type;
    } else if (key && key->kind == NodeKind::Variable) {
      if (const AType* v = LookupVariable(*key)) vt = *v;
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

// ---- variables

Result AbstractEvaluator::EvalVariable(const Node& n) {
  if (const AType* v = LookupVariable(n)) return One(*v);
  return One(AType::Any());
}

const AType* AbstractEvaluator::LookupVariable(const Node& use) const {
  const jq::Binding* binding = resolution_.Find(use);
  if (binding && binding->kind == jq::BindingKind::kGlobal) return nullptr;
  for (auto it = variables_.rbegin(); it != variables_.rend(); ++it) {
    if (it->name != use.text) continue;
    // Without a recorded binding (a use deeper than the resolver walks) the name decides.
    if (binding == nullptr || it->site == binding->site) return &it->type;
  }
  return nullptr;
}

void AbstractEvaluator::BindPattern(const Node* binder, const Node* p, const AType& value, int depth) {
  if (!p || depth > max_depth_) return;
  switch (p->kind) {
    case NodeKind::PatternVar:
    case NodeKind::Variable: variables_.push_back({binder, p->text, value}); return;
    case NodeKind::PatternArray:
      for (const auto& k : p->kids) BindPattern(binder, k.get(), AType::Any(), depth + 1);
      return;
    case NodeKind::PatternObject:
      for (const auto& entry : p->kids) {
        if (!entry) continue;
        const Node* key = entry->kid(0);
        if (key && key->kind == NodeKind::Variable) {
          variables_.push_back({binder, key->text, AType::Any()});
        }
        BindPattern(binder, entry->kid(1), AType::Any(), depth + 1);
      }
      return;
    default: return;
  }
}

}  // namespace wm::check::internal
