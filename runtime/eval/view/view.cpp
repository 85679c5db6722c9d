// The view evaluator (view.h): runs view programs (view_program.h) on simdjson DOM elements. A
// value is a DOM element (no copy), a computed scalar (number, boolean, null: no Value), a program
// constant, an array or object built of such values (Composite: constructions, to_entries,
// from_entries, object addition), or a Value where an operation needs one. Trie paths come from a
// per-runner cache (PathCache) reused across objects: each trie level filled by one scan of its
// object, each shared iteration listed once, with the paths below it kept per element. Resolvers
// that are one root path are answered from the cache without the evaluator. The evaluator never
// words an error: where jq would raise one outside a `try`, or a limit is reached, the resolver
// is rerun on the regular engine over the converted document, so messages and limits are exactly
// the engine's.
//
// The functions a fused run calls on every object are marked [[gnu::hot]] (as ParseDom and its
// tape check in json.cpp): GCC places them together in .text.hot, so that between two objects
// they and simdjson's parser evict fewer of each other's lines from the instruction cache
// (callgrind's cache model: 6 % fewer instruction-cache misses on trainjob).
#include "runtime/eval/view/view.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <unordered_map>
#include <type_traits>

#include "base/fn_ref.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"
#include "runtime/eval/view/view_program.h"
#include "runtime/value/json_dom.h"

namespace wm::view {

// What view.h names a composite output: the evaluator's Composite (below) is one.
struct ViewComposite {};

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

static_assert(sizeof(element) == 16 && std::is_trivially_copyable_v<element>,
              "ViewOutput stores a dom::element in 16 raw bytes");

// Depth for converting sub-documents: the DOM is at most json_dom::kMaxDomDepth deep.
constexpr int kConvertDepth = 512;

struct Composite;

// The jq kind of a DOM element, from the type byte simdjson's tape keeps in the top byte of the
// element's first tape word ('n', 't', 'f', 'l' / 'u' / 'd', '"', '[', '{'): one table load
// instead of element::type()'s switch (an indirect jump that the evaluator's mixed reads
// mispredict). The element is read as the tape reference it is (its document, its tape index).
struct TapeKinds {
  Kind of[256] = {};  // Null for anything else (never on a valid tape)
  constexpr TapeKinds() {
    of['t'] = Kind::True;
    of['f'] = Kind::False;
    of['l'] = of['u'] = of['d'] = Kind::Number;
    of['"'] = Kind::String;
    of['['] = Kind::Array;
    of['{'] = Kind::Object;
  }
};
constexpr TapeKinds kTapeKinds;
using json_dom::ElementAt;
using json_dom::TapeRef;
using json_dom::TapeRefOf;
inline Kind KindOfElement(element e) {
  const TapeRef ref = TapeRefOf(e);
  return kTapeKinds.of[ref.doc->tape[ref.index] >> 56];
}

// How many tape words a scalar takes, by type byte (a number's value is in the second); 0 for a
// container ('[', '{'), whose first word holds the index after its last.
struct TapeScalarWords {
  uint8_t of[256] = {};
  constexpr TapeScalarWords() {
    for (int t = 0; t < 256; ++t) of[t] = 1;
    of['l'] = of['u'] = of['d'] = 2;
    of['['] = of['{'] = 0;
  }
};
constexpr TapeScalarWords kTapeScalarWords;

// The key of the object member whose value is `value`, as the DOM string it is on the tape: the
// word just before the value's first (an object's tape is '{', then key, value, key, value, ...).
inline element KeyOfMember(element value) {
  const TapeRef ref = TapeRefOf(value);
  return ElementAt(ref.doc, ref.index - 1);
}

// The string a tape word of type '"' stands for: the word holds its offset in the document's
// string buffer, where its length (4 bytes) and its bytes are.
inline std::string_view TapeString(const simdjson::dom::document* doc, uint64_t word) {
  const uint8_t* at = doc->string_buf.get() + (word & 0x00FFFFFFFFFFFFFFull);
  uint32_t size;
  std::memcpy(&size, at, sizeof(size));
  return std::string_view(reinterpret_cast<const char*>(at + sizeof(size)), size);
}

// A DOM number's value in *out, read from its two tape words (type, then the 64 bits); false
// for an element that is no number. (Any element's next word is on the tape: the root's closing
// word comes after every element.)
inline bool TapeNumber(element e, double* out) {
  const TapeRef ref = TapeRefOf(e);
  const uint64_t* tape = ref.doc->tape.get();
  const uint64_t bits = tape[ref.index + 1];
  switch (tape[ref.index] >> 56) {
    case 'l': *out = static_cast<double>(static_cast<int64_t>(bits)); return true;
    case 'u': *out = static_cast<double>(bits); return true;
    case 'd': *out = std::bit_cast<double>(bits); return true;
    default: return false;
  }
}

// visit(key bytes, key size, value's tape index) for each member of a DOM object, in document
// order, read straight from simdjson's tape (a key's string word, then its value's words): what
// iterating dom::object gives, without building a key_value_pair and a string_view per member.
// The scans that look members up by key (FindField, the trie's fills) are the evaluator's most
// frequent loops: the string buffer's address and each value's word are read before `visit`,
// whose stores would otherwise make the compiler read them again per member.
template <class Visit>
inline void ForEachMember(element object, Visit visit) {
  const TapeRef ref = TapeRefOf(object);
  const uint64_t* tape = ref.doc->tape.get();
  const uint8_t* strings = ref.doc->string_buf.get();
  const size_t end = static_cast<uint32_t>(tape[ref.index]) - 1;  // the object's closing word
  for (size_t i = ref.index + 1; i < end;) {
    const uint64_t value = tape[i + 1];
    const uint8_t* key = strings + (tape[i] & 0x00FFFFFFFFFFFFFFull);  // its size (4 bytes), then its bytes
    uint32_t size;
    std::memcpy(&size, key, sizeof(size));
    visit(reinterpret_cast<const char*>(key + sizeof(size)), size, i + 1);
    const uint8_t words = kTapeScalarWords.of[value >> 56];
    i = words == 0 ? static_cast<uint32_t>(value) : i + 1 + words;
  }
}

// A value inside the evaluator, 24 bytes: a DOM element (no copy), a scalar the program computed
// (null, booleans, numbers: no Value built for comparisons, conditions and arithmetic), a program
// constant referred to (no reference count traffic per use), a Value the program built, the key
// of a DOM object's member (its bytes in the parse) or an array or object the program built whose
// members stay VVals (Composite: `{metadata: .metadata}` refers to the document, copies nothing).
class VVal {
 public:
  // The tags that own something (kOwned, kComposite) come last: Release tests one comparison.
  enum class Tag : uint8_t { kNull, kFalse, kTrue, kNumber, kDom, kRef, kKey, kOwned, kComposite };

  VVal() noexcept : number_(0) {}
  VVal(const VVal& other) noexcept : number_(0) { CopyFrom(other); }
  VVal(VVal&& other) noexcept : number_(0) { MoveFrom(&other); }
  VVal& operator=(const VVal& other) noexcept {
    if (this != &other) {
      Release();
      CopyFrom(other);
    }
    return *this;
  }
  VVal& operator=(VVal&& other) noexcept {
    if (this != &other) {
      Release();
      MoveFrom(&other);
    }
    return *this;
  }
  ~VVal() { Release(); }

  static VVal Dom(element e) {
    VVal v;
    v.tag_ = Tag::kDom;
    std::memcpy(v.dom_, &e, sizeof(element));
    return v;
  }
  static VVal Ref(const Value& constant) {
    VVal v;
    v.tag_ = Tag::kRef;
    v.ref_ = &constant;
    return v;
  }
  static VVal Of(Value x) {
    VVal v;
    v.tag_ = Tag::kOwned;
    new (&v.owned_) Value(std::move(x));
    return v;
  }
  static VVal Key(std::string_view key) {
    VVal v;
    v.tag_ = Tag::kKey;
    v.key_ = KeyBytes{key.data(), key.size()};
    return v;
  }
  // Takes a new Composite's only reference.
  static VVal Adopt(Composite* built) {
    VVal v;
    v.tag_ = Tag::kComposite;
    v.composite_ = built;
    return v;
  }
  static VVal Bool(bool b) {
    VVal v;
    v.tag_ = b ? Tag::kTrue : Tag::kFalse;
    return v;
  }
  static VVal Number(double d) {
    VVal v;
    v.tag_ = Tag::kNumber;
    v.number_ = d;
    return v;
  }

  // In place, without a temporary and the out-of-line move assignment (the cache's hot loop, and
  // the evaluator's reads of constants and computed scalars).
  void SetNull() { Release(); }
  void SetDom(element e) {
    Release();
    tag_ = Tag::kDom;
    std::memcpy(dom_, &e, sizeof(element));
  }
  void SetRef(const Value& constant) {
    Release();
    tag_ = Tag::kRef;
    ref_ = &constant;
  }
  void SetBool(bool b) {
    Release();
    tag_ = b ? Tag::kTrue : Tag::kFalse;
  }
  void SetNumber(double d) {
    Release();
    tag_ = Tag::kNumber;
    number_ = d;
  }
  // Takes a new Composite's only reference (Adopt, in place).
  void AdoptComposite(Composite* built) {
    Release();
    tag_ = Tag::kComposite;
    composite_ = built;
  }

  // A copy of `o` into this value, which holds nothing (null, just made): the tag and the whole
  // payload, with no release first and no dispatch on the tag but for the owning ones (a built
  // object's members, written once each).
  void InitCopy(const VVal& o) {
    if (o.tag_ >= Tag::kOwned) [[unlikely]] {
      CopyFrom(o);
      return;
    }
    tag_ = o.tag_;
    std::memcpy(dom_, o.dom_, sizeof(dom_));
  }
  Tag tag() const { return tag_; }
  // Where a view's tag and its element (document address, tape index) are: native fills write
  // views into the trie's places (native_view.h).
  static size_t TagOffset() { return offsetof(VVal, tag_); }
  static size_t DomOffset() { return offsetof(VVal, dom_); }
  bool is_dom() const { return tag_ == Tag::kDom; }
  bool is_composite() const { return tag_ == Tag::kComposite; }
  const Composite& composite() const { return *composite_; }  // precondition: is_composite()
  // For the one holder of a composite (refs == 1) that refills it in place.
  Composite& mutable_composite() const { return *composite_; }
  element dom() const {  // precondition: is_dom()
    element e;
    std::memcpy(static_cast<void*>(&e), dom_, sizeof(element));
    return e;
  }
  const void* dom_bytes() const { return dom_; }
  // The built or constant Value (precondition: kRef or kOwned).
  const Value& value() const { return tag_ == Tag::kRef ? *ref_ : owned_; }
  Kind kind() const {
    // The scalar tags are in Kind's order (Null, False, True, Number); the rest out of line.
    static_assert(static_cast<int>(Kind::Null) == 0 && static_cast<int>(Kind::False) == 1 &&
                  static_cast<int>(Kind::True) == 2 && static_cast<int>(Kind::Number) == 3);
    if (tag_ <= Tag::kNumber) return static_cast<Kind>(tag_);
    if (tag_ == Tag::kDom) return KindOfElement(dom());
    return KindOfOther();
  }
  double number() const;            // precondition: kind() == Number
  // A number computed, or on the tape, in *out without a call: false for anything else (a
  // constant, a string, a container), which number() and kind() answer out of line.
  bool CheapNumber(double* out) const {
    if (tag_ == Tag::kNumber) {
      *out = number_;
      return true;
    }
    return tag_ == Tag::kDom && TapeNumber(dom(), out);
  }
  double computed_number() const { return number_; }  // precondition: tag() == kNumber
  std::string_view string() const;  // precondition: kind() == String
  Value ToValue(bool sort_keys) const;

 private:
  // Inline for the tags that own nothing (most values: DOM views, scalars, constants).
  void Release() {
    if (tag_ >= Tag::kOwned) [[unlikely]] ReleaseOwned();
    tag_ = Tag::kNull;
  }
  [[gnu::noinline, gnu::hot]] void ReleaseOwned() {
    if (tag_ == Tag::kOwned) owned_.~Value();
    else Unref(composite_);
  }
  Kind KindOfOther() const;  // kind() of the tags after kNumber but kDom
  static void Unref(Composite* built);  // defined with Composite
  static void AddRef(Composite* built);
  // Copies only the payload the tag uses, in its own width: a 16-byte copy of a payload written as
  // 8 bytes would stall on store forwarding (the cache's hot path).
  void CopyPayload(const VVal& o) {
    switch (tag_) {
      case Tag::kDom: std::memcpy(dom_, o.dom_, sizeof(dom_)); break;
      case Tag::kNumber: number_ = o.number_; break;
      case Tag::kRef: ref_ = o.ref_; break;
      case Tag::kKey: key_ = o.key_; break;
      case Tag::kComposite:
        composite_ = o.composite_;
        AddRef(composite_);
        break;
      default: break;
    }
  }
  void CopyFrom(const VVal& o) {
    tag_ = o.tag_;
    if (tag_ == Tag::kOwned) new (&owned_) Value(o.owned_);
    else CopyPayload(o);
  }
  void MoveFrom(VVal* o) {
    tag_ = o->tag_;
    if (tag_ == Tag::kOwned) {
      new (&owned_) Value(std::move(o->owned_));
    } else if (tag_ == Tag::kComposite) {
      composite_ = o->composite_;  // the reference moves
      o->tag_ = Tag::kNull;
      return;
    } else {
      CopyPayload(*o);
    }
    o->Release();
  }
  struct KeyBytes {
    const char* data;
    size_t size;
  };

  Tag tag_ = Tag::kNull;
  union {
    alignas(8) unsigned char dom_[16];
    double number_;
    const Value* ref_;
    Value owned_;
    KeyBytes key_;
    Composite* composite_;
  };
};

// An array or object the program built, its members kept as VVals (DOM views stay views). An
// object's keys are strings and unique (a construction that repeats a key builds a Value instead,
// where MakeObject decides which one stays), in construction order. Reference counted by VVal;
// one evaluator (thread) owns it. An output holds a counted reference to it as it is
// (ViewOutput::OfComposite).
struct Composite : ViewComposite {
  uint32_t refs = 1;
  bool object = false;
  std::vector<VVal> items;  // array: the elements; object: key, value, key, value, ...
  size_t size() const { return object ? items.size() / 2 : items.size(); }
};

// Released composites kept per thread for reuse, their vectors keeping their capacity: a resolver
// run builds and drops several (`with_entries` alone makes one per entry), and malloc/free of them
// was a fifth of such a run. A composite output outlives its Run for as long as the caller holds
// it; one released after the thread's pool is gone (a runner destroyed at exit) is deleted instead.
struct CompositePool {
  static constexpr size_t kMaxKept = 256, kMaxItemsKept = 64;
  std::vector<Composite*> free;
  ~CompositePool();
};
thread_local CompositePool composite_pool;
thread_local bool composite_pool_gone = false;  // trivially destructible: readable at thread exit
CompositePool::~CompositePool() {
  composite_pool_gone = true;
  for (Composite* built : free) delete built;
  free.clear();
}

[[gnu::hot]] Composite* NewComposite(bool object) {
  Composite* built;
  if (composite_pool_gone || composite_pool.free.empty()) {
    built = new Composite();
  } else {
    built = composite_pool.free.back();
    composite_pool.free.pop_back();
  }
  built->object = object;
  return built;
}

[[gnu::hot]] void VVal::Unref(Composite* built) {
  if (--built->refs != 0) return;
  built->items.clear();  // may release nested composites into the pool
  if (!composite_pool_gone && composite_pool.free.size() < CompositePool::kMaxKept &&
      built->items.capacity() <= CompositePool::kMaxItemsKept) {
    built->refs = 1;
    composite_pool.free.push_back(built);
  } else {
    delete built;
  }
}
void VVal::AddRef(Composite* built) { ++built->refs; }

// The container of an element, by value: ranging over `get_object().value_unsafe()` directly
// would range over a member of a destroyed temporary.
simdjson::dom::array ArrayOf(element e) { return e.get_array().value_unsafe(); }

// The number of a Number element, as ConvertElement reads it, off the tape: the type byte of
// its first word ('l' int64, 'u' uint64, 'd' double) and the value's bits in the second.
// Precondition: `e` is a number.
inline double NumberOf(element e) {
  double number = 0;
  TapeNumber(e, &number);
  return number;
}

Value ConvertView(element e, bool sort_keys) {
  Value v;
  json_dom::ConvertElement(e, kConvertDepth, &v);
  if (sort_keys && (v.IsObject() || v.IsArray())) v = SortKeysDeep(v);
  return v;
}

[[gnu::hot]] Kind VVal::KindOfOther() const {
  switch (tag_) {
    case Tag::kKey: return Kind::String;
    case Tag::kComposite: return composite_->object ? Kind::Object : Kind::Array;
    default: return value().kind();
  }
}

[[gnu::hot]] double VVal::number() const {
  if (tag_ == Tag::kNumber) return number_;
  return tag_ == Tag::kDom ? NumberOf(dom()) : value().AsNumber();
}

[[gnu::hot]] std::string_view VVal::string() const {
  if (tag_ == Tag::kKey) return std::string_view(key_.data, key_.size);
  return tag_ == Tag::kDom ? dom().get_string().value_unsafe() : value().AsString();
}

Value CompositeToValue(const Composite& built, bool sort_keys) {
  if (!built.object) {
    Array elements;
    elements.reserve(built.items.size());
    for (const VVal& item : built.items) elements.push_back(item.ToValue(sort_keys));
    return Value::MakeArray(std::move(elements));
  }
  std::vector<Member> members;
  members.reserve(built.size());
  for (size_t i = 0; i < built.items.size(); i += 2) {
    members.emplace_back(built.items[i].ToValue(sort_keys), built.items[i + 1].ToValue(sort_keys));
  }
  return Value::MakeObject(std::move(members));
}

Value VVal::ToValue(bool sort_keys) const {
  switch (tag_) {
    case Tag::kNull: return Value();
    case Tag::kFalse: return Value::Bool(false);
    case Tag::kTrue: return Value::Bool(true);
    case Tag::kNumber: return Value::Number(number_);
    case Tag::kDom: return ConvertView(dom(), sort_keys);
    case Tag::kKey: return Value::String(string());
    case Tag::kComposite: return CompositeToValue(*composite_, sort_keys);
    default: return value();
  }
}

// Whether a value is null: the tag, or a view's tape word, without kind()'s call for the tags
// kept out of line (BuildObject's `select(.value != null)` test per member).
[[gnu::always_inline]] inline bool IsNull(const VVal& v) {
  switch (v.tag()) {
    case VVal::Tag::kNull: return true;
    case VVal::Tag::kDom: {
      const TapeRef ref = TapeRefOf(v.dom());
      return (ref.doc->tape[ref.index] >> 56) == 'n';
    }
    case VVal::Tag::kRef:
    case VVal::Tag::kOwned: return v.value().IsNull();
    default: return false;
  }
}

bool Truthy(const VVal& v) {
  Kind k = v.kind();
  return k != Kind::Null && k != Kind::False;
}

// Whether an array or object has no members (precondition: kind() is Array or Object).
// A DOM container's first tape word holds the index after its closing word: an empty one is two
// words.
[[gnu::hot]] bool IsEmptyContainer(const VVal& v) {
  if (v.is_dom()) {
    const TapeRef ref = TapeRefOf(v.dom());
    return static_cast<uint32_t>(ref.doc->tape[ref.index]) == ref.index + 2;
  }
  if (v.is_composite()) return v.composite().items.empty();
  return v.value().IsArray() ? v.value().AsArray().empty() : v.value().AsObject().empty();
}

// jq's order between two values; containers are compared as Values, except that an empty one
// sorts before every other of its kind (jq compares arrays element by element, objects by their
// sorted keys first), so `x != {}` converts nothing.
[[gnu::hot]] int CompareViews(const VVal& a, const VVal& b) {
  // Two numbers computed or on the tape (the status tests' counts): no kind dispatch.
  if (double x, y; a.CheapNumber(&x) && b.CheapNumber(&y)) return CompareNumbers(x, y);
  Kind ka = a.kind(), kb = b.kind();
  if (ka != kb) return ka < kb ? -1 : 1;
  if (ka == Kind::Array || ka == Kind::Object) {
    bool a_empty = IsEmptyContainer(a), b_empty = IsEmptyContainer(b);
    if (a_empty || b_empty) return a_empty == b_empty ? 0 : (a_empty ? -1 : 1);
    return Compare(a.ToValue(false), b.ToValue(false));
  }
  if (ka == Kind::Number) return CompareNumbers(a.number(), b.number());
  if (ka == Kind::String) {
    int r = a.string().compare(b.string());
    return r < 0 ? -1 : (r > 0 ? 1 : 0);
  }
  return 0;  // null, false, true: equal within their kind
}

// Whether comparison `op` (==, !=, <, <=, >, >=) holds for a CompareViews result.
[[gnu::hot]] bool ComparisonHolds(ir::BinaryOp op, int c) {
  switch (op) {
    case ir::BinaryOp::Eq: return c == 0;
    case ir::BinaryOp::Ne: return c != 0;
    case ir::BinaryOp::Lt: return c < 0;
    case ir::BinaryOp::Le: return c <= 0;
    case ir::BinaryOp::Gt: return c > 0;
    default: return c >= 0;
  }
}

// Whether `v OP constant` holds for a program constant: a string of the document against a
// string constant compares the bytes where the parse keeps them (for == and !=, the lengths
// first), without a VVal for the constant; anything else as CompareViews.
[[gnu::hot]] bool HoldsAgainstConstant(ir::BinaryOp op, const VVal& v, const Value& constant) {
  // A number against a number (`(.status.ready // 0) > 0`), read in line.
  if (double x; constant.IsNumber() && v.CheapNumber(&x)) return ComparisonHolds(op, CompareNumbers(x, constant.AsNumber()));
  // Against null, false or true (`.status.x != null`, `(.spec.suspend // false) == true`): the
  // kinds decide, as in CompareViews (each of the three is alone in its kind), without its calls.
  if (const Kind expected = constant.kind(); expected <= Kind::True) {
    const Kind kind = v.kind();
    return ComparisonHolds(op, kind == expected ? 0 : (kind < expected ? -1 : 1));
  }
  if ((op == ir::BinaryOp::Eq || op == ir::BinaryOp::Ne) && constant.IsObject() && constant.AsObject().empty()) {
    // `x != {}` (the catalog's resources test): only an empty object equals it.
    return (v.kind() == Kind::Object && IsEmptyContainer(v)) == (op == ir::BinaryOp::Eq);
  }
  if (v.is_dom() && constant.IsString()) {
    const TapeRef ref = TapeRefOf(v.dom());
    const uint64_t word = ref.doc->tape[ref.index];
    if ((word >> 56) == '"') {
      const std::string_view text = TapeString(ref.doc, word);
      const std::string_view expected = constant.AsString();
      if (op == ir::BinaryOp::Eq || op == ir::BinaryOp::Ne) {
        const bool equal =
            text.size() == expected.size() && std::memcmp(text.data(), expected.data(), text.size()) == 0;
        return equal == (op == ir::BinaryOp::Eq);
      }
      const int r = text.compare(expected);
      return ComparisonHolds(op, r < 0 ? -1 : (r > 0 ? 1 : 0));
    }
  }
  return ComparisonHolds(op, CompareViews(v, VVal::Ref(constant)));
}

using Field = std::pair<std::string_view, element>;

// Whether any two of `count` keys (key_at(i), string views) are equal: pairwise for the small
// objects of most documents (no copy), else through a sorted copy.
template <class KeyAt>
bool KeysRepeat(size_t count, KeyAt key_at) {
  if (count <= 16) {
    for (size_t i = 1; i < count; ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (key_at(i) == key_at(j)) return true;
      }
    }
    return false;
  }
  std::vector<std::string_view> keys;
  keys.reserve(count);
  for (size_t i = 0; i < count; ++i) keys.push_back(key_at(i));
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
}

