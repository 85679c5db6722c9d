// JSON text <-> Value (json.h). simdjson's DOM parser is the fast path; the built-in Parser (an
// iterative recursive-descent parser with an explicit container stack: depth limit, exact byte
// offsets in errors, jq's handling of odd input) decides every document simdjson rejects. The
// writer reproduces jq 1.6's `-c` and indented output byte for byte, including its number format.
//
// Decisions, all checked against /usr/bin/jq 1.6:
// - Numbers are IEEE doubles, rounded correctly; magnitudes beyond DBL_MAX become +-infinity (jq
//   then prints them as +-1.7976931348623157e+308); underflow becomes 0.
// - Strict JSON grammar: jq 1.6's extensions (`nan`, `01`, `.5`, `1.`) are rejected.
// - Duplicate object keys: the last value wins, at the position of the first occurrence.
// - Invalid UTF-8 inside strings is replaced by U+FFFD with jq's rules (one replacement per bad
//   lead byte or truncated/overlong/surrogate sequence); a lone low surrogate escape (\udc00)
//   becomes U+FFFD, a high surrogate escape not followed by a low one is an error, as in jq.
#include "runtime/value/json.h"
#include "runtime/value/json_dom.h"
#include "runtime/value/utf8.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace wm {
namespace {

constexpr char kReplacementChar[] = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Length of the UTF-8 sequence a lead byte announces; 0 for bytes that cannot start one
// (continuation bytes, 0xC0/0xC1 which could only encode overlong ASCII, and 0xF5..0xFF).
int Utf8SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xC2) return 0;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  if (lead < 0xF5) return 4;
  return 0;
}

