// Value-level jq operations (runtime/eval/ops.h): indexing, slicing, iteration, arithmetic and
// comparison, negation and the @format filters, with jq 1.7's error wording. CallBuiltin lives in
// builtins.cpp. Shared by the interpreter and, through native_abi, by JIT/AOT code; never throws.
#include "runtime/eval/ops.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/eval/internal/builtin_impl.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/text.h"
#include "runtime/value/json.h"

namespace wm::ops {
using eval_internal::Fail;
namespace {

using eval_internal::Describe;

// The deepest object nesting that `*` merges recursively; deeper values are an error, never a
// C++ stack overflow.
constexpr int kMaxMergeDepth = 10000;
// Largest string `"s" * n` builds (bytes).
constexpr size_t kMaxRepeatBytes = size_t{256} << 20;

// jq's dtoi: truncation toward zero, clamped to the int64 range.
int64_t ClampToInt(double d) {
  if (std::isnan(d)) return 0;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  if (d >= 9223372036854775807.0) return INT64_MAX;
  return static_cast<int64_t>(d);
}

// Resolves slice bounds the way jq does: negative from the end, clamped, fractional start
// rounded down and fractional end rounded up.
bool SliceBounds(const Value& from, const Value& to, size_t len, size_t* start, size_t* end,
                 Value* error) {
  if ((!from.IsNull() && !from.IsNumber()) || (!to.IsNull() && !to.IsNumber())) {
    return Fail(error, "Start and end indices of an array slice must be numbers");
  }
  double n = static_cast<double>(len);
  double s = from.IsNull() ? 0 : from.AsNumber();
  double e = to.IsNull() ? n : to.AsNumber();
  if (std::isnan(s)) s = 0;
  if (std::isnan(e)) e = n;
  if (s < 0) s += n;
  if (e < 0) e += n;
  if (s < 0) s = 0;
  if (s > n) s = n;
  if (e > n) e = n;
  if (e < s) e = s;
  *start = static_cast<size_t>(std::floor(s));
  double ce = std::ceil(e);
  if (ce > n) ce = n;
  *end = static_cast<size_t>(ce);
  if (*end < *start) *end = *start;
  return true;
}

bool SliceValue(const Value& target, const Value& from, const Value& to, Value* out, Value* error) {
  if (target.IsArray()) {
    const Array& a = target.AsArray();
    size_t s, e;
    if (!SliceBounds(from, to, a.size(), &s, &e, error)) return false;
    *out = Value::MakeArray(Array(a.begin() + s, a.begin() + e));
    return true;
  }
  if (target.IsString()) {
    std::string_view str = target.AsString();
    size_t s, e;
    if (!SliceBounds(from, to, eval_internal::CodepointCount(str), &s, &e, error)) return false;
    size_t bs = eval_internal::ByteOffsetOfCodepoint(str, s);
    size_t be = eval_internal::ByteOffsetOfCodepoint(str, e);
    *out = Value::String(str.substr(bs, be - bs));
    return true;
  }
  if (target.IsNull()) {
    if ((!from.IsNull() && !from.IsNumber()) || (!to.IsNull() && !to.IsNumber())) {
      return Fail(error, "Start and end indices of an array slice must be numbers");
    }
    *out = Value::Null();
    return true;
  }
  return Fail(error, std::string("Cannot index ") + KindName(target.kind()) + " with object");
}

// `.[{"start": s, "end": e}]`: jq's object form of a slice.
bool SliceByObject(const Value& target, const Value& key, Value* out, Value* error) {
  const Value* s = key.Find("start");
  const Value* e = key.Find("end");
  // Like jq, both keys must be present (a null bound is fine): `.[{}]` is an error, not `.[:]`.
  if (s == nullptr || e == nullptr) {
    return Fail(error, "Start and end indices of an array slice must be numbers");
  }
  return SliceValue(target, *s, *e, out, error);
}

// Positions where array `needle` occurs as a contiguous run inside array `hay` (jq's `.[[..]]`).
Value ArrayIndices(const Array& hay, const Array& needle) {
  Array found;
  if (needle.empty()) return Value::MakeArray({});  // jq: an empty needle occurs nowhere
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    bool match = true;
    for (size_t j = 0; j < needle.size() && match; ++j) match = hay[i + j] == needle[j];
    if (match) found.push_back(Value::Number(static_cast<double>(i)));
  }
  return Value::MakeArray(std::move(found));
}

bool TypeError2(const Value& a, const Value& b, const char* what, Value* error) {
  return Fail(error, Describe(a) + " and " + Describe(b) + " " + what);
}

bool DeepMerge(const Value& a, const Value& b, int depth, Value* out, Value* error) {
  if (depth > kMaxMergeDepth) return Fail(error, "Objects too deeply nested to merge");
  Value result = a;
  for (const Member& m : b.AsObject()) {
    std::string_view key = m.first.AsString();
    const Value* existing = result.Find(key);
    if (existing && existing->IsObject() && m.second.IsObject()) {
      Value merged;
      if (!DeepMerge(*existing, m.second, depth + 1, &merged, error)) return false;
      result.Set(key, std::move(merged));
    } else {
      result.Set(key, m.second);
    }
  }
  *out = std::move(result);
  return true;
}

bool Repeat(const Value& str, double count, Value* out, Value* error) {
  // jq: n = count - 1 (truncated) extra copies; a result with n < 0 is null ("x" * 0 == null).
  double extra = count - 1;
  if (std::isnan(extra) || extra < -1) {
    *out = Value::Null();
    return true;
  }
  int64_t n = ClampToInt(extra);
  if (n < 0) {
    *out = Value::Null();
    return true;
  }
  std::string_view s = str.AsString();
  if (!s.empty() && static_cast<double>(s.size()) * (static_cast<double>(n) + 1) > kMaxRepeatBytes) {
    return Fail(error, "Repeat string result too long");
  }
  uint64_t bytes = s.size() * static_cast<uint64_t>(n + 1);
  if (!eval_internal::ChargeWork(bytes / 8, bytes, error)) return false;  // before building it
  std::string r;
  r.reserve(s.size() * (n + 1));
  for (int64_t i = 0; i <= n; ++i) r.append(s);
  *out = Value::String(r);
  return true;
}

Value SplitString(std::string_view s, std::string_view sep) {
  Array parts;
  if (s.empty()) return Value::MakeArray(std::move(parts));
  if (sep.empty()) {
    // jq splits into single characters (codepoints) on an empty separator.
    size_t pos = 0;
    while (pos < s.size()) {
      size_t start = pos;
      eval_internal::DecodeUtf8(s, &pos);
      parts.push_back(Value::String(s.substr(start, pos - start)));
    }
    return Value::MakeArray(std::move(parts));
  }
  size_t start = 0;
  while (true) {
    size_t hit = s.find(sep, start);
    if (hit == std::string_view::npos) {
      parts.push_back(Value::String(s.substr(start)));
      break;
    }
    parts.push_back(Value::String(s.substr(start, hit - start)));
    start = hit + sep.size();
  }
  return Value::MakeArray(std::move(parts));
}

bool Add(const Value& a, const Value& b, Value* out, Value* error) {
  if (a.IsNull()) {
    *out = b;
    return true;
  }
  if (b.IsNull()) {
    *out = a;
    return true;
  }
  if (a.IsNumber() && b.IsNumber()) {
    *out = Value::Number(a.AsNumber() + b.AsNumber());
    return true;
  }
  if (a.IsString() && b.IsString()) {
    *out = Value::String(a.AsString(), b.AsString());
    return true;
  }
  if (a.IsArray() && b.IsArray()) {
    Value r = a;
    Array& elems = r.MutableArray();
    const Array& more = b.AsArray();
    elems.insert(elems.end(), more.begin(), more.end());
    *out = std::move(r);
    return true;
  }
  if (a.IsObject() && b.IsObject()) {
    Value r = a;
    for (const Member& m : b.AsObject()) r.Set(m.first.AsString(), m.second);
    *out = std::move(r);
    return true;
  }
  return TypeError2(a, b, "cannot be added", error);
}

bool Subtract(const Value& a, const Value& b, Value* out, Value* error) {
  if (a.IsNumber() && b.IsNumber()) {
    *out = Value::Number(a.AsNumber() - b.AsNumber());
    return true;
  }
  if (a.IsArray() && b.IsArray()) {
    Array kept;
    for (const Value& x : a.AsArray()) {
      bool drop = false;
      for (const Value& y : b.AsArray()) {
        if (x == y) {
          drop = true;
          break;
        }
      }
      if (!drop) kept.push_back(x);
    }
    *out = Value::MakeArray(std::move(kept));
    return true;
  }
  return TypeError2(a, b, "cannot be subtracted", error);
}

bool Multiply(const Value& a, const Value& b, Value* out, Value* error) {
  if (a.IsNumber() && b.IsNumber()) {
    *out = Value::Number(a.AsNumber() * b.AsNumber());
    return true;
  }
  if (a.IsString() && b.IsNumber()) return Repeat(a, b.AsNumber(), out, error);
  if (a.IsNumber() && b.IsString()) return Repeat(b, a.AsNumber(), out, error);
  if (a.IsObject() && b.IsObject()) return DeepMerge(a, b, 0, out, error);
  return TypeError2(a, b, "cannot be multiplied", error);
}

bool Divide(const Value& a, const Value& b, Value* out, Value* error) {
  if (a.IsNumber() && b.IsNumber()) {
    if (b.AsNumber() == 0.0) {
      return TypeError2(a, b, "cannot be divided because the divisor is zero", error);
    }
    *out = Value::Number(a.AsNumber() / b.AsNumber());
    return true;
  }
  if (a.IsString() && b.IsString()) {
    *out = SplitString(a.AsString(), b.AsString());
    return true;
  }
  return TypeError2(a, b, "cannot be divided", error);
}

bool Modulo(const Value& a, const Value& b, Value* out, Value* error) {
  if (a.IsNumber() && b.IsNumber()) {
    double na = a.AsNumber(), nb = b.AsNumber();
    if (std::isnan(na) || std::isnan(nb)) {
      *out = Value::Number(std::nan(""));
      return true;
    }
    int64_t bi = ClampToInt(nb);
    if (bi == 0) return TypeError2(a, b, "cannot be divided because the divisor is zero", error);
    int64_t ai = ClampToInt(na);
    // -1 would overflow for INT64_MIN; the remainder is 0 anyway.
    int64_t r = bi == -1 ? 0 : ai % bi;
    *out = Value::Number(static_cast<double>(r));
    return true;
  }
  return TypeError2(a, b, "cannot be divided", error);
}

// ---- @formats

const char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const char kBase32Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

std::string ToText(const Value& v) {
  if (v.IsString()) return std::string(v.AsString());
  return ToJson(v);
}

std::string EncodeBase64(std::string_view in) {
  std::string out;
  size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    uint32_t n = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += kBase64Alphabet[(n >> 6) & 63];
    out += kBase64Alphabet[n & 63];
  }
  size_t rest = in.size() - i;
  if (rest) {
    uint32_t n = uint8_t(in[i]) << 16;
    if (rest == 2) n |= uint8_t(in[i + 1]) << 8;
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += rest == 2 ? kBase64Alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// jq decodes leniently: it stops at the first '=' or invalid character, and drops a trailing
// partial group of fewer than 8 bits. Input that yields nothing from non-empty text is an error.
// jq's @base64d: decoding stops at the first '='; any other byte outside the alphabet before it
// is an error; a last group of one character (6 bits, no whole byte) is an error too, while
// groups of two or three characters yield one or two bytes.
bool DecodeBase64(const Value& v, std::string* out, Value* error) {
  std::string_view in = v.AsString();
  uint32_t acc = 0;
  int pending = 0;  // characters of the current group of four
  for (char c : in) {
    if (c == '=') break;
    const char* p = c ? std::strchr(kBase64Alphabet, c) : nullptr;
    if (!p) return Fail(error, Describe(v) + " is not valid base64 data");
    acc = (acc << 6) | static_cast<uint32_t>(p - kBase64Alphabet);
    if (++pending == 4) {
      out->push_back(static_cast<char>((acc >> 16) & 0xFF));
      out->push_back(static_cast<char>((acc >> 8) & 0xFF));
      out->push_back(static_cast<char>(acc & 0xFF));
      acc = 0;
      pending = 0;
    }
  }
  if (pending == 1) return Fail(error, Describe(v) + " trailing base64 byte found");
  if (pending == 2) out->push_back(static_cast<char>((acc >> 4) & 0xFF));
  if (pending == 3) {
    out->push_back(static_cast<char>((acc >> 10) & 0xFF));
    out->push_back(static_cast<char>((acc >> 2) & 0xFF));
  }
  return true;
}

std::string EncodeBase32(std::string_view in) {
  std::string out;
  uint64_t acc = 0;
  int bits = 0;
  for (unsigned char c : in) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += kBase32Alphabet[(acc >> bits) & 31];
    }
  }
  if (bits > 0) out += kBase32Alphabet[(acc << (5 - bits)) & 31];
  while (out.size() % 8) out += '=';
  return out;
}

