// jq string literal contents: escapes (\" \\ \/ \b \f \n \r \t \uXXXX with surrogate pairs, as
// jq's literal parser accepts them) and `\(...)` interpolations, whose end is found by the same
// rules the lexer used (nested parentheses, nested strings, comments).
#include "compiler/jq/internal/string_literal.h"
#include "runtime/value/utf8.h"

namespace wm::jq::internal {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads 4 hex digits at text[pos..]; -1 if they are not there.
int32_t ReadHex4(std::string_view text, size_t pos) {
  if (pos + 4 > text.size()) return -1;
  int32_t value = 0;
  for (size_t i = 0; i < 4; ++i) {
    int digit = HexValue(text[pos + i]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// Position of the `)` that closes the interpolation whose body starts at `pos`.
size_t FindInterpolationEnd(std::string_view text, size_t pos) {
  // Each stack entry is what we are inside: '(' a parenthesis/interpolation, '"' a string.
  std::vector<char> stack{'('};
  size_t i = pos;
  while (i < text.size()) {
    char c = text[i];
    if (stack.back() == '"') {
      if (c == '\\' && i + 1 < text.size()) {
        if (text[i + 1] == '(') {
          stack.push_back('(');
        }
        i += 2;
        continue;
      }
      if (c == '"') stack.pop_back();
      ++i;
      continue;
    }
    switch (c) {
      case '(': stack.push_back('('); break;
      case ')':
        stack.pop_back();
        if (stack.empty()) return i;
        break;
      case '"': stack.push_back('"'); break;
      case '#':
        while (i < text.size() && text[i] != '\n' && text[i] != '\r') ++i;
        continue;
      default: break;
    }
    ++i;
  }
  return text.size();
}

}  // namespace

SplitString SplitStringLiteral(std::string_view token) {
  SplitString result;
  if (token.size() < 2 || token.front() != '"') {
    result.errors.push_back({0, 1, "malformed string literal"});
    return result;
  }
  const size_t end = token.size() - 1;  // the closing quote
  StringPiece literal;
  literal.begin = 1;
  auto flush_literal = [&](size_t at) {
    if (!literal.text.empty()) {
      literal.end = static_cast<uint32_t>(at);
      result.pieces.push_back(std::move(literal));
    }
    literal = StringPiece{};
  };
  size_t i = 1;
  while (i < end) {
    char c = token[i];
    if (c != '\\') {
      if (literal.text.empty()) literal.begin = static_cast<uint32_t>(i);
      literal.text.push_back(c);
      ++i;
      continue;
    }
    if (literal.text.empty()) literal.begin = static_cast<uint32_t>(i);
    char e = i + 1 < end ? token[i + 1] : '\0';
    switch (e) {
      case '"': literal.text.push_back('"'); i += 2; continue;
      case '\\': literal.text.push_back('\\'); i += 2; continue;
      case '/': literal.text.push_back('/'); i += 2; continue;
      case 'b': literal.text.push_back('\b'); i += 2; continue;
      case 'f': literal.text.push_back('\f'); i += 2; continue;
      case 'n': literal.text.push_back('\n'); i += 2; continue;
      case 'r': literal.text.push_back('\r'); i += 2; continue;
      case 't': literal.text.push_back('\t'); i += 2; continue;
      case '(': {
        flush_literal(i);
        size_t body = i + 2;
        size_t close = FindInterpolationEnd(token, body);
        StringPiece interp;
        interp.interpolation = true;
        interp.begin = static_cast<uint32_t>(body);
        interp.end = static_cast<uint32_t>(close < end ? close : end);
        result.pieces.push_back(std::move(interp));
        i = close + 1;
        continue;
      }
      case 'u': {
        int32_t cp = ReadHex4(token.substr(0, end), i + 2);
        if (cp < 0) {
          result.errors.push_back({static_cast<uint32_t>(i), 2,
                                   "invalid \\u escape: expected four hex digits"});
          i += 2;
          continue;
        }
        size_t next = i + 6;
        if (cp >= 0xD800 && cp <= 0xDBFF && next + 1 < end && token[next] == '\\' &&
            token[next + 1] == 'u') {
          int32_t low = ReadHex4(token.substr(0, end), next + 2);
          if (low >= 0xDC00 && low <= 0xDFFF) {
            utf8::Append(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00), &literal.text);
            i = next + 6;
            continue;
          }
        }
        // A lone surrogate cannot be encoded; jq substitutes U+FFFD as well.
        utf8::Append(static_cast<uint32_t>(cp), &literal.text);
        i = next;
        continue;
      }
      default: {
        std::string shown(1, e);
        if (static_cast<unsigned char>(e) < 0x20 || static_cast<unsigned char>(e) >= 0x80) shown = "?";
        result.errors.push_back({static_cast<uint32_t>(i), 2, "invalid escape '\\" + shown + "' in string"});
        i += 2;
        continue;
      }
    }
  }
  flush_literal(end);
  return result;
}

}  // namespace wm::jq::internal
