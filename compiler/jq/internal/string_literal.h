// Splits the text of one jq string literal token (quotes included) into decoded literal parts and
// the byte ranges of its `\(...)` interpolations, and reports malformed escapes. No ANTLR here:
// the lexer only finds where a literal ends; this is where its contents are read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wm::jq::internal {

struct StringPiece {
  bool interpolation = false;
  std::string text;      // decoded literal text (literal pieces)
  uint32_t begin = 0;    // literal: bytes of the piece in the token; interpolation: the expression
  uint32_t end = 0;      //   between `\(` and `)`, offsets relative to the token start
};

struct StringError {
  uint32_t offset = 0;   // relative to the token start
  uint32_t length = 1;
  std::string message;
};

struct SplitString {
  std::vector<StringPiece> pieces;   // empty literal pieces are left out
  std::vector<StringError> errors;
};

// `token` must be a whole literal as the lexer matched it: `"` ... `"`.
SplitString SplitStringLiteral(std::string_view token);

}  // namespace wm::jq::internal
