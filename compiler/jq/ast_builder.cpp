// Parse tree -> AST. Besides copying structure and byte ranges it does the parts of jq's grammar
// that the ANTLR grammar leaves to it (see grammar/Jq.g4): folding right-associative `|` and `//`,
// giving `Term as $x` / `label $x` heads the rest of their pipe as body, widening a definition
// written after an operator to the rest of the expression, re-associating unary minus over
// `* / %`, refusing what jq 1.7 does not take as a Term (a postfix, `as`, an object value after
// `reduce`/`foreach`/`if`/`x?`), decoding string literals and parsing their interpolations.
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

struct AstBuilder::Segment {
  std::vector<JqParser::FuncDefContext*> defs;  // definitions opening the segment
  JqParser::CommaExprContext* expr = nullptr;
  antlr4::Token* pipe_before = nullptr;         // the `|` in front of it (null for the first)
};

namespace {

// The child through which a construct extends to the right: where a `Term as $x` head must sit
// for the rest of the pipe to become its body.
Node* RightKid(Node* node) {
  switch (node->kind) {
    case NodeKind::Pipe: case NodeKind::Comma: case NodeKind::Alternative: case NodeKind::Assign:
    case NodeKind::Or: case NodeKind::And: case NodeKind::Compare: case NodeKind::Arith:
      return node->kids.size() == 2 ? node->kids[1].get() : nullptr;
    case NodeKind::Neg:
      return node->kids.empty() ? nullptr : node->kids[0].get();
    case NodeKind::TryCatch:
      if (node->kids.size() == 2 && node->kids[1]) return node->kids[1].get();
      return node->kids.empty() ? nullptr : node->kids[0].get();
    case NodeKind::FuncDef:
      return node->kids.size() == 2 ? node->kids[1].get() : nullptr;
    default:
      return nullptr;
  }
}

bool OnRightSpine(Node* root, const Node* target) {
  for (Node* n = root; n != nullptr; n = RightKid(n)) {
    if (n == target) return true;
  }
  return false;
}

std::string WithoutSigil(const std::string& text) { return text.empty() ? text : text.substr(1); }

// The operand of `node` whose source text holds byte `at` (its last kid starting at or before it).
Node* KidHolding(Node* node, uint32_t at, size_t* index) {
  Node* found = nullptr;
  for (size_t i = 0; i < node->kids.size(); ++i) {
    Node* kid = node->kids[i].get();
    if (kid != nullptr && kid->range.begin <= at) {
      found = kid;
      *index = i;
    }
  }
  return found;
}

bool IsBinary(NodeKind kind) {
  switch (kind) {
    case NodeKind::Comma: case NodeKind::Alternative: case NodeKind::Assign: case NodeKind::Or:
    case NodeKind::And: case NodeKind::Compare: case NodeKind::Arith:
      return true;
    default:
      return false;
  }
}

using DefRun = std::vector<JqParser::FuncDefContext*>;

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

bool IsOperatorRule(size_t rule) {
  return rule == JqParser::RuleAssignOp || rule == JqParser::RuleCompareOp ||
         rule == JqParser::RuleAddOp || rule == JqParser::RuleMulOp;
}

// Splits the children of an `x (op def* x)*` rule into operands, operator tokens and the
// definitions in front of each operand, in one pass.
template <typename Operand>
void SplitChain(antlr4::ParserRuleContext* ctx, std::vector<Operand*>* operands,
                std::vector<antlr4::Token*>* ops, std::vector<DefRun>* defs = nullptr) {
  DefRun pending;
  for (auto* child : ctx->children) {
    if (IsTerminal(child)) {
      ops->push_back(TerminalToken(child));
      continue;
    }
    auto* rule = static_cast<antlr4::ParserRuleContext*>(child);
    size_t index = rule->getRuleIndex();
    if (index == JqParser::RuleFuncDef) {
      pending.push_back(static_cast<JqParser::FuncDefContext*>(rule));
    } else if (IsOperatorRule(index)) {
      ops->push_back(rule->getStart());
    } else {
      operands->push_back(static_cast<Operand*>(rule));
      if (defs != nullptr) defs->push_back(std::move(pending));
      pending.clear();
    }
  }
}

// The operand of a chain rule with a single child (no operator): the common case, at every level.
template <typename Operand>
Operand* OnlyOperand(antlr4::ParserRuleContext* ctx) {
  return ctx->children.size() == 1 ? static_cast<Operand*>(ctx->children[0]) : nullptr;
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

// A head (`Term as $x`, `label $x`) not followed by `|` and its body.
void AstBuilder::ReportHeadWithoutBody(const std::pair<Node*, size_t>& head) {
  std::string what = head.first->kind == NodeKind::Label ? "'label $" + head.first->text + "'"
                                                         : "the pattern of 'as'";
  ErrorAfter(tokens_.get(head.second), what);
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
    std::vector<Segment> segments(1);
    segments[0].defs = defs;
    AddSegments(tail, &segments);
    body = Segments(std::move(segments));
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

// ----------------------------------------------------------------------------- pipes

NodePtr AstBuilder::Pipe(JqParser::PipeContext* ctx) {
  // pipe: funcDef* pipeTail; a pipeTail of one commaExpr is the common case.
  auto* tail = static_cast<JqParser::PipeTailContext*>(ctx->children.back());
  if (ctx->children.size() == 1 && tail->children.size() == 1) {
    // One segment: what Segments() does for its last one, without its bookkeeping. Open
    // definitions scope over the segment; a head (`. as $x`, `label $x`) has no `|` body.
    size_t mark = heads_.size();
    size_t defs_mark = open_defs_.size();
    NodePtr node = Comma(static_cast<JqParser::CommaExprContext*>(tail->children[0]));
    if (open_defs_.size() > defs_mark) {
      std::vector<Node*> defs(open_defs_.begin() + defs_mark, open_defs_.end());
      open_defs_.resize(defs_mark);
      for (Node* def : defs) ScopeOpenDef(&node, def);
    }
    for (size_t j = mark; j < heads_.size(); ++j) ReportHeadWithoutBody(heads_[j]);
    heads_.resize(mark);
    return node;
  }
  std::vector<Segment> segments(1);
  for (size_t i = 0; i + 1 < ctx->children.size(); ++i) {
    segments[0].defs.push_back(static_cast<JqParser::FuncDefContext*>(ctx->children[i]));
  }
  AddSegments(tail, &segments);
  return Segments(std::move(segments));
}

// pipeTail: commaExpr ('|' funcDef* commaExpr)*, appended to `segments` (whose last one is open).
void AstBuilder::AddSegments(JqParser::PipeTailContext* tail, std::vector<Segment>* segments) {
  for (auto* child : tail->children) {
    if (IsTerminal(child)) {
      segments->back().pipe_before = TerminalToken(child);
    } else if (RuleOf(child) == JqParser::RuleFuncDef) {
      segments->back().defs.push_back(static_cast<JqParser::FuncDefContext*>(child));
    } else {
      segments->back().expr = static_cast<JqParser::CommaExprContext*>(child);
      segments->emplace_back();
    }
  }
  segments->pop_back();
}

NodePtr AstBuilder::Segments(std::vector<Segment> segments) {
  // Build every segment left to right (so errors come out in reading order), then fold from the
  // right: `|` is right-associative, definitions scope over the rest of the pipe, and an open head
  // takes the rest of the pipe as its body.
  std::vector<NodePtr> nodes;
  std::vector<Node*> open_heads;
  std::vector<Node*> open_defs;
  for (size_t i = 0; i < segments.size(); ++i) {
    size_t mark = heads_.size();
    size_t defs_mark = open_defs_.size();
    nodes.push_back(Comma(segments[i].expr));
    std::vector<Node*> my_defs(open_defs_.begin() + defs_mark, open_defs_.end());
    open_defs_.resize(defs_mark);
    for (Node* def : my_defs) ScopeOpenDef(&nodes.back(), def);
    // The deepest definition on the right spine also scopes over the rest of the pipe.
    Node* open_def = nullptr;
    if (!my_defs.empty()) {
      for (Node* n = nodes.back().get(); n != nullptr; n = RightKid(n)) {
        if (n->kind == NodeKind::FuncDef) open_def = n;
      }
    }
    open_defs.push_back(open_def);
    std::vector<std::pair<Node*, size_t>> mine(heads_.begin() + mark, heads_.end());
    heads_.resize(mark);
    Node* open = nullptr;
    for (size_t j = 0; j < mine.size(); ++j) {
      bool last_head = j + 1 == mine.size();
      if (!last_head || !OnRightSpine(nodes.back().get(), mine[j].first) ||
          i + 1 == segments.size()) {
        ReportHeadWithoutBody(mine[j]);
      } else {
        open = mine[j].first;
      }
    }
    open_heads.push_back(open);
  }
  NodePtr rest;
  for (size_t i = segments.size(); i-- > 0;) {
    NodePtr node = std::move(nodes[i]);
    if (rest) {
      if (Node* head = open_heads[i]) {
        uint32_t end = rest->range.end;
        head->kids.push_back(std::move(rest));
        for (Node* n = node.get(); n != nullptr; n = RightKid(n)) {
          n->range.end = std::max(n->range.end, end);
          if (n == head) break;
        }
      } else if (Node* def = open_defs[i]) {
        uint32_t end = rest->range.end;
        def->kids[1] = Binary(NodeKind::Pipe, "", Tok(segments[i + 1].pipe_before),
                              std::move(def->kids[1]), std::move(rest));
        for (Node* n = node.get(); n != nullptr; n = RightKid(n)) {
          n->range.end = std::max(n->range.end, end);
          if (n == def) break;
        }
      } else {
        node = Binary(NodeKind::Pipe, "", Tok(segments[i + 1].pipe_before), std::move(node),
                      std::move(rest));
      }
    }
    for (size_t d = segments[i].defs.size(); d-- > 0;) {
      node = FuncDef(segments[i].defs[d], std::move(node));
    }
    rest = std::move(node);
  }
  return rest;
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

// Definitions written right after a binary operator, wrapped around that operator's operand. The
// innermost is recorded so that the segment can widen its scope to the rest of the expression.
template <typename BuildOperand>
NodePtr AstBuilder::OpenDefs(const std::vector<JqParser::FuncDefContext*>& defs, BuildOperand operand) {
  if (defs.empty()) return operand();
  std::vector<NodePtr> built;  // bodies first, so diagnostics come out in reading order
  for (auto* def : defs) built.push_back(FuncDef(def, nullptr));
  NodePtr node = operand();
  open_defs_.push_back(built.back().get());
  for (size_t i = built.size(); i-- > 0;) {
    built[i]->range.end = std::max(built[i]->range.end, node->range.end);
    built[i]->kids[1] = std::move(node);
    node = std::move(built[i]);
  }
  return node;
}

// jq gives a definition the lowest precedence: in `1 + def f: 2; f * 3, 4` its scope is
// `f * 3, 4`. The chains parsed `def f: 2; f * 3` as the operand of `+` and put `, 4` above it;
// every operator whose left operand holds `def` (walking from the segment's root) is moved into
// the definition's body, innermost first, which rebuilds exactly the text to the right of `;`.
// The walk follows source positions and is iterative; the path is as deep as the segment's chains.
void AstBuilder::ScopeOpenDef(NodePtr* root, Node* def) {
  std::vector<std::pair<Node*, size_t>> path;  // ancestors of `def` and the kid leading to it
  for (Node* node = root->get(); node != def;) {
    size_t index = 0;
    Node* kid = node ? KidHolding(node, def->range.begin, &index) : nullptr;
    if (kid == nullptr) return;  // not in this segment's tree: nothing to widen
    path.emplace_back(node, index);
    node = kid;
  }
  for (size_t j = path.size(); j-- > 0;) {
    Node* op = path[j].first;
    if (!IsBinary(op->kind) || path[j].second != 0) continue;
    NodePtr* slot = j == 0 ? root : &path[j - 1].first->kids[path[j - 1].second];
    NodePtr moved = std::move(*slot);
    *slot = std::move(moved->kids[0]);
    moved->kids[0] = std::move(def->kids[1]);
    moved->range.begin = moved->kids[0]->range.begin;
    moved->range.end = std::max(moved->kids[0]->range.end, moved->kids[1]->range.end);
    def->range.end = std::max(def->range.end, moved->range.end);
    def->kids[1] = std::move(moved);
  }
  // Everything still above the definition now ends where it ends.
  for (Node* node = root->get(); node != nullptr && node != def; node = RightKid(node)) {
    node->range.end = std::max(node->range.end, def->range.end);
  }
}

// ----------------------------------------------------------------------------- operators

// Builds a left-associative chain `x op def* x op def* x ...` (',', `or`, `and`, `+ -`): the
// first operand as is, every later one inside the definitions written in front of it.
// `join(left, op, right)` makes the node of one operator.
template <typename Operand, typename Build, typename Join>
NodePtr AstBuilder::FoldLeft(antlr4::ParserRuleContext* ctx, Build build, Join join) {
  if (Operand* only = OnlyOperand<Operand>(ctx)) return build(only);
  std::vector<Operand*> items;
  std::vector<antlr4::Token*> ops;
  std::vector<DefRun> defs;
  SplitChain(ctx, &items, &ops, &defs);
  NodePtr node = build(items[0]);
  for (size_t i = 1; i < items.size(); ++i) {
    node = join(std::move(node), ops[i - 1],
                OpenDefs(defs[i], [&] { return build(items[i]); }));
  }
  return node;
}

NodePtr AstBuilder::Comma(JqParser::CommaExprContext* ctx) {
  return FoldLeft<JqParser::AltExprContext>(
      ctx, [&](auto* item) { return Alternative(item); },
      [&](NodePtr l, antlr4::Token* op, NodePtr r) {
        return Binary(NodeKind::Comma, "", Tok(op), std::move(l), std::move(r));
      });
}

NodePtr AstBuilder::Alternative(JqParser::AltExprContext* ctx) {
  if (auto* only = OnlyOperand<JqParser::AssignExprContext>(ctx)) return Assign(only);
  std::vector<JqParser::AssignExprContext*> items;
  std::vector<antlr4::Token*> ops;
  std::vector<DefRun> defs;
  SplitChain(ctx, &items, &ops, &defs);
  std::vector<NodePtr> built;
  for (size_t i = 0; i < items.size(); ++i) {
    built.push_back(OpenDefs(defs[i], [&] { return Assign(items[i]); }));
  }
  NodePtr node = std::move(built.back());
  for (size_t i = built.size() - 1; i-- > 0;) {
    node = Binary(NodeKind::Alternative, "", Tok(ops[i]), std::move(built[i]), std::move(node));
  }
  return node;
}

NodePtr AstBuilder::Assign(JqParser::AssignExprContext* ctx) {
  if (auto* only = OnlyOperand<JqParser::OrExprContext>(ctx)) return Or(only);
  NodePtr left = Or(ctx->orExpr(0));
  auto* op = ctx->assignOp();
  if (op == nullptr) return left;
  return Binary(NodeKind::Assign, op->getText(), Span(op), std::move(left),
                OpenDefs(ctx->funcDef(), [&] {
                  return ctx->assignExpr() ? Assign(ctx->assignExpr()) : Or(ctx->orExpr(1));
                }));
}

NodePtr AstBuilder::Or(JqParser::OrExprContext* ctx) {
  return FoldLeft<JqParser::AndExprContext>(
      ctx, [&](auto* item) { return And(item); },
      [&](NodePtr l, antlr4::Token* op, NodePtr r) {
        return Binary(NodeKind::Or, "", Tok(op), std::move(l), std::move(r));
      });
}

NodePtr AstBuilder::And(JqParser::AndExprContext* ctx) {
  return FoldLeft<JqParser::CompareExprContext>(
      ctx, [&](auto* item) { return Compare(item); },
      [&](NodePtr l, antlr4::Token* op, NodePtr r) {
        return Binary(NodeKind::And, "", Tok(op), std::move(l), std::move(r));
      });
}

NodePtr AstBuilder::Compare(JqParser::CompareExprContext* ctx) {
  if (auto* only = OnlyOperand<JqParser::AddExprContext>(ctx)) return Add(only);
  NodePtr left = Add(ctx->addExpr(0));
  auto* op = ctx->compareOp();
  if (op == nullptr) return left;
  return Binary(NodeKind::Compare, op->getText(), Span(op), std::move(left),
                OpenDefs(ctx->funcDef(), [&] {
                  return ctx->compareExpr() ? Compare(ctx->compareExpr()) : Add(ctx->addExpr(1));
                }));
}

NodePtr AstBuilder::Add(JqParser::AddExprContext* ctx) {
  return FoldLeft<JqParser::MulExprContext>(
      ctx, [&](auto* item) { return Mul(item); },
      [&](NodePtr l, antlr4::Token* op, NodePtr r) {
        return Binary(NodeKind::Arith, op->getText(), Tok(op), std::move(l), std::move(r));
      });
}

NodePtr AstBuilder::Mul(JqParser::MulExprContext* ctx) {
  if (auto* only = OnlyOperand<JqParser::UnaryExprContext>(ctx)) return Unary(only);
  std::vector<JqParser::UnaryExprContext*> items;
  std::vector<antlr4::Token*> ops;
  std::vector<DefRun> defs;
  SplitChain(ctx, &items, &ops, &defs);
  std::vector<NodePtr> operands;
  for (size_t i = 0; i < items.size(); ++i) {
    operands.push_back(OpenDefs(defs[i], [&] { return Unary(items[i]); }));
  }
  return MulChain(std::move(operands), std::move(ops));
}

namespace {

// The unary minus that would take the rest of a `* / %` chain after `item`: the item itself, or
// the last operand of a `try` (jq's `try -a * b` is `try -(a * b)`).
Node* CapturingMinus(Node* item) {
  Node* node = item;
  while (node->kind == NodeKind::TryCatch && node->kids.size() == 2) {
    node = node->kids[1] ? node->kids[1].get() : node->kids[0].get();
    if (node == nullptr) return nullptr;
  }
  if (node->kind == NodeKind::Neg && !node->kids.empty() && node->kids[0]) return node;
  return nullptr;
}

}  // namespace

// jq gives unary minus the precedence of binary minus, so in `a * -b * c` the minus takes the
// rest of the `* / %` chain: `a * -(b * c)`. Iterative: a chain of 100,000 `* -1` is legal input.
NodePtr AstBuilder::MulChain(std::vector<NodePtr> operands, std::vector<antlr4::Token*> ops) {
  struct Pending {
    NodePtr acc;            // what stands left of the minus (null at the chain's start)
    antlr4::Token* op;      // the operator between acc and the minus
    NodePtr root;           // the operand holding the minus (the minus itself, or a `try`)
    Node* neg;              // the minus, waiting for the rest of the chain
  };
  std::vector<Pending> pending;
  NodePtr acc;
  for (size_t i = 0; i < operands.size(); ++i) {
    NodePtr item = std::move(operands[i]);
    // A minus in front of anything but the last operand captures the rest of the chain.
    while (i + 1 < operands.size()) {
      Node* neg = CapturingMinus(item.get());
      if (neg == nullptr) break;
      NodePtr operand = std::move(neg->kids[0]);
      Pending p;
      p.op = (acc && i > 0) ? ops[i - 1] : nullptr;
      p.acc = std::move(acc);
      p.root = std::move(item);
      p.neg = neg;
      pending.push_back(std::move(p));
      item = std::move(operand);
    }
    if (!acc) {
      acc = std::move(item);
    } else {
      acc = Binary(NodeKind::Arith, ops[i - 1]->getText(), Tok(ops[i - 1]), std::move(acc), std::move(item));
    }
  }
  while (!pending.empty()) {
    Pending p = std::move(pending.back());
    pending.pop_back();
    uint32_t end = acc->range.end;
    p.neg->kids[0] = std::move(acc);
    for (Node* n = p.root.get(); n != nullptr; n = RightKid(n)) {
      n->range.end = std::max(n->range.end, end);
      if (n == p.neg) break;
    }
    if (p.acc) {
      acc = Binary(NodeKind::Arith, p.op->getText(), Tok(p.op), std::move(p.acc), std::move(p.root));
    } else {
      acc = std::move(p.root);
    }
  }
  return acc;
}

NodePtr AstBuilder::Unary(JqParser::UnaryExprContext* ctx, TermCheck* check) {
  // The alternative is told by the first token (see IsTerminal for why not dynamic_cast).
  size_t first = ctx->getStart()->getType();
  if (first == JqParser::MINUS) {
    // `-` funcDef* unaryExpr
    auto* neg = ctx;
    NodePtr node = Make(NodeKind::Neg, Span(neg), Tok(neg->getStart()));
    DefRun defs;
    for (size_t i = 1; i + 1 < neg->children.size(); ++i) {
      defs.push_back(static_cast<JqParser::FuncDefContext*>(neg->children[i]));
    }
    auto* operand = static_cast<JqParser::UnaryExprContext*>(neg->children.back());
    node->kids.push_back(OpenDefs(defs, [&] { return Unary(operand); }));
    return node;
  }
  if (first == JqParser::TRY) {
    auto* try_ = ctx;
    NodePtr node = Make(NodeKind::TryCatch, Span(try_), Tok(try_->TRY()));
    // Children: `try` def* body [`catch` def* handler].
    DefRun body_defs, handler_defs;
    JqParser::UnaryExprContext* body = nullptr;
    JqParser::UnaryExprContext* handler = nullptr;
    for (auto* child : try_->children) {
      if (IsTerminal(child)) continue;
      if (RuleOf(child) == JqParser::RuleFuncDef) {
        (body == nullptr ? body_defs : handler_defs).push_back(static_cast<JqParser::FuncDefContext*>(child));
      } else {
        (body == nullptr ? body : handler) = static_cast<JqParser::UnaryExprContext*>(child);
      }
    }
    TermCheck body_check;
    node->kids.push_back(OpenDefs(body_defs, [&] { return Unary(body, &body_check); }));
    if (handler != nullptr && body_defs.empty() && body_check.ends_with_expression_question) {
      Error(Tok(try_->CATCH()), "`catch` after `try x?`: jq reads `try x?` as `(try x)?`, which "
                                "leaves `catch` without its `try`: write `try (" +
                                    Abbreviate(body_check, body_check.stop) + ") catch ...`");
    }
    node->kids.push_back(handler != nullptr ? OpenDefs(handler_defs, [&] { return Unary(handler); })
                                            : nullptr);
    return node;
  }
  if (first == JqParser::LABEL) {
    auto* label = ctx;
    NodePtr node = Make(NodeKind::Label, Span(label), Tok(label->LABEL()));
    RefuseLoc(label->BINDING()->getSymbol());
    node->text = WithoutSigil(label->BINDING()->getText());
    heads_.emplace_back(node.get(), label->getStop()->getTokenIndex());
    return node;
  }
  // postfixTerm (`as` patterns)?
  auto* term = ctx;
  bool has_as = term->children.size() > 1;
  TermCheck local;
  TermCheck* term_check = check != nullptr && !has_as ? check : &local;
  NodePtr source = Postfix(static_cast<JqParser::PostfixTermContext*>(term->children[0]), term_check);
  if (!has_as) return source;
  RequireTerm(*term_check, term->AS()->getSymbol(), "needs parentheses before `as`", "",
              " as ...");
  Range span = Span(term);
  NodePtr node = Make(NodeKind::Bind, Range{source->range.begin, span.end}, Tok(term->AS()));
  node->kids.push_back(std::move(source));
  Patterns(term->patterns(), &node->kids);
  heads_.emplace_back(node.get(), term->getStop()->getTokenIndex());
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
  std::vector<JqParser::ObjectValueTermContext*> terms;
  std::vector<antlr4::Token*> ops;
  SplitChain(ctx, &terms, &ops);
  NodePtr node = ObjectValueTerm(terms.back());
  for (size_t i = terms.size() - 1; i-- > 0;) {
    node = Binary(NodeKind::Pipe, "", Tok(ops[i]), ObjectValueTerm(terms[i]), std::move(node));
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
