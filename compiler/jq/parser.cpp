// jq front end driver: Parse() checks size, encoding and nesting with a cheap byte scan, runs the
// lexer (compiler/jq/lexer.cpp) and the ANTLR parser (SLL prediction, bounded recursion,
// diagnostics instead of recovery noise), and hands the parse tree to the AST builder. Nothing
// escapes as an exception: every failure becomes a WM100-WM103 diagnostic located through
// ParseOptions::source_map.
#include "compiler/jq/parser.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "compiler/jq/internal/ast_builder.h"
#include "compiler/jq/internal/lexer.h"
#include "compiler/jq/internal/parse_context.h"

namespace wm::jq {
namespace internal {
namespace {

using gen::JqParser;

// ----------------------------------------------------------------------------- diagnostics

Location MapOffset(const ParseOptions& options, uint32_t offset) {
  return options.source_map.Map(offset);
}

}  // namespace

void ParseContext::Error(uint32_t offset, uint32_t length, const char* rule, std::string message) {
  for (const Diagnostic& d : diagnostics_) {
    if (d.rule == rule && d.location.column == MapOffset(options_, offset).column &&
        d.location.line == MapOffset(options_, offset).line) {
      return;  // a recovery cascade at the same spot says nothing new
    }
  }
  diagnostics_.push_back(
      MakeDiagnostic(rule, MapOffset(options_, offset), std::move(message)).Length(length));
  if (options_.max_errors > 0 && static_cast<int>(diagnostics_.size()) >= options_.max_errors) {
    throw TooManyErrors{};
  }
}

// ----------------------------------------------------------------------------- fragments

Fragment::Fragment(uint32_t base, std::string_view text)
    : base_(base), length_(static_cast<uint32_t>(text.size())) {}

uint32_t Fragment::Offset(size_t index) const {
  return base_ + static_cast<uint32_t>(std::min<size_t>(index, length_));
}

Range Fragment::TokenRange(const antlr4::Token* token) const {
  if (token == nullptr) return Range{end(), end()};
  if (token->getType() == antlr4::Token::EOF) return Range{end(), end()};
  size_t start = token->getStartIndex();
  size_t stop = token->getStopIndex();
  uint32_t begin = Offset(start);
  uint32_t finish = stop + 1 >= start ? Offset(stop + 1) : begin;
  return Range{begin, std::max(begin, finish)};
}

namespace {

// ----------------------------------------------------------------------------- error messages

bool IsKeyword(size_t type) {
  switch (type) {
    case JqParser::AS: case JqParser::DEF: case JqParser::MODULE: case JqParser::IMPORT:
    case JqParser::INCLUDE: case JqParser::IF: case JqParser::THEN: case JqParser::ELSE:
    case JqParser::ELIF: case JqParser::REDUCE: case JqParser::FOREACH: case JqParser::END:
    case JqParser::AND: case JqParser::OR: case JqParser::TRY: case JqParser::CATCH:
    case JqParser::LABEL: case JqParser::BREAK:
      return true;
    default:
      return false;
  }
}

// Tokens that can start a term: when several are expected, the message says "a term".
bool StartsTerm(size_t type) {
  switch (type) {
    case JqParser::DOT: case JqParser::REC: case JqParser::FIELD: case JqParser::NUMBER:
    case JqParser::STRING: case JqParser::FORMAT: case JqParser::IDENT: case JqParser::BINDING:
    case JqParser::LPAREN: case JqParser::LBRACKET: case JqParser::LBRACE: case JqParser::REDUCE:
    case JqParser::FOREACH: case JqParser::IF: case JqParser::BREAK: case JqParser::MINUS:
    case JqParser::TRY: case JqParser::LABEL: case JqParser::DEF:
      return true;
    default:
      return false;
  }
}

// Tokens that may continue a complete term (binary operators, postfix suffixes): listed only
// when nothing more specific is expected.
bool ContinuesTerm(size_t type) {
  switch (type) {
    case JqParser::PIPE: case JqParser::COMMA: case JqParser::DEFINEDOR: case JqParser::ASSIGN:
    case JqParser::SETPIPE: case JqParser::SETPLUS: case JqParser::SETMINUS: case JqParser::SETMULT:
    case JqParser::SETDIV: case JqParser::SETMOD: case JqParser::SETDEFINEDOR: case JqParser::OR:
    case JqParser::AND: case JqParser::EQ: case JqParser::NEQ: case JqParser::LT: case JqParser::LE:
    case JqParser::GT: case JqParser::GE: case JqParser::PLUS: case JqParser::MINUS:
    case JqParser::STAR: case JqParser::SLASH: case JqParser::PERCENT: case JqParser::FIELD:
    case JqParser::DOT: case JqParser::LBRACKET: case JqParser::QUESTION: case JqParser::AS:
    case JqParser::ALTERNATION:
      return true;
    default:
      return false;
  }
}

std::string Truncate(std::string text, size_t limit) {
  if (text.size() <= limit) return text;
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

std::string ExpectedName(size_t type, bool embedded, const antlr4::dfa::Vocabulary& vocabulary) {
  switch (type) {
    case antlr4::Token::EOF: return embedded ? "')'" : "end of input";
    case JqParser::IDENT: return "an identifier";
    case JqParser::BINDING: return "a variable";
    case JqParser::STRING: return "a string";
    case JqParser::NUMBER: return "a number";
    case JqParser::FIELD: return "a field";
    case JqParser::FORMAT: return "a format";
    default: break;
  }
  std::string literal = vocabulary.getLiteralName(type);
  if (!literal.empty()) return literal;  // already quoted: "'|'"
  return vocabulary.getSymbolicName(type);
}

}  // namespace

std::string DescribeToken(antlr4::Token* token, bool embedded) {
  if (token == nullptr) return "input";
  size_t type = token->getType();
  std::string text = token->getText();
  switch (type) {
    case antlr4::Token::EOF: return embedded ? "')'" : "end of input";
    case JqParser::INVALID: {
      if (text == "\"") return "an unterminated string";
      unsigned char c = text.empty() ? 0 : static_cast<unsigned char>(text[0]);
      if (c < 0x20 || c == 0x7F) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "character U+%04X", c);
        return buf;
      }
      return "character '" + text + "'";
    }
    case JqParser::STRING: return "string " + Truncate(text, 24);
    case JqParser::NUMBER: return "number " + Truncate(text, 24);
    case JqParser::IDENT: return "identifier '" + Truncate(text, 32) + "'";
    case JqParser::FIELD: return "field '" + Truncate(text, 32) + "'";
    case JqParser::BINDING: return "variable '" + Truncate(text, 32) + "'";
    case JqParser::FORMAT: return "format '" + Truncate(text, 32) + "'";
    default: break;
  }
  if (IsKeyword(type)) return "keyword '" + text + "'";
  return "'" + text + "'";
}

namespace {

std::string JoinAlternatives(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += (i + 1 == items.size()) ? " or " : ", ";
    out += items[i];
  }
  return out;
}

std::string DescribeExpected(const antlr4::misc::IntervalSet& expected, bool embedded,
                             const antlr4::dfa::Vocabulary& vocabulary) {
  std::vector<size_t> types;
  for (ssize_t t : expected.toList()) {
    if (t == static_cast<ssize_t>(antlr4::Token::EPSILON)) continue;
    types.push_back(static_cast<size_t>(t));
  }
  size_t term_starters = 0;
  for (size_t t : types) term_starters += StartsTerm(t) ? 1 : 0;
  bool term = term_starters >= 3;
  std::vector<std::string> items;
  if (term) items.push_back("a term");
  std::vector<std::string> continuations;
  for (size_t t : types) {
    if (term && (StartsTerm(t) || t == antlr4::Token::EOF)) continue;
    if (ContinuesTerm(t)) {
      continuations.push_back(ExpectedName(t, embedded, vocabulary));
      continue;
    }
    // Directives are allowed at the start of a program, but rarely what the user meant.
    if (t == JqParser::MODULE || t == JqParser::IMPORT || t == JqParser::INCLUDE) continue;
    items.push_back(ExpectedName(t, embedded, vocabulary));
  }
  if (items.empty()) {
    if (continuations.size() >= 3) {
      items.push_back("an operator");
    } else {
      items = continuations;
    }
  }
  if (items.size() > 6) {
    items.resize(6);
    items.push_back("...");
  }
  return JoinAlternatives(items);
}

// Ends the parse of one fragment after its first syntax error.
struct StopFragment {};

// Reports a syntax error as a diagnostic ("unexpected X; expected Y") and stops the fragment.
class DiagnosticErrorStrategy : public antlr4::DefaultErrorStrategy {
 public:
  DiagnosticErrorStrategy(ParseContext& context, const Fragment& fragment, bool embedded)
      : context_(context), fragment_(fragment), embedded_(embedded) {}