// Decodes one (possibly invalid) UTF-8 sequence from [p, end): returns the number of bytes
// consumed and sets *cp to the code point, or to -1 for an invalid sequence (which the caller
// replaces with U+FFFD). Mirrors jq's decoder so replacements match its output.
size_t DecodeUtf8(const unsigned char* p, const unsigned char* end, int32_t* cp) {
  int length = Utf8SequenceLength(p[0]);
  if (length == 1) {
    *cp = p[0];
    return 1;
  }
  if (length == 0) {
    *cp = -1;
    return 1;
  }
  if (end - p < length) {
    *cp = -1;
    return static_cast<size_t>(end - p);
  }
  int32_t value = p[0] & (0xFF >> (length + 1));
  for (int i = 1; i < length; ++i) {
    if ((p[i] & 0xC0) != 0x80) {
      *cp = -1;
      return static_cast<size_t>(i);
    }
    value = (value << 6) | (p[i] & 0x3F);
  }
  static constexpr int32_t kMinForLength[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (value < kMinForLength[length] || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
    value = -1;
  }
  *cp = value;
  return static_cast<size_t>(length);
}

// Parses JSON text. One instance per call; holds the cursor and the first error.
class Parser {
 public:
  // Parses `text` starting at byte `start` (offsets in errors stay relative to text's beginning).
  Parser(std::string_view text, const JsonParseOptions& options, size_t start = 0)
      : begin_(text.data()), p_(text.data() + start), end_(text.data() + text.size()), options_(options) {}

  void SkipSpace() {
    while (p_ < end_ && IsJsonSpace(*p_)) ++p_;
  }
  bool AtEnd() const { return p_ == end_; }
  size_t offset() const { return static_cast<size_t>(p_ - begin_); }

  // Whether the text from the cursor to its end is one JSON number and nothing else; its value
  // in *out. No error is kept: a caller that needs one parses with ParseValue.
  bool ReadWholeNumber(double* out) {
    Value v;
    if (p_ == end_ || !ParseNumber(&v, nullptr) || p_ != end_) return false;
    *out = v.AsNumber();
    return true;
  }

  // Parses one value starting at the cursor (after whitespace). Iterative: each open container
  // is a frame; finished elements wait on shared stacks (elements_, members_) and are moved into
  // an exactly sized vector when their container closes, so no container grows by reallocation.
  bool ParseValue(Value* out, JsonError* error) {
    struct Open {
      bool is_array;
      size_t first;       // index of the container's first element in elements_ / members_
      Value pending_key;  // objects: key whose value is being parsed
    };
    std::vector<Open> stack;
    elements_.clear();
    members_.clear();
    Value current;
    for (;;) {
      // Parse one value into `current`, or open a container.
      SkipSpace();
      if (p_ == end_) return Fail("unexpected end of input", error);
      char c = *p_;
      if (c == '[' || c == '{') {
        if (static_cast<int>(stack.size()) >= options_.max_depth) {
          return Fail("exceeds maximum nesting depth " + std::to_string(options_.max_depth), error);
        }
        ++p_;
        SkipSpace();
        bool is_array = c == '[';
        char close = is_array ? ']' : '}';
        if (p_ < end_ && *p_ == close) {
          ++p_;
          current = is_array ? Value::EmptyArray() : Value::EmptyObject();
        } else {
          stack.push_back(Open{is_array, is_array ? elements_.size() : members_.size(), Value()});
          if (!is_array) {
            if (!ParseKey(&stack.back().pending_key, error)) return false;
          }
          continue;
        }
      } else if (!ParseScalar(&current, error)) {
        return false;
      }
      // Attach `current` to the innermost open container; close containers as they end.
      for (;;) {
        if (stack.empty()) {
          *out = std::move(current);
          return true;
        }
        Open& top = stack.back();
        if (top.is_array) {
          elements_.push_back(std::move(current));
        } else {
          members_.emplace_back(std::move(top.pending_key), std::move(current));
        }
        SkipSpace();
        if (p_ == end_) return Fail("unexpected end of input", error);
        if (*p_ == ',') {
          ++p_;
          if (!top.is_array && !ParseKey(&top.pending_key, error)) return false;
          break;  // parse the next element
        }
        if (*p_ == (top.is_array ? ']' : '}')) {
          ++p_;
          if (top.is_array) {
            Array elements(std::make_move_iterator(elements_.begin() + top.first),
                           std::make_move_iterator(elements_.end()));
            elements_.resize(top.first);
            current = Value::MakeArray(std::move(elements));
          } else {
            std::vector<Member> members(std::make_move_iterator(members_.begin() + top.first),
                                        std::make_move_iterator(members_.end()));
            members_.resize(top.first);
            // MakeObject keeps the first position of a duplicate key with the last value, as jq.
            current = Value::MakeObject(std::move(members));
          }
          stack.pop_back();
          continue;  // attach the finished container to its parent
        }
        return Fail(top.is_array ? "expected ',' or ']' after array element"
                                 : "expected ',' or '}' after object member",
                    error);
      }
    }
  }

 private:
  bool Fail(std::string message, JsonError* error) {
    if (error != nullptr) {
      error->message = std::move(message);
      error->offset = offset();
    }
    return false;
  }

  // `"key" :` with surrounding whitespace.
  bool ParseKey(Value* key, JsonError* error) {
    SkipSpace();
    if (p_ == end_) return Fail("unexpected end of input", error);
    if (*p_ != '"') return Fail("expected a string key", error);
    if (!ParseStringValue(key, error)) return false;
    SkipSpace();
    if (p_ == end_) return Fail("unexpected end of input", error);
    if (*p_ != ':') return Fail("expected ':' after object key", error);
    ++p_;
    return true;
  }

  bool ParseScalar(Value* out, JsonError* error) {
    char c = *p_;
    if (c == '"') return ParseStringValue(out, error);
    if (options_.jq_number_tokens && ReadJqNumberToken(out)) return true;  // else strict, which words the error
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out, error);
    if (MatchLiteral("true")) {
      *out = Value::Bool(true);
      return true;
    }
    if (MatchLiteral("false")) {
      *out = Value::Bool(false);
      return true;
    }
    if (MatchLiteral("null")) {
      *out = Value::Null();
      return true;
    }
    if (c == ']' || c == '}' || c == ',' || c == ':') return Fail(std::string("unexpected '") + c + "'", error);
    return Fail("invalid literal", error);
  }

  // jq's reader: a token runs to the next whitespace, quote or structural character, and is a
  // number when ParseJqNumberToken reads all of it (true, false and null are not numbers).
  bool ReadJqNumberToken(Value* out) {
    const char* end = p_;
    const auto delimits = [](char c) {
      return IsJsonSpace(c) || c == '"' || c == '[' || c == ']' || c == '{' || c == '}' || c == ',' || c == ':';
    };
    while (end < end_ && !delimits(*end)) ++end;
    double number;
    if (end == p_ || !ParseJqNumberToken(std::string_view(p_, static_cast<size_t>(end - p_)), &number)) return false;
    *out = Value::Number(number);
    p_ = end;
    return true;
  }

  bool MatchLiteral(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) {
      return false;
    }
    const char* after = p_ + word.size();
    if (after < end_ && ((*after >= 'a' && *after <= 'z') || (*after >= '0' && *after <= '9'))) {
      return false;  // e.g. "nullx"
    }
    p_ = after;
    return true;
  }

  bool ParseNumber(Value* out, JsonError* error) {
    const char* start = p_;
    const char* q = p_;
    if (*q == '-') ++q;
    if (q == end_ || !(*q >= '0' && *q <= '9')) {
      p_ = q;
      return Fail("invalid number", error);
    }
    if (*q == '0') {
      ++q;
    } else {
      while (q < end_ && *q >= '0' && *q <= '9') ++q;
    }
    if (q < end_ && *q == '.') {
      ++q;
      if (q == end_ || !(*q >= '0' && *q <= '9')) {
        p_ = q;
        return Fail("invalid number: expected digits after '.'", error);
      }
      while (q < end_ && *q >= '0' && *q <= '9') ++q;
    }
    if (q < end_ && (*q == 'e' || *q == 'E')) {
      ++q;
      if (q < end_ && (*q == '+' || *q == '-')) ++q;
      if (q == end_ || !(*q >= '0' && *q <= '9')) {
        p_ = q;
        return Fail("invalid number: expected exponent digits", error);
      }
      while (q < end_ && *q >= '0' && *q <= '9') ++q;
    }
    if (q < end_ && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
                     (*q >= 'a' && *q <= 'z'))) {
      p_ = q;
      return Fail("invalid number", error);  // e.g. "01", "1.2.3"
    }
    double d = 0;
    auto [ptr, ec] = std::from_chars(start, q, d);
    if (ec == std::errc::result_out_of_range) {
      // from_chars leaves d untouched on range errors; strtod saturates to +-HUGE_VAL or 0.
      std::string copy(start, q);
      d = std::strtod(copy.c_str(), nullptr);
    } else if (ec != std::errc() || ptr != q) {
      p_ = start;
      return Fail("invalid number", error);
    }
    p_ = q;
    *out = Value::Number(d);
    return true;
  }

  bool ParseHex4(uint32_t* value) {
    if (end_ - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char h = p_[i];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<uint32_t>(h - 'A' + 10);
      else return false;
    }
    p_ += 4;
    *value = v;
    return true;
  }

  // A string literal at the cursor as a Value. Most strings in Kubernetes objects are plain
  // ASCII without escapes: those become a Value straight from the input bytes.
  bool ParseStringValue(Value* out, JsonError* error) {
    const char* body = p_ + 1;
    const char* q = body;
    while (q < end_) {
      unsigned char u = static_cast<unsigned char>(*q);
      if (u == '"' || u == '\\' || u < 0x20 || u >= 0x80) break;
      ++q;
    }
    if (q < end_ && *q == '"') {
      *out = Value::String(std::string_view(body, static_cast<size_t>(q - body)));
      p_ = q + 1;
      return true;
    }
    scratch_.clear();
    if (!ParseString(&scratch_, error)) return false;
    *out = Value::String(scratch_);
    return true;
  }

  // Parses a string literal at the cursor (which is on the opening quote) into UTF-8.
  bool ParseString(std::string* text, JsonError* error) {
    ++p_;
    for (;;) {
      // Copy the run of plain ASCII bytes in one go.
      const char* run = p_;
      while (p_ < end_) {
        unsigned char u = static_cast<unsigned char>(*p_);
        if (u == '"' || u == '\\' || u < 0x20 || u >= 0x80) break;
        ++p_;
      }
      text->append(run, p_);
      if (p_ == end_) return Fail("unterminated string", error);
      unsigned char u = static_cast<unsigned char>(*p_);
      if (u == '"') {
        ++p_;
        return true;
      }
      if (u < 0x20) return Fail("control character in string must be escaped", error);
      if (u >= 0x80) {
        // Find where the string's raw bytes could end for the decoder's truncation rule.
        const unsigned char* s = reinterpret_cast<const unsigned char*>(p_);
        const unsigned char* limit = reinterpret_cast<const unsigned char*>(end_);
        const unsigned char* stop = s + 1;
        while (stop < limit && stop < s + 4 && *stop >= 0x80) ++stop;
        int32_t cp;
        size_t used = DecodeUtf8(s, stop, &cp);
        if (cp < 0) {
          text->append(kReplacementChar);
        } else {
          text->append(p_, used);
        }
        p_ += used;
        continue;
      }
      // Escape sequence.
      ++p_;
      if (p_ == end_) return Fail("unterminated string", error);
      char e = *p_++;
      switch (e) {
        case '"': text->push_back('"'); break;
        case '\\': text->push_back('\\'); break;
        case '/': text->push_back('/'); break;
        case 'b': text->push_back('\b'); break;
        case 'f': text->push_back('\f'); break;
        case 'n': text->push_back('\n'); break;
        case 'r': text->push_back('\r'); break;
        case 't': text->push_back('\t'); break;
        case 'u': {
          uint32_t unit;
          if (!ParseHex4(&unit)) return Fail("invalid \\u escape", error);
          if (unit >= 0xD800 && unit <= 0xDBFF) {
            uint32_t low = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
              return Fail("invalid \\uXXXX\\uXXXX surrogate pair escape", error);
            }
            p_ += 2;
            if (!ParseHex4(&low) || low < 0xDC00 || low > 0xDFFF) {
              return Fail("invalid \\uXXXX\\uXXXX surrogate pair escape", error);
            }
            utf8::Append(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), text);
          } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
            text->append(kReplacementChar);  // lone low surrogate, as jq
          } else {
            utf8::Append(unit, text);
          }
          break;
        }
        default:
          --p_;
          return Fail("invalid escape", error);
      }
    }
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  const JsonParseOptions& options_;
  std::string scratch_;  // decoded text of strings with escapes or non-ASCII bytes
  std::vector<Value> elements_;  // finished elements of the open arrays, innermost last
  std::vector<Member> members_;  // finished members of the open objects, innermost last
};

