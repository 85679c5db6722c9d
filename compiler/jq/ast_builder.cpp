// Parse tree -> AST. Besides copying structure and byte ranges it does the parts of jq's grammar
// that the ANTLR grammar leaves to it (see grammar/Jq.g4): operator precedence over the flat
// operator chains (Chain), which gives definitions and `Term as $x` / `label $x` heads the rest of
// the expression as scope, unary minus the rest of a `* / %` chain, and pairs `catch` with its
// `try`; refusing what jq 1.7 does not take as a Term (a postfix, `as`, an object value after
// `reduce`/`foreach`/`if`/`x?`); decoding string literals and parsing their interpolations.
// Recursion follows the parse tree, whose depth the parser already bounded. It reads the tree by
// token types and rule indexes rather than ANTLR's accessors (see IsTerminal): those
// dynamic_cast every child on every call.
#include "compiler/jq/internal/ast_builder.h"

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>

#include "compiler/jq/internal/string_literal.h"

namespace wm::jq::internal {

using gen::JqParser;
using NodePtr = std::unique_ptr<Node>;

namespace {

std::string WithoutSigil(const std::string& text) { return text.empty() ? text : text.substr(1); }

// Reading the parse tree without dynamic_cast (ANTLR's generated accessors cast every child on
// every call, which cost a third of the parse time). The builder only sees trees the parser built
// without errors, so a child without children is a terminal, and any other child's rule index
// says which context class it is.
bool IsTerminal(antlr4::tree::ParseTree* child) { return child->children.empty(); }

antlr4::Token* TerminalToken(antlr4::tree::ParseTree* child) {
  return static_cast<antlr4::tree::TerminalNode*>(child)->getSymbol();
}

size_t RuleOf(antlr4::tree::ParseTree* child) {
  return static_cast<antlr4::RuleContext*>(child)->getRuleIndex();
}

// How a message names what keeps a term from being a jq 1.7 Term.
std::string DescribeBlocker(const antlr4::Token* blocker) {
  switch (blocker->getType()) {
    case JqParser::REDUCE: return "`reduce`";
    case JqParser::FOREACH: return "`foreach`";
    case JqParser::IF: return "`if ... end`";
    default: return "`?`";
  }
}

bool IsExpressionPrimary(JqParser::PrimaryContext* primary) {
  size_t first = primary->getStart()->getType();
  return first == JqParser::REDUCE || first == JqParser::FOREACH || first == JqParser::IF;
}

// At most `limit` bytes of `text`, cut at a code point boundary, "..." marking a cut.
std::string Shorten(std::string_view text, size_t limit) {
  if (text.size() <= limit) return std::string(text);
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace

Range AstBuilder::Span(antlr4::ParserRuleContext* ctx) const {
  Range begin = Tok(ctx->getStart());
  antlr4::Token* stop = ctx->getStop();
  if (stop == nullptr || stop->getTokenIndex() < ctx->getStart()->getTokenIndex()) {
    return Range{begin.begin, begin.begin};
  }
  Range end = Tok(stop);
  return Range{begin.begin, std::max(begin.begin, end.end)};
}

NodePtr AstBuilder::Make(NodeKind kind, Range range, Range token) const {
  auto node = std::make_unique<Node>(kind, range);
  node->token = token;
  return node;
}

NodePtr AstBuilder::Binary(NodeKind kind, std::string op, Range token, NodePtr left,
                           NodePtr right) const {
  Range range{left->range.begin, std::max(left->range.end, right->range.end)};
  NodePtr node = Make(kind, range, token);
  node->text = std::move(op);
  node->kids.push_back(std::move(left));
  node->kids.push_back(std::move(right));
  return node;
}

void AstBuilder::Error(Range at, std::string message) {
  context_.Error(at.begin, at.end > at.begin ? at.end - at.begin : 1, "WM100", std::move(message));
}

// A head (`Term as $x`, `label $x`) must be followed by `|` and its body.
void AstBuilder::ErrorAfter(antlr4::Token* last, const std::string& what) {
  antlr4::Token* next = tokens_.get(last->getTokenIndex() + 1);
  Error(Tok(next), "unexpected " + DescribeToken(next, embedded_) + "; expected '|' after " + what);
}

// jq 1.7 lexes `$__loc__` as its own token, the source-location constant: it names no variable,
// parameter or label.
void AstBuilder::RefuseLoc(antlr4::Token* binding) {
  if (binding->getText() != "$__loc__") return;
  Error(Tok(binding), "`$__loc__` is jq's source location: it cannot name a variable, parameter "
                      "or label");
}

// ----------------------------------------------------------------------------- program

NodePtr AstBuilder::Program(JqParser::ProgramContext* ctx) {
  embedded_ = false;
  std::vector<NodePtr> directives;
  if (auto* module = ctx->moduleDirective()) {
    NodePtr node = Make(NodeKind::Module, Span(module), Tok(module->MODULE()));
    node->kids.push_back(Object(module->object()));
    directives.push_back(std::move(node));
  }
  for (auto* directive : ctx->importDirective()) {
    NodePtr node = Make(NodeKind::Import, Span(directive), Tok(directive->getStart()));
    JqParser::StringContext* path = nullptr;
    JqParser::ObjectContext* metadata = nullptr;
    if (auto* import = dynamic_cast<JqParser::ImportAsContext*>(directive)) {
      path = import->string();
      metadata = import->object();
      if (import->BINDING() != nullptr) RefuseLoc(import->BINDING()->getSymbol());
      node->params.push_back(import->IDENT() ? import->IDENT()->getText() : import->BINDING()->getText());
    } else if (auto* include = dynamic_cast<JqParser::IncludeContext*>(directive)) {
      path = include->string();
      metadata = include->object();
    }
    if (path != nullptr) {
      NodePtr literal = String(path);
      if (!literal->kids.empty() || !literal->format.empty()) {
        Error(literal->range, "an import path must be a constant string");
      }
      node->text = literal->text;
    }
    if (metadata != nullptr) node->kids.push_back(Object(metadata));
    directives.push_back(std::move(node));
  }

  NodePtr body;
  auto defs = ctx->funcDef();
  if (auto* tail = ctx->pipeTail()) {
    body = Chain(defs, tail);
  } else {
    // A library: definitions without a main expression.
    for (size_t i = defs.size(); i-- > 0;) body = FuncDef(defs[i], std::move(body));
  }

  if (directives.empty()) {
    if (!body) body = Make(NodeKind::Identity, Range{fragment_.base(), fragment_.end()},
                           Range{fragment_.base(), fragment_.end()});
    return body;
  }
  Range token = directives.front()->token;
  NodePtr program = Make(NodeKind::Program, Range{fragment_.base(), fragment_.end()}, token);
  for (auto& d : directives) program->kids.push_back(std::move(d));
  program->kids.push_back(std::move(body));
  return program;
}

NodePtr AstBuilder::Embedded(JqParser::EmbeddedPipeContext* ctx) {
  embedded_ = true;
  return Pipe(ctx->pipe());
}

// ----------------------------------------------------------------------------- chains

NodePtr AstBuilder::Pipe(JqParser::PipeContext* ctx) {
  // pipe: funcDef* pipeTail
  auto* tail = static_cast<JqParser::PipeTailContext*>(ctx->children.back());
  DefRun leading;
  for (size_t i = 0; i + 1 < ctx->children.size(); ++i) {
    leading.push_back(static_cast<JqParser::FuncDefContext*>(ctx->children[i]));
  }
  return Chain(leading, tail);
}

namespace {

// jq 1.7's precedence levels (its parser.y), lowest first. A frame takes the infix operators of
// its level and above; a definition's or a head's body takes them all, a `try` body none.
enum Level : int {
  kScopeLevel = 0,  // the body of a definition, `Term as $x |` or `label $x |`
  kPipeLevel,
  kCommaLevel,
  kAltLevel,
  kAssignLevel,
  kOrLevel,
  kAndLevel,
  kCompareLevel,
  kAddLevel,
  kMulLevel,
  kTryLevel,  // above every operator: `try a + b` is `(try a) + b`
};

enum class Assoc : uint8_t { kLeft, kRight, kNone };

struct InfixOperator {
  int level;
  Assoc assoc;
  NodeKind kind;
  bool keeps_text;  // the node's text is the operator (`+`, `==`, `|=`, ...)
};

// The binary operator a token is; false for `catch`, the one infix token that is not one.
bool InfixOf(size_t type, InfixOperator* out) {
  switch (type) {
    case JqParser::PIPE: *out = {kPipeLevel, Assoc::kRight, NodeKind::Pipe, false}; return true;
    case JqParser::COMMA: *out = {kCommaLevel, Assoc::kLeft, NodeKind::Comma, false}; return true;
    case JqParser::DEFINEDOR:
      *out = {kAltLevel, Assoc::kRight, NodeKind::Alternative, false};
      return true;
    case JqParser::ASSIGN: case JqParser::SETPIPE: case JqParser::SETPLUS:
    case JqParser::SETMINUS: case JqParser::SETMULT: case JqParser::SETDIV:
    case JqParser::SETMOD: case JqParser::SETDEFINEDOR:
      *out = {kAssignLevel, Assoc::kNone, NodeKind::Assign, true};
      return true;
    case JqParser::OR: *out = {kOrLevel, Assoc::kLeft, NodeKind::Or, false}; return true;
    case JqParser::AND: *out = {kAndLevel, Assoc::kLeft, NodeKind::And, false}; return true;
    case JqParser::EQ: case JqParser::NEQ: case JqParser::LT: case JqParser::LE:
    case JqParser::GT: case JqParser::GE:
      *out = {kCompareLevel, Assoc::kNone, NodeKind::Compare, true};
      return true;
    case JqParser::PLUS: case JqParser::MINUS:
      *out = {kAddLevel, Assoc::kLeft, NodeKind::Arith, true};
      return true;
    case JqParser::STAR: case JqParser::SLASH: case JqParser::PERCENT:
      *out = {kMulLevel, Assoc::kLeft, NodeKind::Arith, true};
      return true;
    default:
      return false;
  }
}

// The infix token at `items[pos]` of a pipeTail, or null at its end.
antlr4::Token* InfixAt(const std::vector<antlr4::tree::ParseTree*>& items, size_t pos) {
  return pos < items.size() && IsTerminal(items[pos]) ? TerminalToken(items[pos]) : nullptr;
}

}  // namespace

// Gives a pipeTail chain jq's precedence: an operator-precedence pass whose stack of open
// constructs (frames_) is explicit, so a chain of 100,000 `|` costs no C++ stack. `leading` are
// the definitions in front of the chain (their scope is all of it).
NodePtr AstBuilder::Chain(const DefRun& leading, JqParser::PipeTailContext* tail) {
  const std::vector<antlr4::tree::ParseTree*>& items = tail->children;
  if (leading.empty() && items.size() == 1) {
    // The common case: one bare term (a unaryExpr of one child is a postfixTerm without `as`;
    // `-`, `try` and `label` have two or more).
    auto* unary = static_cast<JqParser::UnaryExprContext*>(items[0]);
    if (unary->children.size() == 1) {
      return Postfix(static_cast<JqParser::PostfixTermContext*>(unary->children[0]));
    }
  }
  size_t base = frames_.size();
  frames_.emplace_back();  // kRoot: takes every operator
  for (auto* def : leading) PushDef(def);
  // Why the last `try` closed without its `catch`, for the message about a stray `catch`: an
  // operator after its term (`try a + b`), or an expression-level `?` (`try $x?`).
  bool try_closed_by_operator = false;
  TermCheck try_closed_by_question;  // its `blocker` is set when a `?` closed one
  size_t pos = 0;
  NodePtr node;
  antlr4::Token* op = nullptr;
  for (;;) {
    // Read one operand; the prefixes in front of it (definitions, `-`, `try`, heads) become frames.
    while (!node) {
      while (!IsTerminal(items[pos]) && RuleOf(items[pos]) == JqParser::RuleFuncDef) {
        PushDef(static_cast<JqParser::FuncDefContext*>(items[pos++]));
      }
      TermCheck term;
      node = Operand(static_cast<JqParser::UnaryExprContext*>(items[pos++]), items, &pos, &term);
      // jq's `Exp '?'` binds looser than `try`/`catch`: `try a?` is `(try a)?` and `try a catch
      // b?` is `(try a catch b)?`, so a `?` that ends a term closes the `try`s it directly
      // follows (keeping the `?` on the term means the same: the `try` catches everything).
      if (node && term.ends_with_expression_question) {
        bool directly = true;  // the term is the body of the `try` being closed
        while (frames_.back().kind == Frame::kTryBody || frames_.back().kind == Frame::kHandler) {
          Frame done = std::move(frames_.back());
          frames_.pop_back();
          if (done.kind == Frame::kTryBody) {
            try_closed_by_question = directly ? term : TermCheck{};
            try_closed_by_operator = false;
          }
          directly = false;
          node = Complete(std::move(done), std::move(node), nullptr);
        }
      }
    }
    // Fold finished frames into `node` until one takes the next infix token: an operator of its
    // level or above, or `catch` for an open `try` body. The root takes every operator.
    op = InfixAt(items, pos);
    InfixOperator infix;
    bool is_operator = op != nullptr && InfixOf(op->getType(), &infix);
    for (;;) {
      const Frame& top = frames_.back();
      if (is_operator ? infix.level >= top.min_level
                      : op != nullptr && top.kind == Frame::kTryBody) {
        break;
      }
      if (frames_.size() == base + 1) break;
      Frame done = std::move(frames_.back());
      frames_.pop_back();
      if (done.kind == Frame::kTryBody && is_operator) {
        try_closed_by_operator = true;
        try_closed_by_question.blocker = nullptr;
      }
      node = Complete(std::move(done), std::move(node), op);
    }
    if (op == nullptr || (!is_operator && frames_.back().kind != Frame::kTryBody)) break;
    ++pos;
    if (is_operator) {
      Frame right;
      right.kind = Frame::kRight;
      right.min_level = infix.assoc == Assoc::kRight ? infix.level : infix.level + 1;
      right.node = std::move(node);
      right.op = op;
      frames_.push_back(std::move(right));
    } else {
      // `catch`: the `try` body is complete; the handler is the next operand, with whatever the
      // definitions in front of it take.
      Frame& top = frames_.back();
      top.node->kids.push_back(std::move(node));
      top.kind = Frame::kHandler;
      top.min_level = kTryLevel + 1;
    }
    node = nullptr;
  }
  if (op != nullptr && try_closed_by_question.blocker != nullptr) {
    // A `catch` with no open `try`: the root takes every operator, so nothing else is left.
    const TermCheck& term = try_closed_by_question;
    Error(Tok(op), "`catch` after `try x?`: jq reads `try x?` as `(try x)?`, which leaves `catch` "
                   "without its `try`: write `try (" + Abbreviate(term, term.stop) + ") catch ...`");
  } else if (op != nullptr) {
    std::string message = "unexpected keyword 'catch': there is no open `try` for it";
    if (try_closed_by_operator) {
      message += " (`try` binds only the term after it: `try a + b` is `(try a) + b`; write "
                 "`try (a + b) catch ...`)";
    }
    Error(Tok(op), message);
  }
  frames_.resize(base);
  return node;
}

void AstBuilder::PushDef(JqParser::FuncDefContext* def) {
  Frame frame;
  frame.kind = Frame::kDef;
  frame.node = FuncDef(def, nullptr);  // its body now, so diagnostics come in reading order
  frames_.push_back(std::move(frame));
}

// Reads one operand of a chain: pushes a frame for each `-` and `try` in front of it (and the
// definitions after them), and returns the term; or, for a head (`Term as $x`, `label $x`)
// followed by `|`, pushes the head's frame, takes the `|` and returns null: the head's body starts
// with the next operand. `term` receives the TermCheck of a returned bare term.
NodePtr AstBuilder::Operand(JqParser::UnaryExprContext* unary,
                            const std::vector<antlr4::tree::ParseTree*>& items, size_t* pos,
                            TermCheck* term) {
  for (;;) {
    antlr4::Token* first = unary->getStart();
    size_t type = first->getType();
    if (type == JqParser::MINUS || type == JqParser::TRY) {
      // `-` funcDef* unaryExpr | `try` funcDef* unaryExpr
      Frame frame;
      bool is_try = type == JqParser::TRY;
      frame.kind = is_try ? Frame::kTryBody : Frame::kNeg;
      // jq gives unary minus the level of binary minus: `-a * b` is `-(a * b)`, `-a + b` is
      // `(-a) + b`.
      frame.min_level = is_try ? kTryLevel : kMulLevel;
      frame.node = Make(is_try ? NodeKind::TryCatch : NodeKind::Neg, Tok(first), Tok(first));
      frames_.push_back(std::move(frame));
      size_t last = unary->children.size() - 1;
      for (size_t i = 1; i < last; ++i) {
        PushDef(static_cast<JqParser::FuncDefContext*>(unary->children[i]));
      }
      unary = static_cast<JqParser::UnaryExprContext*>(unary->children[last]);
      continue;
    }
    NodePtr head;
    std::string what;
    if (type == JqParser::LABEL) {
      head = Make(NodeKind::Label, Span(unary), Tok(first));
      antlr4::Token* name = TerminalToken(unary->children[1]);
      RefuseLoc(name);
      head->text = WithoutSigil(name->getText());
      what = "'label $" + head->text + "'";
    } else {
      // postfixTerm (`as` patterns)?
      TermCheck check;
      NodePtr source = Postfix(static_cast<JqParser::PostfixTermContext*>(unary->children[0]), &check);
      if (unary->children.size() == 1) {
        *term = check;
        return source;
      }
      antlr4::Token* as = TerminalToken(unary->children[1]);
      RequireTerm(check, as, "needs parentheses before `as`", "", " as ...");
      head = Make(NodeKind::Bind, Range{source->range.begin, Span(unary).end}, Tok(as));
      head->kids.push_back(std::move(source));
      Patterns(static_cast<JqParser::PatternsContext*>(unary->children[2]), &head->kids);
      what = "the pattern of 'as'";
    }
    // A head must be followed by `|` and its body.
    antlr4::Token* next = InfixAt(items, *pos);
    if (next == nullptr || next->getType() != JqParser::PIPE) {
      ErrorAfter(unary->getStop(), what);
      return head;
    }
    ++*pos;
    Frame frame;
    frame.kind = Frame::kHead;
    frame.node = std::move(head);
    frames_.push_back(std::move(frame));
    return nullptr;
  }
}

// Completes the construct of `frame` with `right`, the expression on its right; `next` is the
// infix token that ended it (null at the end of the chain).
NodePtr AstBuilder::Complete(Frame frame, NodePtr right, antlr4::Token* next) {
  if (frame.kind == Frame::kRight) {
    InfixOperator infix, following;
    InfixOf(frame.op->getType(), &infix);
    if (infix.assoc == Assoc::kNone && next != nullptr && InfixOf(next->getType(), &following) &&
        following.level == infix.level) {
      Error(Tok(next), "unexpected '" + next->getText() + "': jq's " +
                           (infix.kind == NodeKind::Assign ? "assignments" : "comparisons") +
                           " do not chain; parenthesise one side (`(a " + frame.op->getText() +
                           " b) " + next->getText() + " c`)");
    }
    return Binary(infix.kind, infix.keeps_text ? frame.op->getText() : std::string(),
                  Tok(frame.op), std::move(frame.node), std::move(right));
  }
  Node* node = frame.node.get();
  node->range.end = std::max(node->range.end, right->range.end);
  switch (frame.kind) {
    case Frame::kDef:
      node->kids[1] = std::move(right);
      break;
    case Frame::kTryBody:
      node->kids.push_back(std::move(right));
      node->kids.push_back(nullptr);
      break;
    default:  // kHead, kNeg, kHandler: the last kid
      node->kids.push_back(std::move(right));
      break;
  }
  return std::move(frame.node);
}

NodePtr AstBuilder::FuncDef(JqParser::FuncDefContext* ctx, NodePtr rest) {
  Range span = Span(ctx);
  if (rest) span.end = std::max(span.end, rest->range.end);
  NodePtr node = Make(NodeKind::FuncDef, span, Tok(ctx->IDENT()));
  node->text = ctx->IDENT()->getText();
  for (auto* param : ctx->param()) {
    RefuseLoc(param->getStart());
    node->params.push_back(param->getText());
  }
  node->kids.push_back(Pipe(ctx->pipe()));
  node->kids.push_back(std::move(rest));
  return node;
}

std::string AstBuilder::Abbreviate(const TermCheck& check, antlr4::Token* until) const {
  std::string question = until->getType() == JqParser::QUESTION ? "?" : "";
  switch (check.blocker->getType()) {
    case JqParser::REDUCE: return "reduce ..." + question;
    case JqParser::FOREACH: return "foreach ..." + question;
    case JqParser::IF: return "if ... end" + question;
    default: break;
  }
  uint32_t begin = Tok(check.start).begin;
  uint32_t end = Tok(until).end;
  std::string_view text = context_.text().substr(begin, end > begin ? end - begin : 0);
  if (text.size() <= 24) return std::string(text);
  return Shorten(text.substr(0, text.size() - 1), 20) + "?";
}

void AstBuilder::RequireTerm(const TermCheck& check, antlr4::Token* at, const std::string& what,
                             const std::string& before, const std::string& after) {
  if (check.blocker == nullptr || check.reported) return;
  Error(Tok(at != nullptr ? at : check.blocker),
        DescribeBlocker(check.blocker) + " " + what + ": write `" + before + "(" +
            Abbreviate(check, check.stop) + ")" + after + "`");
}

// ----------------------------------------------------------------------------- terms

// Builds the term and checks it against jq 1.7, where `reduce`, `foreach`, `if ... end` and
// `x?` (unless the `?` directly follows `.a`, `."a"` or `[...]`) are whole expressions: a postfix
// after them needs parentheses. `check` says whether the result is a Term (see TermCheck).
NodePtr AstBuilder::Postfix(JqParser::PostfixTermContext* ctx, TermCheck* check) {
  TermCheck local;
  TermCheck& term = check != nullptr ? *check : local;
  term = TermCheck{};
  term.start = ctx->getStart();
  term.stop = ctx->getStop();
  // primary suffix*
  auto* primary = static_cast<JqParser::PrimaryContext*>(ctx->children[0]);
  NodePtr node = Primary(primary);
  if (IsExpressionPrimary(primary)) term.blocker = primary->getStart();
  // jq's `FIELD '?'`, `'.' String '?'`, `Term '[' ... ']' '?'`: this `?` belongs to the term.
  size_t first = primary->getStart()->getType();
  bool question_binds =
      first == JqParser::FIELD || (first == JqParser::DOT && primary->children.size() == 2);
  antlr4::Token* previous = primary->getStop();
  for (size_t k = 1; k < ctx->children.size(); ++k) {
    auto* suffix = static_cast<JqParser::SuffixContext*>(ctx->children[k]);
    size_t suffix_first = suffix->getStart()->getType();
    if (suffix_first == JqParser::QUESTION) {
      term.ends_with_expression_question = !(question_binds && term.blocker == nullptr);
      if (term.ends_with_expression_question && term.blocker == nullptr) {
        term.blocker = suffix->getStart();
      }
      question_binds = false;
    } else {
      term.ends_with_expression_question = false;
      if (term.blocker != nullptr && !term.reported) {
        term.reported = true;
        const char* what = "index";
        std::string written = suffix->getText();
        if (suffix_first == JqParser::FIELD ||
            (suffix_first == JqParser::DOT && !IsTerminal(suffix->children[1]))) {
          what = "field";
          if (written.size() > 16) written = Shorten(written, 16);
        } else {
          auto* body = suffix->bracketBody();
          what = body == nullptr ? "iteration" : body->COLON() != nullptr ? "slice" : "index";
          if (written.size() > 16) written = std::string(suffix->DOT() ? "." : "") + "[...]";
        }
        Error(Tok(suffix->getStart()), std::string("postfix ") + what + " after " +
                                           DescribeBlocker(term.blocker) +
                                           " needs parentheses: write `(" +
                                           Abbreviate(term, previous) + ")" + written + "`");
      }
      question_binds = true;
    }
    previous = suffix->getStop();
    node = Suffix(suffix, std::move(node));
  }
  return node;
}

NodePtr AstBuilder::Suffix(JqParser::SuffixContext* ctx, NodePtr target) {
  Range span = Span(ctx);
  Range range{target->range.begin, span.end};
  // `.` followed by a suffix is written as a null target, as in `.foo` and `.[0]`.
  if (target->kind == NodeKind::Identity) target.reset();
  // FIELD | DOT string | DOT? '[' bracketBody? ']' | '?', told by the first tokens.
  size_t first = ctx->getStart()->getType();
  if (first == JqParser::FIELD) {
    antlr4::Token* field = ctx->getStart();
    NodePtr node = Make(NodeKind::Field, range, Tok(field));
    node->text = field->getText().substr(1);
    node->kids.push_back(std::move(target));
    return node;
  }
  if (first == JqParser::DOT && !IsTerminal(ctx->children[1])) {
    return StringField(static_cast<JqParser::StringContext*>(ctx->children[1]), std::move(target), range);
  }
  if (first != JqParser::QUESTION) {
    JqParser::BracketBodyContext* body = nullptr;
    for (auto* child : ctx->children) {
      if (!IsTerminal(child)) body = static_cast<JqParser::BracketBodyContext*>(child);
    }
    if (body == nullptr) {
      NodePtr node = Make(NodeKind::Iterate, range, span);
      node->kids.push_back(std::move(target));
      return node;
    }
    auto pipes = body->pipe();
    if (body->COLON() == nullptr) {
      NodePtr node = Make(NodeKind::Index, range, span);
      node->kids.push_back(std::move(target));
      node->kids.push_back(Pipe(pipes[0]));
      return node;
    }
    NodePtr node = Make(NodeKind::Slice, range, span);
    node->kids.push_back(std::move(target));
    bool leading_colon = dynamic_cast<antlr4::tree::TerminalNode*>(body->children[0]) != nullptr;
    if (leading_colon) {
      node->kids.push_back(nullptr);
      node->kids.push_back(Pipe(pipes[0]));
    } else {
      node->kids.push_back(Pipe(pipes[0]));
      node->kids.push_back(pipes.size() > 1 ? Pipe(pipes[1]) : nullptr);
    }
    return node;
  }
  NodePtr node = Make(NodeKind::Optional, range, Tok(ctx->getStart()));
  node->kids.push_back(std::move(target));
  return node;
}

// `."name"` is a Field; an interpolated or formatted key is an Index with a String key.
NodePtr AstBuilder::StringField(JqParser::StringContext* ctx, NodePtr target, Range whole) {
  NodePtr key = String(ctx);
  if (key->kids.empty() && key->format.empty()) {
    NodePtr node = Make(NodeKind::Field, whole, key->range);
    node->text = key->text;
    node->kids.push_back(std::move(target));
    return node;
  }
  NodePtr node = Make(NodeKind::Index, whole, key->range);
  node->kids.push_back(std::move(target));
  node->kids.push_back(std::move(key));
  return node;
}

NodePtr AstBuilder::Primary(JqParser::PrimaryContext* ctx) {
  Range span = Span(ctx);
  // The alternative is told by the first token (and, for `.` and `@x`, by what follows).
  antlr4::Token* start = ctx->getStart();
  switch (start->getType()) {
    case JqParser::FIELD: {
      NodePtr node = Make(NodeKind::Field, span, span);
      node->text = start->getText().substr(1);
      node->kids.push_back(nullptr);
      return node;
    }
    case JqParser::DOT:
      if (ctx->children.size() == 2) {
        return StringField(static_cast<JqParser::StringContext*>(ctx->children[1]), nullptr, span);
      }
      return Make(NodeKind::Identity, span, span);
    case JqParser::REC: return Make(NodeKind::RecurseDefault, span, span);
    case JqParser::NUMBER: return Number(static_cast<antlr4::tree::TerminalNode*>(ctx->children[0]));
    case JqParser::STRING: return String(static_cast<JqParser::StringContext*>(ctx->children[0]));
    case JqParser::FORMAT:
      if (IsTerminal(ctx->children[0])) {
        NodePtr node = Make(NodeKind::Format, span, span);
        node->text = start->getText().substr(1);
        return node;
      }
      return String(static_cast<JqParser::StringContext*>(ctx->children[0]));
    case JqParser::LPAREN: {
      NodePtr node = Make(NodeKind::Paren, span, Tok(start));
      node->kids.push_back(Pipe(static_cast<JqParser::PipeContext*>(ctx->children[1])));
      return node;
    }
    case JqParser::LBRACKET: {
      NodePtr node = Make(NodeKind::Array, span, Tok(start));
      if (ctx->children.size() == 3) {
        node->kids.push_back(Pipe(static_cast<JqParser::PipeContext*>(ctx->children[1])));
      }
      return node;
    }
    case JqParser::LBRACE: return Object(static_cast<JqParser::ObjectContext*>(ctx->children[0]));
    case JqParser::BINDING: {
      NodePtr node = Make(NodeKind::Variable, span, span);
      node->text = WithoutSigil(start->getText());
      return node;
    }
    default:
      break;
  }
  if (start->getType() == JqParser::IDENT) {
    // IDENT ('(' pipe (';' pipe)* ')')?
    std::string name = start->getText();
    if (ctx->children.size() == 1) {
      // jq reads these constants as identifiers too; they cannot be redefined.
      if (name == "null") return Make(NodeKind::Null, span, span);
      if (name == "true") return Make(NodeKind::True, span, span);
      if (name == "false") return Make(NodeKind::False, span, span);
    }
    NodePtr node = Make(NodeKind::Call, span, Tok(start));
    node->text = std::move(name);
    for (size_t i = 2; i < ctx->children.size(); i += 2) {
      node->kids.push_back(Pipe(static_cast<JqParser::PipeContext*>(ctx->children[i])));
    }
    return node;
  }
  if (start->getType() == JqParser::REDUCE) {
    auto* reduce = ctx;
    NodePtr node = Make(NodeKind::Reduce, span, Tok(reduce->REDUCE()));
    TermCheck source;
    node->kids.push_back(Postfix(reduce->postfixTerm(), &source));
    RequireTerm(source, nullptr, "needs parentheses as the source of `reduce`", "reduce ",
                " as ...");
    std::vector<NodePtr> patterns;
    Patterns(reduce->patterns(), &patterns);
    node->kids.push_back(std::move(patterns[0]));
    node->kids.push_back(Pipe(reduce->pipe(0)));
    node->kids.push_back(Pipe(reduce->pipe(1)));
    for (size_t i = 1; i < patterns.size(); ++i) node->kids.push_back(std::move(patterns[i]));
    return node;
  }
  if (start->getType() == JqParser::FOREACH) {
    auto* foreach = ctx;
    NodePtr node = Make(NodeKind::Foreach, span, Tok(foreach->FOREACH()));
    TermCheck source;
    node->kids.push_back(Postfix(foreach->postfixTerm(), &source));
    RequireTerm(source, nullptr, "needs parentheses as the source of `foreach`", "foreach ",
                " as ...");
    std::vector<NodePtr> patterns;
    Patterns(foreach->patterns(), &patterns);
    node->kids.push_back(std::move(patterns[0]));
    auto pipes = foreach->pipe();
    node->kids.push_back(Pipe(pipes[0]));
    node->kids.push_back(Pipe(pipes[1]));
    node->kids.push_back(pipes.size() > 2 ? Pipe(pipes[2]) : nullptr);
    for (size_t i = 1; i < patterns.size(); ++i) node->kids.push_back(std::move(patterns[i]));
    return node;
  }
  if (start->getType() == JqParser::IF) {
    auto* if_ = ctx;
    NodePtr node = Make(NodeKind::If, span, Tok(if_->IF()));
    for (auto* part : if_->pipe()) node->kids.push_back(Pipe(part));
    if (if_->ELSE() == nullptr) node->kids.push_back(nullptr);
    return node;
  }
  auto* brk = ctx;
  // Diagnostics about the label (WM112: no such label) point at its name.
  NodePtr node = Make(NodeKind::Break, span, Tok(brk->BINDING()));
  RefuseLoc(brk->BINDING()->getSymbol());
  node->text = WithoutSigil(brk->BINDING()->getText());
  return node;
}

NodePtr AstBuilder::Number(antlr4::tree::TerminalNode* token) {
  Range range = Tok(token);
  NodePtr node = Make(NodeKind::Number, range, range);
  node->text = token->getText();
  errno = 0;
  double value = std::strtod(node->text.c_str(), nullptr);
  // jq 1.7 keeps literals beyond double range as written and clamps them when computing.
  if (std::isinf(value)) value = value > 0 ? DBL_MAX : -DBL_MAX;
  node->number = value;
  return node;
}

NodePtr AstBuilder::String(JqParser::StringContext* ctx) {
  Range span = Span(ctx);
  Range literal_range = Tok(ctx->STRING());
  NodePtr node = Make(NodeKind::String, span, literal_range);
  if (ctx->FORMAT() != nullptr) node->format = ctx->FORMAT()->getText();
  std::string_view literal =
      context_.text().substr(literal_range.begin, literal_range.end - literal_range.begin);
  SplitString split = SplitStringLiteral(literal);
  for (const StringError& error : split.errors) {
    context_.Error(literal_range.begin + error.offset, error.length, "WM100", error.message);
  }
  bool interpolated = false;
  for (const StringPiece& piece : split.pieces) interpolated = interpolated || piece.interpolation;
  if (!interpolated) {
    for (const StringPiece& piece : split.pieces) node->text += piece.text;
    return node;
  }
  for (StringPiece& piece : split.pieces) {
    Range range{literal_range.begin + piece.begin, literal_range.begin + piece.end};
    if (!piece.interpolation) {
      NodePtr part = Make(NodeKind::String, range, range);
      part->text = std::move(piece.text);
      node->kids.push_back(std::move(part));
      continue;
    }
    NodePtr part = ParseEmbedded(context_, range.begin, range.end);
    // On failure the errors are recorded; a placeholder keeps the tree well-formed.
    if (!part) part = Make(NodeKind::Identity, range, range);
    if (part->kind == NodeKind::String && part->kids.empty() && part->format.empty()) {
      // `\("x")` must not read as the literal part "x": keep it apart in a Paren.
      NodePtr paren = Make(NodeKind::Paren, range, range);
      paren->kids.push_back(std::move(part));
      part = std::move(paren);
    }
    node->kids.push_back(std::move(part));
  }
  return node;
}

// ----------------------------------------------------------------------------- objects

NodePtr AstBuilder::Object(JqParser::ObjectContext* ctx) {
  NodePtr node = Make(NodeKind::Object, Span(ctx), Tok(ctx->LBRACE()));
  for (auto* entry : ctx->objectEntry()) {
    auto* key_ctx = entry->objectKey();
    Range key_span = Span(key_ctx);
    NodePtr key;
    if (key_ctx->IDENT() != nullptr || key_ctx->keyword() != nullptr) {
      key = Make(NodeKind::String, key_span, key_span);
      key->text = key_ctx->getText();
    } else if (key_ctx->BINDING() != nullptr) {
      if (entry->COLON() != nullptr && key_ctx->BINDING()->getText() == "$__loc__") {
        Error(key_span, "`$__loc__` takes no value in an object: write `{$__loc__}` for "
                        "{\"__loc__\": ...} or `{\"__loc__\": value}`");
      }
      key = Make(NodeKind::Variable, key_span, key_span);
      key->text = WithoutSigil(key_ctx->BINDING()->getText());
    } else if (key_ctx->string() != nullptr) {
      key = String(key_ctx->string());
    } else {
      key = Make(NodeKind::Paren, key_span, Tok(key_ctx->LPAREN()));
      key->kids.push_back(Pipe(key_ctx->pipe()));
      if (entry->COLON() == nullptr) {
        Error(key_span, "an object key in parentheses needs a value: write `(key): value`");
      }
    }
    NodePtr entry_node = Make(NodeKind::ObjectEntry, Span(entry), key_span);
    entry_node->kids.push_back(std::move(key));
    entry_node->kids.push_back(entry->objectValue() ? ObjectValue(entry->objectValue()) : nullptr);
    node->kids.push_back(std::move(entry_node));
  }
  return node;
}

NodePtr AstBuilder::ObjectValue(JqParser::ObjectValueContext* ctx) {
  // objectValueTerm ('|' objectValueTerm)*: built left to right (diagnostics in reading order),
  // folded from the right (`|` is right-associative).
  std::vector<NodePtr> terms;
  std::vector<antlr4::Token*> pipes;
  for (auto* child : ctx->children) {
    if (IsTerminal(child)) {
      pipes.push_back(TerminalToken(child));
    } else {
      terms.push_back(ObjectValueTerm(static_cast<JqParser::ObjectValueTermContext*>(child)));
    }
  }
  NodePtr node = std::move(terms.back());
  for (size_t i = terms.size() - 1; i-- > 0;) {
    node = Binary(NodeKind::Pipe, "", Tok(pipes[i]), std::move(terms[i]), std::move(node));
  }
  return node;
}

NodePtr AstBuilder::ObjectValueTerm(JqParser::ObjectValueTermContext* ctx) {
  if (ctx->MINUS() != nullptr) {
    NodePtr node = Make(NodeKind::Neg, Span(ctx), Tok(ctx->MINUS()));
    node->kids.push_back(ObjectValueTerm(ctx->objectValueTerm()));
    return node;
  }
  // jq's ExpD: only Terms (`{a: (if . then 1 end)}`).
  TermCheck check;
  NodePtr node = Postfix(ctx->postfixTerm(), &check);
  RequireTerm(check, nullptr, "needs parentheses in an object value", "", "");
  return node;
}

// ----------------------------------------------------------------------------- patterns

void AstBuilder::Patterns(JqParser::PatternsContext* ctx, std::vector<NodePtr>* out) {
  for (auto* pattern : ctx->pattern()) out->push_back(Pattern(pattern));
}

NodePtr AstBuilder::Pattern(JqParser::PatternContext* ctx) {
  Range span = Span(ctx);
  if (auto* variable = dynamic_cast<JqParser::VariablePatternContext*>(ctx)) {
    RefuseLoc(variable->BINDING()->getSymbol());
    NodePtr node = Make(NodeKind::PatternVar, span, span);
    node->text = WithoutSigil(variable->BINDING()->getText());
    return node;
  }
  if (auto* array = dynamic_cast<JqParser::ArrayPatternContext*>(ctx)) {
    NodePtr node = Make(NodeKind::PatternArray, span, Tok(array->LBRACKET()));
    for (auto* element : array->pattern()) node->kids.push_back(Pattern(element));
    return node;
  }
  auto* object = dynamic_cast<JqParser::ObjectPatternContext*>(ctx);
  NodePtr node = Make(NodeKind::PatternObject, span, Tok(object->LBRACE()));
  for (auto* entry : object->patternEntry()) {
    NodePtr key;
    Range key_span = Tok(entry->getStart());
    if (entry->BINDING() != nullptr) {
      RefuseLoc(entry->BINDING()->getSymbol());
      key = Make(NodeKind::Variable, key_span, key_span);
      key->text = WithoutSigil(entry->BINDING()->getText());
    } else if (entry->IDENT() != nullptr || entry->keyword() != nullptr) {
      key = Make(NodeKind::String, key_span, key_span);
      key->text = entry->IDENT() ? entry->IDENT()->getText() : entry->keyword()->getText();
    } else if (entry->string() != nullptr) {
      key = String(entry->string());
    } else {
      Range paren{Tok(entry->LPAREN()).begin, Tok(entry->RPAREN()).end};
      key = Make(NodeKind::Paren, paren, Tok(entry->LPAREN()));
      key->kids.push_back(Pipe(entry->pipe()));
    }
    NodePtr entry_node = Make(NodeKind::PatternEntry, Span(entry), key->range);
    entry_node->kids.push_back(std::move(key));
    entry_node->kids.push_back(entry->pattern() ? Pattern(entry->pattern()) : nullptr);
    node->kids.push_back(std::move(entry_node));
  }
  return node;
}

}  // namespace wm::jq::internal