 protected:
  void reportNoViableAlternative(antlr4::Parser* parser, const antlr4::NoViableAltException& e) override {
    Report(parser, e.getOffendingToken(), e.getExpectedTokens());
  }
  void reportInputMismatch(antlr4::Parser* parser, const antlr4::InputMismatchException& e) override {
    Report(parser, e.getOffendingToken(), e.getExpectedTokens());
  }
  void reportFailedPredicate(antlr4::Parser* parser, const antlr4::FailedPredicateException& e) override {
    Report(parser, e.getOffendingToken(), antlr4::misc::IntervalSet());
  }
  void reportUnwantedToken(antlr4::Parser* parser) override {
    if (inErrorRecoveryMode(parser)) return;
    beginErrorCondition(parser);
    Report(parser, parser->getCurrentToken(), getExpectedTokens(parser));
  }
  void reportMissingToken(antlr4::Parser* parser) override {
    if (inErrorRecoveryMode(parser)) return;
    beginErrorCondition(parser);
    Report(parser, parser->getCurrentToken(), getExpectedTokens(parser));
  }

 private:
  void Report(antlr4::Parser* parser, antlr4::Token* token, const antlr4::misc::IntervalSet& expected) {
    Range range = fragment_.TokenRange(token);
    std::string message;
    if (token != nullptr && token->getType() == JqParser::INVALID && token->getText() == "\"") {
      message = "unterminated string literal";
    } else {
      message = "unexpected " + DescribeToken(token, embedded_);
      std::string wanted = DescribeExpected(expected, embedded_, parser->getVocabulary());
      if (!wanted.empty()) message += "; expected " + wanted;
    }
    uint32_t length = range.end > range.begin ? range.end - range.begin : 1;
    // A string token may span lines; underline at most its first line's worth.
    context_.Error(range.begin, std::min<uint32_t>(length, 80), "WM100", std::move(message));
    // ANTLR's recovery mostly produces follow-on noise ("unexpected '}'" after a bad operand):
    // one syntax error per fragment is what the user can act on.
    throw StopFragment{};
  }

