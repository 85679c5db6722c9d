// The jq lexer (see compiler/jq/internal/lexer.h): one pass over the UTF-8 bytes, following the
// lexer rules of grammar/Jq.g4 exactly, so the parser sees the same tokens the generated lexer
// would produce. Every delimiter is ASCII, and UTF-8 continuation bytes never look like one, so
// scanning bytes instead of code points changes nothing but the token offsets (bytes here).
#include "compiler/jq/internal/lexer.h"

#include <string>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#include "JqParser.h"
#pragma GCC diagnostic pop

namespace wm::jq::internal {
namespace {

using gen::JqParser;

bool IsNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// End of `NAME` starting at `i` (text[i] is a name start).
size_t NameEnd(std::string_view text, size_t i) {
  ++i;
  while (i < text.size() && IsNameChar(text[i])) ++i;
  return i;
}

// End of `(NAME '::')* NAME` starting at `i` (text[i] is a name start).
size_t QualifiedNameEnd(std::string_view text, size_t i) {
  size_t end = NameEnd(text, i);
  while (end + 2 < text.size() && text[end] == ':' && text[end + 1] == ':' && IsNameStart(text[end + 2])) {
    end = NameEnd(text, end + 2);
  }
  return end;
}

size_t KeywordType(std::string_view word) {
  switch (word.size()) {
    case 2:
      if (word == "as") return JqParser::AS;
      if (word == "if") return JqParser::IF;
      if (word == "or") return JqParser::OR;
      break;
    case 3:
      if (word == "def") return JqParser::DEF;
      if (word == "end") return JqParser::END;
      if (word == "and") return JqParser::AND;
      if (word == "try") return JqParser::TRY;
      break;
    case 4:
      if (word == "then") return JqParser::THEN;
      if (word == "else") return JqParser::ELSE;
      if (word == "elif") return JqParser::ELIF;
      break;
    case 5:
      if (word == "catch") return JqParser::CATCH;
      if (word == "label") return JqParser::LABEL;
      if (word == "break") return JqParser::BREAK;
      break;
    case 6:
      if (word == "module") return JqParser::MODULE;
      if (word == "import") return JqParser::IMPORT;
      if (word == "reduce") return JqParser::REDUCE;
      break;
    case 7:
      if (word == "include") return JqParser::INCLUDE;
      if (word == "foreach") return JqParser::FOREACH;
      break;
    default:
      break;
  }
  return JqParser::IDENT;
}

// End of the NUMBER starting at `i`: ([0-9]+ ('.' [0-9]*)? | '.' [0-9]+) ([eE] [+-]? [0-9]+)?.
size_t NumberEnd(std::string_view text, size_t i) {
  size_t n = text.size();
  if (text[i] == '.') {
    ++i;
    while (i < n && IsDigit(text[i])) ++i;
  } else {
    while (i < n && IsDigit(text[i])) ++i;
    if (i < n && text[i] == '.') {
      ++i;
      while (i < n && IsDigit(text[i])) ++i;
    }
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < n && IsDigit(text[j])) {
      while (j < n && IsDigit(text[j])) ++j;
      i = j;
    }
  }
  return i;
}

// End of the STRING starting at the quote at `i`, or 0 if it does not end: the grammar's
// STRING_CHAR / INTERPOLATION / INTERPOLATION_CHAR fragments, with an explicit stack of what is
// open (a string, an interpolation, parentheses inside one).
size_t StringEnd(std::string_view text, size_t i) {
  enum Open : char { kString, kInterpolation, kParen };
  std::vector<Open> open{kString};
  size_t n = text.size();
  ++i;
  while (!open.empty()) {
    if (i >= n) return 0;
    char c = text[i];
    if (open.back() == kString) {
      if (c == '"') {
        open.pop_back();
        ++i;
      } else if (c == '\\') {
        if (i + 1 >= n) return 0;
        if (text[i + 1] == '(') open.push_back(kInterpolation);
        i += 2;
      } else {
        ++i;
      }
      continue;
    }
    switch (c) {
      case '"': open.push_back(kString); ++i; break;
      case '(': open.push_back(kParen); ++i; break;
      case ')': open.pop_back(); ++i; break;
      case '#':
        while (i < n && text[i] != '\n') ++i;
        break;
      default: ++i; break;
    }
  }
  return i;
}

// Bytes of the UTF-8 sequence starting with `lead` (the text was validated before lexing).
size_t CodePointLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

// Operators and punctuation by longest match; 0 length when `text[i]` starts none.
size_t Punctuation(std::string_view text, size_t i, size_t* length) {
  auto next = [&](size_t k) { return i + k < text.size() ? text[i + k] : '\0'; };
  char c = text[i];
  *length = 2;
  switch (c) {
    case '/':
      if (next(1) == '/') {
        if (next(2) == '=') {
          *length = 3;
          return JqParser::SETDEFINEDOR;
        }
        return JqParser::DEFINEDOR;
      }
      if (next(1) == '=') return JqParser::SETDIV;
      *length = 1;
      return JqParser::SLASH;
    case '?':
      if (next(1) == '/' && next(2) == '/') {
        *length = 3;
        return JqParser::ALTERNATION;
      }
      *length = 1;
      return JqParser::QUESTION;
    case '|': if (next(1) == '=') return JqParser::SETPIPE; *length = 1; return JqParser::PIPE;
    case '+': if (next(1) == '=') return JqParser::SETPLUS; *length = 1; return JqParser::PLUS;
    case '-': if (next(1) == '=') return JqParser::SETMINUS; *length = 1; return JqParser::MINUS;
    case '*': if (next(1) == '=') return JqParser::SETMULT; *length = 1; return JqParser::STAR;
    case '%': if (next(1) == '=') return JqParser::SETMOD; *length = 1; return JqParser::PERCENT;
    case '=': if (next(1) == '=') return JqParser::EQ; *length = 1; return JqParser::ASSIGN;
    case '!': if (next(1) == '=') return JqParser::NEQ; break;
    case '<': if (next(1) == '=') return JqParser::LE; *length = 1; return JqParser::LT;
    case '>': if (next(1) == '=') return JqParser::GE; *length = 1; return JqParser::GT;
    case ',': *length = 1; return JqParser::COMMA;
    case ';': *length = 1; return JqParser::SEMI;
    case ':': *length = 1; return JqParser::COLON;
    case '(': *length = 1; return JqParser::LPAREN;
    case ')': *length = 1; return JqParser::RPAREN;
    case '[': *length = 1; return JqParser::LBRACKET;
    case ']': *length = 1; return JqParser::RBRACKET;
    case '{': *length = 1; return JqParser::LBRACE;
    case '}': *length = 1; return JqParser::RBRACE;
    default: break;
  }
  *length = 0;
  return 0;
}

}  // namespace

