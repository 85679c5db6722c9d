// ANTLR parse tree -> AST (compiler/jq/ast.h), with byte ranges. Internal to compiler/jq: this
// header pulls in the generated parser and the ANTLR runtime, so only compiler/jq/*.cpp include it.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "compiler/jq/ast.h"
#include "compiler/jq/internal/parse_context.h"

// ANTLR last: antlr4-common.h undefines EOF. Its headers trip -Wattributes under GCC 12.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#include "JqParser.h"
#include "antlr4-runtime.h"
#pragma GCC diagnostic pop

namespace wm::jq::internal {

// One piece of the expression handed to the parser (the whole text, or one interpolation body):
// token indexes are bytes of the fragment (compiler/jq/lexer.cpp), diagnostics and AST ranges
// bytes of the whole expression.
class Fragment {
 public:
  Fragment(uint32_t base, std::string_view text);
  // Byte offset in the whole expression of the fragment's byte `index` (clamped to the end).
  uint32_t Offset(size_t index) const;
  uint32_t base() const { return base_; }
  uint32_t end() const { return base_ + length_; }
  Range TokenRange(const antlr4::Token* token) const;

 private:
  uint32_t base_;
  uint32_t length_;
};

// "')'", "identifier 'foo'", "end of input" (or "')'" at the end of an interpolation), ...
std::string DescribeToken(antlr4::Token* token, bool embedded);

class AstBuilder {
 public:
  AstBuilder(ParseContext& context, const Fragment& fragment, antlr4::TokenStream& tokens)
      : context_(context), fragment_(fragment), tokens_(tokens) {}

  std::unique_ptr<Node> Program(gen::JqParser::ProgramContext* ctx);
  std::unique_ptr<Node> Embedded(gen::JqParser::EmbeddedPipeContext* ctx);

 private:
  using NodePtr = std::unique_ptr<Node>;
  using JqParser = gen::JqParser;
  using DefRun = std::vector<JqParser::FuncDefContext*>;

  Range Tok(const antlr4::Token* token) const { return fragment_.TokenRange(token); }
  Range Tok(antlr4::tree::TerminalNode* node) const { return Tok(node->getSymbol()); }
  Range Span(antlr4::ParserRuleContext* ctx) const;
  NodePtr Make(NodeKind kind, Range range, Range token) const;
  NodePtr Binary(NodeKind kind, std::string op, Range token, NodePtr left, NodePtr right) const;
  void Error(Range at, std::string message);
  void ErrorAfter(antlr4::Token* last, const std::string& what);
  void RefuseLoc(antlr4::Token* binding);

  NodePtr Pipe(JqParser::PipeContext* ctx);
  NodePtr FuncDef(JqParser::FuncDefContext* ctx, NodePtr rest);
  // Why a postfix term is not a jq 1.7 Term (grammar/Jq.g4 parses more as primaries): the
  // `reduce`/`foreach`/`if` keyword it is, or the first `?` that applies to a whole expression.
  struct TermCheck {
    antlr4::Token* blocker = nullptr;   // null: a Term
    bool ends_with_expression_question = false;  // `$x?`: jq reads `try $x?` as `(try $x)?`
    bool reported = false;              // a postfix after the blocker was already reported
    antlr4::Token* start = nullptr;     // first and last token of the term
    antlr4::Token* stop = nullptr;
  };
  // An open construct of the chain being built (see Chain), waiting for what stands on its right.
  struct Frame {
    enum Kind : uint8_t {
      kRoot,     // the chain itself
      kRight,    // `left op _`
      kDef,      // `def f: ...; _`
      kHead,     // `Term as $x | _`, `label $x | _`
      kNeg,      // `- _`
      kTryBody,  // `try _`
      kHandler,  // `try body catch _`
    };
    Kind kind = kRoot;
    int min_level = 0;             // the lowest operator level the expression on the right takes
    NodePtr node;                  // kRight: the left operand; else the node the right completes
    antlr4::Token* op = nullptr;   // kRight: the operator
  };
  NodePtr Chain(const DefRun& leading, JqParser::PipeTailContext* tail);
  void PushDef(JqParser::FuncDefContext* def);
  NodePtr Operand(JqParser::UnaryExprContext* unary,
                  const std::vector<antlr4::tree::ParseTree*>& items, size_t* pos,
                  TermCheck* term);
  NodePtr Complete(Frame frame, NodePtr right, antlr4::Token* next);
  NodePtr Postfix(JqParser::PostfixTermContext* ctx, TermCheck* check = nullptr);
  // The term up to `until` as a suggested rewrite shows it: `reduce ...`, `if ... end`, `$x?`.
  std::string Abbreviate(const TermCheck& check, antlr4::Token* until) const;
  // Reports a non-Term where jq 1.7 needs one: at `at` (null: the blocker), "`X` <what>: write
  // `<before>(X)<after>`".
  void RequireTerm(const TermCheck& check, antlr4::Token* at, const std::string& what,
                   const std::string& before, const std::string& after);
  NodePtr Suffix(JqParser::SuffixContext* ctx, NodePtr target);
  NodePtr Primary(JqParser::PrimaryContext* ctx);
  NodePtr StringField(JqParser::StringContext* ctx, NodePtr target, Range whole);
  NodePtr String(JqParser::StringContext* ctx);
  NodePtr Object(JqParser::ObjectContext* ctx);
  NodePtr ObjectValue(JqParser::ObjectValueContext* ctx);
  NodePtr ObjectValueTerm(JqParser::ObjectValueTermContext* ctx);
  void Patterns(JqParser::PatternsContext* ctx, std::vector<NodePtr>* out);
  NodePtr Pattern(JqParser::PatternContext* ctx);
  NodePtr Number(antlr4::tree::TerminalNode* token);

  ParseContext& context_;
  const Fragment& fragment_;
  antlr4::TokenStream& tokens_;
  bool embedded_ = false;
  // The open constructs of the chains being built, innermost last (Chain, for every nesting
  // level at once: a nested chain works above its enclosing chain's frames).
  std::vector<Frame> frames_;
};

}  // namespace wm::jq::internal
