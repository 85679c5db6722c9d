// Native builtins: ops::CallBuiltin applies one builtin of the IR's table (runtime/ir/
// builtins.def) to its input and already-evaluated arguments. The dispatch array is expanded from
// the same rows, one Builtin<Enum> function per row, so a row without an implementation does not
// build. Regex, time and path builtins live in builtins_regex.cpp, builtins_time.cpp and
// builtins_paths.cpp. Error texts follow jq 1.7.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "runtime/eval/internal/builtin_impl.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"
#include "runtime/ir/builtins.h"
#include "runtime/value/json.h"

extern char** environ;

namespace wm::ops {
using eval_internal::Fail;
namespace {

using eval_internal::Describe;

constexpr int kMaxContainsDepth = 10000;

bool NumberArg(const Value& v, double* d, Value* error) {
  if (!v.IsNumber()) return Fail(error, Describe(v) + " number required");
  *d = v.AsNumber();
  return true;
}

void StableSortIndexes(const Array& keys, std::vector<size_t>* order) {
  order->resize(keys.size());
  std::iota(order->begin(), order->end(), size_t{0});
  std::stable_sort(order->begin(), order->end(),
                   [&](size_t a, size_t b) { return Compare(keys[a], keys[b]) < 0; });
}

bool CheckSortable(const Value& input, const Value& keys, const char* what, Value* error) {
  if (!input.IsArray() || !keys.IsArray() || input.AsArray().size() != keys.AsArray().size()) {
    return Fail(error, Describe(input) + " and " + Describe(keys) + " " + what);
  }
  return true;
}

bool SortBy(const Value& input, const Value& keys, Value* out, Value* error) {
  if (!CheckSortable(input, keys, "cannot be sorted, as they are not both arrays", error)) return false;
  std::vector<size_t> order;
  StableSortIndexes(keys.AsArray(), &order);
  Array sorted;
  sorted.reserve(order.size());
  for (size_t i : order) sorted.push_back(input.AsArray()[i]);
  *out = Value::MakeArray(std::move(sorted));
  return true;
}

// Groups of equal keys, in key order; each group keeps input order.
bool GroupBy(const Value& input, const Value& keys, bool first_only, Value* out, Value* error) {
  if (!CheckSortable(input, keys, "cannot be grouped, as they are not both arrays", error)) return false;
  const Array& k = keys.AsArray();
  std::vector<size_t> order;
  StableSortIndexes(k, &order);
  Array groups;
  Array current;
  for (size_t n = 0; n < order.size(); ++n) {
    size_t i = order[n];
    if (n > 0 && Compare(k[order[n - 1]], k[i]) != 0) {
      groups.push_back(first_only ? current[0] : Value::MakeArray(std::move(current)));
      current.clear();
    }
    current.push_back(input.AsArray()[i]);
  }
  if (!current.empty()) groups.push_back(first_only ? current[0] : Value::MakeArray(std::move(current)));
  *out = Value::MakeArray(std::move(groups));
  return true;
}

// jq keeps the first minimum and the last maximum.
bool MinMaxBy(const Value& input, const Value& keys, bool is_min, Value* out, Value* error) {
  if (!input.IsArray() || !keys.IsArray()) {
    return Fail(error, Describe(input) + " and " + Describe(keys) + " cannot be iterated over");
  }
  const Array& v = input.AsArray();
  const Array& k = keys.AsArray();
  if (v.size() != k.size()) {
    return Fail(error, Describe(input) + " and " + Describe(keys) + " have wrong length");
  }
  if (v.empty()) {
    *out = Value::Null();
    return true;
  }
  size_t best = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    int c = Compare(k[i], k[best]);
    if (is_min ? c < 0 : c >= 0) best = i;
  }
  *out = v[best];
  return true;
}

bool ContainsRec(const Value& a, const Value& b, int depth, bool* result, Value* error) {
  if (depth > kMaxContainsDepth) return Fail(error, "Values too deeply nested for contains");
  if (a.kind() != b.kind()) {
    // Only the top-level values must be of one kind (jq's f_contains); below that a kind
    // mismatch just means "not contained" (jv_contains).
    if (depth == 0) {
      return Fail(error, Describe(a) + " and " + Describe(b) + " cannot have their containment checked");
    }
    *result = false;
    return true;
  }
  switch (a.kind()) {
    case Kind::Object:
      for (const Member& m : b.AsObject()) {
        const Value* have = a.Find(m.first.AsString());
        if (!have) {
          *result = false;
          return true;
        }
        bool sub = false;
        if (!ContainsRec(*have, m.second, depth + 1, &sub, error)) return false;
        if (!sub) {
          *result = false;
          return true;
        }
      }
      *result = true;
      return true;
    case Kind::Array:
      for (const Value& want : b.AsArray()) {
        bool found = false;
        for (const Value& have : a.AsArray()) {
          if (have.kind() != want.kind()) continue;
          bool sub = false;
          if (!ContainsRec(have, want, depth + 1, &sub, error)) return false;
          if (sub) {
            found = true;
            break;
          }
        }
        if (!found) {
          *result = false;
          return true;
        }
      }
      *result = true;
      return true;
    case Kind::String:
      *result = a.AsString().find(b.AsString()) != std::string_view::npos;
      return true;
    default:
      *result = a == b;
      return true;
  }
}

bool Keys(const Value& input, bool sorted, Value* out, Value* error) {
  Array keys;
  if (input.IsObject()) {
    for (const Member& m : input.AsObject()) keys.push_back(m.first);
    if (sorted) {
      std::sort(keys.begin(), keys.end(),
                [](const Value& a, const Value& b) { return a.AsString() < b.AsString(); });
    }
  } else if (input.IsArray()) {
    for (size_t i = 0; i < input.AsArray().size(); ++i) keys.push_back(Value::Number(double(i)));
  } else {
    return Fail(error, Describe(input) + " has no keys");
  }
  *out = Value::MakeArray(std::move(keys));
  return true;
}

bool Length(const Value& input, Value* out, Value* error) {
  switch (input.kind()) {
    case Kind::Null: *out = Value::Number(0); return true;
    case Kind::Number: *out = Value::Number(std::fabs(input.AsNumber())); return true;
    case Kind::String:
      *out = Value::Number(double(eval_internal::CodepointCount(input.AsString())));
      return true;
    case Kind::Array: *out = Value::Number(double(input.AsArray().size())); return true;
    case Kind::Object: *out = Value::Number(double(input.AsObject().size())); return true;
    default: return Fail(error, Describe(input) + " has no length");
  }
}

// fromjson (and tonumber's last resort): the text read as jq's reader reads it, its number tokens
// included (JsonParseOptions::jq_number_tokens: `[007, .5, nan]`).
bool ParseWithContext(const Value& input, Value* out, Value* error) {
  JsonError parse_error;
  std::string_view text = input.AsString();
  JsonParseOptions options;
  options.jq_number_tokens = true;
  if (!ParseJson(text, out, &parse_error, options)) {
    return Fail(error, parse_error.message + " (while parsing '" + std::string(text) + "')");
  }
  return true;
}

// Whether `text` is one number as jq's reader takes it (ParseJqNumberToken) between JSON whitespace.
bool ReadNumberToken(std::string_view text, double* out) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return ParseJqNumberToken(text, out);
}

