// Value implementation: reference-counted heap cells for strings, arrays and objects, copy-on-write
// mutation, and jq's total order (Compare). Cells are freed iteratively and Compare walks nested
// values with an explicit stack, so arbitrarily deep values never overflow the C++ stack.
#include "runtime/value/value.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>

namespace wm {

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::Null: return "null";
    case Kind::False:
    case Kind::True: return "boolean";
    case Kind::Number: return "number";
    case Kind::String: return "string";
    case Kind::Array: return "array";
    case Kind::Object: return "object";
  }
  return "unknown";
}

namespace detail {

// Refcount decision: values produced by one evaluation stay on one thread, but constants cached
// in a shared Program (ir::Program::consts) are copied by every thread running the filter, so the
// count is atomic. Increments are relaxed (the copier already holds a reference); the decrement
// that may free the cell is acq_rel so the freeing thread sees all writes to the cell.
struct HeapCell {
  std::atomic<uint32_t> refcount{1};
  Kind kind;
  explicit HeapCell(Kind k) : kind(k) {}
};

// UTF-8 bytes stored inline after the header (NUL-terminated for the convenience of C callers).
struct StringCell : HeapCell {
  size_t length;
  char* bytes() { return reinterpret_cast<char*>(this + 1); }
  const char* bytes() const { return reinterpret_cast<const char*>(this + 1); }
  explicit StringCell(size_t len) : HeapCell(Kind::String), length(len) {}
};

struct ArrayCell : HeapCell {
  Array elements;
  ArrayCell() : HeapCell(Kind::Array) {}
};

// Objects keep members in insertion order (jq prints them that way). Small objects are searched
// linearly; from kIndexThreshold members on, a hash index (key -> position) is built on first
// lookup. The index is published with a compare-and-swap so that concurrent readers of a shared
// constant can race to build it safely; mutation (only ever done on a uniquely owned cell) drops it.
struct ObjectCell : HeapCell {
  using Index = std::unordered_map<std::string_view, uint32_t>;
  static constexpr size_t kIndexThreshold = 16;
  std::vector<Member> members;
  mutable std::atomic<Index*> index{nullptr};
  ObjectCell() : HeapCell(Kind::Object) {}
  ~ObjectCell() { delete index.load(std::memory_order_relaxed); }
  void DropIndex() { delete index.exchange(nullptr, std::memory_order_relaxed); }
};

}  // namespace detail

// Internal access to a Value's representation, shared by this file only.
class ValueAccess {
 public:
  static Value FromCell(detail::HeapCell* cell) {
    Value v;
    v.kind_ = cell->kind;
    v.heap_ = cell;
    return v;
  }
  static bool HasCell(const Value& v) { return v.HasCell(); }
  static detail::HeapCell* Cell(const Value& v) { return v.heap_; }
};