void JqTokenSource::Add(size_t type, std::string_view text, size_t begin, size_t end) {
  auto token = std::make_unique<antlr4::CommonToken>(type);
  token->setStartIndex(begin);
  token->setStopIndex(end - 1);
  token->setLine(1);
  token->setCharPositionInLine(begin);
  token->setText(std::string(text.substr(begin, end - begin)));
  tokens_.push_back(std::move(token));
}

bool JqTokenSource::Lex(std::string_view text, size_t max_tokens) {
  tokens_.clear();
  next_ = 0;
  size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      ++i;
      continue;
    }
    if (c == '#') {
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    size_t type;
    size_t end;
    if (IsNameStart(c)) {
      end = QualifiedNameEnd(text, i);
      type = KeywordType(text.substr(i, end - i));
    } else if (IsDigit(c)) {
      end = NumberEnd(text, i);
      type = JqParser::NUMBER;
    } else if (c == '.') {
      char d = i + 1 < n ? text[i + 1] : '\0';
      if (d == '.') {
        end = i + 2;
        type = JqParser::REC;
      } else if (IsDigit(d)) {
        end = NumberEnd(text, i);
        type = JqParser::NUMBER;
      } else if (IsNameStart(d)) {
        end = NameEnd(text, i + 1);
        type = JqParser::FIELD;
      } else {
        end = i + 1;
        type = JqParser::DOT;
      }
    } else if (c == '$' && i + 1 < n && IsNameStart(text[i + 1])) {
      end = QualifiedNameEnd(text, i + 1);
      type = JqParser::BINDING;
    } else if (c == '@' && i + 1 < n && IsNameChar(text[i + 1])) {
      end = i + 1;
      while (end < n && IsNameChar(text[end])) ++end;
      type = JqParser::FORMAT;
    } else if (c == '"') {
      end = StringEnd(text, i);
      type = JqParser::STRING;
      if (end == 0) {
        end = i + 1;  // the unterminated quote on its own
        type = JqParser::INVALID;
      }
    } else {
      size_t length = 0;
      type = Punctuation(text, i, &length);
      if (length == 0) {
        type = JqParser::INVALID;
        length = CodePointLength(static_cast<unsigned char>(c));
      }
      end = i + length > n ? n : i + length;
    }
    if (tokens_.size() >= max_tokens) {
      over_begin_ = static_cast<uint32_t>(i);
      over_end_ = static_cast<uint32_t>(end);
      return false;
    }
    Add(type, text, i, end);
    i = end;
  }
  auto eof = std::make_unique<antlr4::CommonToken>(antlr4::Token::EOF);
  eof->setStartIndex(n);
  eof->setStopIndex(n == 0 ? 0 : n - 1);
  eof->setLine(1);
  eof->setCharPositionInLine(n);
  eof->setText("<EOF>");
  tokens_.push_back(std::move(eof));
  return true;
}

std::unique_ptr<antlr4::Token> JqTokenSource::nextToken() {
  if (next_ < tokens_.size()) return std::move(tokens_[next_++]);
  // Past the end (never asked by CommonTokenStream after EOF): another EOF.
  auto eof = std::make_unique<antlr4::CommonToken>(antlr4::Token::EOF);
  eof->setText("<EOF>");
  return eof;
}

}  // namespace wm::jq::internal