bool ToNumber(const Value& input, Value* out, Value* error) {
  if (input.IsNumber()) {
    *out = input;
    return true;
  }
  if (input.IsString()) {
    // A plain JSON number (`"3"`, the catalog's annotations) without building a string; then
    // the other forms jq's reader takes as a number.
    if (double number; ParseJsonNumber(input.AsString(), &number) || ReadNumberToken(input.AsString(), &number)) {
      *out = Value::Number(number);
      return true;
    }
    Value parsed;
    if (!ParseWithContext(input, &parsed, error)) return false;
    if (parsed.IsNumber()) {
      *out = parsed;
      return true;
    }
  }
  return Fail(error, Describe(input) + " cannot be parsed as a number");
}

bool Explode(const Value& input, Value* out, Value* error) {
  if (!input.IsString()) return Fail(error, "explode input must be a string");
  std::string_view s = input.AsString();
  Array cps;
  for (size_t pos = 0; pos < s.size();) {
    cps.push_back(Value::Number(double(eval_internal::DecodeUtf8(s, &pos))));
  }
  *out = Value::MakeArray(std::move(cps));
  return true;
}

bool Implode(const Value& input, Value* out, Value* error) {
  if (!input.IsArray()) return Fail(error, "implode input must be an array");
  std::string s;
  for (const Value& cp : input.AsArray()) {
    // jq 1.7.1: a non-number or nan is an error (nan is described as null, as jq prints it);
    // negative, too large and surrogate code points become U+FFFD.
    if (!cp.IsNumber() || std::isnan(cp.AsNumber())) {
      return Fail(error, Describe(cp) + " can't be imploded, unicode codepoint needs to be numeric");
    }
    double d = std::trunc(cp.AsNumber());
    bool surrogate = d >= 0xD800 && d <= 0xDFFF;
    uint32_t code = (d < 0 || d > 0x10FFFF || surrogate) ? 0xFFFD : static_cast<uint32_t>(d);
    utf8::Append(code, &s);
  }
  *out = Value::String(s);
  return true;
}

