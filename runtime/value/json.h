// JSON text <-> Value. Parsing goes through simdjson, with a built-in parser for what simdjson
// rejects (jq's repairs of invalid UTF-8, numbers beyond double range, exact error offsets, deep
// nesting). Serialization is byte-identical to `jq -c` (compact) and `jq` (indented), including
// jq 1.6's number formatting (shortest round-trip digits; exponent form below 1e-4 or when more
// than 15 zeros would pad the digits: 1e16 -> 1e+16 but 12e15 -> 12000000000000000; exponents
// with a sign and two digits or more, 1e-05; infinities as +-1.7976931348623157e+308).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/value.h"

namespace wm {

struct JsonParseOptions {
  // Deepest nesting of arrays/objects accepted; deeper input is an error, never a stack overflow.
  int max_depth = 512;
  // Try simdjson first (fast path); documents it rejects or cannot represent exactly go to the
  // built-in parser, which gives identical results. false = built-in parser only (tests, fuzzing).
  bool use_simdjson = true;
  // Numbers as jq's reader reads them (`fromjson`; libjq 1.6, like C's strtod): any token between
  // JSON's delimiters that ParseJqNumberToken reads whole, so `007`, `+1`, `.5`, `1.`, `nan` and
  // `-Infinity` are numbers too. false: strict JSON (RFC 8259), as workload objects are read.
  bool jq_number_tokens = false;
};

struct JsonError {
  std::string message;  // e.g. "unexpected end of input"
  size_t offset = 0;    // byte offset in the input where the problem was found
};

// Parses exactly one JSON value (surrounding whitespace allowed). Returns false and fills *error
// on malformed input.
bool ParseJson(std::string_view text, Value* out, JsonError* error,
               const JsonParseOptions& options = {});

// Whether `text` is exactly one JSON number, with no whitespace around it; its value in *out, the
// one ParseJson gives for the same text. The quick path of `tonumber` on a string: anything else
// (false) is left to ParseJson, which also words the error.
bool ParseJsonNumber(std::string_view text, double* out);

// Whether `token` (no whitespace) is a number as jq's reader reads a number token, which C's strtod
// reads: a sign ('+' too), then digits with an optional point and exponent (`007`, `1.`, `.5`
// included), or `inf`, `infinity` or `nan` in any case. *out is its value (a range error
// saturates to +-infinity or 0, as strtod does; nan is NaN).
bool ParseJqNumberToken(std::string_view token, double* out);

// Parses a stream of whitespace-separated JSON values (as jq reads its input).
bool ParseJsonStream(std::string_view text, std::vector<Value>* out, JsonError* error,
                     const JsonParseOptions& options = {});

struct JsonWriteOptions {
  int indent = 0;           // 0 = compact (jq -c); n > 0 = jq's pretty form with n spaces
  bool sort_keys = false;   // jq -S
};

// Appends the serialization of v to *out. Strings are escaped as jq does (\" \\ \n \t \r \b \f,
// other control characters and DEL as \u00xx, everything else raw); invalid UTF-8 in a string
// is written as U+FFFD so the output is always valid JSON.
void WriteJson(const Value& v, std::string* out, const JsonWriteOptions& options = {});
std::string ToJson(const Value& v, const JsonWriteOptions& options = {});

// jq's number formatting on its own (used by tostring, @text, and string interpolation).
void FormatNumber(double d, std::string* out);

}  // namespace wm