// ---- simdjson fast path

// simdjson (stage 1 with SIMD, tape) validates and tokenizes much faster than the parser above;
// its DOM is then converted to Values. Any input it rejects (invalid UTF-8, numbers beyond double
// range, lone surrogates, syntax errors, nesting) is re-parsed by Parser, which is authoritative:
// it applies jq's repairs or reports the error with its byte offset.
// Deeper documents (never seen in Kubernetes objects) go to Parser; this also bounds the
// recursion of ConvertElement.
constexpr size_t kSimdjsonMaxDepth = json_dom::kMaxDomDepth;
// Per-thread parsers keep their buffers between calls; documents above this size get a
// one-off parser so one huge input does not pin its buffers to the thread forever.
constexpr size_t kReusableCapacity = 1 << 20;

bool ConvertAt(simdjson::dom::element element, int depth, int max_depth, Value* out) {
  using simdjson::dom::element_type;
  switch (element.type()) {
    case element_type::NULL_VALUE: *out = Value::Null(); return true;
    case element_type::BOOL: *out = Value::Bool(element.get_bool().value_unsafe()); return true;
    case element_type::INT64:
      *out = Value::Number(static_cast<double>(element.get_int64().value_unsafe()));
      return true;
    case element_type::UINT64:
      *out = Value::Number(static_cast<double>(element.get_uint64().value_unsafe()));
      return true;
    case element_type::DOUBLE: *out = Value::Number(element.get_double().value_unsafe()); return true;
    case element_type::STRING: *out = Value::String(element.get_string().value_unsafe()); return true;
    case element_type::ARRAY: {
      if (depth >= max_depth) return false;
      simdjson::dom::array array = element.get_array().value_unsafe();
      Array elements;
      elements.reserve(array.size());
      for (simdjson::dom::element child : array) {
        elements.emplace_back();
        if (!ConvertAt(child, depth + 1, max_depth, &elements.back())) return false;
      }
      *out = Value::MakeArray(std::move(elements));
      return true;
    }
    case element_type::OBJECT: {
      if (depth >= max_depth) return false;
      simdjson::dom::object object = element.get_object().value_unsafe();
      std::vector<Member> members;
      members.reserve(object.size());
      for (simdjson::dom::key_value_pair field : object) {
        members.emplace_back(Value::String(field.key), Value());
        if (!ConvertAt(field.value, depth + 1, max_depth, &members.back().second)) return false;
      }
      *out = Value::MakeObject(std::move(members));
      return true;
    }
  }
  return false;
}

// The width the scans below use (json_dom::SetScanWidth): the CPU's widest unless a test lowers it.
json_dom::ScanWidth DetectScanWidth() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();  // this runs as a static initializer, possibly before libgcc's
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return json_dom::ScanWidth::kAvx512;
  if (__builtin_cpu_supports("avx2")) return json_dom::ScanWidth::kAvx2;
#endif
  return json_dom::ScanWidth::kBaseline;
}
const json_dom::ScanWidth g_widest_scan_width = DetectScanWidth();
json_dom::ScanWidth g_scan_width = g_widest_scan_width;

// Whether the integer "-0" starts at text[at]: "-0" at the start of a token, not followed by a
// fraction, an exponent or a digit (which JSON does not allow after a leading 0).
bool NegativeZeroAt(std::string_view text, size_t at) {
  if (text[at] != '-' || at + 1 >= text.size() || text[at + 1] != '0') return false;
  char before = at > 0 ? text[at - 1] : ' ';
  bool starts_token = before == '[' || before == ',' || before == ':' || IsJsonSpace(before);
  char next = at + 2 < text.size() ? text[at + 2] : ' ';
  return starts_token && next != '.' && next != 'e' && next != 'E' && (next < '0' || next > '9');
}

