// The view evaluator (view.h): runs view programs (view_program.h) on simdjson DOM elements. A
// value is either a DOM element (no copy) or a Value built where jq builds one (arithmetic,
// constructions). Root paths come from a per-object cache over the kind's path trie, each trie
// level filled by one scan of its object. The evaluator never words an error: where jq would
// raise one outside a `try`, or a limit is reached, the resolver is rerun on the regular engine
// over the converted document, so messages and limits are exactly the engine's.
#include "runtime/eval/view/view.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "base/fn_ref.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"
#include "runtime/eval/view/view_program.h"
#include "runtime/value/json_dom.h"

namespace wm::view {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

static_assert(sizeof(element) == 16 && std::is_trivially_copyable_v<element>,
              "ViewOutput stores a dom::element in 16 raw bytes");

// Depth for converting sub-documents: the DOM is at most json_dom::kMaxDomDepth deep.
constexpr int kConvertDepth = 512;

// A value inside the evaluator: a DOM element, or a Value (null for missing keys), owned or a
// program constant referred to (no reference count traffic per use).
struct VVal {
  element dom;
  Value value;
  const Value* ref = nullptr;
  bool is_dom = false;
  const Value& val() const { return ref != nullptr ? *ref : value; }
  static VVal Ref(const Value& constant) {
    VVal v;
    v.ref = &constant;
    return v;
  }
  static VVal Dom(element e) {
    VVal v;
    v.dom = e;
    v.is_dom = true;
    return v;
  }
  static VVal Of(Value x) {
    VVal v;
    v.value = std::move(x);
    return v;
  }
};

// The container of an element, by value: ranging over `get_object().value_unsafe()` directly
// would range over a member of a destroyed temporary.
simdjson::dom::object ObjectOf(element e) { return e.get_object().value_unsafe(); }
simdjson::dom::array ArrayOf(element e) { return e.get_array().value_unsafe(); }

Kind KindOfElement(element e) {
  switch (e.type()) {
    case element_type::NULL_VALUE: return Kind::Null;
    case element_type::BOOL: return e.get_bool().value_unsafe() ? Kind::True : Kind::False;
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE: return Kind::Number;
    case element_type::STRING: return Kind::String;
    case element_type::ARRAY: return Kind::Array;
    case element_type::OBJECT: return Kind::Object;
  }
  return Kind::Null;
}

Kind KindOf(const VVal& v) { return v.is_dom ? KindOfElement(v.dom) : v.val().kind(); }
bool Truthy(const VVal& v) {
  Kind k = KindOf(v);
  return k != Kind::Null && k != Kind::False;
}

// The number of a Number element, as ConvertElement reads it.
double NumberOf(element e) {
  switch (e.type()) {
    case element_type::INT64: return static_cast<double>(e.get_int64().value_unsafe());
    case element_type::UINT64: return static_cast<double>(e.get_uint64().value_unsafe());
    default: return e.get_double().value_unsafe();
  }
}

Value ConvertView(element e, bool sort_keys) {
  Value v;
  json_dom::ConvertElement(e, kConvertDepth, &v);
  if (sort_keys && (v.IsObject() || v.IsArray())) v = SortKeysDeep(v);
  return v;
}

Value ToValue(const VVal& v, bool sort_keys) { return v.is_dom ? ConvertView(v.dom, sort_keys) : v.val(); }

const Value& BoolValue(bool b) {
  static const Value kTrue = Value::Bool(true), kFalse = Value::Bool(false);
  return b ? kTrue : kFalse;
}

// jq's order between two values; containers are compared as Values.
int CompareViews(const VVal& a, const VVal& b) {
  Kind ka = KindOf(a), kb = KindOf(b);
  bool containers = ka == Kind::Array || ka == Kind::Object || kb == Kind::Array || kb == Kind::Object;
  if (containers || ka != kb) {
    if (ka != kb) return ka < kb ? -1 : 1;
    return Compare(ToValue(a, false), ToValue(b, false));
  }
  if (ka == Kind::Number) {
    double x = a.is_dom ? NumberOf(a.dom) : a.val().AsNumber();
    double y = b.is_dom ? NumberOf(b.dom) : b.val().AsNumber();
    return Compare(Value::Number(x), Value::Number(y));
  }
  if (ka == Kind::String) {
    std::string_view x = a.is_dom ? a.dom.get_string().value_unsafe() : a.val().AsString();
    std::string_view y = b.is_dom ? b.dom.get_string().value_unsafe() : b.val().AsString();
    int r = x.compare(y);
    return r < 0 ? -1 : (r > 0 ? 1 : 0);
  }
  return 0;  // null, false, true: equal within their kind
}

// Whether comparison `op` (==, !=, <, <=, >, >=) holds for a CompareViews result.
bool ComparisonHolds(ir::BinaryOp op, int c) {
  switch (op) {
    case ir::BinaryOp::Eq: return c == 0;
    case ir::BinaryOp::Ne: return c != 0;
    case ir::BinaryOp::Lt: return c < 0;
    case ir::BinaryOp::Le: return c <= 0;
    case ir::BinaryOp::Gt: return c > 0;
    default: return c >= 0;
  }
}

using Field = std::pair<std::string_view, element>;

// An object's members in the evaluator's key order; false when a key repeats (ParseJson keeps one
// of them: the caller falls back rather than reproduce that here).
bool ObjectFields(simdjson::dom::object object, bool sort_keys, std::vector<Field>* fields) {
  for (simdjson::dom::key_value_pair field : object) fields->emplace_back(field.key, field.value);
  std::vector<Field> by_key = *fields;
  std::sort(by_key.begin(), by_key.end(), [](const Field& a, const Field& b) { return a.first < b.first; });
  for (size_t i = 1; i < by_key.size(); ++i) {
    if (by_key[i - 1].first == by_key[i].first) return false;
  }
  if (sort_keys) *fields = std::move(by_key);
  return true;
}

enum class Flow : uint8_t { kContinue, kStop, kError, kBail };

using Cont = FnRef<Flow(const VVal&)>;

}  // namespace