namespace {

using detail::ArrayCell;
using detail::HeapCell;
using detail::ObjectCell;
using detail::StringCell;

const StringCell* AsStringCell(const Value& v) {
  return static_cast<const StringCell*>(ValueAccess::Cell(v));
}
ArrayCell* AsArrayCell(const Value& v) { return static_cast<ArrayCell*>(ValueAccess::Cell(v)); }
ObjectCell* AsObjectCell(const Value& v) { return static_cast<ObjectCell*>(ValueAccess::Cell(v)); }

void Retain(HeapCell* cell) { cell->refcount.fetch_add(1, std::memory_order_relaxed); }

void DestroyCell(HeapCell* cell);

// Freeing a container frees its children, which may free their children... To keep the C++ stack
// flat for deep values, cells whose count drops to zero while another cell is being destroyed on
// this thread are queued and destroyed by the outermost call. The queue is a fixed inline buffer
// (trivially destructible, so safe even while thread_locals are torn down) plus a heap overflow
// that is freed as soon as the outermost call has drained it.
constexpr size_t kInlinePending = 256;
thread_local bool t_destroying = false;
thread_local HeapCell* t_inline_pending[kInlinePending];
thread_local size_t t_inline_count = 0;
thread_local std::vector<HeapCell*>* t_overflow_pending = nullptr;

void ReleaseCell(HeapCell* cell) {
  // A count of 1 means no other reference exists, so nobody can be copying it concurrently:
  // skip the locked read-modify-write in this (most common) case.
  if (cell->refcount.load(std::memory_order_acquire) != 1 &&
      cell->refcount.fetch_sub(1, std::memory_order_acq_rel) != 1) {
    return;
  }
  if (cell->kind == Kind::String) {
    // Strings own no values: free directly.
    StringCell* s = static_cast<StringCell*>(cell);
    s->~StringCell();
    ::operator delete(s);
    return;
  }
  if (t_destroying) {
    if (t_inline_count < kInlinePending) {
      t_inline_pending[t_inline_count++] = cell;
    } else {
      if (t_overflow_pending == nullptr) t_overflow_pending = new std::vector<HeapCell*>();
      t_overflow_pending->push_back(cell);
    }
    return;
  }
  t_destroying = true;
  DestroyCell(cell);
  for (;;) {
    HeapCell* next;
    if (t_overflow_pending != nullptr && !t_overflow_pending->empty()) {
      next = t_overflow_pending->back();
      t_overflow_pending->pop_back();
    } else if (t_inline_count > 0) {
      next = t_inline_pending[--t_inline_count];
    } else {
      break;
    }
    DestroyCell(next);
  }
  delete t_overflow_pending;
  t_overflow_pending = nullptr;
  t_destroying = false;
}

void DestroyCell(HeapCell* cell) {
  if (cell->kind == Kind::Array) {
    delete static_cast<ArrayCell*>(cell);
  } else {
    delete static_cast<ObjectCell*>(cell);
  }
}

bool IsUnique(const HeapCell* cell) { return cell->refcount.load(std::memory_order_acquire) == 1; }

int CompareBytes(std::string_view a, std::string_view b) {
  int r = a.compare(b);  // char_traits<char>::compare uses memcmp: unsigned bytewise, as jq
  return r < 0 ? -1 : (r > 0 ? 1 : 0);
}

// Members of an object in ascending key order (pointers into the object's member vector).
std::vector<const Member*> SortedMembers(const std::vector<Member>& members) {
  std::vector<const Member*> sorted;
  sorted.reserve(members.size());
  for (const Member& m : members) sorted.push_back(&m);
  std::sort(sorted.begin(), sorted.end(), [](const Member* x, const Member* y) {
    return x->first.AsString() < y->first.AsString();
  });
  return sorted;
}

}  // namespace

// ---- lifetime

namespace detail {
void RetainHeapCell(HeapCell* cell) noexcept { Retain(cell); }
void ReleaseHeapCell(HeapCell* cell) noexcept { ReleaseCell(cell); }
}  // namespace detail

// The constructors and the destructor are inline (value.h).

Value& Value::operator=(const Value& other) noexcept {
  if (this == &other) return *this;
  // Read `other` before releasing our cell: `other` may live inside it (v = v.AsArray()[0]).
  Kind kind = other.kind_;
  double number = 0;
  HeapCell* cell = nullptr;
  if (ValueAccess::HasCell(other)) {
    cell = other.heap_;
    Retain(cell);
  } else {
    number = other.number_;
  }
  HeapCell* old = ValueAccess::HasCell(*this) ? heap_ : nullptr;
  kind_ = kind;
  if (cell != nullptr) {
    heap_ = cell;
  } else {
    number_ = number;
  }
  if (old != nullptr) ReleaseCell(old);
  return *this;
}

Value& Value::operator=(Value&& other) noexcept {
  if (this == &other) return *this;
  HeapCell* old = ValueAccess::HasCell(*this) ? heap_ : nullptr;
  kind_ = other.kind_;
  if (ValueAccess::HasCell(other)) {
    heap_ = other.heap_;
  } else {
    number_ = other.number_;
  }
  other.kind_ = Kind::Null;
  other.number_ = 0;
  if (old != nullptr) ReleaseCell(old);  // last: `old` may own `other`
  return *this;
}