// Whether the text may hold the integer "-0" (simdjson reads it as 0 and so loses the sign jq
// prints). Rare: a false positive inside a string, such as "a -0", only costs speed. Kubernetes
// text is full of '-' (names, dates): the pairs "-0" are found 128 bytes per step with AVX-512 or
// AVX2 when the CPU has them: each block (64 or 32 bytes) is compared with '-' and the same block
// one byte further with '0', and the step's flags are tested together, so a step without a pair
// (most of them) costs one branch. Else 16 bytes at a time with SSE2 or 8 with SWAR. Each flag is
// then checked by NegativeZeroAt, so a real pair is never missed. AVX-512 halves the instructions
// per byte (mask registers: the masked compare is the AND, one kortest per step); it measured
// about a third less time than AVX2 for this check on Deployments and Pods (RESULTS 0r).
#if defined(__x86_64__) && defined(__GNUC__)
// One AVX2 step: whether a pair starting at `at` .. at+127 is "-0". A pair followed by a digit
// is left out here: JSON allows no digit after a leading 0, so it is never the number -0, and
// it is most of the pairs in Kubernetes text (dates: "2026-09-17"). The byte after the last
// pair's '0' is at+129, so that byte must exist.
__attribute__((target("avx2"), always_inline)) inline bool NegativeZeroInBlock(std::string_view text, size_t at) {
  const char* p = text.data();
  const __m256i dash = _mm256_set1_epi8('-'), zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
  __m256i pairs[4];
#pragma GCC unroll 4
  for (int b = 0; b < 4; ++b) {
    const char* block = p + at + 32 * b;
    __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
    __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 1));
    // Digits are the bytes whose distance above '0' is at most 9 (unsigned: below '0' wraps).
    __m256i after = _mm256_sub_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 2)), zero);
    __m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(after, nine), after);
    pairs[b] = _mm256_andnot_si256(digit, _mm256_and_si256(_mm256_cmpeq_epi8(here, dash), _mm256_cmpeq_epi8(next, zero)));
  }
  __m256i any = _mm256_or_si256(_mm256_or_si256(pairs[0], pairs[1]), _mm256_or_si256(pairs[2], pairs[3]));
  if (_mm256_testz_si256(any, any)) return false;
  for (int b = 0; b < 4; ++b) {
    // Bit j: byte at+32b+j is '-' and the byte after it '0'.
    for (auto bits = static_cast<uint32_t>(_mm256_movemask_epi8(pairs[b])); bits != 0; bits &= bits - 1) {
      if (NegativeZeroAt(text, at + 32 * static_cast<size_t>(b) + static_cast<size_t>(__builtin_ctz(bits)))) {
        return true;
      }
    }
  }
  return false;
}

// The AVX-512 form of the same step: 64 bytes per register, the pair and digit tests in mask
// registers (a masked compare is the AND), two registers per step tested with one kortest.
__attribute__((target("avx512f,avx512bw"), always_inline)) inline bool NegativeZeroInBlock512(std::string_view text, size_t at) {
  const char* p = text.data();
  const __m512i dash = _mm512_set1_epi8('-'), zero = _mm512_set1_epi8('0'), nine = _mm512_set1_epi8(9);
  __mmask64 pairs[2];
#pragma GCC unroll 2
  for (int b = 0; b < 2; ++b) {
    const char* block = p + at + 64 * b;
    const __m512i here = _mm512_loadu_si512(block);
    const __m512i next = _mm512_loadu_si512(block + 1);
    const __m512i after = _mm512_sub_epi8(_mm512_loadu_si512(block + 2), zero);
    const __mmask64 dash_zero = _mm512_mask_cmpeq_epi8_mask(_mm512_cmpeq_epi8_mask(here, dash), next, zero);
    pairs[b] = _kandn_mask64(_mm512_cmple_epu8_mask(after, nine), dash_zero);
  }
  if (_kortestz_mask64_u8(pairs[0], pairs[1])) return false;
  for (int b = 0; b < 2; ++b) {
    for (uint64_t bits = pairs[b]; bits != 0; bits &= bits - 1) {
      if (NegativeZeroAt(text, at + 64 * static_cast<size_t>(b) + static_cast<size_t>(__builtin_ctzll(bits)))) {
        return true;
      }
    }
  }
  return false;
}

// The AVX2 driver's loop below, over the AVX-512 step: a function's target attribute must cover the
// step it inlines, so the two drivers cannot be one template.
__attribute__((target("avx512f,avx512bw"))) bool MayHoldNegativeZeroAvx512(std::string_view text, size_t* done) {
  size_t i = 0;
  for (; i + 130 <= text.size(); i += 128) {
    if (NegativeZeroInBlock512(text, i)) return true;
  }
  if (i > 0 && i + 1 < text.size()) {
    if (NegativeZeroInBlock512(text, text.size() - 130) || NegativeZeroAt(text, text.size() - 2)) return true;
    i = text.size();
  }
  *done = i;
  return false;
}

__attribute__((target("avx2"))) bool MayHoldNegativeZeroAvx2(std::string_view text, size_t* done) {
  size_t i = 0;
  for (; i + 130 <= text.size(); i += 128) {
    if (NegativeZeroInBlock(text, i)) return true;
  }
  // The rest in one more step that ends at the text's end, overlapping the last one (a pair seen
  // twice is checked twice; NegativeZeroAt is exact): no narrower loop for the tail. That step's
  // pairs end one byte short of the text's end, so the last pair is checked on its own (a text
  // that ends in "-0": a top-level -0 after spaces).
  if (i > 0 && i + 1 < text.size()) {
    if (NegativeZeroInBlock(text, text.size() - 130) || NegativeZeroAt(text, text.size() - 2)) return true;
    i = text.size();
  }
  *done = i;
  return false;
}
#endif

bool MayHoldNegativeZero(std::string_view text) {
  static_assert(std::endian::native == std::endian::little, "lane i is byte i");
  const char* p = text.data();
  size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  // The steps saw every pair starting before i; the rest continue from i.
  if (g_scan_width == json_dom::ScanWidth::kAvx512) {
    if (MayHoldNegativeZeroAvx512(text, &i)) return true;
  } else if (g_scan_width == json_dom::ScanWidth::kAvx2) {
    if (MayHoldNegativeZeroAvx2(text, &i)) return true;
  }
#endif
#ifdef __SSE2__
  // 16 lanes at a time: '-' here and '0' one byte further.
  const __m128i dash = _mm_set1_epi8('-'), zero = _mm_set1_epi8('0');
  for (; i + 17 <= text.size(); i += 16) {
    __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1));
    auto lanes = static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(here, dash), _mm_cmpeq_epi8(next, zero))));
    for (; lanes != 0; lanes &= lanes - 1) {
      if (NegativeZeroAt(text, i + static_cast<size_t>(__builtin_ctz(lanes)))) return true;
    }
  }
#endif
  // The rest (all of it without SSE2; a pair across the block boundary above is found here too,
  // as the last block's final byte is looked at again).
  if (i > 0) --i;
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  auto zero_lanes = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  for (; i + 9 <= text.size(); i += 8) {
    uint64_t here, next;
    std::memcpy(&here, p + i, 8);
    std::memcpy(&next, p + i + 1, 8);
    uint64_t lanes = zero_lanes(here ^ (kOnes * '-')) & zero_lanes(next ^ (kOnes * '0'));
    for (; lanes != 0; lanes &= lanes - 1) {
      if (NegativeZeroAt(text, i + static_cast<size_t>(__builtin_ctzll(lanes)) / 8)) return true;
    }
  }
  for (; i < text.size(); ++i) {
    if (NegativeZeroAt(text, i)) return true;
  }
  return false;
}