// ---- the per-object cache of root paths

struct RootCache {
  const PathTrie* trie = nullptr;
  std::vector<VVal> values;
  std::vector<uint8_t> state;  // 0 unknown, 1 known, 2 indexing it is an error

  void Reset(element root) {
    state.assign(trie->nodes.size(), 0);
    values.resize(trie->nodes.size());
    values[0] = VVal::Dom(root);
    state[0] = 1;
  }

  // The value at trie node `id`, or null when reaching it is an error (`.a.b` on {"a": 1}).
  const VVal* Get(uint32_t id) {
    if (state[id] == 0) Fill(trie->nodes[id].parent);
    return state[id] == 1 ? &values[id] : nullptr;
  }

 private:
  // Computes every child of `parent` the kind reads, in one scan of its object; a repeated key
  // keeps its last value, as ParseJson.
  void Fill(uint32_t parent) {
    const VVal* pv = Get(parent);
    const std::vector<uint32_t>& children = trie->nodes[parent].children;
    Kind kind = pv == nullptr ? Kind::Number : KindOf(*pv);
    for (uint32_t c : children) {
      values[c] = VVal();
      state[c] = kind == Kind::Object || kind == Kind::Null ? 1 : 2;
    }
    if (kind != Kind::Object) return;
    if (!pv->is_dom) return;  // trie values are DOM elements or null
    for (simdjson::dom::key_value_pair field : ObjectOf(pv->dom)) {
      for (uint32_t c : children) {
        const std::string& key = trie->nodes[c].key;
        if (key.size() == field.key.size() && std::memcmp(key.data(), field.key.data(), key.size()) == 0) {
          values[c] = VVal::Dom(field.value);
        }
      }
    }
  }
};

namespace {

struct EvalContext {
  RootCache* root;
  const EvalLimits* limits;
  bool sort_keys;
  const std::vector<Value>* globals;  // RunOptions::globals: the first slots, as the interpreter
};

// One run of one view program on one object.
class Evaluator {
 public:
  Evaluator(const ViewProgram& program, const EvalContext& context)
      : p_(program), cx_(context), budget_(*context.limits), slots_(program.num_slots) {
    slice_ = budget_.FirstSlice();
    if (context.globals != nullptr) {
      for (size_t i = 0; i < context.globals->size() && i < slots_.size(); ++i) slots_[i] = VVal::Of((*context.globals)[i]);
    }
  }

  Flow Run(std::vector<ViewOutput>* outputs) {
    return Eval(p_.root, cx_.root->values[0], [&](const VVal& v) {
      // Reaching the output limit is the engine's error: let it report it.
      if (outputs->size() + 1 >= cx_.limits->max_outputs) return Flow::kBail;
      outputs->push_back(v.is_dom ? ViewOutput::OfElement(&v.dom, cx_.sort_keys) : ViewOutput(v.val()));
      return Flow::kContinue;
    });
  }

