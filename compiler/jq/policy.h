// Safety policy for jq expressions in workload map definitions, as data: each item names a
// construct (a builtin such as `del` or `input`, `..`, assignment operators, `$ENV`, module
// directives), its rule id (WM120...) and severity. CheckPolicy reports every use of an item the
// caller did not allow, pointing at the offending token. Builtins shadowed by a local `def` or a
// function parameter are the user's own and are not reported.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/jq/ast.h"
#include "compiler/source/diagnostic.h"

namespace wm::jq {

enum class PolicyMatch : uint8_t {
  kCall,          // a call of builtin `name`, any arity
  kRecurse,       // `..`
  kAssignment,    // any assignment operator (=, |=, +=, ...)
  kVariable,      // `$name`
  kImport,        // `import` directive
  kInclude,       // `include` directive
};

struct PolicyItem {
  std::string rule;          // "WM120"
  std::string name;          // what Allow() takes: "del", "..", "assign", "$ENV", "import"
  PolicyMatch match = PolicyMatch::kCall;
  Severity severity = Severity::Error;
  std::string reason;        // why it is risky in a resolver, appended to the message
};

struct Policy {
  std::vector<PolicyItem> items;
  std::set<std::string, std::less<>> allowed;  // item names or rule ids

  // The items wmc enforces by default (see policy.cpp for the list and the reasons).
  static Policy Default();
  // Allows an item by name ("range") or rule id ("WM121").
  void Allow(std::string name_or_rule) { allowed.insert(std::move(name_or_rule)); }
  bool IsAllowed(const PolicyItem& item) const {
    return allowed.count(item.name) > 0 || allowed.count(item.rule) > 0;
  }
};

// Every use of a disallowed item in `ast`, in source order, located through `source_map`.
std::vector<Diagnostic> CheckPolicy(const Node& ast, const Policy& policy, const SourceMap& source_map);

}  // namespace wm::jq
