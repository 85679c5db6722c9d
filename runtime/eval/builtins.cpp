// Native builtins: the name table used by the lowering (builtins.h) and ops::CallBuiltin, which
// applies one builtin to its input and already-evaluated arguments. Regex, time and path builtins
// live in builtins_regex.cpp, builtins_time.cpp and builtins_paths.cpp. Error texts follow jq 1.7.
#include "runtime/eval/builtins.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

#include "runtime/eval/internal/builtin_impl.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"
#include "runtime/value/json.h"

extern char** environ;

namespace wm::eval {
namespace {

using B = ir::BuiltinId;
using E = ExtraBuiltin;

const std::vector<NativeBuiltin>& Table() {
  static const std::vector<NativeBuiltin> table = {
      {"length", 0, B::Length}, {"utf8bytelength", 0, B::Utf8ByteLength}, {"not", 0, B::Not},
      {"keys", 0, B::Keys}, {"keys_unsorted", 0, B::KeysUnsorted}, {"has", 1, B::Has},
      {"contains", 1, B::Contains}, {"add", 0, B::Add}, {"type", 0, B::Type},
      {"tostring", 0, B::ToString}, {"tonumber", 0, B::ToNumber}, {"tojson", 0, B::ToJson},
      {"fromjson", 0, B::FromJson}, {"floor", 0, B::Floor}, {"sqrt", 0, B::Sqrt},
      {"pow", 2, B::Pow}, {"log", 0, B::Log}, {"exp", 0, B::Exp}, {"log10", 0, B::Log10},
      {"log2", 0, B::Log2}, {"fabs", 0, B::Fabs}, {"round", 0, B::Round}, {"ceil", 0, B::Ceil},
      {"trunc", 0, B::Trunc}, {"sort", 0, B::Sort}, {"_sort_by_impl", 1, B::SortBy},
      {"_group_by_impl", 1, B::GroupBy}, {"min", 0, B::Min}, {"max", 0, B::Max},
      {"_min_by_impl", 1, B::MinBy}, {"_max_by_impl", 1, B::MaxBy}, {"unique", 0, B::Unique},
      {"_unique_by_impl", 1, B::UniqueBy}, {"reverse", 0, B::Reverse},
      {"explode", 0, B::Explode}, {"implode", 0, B::Implode}, {"split", 1, B::Split},
      {"join", 1, B::Join}, {"ascii_downcase", 0, B::AsciiDowncase},
      {"ascii_upcase", 0, B::AsciiUpcase}, {"ltrimstr", 1, B::LtrimStr},
      {"rtrimstr", 1, B::RtrimStr}, {"startswith", 1, B::StartsWith},
      {"endswith", 1, B::EndsWith}, {"_indices", 1, B::Indices}, {"infinite", 0, B::Infinite},
      {"nan", 0, B::Nan}, {"isinfinite", 0, B::IsInfinite}, {"isnan", 0, B::IsNan},
      {"isnormal", 0, B::IsNormal}, {"_getpath", 1, B::GetPath}, {"setpath", 2, B::SetPath},
      {"delpaths", 1, B::DelPaths}, {"to_entries", 0, B::ToEntries},
      {"_tostream", 0, B::Tostream}, {"_test_impl", 2, B::Test},
      {"_match_impl", 2, B::Match}, {"env", 0, B::Env}, {"now", 0, B::Now},
      {"mktime", 0, B::Mktime}, {"gmtime", 0, B::Gmtime}, {"localtime", 0, B::Localtime},
      {"strftime", 1, B::Strftime}, {"strptime", 1, B::Strptime},
      {"strflocaltime", 1, B::Strflocaltime}, {"significand", 0, B::Significand},
      {"toarray", 0, B::ToArray}, {"_flatten", 1, B::Flatten}, {"range", 2, B::Range},
      {"acos", 0, ToId(E::Acos)}, {"acosh", 0, ToId(E::Acosh)}, {"asin", 0, ToId(E::Asin)},
      {"asinh", 0, ToId(E::Asinh)}, {"atan", 0, ToId(E::Atan)}, {"atanh", 0, ToId(E::Atanh)},
      {"cbrt", 0, ToId(E::Cbrt)}, {"cos", 0, ToId(E::Cos)}, {"cosh", 0, ToId(E::Cosh)},
      {"exp10", 0, ToId(E::Exp10)}, {"exp2", 0, ToId(E::Exp2)}, {"expm1", 0, ToId(E::Expm1)},
      {"gamma", 0, ToId(E::Gamma)}, {"j0", 0, ToId(E::J0)}, {"j1", 0, ToId(E::J1)},
      {"lgamma", 0, ToId(E::Lgamma)}, {"log1p", 0, ToId(E::Log1p)}, {"logb", 0, ToId(E::Logb)},
      {"nearbyint", 0, ToId(E::Nearbyint)}, {"pow10", 0, ToId(E::Pow10)},
      {"rint", 0, ToId(E::Rint)}, {"sin", 0, ToId(E::Sin)}, {"sinh", 0, ToId(E::Sinh)},
      {"tan", 0, ToId(E::Tan)}, {"tanh", 0, ToId(E::Tanh)}, {"tgamma", 0, ToId(E::Tgamma)},
      {"y0", 0, ToId(E::Y0)}, {"y1", 0, ToId(E::Y1)}, {"lgamma_r", 0, ToId(E::LgammaR)},
      {"frexp", 0, ToId(E::Frexp)}, {"modf", 0, ToId(E::Modf)},
      {"atan2", 2, ToId(E::Atan2)}, {"copysign", 2, ToId(E::Copysign)},
      {"drem", 2, ToId(E::Drem)}, {"fdim", 2, ToId(E::Fdim)}, {"fmax", 2, ToId(E::Fmax)},
      {"fmin", 2, ToId(E::Fmin)}, {"fmod", 2, ToId(E::Fmod)}, {"hypot", 2, ToId(E::Hypot)},
      {"ldexp", 2, ToId(E::Ldexp)}, {"nextafter", 2, ToId(E::Nextafter)},
      {"nexttoward", 2, ToId(E::Nexttoward)}, {"scalb", 2, ToId(E::Scalb)},
      {"scalbln", 2, ToId(E::Scalbln)}, {"fma", 3, ToId(E::Fma)},
      {"trim", 0, ToId(E::Trim)}, {"ltrim", 0, ToId(E::Ltrim)}, {"rtrim", 0, ToId(E::Rtrim)},
      {"range", 3, ToId(E::Range3)},
      {"erf", 0, ToId(E::Erf)}, {"erfc", 0, ToId(E::Erfc)}, {"jn", 2, ToId(E::Jn)},
      {"yn", 2, ToId(E::Yn)}, {"remainder", 2, ToId(E::Remainder)},
  };
  return table;
}

}  // namespace

const std::vector<NativeBuiltin>& NativeBuiltins() { return Table(); }

const char* NativeBuiltinName(ir::BuiltinId id) {
  for (const NativeBuiltin& b : Table()) {
    if (b.id == id) return b.name;
  }
  if (id == B::Error) return "error";
  if (id == B::FromEntries) return "from_entries";
  if (id == B::Builtins) return "builtins";
  if (id == B::Abs) return "abs";
  return "?builtin";
}

bool IsGeneratorBuiltin(ir::BuiltinId id) { return id == B::Range || id == ToId(E::Range3); }

}  // namespace wm::eval