 private:
  bool Step() {
    if (slice_ > 0) {
      --slice_;
      return true;
    }
    std::string message;
    slice_ = budget_.NextSlice(&message);
    return slice_-- > 0;
  }
  bool ChargeBytes(uint64_t bytes) {
    memory_ += bytes;
    return memory_ <= cx_.limits->max_memory_bytes;
  }
  Value Materialize(const VVal& v) const { return ToValue(v, cx_.sort_keys); }

  Flow Eval(uint32_t id, const VVal& in, Cont k) {
    if (!Step()) return Flow::kBail;
    const VNode& n = p_.nodes[id];
    switch (n.op) {
      case VOp::kIdentity: return k(in);
      case VOp::kEmpty: return Flow::kContinue;
      case VOp::kConst: return k(VVal::Ref(p_.consts[n.a]));
      case VOp::kRootPath: {
        const VVal* v = cx_.root->Get(n.a);
        return v == nullptr ? Flow::kError : k(*v);
      }
      case VOp::kField:
        return Eval(n.kids[0], in, [&](const VVal& t) { return IndexBy(t, VVal::Ref(p_.consts[n.a]), k); });
      case VOp::kIndex:
        // jq order: the key generator is the outer loop, the target the inner one.
        return Eval(n.kids[1], in, [&](const VVal& key) {
          return Eval(n.kids[0], in, [&](const VVal& t) { return IndexBy(t, key, k); });
        });
      case VOp::kIterate: return Eval(n.kids[0], in, [&](const VVal& t) { return Iterate(t, k); });
      case VOp::kPipe: return Eval(n.kids[0], in, [&](const VVal& v) { return Eval(n.kids[1], v, k); });
      case VOp::kComma: {
        Flow f = Eval(n.kids[0], in, k);
        return f != Flow::kContinue ? f : Eval(n.kids[1], in, k);
      }
      case VOp::kNeg: return EvalNeg(n, in, k);
      case VOp::kBinary: return EvalBinary(n, in, k);
      case VOp::kAnd:
      case VOp::kOr: return EvalAndOr(n, in, k);
      case VOp::kAlternative: return EvalAlternative(n, in, k);
      case VOp::kIf:
        return Eval(n.kids[0], in, [&](const VVal& c) { return Eval(Truthy(c) ? n.kids[1] : n.kids[2], in, k); });
      case VOp::kTry: return EvalTry(n, in, k);
      case VOp::kCollect: return EvalCollect(n, in, k);
      case VOp::kObject: {
        std::vector<Member> members;
        return EvalObject(n, 0, in, &members, k);
      }
      case VOp::kVar: return n.a < slots_.size() ? k(slots_[n.a]) : Flow::kBail;
      case VOp::kBind: return EvalBind(n, in, k);
      case VOp::kNot: return k(VVal::Ref(BoolValue(!Truthy(in))));
      case VOp::kLength: return EvalLength(in, k);
      case VOp::kAny:
      case VOp::kAll: return EvalAnyAll(n, in, k);
      case VOp::kFieldCompare:
        return IndexBy(in, VVal::Ref(p_.consts[n.b]), [&](const VVal& a) {
          bool r = ComparisonHolds(static_cast<ir::BinaryOp>(n.a), CompareViews(a, VVal::Ref(p_.consts[n.c])));
          return k(VVal::Ref(BoolValue(r)));
        });
    }
    return Flow::kBail;
  }

