// The scope bookkeeping of internal::ScopedWalker: a def's body sees the function itself and its
// parameters, the rest of the program sees the function; a binding's patterns are in scope in its
// body, and for reduce/foreach in the update and extract clauses but not in the init clause.
#include "compiler/jq/internal/scoped_walker.h"

#include <algorithm>

namespace wm::jq::internal {

void ScopedWalker::Walk(const Node* node, int depth) {
  if (node == nullptr || depth > kMaxDepth) return;
  switch (node->kind) {
    case NodeKind::FuncDef:
      Visit(*node);
      WalkFunction(*node, depth);
      return;
    case NodeKind::Bind: case NodeKind::Reduce: case NodeKind::Foreach:
      Visit(*node);
      WalkBinding(*node, depth);
      return;
    default:
      break;
  }
  Visit(*node);
  for (const auto& kid : node->kids) Walk(kid.get(), depth + 1);
}

bool ScopedWalker::IsShadowed(std::string_view name) const {
  return std::find(scope_.begin(), scope_.end(), name) != scope_.end();
}

void ScopedWalker::WalkFunction(const Node& node, int depth) {
  scope_.push_back(node.text);
  size_t mark = scope_.size();
  for (const std::string& param : node.params) {
    // `def f($x)` binds both the filter `x` and the variable `$x`.
    scope_.push_back(param[0] == '$' ? param.substr(1) : param);
    if (param[0] == '$') scope_.push_back(param);
  }
  Walk(node.kid(0), depth + 1);
  scope_.resize(mark);
  Walk(node.kid(1), depth + 1);
  scope_.pop_back();
}

void ScopedWalker::WalkBinding(const Node& node, int depth) {
  Walk(node.kid(0), depth + 1);
  size_t mark = scope_.size();
  std::vector<const Node*> patterns;
  if (node.kind == NodeKind::Bind) {
    for (size_t i = 1; i + 1 < node.kids.size(); ++i) patterns.push_back(node.kid(i));
  } else {
    patterns.push_back(node.kid(1));
    size_t alternatives = node.kind == NodeKind::Reduce ? 4 : 5;
    for (size_t i = alternatives; i < node.kids.size(); ++i) patterns.push_back(node.kid(i));
  }
  for (const Node* p : patterns) {
    WalkPatternKeys(p, depth + 1);
    BindPatternVariables(p, depth);
  }
  if (node.kind == NodeKind::Bind) {
    Walk(node.kids.back().get(), depth + 1);
  } else {
    // init is evaluated outside the binding, update/extract inside it.
    scope_.resize(mark);
    Walk(node.kid(2), depth + 1);
    for (const Node* p : patterns) BindPatternVariables(p, depth);
    Walk(node.kid(3), depth + 1);
    if (node.kind == NodeKind::Foreach) Walk(node.kid(4), depth + 1);
  }
  scope_.resize(mark);
}

// Object-pattern keys `(expr): $v` and `"\(expr)": $v` are expressions.
void ScopedWalker::WalkPatternKeys(const Node* pattern, int depth) {
  if (pattern == nullptr || depth > kMaxDepth) return;
  if (pattern->kind == NodeKind::PatternEntry) {
    const Node* key = pattern->kid(0);
    if (key && (key->kind == NodeKind::Paren || key->kind == NodeKind::String)) Walk(key, depth + 1);
    WalkPatternKeys(pattern->kid(1), depth + 1);
    return;
  }
  for (const auto& kid : pattern->kids) WalkPatternKeys(kid.get(), depth + 1);
}

void ScopedWalker::BindPatternVariables(const Node* pattern, int depth) {
  if (pattern == nullptr || depth > kMaxDepth) return;
  if (pattern->kind == NodeKind::PatternVar) scope_.push_back("$" + pattern->text);
  if (pattern->kind == NodeKind::PatternEntry) {
    const Node* key = pattern->kid(0);
    if (key && key->kind == NodeKind::Variable) scope_.push_back("$" + key->text);
  }
  for (const auto& kid : pattern->kids) BindPatternVariables(kid.get(), depth + 1);
}

std::vector<Diagnostic> ScopedWalker::TakeInSourceOrder() {
  std::stable_sort(found_.begin(), found_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Diagnostic> out;
  out.reserve(found_.size());
  for (auto& [offset, d] : found_) out.push_back(std::move(d));
  found_.clear();
  return out;
}

}  // namespace wm::jq::internal