// ---- constructors

// Value::Bool and Value::Number are inline (value.h).

std::string StringField(const Value& object, std::string_view key) { return StringAt(object, {key}); }

std::string StringAt(const Value& object, std::initializer_list<std::string_view> path) {
  const Value* at = &object;
  for (std::string_view key : path) {
    at = at->IsObject() ? at->Find(key) : nullptr;
    if (at == nullptr) return std::string();
  }
  return at->IsString() ? std::string(at->AsString()) : std::string();
}


Value Value::String(std::string_view utf8) { return String(utf8, std::string_view()); }

Value Value::String(std::string_view first, std::string_view second) {
  const size_t size = first.size() + second.size();
  void* memory = ::operator new(sizeof(StringCell) + size + 1);
  StringCell* cell = new (memory) StringCell(size);
  if (!first.empty()) std::memcpy(cell->bytes(), first.data(), first.size());
  if (!second.empty()) std::memcpy(cell->bytes() + first.size(), second.data(), second.size());
  cell->bytes()[size] = '\0';
  return ValueAccess::FromCell(cell);
}

Value Value::MakeArray(Array elements) {
  ArrayCell* cell = new ArrayCell();
  cell->elements = std::move(elements);
  return ValueAccess::FromCell(cell);
}

Value Value::MakeObject(std::vector<Member> members) {
  Value v = EmptyObject();
  ObjectCell* cell = AsObjectCell(v);
  // Fast path: no duplicate keys (the common case) keeps the vector as is.
  bool unique = true;
  if (members.size() <= ObjectCell::kIndexThreshold) {
    for (size_t i = 0; i < members.size() && unique; ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (members[i].first.AsString() == members[j].first.AsString()) {
          unique = false;
          break;
        }
      }
    }
  } else {
    // The duplicate check builds the lookup index anyway: keep it when the keys are unique.
    auto index = std::make_unique<ObjectCell::Index>();
    index->reserve(members.size());
    for (uint32_t i = 0; i < members.size(); ++i) {
      if (!index->emplace(members[i].first.AsString(), i).second) {
        unique = false;
        break;
      }
    }
    if (unique) cell->index.store(index.release(), std::memory_order_relaxed);
  }
  if (unique) {
    cell->members = std::move(members);  // the index's views point into the key cells: still valid
    return v;
  }
  for (Member& m : members) v.Set(std::move(m.first), std::move(m.second));
  return v;
}

Value Value::EmptyArray() { return ValueAccess::FromCell(new ArrayCell()); }

Value Value::EmptyObject() { return ValueAccess::FromCell(new ObjectCell()); }

// ---- accessors

std::string_view Value::AsString() const {
  const StringCell* cell = AsStringCell(*this);
  return std::string_view(cell->bytes(), cell->length);
}

const Array& Value::AsArray() const { return AsArrayCell(*this)->elements; }

const std::vector<Member>& Value::AsObject() const { return AsObjectCell(*this)->members; }

const Value* Value::Find(std::string_view key) const {
  const ObjectCell* cell = AsObjectCell(*this);
  const std::vector<Member>& members = cell->members;
  if (members.size() < ObjectCell::kIndexThreshold) {
    for (const Member& m : members) {
      if (m.first.AsString() == key) return &m.second;
    }
    return nullptr;
  }
  ObjectCell::Index* index = cell->index.load(std::memory_order_acquire);
  if (index == nullptr) {
    auto* built = new ObjectCell::Index();
    built->reserve(members.size());
    for (uint32_t i = 0; i < members.size(); ++i) built->emplace(members[i].first.AsString(), i);
    ObjectCell::Index* expected = nullptr;
    if (cell->index.compare_exchange_strong(expected, built, std::memory_order_acq_rel)) {
      index = built;
    } else {
      delete built;  // another thread published first
      index = expected;
    }
  }
  auto it = index->find(key);
  return it == index->end() ? nullptr : &members[it->second].second;
}