  // t[key]: objects by string key (a repeated key: its last value), arrays by integer, null ->
  // null; anything else through ops::Index on Values (its error makes the resolver fall back).
  Flow IndexBy(const VVal& t, const VVal& key, Cont k) {
    Kind tk = KindOf(t), kk = KindOf(key);
    if (tk == Kind::Null && (kk == Kind::String || kk == Kind::Number)) return k(VVal());
    if (t.is_dom && tk == Kind::Object && kk == Kind::String) {
      std::string_view name = key.is_dom ? key.dom.get_string().value_unsafe() : key.val().AsString();
      VVal found;
      for (simdjson::dom::key_value_pair field : ObjectOf(t.dom)) {
        if (field.key == name) found = VVal::Dom(field.value);
      }
      return k(found);
    }
    if (t.is_dom && tk == Kind::Array && kk == Kind::Number) {
      double d = key.is_dom ? NumberOf(key.dom) : key.val().AsNumber();
      simdjson::dom::array array = ArrayOf(t.dom);
      if (d == std::floor(d) && std::fabs(d) < 1e15 && array.size() < 0xFFFFFF) {
        auto size = static_cast<int64_t>(array.size());
        auto i = static_cast<int64_t>(d);
        if (i < 0) i += size;
        if (i < 0 || i >= size) return k(VVal());
        return k(VVal::Dom(array.at(static_cast<size_t>(i)).value_unsafe()));
      }
    }
    Value out, error;
    if (!ops::Index(Materialize(t), Materialize(key), &out, &error)) return Flow::kError;
    return k(VVal::Of(std::move(out)));
  }

  Flow Iterate(const VVal& t, Cont k) {
    Kind kind = KindOf(t);
    if (t.is_dom && kind == Kind::Array) {
      for (element child : ArrayOf(t.dom)) {
        if (!Step()) return Flow::kBail;
        Flow f = k(VVal::Dom(child));
        if (f != Flow::kContinue) return f;
      }
      return Flow::kContinue;
    }
    if (t.is_dom && kind == Kind::Object) {
      std::vector<Field> fields;
      if (!ObjectFields(ObjectOf(t.dom), cx_.sort_keys, &fields)) return Flow::kBail;
      for (const Field& field : fields) {
        if (!Step()) return Flow::kBail;
        Flow f = k(VVal::Dom(field.second));
        if (f != Flow::kContinue) return f;
      }
      return Flow::kContinue;
    }
    Array items;
    Value error;
    if (!ops::IterateInto(Materialize(t), &items, &error)) return Flow::kError;
    for (Value& item : items) {
      Flow f = k(VVal::Of(std::move(item)));
      if (f != Flow::kContinue) return f;
    }
    return Flow::kContinue;
  }

  Flow EvalNeg(const VNode& n, const VVal& in, Cont k) {
    return Eval(n.kids[0], in, [&](const VVal& v) {
      Value out, error;
      if (!ops::Negate(Materialize(v), &out, &error)) return Flow::kError;
      return k(VVal::Of(std::move(out)));
    });
  }

  Flow EvalBinary(const VNode& n, const VVal& in, Cont k) {
    auto op = static_cast<ir::BinaryOp>(n.a);
    return Eval(n.kids[1], in, [&](const VVal& b) {
      return Eval(n.kids[0], in, [&](const VVal& a) {
        if (op >= ir::BinaryOp::Eq) return k(VVal::Ref(BoolValue(ComparisonHolds(op, CompareViews(a, b)))));
        Value out, error;
        if (!ops::Binary(op, Materialize(a), Materialize(b), &out, &error)) return Flow::kError;
        if (out.IsString() && !ChargeBytes(out.AsString().size())) return Flow::kBail;
        if ((out.IsArray() || out.IsObject()) && !ChargeBytes(16 * eval_internal::WorkUnits(out))) {
          return Flow::kBail;
        }
        return k(VVal::Of(std::move(out)));
      });
    });
  }

  Flow EvalAndOr(const VNode& n, const VVal& in, Cont k) {
    bool is_and = n.op == VOp::kAnd;
    return Eval(n.kids[0], in, [&](const VVal& a) {
      bool ta = Truthy(a);
      if (is_and ? !ta : ta) return k(VVal::Ref(BoolValue(!is_and)));
      return Eval(n.kids[1], in, [&](const VVal& b) { return k(VVal::Ref(BoolValue(Truthy(b)))); });
    });
  }

  Flow EvalAlternative(const VNode& n, const VVal& in, Cont k) {
    bool any = false;
    Flow f = Eval(n.kids[0], in, [&](const VVal& v) {
      if (!Truthy(v)) return Flow::kContinue;
      any = true;
      return k(v);
    });
    if (f != Flow::kContinue || any) return f;
    return Eval(n.kids[1], in, k);
  }

  // `body?`: an error raised in the body ends it quietly; one raised downstream (by k) is not ours.
  Flow EvalTry(const VNode& n, const VVal& in, Cont k) {
    bool downstream = false;
    Flow f = Eval(n.kids[0], in, [&](const VVal& v) {
      Flow r = k(v);
      if (r != Flow::kContinue) downstream = true;
      return r;
    });
    if (f == Flow::kError && !downstream) return Flow::kContinue;
    return f;
  }