  ParseContext& context_;
  const Fragment& fragment_;
  bool embedded_;
};

// Bounds the parser's recursion: every rule invocation is a C++ call in ANTLR's recursive
// descent, and the byte pre-scan only sees brackets, not `if if if ...` or `- - - ...`.
struct DepthExceeded {
  uint32_t offset;
};

class GuardedParser : public JqParser {
 public:
  GuardedParser(antlr4::TokenStream* tokens, const Fragment& fragment, size_t limit)
      : JqParser(tokens),
        fragment_(fragment),
        limit_(limit),
        stack_before_counting_(std::min<uintptr_t>(kStackBeforeCounting, limit * kMinFrameBytes)) {
    char probe;
    stack_start_ = reinterpret_cast<uintptr_t>(&probe);
  }

  void enterRule(antlr4::ParserRuleContext* localctx, size_t state, size_t ruleIndex) override {
    // Counting frames exactly costs a walk up the context chain, and a parse listener to count
    // exits costs a virtual call per rule on every parse; so the walk only happens once this
    // parse has used a good deal of stack, which ordinary expressions never do. Throw before the
    // base class installs the context, so ANTLR's own state stays consistent.
    char probe;
    uintptr_t used = stack_start_ - reinterpret_cast<uintptr_t>(&probe);
    if (used > stack_before_counting_ && static_cast<size_t>(localctx->depth()) > limit_) {
      throw DepthExceeded{fragment_.TokenRange(_input->LT(1)).begin};
    }
    JqParser::enterRule(localctx, state, ruleIndex);
  }

