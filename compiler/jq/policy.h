// Safety policy for jq expressions in workload map definitions, as data: each item names a
// construct (a builtin such as `del` or `input`, `..`, assignment operators, `$ENV`, module
// directives), its rule id (WM120...) and whether upstream's Workload Map admission refuses it
// too. CheckPolicy reports every use of an item the caller did not allow, as an error pointing
// at the offending token. Upstream items (WM120-WM127) are matched by name exactly as upstream's
// validator matches them on the gojq syntax tree, so a local `def range: ...; range` is still
// refused; wmc's own items (WM128-WM138) respect local definitions and bindings.
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
  // True for what upstream's admission refuses (its reason is `reason`, quoted in the message);
  // false for what wmc refuses on top of upstream.
  bool upstream = false;
  std::string reason;        // upstream's wording, or why wmc refuses it in a resolver
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
  // The item with this name or rule id, or null.
  const PolicyItem* Find(std::string_view name_or_rule) const;
};

// Every use of a disallowed item in `ast`, in source order, located through `source_map`.
std::vector<Diagnostic> CheckPolicy(const Node& ast, const Policy& policy, const SourceMap& source_map);

}  // namespace wm::jq