// Whether a parsed document holds the integer 0: an int64 word on simdjson's tape followed by the
// value word 0. Only then can the text have held "-0", which simdjson reads as that 0 (a "-0.0"
// or "-0e0" keeps its sign as a double), so only then is the text scanned (MayHoldNegativeZero).
// The tape is in cache (the parse just wrote it) and has one word per string however long, where
// Kubernetes text is mostly strings: fewer bytes to look at than the text. A value word equal to
// an int64 word is followed by a type word, never 0, so the test has no false positive.
constexpr uint64_t kTapeInt64Word = uint64_t{'l'} << 56;
#if defined(__x86_64__) && defined(__GNUC__)
// The scans look for zero words, one compare per word, and test the word before each one they
// find: a zero word is a number's value (an integer 0 or a double +0.0; a type word is never 0),
// and it is an integer 0 exactly when the word before it is an int64 type word. Most ranges hold
// no zero word at all, and those that do hold few.

// Whether one of the zero words flagged in `lanes` (bit b: words[at + b]) is an integer 0's value.
inline bool FlaggedZeroIsInteger(const uint64_t* words, size_t at, uint32_t lanes) {
  for (; lanes != 0; lanes &= lanes - 1) {
    if (words[at + static_cast<size_t>(__builtin_ctz(lanes)) - 1] == kTapeInt64Word) return true;
  }
  return false;
}

// 8 value words per step (words 1.. of the range: a pair's second word), in two compares with 0.
__attribute__((target("avx2"), hot)) bool TapeHoldsIntegerZeroAvx2(const uint64_t* tape, size_t length, size_t* done) {
  const __m256i zero = _mm256_setzero_si256();
  size_t i = 1;
  for (; i + 8 <= length; i += 8) {
    const __m256i low = _mm256_cmpeq_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(tape + i)), zero);
    const __m256i high = _mm256_cmpeq_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(tape + i + 4)), zero);
    if (_mm256_testz_si256(_mm256_or_si256(low, high), _mm256_or_si256(low, high))) [[likely]] continue;
    const auto lanes = static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(low)) |
                                             (_mm256_movemask_pd(_mm256_castsi256_pd(high)) << 4));
    if (FlaggedZeroIsInteger(tape, i, lanes)) return true;
  }
  *done = i - 1;  // every pair starting before i - 1 is seen
  return false;
}

// The AVX-512 form: 16 value words per step. The last 0-15 are two more steps whose lanes past
// the end are masked off (not read), so the scan ends without a loop of its own: the view engine
// scans a few ranges per object, and a tail loop of varying length mispredicts its exit on each.
__attribute__((target("avx512f"), hot)) bool TapeHoldsIntegerZeroAvx512(const uint64_t* tape, size_t length, size_t* done) {
  const __m512i zero = _mm512_setzero_si512();
  *done = length;
  if (length < 2) return false;
  size_t i = 1;
  for (; i + 16 <= length; i += 16) {
    const __mmask8 low = _mm512_cmpeq_epi64_mask(_mm512_loadu_si512(tape + i), zero);
    const __mmask8 high = _mm512_cmpeq_epi64_mask(_mm512_loadu_si512(tape + i + 8), zero);
    if ((low | high) == 0) [[likely]] continue;
    if (FlaggedZeroIsInteger(tape, i, static_cast<uint32_t>(low) | (static_cast<uint32_t>(high) << 8))) return true;
  }
  const size_t left = length - i;  // 0-15 value words: words i .. length - 1
  const auto lanes = [](size_t n) { return static_cast<__mmask8>(n >= 8 ? 0xFF : (1u << n) - 1); };
  const __mmask8 low_lanes = lanes(left), high_lanes = lanes(left > 8 ? left - 8 : 0);
  const __mmask8 low = _mm512_mask_cmpeq_epi64_mask(low_lanes, _mm512_maskz_loadu_epi64(low_lanes, tape + i), zero);
  const __mmask8 high = _mm512_mask_cmpeq_epi64_mask(high_lanes, _mm512_maskz_loadu_epi64(high_lanes, tape + i + 8), zero);
  return FlaggedZeroIsInteger(tape, i, static_cast<uint32_t>(low) | (static_cast<uint32_t>(high) << 8));
}
#endif

// Whether words[0, count) hold an integer 0 (an int64 word and a value word 0, both in the range).
bool TapeWordsHoldIntegerZero(const uint64_t* words, size_t count) {
  size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  if (g_scan_width == json_dom::ScanWidth::kAvx512) {
    if (TapeHoldsIntegerZeroAvx512(words, count, &i)) return true;
  } else if (g_scan_width == json_dom::ScanWidth::kAvx2 && TapeHoldsIntegerZeroAvx2(words, count, &i)) {
    return true;
  }
#endif
  bool found = false;
  for (; i + 1 < count; ++i) found |= words[i] == kTapeInt64Word && words[i + 1] == 0;
  return found;
}

bool TapeHoldsIntegerZero(const simdjson::dom::document& document) {
  const uint64_t* tape = document.tape.get();
  return TapeWordsHoldIntegerZero(tape, tape[0] & 0x00FFFFFFFFFFFFFFull);  // the root word holds the tape's length
}

// Returns false when simdjson cannot decide (the caller then runs Parser).
bool ParseWithSimdjson(std::string_view text, int max_depth, Value* out) {
  thread_local simdjson::dom::parser reusable;
  simdjson::dom::parser one_off;
  simdjson::dom::parser& parser = text.size() <= kReusableCapacity ? reusable : one_off;
  simdjson::dom::element root;
  if (!json_dom::ParseDom(text, &parser, &root)) return false;
  return ConvertAt(root, 0, max_depth, out);
}

// ---- writer

// The length of the prefix of [p, end) that needs no escaping and no UTF-8 check: printable ASCII
// other than '"' and '\\', 16 bytes at a time (most strings are names, images, labels).
size_t PlainAsciiPrefix(const char* p, const char* end) {
  const char* start = p;
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
  while (end - p >= 16) {
    __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // A signed compare (SSE2): bytes >= 0x80 are negative, so `chunk < 0x20` also catches them.
    __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)),
                                   _mm_or_si128(_mm_cmpeq_epi8(chunk, del), _mm_cmplt_epi8(chunk, space)));
    int mask = _mm_movemask_epi8(special);
    if (mask != 0) return static_cast<size_t>(p - start) + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(mask)));
    p += 16;
  }
  // The tail (most keys and short values are all tail), a byte at a time.
  while (p < end) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') break;
    ++p;
  }
  return static_cast<size_t>(p - start);
}