// jq's join as its definition computes it, `reduce .[] as $i (null; (if . == null then "" else
// . + $sep end) + ($i | if . == null then "" elif type == "string" then . else tojson end))`
// restricted to scalars: numbers and booleans are printed, arrays and objects fail the `+`.
bool JoinByAdding(const Array& items, const Value& sep, Value* out, Value* error) {
  Value acc = Value::Null();
  for (const Value& item : items) {
    Value prefix;
    if (acc.IsNull()) {
      prefix = Value::String("");
    } else if (!Binary(ir::BinaryOp::Add, acc, sep, &prefix, error)) {
      return false;
    }
    Value piece;
    if (item.IsNull()) piece = Value::String("");
    else if (item.IsBool() || item.IsNumber()) piece = Value::String(ToJson(item));
    else piece = item;
    if (!Binary(ir::BinaryOp::Add, prefix, piece, &acc, error)) return false;
    // Each + copies the string built so far: quadratic work, charged as it is done.
    if (!eval_internal::ChargeWork(eval_internal::WorkUnits(acc), 0, error)) return false;
  }
  *out = acc.Truthy() ? acc : Value::String("");
  return true;
}

// The same result built in one string (linear, where adding piece by piece is quadratic); the
// error for an array or object item is still the one the `+` gives.
bool Join(const Value& input, const Value& sep, Value* out, Value* error) {
  Array items;
  if (!IterateInto(input, &items, error)) return false;
  // A null separator adds nothing (`s + null` is s): the same result as "" in one string. Any
  // other non-string separator fails at the second item, where adding it to a string does.
  if (!sep.IsString() && !sep.IsNull()) return JoinByAdding(items, sep, out, error);
  const std::string_view separator = sep.IsString() ? sep.AsString() : std::string_view();
  std::string joined;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) joined += separator;
    const Value& item = items[i];
    if (item.IsString()) {
      joined += item.AsString();
    } else if (item.IsBool() || item.IsNumber()) {
      joined += ToJson(item);
    } else if (!item.IsNull()) {
      Value ignored;
      if (!Binary(ir::BinaryOp::Add, Value::String(joined), item, &ignored, error)) return false;
    }
  }
  *out = Value::String(joined);
  return true;
}

bool AsciiCase(const Value& input, bool upper, Value* out, Value* error) {
  if (!input.IsString()) {
    return Fail(error, std::string(upper ? "ascii_upcase" : "ascii_downcase") + " input must be a string");
  }
  std::string s(input.AsString());
  for (char& c : s) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  *out = Value::String(s);
  return true;
}

bool Trim(const Value& input, bool left, bool right, Value* out, Value* error) {
  if (!input.IsString()) return Fail(error, Describe(input) + " cannot be trimmed");
  std::string_view s = input.AsString();
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  size_t b = 0, e = s.size();
  if (left) while (b < e && space(s[b])) ++b;
  if (right) while (e > b && space(s[e - 1])) --e;
  *out = Value::String(s.substr(b, e - b));
  return true;
}