// An object's members (read off the tape) in the evaluator's key order; false when a key repeats
// (ParseJson keeps one of them: the caller falls back rather than reproduce that here).
[[gnu::hot]] bool ObjectFields(element object, bool sort_keys, std::vector<Field>* fields) {
  const simdjson::dom::document* doc = TapeRefOf(object).doc;
  ForEachMember(object, [&](const char* key, uint32_t size, size_t value_index) {
    fields->emplace_back(std::string_view(key, size), ElementAt(doc, value_index));
  });
  if (!sort_keys) return !KeysRepeat(fields->size(), [&](size_t i) { return (*fields)[i].first; });
  std::vector<Field> by_key = *fields;
  std::sort(by_key.begin(), by_key.end(), [](const Field& a, const Field& b) { return a.first < b.first; });
  for (size_t i = 1; i < by_key.size(); ++i) {
    if (by_key[i - 1].first == by_key[i].first) return false;
  }
  if (sort_keys) *fields = std::move(by_key);
  return true;
}

// Whether two keys are equal: the length and the first byte inline (most keys of an object differ
// there), the rest through memcmp.
inline bool SameKey(const char* a, size_t a_size, const char* b, size_t b_size) {
  return a_size == b_size && (a_size == 0 || (a[0] == b[0] && std::memcmp(a, b, a_size) == 0));
}

// Whether a trie key equals a document member's key of the same size. Both must be readable 8
// bytes past their end: the trie's keys are kept padded (PathCache::key_bytes), and a document's
// keys are in simdjson's string buffer, which has SIMDJSON_PADDING after its last string. A key
// of up to 16 bytes (nearly every Kubernetes field name) is two 8-byte loads a side, no call.
inline bool SamePaddedKey(const char* trie_key, const char* member_key, uint32_t size) {
  uint64_t a, b;
  std::memcpy(&a, trie_key, 8);
  std::memcpy(&b, member_key, 8);
  if (size <= 8) return size == 0 || ((a ^ b) << (64 - 8 * size)) == 0;  // the first `size` bytes
  if (size > 16) return std::memcmp(trie_key, member_key, size) == 0;
  uint64_t a_end, b_end;  // the last 8 bytes, overlapping the first ones
  std::memcpy(&a_end, trie_key + size - 8, 8);
  std::memcpy(&b_end, member_key + size - 8, 8);
  return ((a ^ b) | (a_end ^ b_end)) == 0;
}

// A key's first min(size, 8) bytes as a word, the rest zero. The key must be readable 8 bytes
// past its start (SamePaddedKey's condition).
inline uint64_t KeyHead(const char* key, uint32_t size) {
  uint64_t word;
  std::memcpy(&word, key, 8);
  return size >= 8 ? word : word & ((uint64_t{1} << (8 * size)) - 1);  // size 0: 1 << 0 - 1 = 0
}

// object[key] of a DOM object: the value of its last member named `key` (as ParseJson keeps a
// repeated key), or null when there is none; *present (when given) tells which.
[[gnu::hot]] VVal FindField(element object, std::string_view key, bool* present = nullptr) {
  size_t found = 0;  // the value's tape index; 0: none (the root's index is 1 at the least)
  ForEachMember(object, [&](const char* data, uint32_t size, size_t value) {
    if (SameKey(data, size, key.data(), key.size())) found = value;
  });
  if (found == 0) return VVal();
  if (present != nullptr) *present = true;
  return VVal::Dom(ElementAt(TapeRefOf(object).doc, found));
}

// a OP b for numbers and + - * (what ops::Binary computes for two numbers).
double Arithmetic(ir::BinaryOp op, double a, double b) {
  switch (op) {
    case ir::BinaryOp::Add: return a + b;
    case ir::BinaryOp::Sub: return a - b;
    default: return a * b;
  }
}

enum class Flow : uint8_t { kContinue, kStop, kError, kBail };

using Cont = FnRef<Flow(const VVal&)>;

// Where one resolver's outputs go: appended to a buffer after its first `begin` entries (the
// outputs of the resolvers before it on this object).
struct OutputSink {
  std::vector<ViewOutput>* all;
  size_t begin;
  size_t count() const { return all->size() - begin; }
};

}  // namespace

// ---- the per-object cache of the trie's paths

// The value of every trie node the kind reads, per object: the absolute nodes filled when the
// object is parsed, each level by one scan of its object; each iteration's elements listed once,
// when first iterated (stamped with the object's generation), and the nodes below an iteration
// kept per element, filled when the element is first read. The buffers are reused across objects
// of any shape. The trie is copied into flat arrays (parents, owners, each node's keyed children
// with their key lengths) so that a fill touches a few contiguous cache lines, not the trie's
// strings and vectors.
struct PathCache {
  // kMissing: known to be null (the key is absent or its parent is null), value not stored.
  enum State : uint8_t { kUnknown = 0, kKnown = 1, kError = 2, kBail = 3, kMissing = 4 };
  // The nodes below an iteration are kept per element in two flat arrays, element-major
  // (`below_states[element * width + below_index[node]]`): listing the elements resets them all
  // to kUnknown with one fill, and `below_values` only grows (a stale value is never read: its
  // state says whether it is this object's). An element's fill first marks all its nodes
  // missing (one contiguous fill) and then writes the members it finds, so a read after it
  // never misses.
  struct Iteration {
    uint64_t stamp = 0;
    State state = kUnknown;
    bool not_iterable = false;  // kError because the parent's value is neither an array nor an object
    std::vector<element> elements;
    // The elements are an object's member values (`to_entries[] | .key` is each one's key, the
    // tape word before it: KeyOfMember), not an array's (`.key` is each one's index).
    bool object = false;
    uint32_t current = 0;  // the element the evaluator is at
    uint32_t width = 0;     // the nodes below the iteration (owned[iteration].size())
    std::vector<State> below_states;
    std::vector<VVal> below_values;
  };
  struct ChildKey {
    uint32_t id;
    uint32_t size;
    uint64_t head;     // the key's first 8 bytes (KeyHead): most members are told apart by it
    const char* data;  // the key's bytes in key_bytes, readable 8 bytes past the end (SamePaddedKey)
  };

  void Init(const PathTrie* trie, bool sort) {
    sort_keys = sort;
    size_t n = trie->nodes.size();
    parent.resize(n);
    owner.resize(n);
    fill_stack.resize(n);
    states.assign(n, kUnknown);
    values.resize(n);
    iterations.resize(n);
    below_index.assign(n, 0);
    owned.assign(n, {});
    children_begin.assign(n + 1, 0);
    inner_children_begin.assign(n + 1, 0);
    key_sizes.assign(n, 0);
    std::vector<size_t> key_offsets;  // children[i]'s key at key_bytes[key_offsets[i]]
    for (uint32_t id = 0; id < n; ++id) {
      const PathTrie::Node& node = trie->nodes[id];
      parent[id] = node.parent;
      owner[id] = node.owner;
      if (node.owner != 0 && node.owner != id) {
        below_index[id] = static_cast<uint32_t>(owned[node.owner].size());
        owned[node.owner].push_back(id);
      }
      children_begin[id] = static_cast<uint32_t>(children.size());
      inner_children_begin[id] = static_cast<uint32_t>(inner_children.size());
      for (uint32_t c : node.children) {
        const PathTrie::Node& child = trie->nodes[c];
        if (child.iteration) continue;
        // `data` is set once key_bytes is complete (its bytes may move while it grows).
        children.push_back({c, static_cast<uint32_t>(child.key.size()), 0, nullptr});
        key_offsets.push_back(key_bytes.size());
        key_bytes += child.key;
        key_bytes.append(8, '\0');
        key_sizes[id] |= uint64_t{1} << (child.key.size() & 63);
        const bool inner = std::any_of(child.children.begin(), child.children.end(),
                                       [&](uint32_t g) { return !trie->nodes[g].iteration; });
        if (inner) inner_children.push_back(c);
      }
    }
    children_begin[n] = static_cast<uint32_t>(children.size());
    inner_children_begin[n] = static_cast<uint32_t>(inner_children.size());
    for (size_t i = 0; i < children.size(); ++i) {
      children[i].data = key_bytes.data() + key_offsets[i];
      children[i].head = KeyHead(children[i].data, children[i].size);
    }
  }

  // A new object: every absolute node's state and value, from one descent of the document along
  // the trie (FillObject), after one contiguous fill marks them all missing. The resolvers of a
  // kind read nearly all of its trie, so filling it up front costs no more scans than filling
  // each parent on its first read, and leaves every read of an absolute node one load.
  void Reset(element root) {
    ++generation;
    std::fill(states.begin(), states.end(), kMissing);
    states[0] = kKnown;
    values[0] = VVal::Dom(root);
    if (native_fills != nullptr && native_fills[0] != nullptr) {
      RunNativeFill(native_fills[0], root, states.data(), values.data());
      return;
    }
    const auto absolute = [this](uint32_t c) { return Place{&states[c], &values[c]}; };
    FillObject(0, root, absolute);
  }

  const VVal& root() const { return values[0]; }

  // The value at trie node `id` (below an iteration: at its current element) in *out, or why not.
  // An absolute node, or a node below an iteration at an element already filled, is answered
  // inline; the rest is out of line.
  State Get(uint32_t id, VVal* out) {
    const uint32_t o = owner[id];
    if (o == 0) {
      return Read(states[id], values[id], out);
    } else if (o != id) {  // below an iteration, which is listed for this object (it is at an element)
      const Iteration& it = iterations[o];
      const size_t slot = BelowSlot(it, id, it.current);
      if (it.below_states[slot] != kUnknown) return Read(it.below_states[slot], it.below_values[slot], out);
    }
    return GetSlow(id, out);
  }

  // Get's miss: an iteration node, or a node below an iteration not read at its current element.
  [[gnu::noinline, gnu::hot]] State GetSlow(uint32_t id, VVal* out) {
    const uint32_t o = owner[id];
    Iteration& it = iterations[o];
    if (id == o) {
      *out = VVal::Dom(it.elements[it.current]);
      return kKnown;
    }
    // Not read yet at this element (Get answers the rest in line).
    FillElement(it, o, it.current);
    const size_t slot = BelowSlot(it, id, it.current);
    return Read(it.below_states[slot], it.below_values[slot], out);
  }

  // The value of absolute trie node `id` (not below an iteration) where it is kept, and its state:
  // Get without copying the value out (the path resolvers' loop).
  State GetAbsolute(uint32_t id, const VVal** out) {
    *out = &values[id];
    return states[id];
  }

  // The value of node `node` below an iteration at element `element` where it is kept, and its
  // state (kMissing: null), filled when not read there yet: Get without copying the value out
  // and without moving the iteration's current element (the path loop over each element).
  State GetBelow(uint32_t node, uint32_t element, const VVal** out) {
    Iteration& it = iterations[owner[node]];
    const size_t slot = BelowSlot(it, node, element);
    if (it.below_states[slot] == kUnknown) FillElement(it, owner[node], element);
    *out = &it.below_values[slot];
    return it.below_states[slot];
  }

  // The place of node `node` (below an iteration) at element `element` in the iteration's arrays.
  size_t BelowSlot(const Iteration& it, uint32_t node, uint32_t element) const {
    return static_cast<size_t>(element) * it.width + below_index[node];
  }

  static State Read(State state, const VVal& value, VVal* out) {
    if (state == kKnown) *out = value;
    if (state != kMissing) return state;
    out->SetNull();
    return kKnown;
  }

  // The elements of iteration node `id` for this object (arrays: in order; objects: the values in
  // the evaluator's key order), or why not. `optional` (`.[]?`): none, rather than the error,
  // where its parent's value is not iterable (the parent's own error stays one).
  State Elements(uint32_t id, const std::vector<element>** out, bool optional = false) {
    Iteration& it = iterations[id];
    if (it.stamp != generation) ListElements(id);
    *out = &it.elements;
    return optional && it.not_iterable ? kKnown : it.state;
  }

  bool sort_keys = false;
  uint64_t generation = 0;
  // Per trie node, its objects' native fill (FusedKind::native_fill_by_node_), null where the
  // tables fill them; null without native fills.
  const NativeFillFn* native_fills = nullptr;
  std::vector<uint32_t> parent, owner;
  // Absolute nodes (not below an iteration): `states` and `values`, set by Reset for each object
  // (a value is read only where the state is kKnown).
  std::vector<State> states;
  std::vector<VVal> values;
  std::vector<Iteration> iterations;
  std::vector<uint32_t> below_index;  // a node below an iteration: its place in owned[iteration]
  std::vector<uint32_t> children_begin;  // node id -> its keyed children in `children`
  std::vector<ChildKey> children;
  std::string key_bytes;  // the children's keys, each followed by 8 zero bytes
  // node id -> its keyed children that have keyed children in turn (the ones a fill descends into)
  std::vector<uint32_t> inner_children_begin;
  std::vector<uint32_t> inner_children;
  // node id -> bit (size % 64) set for each of its keyed children's key sizes: a member whose size
  // no child has is passed over with one test (most members of an object are not on the trie).
  std::vector<uint64_t> key_sizes;
  std::vector<std::vector<uint32_t>> owned;  // per iteration node: the nodes below it
  std::vector<Field> scratch_fields;
  // FillObject's objects still to scan: a trie node and its value's tape index.
  struct FillTask {
    uint32_t node;
    size_t index;
  };
  std::vector<FillTask> fill_stack;  // one place per trie node

  // Where a trie node's state and value are kept: for an absolute node, or for a node below an
  // iteration at one element.
  struct Place {
    State* state;
    VVal* value;
  };

  // Where element `index` of iteration `iteration` keeps its nodes (node n's state and value at
  // offset below_index[n]), filled first when not read there yet: flat code per element reads
  // them by offset, with no lookup of the node's iteration and slot per read.
  Place ElementNodes(uint32_t iteration, uint32_t index) {
    Iteration& it = iterations[iteration];
    const size_t first = static_cast<size_t>(index) * it.width;
    if (it.width == 0) return Place{nullptr, nullptr};
    if (it.below_states[first] == kUnknown) FillElement(it, iteration, index);
    return Place{it.below_states.data() + first, it.below_values.data() + first};
  }

 private:
  // The nodes below trie node `node`, whose value is `value` (a DOM element), as the document
  // holds them, top-down: each object's members on the trie found by one scan of it and written
  // to `place(child)`, a found object descended into. The nodes must all be marked missing
  // before: an absent one stays so, and a node under a string, number, boolean or array is an
  // error (indexing it fails). A loop over a stack of the objects still to scan (fill_stack,
  // sized to the trie: each node is pushed at most once, by its parent's scan), not recursion:
  // a kind's fill descends a dozen objects per element or document, and each call saved its
  // registers and reloaded the document's tape and strings.
  template <class PlaceOf>
  [[gnu::hot]] void FillObject(uint32_t node, element value, PlaceOf place) {
    const TapeRef ref = TapeRefOf(value);
    const simdjson::dom::document* doc = ref.doc;
    const uint64_t* tape = doc->tape.get();
    FillTask* stack = fill_stack.data();
    size_t pending = 0;
    stack[pending++] = FillTask{node, ref.index};
    while (pending > 0) {
      const FillTask task = stack[--pending];
      const uint64_t open = tape[task.index];
      const Kind kind = kTapeKinds.of[open >> 56];
      if (kind != Kind::Object) {
        if (kind != Kind::Null) MarkBelow(task.node, kError, place);
        continue;
      }
      const ChildKey* first = children.data() + children_begin[task.node];
      const ChildKey* last = children.data() + children_begin[task.node + 1];
      const uint64_t sizes = key_sizes[task.node];
      // The members in document order (a repeated key is found again: the last one is ParseJson's).
      ForEachMember(ElementAt(doc, task.index), [&](const char* data, uint32_t size, size_t value_index) {
        if (((sizes >> (size & 63)) & 1) == 0) return;
        // Children of the member's size are told apart by their first 8 bytes, one compare each
        // (the keys of a status or spec often share a size); only a longer key compares the rest.
        const uint64_t head = KeyHead(data, size);
        for (const ChildKey* c = first; c != last; ++c) {
          if (c->size == size && c->head == head && (size <= 8 || SamePaddedKey(c->data, data, size))) {
            const Place at = place(c->id);
            *at.state = kKnown;
            at.value->SetDom(ElementAt(doc, value_index));
            return;  // the children's keys differ
          }
        }
      });
      // After the scan, not during it: a repeated key's last value is the one descended into.
      for (uint32_t k = inner_children_begin[task.node]; k < inner_children_begin[task.node + 1]; ++k) {
        const uint32_t c = inner_children[k];
        const Place at = place(c);
        if (*at.state == kKnown) stack[pending++] = FillTask{c, TapeRefOf(at.value->dom()).index};  // absent: stays missing
      }
    }
  }
  // Every node below `node` set to `state`.
  template <class PlaceOf>
  void MarkBelow(uint32_t node, State state, PlaceOf place) {
    for (uint32_t i = children_begin[node]; i < children_begin[node + 1]; ++i) {
      const uint32_t c = children[i].id;
      *place(c).state = state;
      MarkBelow(c, state, place);
    }
  }

  // The native fill of the object (or other element) `value`, into places numbered as the plan
  // (FusedKind's) numbered them: absolute nodes by id, nodes below an iteration by below_index.
  static void RunNativeFill(NativeFillFn fill, element value, State* states_at, VVal* values_at) {
    const TapeRef ref = TapeRefOf(value);
    fill(ref.doc->tape.get(), ref.doc->string_buf.get(), ref.index, reinterpret_cast<uint8_t*>(states_at),
         reinterpret_cast<unsigned char*>(values_at), ref.doc);
  }

  // Every node below an iteration at its element `index`, as Reset does for the absolute nodes.
  // The resolvers over an iteration read most of what the kind reads below it, at every element;
  // filling it all at once costs no lookup up the trie per level.
  [[gnu::hot]] void FillElement(Iteration& it, uint32_t iteration, uint32_t index) {
    State* states_at = it.below_states.data() + static_cast<size_t>(index) * it.width;
    VVal* values_at = it.below_values.data() + static_cast<size_t>(index) * it.width;
    std::fill(states_at, states_at + it.width, kMissing);
    if (native_fills != nullptr && native_fills[iteration] != nullptr) {
      RunNativeFill(native_fills[iteration], it.elements[index], states_at, values_at);
      return;
    }
    // The element's places, found from its first one by offset (the arrays are sized: no
    // reallocation during the fill).
    const uint32_t* offsets = below_index.data();
    FillObject(iteration, it.elements[index], [states_at, values_at, offsets](uint32_t c) {
      return Place{states_at + offsets[c], values_at + offsets[c]};
    });
  }

  [[gnu::hot]] void ListElements(uint32_t id) {
    Iteration& it = iterations[id];
    it.stamp = generation;
    it.elements.clear();
    it.object = false;
    it.not_iterable = false;
    VVal value;
    it.state = Get(parent[id], &value);
    if (it.state == kKnown) {
      Kind kind = value.kind();
      if (kind == Kind::Array && value.is_dom()) {
        for (element child : ArrayOf(value.dom())) it.elements.push_back(child);
      } else if (kind == Kind::Object && value.is_dom()) {
        scratch_fields.clear();
        if (!ObjectFields(value.dom(), sort_keys, &scratch_fields)) it.state = kBail;
        for (const Field& field : scratch_fields) it.elements.push_back(field.second);
        it.object = true;
      } else {
        it.state = kError;  // `null | .[]` and scalars: "Cannot iterate over ..."
        it.not_iterable = true;
      }
    }
    it.width = static_cast<uint32_t>(owned[id].size());
    const size_t slots = static_cast<size_t>(it.width) * it.elements.size();
    it.below_states.assign(slots, kUnknown);
    if (it.below_values.size() < slots) it.below_values.resize(slots);
  }
};

namespace {

static_assert(offsetof(json_dom::TapeRef, doc) == 0 && offsetof(json_dom::TapeRef, index) == 8,
              "FillPlan: a view's element is its document's address, then its tape index");

// The kind's fills as a plan for native code (native_view.h): the document's root and each
// iteration node with keyed nodes below it, those nodes in a tree, each with the place the path
// cache keeps it at (an absolute node's id, a node below an iteration's below_index).
// `below_index`: PathCache's numbering of the nodes below iterations (PathCache::Init's).
FillPlan MakeFillPlan(const PathTrie& trie, const std::vector<uint32_t>& below_index) {
  FillPlan plan;
  plan.value_size = sizeof(VVal);
  plan.tag_offset = static_cast<uint32_t>(VVal::TagOffset());
  plan.view_offset = static_cast<uint32_t>(VVal::DomOffset());
  plan.view_tag = static_cast<uint8_t>(VVal::Tag::kDom);
  plan.known_state = PathCache::kKnown;
  plan.error_state = PathCache::kError;
  plan.missing_state = PathCache::kMissing;
  plan.falsy_tags = static_cast<uint8_t>(VVal::Tag::kTrue);
  plan.null_tag = static_cast<uint8_t>(VVal::Tag::kNull);
  plan.number_tag = static_cast<uint8_t>(VVal::Tag::kNumber);
  plan.constant_tag = static_cast<uint8_t>(VVal::Tag::kRef);
  static_assert(VVal::Tag::kNull < VVal::Tag::kFalse && VVal::Tag::kFalse < VVal::Tag::kTrue &&
                    VVal::Tag::kTrue < VVal::Tag::kNumber && VVal::Tag::kNumber < VVal::Tag::kDom,
                "FillPlan: null and false, then true and numbers, then views");
  const auto add_root = [&](uint32_t root) {
    FillPlan::Root fill;
    fill.trie_node = root;
    fill.nodes.emplace_back();
    std::vector<std::pair<uint32_t, uint32_t>> pending{{root, 0}};  // trie node, its index in fill.nodes
    while (!pending.empty()) {
      const auto [id, at] = pending.back();
      pending.pop_back();
      for (uint32_t c : trie.nodes[id].children) {
        if (trie.nodes[c].iteration) continue;  // a fill root of its own
        const uint32_t index = static_cast<uint32_t>(fill.nodes.size());
        fill.nodes.push_back({trie.nodes[c].key, root == 0 ? c : below_index[c], {}});
        fill.nodes[at].children.push_back(index);
        pending.emplace_back(c, index);
      }
    }
    if (fill.nodes.size() > 1) plan.roots.push_back(std::move(fill));
  };
  add_root(0);
  for (uint32_t id = 1; id < trie.nodes.size(); ++id) {
    if (trie.nodes[id].iteration) add_root(id);
  }
  return plan;
}

// Sub-documents of the current object converted into Values, each once: the inputs of builtins
// run on converted values (`to_entries`, `keys`, ...) and of split tails. Resolvers of one kind
// often convert the same node (`.spec.services | to_entries[] | ...` in a dozen resolvers), and
// a conversion copies the whole sub-tree. Keyed by the element's bytes (its place in this parse);
// cleared for each object. A Value copy shares the converted tree.
class ConvertedDocuments {
 public:
  // An empty map is not cleared: clear() empties its buckets, a memset per object.
  void Clear() {
    if (!converted_.empty()) converted_.clear();
  }
  Value Of(const void* element_bytes, bool sort_keys, uint64_t* conversions) {
    Key key;
    std::memcpy(&key, element_bytes, sizeof(key));
    auto [it, inserted] = converted_.try_emplace(key);
    if (inserted) {
      element e;
      std::memcpy(static_cast<void*>(&e), element_bytes, sizeof(element));
      it->second = ConvertView(e, sort_keys);
      ++*conversions;
    }
    return it->second;
  }

