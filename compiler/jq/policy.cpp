// The default safety policy and the AST walk that applies it. Upstream's admission refuses `del`,
// `range`, `paths`, `recurse`, `walk`, `repeat`, `..` and every assignment operator anywhere in a
// read path; wmc refuses the same, at the same severity (an error), quoting upstream's reason.
// On top of that, resolvers must not read other inputs, the environment or files, stop the
// process, or print. Upstream matches builtin names on the syntax tree without resolving them,
// so its items ignore local definitions; wmc's own items are about what a name does at run time,
// so a local `def` or binding of the same name is the user's own and is not reported.
#include "compiler/jq/policy.h"

#include <algorithm>
#include <map>

#include "compiler/jq/internal/scoped_walker.h"

namespace wm::jq {

Policy Policy::Default() {
  Policy p;
  auto upstream = [&](const char* rule, const char* name, PolicyMatch match, std::string reason) {
    p.items.push_back(PolicyItem{rule, name, match, true, std::move(reason)});
  };
  auto wmc = [&](const char* rule, const char* name, PolicyMatch match, const char* reason) {
    p.items.push_back(PolicyItem{rule, name, match, false, reason});
  };
  auto excessive = [](const char* name) {
    return "function '" + std::string(name) + "' may produce excessive output and is not allowed";
  };
  // Upstream's wording (pkg/jq/validation.go), quoted in the messages.
  upstream("WM120", "del", PolicyMatch::kCall, "del function is not allowed");
  upstream("WM121", "range", PolicyMatch::kCall, excessive("range"));
  upstream("WM122", "paths", PolicyMatch::kCall, excessive("paths"));
  upstream("WM123", "recurse", PolicyMatch::kCall, excessive("recurse"));
  upstream("WM124", "walk", PolicyMatch::kCall, excessive("walk"));
  upstream("WM125", "repeat", PolicyMatch::kCall, excessive("repeat"));
  upstream("WM126", "..", PolicyMatch::kRecurse, "recursive descent operator '..' is not allowed");
  upstream("WM127", "assign", PolicyMatch::kAssignment, "modifying operator is not allowed");
  wmc("WM128", "input", PolicyMatch::kCall, "resolvers see only the workload object, not further inputs");
  wmc("WM129", "inputs", PolicyMatch::kCall, "resolvers see only the workload object, not further inputs");
  wmc("WM130", "debug", PolicyMatch::kCall, "resolvers must not write to the log");
  wmc("WM131", "stderr", PolicyMatch::kCall, "resolvers must not write to the log");
  wmc("WM132", "input_filename", PolicyMatch::kCall, "resolvers have no input file");
  wmc("WM133", "$ENV", PolicyMatch::kVariable, "results must not depend on the environment of the tool");
  wmc("WM134", "env", PolicyMatch::kCall, "results must not depend on the environment of the tool");
  wmc("WM135", "halt", PolicyMatch::kCall, "resolvers must not stop the tool");
  wmc("WM136", "halt_error", PolicyMatch::kCall, "resolvers must not stop the tool");
  wmc("WM137", "import", PolicyMatch::kImport, "definitions must be self-contained");
  wmc("WM138", "include", PolicyMatch::kInclude, "definitions must be self-contained");
  wmc("WM139", "now", PolicyMatch::kCall, "results must not depend on the clock");
  wmc("WM140", "localtime", PolicyMatch::kCall, "results must not depend on the time zone of the tool");
  wmc("WM141", "strflocaltime", PolicyMatch::kCall,
      "results must not depend on the time zone of the tool");
  return p;
}

const PolicyItem* Policy::Find(std::string_view name_or_rule) const {
  for (const PolicyItem& item : items) {
    if (item.name == name_or_rule || item.rule == name_or_rule) return &item;
  }
  return nullptr;
}

namespace {

class PolicyWalker : public internal::ScopedWalker {
 public:
  PolicyWalker(const Policy& policy, const SourceMap& source_map) : source_map_(source_map) {
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

 protected:
  void Visit(const Node& node) override {
    switch (node.kind) {
      case NodeKind::Call: Check(calls_, node.text, node.text, node); break;
      case NodeKind::Variable: Check(variables_, node.text, "$" + node.text, node); break;
      case NodeKind::RecurseDefault:
        if (recurse_) Report(*recurse_, node, "`..`", recurse_->reason);
        break;
      case NodeKind::Assign:
        if (assignment_) {
          Report(*assignment_, node, "assignment `" + node.text + "`",
                 "modifying operator '" + node.text + "' is not allowed");
        }
        break;
      case NodeKind::Import:
        if (node.params.empty()) {
          if (include_) Report(*include_, node, "`include`", include_->reason);
        } else if (import_) {
          Report(*import_, node, "`import`", import_->reason);
        }
        break;
      default:
        break;
    }
  }

 private:
  // `shadow_name` is how a local binding of the same name is spelled ("range", "$ENV").
  void Check(const std::map<std::string, const PolicyItem*, std::less<>>& table, const std::string& name,
             const std::string& shadow_name, const Node& node) {
    auto it = table.find(name);
    if (it == table.end()) return;
    const PolicyItem& item = *it->second;
    if (!item.upstream && IsShadowed(shadow_name)) return;
    Report(item, node, "`" + shadow_name + "`", item.reason);
  }

  void Report(const PolicyItem& item, const Node& node, const std::string& what, const std::string& reason) {
    Range at = node.token.end > node.token.begin ? node.token : node.range;
    bool upstream = item.upstream;
    std::string message =
        upstream ? what + " is refused by the upstream Workload Map admission (" + reason +
                       "); allow it with --allow " + item.name + " if only wmc reads this definition"
                 : what + " is not allowed by the safety policy: " + reason;
    std::string note = upstream ? "or list it in a --policy file: allow: [" + item.name + "]"
                                : "allow it with --allow " + item.name + " (" + item.rule + ")";
    Found(at.begin, MakeDiagnostic(item.rule, source_map_.Map(at.begin), message)
                                      .WithSeverity(Severity::Error)
                                      .Length(at.end > at.begin ? at.end - at.begin : 1)
                                      .Note(note));
  }

  const SourceMap& source_map_;
  std::map<std::string, const PolicyItem*, std::less<>> calls_;
  std::map<std::string, const PolicyItem*, std::less<>> variables_;
  const PolicyItem* recurse_ = nullptr;
  const PolicyItem* assignment_ = nullptr;
  const PolicyItem* import_ = nullptr;
  const PolicyItem* include_ = nullptr;
};

}  // namespace

std::vector<Diagnostic> CheckPolicy(const Node& ast, const Policy& policy, const SourceMap& source_map) {
  PolicyWalker walker(policy, source_map);
  walker.Walk(&ast);
  return walker.TakeInSourceOrder();
}

}  // namespace wm::jq