const Value* Value::At(int64_t index) const {
  const Array& elements = AsArray();
  int64_t size = static_cast<int64_t>(elements.size());
  if (index < 0) index += size;
  if (index < 0 || index >= size) return nullptr;
  return &elements[static_cast<size_t>(index)];
}

// ---- copy-on-write

Array& Value::MutableArray() {
  ArrayCell* cell = AsArrayCell(*this);
  if (!IsUnique(cell)) {
    ArrayCell* copy = new ArrayCell();
    copy->elements = cell->elements;
    ReleaseCell(cell);
    heap_ = copy;
    cell = copy;
  }
  return cell->elements;
}

namespace {
// Makes the object cell of *v uniquely owned (copying members if shared) and returns it.
ObjectCell* UniqueObjectCell(detail::HeapCell** slot) {
  ObjectCell* cell = static_cast<ObjectCell*>(*slot);
  if (!IsUnique(cell)) {
    ObjectCell* copy = new ObjectCell();
    copy->members = cell->members;
    ReleaseCell(cell);
    *slot = copy;
    cell = copy;
  }
  return cell;
}
}  // namespace

void Value::Set(std::string_view key, Value v) { SetMember(key, nullptr, std::move(v)); }

void Value::Set(Value key, Value v) {
  std::string_view text = key.AsString();  // stays valid: the cell moves with `key`
  SetMember(text, &key, std::move(v));
}

void Value::SetMember(std::string_view key, Value* key_value, Value v) {
  ObjectCell* cell = UniqueObjectCell(&heap_);
  auto& members = cell->members;
  auto new_key = [&]() { return key_value != nullptr ? std::move(*key_value) : Value::String(key); };
  if (members.size() < ObjectCell::kIndexThreshold) {
    for (Member& m : members) {
      if (m.first.AsString() == key) {
        m.second = std::move(v);
        return;
      }
    }
    members.emplace_back(new_key(), std::move(v));
    return;
  }
  if (const Value* existing = Find(key)) {  // builds the index if needed
    *const_cast<Value*>(existing) = std::move(v);  // the cell is uniquely ours
    return;
  }
  // Keep the index current: its keys view the key strings' cells, which do not move when the
  // member vector grows, and the cell is not shared, so no reader can observe the update.
  members.emplace_back(new_key(), std::move(v));
  cell->index.load(std::memory_order_relaxed)
      ->emplace(members.back().first.AsString(), static_cast<uint32_t>(members.size() - 1));
}

bool Value::Erase(std::string_view key) {
  if (Find(key) == nullptr) return false;  // avoid copying a shared object for nothing
  ObjectCell* cell = UniqueObjectCell(&heap_);
  cell->DropIndex();
  auto& members = cell->members;
  for (auto it = members.begin(); it != members.end(); ++it) {
    if (it->first.AsString() == key) {
      members.erase(it);
      return true;
    }
  }
  return false;
}

bool Identical(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::String: case Kind::Array: case Kind::Object: return a.heap_cell() == b.heap_cell();
    case Kind::Number: {
      double x = a.AsNumber(), y = b.AsNumber();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default: return true;
  }
}

// ---- ordering

// jq 1.6/1.7 order for numbers: NaN sorts below every number (including another NaN, so
// `nan < nan` is true and `nan == nan` is false); otherwise numeric order, with -0 == 0.
int CompareNumbers(double a, double b) {
  if (std::isnan(a)) return -1;
  if (std::isnan(b)) return 1;
  return a < b ? -1 : (a == b ? 0 : 1);
}