  Flow EvalCollect(const VNode& n, const VVal& in, Cont k) {
    Array items;
    Flow f = Eval(n.kids[0], in, [&](const VVal& v) {
      if (!ChargeBytes(16)) return Flow::kBail;
      items.push_back(Materialize(v));
      return Flow::kContinue;
    });
    if (f != Flow::kContinue) return f;
    return k(VVal::Of(Value::MakeArray(std::move(items))));
  }

  Flow EvalObject(const VNode& n, size_t entry, const VVal& in, std::vector<Member>* members, Cont k) {
    if (entry * 2 >= n.kids.size()) {
      if (!ChargeBytes(32 * members->size())) return Flow::kBail;
      return k(VVal::Of(Value::MakeObject(*members)));
    }
    return Eval(n.kids[entry * 2], in, [&](const VVal& key) {
      return Eval(n.kids[entry * 2 + 1], in, [&](const VVal& value) {
        if (KindOf(key) != Kind::String) return Flow::kError;  // "Cannot use ... as object key"
        members->emplace_back(Materialize(key), Materialize(value));
        Flow f = EvalObject(n, entry + 1, in, members, k);
        members->pop_back();
        return f;
      });
    });
  }

  Flow EvalBind(const VNode& n, const VVal& in, Cont k) {
    if (n.a >= slots_.size()) return Flow::kBail;
    return Eval(n.kids[0], in, [&](const VVal& v) {
      VVal saved = slots_[n.a];
      slots_[n.a] = v;
      Flow f = Eval(n.kids[1], in, k);
      slots_[n.a] = std::move(saved);
      return f;
    });
  }

  Flow EvalLength(const VVal& in, Cont k) {
    if (in.is_dom) {
      switch (in.dom.type()) {
        case element_type::NULL_VALUE: return k(VVal::Of(Value::Number(0)));
        case element_type::STRING: {
          size_t count = eval_internal::CodepointCount(in.dom.get_string().value_unsafe());
          return k(VVal::Of(Value::Number(static_cast<double>(count))));
        }
        case element_type::ARRAY: {
          size_t count = 0;
          for (element child : ArrayOf(in.dom)) {
            (void)child;
            ++count;
          }
          return k(VVal::Of(Value::Number(static_cast<double>(count))));
        }
        case element_type::OBJECT: {
          std::vector<Field> fields;
          if (!ObjectFields(ObjectOf(in.dom), false, &fields)) return Flow::kBail;
          return k(VVal::Of(Value::Number(static_cast<double>(fields.size()))));
        }
        default: break;
      }
    }
    Value out, error;
    if (!ops::CallBuiltin(ir::BuiltinId::Length, Materialize(in), nullptr, 0, &out, &error)) return Flow::kError;
    return k(VVal::Of(std::move(out)));
  }

  // any(f): true at the first truthy output of f on an element of .[]; all(f): false at the first
  // falsy one (the prelude's isempty(first(...)) short-circuit, errors before it propagate).
  Flow EvalAnyAll(const VNode& n, const VVal& in, Cont k) {
    bool is_any = n.op == VOp::kAny;
    bool decided = false;
    Flow f = Iterate(in, [&](const VVal& item) {
      return Eval(n.kids[0], item, [&](const VVal& c) {
        if (Truthy(c) != is_any) return Flow::kContinue;
        decided = true;
        return Flow::kStop;
      });
    });
    if (!(f == Flow::kStop && decided) && f != Flow::kContinue) return f;
    return k(VVal::Ref(BoolValue(is_any ? decided : !decided)));
  }

  const ViewProgram& p_;
  const EvalContext& cx_;
  eval_internal::StepBudget budget_;
  uint64_t slice_ = 0;
  uint64_t memory_ = 0;
  std::vector<VVal> slots_;
};

}  // namespace

// ---- ViewOutput

ViewOutput ViewOutput::OfElement(const void* element_bytes, bool sort_keys) {
  ViewOutput out;
  std::memcpy(out.element_, element_bytes, sizeof(element));
  out.is_view_ = true;
  out.sort_keys_ = sort_keys;
  return out;
}

bool ViewOutput::IsString() const {
  if (!is_view_) return value_.IsString();
  element e;
  std::memcpy(static_cast<void*>(&e), element_, sizeof(element));
  return e.type() == simdjson::dom::element_type::STRING;
}