bool DecodeBase32(const Value& v, std::string* out, Value* error) {
  std::string_view in = v.AsString();
  uint64_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const char* p = c ? std::strchr(kBase32Alphabet, c) : nullptr;
    if (!p) break;
    acc = (acc << 5) | static_cast<uint64_t>(p - kBase32Alphabet);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (out->empty() && !in.empty() && in.find_first_not_of('=') != std::string_view::npos) {
    return Fail(error, Describe(v) + " is not valid base32 data");
  }
  return true;
}

bool FormatCsvOrTsv(const Value& v, bool tsv, Value* out, Value* error) {
  if (!v.IsArray()) {
    return Fail(error, Describe(v) + (tsv ? " cannot be tsv-formatted, only an array can be"
                                          : " cannot be csv-formatted, only an array can be"));
  }
  std::string line;
  bool first = true;
  for (const Value& x : v.AsArray()) {
    if (!first) line += tsv ? '\t' : ',';
    first = false;
    switch (x.kind()) {
      case Kind::Null:
        break;
      case Kind::True:
        line += "true";
        break;
      case Kind::False:
        line += "false";
        break;
      case Kind::Number:
        FormatNumber(x.AsNumber(), &line);
        break;
      case Kind::String:
        if (tsv) {
          for (char c : x.AsString()) {
            switch (c) {
              case '\\': line += "\\\\"; break;
              case '\t': line += "\\t"; break;
              case '\n': line += "\\n"; break;
              case '\r': line += "\\r"; break;
              default: line += c;
            }
          }
        } else {
          line += '"';
          for (char c : x.AsString()) {
            if (c == '"') line += '"';
            line += c;
          }
          line += '"';
        }
        break;
      default:
        return Fail(error, Describe(x) + " is not valid in a csv row");
    }
  }
  *out = Value::String(line);
  return true;
}

