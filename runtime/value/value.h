// The JSON value model shared by every engine (interpreter, JIT, AOT) and the workload runtime.
// A Value is 16 bytes: a kind tag and either an IEEE double or a pointer to a reference-counted,
// immutable heap cell (string, array, object). Copies share the cell; "mutating" operations build
// a new cell unless the value holds the only reference (copy-on-write).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wm {

// Declared in jq's sort order: null < false < true < numbers < strings < arrays < objects.
enum class Kind : uint8_t { Null = 0, False = 1, True = 2, Number = 3, String = 4, Array = 5, Object = 6 };

// jq's name for a kind: "null", "boolean", "number", "string", "array", "object".
const char* KindName(Kind kind);

namespace detail {
struct HeapCell;  // refcount header shared by StringCell, ArrayCell, ObjectCell (value.cpp)
}

class Value;
using Array = std::vector<Value>;
// Object members in insertion order; keys are unique. Lookup helpers live on Value.
using Member = std::pair<Value, Value>;  // first is always a String value

class Value {
 public:
  Value() noexcept : kind_(Kind::Null), number_(0) {}
  Value(const Value& other) noexcept;
  Value(Value&& other) noexcept;
  Value& operator=(const Value& other) noexcept;
  Value& operator=(Value&& other) noexcept;
  ~Value();

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Number(double d);
  static Value String(std::string_view utf8);
  // A string of `first`'s bytes then `second`'s, in one allocation (jq's string `+`).
  static Value String(std::string_view first, std::string_view second);
  static Value MakeArray(Array elements);
  static Value MakeObject(std::vector<Member> members);  // later duplicate keys overwrite earlier
  static Value EmptyArray();
  static Value EmptyObject();

  Kind kind() const { return kind_; }
  bool IsNull() const { return kind_ == Kind::Null; }
  bool IsBool() const { return kind_ == Kind::False || kind_ == Kind::True; }
  bool IsNumber() const { return kind_ == Kind::Number; }
  bool IsString() const { return kind_ == Kind::String; }
  bool IsArray() const { return kind_ == Kind::Array; }
  bool IsObject() const { return kind_ == Kind::Object; }
  // jq truthiness: everything except null and false.
  bool Truthy() const { return kind_ != Kind::Null && kind_ != Kind::False; }

  double AsNumber() const { return number_; }  // precondition: IsNumber()
  std::string_view AsString() const;            // precondition: IsString()
  const Array& AsArray() const;                 // precondition: IsArray()
  const std::vector<Member>& AsObject() const;  // precondition: IsObject()

  // Object lookup; nullptr when absent. Precondition: IsObject().
  const Value* Find(std::string_view key) const;
  // Array element with jq's negative-index rule; nullptr when out of range. Precondition: IsArray().
  const Value* At(int64_t index) const;

  // Copy-on-write builders: modify in place when this is the only reference, else copy first.
  Array& MutableArray();                 // precondition: IsArray()
  void Set(std::string_view key, Value v);  // object insert-or-replace (keeps position). IsObject()
  void Set(Value key, Value v);             // same, reusing a String key (no copy of its bytes)
  bool Erase(std::string_view key);         // object delete; true if present. IsObject()

  // jq's total order (sort, <, ==) and equality. Numbers as jq: NaN is below every number,
  // itself included (Compare(nan, nan) < 0, so nan != nan); -0 == 0. Strings bytewise.
  // Because of NaN this is not a strict weak order: sort with std::stable_sort, not std::sort.
  friend int Compare(const Value& a, const Value& b);
  friend bool operator==(const Value& a, const Value& b) { return Compare(a, b) == 0; }
  friend bool operator!=(const Value& a, const Value& b) { return Compare(a, b) != 0; }
  // jq's jv_identical: the very same heap value (not an equal copy), or equal scalars (numbers
  // compared bitwise). Path mode uses it to tell a variable that holds the value at the current
  // path from one that merely holds an equal value.
  friend bool Identical(const Value& a, const Value& b);

  // Raw access for native code (see runtime/eval/native_abi.h); not for general use.
  detail::HeapCell* heap_cell() const { return heap_; }

 private:
  void SetMember(std::string_view key, Value* key_value, Value v);

  // Strings, arrays and objects live in a reference-counted heap cell; the other kinds in place.
  bool HasCell() const { return kind_ >= Kind::String; }

  Kind kind_;
  // 7 bytes of padding: keeps the layout {uint8 kind; double|pointer payload} stable for native code.
  union {
    double number_;
    detail::HeapCell* heap_;
  };
  friend class ValueAccess;
};

static_assert(sizeof(Value) == 16, "Value must stay 16 bytes: native code relies on the layout");

// Copying, moving and destroying a Value are inline: most values are scalars, which own no cell
// (the evaluators make and drop millions), and only a cell's reference count needs a call.
namespace detail {
void RetainHeapCell(HeapCell* cell) noexcept;   // value.cpp
void ReleaseHeapCell(HeapCell* cell) noexcept;  // value.cpp: frees the cell at zero
}  // namespace detail

inline Value::Value(const Value& other) noexcept : kind_(other.kind_) {
  if (HasCell()) {
    heap_ = other.heap_;
    detail::RetainHeapCell(heap_);
  } else {
    number_ = other.number_;
  }
}

inline Value::Value(Value&& other) noexcept : kind_(other.kind_) {
  if (HasCell()) {
    heap_ = other.heap_;
  } else {
    number_ = other.number_;
  }
  other.kind_ = Kind::Null;
  other.number_ = 0;
}

inline Value::~Value() {
  if (HasCell()) detail::ReleaseHeapCell(heap_);
}

inline Value Value::Bool(bool b) {
  Value v;
  v.kind_ = b ? Kind::True : Kind::False;
  return v;
}

inline Value Value::Number(double d) {
  Value v;
  v.kind_ = Kind::Number;
  v.number_ = d;
  return v;
}

// The string at `key` of an object, or "" when `object` is not an object, lacks the key or holds
// something else there: how Kubernetes metadata (names, uids, kinds) is read for display and
// matching, where an absent field and an empty one mean the same.
std::string StringField(const Value& object, std::string_view key);
// The same at a path of keys through nested objects (`{"metadata", "name"}`).
std::string StringAt(const Value& object, std::initializer_list<std::string_view> path);

// The value with the members of every object, at every depth, in bytewise key order: the order an
// object has after a Go JSON round trip (a Go map), which is what upstream's Go library evaluates.
// Subtrees already in order are shared, not copied. Objects nested deeper than 1000 levels keep
// their order (parsers stop far earlier).
Value SortKeysDeep(const Value& v);

// Compare's order of two numbers (NaN below every number, itself included; -0 == 0): for callers
// that hold doubles, without making Values of them.
int CompareNumbers(double a, double b);

}  // namespace wm