namespace wm::ops {
namespace {

using eval::ExtraBuiltin;
using eval_internal::Describe;
using B = ir::BuiltinId;

bool Fail(Value* error, std::string message) {
  *error = Value::String(message);
  return false;
}

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

bool ParseWithContext(const Value& input, Value* out, Value* error) {
  JsonError parse_error;
  std::string_view text = input.AsString();
  if (!ParseJson(text, out, &parse_error)) {
    return Fail(error, parse_error.message + " (while parsing '" + std::string(text) + "')");
  }
  return true;
}

bool ToNumber(const Value& input, Value* out, Value* error) {
  if (input.IsNumber()) {
    *out = input;
    return true;
  }
  if (input.IsString()) {
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
    if (!cp.IsNumber()) {
      return Fail(error, Describe(cp) + " can't be imploded, unicode codepoint needs to be numeric");
    }
    double d = cp.AsNumber();
    uint32_t code = (d < 0 || d > 0x10FFFF || std::isnan(d)) ? 0xFFFD : static_cast<uint32_t>(d);
    utf8::Append(code, &s);
  }
  *out = Value::String(s);
  return true;
}

bool Join(const Value& input, const Value& sep, Value* out, Value* error) {
  Array items;
  if (!IterateInto(input, &items, error)) return false;
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
  }
  *out = acc.Truthy() ? acc : Value::String("");
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
    for (size_t pos = hay.find(n); pos != std::string_view::npos; pos = hay.find(n, pos + 1)) {
      found.push_back(Value::Number(double(eval_internal::CodepointCount(hay.substr(0, pos)))));
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

bool Math1(B id, double x, Value* out, Value* error) {
  double r = 0;
  switch (static_cast<uint16_t>(id)) {
    case uint16_t(B::Floor): r = std::floor(x); break;
    case uint16_t(B::Sqrt): r = std::sqrt(x); break;
    case uint16_t(B::Log): r = std::log(x); break;
    case uint16_t(B::Exp): r = std::exp(x); break;
    case uint16_t(B::Log10): r = std::log10(x); break;
    case uint16_t(B::Log2): r = std::log2(x); break;
    case uint16_t(B::Fabs): r = std::fabs(x); break;
    case uint16_t(B::Round): r = std::round(x); break;
    case uint16_t(B::Ceil): r = std::ceil(x); break;
    case uint16_t(B::Trunc): r = std::trunc(x); break;
    case uint16_t(B::Significand): {
      if (x == 0 || std::isinf(x) || std::isnan(x)) {
        r = x;
      } else {
        int e;
        r = std::frexp(x, &e) * 2;
      }
      break;
    }
    case uint16_t(ExtraBuiltin::Acos): r = std::acos(x); break;
    case uint16_t(ExtraBuiltin::Acosh): r = std::acosh(x); break;
    case uint16_t(ExtraBuiltin::Asin): r = std::asin(x); break;
    case uint16_t(ExtraBuiltin::Asinh): r = std::asinh(x); break;
    case uint16_t(ExtraBuiltin::Atan): r = std::atan(x); break;
    case uint16_t(ExtraBuiltin::Atanh): r = std::atanh(x); break;
    case uint16_t(ExtraBuiltin::Cbrt): r = std::cbrt(x); break;
    case uint16_t(ExtraBuiltin::Cos): r = std::cos(x); break;
    case uint16_t(ExtraBuiltin::Cosh): r = std::cosh(x); break;
    case uint16_t(ExtraBuiltin::Exp10): r = std::pow(10.0, x); break;
    case uint16_t(ExtraBuiltin::Pow10): r = std::pow(10.0, x); break;
    case uint16_t(ExtraBuiltin::Exp2): r = std::exp2(x); break;
    case uint16_t(ExtraBuiltin::Expm1): r = std::expm1(x); break;
    case uint16_t(ExtraBuiltin::Gamma): r = std::lgamma(x); break;
    case uint16_t(ExtraBuiltin::Lgamma): r = std::lgamma(x); break;
    case uint16_t(ExtraBuiltin::Tgamma): r = std::tgamma(x); break;
    case uint16_t(ExtraBuiltin::J0): r = ::j0(x); break;
    case uint16_t(ExtraBuiltin::J1): r = ::j1(x); break;
    case uint16_t(ExtraBuiltin::Y0): r = ::y0(x); break;
    case uint16_t(ExtraBuiltin::Y1): r = ::y1(x); break;
    case uint16_t(ExtraBuiltin::Log1p): r = std::log1p(x); break;
    case uint16_t(ExtraBuiltin::Logb): r = std::logb(x); break;
    case uint16_t(ExtraBuiltin::Nearbyint): r = std::nearbyint(x); break;
    case uint16_t(ExtraBuiltin::Rint): r = std::rint(x); break;
    case uint16_t(ExtraBuiltin::Sin): r = std::sin(x); break;
    case uint16_t(ExtraBuiltin::Sinh): r = std::sinh(x); break;
    case uint16_t(ExtraBuiltin::Tan): r = std::tan(x); break;
    case uint16_t(ExtraBuiltin::Tanh): r = std::tanh(x); break;
    case uint16_t(ExtraBuiltin::Erf): r = std::erf(x); break;
    case uint16_t(ExtraBuiltin::Erfc): r = std::erfc(x); break;
    case uint16_t(ExtraBuiltin::LgammaR): {
      int sign = 0;
      double v = ::lgamma_r(x, &sign);
      *out = Value::MakeArray({Value::Number(v), Value::Number(sign)});
      return true;
    }
    case uint16_t(ExtraBuiltin::Frexp): {
      int e = 0;
      double m = std::frexp(x, &e);
      *out = Value::MakeArray({Value::Number(m), Value::Number(e)});
      return true;
    }
    case uint16_t(ExtraBuiltin::Modf): {
      double ip = 0;
      double fp = std::modf(x, &ip);
      *out = Value::MakeArray({Value::Number(fp), Value::Number(ip)});
      return true;
    }
    default: return Fail(error, "unknown math builtin");
  }
  *out = Value::Number(r);
  return true;
}

bool Math2(B id, double a, double b, Value* out, Value* error) {
  double r = 0;
  switch (static_cast<uint16_t>(id)) {
    case uint16_t(B::Pow): r = std::pow(a, b); break;
    case uint16_t(ExtraBuiltin::Atan2): r = std::atan2(a, b); break;
    case uint16_t(ExtraBuiltin::Copysign): r = std::copysign(a, b); break;
    case uint16_t(ExtraBuiltin::Drem): r = std::remainder(a, b); break;
    case uint16_t(ExtraBuiltin::Remainder): r = std::remainder(a, b); break;
    case uint16_t(ExtraBuiltin::Jn): r = ::jn(static_cast<int>(a), b); break;
    case uint16_t(ExtraBuiltin::Yn): r = ::yn(static_cast<int>(a), b); break;
    case uint16_t(ExtraBuiltin::Fdim): r = std::fdim(a, b); break;
    case uint16_t(ExtraBuiltin::Fmax): r = std::fmax(a, b); break;
    case uint16_t(ExtraBuiltin::Fmin): r = std::fmin(a, b); break;
    case uint16_t(ExtraBuiltin::Fmod): r = std::fmod(a, b); break;
    case uint16_t(ExtraBuiltin::Hypot): r = std::hypot(a, b); break;
    case uint16_t(ExtraBuiltin::Ldexp): r = std::ldexp(a, static_cast<int>(b)); break;
    case uint16_t(ExtraBuiltin::Nextafter): r = std::nextafter(a, b); break;
    case uint16_t(ExtraBuiltin::Nexttoward): r = std::nexttoward(a, static_cast<long double>(b)); break;
    case uint16_t(ExtraBuiltin::Scalb): r = a * std::exp2(b); break;
    case uint16_t(ExtraBuiltin::Scalbln): r = std::scalbln(a, static_cast<long>(b)); break;
    default: return Fail(error, "unknown math builtin");
  }
  *out = Value::Number(r);
  return true;
}

bool IsMath1(uint16_t id) {
  switch (id) {
    case uint16_t(B::Floor): case uint16_t(B::Sqrt): case uint16_t(B::Log): case uint16_t(B::Exp):
    case uint16_t(B::Log10): case uint16_t(B::Log2): case uint16_t(B::Fabs):
    case uint16_t(B::Round): case uint16_t(B::Ceil): case uint16_t(B::Trunc):
    case uint16_t(B::Significand):
      return true;
    default:
      return (id >= uint16_t(ExtraBuiltin::Acos) && id <= uint16_t(ExtraBuiltin::Modf)) ||
             id == uint16_t(ExtraBuiltin::Erf) || id == uint16_t(ExtraBuiltin::Erfc);
  }
}

bool IsMath2(uint16_t id) {
  return id == uint16_t(B::Pow) ||
         (id >= uint16_t(ExtraBuiltin::Atan2) && id <= uint16_t(ExtraBuiltin::Scalbln)) ||
         (id >= uint16_t(ExtraBuiltin::Jn) && id <= uint16_t(ExtraBuiltin::Remainder));
}

bool WrongArity(B id, Value* error) {
  return Fail(error, std::string(eval::NativeBuiltinName(id)) + ": wrong number of arguments");
}

}  // namespace

bool CallBuiltin(ir::BuiltinId id, const Value& input, const Value* args, size_t nargs, Value* out,
                 Value* error) {
  const uint16_t raw = static_cast<uint16_t>(id);
  auto need = [&](size_t n) { return nargs == n; };
  if (IsMath1(raw)) {
    // jq's math builtins ignore arguments they do not take; ours have none.
    double x;
    if (!NumberArg(input, &x, error)) return false;
    return Math1(id, x, out, error);
  }
  if (IsMath2(raw)) {
    if (!need(2)) return WrongArity(id, error);
    double a, b;
    if (!NumberArg(args[0], &a, error) || !NumberArg(args[1], &b, error)) return false;
    return Math2(id, a, b, out, error);
  }
  switch (raw) {
    case uint16_t(ExtraBuiltin::Fma): {
      if (!need(3)) return WrongArity(id, error);
      double a, b, c;
      if (!NumberArg(args[0], &a, error) || !NumberArg(args[1], &b, error) ||
          !NumberArg(args[2], &c, error)) {
        return false;
      }
      *out = Value::Number(std::fma(a, b, c));
      return true;
    }
    case uint16_t(ExtraBuiltin::Trim): return Trim(input, true, true, out, error);
    case uint16_t(ExtraBuiltin::Ltrim): return Trim(input, true, false, out, error);
    case uint16_t(ExtraBuiltin::Rtrim): return Trim(input, false, true, out, error);
    case uint16_t(ExtraBuiltin::Range3):
      return Fail(error, "range/3 is a generator and cannot be called for one value");
    default: break;
  }
  if (raw >= uint16_t(B::Count)) return Fail(error, "unknown builtin " + std::to_string(raw));
  switch (id) {
    case B::Length: return Length(input, out, error);
    case B::Utf8ByteLength:
      if (!input.IsString()) return Fail(error, Describe(input) + " only strings have UTF-8 byte length");
      *out = Value::Number(double(input.AsString().size()));
      return true;
    case B::Not: *out = Value::Bool(!input.Truthy()); return true;
    case B::Keys: return Keys(input, true, out, error);
    case B::KeysUnsorted: return Keys(input, false, out, error);
    case B::Has: {
      if (!need(1)) return WrongArity(id, error);
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
    case B::Contains: {
      if (!need(1)) return WrongArity(id, error);
      bool result = false;
      if (!ContainsRec(input, args[0], 0, &result, error)) return false;
      *out = Value::Bool(result);
      return true;
    }
    case B::Add: {
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
    case B::Type: *out = Value::String(KindName(input.kind())); return true;
    case B::ToString:
      *out = input.IsString() ? input : Value::String(ToJson(input));
      return true;
    case B::ToNumber: return ToNumber(input, out, error);
    case B::ToJson: *out = Value::String(ToJson(input)); return true;
    case B::FromJson:
      if (!input.IsString()) return Fail(error, Describe(input) + " only strings can be parsed");
      return ParseWithContext(input, out, error);
    case B::Sort:
      if (!input.IsArray()) return Fail(error, Describe(input) + " cannot be sorted, as it is not an array");
      return SortBy(input, input, out, error);
    case B::SortBy:
      if (!need(1)) return WrongArity(id, error);
      return SortBy(input, args[0], out, error);
    case B::GroupBy:
      if (!need(1)) return WrongArity(id, error);
      return GroupBy(input, args[0], false, out, error);
    case B::Unique:
      if (!input.IsArray()) return Fail(error, Describe(input) + " cannot be sorted, as it is not an array");
      return GroupBy(input, input, true, out, error);
    case B::UniqueBy:
      if (!need(1)) return WrongArity(id, error);
      return GroupBy(input, args[0], true, out, error);
    case B::Min: return MinMaxBy(input, input, true, out, error);
    case B::Max: return MinMaxBy(input, input, false, out, error);
    case B::MinBy:
      if (!need(1)) return WrongArity(id, error);
      return MinMaxBy(input, args[0], true, out, error);
    case B::MaxBy:
      if (!need(1)) return WrongArity(id, error);
      return MinMaxBy(input, args[0], false, out, error);
    case B::Reverse:
      if (input.IsNull()) {
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
      if (input.IsObject() && input.AsObject().empty()) {
        *out = Value::EmptyArray();
        return true;
      }
      return Fail(error, std::string("Cannot index ") + KindName(input.kind()) + " with number");
    case B::Explode: return Explode(input, out, error);
    case B::Implode: return Implode(input, out, error);
    case B::Split:
      if (!need(1)) return WrongArity(id, error);
      if (!input.IsString() || !args[0].IsString()) {
        return Fail(error, "split input and separator must be strings");
      }
      return Binary(ir::BinaryOp::Div, input, args[0], out, error);
    case B::Join:
      if (!need(1)) return WrongArity(id, error);
      return Join(input, args[0], out, error);
    case B::AsciiDowncase: return AsciiCase(input, false, out, error);
    case B::AsciiUpcase: return AsciiCase(input, true, out, error);
    case B::LtrimStr:
    case B::RtrimStr: {
      if (!need(1)) return WrongArity(id, error);
      *out = input;
      if (!input.IsString() || !args[0].IsString()) return true;
      std::string_view s = input.AsString(), p = args[0].AsString();
      if (id == B::LtrimStr && s.substr(0, p.size()) == p) *out = Value::String(s.substr(p.size()));
      if (id == B::RtrimStr && s.size() >= p.size() && s.substr(s.size() - p.size()) == p) {
        *out = Value::String(s.substr(0, s.size() - p.size()));
      }
      return true;
    }
    case B::StartsWith:
    case B::EndsWith: {
      if (!need(1)) return WrongArity(id, error);
      if (!input.IsString() || !args[0].IsString()) {
        return Fail(error, id == B::StartsWith ? "startswith() requires string inputs"
                                               : "endswith() requires string inputs");
      }
      std::string_view s = input.AsString(), p = args[0].AsString();
      bool r = s.size() >= p.size() &&
               (id == B::StartsWith ? s.substr(0, p.size()) == p : s.substr(s.size() - p.size()) == p);
      *out = Value::Bool(r);
      return true;
    }
    case B::Indices:
      if (!need(1)) return WrongArity(id, error);
      return Indices(input, args[0], out, error);
    case B::Infinite: *out = Value::Number(INFINITY); return true;
    case B::Nan: *out = Value::Number(NAN); return true;
    case B::IsInfinite:
    case B::IsNan:
    case B::IsNormal: {
      // jq answers false for a non-number rather than raising a type error.
      if (!input.IsNumber()) {
        *out = Value::Bool(false);
        return true;
      }
      double x = input.AsNumber();
      *out = Value::Bool(id == B::IsInfinite ? std::isinf(x) : id == B::IsNan ? std::isnan(x) : std::isnormal(x));
      return true;
    }
    case B::GetPath:
      if (!need(1)) return WrongArity(id, error);
      return eval_internal::PathGet(input, args[0], out, error);
    case B::SetPath:
      if (!need(2)) return WrongArity(id, error);
      return eval_internal::PathSet(input, args[0], args[1], out, error);
    case B::DelPaths:
      if (!need(1)) return WrongArity(id, error);
      return eval_internal::PathDelete(input, args[0], out, error);
    case B::ToEntries: return ToEntries(input, out, error);
    case B::FromEntries:
      return Fail(error, "from_entries is defined in the jq prelude");
    case B::Tostream: return eval_internal::ToStreamEvents(input, out, error);
    case B::Test:
    case B::Match:
      if (nargs < 1 || nargs > 2) return WrongArity(id, error);
      return eval_internal::RegexMatch(input, args[0], nargs == 2 ? args[1] : Value::Null(),
                                       id == B::Test, out, error);
    case B::Env: {
      static const Value env = EnvironmentObject();
      *out = env;
      return true;
    }
    case B::Builtins: {
      Array names;
      for (const eval::NativeBuiltin& b : eval::NativeBuiltins()) {
        if (b.name[0] != '_') names.push_back(Value::String(std::string(b.name) + "/" + std::to_string(b.arity)));
      }
      *out = Value::MakeArray(std::move(names));
      return true;
    }
    case B::Now: *out = Value::Number(eval_internal::TimeNow()); return true;
    case B::Mktime: return eval_internal::TimeMktime(input, out, error);
    case B::Gmtime: return eval_internal::TimeGmtime(input, false, out, error);
    case B::Localtime: return eval_internal::TimeGmtime(input, true, out, error);
    case B::Strftime:
    case B::Strflocaltime:
      if (!need(1)) return WrongArity(id, error);
      return eval_internal::TimeStrftime(input, args[0], id == B::Strflocaltime, out, error);
    case B::Strptime:
      if (!need(1)) return WrongArity(id, error);
      return eval_internal::TimeStrptime(input, args[0], out, error);
    case B::Abs:
      *out = input.IsNumber() && input.AsNumber() < 0 ? Value::Number(-input.AsNumber()) : input;
      return true;
    case B::ToArray:
      *out = input.IsArray() ? input : Value::MakeArray({input});
      return true;
    case B::Flatten:
      return Flatten(input, need(1) ? args[0] : Value::Number(1e9), out, error);
    case B::Range:
      return Fail(error, "range/2 is a generator and cannot be called for one value");
    case B::Error:
      *error = nargs >= 1 ? args[0] : input;
      return false;
    default:
      return Fail(error, "unknown builtin " + std::to_string(raw));
  }
}

}  // namespace wm::ops
