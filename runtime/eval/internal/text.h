// Text helpers shared by the value-level ops and builtins: UTF-8 codepoint iteration (jq counts
// string lengths, slices and match offsets in codepoints), and jq's truncated value dump used
// inside error messages ("object ({\"aaaaaaaa...)").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/utf8.h"
#include "runtime/value/value.h"

namespace wm::eval_internal {

// Decodes one codepoint at s[*pos], advancing *pos; invalid bytes decode as U+FFFD (one byte).
uint32_t DecodeUtf8(std::string_view s, size_t* pos);
size_t CodepointCount(std::string_view s);
// Byte offset of codepoint index `cp` (clamped to the end).
size_t ByteOffsetOfCodepoint(std::string_view s, size_t cp);

// The JSON of v as jq dumps it into a `buffer`-byte buffer for an error message: at most
// buffer - 1 bytes, the last three "..." when cut.
std::string TruncatedJson(const Value& v, size_t buffer);
// TruncatedJson(v, 15): the width of jq's type errors.
std::string TruncatedDump(const Value& v);
// "<kind> (<truncated dump>)", the way jq names a value in type errors.
std::string Describe(const Value& v);

}  // namespace wm::eval_internal