// jq's indices($i): an array input looks up the sub-array $i (or [$i]), a string input with a
// string needle lists the match offsets, and anything else falls back to `.[$i]` (so
// `null | indices("a")` and `{} | indices("a")` are null, `null | indices(null)` an error).
bool Indices(const Value& input, const Value& needle, Value* out, Value* error) {
  if (input.IsString() && needle.IsString()) {
    std::string_view hay = input.AsString(), n = needle.AsString();
    Array found;
    if (n.empty()) {
      *out = Value::Null();
      return true;
    }
    // Codepoint offsets (jq 1.7 documents positions in characters).
    eval_internal::CodepointCursor cursor(hay);
    for (size_t pos = hay.find(n); pos != std::string_view::npos; pos = hay.find(n, pos + 1)) {
      found.push_back(Value::Number(double(cursor.Before(pos))));
      if (!eval_internal::ChargeWork(cursor.TakeScannedSteps(), 0, error)) return false;
    }
    *out = Value::MakeArray(std::move(found));
    return true;
  }
  if (input.IsArray() && !needle.IsArray()) return Index(input, Value::MakeArray({needle}), out, error);
  return Index(input, needle, out, error);
}

bool Flatten(const Value& input, const Value& depth_value, Value* out, Value* error) {
  double depth;
  if (!NumberArg(depth_value, &depth, error)) return Fail(error, "flatten depth must not be negative");
  if (depth < 0) return Fail(error, "flatten depth must not be negative");
  Array top;
  if (!IterateInto(input, &top, error)) return false;
  // Explicit stack of (array, next index, remaining depth): no recursion on user data.
  struct Level {
    const Array* items;
    size_t next;
    double depth;
  };
  Array result;
  std::vector<Value> keep_alive{Value::MakeArray(top)};
  std::vector<Level> stack{{&keep_alive[0].AsArray(), 0, depth}};
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.items->size()) {
      stack.pop_back();
      continue;
    }
    const Value& item = (*level.items)[level.next++];
    if (item.IsArray() && level.depth > 0) {
      stack.push_back({&item.AsArray(), 0, level.depth - 1});
    } else {
      result.push_back(item);
    }
  }
  *out = Value::MakeArray(std::move(result));
  return true;
}

bool ToEntries(const Value& input, Value* out, Value* error) {
  Array entries;
  if (input.IsObject()) {
    for (const Member& m : input.AsObject()) {
      entries.push_back(Value::MakeObject({{Value::String("key"), m.first}, {Value::String("value"), m.second}}));
    }
  } else if (input.IsArray()) {
    const Array& a = input.AsArray();
    for (size_t i = 0; i < a.size(); ++i) {
      entries.push_back(Value::MakeObject({{Value::String("key"), Value::Number(double(i))},
                                           {Value::String("value"), a[i]}}));
    }
  } else {
    return Fail(error, Describe(input) + " has no keys");
  }
  *out = Value::MakeArray(std::move(entries));
  return true;
}

Value EnvironmentObject() {
  std::vector<Member> members;
  for (char** e = environ; e && *e; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (!eq) continue;
    members.emplace_back(Value::String(std::string_view(*e, eq - *e)), Value::String(eq + 1));
  }
  return Value::MakeObject(std::move(members));
}


double Significand(double x) {
  if (x == 0 || std::isinf(x) || std::isnan(x)) return x;
  int exponent;
  return std::frexp(x, &exponent) * 2;
}

// ---- one function per row of runtime/ir/builtins.def. ops::CallBuiltin has checked the
// argument count against the row's arity, so args[0 .. arity) are valid.

#define WM_BUILTIN_IMPL(Enum)                                                                    \
  bool Builtin##Enum([[maybe_unused]] const Value& input, [[maybe_unused]] const Value* args,    \
                     [[maybe_unused]] Value* out, [[maybe_unused]] Value* error)

// jq's libm builtins: a number input (one-argument) or number arguments (two-argument).
#define WM_MATH1(Enum, expression)                \
  WM_BUILTIN_IMPL(Enum) {                         \
    double x;                                     \
    if (!NumberArg(input, &x, error)) return false; \
    *out = Value::Number(expression);             \
    return true;                                  \
  }
#define WM_MATH2(Enum, expression)                                                       \
  WM_BUILTIN_IMPL(Enum) {                                                                \
    double a, b;                                                                         \
    if (!NumberArg(args[0], &a, error) || !NumberArg(args[1], &b, error)) return false; \
    *out = Value::Number(expression);                                                    \
    return true;                                                                         \
  }
