// The default safety policy and the AST walk that applies it. Resolvers read workload objects:
// they must not read other inputs, the environment or files, stop the process, or print; and
// constructs that generate unboundedly, walk whole documents or rewrite them are flagged so a
// definition author opts in knowingly. The walk tracks which names local definitions shadow.
#include "compiler/jq/policy.h"

#include <algorithm>
#include <map>

namespace wm::jq {

Policy Policy::Default() {
  Policy p;
  auto add = [&](const char* rule, const char* name, PolicyMatch match, Severity severity,
                 const char* reason) {
    p.items.push_back(PolicyItem{rule, name, match, severity, reason});
  };
  const Severity kWarn = Severity::Warning;
  const Severity kErr = Severity::Error;
  add("WM120", "del", PolicyMatch::kCall, kWarn, "resolvers read workload objects and need not delete from them");
  add("WM121", "range", PolicyMatch::kCall, kWarn, "its output count depends on data and can be huge");
  add("WM122", "paths", PolicyMatch::kCall, kWarn, "it walks the whole document");
  add("WM123", "recurse", PolicyMatch::kCall, kWarn, "it walks the whole document and may not terminate");
  add("WM124", "walk", PolicyMatch::kCall, kWarn, "it rewrites the whole document");
  add("WM125", "repeat", PolicyMatch::kCall, kWarn, "it generates outputs without end");
  add("WM126", "..", PolicyMatch::kRecurse, kWarn, "it walks the whole document");
  add("WM127", "assign", PolicyMatch::kAssignment, kWarn, "resolvers read workload objects and need not rewrite them");
  add("WM128", "input", PolicyMatch::kCall, kErr, "resolvers see only the workload object, not further inputs");
  add("WM129", "inputs", PolicyMatch::kCall, kErr, "resolvers see only the workload object, not further inputs");
  add("WM130", "debug", PolicyMatch::kCall, kErr, "resolvers must not write to the log");
  add("WM131", "stderr", PolicyMatch::kCall, kErr, "resolvers must not write to the log");
  add("WM132", "input_filename", PolicyMatch::kCall, kErr, "resolvers have no input file");
  add("WM133", "$ENV", PolicyMatch::kVariable, kErr, "results must not depend on the environment of the tool");
  add("WM134", "env", PolicyMatch::kCall, kErr, "results must not depend on the environment of the tool");
  add("WM135", "halt", PolicyMatch::kCall, kErr, "resolvers must not stop the tool");
  add("WM136", "halt_error", PolicyMatch::kCall, kErr, "resolvers must not stop the tool");
  add("WM137", "import", PolicyMatch::kImport, kErr, "definitions must be self-contained");
  add("WM138", "include", PolicyMatch::kInclude, kErr, "definitions must be self-contained");
  return p;
}

namespace {

class PolicyWalker {
 public:
  PolicyWalker(const Policy& policy, const SourceMap& source_map)
      : policy_(policy), source_map_(source_map) {
    for (const PolicyItem& item : policy.items) {
      if (policy.IsAllowed(item)) continue;
      if (item.match == PolicyMatch::kCall) calls_[item.name] = &item;
      if (item.match == PolicyMatch::kVariable) variables_[item.name.substr(1)] = &item;
      if (item.match == PolicyMatch::kRecurse) recurse_ = &item;
      if (item.match == PolicyMatch::kAssignment) assignment_ = &item;
      if (item.match == PolicyMatch::kImport) import_ = &item;
      if (item.match == PolicyMatch::kInclude) include_ = &item;
    }
  }