void AppendEscapedString(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  const char* end = s.data() + s.size();
  if (PlainAsciiPrefix(s.data(), end) == s.size()) {  // nothing to escape: one copy
    size_t at = out->size();
    out->resize(at + s.size() + 2);
    char* p = out->data() + at;
    p[0] = '"';
    std::memcpy(p + 1, s.data(), s.size());
    p[s.size() + 1] = '"';
    return;
  }
  out->push_back('"');
  const char* run = s.data();
  for (const char* p = run; p < end; ++p) {
    if (size_t plain = PlainAsciiPrefix(p, end); plain > 0) {
      p += plain;
      if (p == end) break;
    }
    unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x80) {
      // Strings built by builtins (implode, @base64d, ...) may hold invalid UTF-8, which jq
      // would have replaced on creation: replace it here so the output is always valid.
      int32_t cp;
      size_t used = DecodeUtf8(reinterpret_cast<const unsigned char*>(p),
                               reinterpret_cast<const unsigned char*>(end), &cp);
      if (cp < 0) {
        out->append(run, p);
        out->append(kReplacementChar);
        run = p + used;
      }
      p += used - 1;
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F) continue;
    out->append(run, p);
    run = p + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\t': out->append("\\t"); break;
      case '\r': out->append("\\r"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default: {
        char buf[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out->append(buf, 6);
      }
    }
  }
  out->append(run, end);
  out->push_back('"');
}

void AppendNewlineIndent(int indent, size_t depth, std::string* out) {
  out->push_back('\n');
  out->append(static_cast<size_t>(indent) * depth, ' ');
}

// End of the JSON value starting at text[start], found by matching brackets and skipping
// strings without validating anything; npos if the value does not end within text. Only used to
// cut a stream into documents for the fast path, so a wrong guess merely costs a fallback.
size_t ScanValueEnd(std::string_view text, size_t start) {
  auto skip_string = [&text](size_t i) -> size_t {  // i is on the opening quote
    for (++i; i < text.size(); ++i) {
      if (text[i] == '\\') {
        ++i;
      } else if (text[i] == '"') {
        return i + 1;
      }
    }
    return std::string_view::npos;
  };
  char c = text[start];
  if (c == '"') return skip_string(start);
  if (c == '[' || c == '{') {
    size_t depth = 0;
    for (size_t i = start; i < text.size(); ++i) {
      char x = text[i];
      if (x == '"') {
        i = skip_string(i);
        if (i == std::string_view::npos) return i;
        --i;  // the loop's ++i moves past the closing quote
      } else if (x == '[' || x == '{') {
        ++depth;
      } else if (x == ']' || x == '}') {
        if (--depth == 0) return i + 1;
      }
    }
    return std::string_view::npos;
  }
  size_t i = start;
  while (i < text.size() && !IsJsonSpace(text[i]) && std::strchr("[]{},:\"", text[i]) == nullptr) ++i;
  return i;
}

}  // namespace

bool ParseJson(std::string_view text, Value* out, JsonError* error, const JsonParseOptions& options) {
  if (options.use_simdjson && ParseWithSimdjson(text, options.max_depth, out)) return true;
  Parser parser(text, options);
  Value v;
  if (!parser.ParseValue(&v, error)) return false;
  parser.SkipSpace();
  if (!parser.AtEnd()) {
    if (error != nullptr) {
      error->message = "unexpected content after the JSON value";
      error->offset = parser.offset();
    }
    return false;
  }
  *out = std::move(v);
  return true;
}

bool ParseJsonNumber(std::string_view text, double* out) {
  // An integer of up to 15 digits (a replica count, a port) is exact as a double: summed here,
  // without from_chars. "-0" is -0, as ParseJson reads it.
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (!digits.empty() && digits.size() <= 15 && (digits[0] != '0' || digits.size() == 1)) {
    uint64_t value = 0;
    size_t i = 0;
    for (; i < digits.size() && digits[i] >= '0' && digits[i] <= '9'; ++i) value = value * 10 + (digits[i] - '0');
    if (i == digits.size()) {
      *out = negative ? -static_cast<double>(value) : static_cast<double>(value);
      return true;
    }
  }
  const bool starts_number = !text.empty() && (text[0] == '-' || (text[0] >= '0' && text[0] <= '9'));
  return starts_number && Parser(text, JsonParseOptions{}).ReadWholeNumber(out);
}

bool ParseJqNumberToken(std::string_view text, double* out) {
  const char* const sign = text.data();  // from_chars reads a '-' (not a '+') where it is
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  const auto named = [&](std::string_view name) {
    return text.size() == name.size() &&
           std::equal(text.begin(), text.end(), name.begin(), [](char a, char b) { return (a | 0x20) == b; });
  };
  if (named("inf") || named("infinity")) {
    *out = negative ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  if (named("nan")) {
    *out = std::nan("");
    return true;
  }
  size_t i = 0, digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) ++digits;
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t exponent_digits = 0;
    if (++i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  if (i != text.size()) return false;
  // The grammar above is a part of from_chars' (strtod's in the C locale, without a '+').
  const char* const first = negative ? sign : text.data();
  const char* const last = text.data() + text.size();
  auto [end, status] = std::from_chars(first, last, *out);
  if (status == std::errc::result_out_of_range) {
    // from_chars leaves *out as it was; strtod saturates (it needs the token NUL-terminated).
    *out = std::strtod(std::string(first, last).c_str(), nullptr);
  } else if (status != std::errc() || end != last) {
    return false;
  }
  return true;
}

bool ParseJsonStream(std::string_view text, std::vector<Value>* out, JsonError* error,
                     const JsonParseOptions& options) {
  size_t pos = 0;
  for (;;) {
    while (pos < text.size() && IsJsonSpace(text[pos])) ++pos;
    if (pos == text.size()) return true;
    // Fast path: cut out the next value and hand it to simdjson. Anything unusual (including
    // every error) is parsed by Parser from the same position, so errors and repairs match.
    if (options.use_simdjson) {
      size_t end = ScanValueEnd(text, pos);
      Value v;
      if (end != std::string_view::npos && ParseWithSimdjson(text.substr(pos, end - pos), options.max_depth, &v)) {
        out->push_back(std::move(v));
        pos = end;
        continue;
      }
    }
    Parser parser(text, options, pos);
    Value v;
    if (!parser.ParseValue(&v, error)) return false;
    out->push_back(std::move(v));
    pos = parser.offset();
  }
}

void FormatNumber(double d, std::string* out) {
  if (std::isnan(d)) {
    out->append("null");
    return;
  }
  // jq prints infinities as the largest finite double.
  if (d > DBL_MAX) d = DBL_MAX;
  if (d < -DBL_MAX) d = -DBL_MAX;
  if (d == 0) {
    out->append(std::signbit(d) ? "-0" : "0");
    return;
  }
  // Integers below 1e15 (counts, replicas, ports...) print as plain digits in every rule above.
  if (d > -1e15 && d < 1e15 && d == static_cast<double>(static_cast<int64_t>(d))) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof(buf), static_cast<int64_t>(d));
    out->append(buf, r.ptr);
    return;
  }
  // Shortest round-trip digits via to_chars, then jq 1.6's layout (its dtoa-based formatter):
  // with the decimal point position `point` (value = 0.DIGITS * 10^point), exponent form is used
  // when point <= -4 or point > ndigits + 15; exponents have a sign and at least two digits.
  char sci[64];
  auto result = std::to_chars(sci, sci + sizeof(sci), d, std::chars_format::scientific);
  const char* p = sci;
  const char* end = result.ptr;
  if (*p == '-') {
    out->push_back('-');
    ++p;
  }
  char digits[32];
  int ndigits = 0;
  while (p < end && *p != 'e') {
    if (*p != '.') digits[ndigits++] = *p;
    ++p;
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), end, exponent);
  while (ndigits > 1 && digits[ndigits - 1] == '0') --ndigits;  // to_chars never pads, be safe
  int point = exponent + 1;
  if (point <= -4 || point > ndigits + 15) {
    out->push_back(digits[0]);
    if (ndigits > 1) {
      out->push_back('.');
      out->append(digits + 1, static_cast<size_t>(ndigits - 1));
    }
    out->push_back('e');
    out->push_back(exponent < 0 ? '-' : '+');
    int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude < 10) out->push_back('0');
    out->append(std::to_string(magnitude));
  } else if (point <= 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-point), '0');
    out->append(digits, static_cast<size_t>(ndigits));
  } else if (point >= ndigits) {
    out->append(digits, static_cast<size_t>(ndigits));
    out->append(static_cast<size_t>(point - ndigits), '0');
  } else {
    out->append(digits, static_cast<size_t>(point));
    out->push_back('.');
    out->append(digits + point, static_cast<size_t>(ndigits - point));
  }
}