WM_BUILTIN_IMPL(Length) { return Length(input, out, error); }
WM_BUILTIN_IMPL(Utf8ByteLength) {
  if (!input.IsString()) return Fail(error, Describe(input) + " only strings have UTF-8 byte length");
  *out = Value::Number(double(input.AsString().size()));
  return true;
}
WM_BUILTIN_IMPL(Not) {
  *out = Value::Bool(!input.Truthy());
  return true;
}
WM_BUILTIN_IMPL(Keys) { return Keys(input, true, out, error); }
WM_BUILTIN_IMPL(KeysUnsorted) { return Keys(input, false, out, error); }
WM_BUILTIN_IMPL(Has) {
  const Value& k = args[0];
  // jq answers false for any key on null (jv_has), before looking at the key's kind.
  if (input.IsNull()) {
    *out = Value::Bool(false);
    return true;
  }
  if (input.IsObject() && k.IsString()) {
    *out = Value::Bool(input.Find(k.AsString()) != nullptr);
    return true;
  }
  if (input.IsArray() && k.IsNumber()) {
    double d = k.AsNumber();
    *out = Value::Bool(d >= 0 && d < double(input.AsArray().size()));
    return true;
  }
  return Fail(error, std::string("Cannot check whether ") + KindName(input.kind()) + " has a " +
                         KindName(k.kind()) + " key");
}
WM_BUILTIN_IMPL(Contains) {
  bool result = false;
  if (!ContainsRec(input, args[0], 0, &result, error)) return false;
  *out = Value::Bool(result);
  return true;
}
WM_BUILTIN_IMPL(Add) {
  Array items;
  if (!IterateInto(input, &items, error)) return false;
  Value acc = Value::Null();
  for (const Value& item : items) {
    Value next;
    if (!Binary(ir::BinaryOp::Add, acc, item, &next, error)) return false;
    acc = std::move(next);
  }
  *out = std::move(acc);
  return true;
}
WM_BUILTIN_IMPL(Type) {
  *out = Value::String(KindName(input.kind()));
  return true;
}
WM_BUILTIN_IMPL(ToString) {
  *out = input.IsString() ? input : Value::String(ToJson(input));
  return true;
}
WM_BUILTIN_IMPL(ToNumber) { return ToNumber(input, out, error); }
WM_BUILTIN_IMPL(ToJson) {
  *out = Value::String(ToJson(input));
  return true;
}
WM_BUILTIN_IMPL(FromJson) {
  if (!input.IsString()) return Fail(error, Describe(input) + " only strings can be parsed");
  return ParseWithContext(input, out, error);
}
WM_MATH1(Floor, std::floor(x))
WM_MATH1(Sqrt, std::sqrt(x))
WM_MATH2(Pow, std::pow(a, b))
WM_MATH1(Log, std::log(x))
WM_MATH1(Exp, std::exp(x))
WM_MATH1(Log10, std::log10(x))
WM_MATH1(Log2, std::log2(x))
WM_MATH1(Fabs, std::fabs(x))
WM_MATH1(Round, std::round(x))
WM_MATH1(Ceil, std::ceil(x))
WM_MATH1(Trunc, std::trunc(x))
WM_BUILTIN_IMPL(Sort) {
  if (!input.IsArray()) return Fail(error, Describe(input) + " cannot be sorted, as it is not an array");
  return SortBy(input, input, out, error);
}
WM_BUILTIN_IMPL(SortBy) { return SortBy(input, args[0], out, error); }
WM_BUILTIN_IMPL(GroupBy) { return GroupBy(input, args[0], false, out, error); }
WM_BUILTIN_IMPL(Min) { return MinMaxBy(input, input, true, out, error); }
WM_BUILTIN_IMPL(Max) { return MinMaxBy(input, input, false, out, error); }
WM_BUILTIN_IMPL(MinBy) { return MinMaxBy(input, args[0], true, out, error); }
WM_BUILTIN_IMPL(MaxBy) { return MinMaxBy(input, args[0], false, out, error); }
WM_BUILTIN_IMPL(Unique) {
  if (!input.IsArray()) return Fail(error, Describe(input) + " cannot be sorted, as it is not an array");
  return GroupBy(input, input, true, out, error);
}
WM_BUILTIN_IMPL(UniqueBy) { return GroupBy(input, args[0], true, out, error); }
WM_BUILTIN_IMPL(Reverse) {
  if (input.IsNull() || (input.IsObject() && input.AsObject().empty())) {
    *out = Value::EmptyArray();
    return true;
  }
  if (input.IsString()) {
    Value cps;
    if (!Explode(input, &cps, error)) return false;
    Array a = cps.AsArray();
    std::reverse(a.begin(), a.end());
    return Implode(Value::MakeArray(std::move(a)), out, error);
  }
  if (input.IsArray()) {
    Array a = input.AsArray();
    std::reverse(a.begin(), a.end());
    *out = Value::MakeArray(std::move(a));
    return true;
  }
  return Fail(error, std::string("Cannot index ") + KindName(input.kind()) + " with number");
}
WM_BUILTIN_IMPL(Explode) { return Explode(input, out, error); }
WM_BUILTIN_IMPL(Implode) { return Implode(input, out, error); }
WM_BUILTIN_IMPL(Split) {
  if (!input.IsString() || !args[0].IsString()) return Fail(error, "split input and separator must be strings");
  return Binary(ir::BinaryOp::Div, input, args[0], out, error);
}
WM_BUILTIN_IMPL(Join) { return Join(input, args[0], out, error); }
WM_BUILTIN_IMPL(AsciiDowncase) { return AsciiCase(input, false, out, error); }
WM_BUILTIN_IMPL(AsciiUpcase) { return AsciiCase(input, true, out, error); }
WM_BUILTIN_IMPL(LtrimStr) {
  *out = input;
  if (!input.IsString() || !args[0].IsString()) return true;
  std::string_view s = input.AsString(), prefix = args[0].AsString();
  if (s.substr(0, prefix.size()) == prefix) *out = Value::String(s.substr(prefix.size()));
  return true;
}
WM_BUILTIN_IMPL(RtrimStr) {
  *out = input;
  if (!input.IsString() || !args[0].IsString()) return true;
  std::string_view s = input.AsString(), suffix = args[0].AsString();
  if (s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix) {
    *out = Value::String(s.substr(0, s.size() - suffix.size()));
  }
  return true;
}
WM_BUILTIN_IMPL(StartsWith) {
  if (!input.IsString() || !args[0].IsString()) return Fail(error, "startswith() requires string inputs");
  std::string_view s = input.AsString(), prefix = args[0].AsString();
  *out = Value::Bool(s.substr(0, prefix.size()) == prefix);
  return true;
}
WM_BUILTIN_IMPL(EndsWith) {
  if (!input.IsString() || !args[0].IsString()) return Fail(error, "endswith() requires string inputs");
  std::string_view s = input.AsString(), suffix = args[0].AsString();
  *out = Value::Bool(s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix);
  return true;
}
WM_BUILTIN_IMPL(Indices) { return Indices(input, args[0], out, error); }
WM_BUILTIN_IMPL(Infinite) {
  *out = Value::Number(INFINITY);
  return true;
}
WM_BUILTIN_IMPL(Nan) {
  *out = Value::Number(NAN);
  return true;
}
// jq's number classifiers answer false for a non-number rather than raising a type error.
WM_BUILTIN_IMPL(IsInfinite) {
  *out = Value::Bool(input.IsNumber() && std::isinf(input.AsNumber()));
  return true;
}
WM_BUILTIN_IMPL(IsNan) {
  *out = Value::Bool(input.IsNumber() && std::isnan(input.AsNumber()));
  return true;
}
WM_BUILTIN_IMPL(IsNormal) {
  *out = Value::Bool(input.IsNumber() && std::isnormal(input.AsNumber()));
  return true;
}
WM_BUILTIN_IMPL(GetPath) { return eval_internal::PathGet(input, args[0], out, error); }
WM_BUILTIN_IMPL(SetPath) { return eval_internal::PathSet(input, args[0], args[1], out, error); }
WM_BUILTIN_IMPL(DelPaths) { return eval_internal::PathDelete(input, args[0], out, error); }
WM_BUILTIN_IMPL(ToEntries) { return ToEntries(input, out, error); }
WM_BUILTIN_IMPL(Tostream) { return eval_internal::ToStreamEvents(input, out, error); }
WM_BUILTIN_IMPL(Test) { return eval_internal::RegexMatch(input, args[0], args[1], true, out, error); }
WM_BUILTIN_IMPL(Match) { return eval_internal::RegexMatch(input, args[0], args[1], false, out, error); }
WM_BUILTIN_IMPL(Env) {
  static const Value env = EnvironmentObject();
  *out = env;
  return true;
}
WM_BUILTIN_IMPL(Now) {
  *out = Value::Number(eval_internal::TimeNow());
  return true;
}
WM_BUILTIN_IMPL(Mktime) { return eval_internal::TimeMktime(input, out, error); }
WM_BUILTIN_IMPL(Gmtime) { return eval_internal::TimeGmtime(input, false, out, error); }
WM_BUILTIN_IMPL(Localtime) { return eval_internal::TimeGmtime(input, true, out, error); }
WM_BUILTIN_IMPL(Strftime) { return eval_internal::TimeStrftime(input, args[0], false, out, error); }
WM_BUILTIN_IMPL(Strptime) { return eval_internal::TimeStrptime(input, args[0], out, error); }
WM_BUILTIN_IMPL(Strflocaltime) { return eval_internal::TimeStrftime(input, args[0], true, out, error); }
WM_MATH1(Significand, Significand(x))
WM_BUILTIN_IMPL(Abs) {
  *out = input.IsNumber() && input.AsNumber() < 0 ? Value::Number(-input.AsNumber()) : input;
  return true;
}
WM_BUILTIN_IMPL(ToArray) {
  *out = input.IsArray() ? input : Value::MakeArray({input});
  return true;
}
WM_BUILTIN_IMPL(Flatten) { return Flatten(input, args[0], out, error); }
// Generators: the interpreter and the native backends loop over them themselves.
WM_BUILTIN_IMPL(Range) { return Fail(error, "range/2 is a generator and cannot be called for one value"); }
WM_BUILTIN_IMPL(Error) {
  *error = args[0];
  return false;
}
WM_MATH1(Acos, std::acos(x))
WM_MATH1(Acosh, std::acosh(x))
WM_MATH1(Asin, std::asin(x))
WM_MATH1(Asinh, std::asinh(x))
WM_MATH1(Atan, std::atan(x))
WM_MATH1(Atanh, std::atanh(x))
WM_MATH1(Cbrt, std::cbrt(x))
WM_MATH1(Cos, std::cos(x))
WM_MATH1(Cosh, std::cosh(x))
WM_MATH1(Exp10, std::pow(10.0, x))
WM_MATH1(Exp2, std::exp2(x))
WM_MATH1(Expm1, std::expm1(x))
WM_MATH1(Gamma, std::lgamma(x))
WM_MATH1(J0, ::j0(x))
WM_MATH1(J1, ::j1(x))
WM_MATH1(Lgamma, std::lgamma(x))
WM_MATH1(Log1p, std::log1p(x))
WM_MATH1(Logb, std::logb(x))
WM_MATH1(Nearbyint, std::nearbyint(x))
WM_MATH1(Pow10, std::pow(10.0, x))
WM_MATH1(Rint, std::rint(x))
WM_MATH1(Sin, std::sin(x))
WM_MATH1(Sinh, std::sinh(x))
WM_MATH1(Tan, std::tan(x))
WM_MATH1(Tanh, std::tanh(x))
WM_MATH1(Tgamma, std::tgamma(x))
WM_MATH1(Y0, ::y0(x))
WM_MATH1(Y1, ::y1(x))
// Math builtins answering a pair as an array.
WM_BUILTIN_IMPL(LgammaR) {
  double x;
  if (!NumberArg(input, &x, error)) return false;
  int sign = 0;
  double value = ::lgamma_r(x, &sign);
  *out = Value::MakeArray({Value::Number(value), Value::Number(sign)});
  return true;
}
WM_BUILTIN_IMPL(Frexp) {
  double x;
  if (!NumberArg(input, &x, error)) return false;
  int exponent = 0;
  double mantissa = std::frexp(x, &exponent);
  *out = Value::MakeArray({Value::Number(mantissa), Value::Number(exponent)});
  return true;
}
WM_BUILTIN_IMPL(Modf) {
  double x;
  if (!NumberArg(input, &x, error)) return false;
  double integral = 0;
  double fraction = std::modf(x, &integral);
  *out = Value::MakeArray({Value::Number(fraction), Value::Number(integral)});
  return true;
}
WM_MATH1(Erf, std::erf(x))
WM_MATH1(Erfc, std::erfc(x))
WM_MATH2(Atan2, std::atan2(a, b))
WM_MATH2(Copysign, std::copysign(a, b))
WM_MATH2(Drem, std::remainder(a, b))
WM_MATH2(Fdim, std::fdim(a, b))
WM_MATH2(Fmax, std::fmax(a, b))
WM_MATH2(Fmin, std::fmin(a, b))
WM_MATH2(Fmod, std::fmod(a, b))
WM_MATH2(Hypot, std::hypot(a, b))
WM_MATH2(Ldexp, std::ldexp(a, static_cast<int>(b)))
WM_MATH2(Nextafter, std::nextafter(a, b))
WM_MATH2(Nexttoward, std::nexttoward(a, static_cast<long double>(b)))
WM_MATH2(Scalb, a * std::exp2(b))
WM_MATH2(Scalbln, std::scalbln(a, static_cast<long>(b)))
WM_MATH2(Jn, ::jn(static_cast<int>(a), b))
WM_MATH2(Yn, ::yn(static_cast<int>(a), b))
WM_MATH2(Remainder, std::remainder(a, b))
WM_BUILTIN_IMPL(Fma) {
  double a, b, c;
  if (!NumberArg(args[0], &a, error) || !NumberArg(args[1], &b, error) || !NumberArg(args[2], &c, error)) {
    return false;
  }
  *out = Value::Number(std::fma(a, b, c));
  return true;
}
WM_BUILTIN_IMPL(Trim) { return Trim(input, true, true, out, error); }
WM_BUILTIN_IMPL(Ltrim) { return Trim(input, true, false, out, error); }
WM_BUILTIN_IMPL(Rtrim) { return Trim(input, false, true, out, error); }
WM_BUILTIN_IMPL(Range3) { return Fail(error, "range/3 is a generator and cannot be called for one value"); }