int Compare(const Value& a, const Value& b) {
  // One frame per pair of containers being compared element by element.
  struct Frame {
    Frame(const Value* x, const Value* y) : a(x), b(y) {}
    const Value* a;
    const Value* b;
    size_t next = 0;
    std::vector<const Member*> keys_a;  // objects: members in key order
    std::vector<const Member*> keys_b;
  };
  std::vector<Frame> stack;

  // Compares x and y if that needs no descent; otherwise pushes a frame and returns 0.
  auto step = [&stack](const Value& x, const Value& y) -> int {
    if (x.kind() != y.kind()) return x.kind() < y.kind() ? -1 : 1;
    switch (x.kind()) {
      case Kind::Null:
      case Kind::False:
      case Kind::True: return 0;
      case Kind::Number: return CompareNumbers(x.AsNumber(), y.AsNumber());
      case Kind::String:
        if (ValueAccess::Cell(x) == ValueAccess::Cell(y)) return 0;
        return CompareBytes(x.AsString(), y.AsString());
      case Kind::Array:
        stack.emplace_back(&x, &y);
        return 0;
      case Kind::Object: {
        // First the sorted key sets, compared as arrays of strings; then values in key order.
        Frame frame(&x, &y);
        frame.keys_a = SortedMembers(x.AsObject());
        frame.keys_b = SortedMembers(y.AsObject());
        size_t common = std::min(frame.keys_a.size(), frame.keys_b.size());
        for (size_t i = 0; i < common; ++i) {
          int r = CompareBytes(frame.keys_a[i]->first.AsString(), frame.keys_b[i]->first.AsString());
          if (r != 0) return r;
        }
        if (frame.keys_a.size() != frame.keys_b.size()) {
          return frame.keys_a.size() < frame.keys_b.size() ? -1 : 1;
        }
        stack.push_back(std::move(frame));
        return 0;
      }
    }
    return 0;
  };

  int r = step(a, b);
  while (r == 0 && !stack.empty()) {
    Frame& top = stack.back();
    if (top.a->kind() == Kind::Array) {
      const Array& xa = top.a->AsArray();
      const Array& xb = top.b->AsArray();
      if (top.next < xa.size() && top.next < xb.size()) {
        size_t i = top.next++;
        r = step(xa[i], xb[i]);  // may push: `top` is not used after this
      } else {
        if (xa.size() != xb.size()) r = xa.size() < xb.size() ? -1 : 1;
        stack.pop_back();
      }
    } else {
      if (top.next < top.keys_a.size()) {
        size_t i = top.next++;
        const Value& va = top.keys_a[i]->second;
        const Value& vb = top.keys_b[i]->second;
        r = step(va, vb);
      } else {
        stack.pop_back();
      }
    }
  }
  return r;
}

namespace {

constexpr int kMaxSortDepth = 1000;

Value SortKeysAt(const Value& v, int depth) {
  if (depth > kMaxSortDepth) return v;
  if (v.IsArray()) {
    const Array& elements = v.AsArray();
    bool changed = false;
    Array out;
    out.reserve(elements.size());
    for (const Value& e : elements) {
      out.push_back(SortKeysAt(e, depth + 1));
      changed = changed || !Identical(out.back(), e);
    }
    // Untouched arrays stay shared with the input.
    return changed ? Value::MakeArray(std::move(out)) : v;
  }
  if (!v.IsObject()) return v;
  const std::vector<Member>& members = v.AsObject();
  bool changed = false;
  std::vector<Member> out;
  out.reserve(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    Value child = SortKeysAt(members[i].second, depth + 1);
    changed = changed || !Identical(child, members[i].second) ||
              (i > 0 && members[i - 1].first.AsString() > members[i].first.AsString());
    out.push_back({members[i].first, std::move(child)});
  }
  if (!changed) return v;
  std::sort(out.begin(), out.end(),
            [](const Member& a, const Member& b) { return a.first.AsString() < b.first.AsString(); });
  return Value::MakeObject(std::move(out));
}

}  // namespace

Value SortKeysDeep(const Value& v) { return SortKeysAt(v, 0); }

}  // namespace wm