void WriteJson(const Value& v, std::string* out, const JsonWriteOptions& options) {
  // Explicit stack of containers being written, so deep values cannot overflow the C++ stack.
  struct Frame {
    explicit Frame(const Value* c) : container(c) {}
    const Value* container;
    size_t next = 0;
    std::vector<const Member*> order;  // objects: members in output order
  };
  const int indent = options.indent;
  std::vector<Frame> stack;

  // Writes a scalar, an empty container, or the opening of a container (pushing a frame).
  auto begin_value = [&](const Value& x) {
    switch (x.kind()) {
      case Kind::Null: out->append("null"); return;
      case Kind::False: out->append("false"); return;
      case Kind::True: out->append("true"); return;
      case Kind::Number: FormatNumber(x.AsNumber(), out); return;
      case Kind::String: AppendEscapedString(x.AsString(), out); return;
      case Kind::Array:
        if (x.AsArray().empty()) {
          out->append("[]");
        } else {
          out->push_back('[');
          stack.emplace_back(&x);
        }
        return;
      case Kind::Object: {
        const auto& members = x.AsObject();
        if (members.empty()) {
          out->append("{}");
          return;
        }
        out->push_back('{');
        Frame frame(&x);
        frame.order.reserve(members.size());
        for (const Member& m : members) frame.order.push_back(&m);
        if (options.sort_keys) {
          std::sort(frame.order.begin(), frame.order.end(), [](const Member* a, const Member* b) {
            return a->first.AsString() < b->first.AsString();
          });
        }
        stack.push_back(std::move(frame));
        return;
      }
    }
  };

  begin_value(v);
  while (!stack.empty()) {
    Frame& top = stack.back();
    bool is_array = top.container->IsArray();
    size_t size = is_array ? top.container->AsArray().size() : top.order.size();
    if (top.next == size) {
      size_t depth = stack.size() - 1;
      if (indent > 0) AppendNewlineIndent(indent, depth, out);
      out->push_back(is_array ? ']' : '}');
      stack.pop_back();
      continue;
    }
    size_t i = top.next++;
    if (i > 0) out->push_back(',');
    if (indent > 0) AppendNewlineIndent(indent, stack.size(), out);
    if (is_array) {
      begin_value(top.container->AsArray()[i]);  // may push: `top` is not used after this
    } else {
      const Member* m = top.order[i];
      AppendEscapedString(m->first.AsString(), out);
      out->append(indent > 0 ? ": " : ":");
      begin_value(m->second);
    }
  }
}

std::string ToJson(const Value& v, const JsonWriteOptions& options) {
  std::string out;
  WriteJson(v, &out, options);
  return out;
}