 private:
  struct Key {
    uint64_t words[2];
    bool operator==(const Key& other) const { return words[0] == other.words[0] && words[1] == other.words[1]; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.words[0] * 0x9E3779B97F4A7C15ull ^ k.words[1]); }
  };
  std::unordered_map<Key, Value, KeyHash> converted_;
};

// The registers of flat code (FlatCode): what each points at, and a place per register for the
// values the code computes itself (a constant's reference, a kTree node's output). Kept by the
// runner across objects, sized for the kind's largest code.
struct FlatRegisters {
  std::vector<const VVal*> at;
  std::vector<VVal> scratch;
};

// The values of the kind's shared subexpressions (VNode::memo) on the current object. A slot has
// one place for a value of the object (made with the runner), or one per element for a value
// below an iteration (listed at its first use on the object); its places are this object's when
// its stamp is the PathCache generation of this object (set, and the places emptied, at that
// first use).
struct SubexpressionMemo {
  struct Slot {
    uint32_t iteration = 0;  // 0: the object's; else the iteration node of the element
    uint64_t stamp = 0;
    std::vector<uint8_t> known;  // per place
    std::vector<VVal> values;
  };
  std::vector<Slot> slots;
  // The (slot, place) pairs holding a built array or object: released at the end of the run, as
  // no composite outlives the run that built it (CompositePool).
  std::vector<std::pair<uint32_t, uint32_t>> composites;

  void Keep(uint32_t slot, uint32_t place, const VVal& value) {
    slots[slot].values[place] = value;
    if (value.is_composite()) composites.emplace_back(slot, place);
  }
  void ReleaseComposites() {
    for (auto [slot, place] : composites) {
      slots[slot].values[place] = VVal();
      slots[slot].stamp = 0;  // not this object's any more
    }
    composites.clear();
  }
};

// The last few constant-key lookups on DOM objects (`.type`, read three times from each
// condition by `(.type == "A" or .type == "B" or .type == "C") and .status == "True"`): a lookup
// scans the whole object (a repeated key keeps its last value), so its answer is kept, keyed by
// the object (its element's bytes: its place in this parse), the key's bytes and the object's
// generation (PathCache::generation: an entry of an earlier parse never matches). Direct-mapped,
// kept by the runner across objects (nothing to reset per object).
class MemberLookups {
 public:
  [[gnu::hot]] VVal LookUp(element object, std::string_view key, uint64_t generation) {
    uint64_t place[2];
    std::memcpy(place, static_cast<const void*>(&object), sizeof(place));
    const uint64_t first = key.empty() ? 0 : static_cast<unsigned char>(key[0]);
    Entry& entry = entries_[(((place[1] << 16) ^ (first << 8) ^ key.size()) * 0x9E3779B97F4A7C15ull) >> (64 - kBits)];
    if (entry.generation == generation && entry.object[0] == place[0] && entry.object[1] == place[1] &&
        entry.key == key) {
      return entry.value;
    }
    entry.generation = generation;
    entry.object[0] = place[0];
    entry.object[1] = place[1];
    entry.key = key;  // a VNode's key: the program outlives the runner's entries' use
    entry.value = FindField(object, key);
    return entry.value;
  }

 private:
  static constexpr int kBits = 6;
  struct Entry {
    uint64_t generation = 0;  // 0: empty (generations start at 1)
    uint64_t object[2] = {0, 0};
    std::string_view key;
    VVal value;
  };
  Entry entries_[1 << kBits];
};

struct EvalContext {
  PathCache* paths;
  SubexpressionMemo* memo;
  const EvalLimits* limits;
  bool sort_keys;
  const std::vector<Value>* globals;  // RunOptions::globals: the first slots, as the interpreter
  ConvertedDocuments* converted;      // this object's converted sub-documents
  uint64_t* conversions;              // FusedStats::split_conversions
  MemberLookups* member_lookups;
};

// `type`'s output for each kind, as constants the evaluator refers to (no string built per use).
const Value& TypeNameOf(Kind kind) {
  static const Value kNames[] = {Value::String(KindName(Kind::Null)),   Value::String(KindName(Kind::True)),
                                 Value::String(KindName(Kind::Number)), Value::String(KindName(Kind::String)),
                                 Value::String(KindName(Kind::Array)),  Value::String(KindName(Kind::Object))};
  switch (kind) {
    case Kind::Null: return kNames[0];
    case Kind::False:
    case Kind::True: return kNames[1];
    case Kind::Number: return kNames[2];
    case Kind::String: return kNames[3];
    case Kind::Array: return kNames[4];
    case Kind::Object: return kNames[5];
  }
  return kNames[0];
}

Flow FlowOf(PathCache::State state) {
  return state == PathCache::kError ? Flow::kError : Flow::kBail;
}

// The values flat code's registers point at for the booleans it computes and a missing path.
const VVal kNullValue, kTrueValue = VVal::Bool(true), kFalseValue = VVal::Bool(false);

// Runs view programs on one object after another; its buffers are reused across runs.
class Evaluator {
 public:
  explicit Evaluator(const EvalContext& context) : cx_(context), budget_(*context.limits) {}

  Flow Run(const ViewProgram& program, OutputSink outputs) {
    Begin(program);
    if (program.nodes[program.root].single) {  // one output (or an error): no continuation
      VVal v;
      const Flow f = Single(program.root, cx_.paths->root(), &v);
      return f == Flow::kContinue ? Emit(v, outputs) : f;
    }
    return Eval(program.root, cx_.paths->root(), [&](const VVal& v) { return Emit(v, outputs); });
  }

  // Runs `program` through its flat code (Flatten): the same outputs, errors and bails as Run.
  // The registers point at the values they hold where those are kept (the trie's, a memo slot's,
  // a constant's, one of `registers`' scratch places), so a read copies nothing.
  [[gnu::always_inline]] Flow RunFlat(const ViewProgram& program, const FlatCode& code, FlatRegisters* registers, OutputSink outputs) {
    Begin(program);
    registers->at[0] = &cx_.paths->root();
    const VVal* value;
    Flow f = Bind(code, registers);
    if (f == Flow::kContinue) f = Exec(code, 0, registers, &value);
    if (f == Flow::kError && failed_at_ >= code.catch_from) [[unlikely]] {
      ReleaseBuilt(code, registers);
      return Flow::kContinue;  // `try B`'s body failed: no output
    }
    if (f == Flow::kContinue) f = Emit(*value, outputs);
    ReleaseBuilt(code, registers);
    return f;
  }
  // `E as $x | ...` (FlatCode::bind_slot): E's code, on the program's input (the object) in
  // register 0, into the variable's slot, once before the body's code.
  Flow Bind(const FlatCode& code, FlatRegisters* registers) {
    if (code.bind_slot == FlatCode::kNoSlot) [[likely]] return Flow::kContinue;
    if (code.bind_slot >= slots_.size()) return Flow::kBail;
    registers->at[0] = &cx_.paths->root();
    const VVal* bound;
    const Flow f = Exec(code, code.bind_entry, registers, &bound);
    if (f == Flow::kContinue) slots_[code.bind_slot] = *bound;
    return f;
  }
  // A built array or object is not kept past its run (the output holds its own reference).
  static void ReleaseBuilt(const FlatCode& code, FlatRegisters* registers) { ReleaseBuilt(code, registers->scratch.data()); }
  static void ReleaseBuilt(const FlatCode& code, VVal* scratch) {
    for (uint32_t r : code.built_registers) {
      if (scratch[r].is_composite()) scratch[r].SetNull();
    }
  }

  // Flat code run on each element of its iteration (FlatCode::each_iteration): what the tree's
  // `.a[] | f` gives, f's value per element, with the same steps per element. What an element
  // built stays in its registers until the next element's code writes them (each element's code
  // writes a register before it reads it) or the run ends.
  [[gnu::noinline, gnu::hot]] Flow RunFlatEach(const ViewProgram& program, const FlatCode& code, FlatRegisters* registers,
                                     OutputSink outputs) {
    Begin(program);
    if (const Flow f = Bind(code, registers); f != Flow::kContinue) {
      ReleaseBuilt(code, registers);
      return f;
    }
    VVal element_value;
    PathCache& paths = *cx_.paths;
    const PathCache::Iteration& it = paths.iterations[code.each_iteration];
    const Flow flow = EachElement(code.each_iteration, code.each_optional, [&](element e) {
      element_value.SetDom(e);
      registers->at[0] = &element_value;
      element_nodes_ = paths.ElementNodes(code.each_iteration, it.current);
      const VVal* value;
      const Flow f = Exec(code, 0, registers, &value);
      return f == Flow::kContinue ? Emit(*value, outputs) : f;
    });
    ReleaseBuilt(code, registers);
    return flow;
  }

  // A program's native code (native_view.h) in place of its flat code's Exec (RunFlat or
  // RunFlatEach): the same values, error or bail, and the same Emits; *declined (and nothing
  // emitted) where the code leaves the program to Exec.
  [[gnu::always_inline]] Flow RunNative(const FlatCode& code, NativeProgramFn native, const void* const* table,
                                        FlatRegisters* registers, OutputSink outputs, bool* declined) {
    NativeProgramArgs args = NativeArgs(registers);
    args.table = table;
    if (code.each_iteration != 0) [[unlikely]] return RunNativeEach(code, native, &args, outputs, declined);
    const void* value;
    BeginNative();
    Flow f;
    switch (native(&args, &value)) {
      case kNativeContinue: f = Emit(*static_cast<const VVal*>(value), outputs); break;
      case kNativeError: f = Flow::kError; break;
      case kNativeCaught: f = Flow::kContinue; break;  // `try B`'s body failed: no output (RunFlat)
      case kNativeDecline: *declined = true; f = Flow::kContinue; break;
      default: f = Flow::kBail; break;
    }
    if (code.builds_objects) [[unlikely]] ReleaseBuilt(code, registers);
    return f;
  }
  // What native code reads of this object and evaluator, the same for every program of the object
  // but its table (the caller sets `table`): built once per object by a runner that runs several.
  NativeProgramArgs NativeArgs(FlatRegisters* registers) {
    const PathCache& paths = *cx_.paths;
    const TapeRef root = TapeRefOf(paths.root().dom());
    return NativeProgramArgs{reinterpret_cast<const uint8_t*>(paths.states.data()),
                             reinterpret_cast<const unsigned char*>(paths.values.data()),
                             root.doc->tape.get(),
                             root.doc->string_buf.get(),
                             nullptr,
                             &kNativeHelpers,
                             this,
                             root.doc,
                             std::min<uint64_t>(cx_.limits->fuel, eval_internal::StepBudget::kSlice),
                             &paths.root(),
                             nullptr,
                             nullptr,
                             reinterpret_cast<unsigned char*>(registers->scratch.data())};
  }
  // A program's one output, as Emit appends it, written over *out (the output this resolver had
  // on the last object: the runner's places for single-output native programs). Native code
  // returns the value it ends with, so the runner sets it in place without an Emit.
  void SetOutput(const VVal& v, ViewOutput* out) const {
    OutputOf(v, [out](auto&&... made) { *out = ViewOutput(std::forward<decltype(made)>(made)...); });
  }
  // RunFlatEach's loop around native code per element: each element's places filled first, its
  // value one output. The steps Exec could take (a step per element, then each element's code)
  // must fit in the budget's first slice: each element's code gets an equal share of it. A bound
  // variable's code runs in each element's (its value is the same each time); since RunFlatEach
  // runs it before listing the elements, a program that binds declines where there is no element
  // to run it in.
  [[gnu::noinline]] Flow RunNativeEach(const FlatCode& code, NativeProgramFn native, NativeProgramArgs* args,
                                       OutputSink outputs, bool* declined) {
    PathCache& paths = *cx_.paths;
    const std::vector<element>* elements;
    const PathCache::State state = paths.Elements(code.each_iteration, &elements, code.each_optional);
    const bool binds = code.bind_slot != FlatCode::kNoSlot;
    const size_t count = state == PathCache::kKnown ? elements->size() : 0;
    if (binds && count == 0) {
      *declined = true;
      return Flow::kContinue;
    }
    if (state != PathCache::kKnown) return FlowOf(state);
    if (count == 0) return Flow::kContinue;
    if (args->step_limit / count < 1 + code.straight_steps) {
      *declined = true;
      return Flow::kContinue;
    }
    args->step_limit = args->step_limit / count - 1;
    PathCache::Iteration& it = paths.iterations[code.each_iteration];
    const uint32_t saved = it.current;
    BeginNative();  // one run over every element, as RunFlatEach's Begin charges it
    VVal element_value;
    Flow f = Flow::kContinue;
    for (uint32_t e = 0; e < count && f == Flow::kContinue; ++e) {
      it.current = e;
      element_value.SetDom((*elements)[e]);
      const PathCache::Place places = paths.ElementNodes(code.each_iteration, e);
      args->input = &element_value;
      args->below_states = reinterpret_cast<const uint8_t*>(places.state);
      args->below_values = reinterpret_cast<const unsigned char*>(places.value);
      const void* value;
      switch (native(args, &value)) {
        case kNativeContinue: f = Emit(*static_cast<const VVal*>(value), outputs); break;
        case kNativeError: f = Flow::kError; break;
        case kNativeDecline:
          outputs.all->resize(outputs.begin);  // Exec runs it all again
          *declined = true;
          it.current = saved;
          return Flow::kContinue;
        default: f = Flow::kBail; break;
      }
    }
    it.current = saved;
    if (code.builds_objects) ReleaseBuilt(code, reinterpret_cast<VVal*>(args->scratch));
    return f;
  }
  // NativeViewHelpers' memo reads and writes: Exec's kMemoLoad and kMemoStore (a slot of the object).
  static const void* NativeMemoLoad(void* evaluator, uint32_t slot) {
    return static_cast<Evaluator*>(evaluator)->KnownInMemo(slot);
  }
  static const void* NativeMemoStore(void* evaluator, uint32_t slot, const void* value) {
    SubexpressionMemo& memo = *static_cast<Evaluator*>(evaluator)->cx_.memo;
    memo.slots[slot].known[0] = 1;
    memo.Keep(slot, 0, *static_cast<const VVal*>(value));
    return &memo.slots[slot].values[0];
  }
  // A helper's Flow as native code's status.
  static int32_t NativeStatusOf(Flow f) {
    return f == Flow::kContinue ? kNativeContinue : (f == Flow::kError ? kNativeError : kNativeBail);
  }
  // NativeViewHelpers' kObject and kSumIsEmpty: Exec's BuildObject (without steps: native code
  // runs only where Exec's would fit) and SumIsEmpty's test of two objects.
  static int32_t NativeBuildObject(void* evaluator, uint32_t count, const void* const* keys, const void* const* values,
                                   uint32_t op, const void* against, void* place) {
    const Flow f = static_cast<Evaluator*>(evaluator)->BuildObjectOf<false>(
        count, [keys](uint32_t m) -> const Value& { return *static_cast<const Value*>(keys[m]); },
        [values](uint32_t m) -> const VVal& { return *static_cast<const VVal*>(values[m]); },
        static_cast<ir::BinaryOp>(op), static_cast<const Value*>(against), static_cast<VVal*>(place));
    return NativeStatusOf(f);
  }
  static int32_t NativeSumIsEmpty(const void* a, const void* b) {
    bool empty;
    if (!SumOfObjectsIsEmpty(*static_cast<const VVal*>(a), *static_cast<const VVal*>(b), &empty)) return kNativeDecline;
    return empty ? 1 : 0;
  }
  // NativeViewHelpers' kToNumber: Exec's ToNumberOf.
  static int32_t NativeToNumber(const void* value, void* place, const void** result) {
    const VVal* out;
    const Flow f = ToNumberOf(*static_cast<const VVal*>(value), static_cast<VVal*>(place), &out);
    *result = out;
    return NativeStatusOf(f);  // continue or error
  }
  // NativeViewHelpers' kLength: Exec's LengthOf.
  static int32_t NativeLength(const void* value, void* place) {
    const Flow f = LengthOf(*static_cast<const VVal*>(value), static_cast<VVal*>(place));
    return NativeStatusOf(f);
  }
  // Native code charges what it builds to the run it is (Begin starts Exec's).
  void BeginNative() { memory_ = 0; }
  static const NativeViewHelpers kNativeHelpers;

  // Appends one output, built in place; reaching the output limit is the engine's error: let it
  // report it. A view stays a view, a scalar the program computed (a missing path's null) needs no
  // conversion call, and a built array or object is output as it is (a counted reference).
  // The tags of nearly every output (a view, a computed scalar, a constant that is no array or
  // object) are written here by their tag, with no call: a kind's small programs each end in one
  // Emit, which was about a quarter of their time.
  [[gnu::hot]] Flow Emit(const VVal& v, OutputSink outputs) const {
    if (outputs.count() + 1 >= cx_.limits->max_outputs) return Flow::kBail;
    std::vector<ViewOutput>& all = *outputs.all;
    OutputOf(v, [&all](auto&&... made) { all.emplace_back(std::forward<decltype(made)>(made)...); });
    return Flow::kContinue;
  }
  // The output of value `v`, by its tag: `make` is called with a ViewOutput constructor's
  // arguments (Emit builds it in place in the buffer, SetOutput over an output).
  template <class Make>
  [[gnu::always_inline]] void OutputOf(const VVal& v, const Make& make) const {
    switch (v.tag()) {
      case VVal::Tag::kDom: make(v.dom_bytes(), cx_.sort_keys); break;
      case VVal::Tag::kNull: make(); break;
      case VVal::Tag::kFalse: make(Value::Bool(false)); break;
      case VVal::Tag::kTrue: make(Value::Bool(true)); break;
      case VVal::Tag::kNumber: make(Value::Number(v.computed_number())); break;
      case VVal::Tag::kRef:
        if (const Value& constant = v.value(); !constant.IsArray() && !constant.IsObject()) {
          make(constant);  // as ToValue gives it: a scalar or string is itself in any key order
          break;
        }
        [[fallthrough]];
      default: make(BuiltOutput(v)); break;
    }
  }
  // Emit's strings, arrays and objects: a built array or object as it is (a counted reference),
  // anything else as its Value.
  ViewOutput BuiltOutput(const VVal& v) const {
    if (!v.is_composite()) return ViewOutput(v.ToValue(cx_.sort_keys));
    Composite& built = v.mutable_composite();
    ++built.refs;  // the output's reference
    return ViewOutput::OfComposite(&built, cx_.sort_keys);
  }

 private:
  // Flat code from instruction `pc` to its kReturn, whose register's value is *value. Threaded
  // (GCC's and Clang's computed goto): each handler ends in a jump of its own to the next
  // instruction's, so the CPU predicts each from the handler it ends (a read is mostly followed
  // by a read, a test by a branch), not one shared indirect jump for every instruction as a
  // switch compiles to. A step is charged per instruction, as before.
  [[gnu::hot]] Flow Exec(const FlatCode& flat, size_t pc, FlatRegisters* registers, const VVal** value) {
    static void* const kHandlers[] = {
        &&op_const,     &&op_path,          &&op_path,           &&op_path_below, &&op_compare,
        &&op_compare_const, &&op_arith,     &&op_not,            &&op_truthy,     &&op_set_bool,
        &&op_move,      &&op_jump,          &&op_jump_if_falsy,  &&op_jump_if_truthy, &&op_memo_load,
        &&op_memo_store, &&op_tree,         &&op_field,          &&op_field_compare, &&op_any_all,
        &&op_object,    &&op_var,           &&op_sum_is_empty,   &&op_first_where, &&op_to_number, &&op_length,
        &&op_return};
    static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) == static_cast<size_t>(FlatOp::kReturn) + 1,
                  "a handler per FlatOp, in its order");
    const FlatInstr* code = flat.code.data();
    const VVal** reg = registers->at.data();
    VVal* scratch = registers->scratch.data();
    const FlatInstr* i = code + pc;
    Flow f;
// The instruction at i, after its step; the next one; the one at index `target`.
#define WM_FLAT_DISPATCH()                                  \
  do {                                                      \
    if (!Step()) return Flow::kBail;                        \
    goto* kHandlers[static_cast<size_t>(i->op)];            \
  } while (0)
#define WM_FLAT_NEXT() \
  do {                 \
    ++i;               \
    WM_FLAT_DISPATCH(); \
  } while (0)