 private:
  // A rule frame takes well over kMinFrameBytes of stack, so `limit` frames use more than
  // limit * kMinFrameBytes: counting starts before the limit can be reached.
  static constexpr uintptr_t kMinFrameBytes = 16;
  static constexpr uintptr_t kStackBeforeCounting = 32 * 1024;

  const Fragment& fragment_;
  size_t limit_;
  uintptr_t stack_before_counting_;
  uintptr_t stack_start_ = 0;
};

// Rule frames per bracket level (pipe -> pipeTail -> unaryExpr -> postfixTerm -> primary is 5,
// plus suffix and bracketBody for `.[...]`), with room for prefix operators (`-`, `try`) per level.
size_t RuleFrameLimit(const ParseOptions& options) {
  return static_cast<size_t>(std::max(options.max_depth, 1)) * 16 + 64;
}

std::unique_ptr<Node> RunFragment(ParseContext& context, uint32_t begin, uint32_t end, bool embedded) {
  std::string_view text = context.text().substr(begin, end - begin);
  Fragment fragment(begin, text);
  size_t errors_before = context.error_count();
  JqTokenSource source;
  if (!source.Lex(text, context.options().max_tokens)) {
    // Point at the first token past the budget: where the expression became too large.
    context.Error(begin + source.over_begin(), source.over_end() - source.over_begin(), "WM102",
                  "expression too large: more than " + std::to_string(context.options().max_tokens) +
                      " tokens");
    return nullptr;
  }
  // Every token is on the default channel: the plain buffered stream skips the per-look-ahead
  // channel filtering of CommonTokenStream.
  antlr4::BufferedTokenStream tokens(&source);
  tokens.fill();
  GuardedParser parser(&tokens, fragment, RuleFrameLimit(context.options()));
  parser.removeErrorListeners();
  parser.setErrorHandler(std::make_shared<DiagnosticErrorStrategy>(context, fragment, embedded));
  // SLL prediction only: every decision of the grammar is LL(1) or LL(2), and should one ever
  // not be, SLL resolves it after a bounded look-ahead where full-context prediction can scan to
  // the end of the input.
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);

  antlr4::ParserRuleContext* tree = nullptr;
  try {
    tree = embedded ? static_cast<antlr4::ParserRuleContext*>(parser.embeddedPipe())
                    : static_cast<antlr4::ParserRuleContext*>(parser.program());
  } catch (const StopFragment&) {
    return nullptr;
  } catch (const DepthExceeded& e) {
    context.Error(e.offset, 1, "WM101",
                  "expression nested too deeply (limit " + std::to_string(context.options().max_depth) +
                      " levels)");
    return nullptr;
  }
  if (context.error_count() != errors_before) return nullptr;
  AstBuilder builder(context, fragment, tokens);
  if (embedded) return builder.Embedded(dynamic_cast<JqParser::EmbeddedPipeContext*>(tree));
  return builder.Program(dynamic_cast<JqParser::ProgramContext*>(tree));
}

// ----------------------------------------------------------------------------- pre-scan

// Length of the UTF-8 sequence at text[i], or 0 if it is malformed (overlong forms, surrogates and
// code points past U+10FFFF included).
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  return n;
}

bool CheckEncoding(ParseContext& context) {
  std::string_view text = context.text();
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\0') {
      context.Error(static_cast<uint32_t>(i), 1, "WM103", "NUL byte in expression");
      return false;
    }
    size_t n = Utf8SequenceLength(text, i);
    if (n == 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "invalid UTF-8 byte 0x%02X in expression",
                    static_cast<unsigned char>(text[i]));
      context.Error(static_cast<uint32_t>(i), 1, "WM103", buf);
      return false;
    }
    i += n;
  }
  return true;
}