  // Recursive over the AST, whose depth the parser bounds (ParseOptions::max_ast_depth); a
  // hand-built deeper tree is cut off rather than overflowing the stack.
  void Walk(const Node* node, int depth) {
    if (node == nullptr || depth > kMaxDepth) return;
    switch (node->kind) {
      case NodeKind::Call:
        if (!IsShadowed(node->text)) Check(calls_, node->text, *node);
        break;
      case NodeKind::Variable:
        if (!IsShadowed("$" + node->text)) Check(variables_, node->text, *node);
        break;
      case NodeKind::RecurseDefault:
        if (recurse_) Report(*recurse_, *node, "`..`");
        break;
      case NodeKind::Assign:
        if (assignment_) Report(*assignment_, *node, "assignment `" + node->text + "`");
        break;
      case NodeKind::Import:
        if (node->params.empty()) {
          if (include_) Report(*include_, *node, "`include`");
        } else if (import_) {
          Report(*import_, *node, "`import`");
        }
        break;
      case NodeKind::FuncDef: {
        // The body sees the function itself and its parameters; the rest sees the function.
        scope_.push_back(node->text);
        size_t mark = scope_.size();
        for (const std::string& param : node->params) {
          scope_.push_back(param[0] == '$' ? param.substr(1) : param);
          if (param[0] == '$') scope_.push_back(param);
        }
        Walk(node->kid(0), depth + 1);
        scope_.resize(mark);
        Walk(node->kid(1), depth + 1);
        scope_.pop_back();
        return;
      }
      case NodeKind::Bind: case NodeKind::Reduce: case NodeKind::Foreach:
        WalkBinding(*node, depth);
        return;
      default:
        break;
    }
    for (const auto& kid : node->kids) Walk(kid.get(), depth + 1);
  }

  std::vector<Diagnostic> Take() {
    std::stable_sort(found_.begin(), found_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Diagnostic> out;
    for (auto& [offset, d] : found_) out.push_back(std::move(d));
    return out;
  }

 private:
  static constexpr int kMaxDepth = 10000;

  // Variables bound by patterns shadow `$ENV` in the body (and in later reduce/foreach clauses).
  void WalkBinding(const Node& node, int depth) {
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
  void WalkPatternKeys(const Node* pattern, int depth) {
    if (pattern == nullptr || depth > kMaxDepth) return;
    if (pattern->kind == NodeKind::PatternEntry) {
      const Node* key = pattern->kid(0);
      if (key && (key->kind == NodeKind::Paren || key->kind == NodeKind::String)) Walk(key, depth + 1);
      WalkPatternKeys(pattern->kid(1), depth + 1);
      return;
    }
    for (const auto& kid : pattern->kids) WalkPatternKeys(kid.get(), depth + 1);
  }

  void BindPatternVariables(const Node* pattern, int depth) {
    if (pattern == nullptr || depth > kMaxDepth) return;
    if (pattern->kind == NodeKind::PatternVar) scope_.push_back("$" + pattern->text);
    if (pattern->kind == NodeKind::PatternEntry) {
      const Node* key = pattern->kid(0);
      if (key && key->kind == NodeKind::Variable) scope_.push_back("$" + key->text);
    }
    for (const auto& kid : pattern->kids) BindPatternVariables(kid.get(), depth + 1);
  }

  bool IsShadowed(const std::string& name) const {
    return std::find(scope_.begin(), scope_.end(), name) != scope_.end();
  }

  void Check(const std::map<std::string, const PolicyItem*, std::less<>>& table, const std::string& name,
             const Node& node) {
    auto it = table.find(name);
    if (it != table.end()) Report(*it->second, node, node.kind == NodeKind::Variable ? "`$" + name + "`" : "`" + name + "`");
  }

  void Report(const PolicyItem& item, const Node& node, const std::string& what) {
    Range at = node.token.end > node.token.begin ? node.token : node.range;
    found_.emplace_back(
        at.begin,
        MakeDiagnostic(item.rule, source_map_.Map(at.begin),
                       what + " is not allowed by the safety policy: " + item.reason)
            .WithSeverity(item.severity)
            .Length(at.end > at.begin ? at.end - at.begin : 1)
            .Note("allow it with the policy item '" + item.name + "' (" + item.rule + ")"));
  }

  const Policy& policy_;
  const SourceMap& source_map_;
  std::map<std::string, const PolicyItem*, std::less<>> calls_;
  std::map<std::string, const PolicyItem*, std::less<>> variables_;
  const PolicyItem* recurse_ = nullptr;
  const PolicyItem* assignment_ = nullptr;
  const PolicyItem* import_ = nullptr;
  const PolicyItem* include_ = nullptr;
  std::vector<std::string> scope_;  // names of local functions, parameters and `$variables`
  std::vector<std::pair<uint32_t, Diagnostic>> found_;
};

}  // namespace

std::vector<Diagnostic> CheckPolicy(const Node& ast, const Policy& policy, const SourceMap& source_map) {
  PolicyWalker walker(policy, source_map);
  walker.Walk(&ast, 0);
  return walker.Take();
}

}  // namespace wm::jq