#define WM_FLAT_GOTO(target) \
  do {                       \
    i = code + (target);     \
    WM_FLAT_DISPATCH();      \
  } while (0)
    WM_FLAT_DISPATCH();
  op_const:
    scratch[i->r].SetRef(Const(i->a));
    reg[i->r] = &scratch[i->r];
    WM_FLAT_NEXT();
  op_path: {  // kPath and kPathOrConst
    const VVal* read;
    const PathCache::State state = cx_.paths->GetAbsolute(i->a, &read);
    f = TakeRead(state, read, i->op == FlatOp::kPathOrConst ? i->b : kNoConst, &scratch[i->r], &reg[i->r]);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  }
  op_path_below:
    f = PathBelow(*i, &scratch[i->r], &reg[i->r]);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  op_field:
    // The input is read before the output's place is written (they differ: r is new).
    f = FieldOf(*reg[i->a], p_->nodes[i->n].keys, &scratch[i->r]);
    if (f != Flow::kContinue) return Failed(f, i - code);
    if (i->b != kNoConst && !Truthy(scratch[i->r])) scratch[i->r].SetRef(Const(i->b));
    reg[i->r] = &scratch[i->r];
    WM_FLAT_NEXT();
  op_compare:
    reg[i->r] = BoolValue(ComparisonHolds(static_cast<ir::BinaryOp>(i->cmp), CompareViews(*reg[i->a], *reg[i->b])));
    WM_FLAT_NEXT();
  op_compare_const:
    reg[i->r] = BoolValue(HoldsAgainstConstant(static_cast<ir::BinaryOp>(i->cmp), *reg[i->a], Const(i->b)));
    WM_FLAT_NEXT();
  op_arith:
    f = Arith(*i, reg, scratch);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  op_var:
    if (i->a >= slots_.size()) return Failed(Flow::kBail, i - code);
    reg[i->r] = &slots_[i->a];
    WM_FLAT_NEXT();
  op_field_compare: {
    bool holds = false;
    f = FieldCompareHolds(p_->nodes[i->n], *reg[i->a], &holds);
    if (f != Flow::kContinue) return Failed(f, i - code);
    reg[i->r] = BoolValue(holds);
    WM_FLAT_NEXT();
  }
  op_not:
    reg[i->r] = BoolValue(!Truthy(*reg[i->a]));
    WM_FLAT_NEXT();
  op_truthy:
    reg[i->r] = BoolValue(Truthy(*reg[i->a]));
    WM_FLAT_NEXT();
  op_set_bool:
    reg[i->r] = BoolValue(i->cmp != 0);
    WM_FLAT_NEXT();
  op_move:
    reg[i->r] = reg[i->a];
    WM_FLAT_NEXT();
  op_jump:
    WM_FLAT_GOTO(i->b);
  op_jump_if_falsy:
    if (!Truthy(*reg[i->a])) WM_FLAT_GOTO(i->b);
    WM_FLAT_NEXT();
  op_jump_if_truthy:
    if (Truthy(*reg[i->a])) WM_FLAT_GOTO(i->b);
    WM_FLAT_NEXT();
  op_memo_load: {
    VVal* kept = KnownInMemo(i->a);
    if (kept != nullptr) {
      reg[i->r] = kept;
      WM_FLAT_GOTO(i->b);
    }
    WM_FLAT_NEXT();
  }
  op_memo_store: {
    SubexpressionMemo& memo = *cx_.memo;
    memo.slots[i->a].known[0] = 1;
    memo.Keep(i->a, 0, *reg[i->r]);
    reg[i->r] = &memo.slots[i->a].values[0];
    WM_FLAT_NEXT();
  }
  op_any_all:
    f = FlatAnyAll(flat, *i, registers);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  op_tree:
    f = i->cmp != 0 ? Single(i->a, *reg[i->b], &scratch[i->r]) : SingleComputed(i->a, *reg[i->b], &scratch[i->r]);
    if (f != Flow::kContinue) return Failed(f, i - code);
    reg[i->r] = &scratch[i->r];
    WM_FLAT_NEXT();
  op_object:
    f = BuildObject(*i, flat.operands.data() + i->a, reg, scratch);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  op_sum_is_empty:
    f = SumIsEmpty(*i, reg, scratch);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  op_length:
    f = LengthOf(*reg[i->a], &scratch[i->r]);
    if (f != Flow::kContinue) return Failed(f, i - code);
    reg[i->r] = &scratch[i->r];
    WM_FLAT_NEXT();
  op_first_where:
    f = FlatFirstWhere(flat, *i, registers);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  op_to_number:
    f = ToNumberOf(*reg[i->a], &scratch[i->r], &reg[i->r]);
    if (f != Flow::kContinue) return Failed(f, i - code);
    WM_FLAT_NEXT();
  op_return:
    *value = reg[i->a];
    return Flow::kContinue;