// Bracket and interpolation nesting, tracked the way the lexer sees it (strings, comments), so
// 100,000 `(` are refused in linear time before ANTLR recurses on them.
bool CheckNesting(ParseContext& context) {
  std::string_view text = context.text();
  const size_t limit = static_cast<size_t>(std::max(context.options().max_depth, 1));
  // '(' '[' '{' brackets, 'i' an interpolation, '"' a string (not a nesting level by itself).
  std::vector<char> stack;
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!stack.empty() && stack.back() == '"') {
      if (c == '\\' && i + 1 < text.size()) {
        if (text[i + 1] == '(') {
          stack.push_back('i');
          if (++depth > limit) {
            context.Error(static_cast<uint32_t>(i), 2, "WM101",
                          "expression nested too deeply (limit " + std::to_string(limit) + " levels)");
            return false;
          }
        }
        ++i;
      } else if (c == '"') {
        stack.pop_back();
      }
      continue;
    }
    switch (c) {
      case '#':
        while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        break;
      case '"':
        stack.push_back('"');
        break;
      case '(': case '[': case '{':
        stack.push_back(c);
        if (++depth > limit) {
          context.Error(static_cast<uint32_t>(i), 1, "WM101",
                        "expression nested too deeply (limit " + std::to_string(limit) + " levels)");
          return false;
        }
        break;
      case ')': case ']': case '}': {
        char open = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (!stack.empty() && (stack.back() == open || (c == ')' && stack.back() == 'i'))) {
          stack.pop_back();
          --depth;
        }
        break;
      }
      default:
        break;
    }
  }
  return true;
}

// Depth of the AST, iteratively; returns the first node deeper than `limit`, or null.
const Node* FindTooDeep(const Node& root, size_t limit) {
  std::vector<std::pair<const Node*, size_t>> pending{{&root, 1}};
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (depth > limit) return node;
    for (const auto& kid : node->kids) {
      if (kid) pending.emplace_back(kid.get(), depth + 1);
    }
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<Node> ParseEmbedded(ParseContext& context, uint32_t begin, uint32_t end) {
  return RunFragment(context, begin, end, /*embedded=*/true);
}

}  // namespace internal

ParseResult Parse(std::string_view text, const ParseOptions& options) {
  using internal::ParseContext;
  ParseResult result;
  ParseContext context(text, options);
  std::unique_ptr<Node> ast;
  try {
    if (text.size() > options.max_bytes) {
      context.Error(0, 1, "WM102",
                    "expression too large: " + std::to_string(text.size()) + " bytes (limit " +
                        std::to_string(options.max_bytes) + ")");
    } else if (internal::CheckEncoding(context) && internal::CheckNesting(context)) {
      ast = internal::RunFragment(context, 0, static_cast<uint32_t>(text.size()), false);
      if (ast && !context.failed()) {
        size_t limit = static_cast<size_t>(std::max(options.max_ast_depth, 1));
        if (const Node* deep = internal::FindTooDeep(*ast, limit)) {
          // The operator or keyword of the first node past the limit (a left-nested chain's
          // nodes all start where the expression starts).
          context.Error(deep->token.begin, deep->token.end - deep->token.begin, "WM102",
                        "expression too large: its syntax tree is more than " +
                            std::to_string(limit) + " levels deep");
        }
      }
    }
  } catch (const internal::TooManyErrors&) {
    // The cap was reached: what was collected is the answer.
  } catch (const std::bad_alloc&) {
    try {
      context.Error(0, 1, "WM102", "expression too large: out of memory while parsing");
    } catch (const internal::TooManyErrors&) {
    }
  } catch (const std::exception& e) {
    try {
      context.Error(0, 1, "WM100", std::string("internal parser error: ") + e.what());
    } catch (const internal::TooManyErrors&) {
    }
  }
  result.diagnostics = context.TakeDiagnostics();
  if (result.diagnostics.empty()) result.ast = std::move(ast);
  return result;
}

}  // namespace wm::jq
