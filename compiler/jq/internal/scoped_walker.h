// A depth-bounded walk over a jq AST that knows which names are in scope: local `def`s, filter
// and `$value` parameters, and `$variables` bound by `as`, `reduce`, `foreach` (including the
// object-pattern keys that are expressions). Used by the AST checks (safety policy, portability)
// that must tell a builtin from the user's own definition of the same name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/jq/ast.h"
#include "compiler/source/diagnostic.h"

namespace wm::jq::internal {

class ScopedWalker {
 public:
  virtual ~ScopedWalker() = default;
  // Visits `node` and everything below it, binding names as jq scopes them.
  void Walk(const Node* node, int depth = 0);
  // The findings Visit recorded, in source order (stable for findings at one offset).
  std::vector<Diagnostic> TakeInSourceOrder();

 protected:
  // Records a finding at byte `offset` of the expression, for TakeInSourceOrder.
  void Found(uint32_t offset, Diagnostic diagnostic) { found_.emplace_back(offset, std::move(diagnostic)); }
  // Called once per expression node, before its children are walked.
  virtual void Visit(const Node& node) = 0;
  // True when a local definition or binding hides the builtin: "f" for functions and filter
  // parameters, "$x" for variables.
  bool IsShadowed(std::string_view name) const;

 private:
  // Recursive over the AST, whose depth the parser bounds (ParseOptions::max_ast_depth); a
  // hand-built deeper tree is cut off rather than overflowing the stack.
  static constexpr int kMaxDepth = 10000;

  void WalkFunction(const Node& node, int depth);
  void WalkBinding(const Node& node, int depth);
  void WalkPatternKeys(const Node* pattern, int depth);
  void BindPatternVariables(const Node* pattern, int depth);

  std::vector<std::string> scope_;  // names of local functions, parameters and `$variables`
  std::vector<std::pair<uint32_t, Diagnostic>> found_;
};

}  // namespace wm::jq::internal