Value ViewOutput::ToValue() const {
  if (!is_view_) return value_;
  element e;
  std::memcpy(static_cast<void*>(&e), element_, sizeof(element));
  return ConvertView(e, sort_keys_);
}

void ViewOutput::WriteJson(std::string* out, const JsonWriteOptions& options) const {
  if (!is_view_) {
    wm::WriteJson(value_, out, options);
    return;
  }
  element e;
  std::memcpy(static_cast<void*>(&e), element_, sizeof(element));
  JsonWriteOptions view_options = options;
  view_options.sort_keys = options.sort_keys || sort_keys_;
  json_dom::WriteElement(e, out, view_options);
}

// ---- FusedKind

FusedKind::FusedKind(std::vector<std::shared_ptr<const ir::Program>> programs, FusedKindOptions options,
                     std::vector<std::shared_ptr<const Filter>> fallbacks)
    : programs_(std::move(programs)), options_(options), fallbacks_(std::move(fallbacks)),
      trie_(std::make_unique<PathTrie>()) {
  fallbacks_.resize(programs_.size());
  for (size_t i = 0; i < programs_.size(); ++i) {
    if (fallbacks_[i] == nullptr) fallbacks_[i] = MakeInterpreter(programs_[i]);
    std::string reason;
    views_.push_back(LowerToView(*programs_[i], trie_.get(), &reason));
    reasons_.push_back(views_.back() ? "" : reason);
  }
}

FusedKind::~FusedKind() = default;

bool FusedKind::fused(size_t i) const { return views_[i] != nullptr; }

size_t FusedKind::fused_count() const {
  return static_cast<size_t>(std::count_if(views_.begin(), views_.end(), [](const auto& v) { return v != nullptr; }));
}

// ---- FusedRunner

struct FusedRunner::State {
  simdjson::dom::parser parser;
  RootCache cache;
  Value document;            // the converted object, for fallbacks
  bool document_ready = false;
};

FusedRunner::FusedRunner(const FusedKind& kind)
    : kind_(kind), state_(std::make_unique<State>()), results_(kind.size()) {
  state_->cache.trie = kind.trie_.get();
}

FusedRunner::~FusedRunner() = default;

namespace {

void RunFallback(const Filter& filter, const Value& document, const RunOptions& options, ResolverResult* result) {
  result->outputs.clear();
  result->fused = false;
  result->error = EvalError();
  result->status = filter.Run(document, [&](const Value& v) {
    result->outputs.emplace_back(v);
    return true;
  }, &result->error, options);
}

}  // namespace

bool FusedRunner::Run(std::string_view json, const RunOptions& options, JsonError* error) {
  ++stats_.objects;
  State& s = *state_;
  const bool sort_keys = kind_.options_.sort_keys;
  element root;
  if (!json_dom::ParseDom(json, &s.parser, &root)) {
    // simdjson cannot represent it exactly (or it is invalid): the regular reader and engine.
    Value document;
    if (!ParseJson(json, &document, error)) return false;
    if (sort_keys) document = SortKeysDeep(document);
    ++stats_.document_fallbacks;
    for (size_t i = 0; i < kind_.size(); ++i) {
      RunFallback(*kind_.fallbacks_[i], document, options, &results_[i]);
      ++stats_.fallback_runs;
    }
    return true;
  }
  s.cache.Reset(root);
  s.document_ready = false;
  EvalContext context{&s.cache, &options.limits, sort_keys, options.globals};
  for (size_t i = 0; i < kind_.size(); ++i) {
    ResolverResult& result = results_[i];
    if (kind_.views_[i] != nullptr) {
      result.outputs.clear();
      Evaluator evaluator(*kind_.views_[i], context);
      if (evaluator.Run(&result.outputs) == Flow::kContinue) {
        if (result.status == EvalStatus::kError) result.error = EvalError();  // the last object's
        result.status = EvalStatus::kOk;
        result.fused = true;
        ++stats_.fused_runs;
        continue;
      }
    }
    if (!s.document_ready) {
      s.document = ConvertView(root, sort_keys);
      s.document_ready = true;
    }
    RunFallback(*kind_.fallbacks_[i], s.document, options, &result);
    ++stats_.fallback_runs;
  }
  return true;
}

}  // namespace wm::view