#undef WM_MATH2
#undef WM_MATH1
#undef WM_BUILTIN_IMPL

using BuiltinFn = bool (*)(const Value& input, const Value* args, Value* out, Value* error);

// Indexed by ir::BuiltinId.
constexpr BuiltinFn kDispatch[] = {
#define WM_BUILTIN(Enum, Name, Arity, Kind, Signature) &Builtin##Enum,
#include "runtime/ir/builtins.def"
};
static_assert(std::size(kDispatch) == ir::kBuiltinCount);

// Whether a builtin's work grows with the size of its input and arguments. The others take
// constant time or charge their own work (paths: per component; prefix tests: per needle byte).
bool ScansItsInput(ir::BuiltinId id) {
  using ir::BuiltinId;
  switch (id) {
    case BuiltinId::Length:
    case BuiltinId::Not:
    case BuiltinId::Has:
    case BuiltinId::Type:
    case BuiltinId::Infinite:
    case BuiltinId::Nan:
    case BuiltinId::IsInfinite:
    case BuiltinId::IsNan:
    case BuiltinId::IsNormal:
    case BuiltinId::GetPath:
    case BuiltinId::SetPath:
    case BuiltinId::DelPaths:
    case BuiltinId::StartsWith:
    case BuiltinId::EndsWith:
    case BuiltinId::LtrimStr:
    case BuiltinId::RtrimStr:
    case BuiltinId::Env:
    case BuiltinId::Now:
    case BuiltinId::Error:
    case BuiltinId::ToArray:
      return false;
    default:
      return true;
  }
}

}  // namespace

bool CallBuiltin(ir::BuiltinId id, const Value& input, const Value* args, size_t nargs, Value* out,
                 Value* error) {
  if (!ir::IsKnownBuiltin(id)) return Fail(error, "unknown builtin " + std::to_string(static_cast<uint16_t>(id)));
  if (nargs != static_cast<size_t>(ir::BuiltinArity(id))) {
    return Fail(error, std::string(ir::BuiltinName(id)) + ": wrong number of arguments");
  }
  // Every builtin charges the evaluation's budget (internal/step_budget.h): a step for the call,
  // the input and arguments it scans (not for the O(1) ones, nor the path builtins, which charge
  // per path component themselves), and what it built.
  uint64_t scanned = 0;
  if (ScansItsInput(id)) {
    scanned = eval_internal::WorkUnits(input);
    for (size_t i = 0; i < nargs; ++i) scanned += eval_internal::WorkUnits(args[i]);
  }
  if (!eval_internal::ChargeWork(1 + scanned, 0, error)) return false;
  if (!kDispatch[static_cast<size_t>(id)](input, args, out, error)) return false;
  return eval_internal::ChargeWork(eval_internal::WorkUnits(*out), 0, error);
}

}  // namespace wm::ops
