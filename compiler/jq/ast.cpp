// AST helpers: the iterative Node destructor, SameShape (structural equality used by the
// print/parse round-trip tests) and the kind names DumpAst prints. All walks use explicit stacks,
// so an AST of any depth is safe here.
#include "compiler/jq/ast.h"

#include <utility>

namespace wm::jq {

Node::~Node() {
  if (kids.empty()) return;
  // Move the subtree onto a heap stack and free it node by node, each one already childless.
  std::vector<std::unique_ptr<Node>> pending;
  for (auto& kid : kids) pending.push_back(std::move(kid));
  kids.clear();
  while (!pending.empty()) {
    std::unique_ptr<Node> node = std::move(pending.back());
    pending.pop_back();
    if (!node) continue;
    for (auto& kid : node->kids) pending.push_back(std::move(kid));
    node->kids.clear();
  }
}

namespace {

const Node* SkipParens(const Node* node) {
  while (node != nullptr && node->kind == NodeKind::Paren && node->kids.size() == 1 &&
         node->kids[0] != nullptr) {
    node = node->kids[0].get();
  }
  return node;
}

bool SameLocal(const Node& a, const Node& b) {
  // Numbers compare by their literal text (the printer keeps it), so `1.0` and `1` differ.
  return a.kind == b.kind && a.text == b.text && a.format == b.format && a.params == b.params &&
         a.kids.size() == b.kids.size();
}

}  // namespace

bool SameShape(const Node& a, const Node& b) {
  std::vector<std::pair<const Node*, const Node*>> pending{{&a, &b}};
  while (!pending.empty()) {
    auto [x, y] = pending.back();
    pending.pop_back();
    x = SkipParens(x);
    y = SkipParens(y);
    if (x == nullptr || y == nullptr) {
      if (x != y) return false;
      continue;
    }
    if (!SameLocal(*x, *y)) return false;
    for (size_t i = 0; i < x->kids.size(); ++i) pending.emplace_back(x->kids[i].get(), y->kids[i].get());
  }
  return true;
}

const char* KindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::Identity: return "Identity";
    case NodeKind::RecurseDefault: return "RecurseDefault";
    case NodeKind::Field: return "Field";
    case NodeKind::Index: return "Index";
    case NodeKind::Slice: return "Slice";
    case NodeKind::Iterate: return "Iterate";
    case NodeKind::Optional: return "Optional";
    case NodeKind::Number: return "Number";
    case NodeKind::String: return "String";
    case NodeKind::Format: return "Format";
    case NodeKind::Null: return "Null";
    case NodeKind::True: return "True";
    case NodeKind::False: return "False";
    case NodeKind::Array: return "Array";
    case NodeKind::Object: return "Object";
    case NodeKind::ObjectEntry: return "ObjectEntry";
    case NodeKind::Paren: return "Paren";
    case NodeKind::Variable: return "Variable";
    case NodeKind::Call: return "Call";
    case NodeKind::Pipe: return "Pipe";
    case NodeKind::Comma: return "Comma";
    case NodeKind::Alternative: return "Alternative";
    case NodeKind::Assign: return "Assign";
    case NodeKind::Or: return "Or";
    case NodeKind::And: return "And";
    case NodeKind::Compare: return "Compare";
    case NodeKind::Arith: return "Arith";
    case NodeKind::Neg: return "Neg";
    case NodeKind::If: return "If";
    case NodeKind::TryCatch: return "TryCatch";
    case NodeKind::Reduce: return "Reduce";
    case NodeKind::Foreach: return "Foreach";
    case NodeKind::Bind: return "Bind";
    case NodeKind::Label: return "Label";
    case NodeKind::Break: return "Break";
    case NodeKind::FuncDef: return "FuncDef";
    case NodeKind::PatternVar: return "PatternVar";
    case NodeKind::PatternArray: return "PatternArray";
    case NodeKind::PatternObject: return "PatternObject";
    case NodeKind::PatternEntry: return "PatternEntry";
    case NodeKind::Import: return "Import";
    case NodeKind::Module: return "Module";
    case NodeKind::Program: return "Program";
  }
  return "?";
}

}  // namespace wm::jq