namespace json_dom {

// Hot, with its tape check: placed beside the view engine's per-object functions (view.cpp says why).
[[gnu::hot]] bool ParseDom(std::string_view text, simdjson::dom::parser* parser, simdjson::dom::element* root, bool padded,
                           MinusZeroCheck check) {
  if (parser->max_depth() != kSimdjsonMaxDepth &&
      parser->allocate(std::max<size_t>(parser->capacity(), text.size()), kSimdjsonMaxDepth) !=
          simdjson::SUCCESS) {
    return false;
  }
  // After the parse, the text is scanned for "-0" only when the tape holds an integer 0 (most
  // documents hold none); the parse has brought the text into the cache by then.
  // A caller that defers the check makes it on the parts it reads (ElementHoldsIntegerZero).
  const auto exact = [&] { return check == MinusZeroCheck::kDeferred || !DocumentMayHoldMinusZero(parser->doc, text); };
  if (padded || text.size() > kReusableCapacity) {
    return parser->parse(text.data(), text.size(), !padded).get(*root) == simdjson::SUCCESS && exact();
  }
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: the text is copied into a
  // per-thread padded buffer that keeps its capacity, instead of simdjson's fresh allocation per
  // document. The DOM does not point into it (strings are copied into the parser's own buffer).
  thread_local std::string copy;
  if (copy.size() < text.size() + simdjson::SIMDJSON_PADDING) copy.resize(text.size() + simdjson::SIMDJSON_PADDING);
  std::memcpy(copy.data(), text.data(), text.size());
  return parser->parse(copy.data(), text.size(), false).get(*root) == simdjson::SUCCESS && exact();
}

bool DocumentMayHoldMinusZero(const simdjson::dom::document& document, std::string_view text) {
  return TapeHoldsIntegerZero(document) && MayHoldNegativeZero(text);
}

bool ElementHoldsIntegerZero(simdjson::dom::element element) {
  const TapeRef at = TapeRefOf(element);
  const uint64_t* tape = at.doc->tape.get();
  const uint64_t word = tape[at.index];
  const char type = static_cast<char>(word >> 56);
  if (type == '{' || type == '[') {  // the word's payload: the index after the closing word
    const size_t end = static_cast<uint32_t>(word);
    return TapeWordsHoldIntegerZero(tape + at.index, end - at.index);
  }
  return word == kTapeInt64Word && tape[at.index + 1] == 0;
}

ScanWidth WidestScanWidth() { return g_widest_scan_width; }
ScanWidth CurrentScanWidth() { return g_scan_width; }
void SetScanWidth(ScanWidth width) { g_scan_width = std::min(width, g_widest_scan_width); }

bool ConvertElement(simdjson::dom::element element, int max_depth, Value* out) {
  return ConvertAt(element, 0, max_depth, out);
}

namespace {

using Field = std::pair<std::string_view, simdjson::dom::element>;

// The members of a DOM object as WriteJson writes the converted object: a duplicate key once, at
// its first position with its last value (as ConvertElement), sorted when the options ask.
void OrderedFields(simdjson::dom::object object, bool sort_keys, std::vector<Field>* fields) {
  for (simdjson::dom::key_value_pair field : object) fields->emplace_back(field.key, field.value);
  std::vector<Field> by_key = *fields;
  std::stable_sort(by_key.begin(), by_key.end(),
                   [](const Field& a, const Field& b) { return a.first < b.first; });
  bool duplicates = false;
  for (size_t i = 1; i < by_key.size() && !duplicates; ++i) duplicates = by_key[i - 1].first == by_key[i].first;
  if (duplicates) {
    std::vector<Field> unique;
    for (size_t i = 0; i < fields->size(); ++i) {
      bool seen = false;
      for (size_t j = 0; j < i && !seen; ++j) seen = (*fields)[j].first == (*fields)[i].first;
      if (seen) continue;
      Field last = (*fields)[i];
      for (size_t j = i + 1; j < fields->size(); ++j) {
        if ((*fields)[j].first == last.first) last.second = (*fields)[j].second;
      }
      unique.push_back(last);
    }
    *fields = std::move(unique);
    if (sort_keys) {
      std::sort(fields->begin(), fields->end(), [](const Field& a, const Field& b) { return a.first < b.first; });
    }
  } else if (sort_keys) {
    *fields = std::move(by_key);
  }
}

void WriteElementAt(simdjson::dom::element element, size_t depth, const JsonWriteOptions& options,
                    std::string* out);

// Whether a small object's keys are all different, decided without allocating (most objects have
// a few keys); false for larger objects too (then OrderedFields decides).
bool HasNoDuplicateKeys(simdjson::dom::object object) {
  constexpr size_t kSmall = 16;
  std::string_view keys[kSmall];
  size_t n = 0;
  for (simdjson::dom::key_value_pair field : object) {
    if (n == kSmall) return false;
    for (size_t i = 0; i < n; ++i) {
      if (keys[i] == field.key) return false;
    }
    keys[n++] = field.key;
  }
  return true;
}

// Writes an object's members: `fields` ranges over what `key_of` and `value_of` read a member's
// key and DOM value from (the DOM object itself, or OrderedFields' list).
template <class Fields, class KeyOf, class ValueOf>
void WriteObjectFields(const Fields& fields, KeyOf key_of, ValueOf value_of, size_t depth,
                       const JsonWriteOptions& options, std::string* out) {
  const int indent = options.indent;
  if (fields.begin() == fields.end()) {
    out->append("{}");
    return;
  }
  out->push_back('{');
  bool first = true;
  for (const auto& field : fields) {
    if (!first) out->push_back(',');
    first = false;
    if (indent > 0) AppendNewlineIndent(indent, depth + 1, out);
    AppendEscapedString(key_of(field), out);
    out->append(indent > 0 ? ": " : ":");
    WriteElementAt(value_of(field), depth + 1, options, out);
  }
  if (indent > 0) AppendNewlineIndent(indent, depth, out);
  out->push_back('}');
}

// Recursion is bounded by the DOM's depth (kMaxDomDepth).
void WriteElementAt(simdjson::dom::element element, size_t depth, const JsonWriteOptions& options,
                    std::string* out) {
  using simdjson::dom::element_type;
  const int indent = options.indent;
  switch (element.type()) {
    case element_type::NULL_VALUE: out->append("null"); return;
    case element_type::BOOL: out->append(element.get_bool().value_unsafe() ? "true" : "false"); return;
    case element_type::INT64:
      FormatNumber(static_cast<double>(element.get_int64().value_unsafe()), out);
      return;
    case element_type::UINT64:
      FormatNumber(static_cast<double>(element.get_uint64().value_unsafe()), out);
      return;
    case element_type::DOUBLE: FormatNumber(element.get_double().value_unsafe(), out); return;
    case element_type::STRING: AppendEscapedString(element.get_string().value_unsafe(), out); return;
    case element_type::ARRAY: {
      simdjson::dom::array array = element.get_array().value_unsafe();
      if (array.begin() == array.end()) {
        out->append("[]");
        return;
      }
      out->push_back('[');
      bool first = true;
      for (simdjson::dom::element child : array) {
        if (!first) out->push_back(',');
        first = false;
        if (indent > 0) AppendNewlineIndent(indent, depth + 1, out);
        WriteElementAt(child, depth + 1, options, out);
      }
      if (indent > 0) AppendNewlineIndent(indent, depth, out);
      out->push_back(']');
      return;
    }
    case element_type::OBJECT: {
      simdjson::dom::object object = element.get_object().value_unsafe();
      if (!options.sort_keys && HasNoDuplicateKeys(object)) {  // in place, no field list
        WriteObjectFields(
            object, [](const simdjson::dom::key_value_pair& f) { return f.key; },
            [](const simdjson::dom::key_value_pair& f) { return f.value; }, depth, options, out);
        return;
      }
      std::vector<Field> fields;
      OrderedFields(object, options.sort_keys, &fields);
      WriteObjectFields(
          fields, [](const Field& f) { return f.first; }, [](const Field& f) { return f.second; }, depth, options,
          out);
      return;
    }
  }
}

}  // namespace

void WriteElement(simdjson::dom::element element, std::string* out, const JsonWriteOptions& options) {
  WriteElementAt(element, 0, options, out);
}

}  // namespace json_dom

}  // namespace wm