bool ShellQuoteOne(const Value& x, std::string* line, Value* error) {
  switch (x.kind()) {
    case Kind::Array:
    case Kind::Object:
      return Fail(error, Describe(x) + " can not be escaped for shell");
    case Kind::String:
      *line += '\'';
      for (char c : x.AsString()) {
        if (c == '\'') *line += "'\\''";
        else *line += c;
      }
      *line += '\'';
      return true;
    default:
      *line += ToJson(x);
      return true;
  }
}

}  // namespace

bool Index(const Value& target, const Value& key, Value* out, Value* error) {
  switch (target.kind()) {
    case Kind::Object:
      if (key.IsString()) {
        const Value* found = target.Find(key.AsString());
        *out = found ? *found : Value::Null();
        return true;
      }
      break;
    case Kind::Array:
      if (key.IsNumber()) {
        double d = key.AsNumber();
        const Value* found = std::isnan(d) ? nullptr : target.At(ClampToInt(std::floor(d)));
        *out = found ? *found : Value::Null();
        return true;
      }
      if (key.IsArray()) {
        *out = ArrayIndices(target.AsArray(), key.AsArray());
        return true;
      }
      if (key.IsObject()) return SliceByObject(target, key, out, error);
      break;
    case Kind::Null:
      if (key.IsString() || key.IsNumber() || key.IsObject()) {
        *out = Value::Null();
        return true;
      }
      break;
    case Kind::String:
      if (key.IsObject()) return SliceByObject(target, key, out, error);
      break;
    default:
      break;
  }
  if (key.IsString()) {
    return Fail(error, std::string("Cannot index ") + KindName(target.kind()) + " with \"" +
                           std::string(key.AsString()) + "\"");
  }
  return Fail(error, std::string("Cannot index ") + KindName(target.kind()) + " with " +
                         KindName(key.kind()));
}