#undef WM_FLAT_DISPATCH
#undef WM_FLAT_NEXT
#undef WM_FLAT_GOTO
  }
  static const VVal* BoolValue(bool b) { return b ? &kTrueValue : &kFalseValue; }
  // Exec's way out after an instruction that did not continue: its index kept for `try`'s code
  // (FlatCode::catch_from). A block's failure is recorded again at the kAnyAll that ran it.
  Flow Failed(Flow f, ptrdiff_t at) {
    failed_at_ = static_cast<size_t>(at);
    return f;
  }

  // kArith, out of Exec's loop (arithmetic is rarer than reads and tests).
  // + - * of two numbers (the catalog's replica products) without ArithmeticOf's kind tests.
  [[gnu::noinline]] Flow Arith(const FlatInstr& i, const VVal** reg, VVal* scratch) {
    const VVal& a = *reg[i.a];
    const VVal& b = *reg[i.b];
    reg[i.r] = &scratch[i.r];
    double x, y;
    if (i.cmp <= static_cast<uint8_t>(ir::BinaryOp::Mul) && a.CheapNumber(&x) && b.CheapNumber(&y)) {
      scratch[i.r].SetNumber(Arithmetic(static_cast<ir::BinaryOp>(i.cmp), x, y));
      return Flow::kContinue;
    }
    return ArithmeticOf(static_cast<ir::BinaryOp>(i.cmp), a, b, &scratch[i.r]);
  }

  // `tonumber` of `in` (kToNumber, and the tree's builtin): *out is `in` itself when it is a
  // number, else `place` holding the number. A string of the document that is a plain number is
  // read where it is, not copied; another string goes to the builtin (jq's other number forms).
  // Null, a boolean, an array or an object is the builtin's error, which the regular engine
  // words where no `try` catches it: no message is made here (the catalog's `tonumber?` of an
  // absent annotation).
  [[gnu::noinline]] static Flow ToNumberOf(const VVal& in, VVal* place, const VVal** out) {
    const Kind kind = in.kind();
    if (kind == Kind::Number) {
      *out = &in;
      return Flow::kContinue;
    }
    if (kind != Kind::String) return Flow::kError;
    double number;
    if (!ParseJsonNumber(in.string(), &number)) {
      Value parsed, error;
      if (!ops::CallBuiltin(ir::BuiltinId::ToNumber, in.ToValue(false), nullptr, 0, &parsed, &error)) return Flow::kError;
      number = parsed.AsNumber();
    }
    place->SetNumber(number);
    *out = place;
    return Flow::kContinue;
  }

  // kSumIsEmpty: whether reg a + reg b equals {} (i.cmp ==, else !=). Of objects and null (not
  // both null, whose sum is null) the sum is an object, empty exactly when both sides are empty
  // or null; of anything else, the sum as kArith computes it (a number, a string, an error).
  [[gnu::noinline]] Flow SumIsEmpty(const FlatInstr& i, const VVal** reg, VVal* scratch) {
    const VVal& a = *reg[i.a];
    const VVal& b = *reg[i.b];
    bool empty;
    if (!SumOfObjectsIsEmpty(a, b, &empty)) {
      VVal& sum = scratch[i.r];
      if (const Flow f = ArithmeticOf(ir::BinaryOp::Add, a, b, &sum); f != Flow::kContinue) return f;
      empty = sum.kind() == Kind::Object && IsEmptyContainer(sum);
      sum.SetNull();  // the sum is not kept: the register holds the boolean
    }
    reg[i.r] = BoolValue(empty == (static_cast<ir::BinaryOp>(i.cmp) == ir::BinaryOp::Eq));
    return Flow::kContinue;
  }
  // Whether a + b is the empty object, in *empty, for two objects or an object and null; false
  // for other operands (their sum is computed).
  static bool SumOfObjectsIsEmpty(const VVal& a, const VVal& b, bool* empty) {
    const Kind ka = a.kind(), kb = b.kind();
    const auto object_or_null = [](Kind k) { return k == Kind::Object || k == Kind::Null; };
    if (!object_or_null(ka) || !object_or_null(kb) || (ka == Kind::Null && kb == Kind::Null)) return false;
    *empty = (ka == Kind::Null || IsEmptyContainer(a)) && (kb == Kind::Null || IsEmptyContainer(b));
    return true;
  }

  // kObject: the object of i.n members (`members`: key const, value register, ...), charged and
  // stepped as the tree's SingleObject; with a test (i.b a constant), only the members whose
  // value passes it, stepped as the tree's KeepMembersInPlace. The keys are distinct string
  // constants, so no key is checked. The members are copies: a register may be read again.
  [[gnu::noinline, gnu::hot]] Flow BuildObject(const FlatInstr& i, const uint32_t* members, const VVal** reg, VVal* scratch) {
    const Flow f = BuildObjectOf<true>(
        i.n, [&](uint32_t m) -> const Value& { return Const(members[2 * m]); },
        [&](uint32_t m) -> const VVal& { return *reg[members[2 * m + 1]]; }, static_cast<ir::BinaryOp>(i.cmp),
        i.b != kNoConst ? &Const(i.b) : nullptr, &scratch[i.r]);
    if (f == Flow::kContinue) reg[i.r] = &scratch[i.r];
    return f;
  }
  // The object of `count` members (key_at(m) a string constant, value_at(m) its value) into
  // *place; with `against`, only the members whose value passes `value OP *against`. Charged;
  // stepped when kSteps (native code, which takes no steps, runs only where Exec's would fit).
  template <bool kSteps, class KeyAt, class ValueAt>
  [[gnu::always_inline]] Flow BuildObjectOf(uint32_t count, KeyAt key_at, ValueAt value_at, ir::BinaryOp op,
                                            const Value* against, VVal* place) {
    if (!ChargeBytes(32 * static_cast<uint64_t>(count))) return Flow::kBail;
    const bool keep_some = against != nullptr;
    uint64_t passing = ~uint64_t{0};
    if (keep_some && count <= 64) {
      if (kSteps && !Steps(1 + count)) return Flow::kBail;  // one for the filter, one per member tested
      passing = 0;
      if (against->IsNull()) {
        // Against null (`.value != null`, the catalog's test), only whether the value is null
        // decides: null sorts before every other kind and equals itself.
        const bool keep_null = op == ir::BinaryOp::Eq || op == ir::BinaryOp::Le || op == ir::BinaryOp::Ge;
        const bool keep_other = op == ir::BinaryOp::Ne || op == ir::BinaryOp::Gt || op == ir::BinaryOp::Ge;
        for (uint32_t m = 0; m < count; ++m) passing |= uint64_t{IsNull(value_at(m)) ? keep_null : keep_other} << m;
      } else {
        for (uint32_t m = 0; m < count; ++m) passing |= uint64_t{HoldsAgainstConstant(op, value_at(m), *against)} << m;
      }
      // None passes (the catalog's `{cpu: .requests.cpu, ...} | with_entries(select(.value !=
      // null))` of a component without requests): the object is the empty one, a constant, not
      // built.
      if (passing == 0) {
        static const Value kEmptyObject = Value::EmptyObject();
        place->SetRef(kEmptyObject);
        return Flow::kContinue;
      }
    } else if (kSteps && keep_some && !Step()) {
      return Flow::kBail;
    }
    Composite* built = NewComposite(true);
    place->AdoptComposite(built);
    std::vector<VVal>& items = built->items;
    if (count <= 64) {
      // The members kept are known: the items are made at once (a pooled composite keeps its
      // capacity) and written in place, a value copied without a release or a dispatch on its tag.
      const uint64_t kept = passing & (count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1);
      size_t kept_count = 0;  // a loop, not std::popcount: the baseline x86-64 build calls libgcc for it
      for (uint64_t left = kept; left != 0; left &= left - 1) ++kept_count;
      items.resize(2 * kept_count);
      VVal* item = items.data();
      for (uint64_t left = kept; left != 0; left &= left - 1) {
        const uint32_t m = static_cast<uint32_t>(std::countr_zero(left));
        item[0].SetRef(key_at(m));
        item[1].InitCopy(value_at(m));
        item += 2;
      }
      return Flow::kContinue;
    }
    if (items.capacity() < 2 * count) items.reserve(2 * count);
    for (uint32_t m = 0; m < count; ++m) {  // more members than bits: each tested here
      const VVal& value = value_at(m);
      if (keep_some) {
        if (kSteps && !Step()) return Flow::kBail;
        if (!HoldsAgainstConstant(op, value, *against)) continue;
      }
      items.emplace_back().SetRef(key_at(m));
      items.push_back(value);
    }
    return Flow::kContinue;
  }

  // kPathBelow: node i.a at its iteration's current element into *reg (`// consts[i.b]` unless
  // i.b is kNoConst, in *scratch). In line: with threaded dispatch, a larger Exec costs the other
  // handlers nothing, and code per element is mostly these reads.
  [[gnu::always_inline]] Flow PathBelow(const FlatInstr& i, VVal* scratch, const VVal** reg) {
    const uint32_t offset = cx_.paths->below_index[i.a];
    return TakeRead(element_nodes_.state[offset], &element_nodes_.value[offset], i.b, scratch, reg);
  }
  // A trie read into register *reg: `read` (where the cache keeps it) when known, null when
  // missing, consts[or_const] in *scratch where the value is null or false (`P // c`) unless
  // or_const is kNoConst; an error or a bail ends the run.
  [[gnu::always_inline]] Flow TakeRead(PathCache::State state, const VVal* read, uint32_t or_const, VVal* scratch,
                                       const VVal** reg) {
    if (state == PathCache::kMissing) {
      read = &kNullValue;
    } else if (state != PathCache::kKnown) {
      return FlowOf(state);
    }
    if (or_const != kNoConst && !Truthy(*read)) {
      scratch->SetRef(Const(or_const));
      read = scratch;
    }
    *reg = read;
    return Flow::kContinue;
  }

  // kAnyAll: on an array of the document, its condition's block on each element until one
  // decides (as EvalAnyAll's loop); on an empty array the program built or holds as a constant
  // (`(.conditions // []) | any(...)`), nothing to test; on anything else, the tree's EvalAnyAll.
  [[gnu::noinline, gnu::hot]] Flow FlatAnyAll(const FlatCode& code, const FlatInstr& i, FlatRegisters* registers) {
    const VVal** reg = registers->at.data();
    VVal* scratch = registers->scratch.data();
    const VVal& in = *reg[i.a];
    const bool is_any = i.cmp != 0;
    bool decided = false;
    if (in.is_dom() && in.dom().type() == element_type::ARRAY) {
      for (element e : ArrayOf(in.dom())) {
        const VVal* holds;
        const Flow f = RunBlockOn(code, i, e, registers, &holds);
        if (f != Flow::kContinue) return f;
        if (Truthy(*holds) == is_any) {
          decided = true;
          break;
        }
      }
    } else if (in.is_dom() || in.kind() != Kind::Array || !IsEmptyContainer(in)) {
      const Flow f = SingleComputed(i.n, in, &scratch[i.r]);
      if (f == Flow::kContinue) reg[i.r] = &scratch[i.r];
      return f;
    }
    reg[i.r] = BoolValue(is_any ? decided : !decided);
    return Flow::kContinue;
  }

  // The block of kAnyAll or kFirstWhere `i` on element `e`, after the element's step: *holds its value.
  [[gnu::always_inline]] Flow RunBlockOn(const FlatCode& code, const FlatInstr& i, element e, FlatRegisters* registers,
                                         const VVal** holds) {
    if (!Step()) return Flow::kBail;
    registers->scratch[i.element].SetDom(e);
    registers->at[i.element] = &registers->scratch[i.element];
    return Exec(code, i.b, registers, holds);
  }
  // kFirstWhere: `map(select(c)) | first` on an array of the document, c's block run on every
  // element in order (a later element's error is still the run's, as the map's), the first it
  // holds for the value (a view), null when none; on anything else the tree's (FirstSelected).
  [[gnu::noinline]] Flow FlatFirstWhere(const FlatCode& code, const FlatInstr& i, FlatRegisters* registers) {
    const VVal** reg = registers->at.data();
    VVal* scratch = registers->scratch.data();
    const VVal& in = *reg[i.a];
    if (!in.is_dom() || in.dom().type() != element_type::ARRAY) {
      const Flow f = SingleComputed(i.n, in, &scratch[i.r]);
      if (f == Flow::kContinue) reg[i.r] = &scratch[i.r];
      return f;
    }
    bool found = false;
    element first;
    for (element e : ArrayOf(in.dom())) {
      const VVal* holds;
      const Flow f = RunBlockOn(code, i, e, registers, &holds);
      if (f != Flow::kContinue) return f;
      if (!found && Truthy(*holds)) {
        found = true;
        first = e;
      }
    }
    if (found) scratch[i.r].SetDom(first);
    else scratch[i.r].SetNull();
    reg[i.r] = &scratch[i.r];
    return Flow::kContinue;
  }

  // A run's start: the program, a fresh step budget, the variables' slots (the globals first).
  // In line where there are no slots to set (most of a kind's small programs, each run once per
  // object: the call was a fifth of such a program's fixed cost).
  [[gnu::always_inline]] void Begin(const ViewProgram& program) {
    p_ = &program;
    budget_ = eval_internal::StepBudget(*cx_.limits);
    slice_ = budget_.FirstSlice();
    memory_ = 0;
    if (program.num_slots != 0 || !slots_.empty() || cx_.globals != nullptr) [[unlikely]] SetSlots(program);
  }
  [[gnu::noinline]] void SetSlots(const ViewProgram& program) {
    slots_.assign(program.num_slots, VVal());
    if (cx_.globals != nullptr) {
      for (size_t i = 0; i < cx_.globals->size() && i < slots_.size(); ++i) slots_[i] = VVal::Of((*cx_.globals)[i]);
    }
  }

  // One step: inline (every node takes one), the next slice of the budget out of line.
  [[gnu::always_inline]] bool Step() {
    if (slice_ > 0) [[likely]] {
      --slice_;
      return true;
    }
    return NextSlice();
  }
  // `count` steps at once, as many Step() calls (a bail at any of them is the same bail: the
  // caller has done nothing yet that another step would undo).
  [[gnu::always_inline]] bool Steps(uint32_t count) {
    if (slice_ >= count) [[likely]] {
      slice_ -= count;
      return true;
    }
    for (uint32_t k = 0; k < count; ++k) {
      if (!Step()) return false;
    }
    return true;
  }
  [[gnu::noinline]] bool NextSlice() {
    std::string message;
    slice_ = budget_.NextSlice(&message);
    return slice_-- > 0;
  }
  bool ChargeBytes(uint64_t bytes) {
    memory_ += bytes;
    return memory_ <= cx_.limits->max_memory_bytes;
  }
  Value Materialize(const VVal& v) const { return v.ToValue(cx_.sort_keys); }
  // As Materialize, an array or object of the document converted once per object (ConvertedDocuments).
  Value MaterializeShared(const VVal& v) const {
    if (!v.is_dom()) return Materialize(v);
    element_type type = v.dom().type();
    if (type != element_type::ARRAY && type != element_type::OBJECT) return Materialize(v);
    return cx_.converted->Of(v.dom_bytes(), cx_.sort_keys, cx_.conversions);
  }
  const Value& Const(uint32_t i) const { return p_->consts[i]; }

  Flow Eval(uint32_t id, const VVal& in, Cont k) {
    const VNode& n = p_->nodes[id];
    if (n.single) {
      VVal v;
      Flow f = Single(id, in, &v);
      return f == Flow::kContinue ? k(v) : f;
    }
    if (!Step()) return Flow::kBail;
    switch (n.op) {
      case VOp::kIdentity: return k(in);
      case VOp::kEmpty: return Flow::kContinue;
      case VOp::kConst: return k(VVal::Ref(Const(n.a)));
      case VOp::kPath: {
        VVal v;
        PathCache::State state = cx_.paths->Get(n.a, &v);
        return state == PathCache::kKnown ? k(v) : FlowOf(state);
      }
      case VOp::kIterEach: return EvalIterEach(n, k);
      case VOp::kFieldPath:
        return Eval(n.kids[0], in, [&](const VVal& t) { return FieldPath(t, n.keys, k); });
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
        std::vector<VVal> members;
        return EvalObject(n, 0, in, &members, k);
      }
      case VOp::kVar: return n.a < slots_.size() ? k(slots_[n.a]) : Flow::kBail;
      case VOp::kBind: return EvalBind(n, in, k);
      case VOp::kNot: return k(VVal::Bool(!Truthy(in)));
      case VOp::kLength: return EvalLength(in, k);
      case VOp::kType: return k(VVal::Ref(TypeNameOf(in.kind())));
      case VOp::kBuiltin: return EvalBuiltin(n, in, k);
      case VOp::kAny:
      case VOp::kAll: return EvalAnyAll(n, in, k);
      case VOp::kFromEntries: return EvalFromEntries(in, k);
      case VOp::kWithEntries: return EvalWithEntries(n, in, k);
      case VOp::kFieldCompare: {
        bool holds = false;
        Flow f = FieldCompareHolds(n, in, &holds);
        return f == Flow::kContinue ? k(VVal::Bool(holds)) : f;
      }
      case VOp::kEntryKey: break;  // single: answered above
    }
    return Flow::kBail;
  }

  // The one output of a node marked single (VNode::single), computed directly: the same steps,
  // order of evaluation and outcomes as through Eval and continuations.
  [[gnu::always_inline]] Flow Single(uint32_t id, const VVal& in, VVal* out) {
    if (p_->nodes[id].memo != 0) [[unlikely]] return SingleShared(id, in, out);
    return SingleComputed(id, in, out);
  }
  // Single without the memo slot. A direct form (a constant, a path, `P // c`, ...) is read in a
  // small frame of its own: most single nodes are one, and SingleUncached's frame (its many VVal
  // locals) costs more than the read.
  [[gnu::always_inline]] Flow SingleComputed(uint32_t id, const VVal& in, VVal* out) {
    const VNode& n = p_->nodes[id];
    if (n.form != VForm::kTree) return SingleDirect(n, in, out);
    return SingleUncached(id, in, out);
  }
  [[gnu::noinline]] Flow SingleDirect(const VNode& n, const VVal& in, VVal* out) {
    if (!Step()) return Flow::kBail;
    return Direct(n, in, out);
  }

  // A subexpression the kind's programs share (VNode::memo): computed at its first use on this
  // object (or element), read back after that. A built array or object is shared as it is: its
  // holders only refill a composite in place when they hold its only reference.
  [[gnu::noinline]] Flow SingleShared(uint32_t id, const VVal& in, VVal* out) {
    const uint32_t index = p_->nodes[id].memo - 1;
    SubexpressionMemo& memo = *cx_.memo;
    SubexpressionMemo::Slot& slot = memo.slots[index];
    const uint32_t place = MemoPlace(&slot);
    if (slot.known[place]) {
      *out = slot.values[place];
      return Flow::kContinue;
    }
    Flow f = SingleComputed(id, in, out);
    if (f == Flow::kContinue) {
      slot.known[place] = 1;
      memo.Keep(index, place, *out);
    }
    return f;
  }

  // The place of `slot` this node's value goes to, the slot's places emptied at its first use on
  // this object. A slot of the object has one place; one below an iteration, a place per element
  // (the node runs inside the iteration, at its current element of this object).
  uint32_t MemoPlace(SubexpressionMemo::Slot* slot) const {
    const PathCache::Iteration* it = slot->iteration == 0 ? nullptr : &cx_.paths->iterations[slot->iteration];
    if (slot->stamp != cx_.paths->generation) {
      slot->stamp = cx_.paths->generation;
      if (it == nullptr) {
        slot->known[0] = 0;  // its one place, made with the runner
      } else {
        slot->known.assign(it->elements.size(), 0);
        if (slot->values.size() < it->elements.size()) slot->values.resize(it->elements.size());
      }
    }
    return it == nullptr ? 0 : it->current;
  }
  // The kept value of memo slot `index` (a slot of the object) when it is known on this object.
  VVal* KnownInMemo(uint32_t index) const {
    SubexpressionMemo::Slot& slot = cx_.memo->slots[index];
    const uint32_t place = MemoPlace(&slot);
    return slot.known[place] ? &slot.values[place] : nullptr;
  }

  // A single node of tree form (VForm::kTree; SingleDirect reads the others).
  Flow SingleUncached(uint32_t id, const VVal& in, VVal* out) {
    if (!Step()) return Flow::kBail;
    const VNode& n = p_->nodes[id];
    if (n.direct_operands) return DirectBinary(n, in, out);
    switch (n.op) {
      case VOp::kNot: out->SetBool(!Truthy(in)); return Flow::kContinue;
      case VOp::kType: out->SetRef(TypeNameOf(in.kind())); return Flow::kContinue;
      case VOp::kLength:
      case VOp::kBuiltin: {
        auto take = [&](const VVal& v) {
          *out = v;
          return Flow::kContinue;
        };
        return n.op == VOp::kLength ? EvalLength(in, take) : EvalBuiltin(n, in, take);
      }
      case VOp::kEntryKey: {  // inside the iteration (it is at an element of this object)
        const PathCache::Iteration& it = cx_.paths->iterations[n.a];
        if (!it.object) out->SetNumber(it.current);
        else out->SetDom(KeyOfMember(it.elements[it.current]));  // output as a view
        return Flow::kContinue;
      }
      case VOp::kAlternative: {
        Flow f = Single(n.kids[0], in, out);
        if (f != Flow::kContinue || Truthy(*out)) return f;
        return Single(n.kids[1], in, out);
      }
      case VOp::kPipe: {
        if (n.first_selected && in.is_dom() && in.dom().type() == element_type::ARRAY) {
          return FirstSelected(p_->nodes[n.kids[0]], in.dom(), out);
        }
        VVal middle;
        Flow f = Single(n.kids[0], in, &middle);
        if (f != Flow::kContinue) return f;
        const VNode& second = p_->nodes[n.kids[1]];
        if (second.op == VOp::kWithEntries && second.a == kKeepMembersWhere && second.memo == 0 &&
            middle.is_composite() && middle.composite().object && middle.composite().refs == 1) {
          // `middle` is the object's one holder, and nothing reads it after this.
          f = KeepMembersInPlace(second, &middle);
          if (f == Flow::kContinue) *out = std::move(middle);
          return f;
        }
        return Single(n.kids[1], middle, out);
      }
      case VOp::kIf: {
        VVal condition;
        Flow f = Single(n.kids[0], in, &condition);
        return f == Flow::kContinue ? Single(Truthy(condition) ? n.kids[1] : n.kids[2], in, out) : f;
      }
      case VOp::kObject: return SingleObject(n, in, out);
      case VOp::kWithEntries:
      case VOp::kAny:
      case VOp::kAll:
      case VOp::kCollect: {
        auto take = [&](const VVal& v) {
          *out = v;
          return Flow::kContinue;
        };
        if (n.op == VOp::kCollect) return EvalCollect(n, in, take);
        return n.op == VOp::kWithEntries ? EvalWithEntries(n, in, take) : EvalAnyAll(n, in, take);
      }
      case VOp::kAnd:
      case VOp::kOr: {
        const bool is_and = n.op == VOp::kAnd;
        bool holds = false;
        Flow f = KidHolds(n.kids[0], in, out, &holds);
        if (f != Flow::kContinue) return f;
        if (holds == is_and) f = KidHolds(n.kids[1], in, out, &holds);  // the left side did not decide
        if (f == Flow::kContinue) out->SetBool(holds);
        return f;
      }
      default: break;
    }
    return SingleOperator(n, in, out);
  }

  // The value of a node with a direct form (VNode::form), read in line: a constant, a variable,
  // the input, a trie path, or `P // c` (P's value unless null or false; an error of P stays an
  // error, as through the tree, for the regular engine to report or catch).
  [[gnu::always_inline]] Flow Direct(const VNode& n, const VVal& in, VVal* out) {
    switch (n.form) {
      case VForm::kConst: out->SetRef(Const(n.a)); return Flow::kContinue;
      case VForm::kInput: *out = in; return Flow::kContinue;
      case VForm::kVar:
        if (n.a >= slots_.size()) return Flow::kBail;
        *out = slots_[n.a];
        return Flow::kContinue;
      case VForm::kField:
      case VForm::kFieldOrConst: {
        const VNode& field = n.form == VForm::kField ? n : p_->nodes[n.kids[0]];
        Flow f = FieldOf(in, field.keys, out);
        if (f == Flow::kContinue && n.form == VForm::kFieldOrConst && !Truthy(*out)) {
          out->SetRef(Const(p_->nodes[n.kids[1]].a));
        }
        return f;
      }
      default: break;
    }
    const uint32_t path = n.form == VForm::kPath ? n.a : p_->nodes[n.kids[0]].a;
    const PathCache::State state = cx_.paths->Get(path, out);
    if (state != PathCache::kKnown) return FlowOf(state);
    if (n.form == VForm::kPathOrConst && !Truthy(*out)) out->SetRef(Const(p_->nodes[n.kids[1]].a));
    return Flow::kContinue;
  }

  // t.k1.k2... (a kField, and every kFieldPath through FieldPath) read without continuations: DOM
  // objects through the member lookups, null stays null, built or converted objects by member.
  // Indexing anything else is jq's error: the resolver falls back, and the regular engine words
  // it (or a `//` or `try` around it takes it there).
  Flow FieldOf(const VVal& t, const std::vector<std::string>& keys, VVal* out) {
    VVal current = t;
    for (const std::string& key : keys) {
      if (current.is_dom()) {
        const Kind kind = KindOfElement(current.dom());
        if (kind == Kind::Object) {
          current = cx_.member_lookups->LookUp(current.dom(), key, cx_.paths->generation);
          continue;
        }
        if (kind != Kind::Null) return Flow::kError;
        continue;
      }
      const Kind kind = current.kind();
      if (kind == Kind::Null) continue;
      if (kind != Kind::Object) return Flow::kError;
      bool present;
      VVal next = MemberOf(current, key, &present);
      current = std::move(next);
    }
    *out = std::move(current);
    return Flow::kContinue;
  }

  // A binary operator on two direct operands (VNode::direct_operands), the right one first as jq;
  // numbers added, subtracted or multiplied in line, other operands as BinaryOf.
  Flow DirectBinary(const VNode& n, const VVal& in, VVal* out) {
    VVal a, b;
    Flow f = DirectOperands(n, in, &a, &b);
    if (f != Flow::kContinue) return f;
    const auto op = static_cast<ir::BinaryOp>(n.a);
    if (op >= ir::BinaryOp::Eq) {
      out->SetBool(ComparisonHolds(op, CompareViews(a, b)));
      return Flow::kContinue;
    }
    return ArithmeticOf(op, a, b, out);
  }
  // a OP b for an arithmetic operator into *out: two numbers under + - * in line, anything else
  // through BinaryOf (strings, arrays and objects, null, / and %, and their errors).
  [[gnu::hot]] Flow ArithmeticOf(ir::BinaryOp op, const VVal& a, const VVal& b, VVal* out) {
    const Kind ka = a.kind(), kb = b.kind();
    if (op <= ir::BinaryOp::Mul && ka == Kind::Number && kb == Kind::Number) {
      out->SetNumber(Arithmetic(op, a.number(), b.number()));
      return Flow::kContinue;
    }
    if (op == ir::BinaryOp::Add && ka == Kind::String && kb == Kind::String) return ConcatStrings(a, b, out);
    if (op == ir::BinaryOp::Add && ka == Kind::Object && kb == Kind::Object) {
      // An empty side: the other object itself (as BinaryOf, without its continuation).
      if (IsEmptyContainer(b)) {
        *out = a;
        return Flow::kContinue;
      }
      if (IsEmptyContainer(a)) {
        *out = b;
        return Flow::kContinue;
      }
    }
    return BinaryOf(op, a, b, [&](const VVal& v) {
      *out = v;
      return Flow::kContinue;
    });
  }

  // a + b of two strings (the catalog's `.image.repository + ":" + .image.tag`): the result
  // built once from both sides' bytes, read where they are (the document's string buffer, a
  // constant), charged as BinaryOf's Built charges it. Through BinaryOf, each DOM side would be
  // copied into a Value first.
  [[gnu::noinline]] Flow ConcatStrings(const VVal& a, const VVal& b, VVal* out) {
    const std::string_view first = a.string(), second = b.string();
    if (!ChargeBytes(first.size() + second.size())) return Flow::kBail;
    *out = VVal::Of(Value::String(first, second));
    return Flow::kContinue;
  }

  // The two direct operands of `n` (VNode::direct_operands), the right one first as jq.
  [[gnu::always_inline]] Flow DirectOperands(const VNode& n, const VVal& in, VVal* a, VVal* b) {
    Flow f = Direct(p_->nodes[n.kids[1]], in, b);
    return f == Flow::kContinue ? Direct(p_->nodes[n.kids[0]], in, a) : f;
  }

  // Single nodes whose result is computed from their operands: `-x`, `a OP b`, `x.k1.k2`.
  Flow SingleOperator(const VNode& n, const VVal& in, VVal* out) {
    VVal a, b;
    Flow f = Flow::kContinue;
    // jq order: the right side first; an index's key before its target
    if (n.op == VOp::kBinary || n.op == VOp::kIndex) f = Single(n.kids[1], in, &b);
    if (f == Flow::kContinue) f = Single(n.kids[0], in, &a);
    if (f != Flow::kContinue) return f;
    auto take = [&](const VVal& v) {
      *out = v;
      return Flow::kContinue;
    };
    switch (n.op) {
      case VOp::kNeg: return EvalNeg(a, take);
      case VOp::kBinary: return BinaryOf(static_cast<ir::BinaryOp>(n.a), a, b, take);
      case VOp::kFieldPath: return FieldPath(a, n.keys, take);
      case VOp::kIndex: return IndexBy(a, b, take);
      default: return Flow::kBail;
    }
  }

  // Each element of an iteration node, with the node's current element set for the paths below.
  Flow EvalIterEach(const VNode& n, Cont k) {
    return EachElement(n.a, n.c != 0, [&](element e) { return k(VVal::Dom(e)); });
  }
  // body(element) for each element of iteration `iteration` (`optional`: `.[]?`), a step each,
  // with the iteration's current element set for the paths below it (and restored after).
  template <class Body>
  Flow EachElement(uint32_t iteration, bool optional, Body body) {
    const std::vector<element>* elements;
    PathCache::State state = cx_.paths->Elements(iteration, &elements, optional);
    if (state != PathCache::kKnown) return FlowOf(state);
    PathCache::Iteration& it = cx_.paths->iterations[iteration];
    uint32_t saved = it.current;
    Flow f = Flow::kContinue;
    for (uint32_t i = 0; i < elements->size(); ++i) {
      if (!Step()) {
        f = Flow::kBail;
        break;
      }
      it.current = i;
      f = body((*elements)[i]);
      if (f != Flow::kContinue) break;
    }
    it.current = saved;
    return f;
  }

  // t.k1.k2... with the value to k: FieldOf's read (a string key indexes only objects and null;
  // on anything else it is jq's error, which ops::Index would raise too).
  Flow FieldPath(const VVal& t, const std::vector<std::string>& keys, Cont k) {
    VVal field;
    Flow f = FieldOf(t, keys, &field);
    return f == Flow::kContinue ? k(field) : f;
  }
  // t[key]: objects by string key (a repeated key: its last value), arrays by integer, null ->
  // null; anything else through ops::Index on Values (its error makes the resolver fall back).
  Flow IndexBy(const VVal& t, const VVal& key, Cont k) {
    Kind tk = t.kind(), kk = key.kind();
    if (tk == Kind::Null && (kk == Kind::String || kk == Kind::Number)) return k(VVal());
    if (tk == Kind::Object && kk == Kind::String) {
      bool present;
      return k(t.is_dom() ? FindField(t.dom(), key.string()) : MemberOf(t, key.string(), &present));
    }
    if (t.is_dom() && tk == Kind::Array && kk == Kind::Number) {
      simdjson::dom::array array = ArrayOf(t.dom());
      int64_t i = ArrayPosition(key.number(), array.size());
      if (i == kOutOfRange) return k(VVal());
      if (i >= 0) return k(VVal::Dom(array.at(static_cast<size_t>(i)).value_unsafe()));
    }
    if (t.is_composite()) {
      const Composite& built = t.composite();
      if (!built.object && kk == Kind::Number) {
        int64_t i = ArrayPosition(key.number(), built.items.size());
        if (i == kOutOfRange) return k(VVal());
        if (i >= 0) return k(built.items[static_cast<size_t>(i)]);
      }
    }
    Value out, error;
    if (!ops::Index(Materialize(t), Materialize(key), &out, &error)) return Flow::kError;
    return k(VVal::Of(std::move(out)));
  }

  // The element an integral index `d` names in an array of `size` (negative: from the end), or
  // kOutOfRange (null), or kNotPlain for what ops::Index decides (fractions, huge indexes).
  static constexpr int64_t kOutOfRange = -1, kNotPlain = -2;
  static int64_t ArrayPosition(double d, size_t size) {
    if (!(d == std::floor(d) && std::fabs(d) < 1e15 && size < 0xFFFFFF)) return kNotPlain;
    auto i = static_cast<int64_t>(d);
    if (i < 0) i += static_cast<int64_t>(size);
    return i < 0 || i >= static_cast<int64_t>(size) ? kOutOfRange : i;
  }

  Flow Iterate(const VVal& t, Cont k) {
    Kind kind = t.kind();
    if (t.is_composite()) {
      const Composite& built = t.composite();
      // An object's values are its odd items.
      for (size_t i = built.object ? 1 : 0; i < built.items.size(); i += built.object ? 2 : 1) {
        if (!Step()) return Flow::kBail;
        Flow f = k(built.items[i]);
        if (f != Flow::kContinue) return f;
      }
      return Flow::kContinue;
    }
    if (t.is_dom() && kind == Kind::Array) {
      for (element child : ArrayOf(t.dom())) {
        if (!Step()) return Flow::kBail;
        Flow f = k(VVal::Dom(child));
        if (f != Flow::kContinue) return f;
      }
      return Flow::kContinue;
    }
    if (t.is_dom() && kind == Kind::Object) {
      std::vector<Field> fields;
      if (!ObjectFields(t.dom(), cx_.sort_keys, &fields)) return Flow::kBail;
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
    return Eval(n.kids[0], in, [&](const VVal& v) { return EvalNeg(v, k); });
  }

  Flow EvalNeg(const VVal& v, Cont k) {
    if (v.kind() == Kind::Number) return k(VVal::Number(-v.number()));
    Value out, error;
    if (!ops::Negate(Materialize(v), &out, &error)) return Flow::kError;
    return k(VVal::Of(std::move(out)));
  }

  Flow EvalBinary(const VNode& n, const VVal& in, Cont k) {
    auto op = static_cast<ir::BinaryOp>(n.a);
    return Eval(n.kids[1], in, [&](const VVal& b) {
      return Eval(n.kids[0], in, [&](const VVal& a) { return BinaryOf(op, a, b, k); });
    });
  }

  Flow BinaryOf(ir::BinaryOp op, const VVal& a, const VVal& b, Cont k) {
    if (op >= ir::BinaryOp::Eq) return k(VVal::Bool(ComparisonHolds(op, CompareViews(a, b))));
    if (op <= ir::BinaryOp::Mul && a.kind() == Kind::Number && b.kind() == Kind::Number) {
      return k(VVal::Number(Arithmetic(op, a.number(), b.number())));
    }
    if (op == ir::BinaryOp::Add && a.kind() == Kind::String && b.kind() == Kind::String) {
      VVal joined;
      const Flow f = ConcatStrings(a, b, &joined);
      return f == Flow::kContinue ? k(joined) : f;
    }
    if (op == ir::BinaryOp::Add && a.kind() == Kind::Object && b.kind() == Kind::Object) {
      // An empty side: the other object itself. Else a built object when both list cheaply.
      if (IsEmptyContainer(b)) return k(a);
      if (IsEmptyContainer(a)) return k(b);
      std::vector<VVal> merged, right;
      if (MembersOf(a, &merged) && MembersOf(b, &right) && merged.size() * right.size() <= 4096) {
        return MergeObjects(std::move(merged), right, k);
      }
    }
    Value out, error;
    if (!ops::Binary(op, Materialize(a), Materialize(b), &out, &error)) return Flow::kError;
    return Built(std::move(out), k);
  }

  // key, value, key, value, ... of an object in the evaluator's key order; false for a DOM object
  // that repeats a key (ParseJson decides which stays: the caller converts it).
  bool MembersOf(const VVal& object, std::vector<VVal>* items) const {
    if (object.is_composite()) {
      *items = object.composite().items;
      return true;
    }
    if (object.is_dom()) {
      std::vector<Field> fields;
      if (!ObjectFields(object.dom(), cx_.sort_keys, &fields)) return false;
      for (const Field& field : fields) {
        items->push_back(VVal::Key(field.first));
        items->push_back(VVal::Dom(field.second));
      }
      return true;
    }
    for (const Member& member : object.value().AsObject()) {
      items->push_back(VVal::Of(member.first));
      items->push_back(VVal::Of(member.second));
    }
    return true;
  }

  // a + b of two objects as MembersOf lists them: b's values replace a's in place, b's new keys
  // follow in b's order.
  Flow MergeObjects(std::vector<VVal> merged, const std::vector<VVal>& right, Cont k) {
    if (!ChargeBytes(16 * (merged.size() + right.size()))) return Flow::kBail;
    const size_t left_size = merged.size();
    for (size_t j = 0; j < right.size(); j += 2) {
      std::string_view key = right[j].string();
      bool replaced = false;
      for (size_t i = 0; i < left_size && !replaced; i += 2) {
        if (merged[i].string() == key) {
          merged[i + 1] = right[j + 1];
          replaced = true;
        }
      }
      if (!replaced) {
        merged.push_back(right[j]);
        merged.push_back(right[j + 1]);
      }
    }
    Composite* built = NewComposite(true);
    built->items = std::move(merged);
    return k(VVal::Adopt(built));
  }

  // A value an operation built, charged to the memory limit, to `k`.
  Flow Built(Value out, Cont k) {
    if (out.IsString() && !ChargeBytes(out.AsString().size())) return Flow::kBail;
    if ((out.IsArray() || out.IsObject()) && !ChargeBytes(16 * eval_internal::WorkUnits(out))) {
      return Flow::kBail;
    }
    return k(VVal::Of(std::move(out)));
  }

  Flow EvalAndOr(const VNode& n, const VVal& in, Cont k) {
    bool is_and = n.op == VOp::kAnd;
    return Eval(n.kids[0], in, [&](const VVal& a) {
      bool ta = Truthy(a);
      if (is_and ? !ta : ta) return k(VVal::Bool(!is_and));
      return Eval(n.kids[1], in, [&](const VVal& b) { return k(VVal::Bool(Truthy(b))); });
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

  // `to_entries` of a DOM object (its `fields`) or a built object: [{key: K, value: V}, ...] in the
  // evaluator's key order, the keys and values referring to the object's.
  Flow EntriesOf(const VVal& object, const std::vector<Field>& fields, Cont k) {
    const size_t count = object.is_dom() ? fields.size() : object.composite().size();
    if (!ChargeBytes(48 * count)) return Flow::kBail;
    Composite* entries = NewComposite(false);
    VVal array = VVal::Adopt(entries);
    entries->items.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      Composite* entry = NewEntry();
      SetEntryMember(object, fields, i, entry);
      entries->items.push_back(VVal::Adopt(entry));
    }
    return k(array);
  }

  // A `to_entries` entry {key: null, value: null}, for SetEntryMember to fill.
  static Composite* NewEntry() {
    static const Value kKeyName = Value::String("key"), kValueName = Value::String("value");
    Composite* entry = NewComposite(true);
    entry->items.resize(4);
    entry->items[0] = VVal::Ref(kKeyName);
    entry->items[2] = VVal::Ref(kValueName);
    return entry;
  }

  // Sets an entry's key and value to those of member i of `object` (a DOM object listed in
  // `fields`, or a built object), referring to the object's.
  static void SetEntryMember(const VVal& object, const std::vector<Field>& fields, size_t i, Composite* entry) {
    if (object.is_dom()) {
      entry->items[1] = VVal::Key(fields[i].first);
      entry->items[3] = VVal::Dom(fields[i].second);
    } else {
      entry->items[1] = object.composite().items[2 * i];
      entry->items[3] = object.composite().items[2 * i + 1];
    }
  }

  // from_entries, as the prelude's `reduce .[] as $e ({}; . + {($e | .key // .Key // .name //
  // .Name): ($e | if has("value") then .value else .Value end)})`: a later key replaces an earlier
  // one's value in its place. An entry that is not an object, a key that is not a string or an
  // input that cannot be iterated raise jq's errors: the engine words them (kError).
  [[gnu::noinline]] Flow EvalFromEntries(const VVal& in, Cont k) {
    Composite* built = NewComposite(true);
    VVal object = VVal::Adopt(built);
    Flow f = Iterate(in, [&](const VVal& entry) { return AddEntry(entry, built); });
    if (f != Flow::kContinue) return f;
    return k(object);
  }

  // One step of from_entries: `entry`'s key and value into `built`.
  Flow AddEntry(const VVal& entry, Composite* built) {
    static constexpr std::string_view kKeyNames[] = {"key", "Key", "name", "Name"};
    if (entry.kind() != Kind::Object) return Flow::kError;
    VVal key, value;
    bool present = false;
    for (std::string_view name : kKeyNames) {
      key = MemberOf(entry, name, &present);
      if (Truthy(key)) break;
    }
    if (key.kind() != Kind::String) return Flow::kError;
    value = MemberOf(entry, "value", &present);
    if (!present) value = MemberOf(entry, "Value", &present);
    if (!ChargeBytes(32) || built->items.size() > 512) return Flow::kBail;  // long: the engine's index
    std::string_view name = key.string();
    for (size_t i = 0; i < built->items.size(); i += 2) {
      if (built->items[i].string() == name) {
        built->items[i + 1] = std::move(value);
        return Flow::kContinue;
      }
    }
    built->items.push_back(std::move(key));
    built->items.push_back(std::move(value));
    return Flow::kContinue;
  }

  // with_entries(f) on an object (DOM without a repeated key, or built): f runs on one
  // {key, value} entry per member, reused while f keeps no reference to it, and each of its
  // outputs goes straight into the result as from_entries takes it. No entries array and no
  // array of f's outputs are built. The prelude collects all of f's outputs before from_entries
  // reads any; doing both in one pass can only change which of two errors comes first, and the
  // evaluator never words an error (kError), so the answer is the same. Other inputs: the
  // prelude's pipeline (kids[1]).
  [[gnu::noinline]] Flow EvalWithEntries(const VNode& n, const VVal& in, Cont k) {
    const bool dom_object = in.is_dom() && in.dom().type() == element_type::OBJECT;
    const bool built_object = in.is_composite() && in.composite().object;
    fields_scratch_.clear();
    if (!(built_object || (dom_object && ObjectFields(in.dom(), cx_.sort_keys, &fields_scratch_)))) {
      return Eval(n.kids[1], in, k);
    }
    std::vector<Field> fields = std::move(fields_scratch_);  // f may run with_entries in turn
    const size_t count = dom_object ? fields.size() : in.composite().size();
    if (!ChargeBytes(48 * count)) return Flow::kBail;
    Composite* built = NewComposite(true);
    VVal object = VVal::Adopt(built);
    if (n.a == kKeepMembersWhere) {
      // f is `select(.value OP c)`: each member whose value passes, kept as it is (the keys of
      // the input are unique strings, so from_entries would add each once, in this order).
      const VNode& test = p_->nodes[p_->nodes[n.kids[0]].kids[0]];
      const auto op = static_cast<ir::BinaryOp>(test.a);
      const VVal constant = VVal::Ref(Const(test.c));
      for (size_t i = 0; i < count; ++i) {
        if (!Step() || built->items.size() > 512) return Flow::kBail;  // long: AddEntry's bound
        VVal value = dom_object ? VVal::Dom(fields[i].second) : in.composite().items[2 * i + 1];
        if (!ComparisonHolds(op, CompareViews(value, constant))) continue;
        if (!ChargeBytes(32)) return Flow::kBail;
        built->items.push_back(dom_object ? VVal::Key(fields[i].first) : in.composite().items[2 * i]);
        built->items.push_back(std::move(value));
      }
      fields_scratch_ = std::move(fields);
      return k(object);
    }
    VVal entry;
    for (size_t i = 0; i < count; ++i) {
      if (!Step()) return Flow::kBail;
      if (!entry.is_composite() || entry.composite().refs != 1) entry = VVal::Adopt(NewEntry());
      SetEntryMember(in, fields, i, &entry.mutable_composite());
      Flow f = Eval(n.kids[0], entry, [&](const VVal& out) { return AddEntry(out, built); });
      if (f != Flow::kContinue) return f;
    }
    fields_scratch_ = std::move(fields);
    return k(object);
  }

  // with_entries(select(.value OP c)) (node `n`) on `*object`, an object built by the first part
  // of a pipe and held by nothing else (`{cpu: .a, memory: .b} | with_entries(...)`): the members
  // that pass are kept in order where they are, the others dropped, no second object built.
  Flow KeepMembersInPlace(const VNode& n, VVal* object) {
    if (!Step()) return Flow::kBail;
    const VNode& test = p_->nodes[p_->nodes[n.kids[0]].kids[0]];
    const auto op = static_cast<ir::BinaryOp>(test.a);
    const VVal constant = VVal::Ref(Const(test.c));
    std::vector<VVal>& items = object->mutable_composite().items;
    size_t kept = 0;
    for (size_t i = 0; i < items.size(); i += 2) {
      if (!Step()) return Flow::kBail;
      if (!ComparisonHolds(op, CompareViews(items[i + 1], constant))) continue;
      if (kept != i) {
        items[kept] = std::move(items[i]);
        items[kept + 1] = std::move(items[i + 1]);
      }
      kept += 2;
    }
    items.resize(kept);
    return Flow::kContinue;
  }

  // object[name] of an object of any representation, and whether the object has that key.
  // Precondition: object.kind() == Kind::Object.
  static VVal MemberOf(const VVal& object, std::string_view name, bool* present) {
    *present = false;
    if (object.is_dom()) return FindField(object.dom(), name, present);
    if (object.is_composite()) {
      const Composite& built = object.composite();
      for (size_t i = 0; i < built.items.size(); i += 2) {
        if (built.items[i].string() == name) {
          *present = true;
          return built.items[i + 1];
        }
      }
      return VVal();
    }
    const Value* found = object.value().Find(name);
    *present = found != nullptr;
    return found != nullptr ? VVal::Of(*found) : VVal();
  }

  // `map(select(c)) | first` on an array of the document (VNode::first_selected; `collect` the
  // select_each kCollect): c is tested on every element, in order, as the map does (an error on
  // a later element is still the resolver's error), and the first element it holds for is the
  // output, null when none.
  Flow FirstSelected(const VNode& collect, element array, VVal* out) {
    bool found = false;
    const Flow f = SelectEach(collect, array, [&](VVal item) {
      if (!found) {
        *out = std::move(item);
        found = true;
      }
      return Flow::kContinue;
    });
    if (f == Flow::kContinue && !found) out->SetNull();
    return f;
  }

  // The `.[] | select(c)` of a select_each kCollect (`collect`) on an array of the document: c
  // tested on each element in one loop, in order, and keep(element as a view) for each it holds
  // for; the first error or bail (c's, or keep's) ends it.
  template <class Keep>
  Flow SelectEach(const VNode& collect, element array, Keep keep) {
    const uint32_t condition = p_->nodes[p_->nodes[collect.kids[0]].kids[1]].kids[0];
    for (element e : ArrayOf(array)) {
      if (!Step()) return Flow::kBail;
      VVal item = VVal::Dom(e);
      bool holds = false;
      Flow f = Holds(condition, item, &holds);
      if (f == Flow::kContinue && holds) f = keep(std::move(item));
      if (f != Flow::kContinue) return f;
    }
    return Flow::kContinue;
  }

  // `[f]`: the outputs kept as they are (a Composite), so DOM elements are not copied.
  Flow EvalCollect(const VNode& n, const VVal& in, Cont k) {
    Composite* built = NewComposite(false);
    VVal array = VVal::Adopt(built);
    if (n.select_each && in.is_dom() && in.dom().type() == element_type::ARRAY) {
      // `[.[] | select(c)]` on an array of the document: each element that passes kept as a
      // view (the order, outcomes and errors of the pipeline's).
      const Flow f = SelectEach(n, in.dom(), [&](VVal item) {
        if (!ChargeBytes(16)) return Flow::kBail;
        built->items.push_back(std::move(item));
        return Flow::kContinue;
      });
      return f == Flow::kContinue ? k(array) : f;
    }
    Flow f = Eval(n.kids[0], in, [&](const VVal& v) {
      if (!ChargeBytes(16)) return Flow::kBail;
      built->items.push_back(v);
      return Flow::kContinue;
    });
    if (f != Flow::kContinue) return f;
    return k(array);
  }

  // A comparison (==, !=, <, ...) whose two operands have a direct form.
  static bool IsDirectComparison(const VNode& c) {
    return c.direct_operands && c.a >= static_cast<uint32_t>(ir::BinaryOp::Eq);
  }

  // Whether single kid `id` of a single `and` / `or` holds (`*scratch` may take its value): a
  // comparison of direct operands compares in line, without a boolean VVal, and a nested `and` /
  // `or` (the chains of status resolvers) recurses through Holds' small frames.
  [[gnu::always_inline]] Flow KidHolds(uint32_t id, const VVal& in, VVal* scratch, bool* holds) {
    const VNode& c = p_->nodes[id];
    if (c.memo == 0) {
      if (IsDirectComparison(c)) return DirectComparisonHolds(c, in, holds);
      if (c.op == VOp::kAnd || c.op == VOp::kOr) return Holds(id, in, holds);
      if (c.type_test) return TypeTestHolds(c, in, holds);
    }
    Flow f = Single(id, in, scratch);
    *holds = f == Flow::kContinue && Truthy(*scratch);
    return f;
  }

  // Whether condition `id` (VNode::condition) holds on `in`: its one output is truthy. A shared
  // subexpression (VNode::memo) is read through its slot. `and` and `or` test their right side
  // only when the left one does not decide, as jq; comparisons of direct operands compare in
  // line, without a boolean VVal.
  Flow Holds(uint32_t id, const VVal& in, bool* holds) {
    const VNode& c = p_->nodes[id];
    if (c.memo != 0) [[unlikely]] return HoldsSingle(id, in, holds);
    switch (c.op) {
      case VOp::kFieldCompare:
        if (!Step()) return Flow::kBail;
        return FieldCompareHolds(c, in, holds);
      case VOp::kAnd:
      case VOp::kOr: {
        if (!Step()) return Flow::kBail;
        Flow f = Holds(c.kids[0], in, holds);
        if (f != Flow::kContinue || *holds != (c.op == VOp::kAnd)) return f;
        return Holds(c.kids[1], in, holds);
      }
      case VOp::kBinary:
        if (IsDirectComparison(c)) return DirectComparisonHolds(c, in, holds);
        if (c.type_test) return TypeTestHolds(c, in, holds);
        break;
      default: break;
    }
    return HoldsSingle(id, in, holds);
  }
  // Holds' cases with VVal locals, out of line: Holds recurses through `and` / `or` once per
  // element, and their locals would make every one of its frames dearer.
  [[gnu::noinline]] Flow HoldsSingle(uint32_t id, const VVal& in, bool* holds) {
    VVal v;
    Flow f = Single(id, in, &v);
    *holds = f == Flow::kContinue && Truthy(v);
    return f;
  }
  // Whether kFieldCompare `c`, `.k OP c`, holds on `in` (its step taken by the caller): one key
  // of a DOM object read through the runner's member lookups, other inputs and longer key chains
  // through FieldPath.
  [[gnu::noinline, gnu::hot]] Flow FieldCompareHolds(const VNode& c, const VVal& in, bool* holds) {
    const auto op = static_cast<ir::BinaryOp>(c.a);
    if (c.keys.size() == 1 && in.is_dom() && in.dom().type() == element_type::OBJECT) {
      *holds = HoldsAgainstConstant(op, cx_.member_lookups->LookUp(in.dom(), c.keys[0], cx_.paths->generation), Const(c.c));
      return Flow::kContinue;
    }
    return FieldPath(in, c.keys, [&](const VVal& field) {
      *holds = HoldsAgainstConstant(op, field, Const(c.c));
      return Flow::kContinue;
    });
  }
  // Whether `type == "name"` (`!=`: VNode::type_test) holds on `in`: the name of its kind against
  // the constant, with the steps of the comparison, `type` and the constant, as the tree takes.
  Flow TypeTestHolds(const VNode& c, const VVal& in, bool* holds) {
    if (!Step() || !Step() || !Step()) return Flow::kBail;
    const bool equal = TypeNameOf(in.kind()).AsString() == Const(p_->nodes[c.kids[1]].a).AsString();
    *holds = equal == (static_cast<ir::BinaryOp>(c.a) == ir::BinaryOp::Eq);
    return Flow::kContinue;
  }
  [[gnu::noinline]] Flow DirectComparisonHolds(const VNode& c, const VVal& in, bool* holds) {
    if (!Step()) return Flow::kBail;
    VVal a, b;
    Flow f = DirectOperands(c, in, &a, &b);
    if (f == Flow::kContinue) *holds = ComparisonHolds(static_cast<ir::BinaryOp>(c.a), CompareViews(a, b));
    return f;
  }

  // `{k1: v1, ...}`, one object per combination of the keys' and values' outputs. `members` holds
  // the chosen key, value, key, value, ... so far.
  Flow EvalObject(const VNode& n, size_t entry, const VVal& in, std::vector<VVal>* members, Cont k) {
    if (entry * 2 >= n.kids.size()) {
      if (!ChargeBytes(16 * members->size())) return Flow::kBail;
      if (!n.distinct_constant_keys && !KeysUnique(*members)) return k(ObjectWithRepeatedKeys(*members));
      Composite* built = NewComposite(true);
      built->items = *members;
      return k(VVal::Adopt(built));
    }
    return Eval(n.kids[entry * 2], in, [&](const VVal& key) {
      return Eval(n.kids[entry * 2 + 1], in, [&](const VVal& value) {
        if (key.kind() != Kind::String) return Flow::kError;  // "Cannot use ... as object key"
        members->push_back(key);
        members->push_back(value);
        Flow f = EvalObject(n, entry + 1, in, members, k);
        members->resize(members->size() - 2);
        return f;
      });
    });
  }

  // `{k1: v1, ...}` whose keys and values are single: the one object, its members evaluated
  // straight into the composite in EvalObject's order (key, value, then the key's type).
  Flow SingleObject(const VNode& n, const VVal& in, VVal* out) {
    Composite* built = NewComposite(true);
    VVal object = VVal::Adopt(built);
    built->items.resize(n.kids.size());
    for (size_t i = 0; i + 1 < n.kids.size(); i += 2) {
      if (n.distinct_constant_keys) {  // string constants: no evaluation, no key check
        built->items[i].SetRef(Const(p_->nodes[n.kids[i]].a));
      } else {
        Flow f = Single(n.kids[i], in, &built->items[i]);
        if (f != Flow::kContinue) return f;
        if (built->items[i].kind() != Kind::String) return Flow::kError;  // "Cannot use ... as object key"
      }
      Flow f = Single(n.kids[i + 1], in, &built->items[i + 1]);
      if (f != Flow::kContinue) return f;
    }
    if (!ChargeBytes(16 * built->items.size())) return Flow::kBail;
    *out = n.distinct_constant_keys || KeysUnique(built->items) ? std::move(object) : ObjectWithRepeatedKeys(built->items);
    return Flow::kContinue;
  }

  // An object construction that repeats a key (key, value, key, value, ...) as a Value, where
  // MakeObject decides which value stays (the last, at the first key's place).
  VVal ObjectWithRepeatedKeys(const std::vector<VVal>& members) const {
    std::vector<Member> repeated;
    for (size_t i = 0; i < members.size(); i += 2) {
      repeated.emplace_back(Materialize(members[i]), Materialize(members[i + 1]));
    }
    return VVal::Of(Value::MakeObject(std::move(repeated)));
  }

  // Whether the string keys of key, value, key, value, ... differ from each other.
  static bool KeysUnique(const std::vector<VVal>& members) {
    return !KeysRepeat(members.size() / 2, [&](size_t i) { return members[2 * i].string(); });
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

  // A pure builtin without arguments on its input (VOp::kBuiltin): one value or an error.
  Flow EvalBuiltin(const VNode& n, const VVal& in, Cont k) {
    if (static_cast<ir::BuiltinId>(n.a) == ir::BuiltinId::ToEntries && in.kind() == Kind::Object &&
        (in.is_dom() || in.is_composite())) {
      // A DOM object that repeats a key goes to the builtin (ParseJson decides which stays).
      std::vector<Field> fields;
      if (!in.is_dom() || ObjectFields(in.dom(), cx_.sort_keys, &fields)) return EntriesOf(in, fields, k);
    }
    if (static_cast<ir::BuiltinId>(n.a) == ir::BuiltinId::ToNumber) {
      VVal number;
      const VVal* out;
      const Flow f = ToNumberOf(in, &number, &out);
      return f == Flow::kContinue ? k(*out) : f;
    }
    Value out, error;
    if (!ops::CallBuiltin(static_cast<ir::BuiltinId>(n.a), MaterializeShared(in), nullptr, 0, &out, &error)) {
      return Flow::kError;
    }
    return Built(std::move(out), k);
  }

  Flow EvalLength(const VVal& in, Cont k) {
    VVal count;
    const Flow f = LengthOf(in, &count);
    return f == Flow::kContinue ? k(count) : f;
  }
  // `length` of `in` into *out (a number; the tree's node and kLength): a string's codepoints, an
  // array's elements, an object's distinct keys (a DOM object that repeats a key bails to the
  // regular reader), null's 0, a number's absolute value; a boolean is the builtin's error.
  [[gnu::noinline]] static Flow LengthOf(const VVal& in, VVal* out) {
    if (in.is_dom()) {
      switch (in.dom().type()) {
        case element_type::NULL_VALUE: out->SetNumber(0); return Flow::kContinue;
        case element_type::STRING:
          out->SetNumber(static_cast<double>(eval_internal::CodepointCount(in.dom().get_string().value_unsafe())));
          return Flow::kContinue;
        case element_type::ARRAY: {
          size_t count = 0;
          for (element child : ArrayOf(in.dom())) {
            (void)child;
            ++count;
          }
          out->SetNumber(static_cast<double>(count));
          return Flow::kContinue;
        }
        case element_type::OBJECT: {
          std::vector<Field> fields;
          if (!ObjectFields(in.dom(), false, &fields)) return Flow::kBail;
          out->SetNumber(static_cast<double>(fields.size()));
          return Flow::kContinue;
        }
        default: break;
      }
    }
    if (in.is_composite()) {
      out->SetNumber(static_cast<double>(in.composite().size()));
      return Flow::kContinue;
    }
    Value length, error;
    if (!ops::CallBuiltin(ir::BuiltinId::Length, in.ToValue(false), nullptr, 0, &length, &error)) return Flow::kError;
    out->SetNumber(length.AsNumber());
    return Flow::kContinue;
  }

  // any(f): true at the first truthy output of f on an element of .[]; all(f): false at the first
  // falsy one (the prelude's isempty(first(...)) short-circuit, errors before it propagate).
  Flow EvalAnyAll(const VNode& n, const VVal& in, Cont k) {
    bool is_any = n.op == VOp::kAny;
    bool decided = false;
    if (p_->nodes[n.kids[0]].condition && in.is_dom() && in.dom().type() == element_type::ARRAY) {
      // On an array of the document, with one boolean per element: one loop, stopping at the
      // first element that decides.
      for (element e : ArrayOf(in.dom())) {
        if (!Step()) return Flow::kBail;
        bool holds = false;
        Flow f = Holds(n.kids[0], VVal::Dom(e), &holds);
        if (f != Flow::kContinue) return f;
        if (holds == is_any) {
          decided = true;
          break;
        }
      }
      return k(VVal::Bool(is_any ? decided : !decided));
    }
    Flow f = Iterate(in, [&](const VVal& item) {
      return Eval(n.kids[0], item, [&](const VVal& c) {
        if (Truthy(c) != is_any) return Flow::kContinue;
        decided = true;
        return Flow::kStop;
      });
    });
    if (!(f == Flow::kStop && decided) && f != Flow::kContinue) return f;
    return k(VVal::Bool(is_any ? decided : !decided));
  }

  const EvalContext& cx_;
  const ViewProgram* p_ = nullptr;
  eval_internal::StepBudget budget_;
  uint64_t slice_ = 0;
  uint64_t memory_ = 0;
  std::vector<VVal> slots_;
  std::vector<Field> fields_scratch_;  // EvalWithEntries' member list, its capacity kept
  // The nodes below the iteration at the element RunFlatEach's code runs on (kPathBelow's reads).
  PathCache::Place element_nodes_{nullptr, nullptr};
  // The main code's instruction at which Exec last stopped with an error or a bail (Failed).
  size_t failed_at_ = 0;
};

}  // namespace

// ---- ViewOutput

const std::vector<ViewOutput> ViewOutputs::kNone;

static_assert(sizeof(element) == 16, "ViewOutput keeps a simdjson::dom::element in 16 bytes");

ViewOutput ViewOutput::OfComposite(const ViewComposite* built, bool sort_keys) noexcept {
  ViewOutput out(Form::kComposite);
  out.composite_ = built;
  out.sort_keys_ = sort_keys;
  return out;
}

void RetainComposite(const ViewComposite* built) noexcept {
  ++const_cast<Composite*>(static_cast<const Composite*>(built))->refs;
}
void ReleaseComposite(const ViewComposite* built) noexcept {
  VVal::Adopt(const_cast<Composite*>(static_cast<const Composite*>(built)));  // dropped: one reference less
}

namespace {

// A composite output written compactly in construction order (ViewOutput::WriteJson): members
// that are views are written from the DOM where they are, the rest through their Value.
void WriteCompositeJson(const Composite& built, bool sort_keys, std::string* out, const JsonWriteOptions& options) {
  JsonWriteOptions view_options = options;
  view_options.sort_keys = options.sort_keys || sort_keys;
  out->push_back(built.object ? '{' : '[');
  const size_t first = built.object ? 1 : 0, step = built.object ? 2 : 1;
  for (size_t i = first; i < built.items.size(); i += step) {
    if (i != first) out->push_back(',');
    if (built.object) {
      wm::WriteJson(built.items[i - 1].ToValue(false), out, options);
      out->push_back(':');
    }
    const VVal& item = built.items[i];
    if (item.is_dom()) json_dom::WriteElement(item.dom(), out, view_options);
    else if (item.is_composite()) WriteCompositeJson(item.composite(), sort_keys, out, options);
    else wm::WriteJson(item.ToValue(sort_keys), out, options);
  }
  out->push_back(built.object ? '}' : ']');
}

}  // namespace

bool ViewOutput::IsString() const {
  if (form_ == Form::kComposite || form_ == Form::kNull) return false;
  if (form_ == Form::kValue) return value_.IsString();
  element e;
  std::memcpy(static_cast<void*>(&e), element_, sizeof(element));
  return e.type() == simdjson::dom::element_type::STRING;
}

Value ViewOutput::ToValue() const {
  if (form_ == Form::kNull) return Value();
  if (form_ == Form::kComposite) return CompositeToValue(*static_cast<const Composite*>(composite_), sort_keys_);
  if (form_ == Form::kValue) return value_;
  element e;
  std::memcpy(static_cast<void*>(&e), element_, sizeof(element));
  return ConvertView(e, sort_keys_);
}

void ViewOutput::WriteJson(std::string* out, const JsonWriteOptions& options) const {
  if (form_ == Form::kComposite && options.indent == 0 && !options.sort_keys) {
    // Compact and in construction order: the members written where they are (views from the DOM).
    WriteCompositeJson(*static_cast<const Composite*>(composite_), sort_keys_, out, options);
    return;
  }
  if (form_ == Form::kComposite) {
    wm::WriteJson(ToValue(), out, options);
    return;
  }
  if (form_ == Form::kValue) {
    wm::WriteJson(value_, out, options);
    return;
  }
  if (form_ == Form::kNull) {
    wm::WriteJson(Value(), out, options);
    return;
  }
  element e;
  std::memcpy(static_cast<void*>(&e), element_, sizeof(element));
  JsonWriteOptions view_options = options;
  view_options.sort_keys = options.sort_keys || sort_keys_;
  json_dom::WriteElement(e, out, view_options);
}

bool StepsAndTimeAtLeast(uint64_t fuel, uint64_t timeout_ms, uint64_t default_fuel, uint64_t default_timeout_ms) {
  bool time = timeout_ms == 0 || (default_timeout_ms != 0 && timeout_ms >= default_timeout_ms);
  return fuel >= default_fuel && time;
}

bool LimitsAllowView(const EvalLimits& limits) {
  const EvalLimits defaults;
  return StepsAndTimeAtLeast(limits.fuel, limits.timeout_ms, defaults.fuel, defaults.timeout_ms);
}

namespace {

// The value tests native programs call back into (NativeViewHelpers), as Exec calls them.
int32_t NativeHoldsAgainstConstant(uint32_t op, const void* value, const void* constant) {
  return HoldsAgainstConstant(static_cast<ir::BinaryOp>(op), *static_cast<const VVal*>(value),
                              *static_cast<const Value*>(constant));
}
int32_t NativeCompare(const void* a, const void* b) {
  return CompareViews(*static_cast<const VVal*>(a), *static_cast<const VVal*>(b));
}
int32_t NativeTruthy(const void* value) { return Truthy(*static_cast<const VVal*>(value)); }
void NativeSetNumber(void* place, double number) { static_cast<VVal*>(place)->SetNumber(number); }
int32_t NativeEmptyArray(const void* value) {
  const VVal& v = *static_cast<const VVal*>(value);
  return !v.is_dom() && v.kind() == Kind::Array && IsEmptyContainer(v);
}

}  // namespace

const NativeViewHelpers Evaluator::kNativeHelpers = {NativeHoldsAgainstConstant, NativeCompare,
                                                     NativeTruthy,      Evaluator::NativeMemoLoad,
                                                     Evaluator::NativeMemoStore, NativeEmptyArray,
                                                     NativeSetNumber,   Evaluator::NativeBuildObject,
                                                     Evaluator::NativeSumIsEmpty, Evaluator::NativeToNumber,
                                                     Evaluator::NativeLength};

namespace {
// The main code's kReturn (its first; the blocks follow it).
size_t MainReturn(const FlatCode& code) {
  size_t pc = 0;
  while (pc + 1 < code.code.size() && code.code[pc].op != FlatOp::kReturn) ++pc;
  return pc;
}
}  // namespace

bool NativeFieldEscapes(const FlatCode& code, size_t pc) {
  const uint32_t r = code.code[pc].r;
  const size_t main_return = MainReturn(code);
  for (size_t at = 0; at < code.code.size(); ++at) {
    const FlatInstr& use = code.code[at];
    if (use.a != r) continue;
    // A move or kToNumber (which passes a number through) hands the value on; a return hands it
    // out, but for a block's (an `any`'s or a search's condition, read at once).
    if (use.op == FlatOp::kMove || use.op == FlatOp::kToNumber) return true;
    if (use.op == FlatOp::kReturn && (at == main_return || (code.bind_slot != FlatCode::kNoSlot && at >= code.bind_entry))) {
      return true;
    }
  }
  return false;
}

bool NativeProgramSupported(const FlatCode& code, const ViewProgram& program) {
  if (code.code.empty() || code.code.size() > kNativeProgramMaxLength) return false;
  // `try`'s code (FlattenTry) is a single program's: its caught error is a run without output.
  if (code.catch_from != FlatCode::kNoCatch && (code.each_iteration != 0 || code.bind_slot != FlatCode::kNoSlot)) {
    return false;
  }
  const bool binds = code.bind_slot != FlatCode::kNoSlot;
  // Each region (the main code from 0, a block from its kAnyAll's b) runs to its first kReturn,
  // jumping forward inside it.
  const auto region_ok = [&](size_t start) {
    for (size_t pc = start; pc < code.code.size(); ++pc) {
      const FlatInstr& in = code.code[pc];
      if (in.op == FlatOp::kReturn) return true;
      const bool jumps = in.op == FlatOp::kJump || in.op == FlatOp::kJumpIfFalsy || in.op == FlatOp::kJumpIfTruthy ||
                         in.op == FlatOp::kMemoLoad;
      if (jumps && (in.b <= pc || in.b >= code.code.size())) return false;
      if (jumps) {
        for (size_t between = pc + 1; between < in.b; ++between) {
          if (code.code[between].op == FlatOp::kReturn) return false;  // out of the region
        }
      }
    }
    return false;
  };
  if (!region_ok(0) || (binds && (code.bind_entry >= code.code.size() || !region_ok(code.bind_entry)))) return false;
  for (size_t pc = 0; pc < code.code.size(); ++pc) {
    const FlatInstr& in = code.code[pc];
    switch (in.op) {
      case FlatOp::kConst: case FlatOp::kPath: case FlatOp::kPathOrConst: case FlatOp::kCompare:
      case FlatOp::kCompareConst: case FlatOp::kNot: case FlatOp::kTruthy: case FlatOp::kSetBool:
      case FlatOp::kMove: case FlatOp::kJump: case FlatOp::kJumpIfFalsy: case FlatOp::kJumpIfTruthy:
      case FlatOp::kMemoLoad: case FlatOp::kMemoStore: case FlatOp::kReturn: case FlatOp::kObject:
      case FlatOp::kSumIsEmpty: case FlatOp::kToNumber: case FlatOp::kLength:
        break;
      case FlatOp::kPathBelow:
        if (code.each_iteration == 0) return false;
        break;
      case FlatOp::kArith:
        if (in.cmp > static_cast<uint8_t>(ir::BinaryOp::Mul)) return false;  // + - * only
        break;
      case FlatOp::kAnyAll: case FlatOp::kFirstWhere:
        if (in.b <= pc || in.b >= code.code.size() || !region_ok(in.b)) return false;
        break;
      case FlatOp::kVar:  // the bound variable only (`E as $x | ...`): other slots are Exec's
        if (!binds || in.a != code.bind_slot) return false;
        break;
      case FlatOp::kFieldCompare:
        if (in.n >= program.nodes.size() || program.nodes[in.n].keys.size() != 1) return false;
        break;
      case FlatOp::kField:
        if (in.n >= program.nodes.size() || program.nodes[in.n].keys.size() != 1) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

// ---- FusedKind

// Per resolver: its native program and the program's table (native_view.h), which points at the
// constants' values (`constants`, one Ref VVal per constant of the program, sized once).
struct FusedKind::NativePrograms {
  std::vector<NativeProgramFn> by_resolver;
  std::vector<std::vector<const void*>> tables;
  std::vector<std::vector<VVal>> constants;
};

FusedKind::FusedKind(std::vector<std::shared_ptr<const ir::Program>> programs, FusedKindOptions options,
                     std::vector<std::shared_ptr<const Filter>> fallbacks, const TailEngine& tail_engine)
    : programs_(std::move(programs)), options_(options), fallbacks_(std::move(fallbacks)),
      trie_(std::make_unique<PathTrie>()) {
  fallbacks_.resize(programs_.size());
  for (size_t i = 0; i < programs_.size(); ++i) {
    if (fallbacks_[i] == nullptr) fallbacks_[i] = MakeInterpreter(programs_[i]);
    std::string reason;
    views_.push_back(LowerToView(*programs_[i], trie_.get(), &reason));
    reasons_.push_back(views_.back() ? "" : reason);
    split_heads_.emplace_back();
    split_tails_.emplace_back();
    if (!views_.back()) SplitAtPipe(i, tail_engine);
  }
  std::vector<ViewProgram*> lowered;
  for (size_t i = 0; i < programs_.size(); ++i) {
    if (views_[i] != nullptr) lowered.push_back(views_[i].get());
    if (split_heads_[i] != nullptr) lowered.push_back(split_heads_[i].get());
  }
  memo_iterations_ = ShareRepeatedSubexpressions(lowered, *trie_).iteration;
  for (size_t i = 0; i < programs_.size(); ++i) {
    const ViewProgram* view = views_[i] != nullptr ? views_[i].get() : split_heads_[i].get();
    flat_.push_back(view != nullptr ? Flatten(*view, *trie_, memo_iterations_) : nullptr);
  }
  // The parts the -0 check covers (Run): what any program or split head reads whole.
  std::vector<bool> observed(trie_->nodes.size(), false);
  for (const ViewProgram* view : lowered) MarkObservedNodes(*view, *trie_, &observed);
  observes_whole_document_ = observed[0];
  for (uint32_t node = 1; node < trie_->nodes.size() && !observes_whole_document_; ++node) {
    bool below_marked = false;  // a marked ancestor's check covers this node's words
    for (uint32_t up = trie_->nodes[node].parent; up != 0 && !below_marked; up = trie_->nodes[up].parent) {
      below_marked = observed[up];
    }
    if (!observed[node] || below_marked) continue;
    const uint32_t owner = trie_->nodes[node].owner;
    if (owner == 0) {
      observed_nodes_.push_back(node);
      continue;
    }
    auto group = std::find_if(observed_below_.begin(), observed_below_.end(),
                              [&](const ObservedBelow& g) { return g.iteration == owner; });
    if (group == observed_below_.end()) group = observed_below_.insert(observed_below_.end(), ObservedBelow{owner, {}});
    group->nodes.push_back(node);
  }
  if (options_.native != nullptr) CompileNative();
}

// The kind's fills and the flat code of its programs that native code supports, compiled by
// options_.native. A program the runner answers without its code (a path, a literal) is left out.
void FusedKind::CompileNative() {
  NativeViewPlan plan;
  {
    PathCache numbering;  // the places a runner's cache keeps the nodes at
    numbering.Init(trie_.get(), false);
    plan.below_index = std::move(numbering.below_index);
  }
  plan.fills = MakeFillPlan(*trie_, plan.below_index);
  std::vector<uint32_t> resolvers;
  for (uint32_t i = 0; i < programs_.size(); ++i) {
    const ViewProgram* view = views_[i].get();
    const FlatCode* code = flat_[i].get();
    if (view == nullptr || code == nullptr || !NativeProgramSupported(*code, *view)) continue;
    if (TrieValueOf(*view, *trie_, view->root) >= 0 || view->nodes[view->root].op == VOp::kConst) continue;
    const bool object_memo_only = std::all_of(code->code.begin(), code->code.end(), [&](const FlatInstr& in) {
      return (in.op != FlatOp::kMemoLoad && in.op != FlatOp::kMemoStore) || memo_iterations_[in.a] == 0;
    });
    if (!object_memo_only) continue;
    plan.programs.push_back({i, code, view, static_cast<uint32_t>(view->consts.size())});
    resolvers.push_back(i);
  }
  if (plan.fills.roots.empty() && plan.programs.empty()) return;
  native_code_ = options_.native->Compile(plan, &native_error_);
  if (native_code_ == nullptr) return;
  native_fill_by_node_.assign(trie_->nodes.size(), nullptr);
  for (size_t r = 0; r < plan.fills.roots.size(); ++r) {
    native_fill_by_node_[plan.fills.roots[r].trie_node] = native_code_->Fill(r);
  }
  native_programs_ = std::make_unique<NativePrograms>();
  NativePrograms& programs = *native_programs_;
  programs.by_resolver.assign(programs_.size(), nullptr);
  programs.tables.resize(programs_.size());
  programs.constants.resize(programs_.size());
  for (size_t p = 0; p < resolvers.size(); ++p) {
    const uint32_t i = resolvers[p];
    const std::vector<Value>& consts = views_[i]->consts;
    std::vector<VVal>& refs = programs.constants[i];
    for (const Value& c : consts) refs.push_back(VVal::Ref(c));  // sized once: the table points into it
    std::vector<const void*>& table = programs.tables[i];
    table = {&kNullValue, &kTrueValue, &kFalseValue};
    for (const VVal& ref : refs) table.push_back(&ref);
    for (const Value& c : consts) table.push_back(&c);
    programs.by_resolver[i] = native_code_->Program(p);
  }
}

bool FusedKind::native_program(size_t i) const {
  return native_programs_ != nullptr && native_programs_->by_resolver[i] != nullptr;
}

// jq's `a | b | c` is Pipe(a, Pipe(b, c)). The head grows one stage at a time (a, then a | b as a
// new Pipe node) while the view engine still takes it; the tail is what remains. Only a pipe at
// the root of the entry function is split: its stages see nothing but their input (a variable
// bound around the pipe would make the root a Bind).
void FusedKind::SplitAtPipe(size_t i, const TailEngine& tail_engine) {
  const ir::Program& program = *programs_[i];
  if (program.functions.empty() || program.functions[0].body == ir::kNoNode) return;
  const ir::Node& root = program.nodes[program.functions[0].body];
  if (root.op != ir::Op::Pipe || root.kids.size() != 2) return;
  auto with_body = [&program](ir::NodeId body) {
    auto copy = std::make_shared<ir::Program>(program);
    copy->functions[0].body = body;
    return copy;
  };
  std::shared_ptr<ir::Program> head;
  ir::NodeId tail = ir::kNoNode;
  std::string reason;
  PathTrie scratch = *trie_;  // the attempts must not leave paths behind
  std::shared_ptr<ir::Program> candidate = with_body(root.kids[0]);
  ir::NodeId rest = root.kids[1];
  while (LowerToView(*candidate, &scratch, &reason)) {
    head = candidate;
    tail = rest;
    const ir::Node& next = program.nodes[rest];
    if (next.op != ir::Op::Pipe || next.kids.size() != 2) break;
    // head | next.kids[0], built in a copy of the head's program (its last node is the head).
    ir::Node grown;
    grown.op = ir::Op::Pipe;
    grown.kids = {head->functions[0].body, next.kids[0]};
    grown.source_begin = root.source_begin;
    grown.source_end = next.source_end;
    candidate = std::make_shared<ir::Program>(*head);
    candidate->nodes.push_back(grown);
    candidate->functions[0].body = static_cast<ir::NodeId>(candidate->nodes.size() - 1);
    rest = next.kids[1];
  }
  if (head == nullptr) return;
  split_heads_[i] = LowerToView(*head, trie_.get(), &reason);
  if (split_heads_[i] == nullptr) return;
  std::shared_ptr<ir::Program> tail_program = with_body(tail);
  if (tail_engine) split_tails_[i] = tail_engine(tail_program);
  if (split_tails_[i] == nullptr) split_tails_[i] = MakeInterpreter(tail_program);
}

FusedKind::~FusedKind() = default;

bool FusedKind::fused(size_t i) const { return views_[i] != nullptr; }

size_t FusedKind::fused_count() const {
  return static_cast<size_t>(std::count_if(views_.begin(), views_.end(), [](const auto& v) { return v != nullptr; }));
}

// ---- FusedRunner

// How the runner answers one resolver, decoded once so that the per-object loop reads one flat
// array instead of chasing each program's nodes.
struct ResolverPlan {
  // kEachPath: `.a.b[]` or `.a.b[].c.d`, each element's path emitted without the evaluator.
  // kConstant: a literal (`1`), whose one output is the same on every object. kObjectOfPaths:
  // `{k: P, ...}`, each value a path from the root or a literal (a Pod's `{metadata: .metadata,
  // spec: .spec}`), built without the evaluator where it cannot reach a limit (else its program).
  enum class How : uint8_t { kFallback, kPath, kEachPath, kProgram, kSplit, kConstant, kObjectOfPaths };
  How how = How::kFallback;
  uint32_t node = 0;                      // kPath: the (absolute) trie node; kEachPath: the node below the iteration
  uint32_t iteration = 0;                 // kEachPath: the iteration node
  bool optional = false;                  // kEachPath: `.a[]?`
  bool keys = false;                      // kEachPath: each element's key (`.a | to_entries[] | .key`)
  uint32_t below = 0;                     // kEachPath below the iteration: the node's below_index
  const ViewProgram* program = nullptr;   // kProgram; kSplit: the head
  const FlatCode* flat = nullptr;         // kProgram, kSplit: the program's flat code, if any
  NativeProgramFn native = nullptr;       // kProgram: the flat code as native code, if any
  const void* const* native_table = nullptr;
  const Filter* tail = nullptr;           // kSplit
  // kObjectOfPaths: its output's place in State::object_outputs, and the members in construction
  // order (distinct string keys).
  uint32_t slot = 0;
  struct Member {
    const Value* key;
    const Value* constant;  // the value, when it is a literal; else null
    uint32_t node;          // else the absolute trie node whose value it is
  };
  std::vector<Member> members;
};

// The kEachPath resolvers over one iteration (and `[]?` or not): answered together
// (AnswerEachPathGroups), each element filled once and each resolver's outputs read by offset.
struct EachPathGroup {
  uint32_t iteration = 0;
  bool optional = false;
  std::vector<uint32_t> resolvers;
};

struct FusedRunner::State {
  simdjson::dom::parser parser;
  PathCache paths;
  std::vector<ResolverPlan> plan;
  Value document;            // the converted object, for fallbacks
  bool document_ready = false;
  std::vector<ViewOutput> head_outputs;  // kSplit: the head's outputs on this object
  FlatRegisters flat_registers;          // sized for the kind's largest flat code
  ConvertedDocuments converted;          // this object's sub-documents converted for builtins and tails
  SubexpressionMemo memo;
  MemberLookups member_lookups;
  // The kPath resolvers (a catalog kind's most common), answered first in one tight loop, and
  // the others, which the main loop runs: a kind's hundred path resolvers cost the main loop nothing.
  std::vector<uint32_t> path_resolvers;
  std::vector<uint32_t> other_resolvers;
  // The kProgram resolvers with native code and no iteration (one output each, the value the
  // code returns), in order. Where every path resolver was answered on the DOM, the k-th one's
  // output is set in place at outputs_[path count + k], as the paths' are, with no Emit, and the
  // results are written only when the last run's are not already these (native_results_current).
  // Else (and for one that declines, errs or bails) each runs as the other resolvers do.
  std::vector<uint32_t> native_resolvers;
  // Those of them whose code builds objects (FlatCode::builds_objects): what they built is let go
  // after the loop (not after each, which would cost every kind a test per program).
  std::vector<uint32_t> native_builders;
  std::vector<uint32_t> native_left;  // this object's native resolvers not answered in place
  bool native_results_current = false;
  std::vector<uint32_t> path_nodes;  // per path resolver, in order: its trie node
  std::vector<EachPathGroup> each_path_groups;
  std::vector<uint32_t> each_path_failed;  // this object's, for Run to rerun on the regular engine
  // The kConstant resolvers and, in the same order, their outputs, made once per runner: their
  // results read this buffer, not the per-object one, and are written only when the last run's
  // are not already these (constant_results_current).
  std::vector<uint32_t> constant_resolvers;
  std::vector<ViewOutput> constant_outputs;
  bool constant_results_current = false;
  // The kObjectOfPaths resolvers' outputs, one place each (ResolverPlan::slot), kept from one
  // object to the next so that the object built for the last one is refilled, not built again.
  std::vector<ViewOutput> object_outputs;
  // Whether results_ hold what the path resolvers' loop gives when each is answered on the DOM
  // (status kOk, no error, fused, the k-th one's output at k): true after a run where they all
  // were, so that the next such run writes only their outputs (then each of those outputs holds
  // a view or null). A document the regular reader takes sets it false.
  bool path_results_current = false;
  // Whether this object's whole document has been checked for the integer -0 (ParseDom's whole
  // check, or the deferred one's scan of the text): until then only the observed parts are known
  // to hold none, and a fallback's conversion of the whole must check first.
  bool whole_document_checked = false;

  // What the evaluator reads of this runner on one run.
  EvalContext Context(const RunOptions& options, bool sort_keys, uint64_t* conversions) {
    return EvalContext{&paths,           &memo,      &options.limits, sort_keys,
                       options.globals, &converted, conversions,     &member_lookups};
  }
};

namespace {

// The iteration node of a program that is each element's key as `to_entries` gives it
// (`.a | to_entries[] | .key`: an iteration piped into its kEntryKey), else 0. Such a program
// needs no evaluator: a key is the tape's string word before its member's value (a view), and an
// array's element's key is its index.
uint32_t EachKeyIteration(const ViewProgram& view) {
  const VNode& top = view.nodes[view.root];
  if (top.op != VOp::kPipe) return 0;
  const VNode& each = view.nodes[top.kids[0]];
  const VNode& key = view.nodes[top.kids[1]];
  return each.op == VOp::kIterEach && key.op == VOp::kEntryKey && key.a == each.a ? each.a : 0;
}

// Whether the program is `{k: P, ...}` with distinct constant string keys and each value a literal
// or a path from the root (a trie node outside every iteration); if so, its members in *members.
bool ObjectOfPaths(const ViewProgram& view, const std::vector<uint32_t>& owner,
                   std::vector<ResolverPlan::Member>* members) {
  const VNode& top = view.nodes[view.root];
  if (top.op != VOp::kObject || !top.distinct_constant_keys) return false;
  std::vector<ResolverPlan::Member> found;
  for (size_t k = 0; k + 1 < top.kids.size(); k += 2) {
    const VNode& key = view.nodes[top.kids[k]];
    const VNode& value = view.nodes[top.kids[k + 1]];
    if (key.op != VOp::kConst || !view.consts[key.a].IsString()) return false;
    if (value.op == VOp::kConst) {
      found.push_back({&view.consts[key.a], &view.consts[value.a], 0});
    } else if (value.op == VOp::kPath && owner[value.a] == 0) {
      found.push_back({&view.consts[key.a], nullptr, value.a});
    } else {
      return false;
    }
  }
  *members = std::move(found);
  return true;
}

}  // namespace

FusedRunner::FusedRunner(const FusedKind& kind)
    : kind_(kind), state_(std::make_unique<State>()), results_(kind.size()) {
  state_->paths.Init(kind.trie_.get(), kind.options_.sort_keys);
  if (!kind.native_fill_by_node_.empty()) state_->paths.native_fills = kind.native_fill_by_node_.data();
  state_->memo.slots.resize(kind.memo_iterations_.size());
  for (size_t i = 0; i < kind.memo_iterations_.size(); ++i) {
    SubexpressionMemo::Slot& slot = state_->memo.slots[i];
    slot.iteration = kind.memo_iterations_[i];
    if (slot.iteration == 0) {  // the object's value: one place
      slot.known.assign(1, 0);
      slot.values.resize(1);
    }
  }
  for (size_t i = 0; i < kind.views_.size(); ++i) {
    const auto& view = kind.views_[i];
    ResolverPlan step;
    if (view != nullptr) {
      // A program whose output is a trie node's value: one path from the root, or each element's
      // (the iteration node itself, or a path below it).
      const int64_t value = TrieValueOf(*view, *kind.trie_, view->root);
      step.program = view.get();
      step.how = ResolverPlan::How::kProgram;
      if (value >= 0) {
        step.node = static_cast<uint32_t>(value);
        step.iteration = state_->paths.owner[step.node];
        step.how = step.iteration == 0 ? ResolverPlan::How::kPath : ResolverPlan::How::kEachPath;
        const VNode& top = view->nodes[view->root];
        const VNode& each = top.op == VOp::kPipe ? view->nodes[top.kids[0]] : top;
        step.optional = each.op == VOp::kIterEach && each.c != 0;
      } else if (const VNode& top = view->nodes[view->root]; top.op == VOp::kConst) {
        // Emit's output of the constant, made once: a scalar or string as it is, an array or
        // object in the key order the runner writes.
        const Value& constant = view->consts[top.a];
        const bool sort = kind.options_.sort_keys && (constant.IsArray() || constant.IsObject());
        step.how = ResolverPlan::How::kConstant;
        state_->constant_resolvers.push_back(static_cast<uint32_t>(i));
        state_->constant_outputs.emplace_back(sort ? SortKeysDeep(constant) : constant);
      } else if (kind.flat_[i] != nullptr && ObjectOfPaths(*view, state_->paths.owner, &step.members)) {
        step.how = ResolverPlan::How::kObjectOfPaths;
        step.slot = static_cast<uint32_t>(state_->object_outputs.size());
        state_->object_outputs.emplace_back();
      } else if (const uint32_t iteration = EachKeyIteration(*view); iteration != 0) {
        step.how = ResolverPlan::How::kEachPath;
        step.node = step.iteration = iteration;
        step.optional = view->nodes[view->nodes[view->root].kids[0]].c != 0;
        step.keys = true;
      }
    } else if (kind.split_heads_[i] != nullptr) {
      step.how = ResolverPlan::How::kSplit;
      step.program = kind.split_heads_[i].get();
      step.tail = kind.split_tails_[i].get();
    }
    step.flat = kind.flat_[i].get();
    if (step.how == ResolverPlan::How::kProgram && kind.native_program(i)) {
      step.native = kind.native_programs_->by_resolver[i];
      step.native_table = kind.native_programs_->tables[i].data();
    }
    if (step.flat != nullptr && state_->flat_registers.at.size() < step.flat->registers) {
      state_->flat_registers.at.resize(step.flat->registers);
      state_->flat_registers.scratch.resize(step.flat->registers);
    }
    if (step.how == ResolverPlan::How::kEachPath) {
      step.below = state_->paths.below_index[step.node];
      auto& groups = state_->each_path_groups;
      auto group = std::find_if(groups.begin(), groups.end(), [&](const EachPathGroup& g) {
        return g.iteration == step.iteration && g.optional == step.optional;
      });
      if (group == groups.end()) group = groups.insert(groups.end(), EachPathGroup{step.iteration, step.optional, {}});
      group->resolvers.push_back(static_cast<uint32_t>(i));
    } else if (step.how == ResolverPlan::How::kPath) {
      state_->path_resolvers.push_back(static_cast<uint32_t>(i));
    } else if (step.how == ResolverPlan::How::kProgram && step.native != nullptr && step.flat->each_iteration == 0) {
      state_->native_resolvers.push_back(static_cast<uint32_t>(i));
      if (step.flat->builds_objects) state_->native_builders.push_back(static_cast<uint32_t>(i));
    } else if (step.how != ResolverPlan::How::kConstant) {
      state_->other_resolvers.push_back(static_cast<uint32_t>(i));
    }
    if (step.how == ResolverPlan::How::kPath) state_->path_nodes.push_back(step.node);
    state_->plan.push_back(step);
  }
}

FusedRunner::~FusedRunner() = default;

namespace {

// A kProgram resolver or a split head: through its flat code when it has one. In line in Run's
// loop (one call less per program and object).
[[gnu::always_inline]] inline Flow RunProgram(Evaluator& evaluator, const ResolverPlan& step, FlatRegisters* registers, OutputSink sink) {
  if (step.flat != nullptr) {
    if (step.flat->each_iteration != 0) [[unlikely]] return evaluator.RunFlatEach(*step.program, *step.flat, registers, sink);
    return evaluator.RunFlat(*step.program, *step.flat, registers, sink);
  }
  return evaluator.Run(*step.program, sink);
}

// A kObjectOfPaths resolver's one output, the object its flat code's kObject builds (the same
// members, read from the trie), made in *kept without the evaluator: true when it is. The object
// *kept held for the last object is refilled in place when nothing else refers to it (the caller
// kept no copy), else let go for a new one. False, with *kept unchanged, where the program could
// reach a limit (the output cap, its flat code's steps, the object's bytes) or a path is an error
// or a bail: the program then runs and gives that.
bool BuildObjectOfPaths(PathCache& paths, const ResolverPlan& step, const EvalLimits& limits, bool sort_keys,
                        ViewOutput* kept) {
  const size_t n = step.members.size();
  if (limits.max_outputs <= 1 || limits.fuel < step.flat->code.size() || limits.max_memory_bytes < 32 * n) {
    return false;
  }
  for (const ResolverPlan::Member& member : step.members) {
    const VVal* value;
    if (member.constant == nullptr) {
      const PathCache::State state = paths.GetAbsolute(member.node, &value);
      if (state != PathCache::kKnown && state != PathCache::kMissing) return false;
    }
  }
  auto* built = const_cast<Composite*>(static_cast<const Composite*>(kept->composite()));
  if (built == nullptr || built->refs != 1) {
    built = NewComposite(true);  // its one reference is the output's
    std::vector<VVal>& items = built->items;
    if (items.capacity() < 2 * n) items.reserve(2 * n);  // a pooled composite keeps its capacity
    for (const ResolverPlan::Member& member : step.members) {
      items.emplace_back().SetRef(*member.key);
      VVal& value = items.emplace_back();  // a path's value is set below
      if (member.constant != nullptr) value.SetRef(*member.constant);
    }
    *kept = ViewOutput::OfComposite(built, sort_keys);
  }
  // The keys and literals are in place; each path's value is this object's view, or null.
  VVal* value = built->items.data() + 1;
  for (const ResolverPlan::Member& member : step.members) {
    if (member.constant == nullptr) {
      const VVal* read;
      if (paths.GetAbsolute(member.node, &read) == PathCache::kKnown) *value = *read;
      else value->SetNull();
    }
    value += 2;
  }
  return true;
}

// A kEachPath resolver whose outputs would reach the output limit, or whose iteration fails
// (AnswerEachPathGroups answers the others): the path at `node` (the element itself when it is
// the iteration) of each element of `iteration`, as the evaluator's kIterEach and kPath give it,
// through Emit, which bails at the limit so that the regular engine words it; with `keys`, each
// element's key as its kEntryKey gives it (a view of an object member's key, an array's index).
Flow EmitEachPath(PathCache* paths, uint32_t iteration, bool optional, uint32_t node, bool keys,
                  const Evaluator& evaluator, OutputSink outputs) {
  const std::vector<element>* elements;
  PathCache::State state = paths->Elements(iteration, &elements, optional);
  if (state != PathCache::kKnown) return FlowOf(state);
  const size_t count = elements->size();
  PathCache::Iteration& it = paths->iterations[iteration];
  const uint32_t saved = it.current;
  Flow flow = Flow::kContinue;
  for (uint32_t i = 0; i < count && flow == Flow::kContinue; ++i) {
    it.current = i;
    VVal v;
    if (keys) {
      if (it.object) v.SetDom(KeyOfMember((*elements)[i]));
      else v.SetNumber(i);
      state = PathCache::kKnown;
    } else {
      state = paths->Get(node, &v);
    }
    flow = state == PathCache::kKnown ? evaluator.Emit(v, outputs) : FlowOf(state);
  }
  it.current = saved;
  return flow;
}

// TAIL over each output of HEAD, as the interpreter runs `HEAD | TAIL`: outputs in order, the
// first error ends the resolver. False when a limit was reached (the output count is shared by
// the tail runs as by one evaluation): the whole program then runs on the regular engine, which
// words the limit as it would.
bool RunSplitTail(const Filter& tail, const std::vector<ViewOutput>& inputs, const RunOptions& options,
                  bool sort_keys, ConvertedDocuments* converted, uint64_t* conversions, OutputSink outputs,
                  ResolverResult* result) {
  result->fused = false;
  result->error = EvalError();
  result->status = EvalStatus::kOk;
  for (const ViewOutput& input : inputs) {
    RunOptions remaining = options;
    const uint64_t produced = outputs.count();
    if (produced >= options.limits.max_outputs) return false;
    remaining.limits.max_outputs = options.limits.max_outputs - produced;
    Value in = input.is_view() ? converted->Of(input.element_bytes(), sort_keys, conversions) : input.ToValue();
    EvalStatus status = tail.Run(in, [&](const Value& v) {
      outputs.all->emplace_back(v);
      return true;
    }, &result->error, remaining);
    if (status == EvalStatus::kError && result->error.limit) return false;
    if (status != EvalStatus::kOk) {
      result->status = status;
      return true;
    }
  }
  return true;
}

void RunFallback(const Filter& filter, const Value& document, const RunOptions& options, OutputSink outputs,
                 ResolverResult* result) {
  result->fused = false;
  result->error = EvalError();
  result->status = filter.Run(document, [&](const Value& v) {
    outputs.all->emplace_back(v);
    return true;
  }, &result->error, options);
}

}  // namespace

// Resolver i's outputs are all[begin, end) once it is done; in outputs_, a failed attempt (a
// bail, an error left to the regular engine) is cut off before the next one appends.
[[gnu::always_inline]] inline void FusedRunner::SetOutputs(size_t i, const std::vector<ViewOutput>& all,
                                                           size_t begin, size_t end) {
  results_[i].outputs.all_ = &all;
  results_[i].outputs.begin_ = begin;
  results_[i].outputs.end_ = end;
}

[[gnu::always_inline]] inline void FusedRunner::AnsweredOnDom(size_t i, const std::vector<ViewOutput>& all,
                                                              size_t begin, size_t end) {
  ResolverResult& result = results_[i];
  if (result.status == EvalStatus::kError) result.error = EvalError();  // the last object's
  result.status = EvalStatus::kOk;
  result.fused = true;
  SetOutputs(i, all, begin, end);
  ++stats_.fused_runs;
}

// The kEachPath resolvers, by iteration. Where every element's output fits under the limit, each
// element is filled once, the group's outputs are made null in one resize (resolver j's, the
// count elements' outputs, from the group's first place + j * count), and each view is set in
// place from its node's offset in each element's places. A resolver that meets an error or a
// bail there is listed for the regular engine, which Run runs after the groups, its outputs
// appended (the nulls left in its places belong to no result). Else (or when the iteration itself
// fails) each resolver is answered as EmitEachPath answers it alone. Out of Run: in its body,
// this loop cost the kinds without such resolvers registers.
[[gnu::hot]] void FusedRunner::AnswerEachPathGroups(const RunOptions& options) {
  State& s = *state_;
  const bool sort_keys = kind_.options_.sort_keys;
  s.each_path_failed.clear();
  for (const EachPathGroup& group : s.each_path_groups) {
    const std::vector<element>* elements;
    const PathCache::State listed = s.paths.Elements(group.iteration, &elements, group.optional);
    const size_t count = elements->size();
    if (listed != PathCache::kKnown || count >= options.limits.max_outputs) {
      // Each alone, through EmitEachPath (which needs an evaluator for the output limit).
      const EvalContext context = s.Context(options, sort_keys, &stats_.split_conversions);
      Evaluator evaluator(context);
      for (uint32_t i : group.resolvers) {
        const ResolverPlan& step = s.plan[i];
        const size_t begin = outputs_.size();
        const Flow flow = EmitEachPath(&s.paths, step.iteration, step.optional, step.node, step.keys, evaluator,
                                       OutputSink{&outputs_, begin});
        if (flow == Flow::kContinue) {
          AnsweredOnDom(i, begin, outputs_.size());
        } else {
          outputs_.resize(begin);  // a failed attempt's outputs
          s.each_path_failed.push_back(i);
        }
      }
      continue;
    }
    for (uint32_t e = 0; e < count; ++e) s.paths.ElementNodes(group.iteration, e);  // filled, once each
    const PathCache::Iteration& it = s.paths.iterations[group.iteration];
    size_t begin = outputs_.size();
    outputs_.resize(begin + group.resolvers.size() * count);
    for (uint32_t i : group.resolvers) {
      const ResolverPlan& step = s.plan[i];
      ViewOutput* out = outputs_.data() + begin;
      bool answered = true;
      if (step.keys) {  // an object member's key (a view of its tape word), an array element's index
        for (uint32_t e = 0; e < count; ++e) {
          if (!it.object) {
            out[e] = ViewOutput(Value::Number(e));
            continue;
          }
          const element key = KeyOfMember((*elements)[e]);
          out[e].SetView(&key, sort_keys);
        }
      } else if (step.node == step.iteration) {
        for (uint32_t e = 0; e < count; ++e) out[e].SetView(&(*elements)[e], sort_keys);
      } else {
        // By index: with no element, the arrays may never have been allocated (no pointer into them).
        for (size_t e = 0, slot = step.below; e < count; ++e, slot += it.width) {
          const PathCache::State state = it.below_states[slot];
          const VVal& value = it.below_values[slot];
          if (state == PathCache::kKnown && value.is_dom()) {
            out[e].SetView(value.dom_bytes(), sort_keys);
          } else if (state != PathCache::kKnown && state != PathCache::kMissing) {
            answered = false;  // the trie holds views and nulls only: kKnown and not a view is null
            break;
          }
        }
      }
      if (answered) AnsweredOnDom(i, begin, begin + count);
      else s.each_path_failed.push_back(i);
      begin += count;
    }
  }
}

[[gnu::always_inline]] inline bool FusedRunner::ObservedPartsHoldIntegerZero() {
  PathCache& paths = state_->paths;
  for (uint32_t node : kind_.observed_nodes_) {
    const VVal* value;
    if (paths.GetAbsolute(node, &value) == PathCache::kKnown && value->is_dom() &&
        json_dom::ElementHoldsIntegerZero(value->dom())) {
      return true;
    }
  }
  // The iteration's array first, in one scan of its tape (most hold no integer 0); then its
  // observed nodes at each element (filled here once per object: the resolvers read the same places).
  for (const FusedKind::ObservedBelow& below : kind_.observed_below_) {
    const VVal* array;
    if (paths.GetAbsolute(paths.parent[below.iteration], &array) != PathCache::kKnown || !array->is_dom() ||
        !json_dom::ElementHoldsIntegerZero(array->dom())) {
      continue;
    }
    const std::vector<element>* elements;
    if (paths.Elements(below.iteration, &elements) != PathCache::kKnown) continue;  // no element read
    for (uint32_t e = 0; e < elements->size(); ++e) {
      const PathCache::Place place = paths.ElementNodes(below.iteration, e);
      for (uint32_t node : below.nodes) {
        const uint32_t offset = paths.below_index[node];
        if (place.state[offset] == PathCache::kKnown && place.value[offset].is_dom() &&
            json_dom::ElementHoldsIntegerZero(place.value[offset].dom())) {
          return true;
        }
      }
    }
  }
  return false;
}

static_assert(FusedRunner::kTextPadding >= simdjson::SIMDJSON_PADDING, "kTextPadding is simdjson's padding");

bool FusedRunner::RunOnRegularReader(std::string_view json, const RunOptions& options, JsonError* error) {
  // Every result is set below, at places that are not the path loop's: the next object's loop
  // must set its path resolvers' results again.
  State& s = *state_;
  s.path_results_current = false;
  s.native_results_current = false;
  s.constant_results_current = false;
  outputs_.clear();
  Value document;
  if (!ParseJson(json, &document, error)) {
    for (size_t i = 0; i < kind_.size(); ++i) SetOutputs(i, 0, 0);  // none refer to the cleared buffer
    return false;
  }
  if (kind_.options_.sort_keys) document = SortKeysDeep(document);
  ++stats_.document_fallbacks;
  for (size_t i = 0; i < kind_.size(); ++i) {
    const size_t begin = outputs_.size();
    RunFallback(*kind_.fallbacks_[i], document, options, OutputSink{&outputs_, begin}, &results_[i]);
    SetOutputs(i, begin, outputs_.size());
    ++stats_.fallback_runs;
  }
  return true;
}

[[gnu::hot]] bool FusedRunner::Run(std::string_view json, const RunOptions& options, JsonError* error, size_t readable_after) {
  ++stats_.objects;
  State& s = *state_;
  const bool sort_keys = kind_.options_.sort_keys;
  // The buffer is cut back to the path resolvers' outputs and the native programs' places (the
  // others' destroyed): the loops below set those again in place, without appending them one by one.
  const size_t path_count = s.path_nodes.size();
  const size_t in_place_count = path_count + s.native_resolvers.size();
  if (outputs_.size() > in_place_count) outputs_.resize(in_place_count);
  element root;
  const json_dom::MinusZeroCheck check =
      kind_.observes_whole_document_ ? json_dom::MinusZeroCheck::kWhole : json_dom::MinusZeroCheck::kDeferred;
  // simdjson cannot represent it exactly (or it is invalid): the regular reader and engine.
  if (!json_dom::ParseDom(json, &s.parser, &root, readable_after >= kTextPadding, check)) {
    return RunOnRegularReader(json, options, error);
  }
  s.paths.Reset(root);
  // The deferred -0 check, on the parts the programs read: most objects' integer zeros are in
  // parts no resolver reads whole (a Pod's restart counts, a Deployment's status counters), and
  // their text is then not scanned. Only an integer 0 there sends the text to the scan.
  s.whole_document_checked = check == json_dom::MinusZeroCheck::kWhole;
  if (!s.whole_document_checked && ObservedPartsHoldIntegerZero()) {
    if (json_dom::DocumentMayHoldMinusZero(s.parser.doc, json)) return RunOnRegularReader(json, options, error);
    s.whole_document_checked = true;
  }
  s.document_ready = false;
  s.converted.Clear();
  // Resolver i on the regular engine over the converted document (converted once per object),
  // its outputs from `begin` on (a failed attempt's are cut off first).
  auto fall_back = [&](size_t i, size_t begin) {
    outputs_.erase(outputs_.begin() + static_cast<std::ptrdiff_t>(begin), outputs_.end());
    if (!s.document_ready) {
      // The regular engine reads the whole document: it is checked for -0 here if it was not
      // whole (the DOM's 0 would lose the sign), and read by the regular reader if it may hold one.
      JsonError ignored;  // the text parsed as JSON above
      if (!s.whole_document_checked && json_dom::DocumentMayHoldMinusZero(s.parser.doc, json) &&
          ParseJson(json, &s.document, &ignored)) {
        if (sort_keys) s.document = SortKeysDeep(s.document);
      } else {
        s.document = ConvertView(root, sort_keys);
      }
      s.whole_document_checked = true;
      s.document_ready = true;
    }
    RunFallback(*kind_.fallbacks_[i], s.document, options, OutputSink{&outputs_, begin}, &results_[i]);
    SetOutputs(i, begin, outputs_.size());
    ++stats_.fallback_runs;
  };
  // Resolvers that are one trie path: the value at the path (a view, or null when it is absent)
  // is the one output. An error or a bail (a path through a non-object), or an output cap of
  // one (Emit's limit), is left to the regular engine. They come first, so while each is
  // answered on the DOM the k-th one's output is outputs_[k], from one object to the next: the
  // loop only sets outputs, and the results are written when the last run's are not already these.
  const bool one_output_allowed = options.limits.max_outputs > 1;
  size_t answered = 0;
  if (one_output_allowed) {
    // Each path's output set where the last object's was (the buffer grows only after an object
    // whose path loop stopped early); a path left to the regular engine ends the loop, and the
    // buffer is cut there.
    if (outputs_.size() < path_count) outputs_.resize(path_count);
    ViewOutput* out = outputs_.data();
    const uint32_t* nodes = s.path_nodes.data();
    // When the last object's loop set every path's output, each holds a view or null; else what
    // another run left there is released first. Either way the loop sets them without a release.
    if (!s.path_results_current) {
      for (size_t k = 0; k < path_count; ++k) out[k].SetNull();
    }
    for (; answered < path_count; ++answered) {
      const VVal* value;
      const PathCache::State state = s.paths.GetAbsolute(nodes[answered], &value);
      if (state == PathCache::kKnown && value->is_dom()) {
        out[answered].ResetView(value->dom_bytes(), sort_keys);
      } else if (state == PathCache::kKnown || state == PathCache::kMissing) {
        out[answered].ResetNull();  // the trie holds views and nulls only: a known non-view is null
      } else {
        break;
      }
    }
    if (answered < path_count) outputs_.resize(answered);
  } else {
    outputs_.clear();
  }
  if (s.path_results_current && answered == path_count) {
    stats_.fused_runs += answered;
  } else {
    for (size_t k = 0; k < answered; ++k) AnsweredOnDom(s.path_resolvers[k], k, k + 1);
    s.path_results_current = answered == path_count;
  }
  for (size_t k = answered; k < path_count; ++k) {  // from the first path left to the regular engine
    const uint32_t i = s.path_resolvers[k];
    const size_t begin = outputs_.size();
    const VVal* value;
    const PathCache::State state = s.paths.GetAbsolute(s.path_nodes[k], &value);
    if (!one_output_allowed || (state != PathCache::kKnown && state != PathCache::kMissing)) {
      fall_back(i, begin);
      continue;
    }
    if (state == PathCache::kKnown && value->is_dom()) outputs_.emplace_back(value->dom_bytes(), sort_keys);
    else outputs_.emplace_back();
    AnsweredOnDom(i, begin, outputs_.size());
  }
  // The constants' outputs, made with the runner, are written into their results only when the
  // last run's results are not already these. An output cap of one (which Emit would bail at)
  // leaves them to the regular engine, which words the limit.
  if (!s.constant_resolvers.empty()) {
    if (!one_output_allowed) {
      s.constant_results_current = false;
      for (uint32_t i : s.constant_resolvers) fall_back(i, outputs_.size());
    } else if (s.constant_results_current) {
      stats_.fused_runs += s.constant_resolvers.size();
    } else {
      for (size_t k = 0; k < s.constant_resolvers.size(); ++k) {
        AnsweredOnDom(s.constant_resolvers[k], s.constant_outputs, k, k + 1);
      }
      s.constant_results_current = true;
    }
  }
  const EvalContext context = s.Context(options, sort_keys, &stats_.split_conversions);
  Evaluator evaluator(context);
  // A program, split head or object of paths (kEachPath resolvers are answered by group below),
  // its outputs appended.
  auto answer_other = [&](uint32_t i) __attribute__((always_inline)) {
    const ResolverPlan& step = s.plan[i];
    const size_t begin = outputs_.size();
    const OutputSink sink{&outputs_, begin};
    if (step.how == ResolverPlan::How::kSplit) {
      s.head_outputs.clear();
      if (RunProgram(evaluator, step, &s.flat_registers, OutputSink{&s.head_outputs, 0}) == Flow::kContinue &&
          RunSplitTail(*step.tail, s.head_outputs, options, sort_keys, &s.converted, &stats_.split_conversions,
                       sink, &results_[i])) {
        SetOutputs(i, begin, outputs_.size());
        ++stats_.split_runs;
        return;
      }
    } else if (step.how == ResolverPlan::How::kProgram || step.how == ResolverPlan::How::kObjectOfPaths) {
      if (step.how == ResolverPlan::How::kObjectOfPaths &&
          BuildObjectOfPaths(s.paths, step, options.limits, sort_keys, &s.object_outputs[step.slot])) {
        AnsweredOnDom(i, s.object_outputs, step.slot, step.slot + 1);
        ++stats_.object_runs;
        return;
      }
      // Native code, unless it declines (its steps might not fit in the budget's first slice, or
      // Exec takes a path it does not cover): Exec then.
      bool declined = step.native == nullptr;
      Flow flow = declined ? Flow::kContinue
                           : evaluator.RunNative(*step.flat, step.native, step.native_table, &s.flat_registers, sink,
                                                 &declined);
      const bool native = !declined;
      if (declined) flow = RunProgram(evaluator, step, &s.flat_registers, sink);
      if (flow == Flow::kContinue) {
        stats_.native_runs += native;
        AnsweredOnDom(i, begin, outputs_.size());
        stats_.flat_runs += step.flat != nullptr;
        stats_.tree_runs += step.flat == nullptr;
        return;
      }
    }
    fall_back(i, begin);
  };
  if (!s.native_resolvers.empty()) {
    if (one_output_allowed && answered == path_count) {
      // Their places follow the paths' (made null where the last object's buffer was cut shorter).
      if (outputs_.size() < in_place_count) {
        outputs_.resize(in_place_count);
        s.native_results_current = false;
      }
      ViewOutput* out = outputs_.data() + path_count;
      NativeProgramArgs args = evaluator.NativeArgs(&s.flat_registers);
      // The objects they build are charged to the loop as one run: one that would pass Exec's
      // limit alone but not after the others bails here, and its Exec run has the limit to itself.
      evaluator.BeginNative();
      s.native_left.clear();
      const bool current = s.native_results_current;
      size_t in_place = 0;
      for (size_t k = 0; k < s.native_resolvers.size(); ++k) {
        const uint32_t i = s.native_resolvers[k];
        const ResolverPlan& step = s.plan[i];
        args.table = step.native_table;
        const void* value;
        if (step.native(&args, &value) != kNativeContinue) [[unlikely]] {
          out[k].SetNull();  // its outputs are appended (the place belongs to no result)
          s.native_left.push_back(i);
          continue;
        }
        evaluator.SetOutput(*static_cast<const VVal*>(value), &out[k]);
        if (!current) AnsweredOnDom(i, path_count + k, path_count + k + 1);
        ++in_place;
      }
      for (uint32_t i : s.native_builders) Evaluator::ReleaseBuilt(*s.plan[i].flat, &s.flat_registers);
      if (current) stats_.fused_runs += in_place;
      stats_.native_runs += in_place;
      stats_.flat_runs += in_place;
      s.native_results_current = s.native_left.empty();
      // The rest as the other resolvers (after the loop: they append to the buffer `out` points
      // into), from the start: native code writes nothing Exec reads before writing
      // it (memo slots, registers' places), so it declines or errs again.
      for (uint32_t i : s.native_left) answer_other(i);
    } else {
      s.native_results_current = false;  // the buffer holds no places for them
      for (uint32_t i : s.native_resolvers) answer_other(i);
    }
  }
  if (!s.each_path_groups.empty()) {
    AnswerEachPathGroups(options);
    for (uint32_t i : s.each_path_failed) fall_back(i, outputs_.size());
  }
  for (uint32_t i : s.other_resolvers) answer_other(i);
  s.memo.ReleaseComposites();
  return true;
}

}  // namespace wm::view
