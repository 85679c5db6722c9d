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

// Codepoints before successive byte offsets of one string (jq reports match offsets in
// codepoints), counted on from the previous offset when it has not moved back: a builtin that
// lists the offsets of successive matches (indices, match with "g") decodes each byte once, not
// once per match. That decoding is work the builtin charges to the budget as it goes
// (TakeScannedSteps after each offset), so a scan that restarted from the start each time would
// be charged for it too, and stopped by the step budget.
class CodepointCursor {
 public:
  explicit CodepointCursor(std::string_view s) : s_(s) {}
  size_t Before(size_t byte_offset);
  uint64_t scanned_bytes() const { return scanned_bytes_; }
  // Steps (one per 8 bytes decoded, as step_budget.h WorkUnits) not yet taken.
  uint64_t TakeScannedSteps() {
    uint64_t due = scanned_bytes_ / 8;
    uint64_t steps = due - steps_taken_;
    steps_taken_ = due;
    return steps;
  }

 private:
  std::string_view s_;
  size_t bytes_ = 0;
  size_t codepoints_ = 0;
  uint64_t scanned_bytes_ = 0;
  uint64_t steps_taken_ = 0;
};

// The JSON of v as jq dumps it into a `buffer`-byte buffer for an error message: at most
// buffer - 1 bytes, the last three "..." when cut.
std::string TruncatedJson(const Value& v, size_t buffer);
// TruncatedJson(v, 15): the width of jq's type errors.
std::string TruncatedDump(const Value& v);
// "<kind> (<truncated dump>)", the way jq names a value in type errors.
std::string Describe(const Value& v);

}  // namespace wm::eval_internal