bool Slice(const Value& target, const Value& from, const Value& to, Value* out, Value* error) {
  return SliceValue(target, from, to, out, error);
}

bool IterateInto(const Value& target, Array* out, Value* error) {
  if (target.IsArray()) {
    const Array& a = target.AsArray();
    out->insert(out->end(), a.begin(), a.end());
    return true;
  }
  if (target.IsObject()) {
    for (const Member& m : target.AsObject()) out->push_back(m.second);
    return true;
  }
  if (target.IsNull()) return Fail(error, "Cannot iterate over null");
  return Fail(error, "Cannot iterate over " + Describe(target));
}

// Arithmetic that builds a string, array or object charges the evaluation's step budget for the
// size of what it built (copying is proportional to it).
static bool Arithmetic(bool ok, Value* out, Value* error) {
  return ok && eval_internal::ChargeWork(eval_internal::WorkUnits(*out), 0, error);
}

bool Binary(ir::BinaryOp op, const Value& lhs, const Value& rhs, Value* out, Value* error) {
  switch (op) {
    case ir::BinaryOp::Add: return Arithmetic(Add(lhs, rhs, out, error), out, error);
    case ir::BinaryOp::Sub: return Arithmetic(Subtract(lhs, rhs, out, error), out, error);
    case ir::BinaryOp::Mul: return Arithmetic(Multiply(lhs, rhs, out, error), out, error);
    case ir::BinaryOp::Div: return Arithmetic(Divide(lhs, rhs, out, error), out, error);
    case ir::BinaryOp::Mod: return Modulo(lhs, rhs, out, error);
    case ir::BinaryOp::Eq: *out = Value::Bool(Compare(lhs, rhs) == 0); return true;
    case ir::BinaryOp::Ne: *out = Value::Bool(Compare(lhs, rhs) != 0); return true;
    case ir::BinaryOp::Lt: *out = Value::Bool(Compare(lhs, rhs) < 0); return true;
    case ir::BinaryOp::Le: *out = Value::Bool(Compare(lhs, rhs) <= 0); return true;
    case ir::BinaryOp::Gt: *out = Value::Bool(Compare(lhs, rhs) > 0); return true;
    case ir::BinaryOp::Ge: *out = Value::Bool(Compare(lhs, rhs) >= 0); return true;
  }
  return Fail(error, "unknown binary operator");
}

