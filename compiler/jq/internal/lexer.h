// The jq lexer: turns one fragment of text (the whole expression, or one interpolation body) into
// the token types of grammar/Jq.g4 for the ANTLR parser. It replaces the generated lexer, which
// copies the text to UTF-32 and takes a lock per character: parse time of a catalog expression is
// dominated by neither now. Token start/stop indexes are byte offsets in the fragment. Internal to
// compiler/jq: this header pulls in the ANTLR runtime.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#include "antlr4-runtime.h"
#pragma GCC diagnostic pop

namespace wm::jq::internal {

// Hands the lexed tokens to a CommonTokenStream, EOF last.
class JqTokenSource : public antlr4::TokenSource {
 public:
  // Lexes `text` as the ANTLR lexer of grammar/Jq.g4 would (longest match, keywords before
  // identifiers, whitespace and comments skipped, an unknown character or an unterminated string's
  // quote as one INVALID token). Returns false when there are more than `max_tokens` tokens
  // (EOF not counted); `over_begin`/`over_end` then hold the byte range of the first one too many.
  bool Lex(std::string_view text, size_t max_tokens);
  uint32_t over_begin() const { return over_begin_; }
  uint32_t over_end() const { return over_end_; }

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return 1; }
  size_t getCharPositionInLine() override { return 0; }
  antlr4::CharStream* getInputStream() override { return nullptr; }
  std::string getSourceName() override { return "<expr>"; }
  antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

 private:
  void Add(size_t type, std::string_view text, size_t begin, size_t end);

  std::vector<std::unique_ptr<antlr4::Token>> tokens_;
  size_t next_ = 0;
  uint32_t over_begin_ = 0;
  uint32_t over_end_ = 0;
};

}  // namespace wm::jq::internal