bool Negate(const Value& v, Value* out, Value* error) {
  if (v.IsNumber()) {
    *out = Value::Number(-v.AsNumber());
    return true;
  }
  return Fail(error, Describe(v) + " cannot be negated");
}

bool ApplyFormat(std::string_view format, const Value& v, Value* out, Value* error) {
  if (format == "text") {
    *out = v.IsString() ? v : Value::String(ToJson(v));
    return true;
  }
  if (format == "json") {
    *out = Value::String(ToJson(v));
    return true;
  }
  if (format == "html") {
    std::string r;
    for (char c : ToText(v)) {
      switch (c) {
        case '<': r += "&lt;"; break;
        case '>': r += "&gt;"; break;
        case '&': r += "&amp;"; break;
        case '\'': r += "&apos;"; break;  // as jq 1.6 and the 1.7 manual
        case '"': r += "&quot;"; break;
        default: r += c;
      }
    }
    *out = Value::String(r);
    return true;
  }
  if (format == "uri") {
    static const char kHex[] = "0123456789ABCDEF";
    std::string r;
    for (unsigned char c : ToText(v)) {
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~') {
        r += static_cast<char>(c);
      } else {
        r += '%';
        r += kHex[c >> 4];
        r += kHex[c & 15];
      }
    }
    *out = Value::String(r);
    return true;
  }
  if (format == "csv") return FormatCsvOrTsv(v, false, out, error);
  if (format == "tsv") return FormatCsvOrTsv(v, true, out, error);
  if (format == "sh") {
    std::string line;
    if (v.IsArray()) {
      bool first = true;
      for (const Value& x : v.AsArray()) {
        if (!first) line += ' ';
        first = false;
        if (!ShellQuoteOne(x, &line, error)) return false;
      }
    } else if (!ShellQuoteOne(v, &line, error)) {
      return false;
    }
    *out = Value::String(line);
    return true;
  }
  if (format == "base64") {
    *out = Value::String(EncodeBase64(ToText(v)));
    return true;
  }
  if (format == "base32") {
    *out = Value::String(EncodeBase32(ToText(v)));
    return true;
  }
  if (format == "base64d" || format == "base32d") {
    Value text = v.IsString() ? v : Value::String(ToJson(v));
    std::string decoded;
    bool ok = format == "base64d" ? DecodeBase64(text, &decoded, error)
                                  : DecodeBase32(text, &decoded, error);
    if (!ok) return false;
    // Decoded bytes that are not UTF-8 become U+FFFD, as jq's string constructor does.
    std::string clean;
    for (size_t pos = 0; pos < decoded.size();) utf8::Append(eval_internal::DecodeUtf8(decoded, &pos), &clean);
    *out = Value::String(clean);
    return true;
  }
  return Fail(error, std::string(format) + " is not a valid format");
}

}  // namespace wm::ops
