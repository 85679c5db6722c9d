// See rules.h: the registry table is expanded from rules.def at compile time, so adding a rule is
// one line there plus its section in docs/rules.md.
#include "base/rules.h"

#include <algorithm>
#include <array>

namespace wm::base {
namespace {

constexpr RuleInfo kRules[] = {
#define WM_RULE(id, severity, stage, summary) {#id, Severity::severity, Stage::stage, summary},
#include "base/rules.def"
#undef WM_RULE
};

constexpr bool SortedById() {
  for (size_t i = 1; i < std::size(kRules); ++i) {
    if (!(kRules[i - 1].id < kRules[i].id)) return false;
  }
  return true;
}
// FindRule searches by bisection; an unsorted or repeated line in rules.def fails the build.
static_assert(SortedById(), "base/rules.def must list ids in increasing order, each once");

}  // namespace

std::span<const RuleInfo> AllRules() { return kRules; }

const RuleInfo* FindRule(std::string_view id) {
  auto it = std::lower_bound(std::begin(kRules), std::end(kRules), id,
                             [](const RuleInfo& rule, std::string_view key) { return rule.id < key; });
  return (it != std::end(kRules) && it->id == id) ? &*it : nullptr;
}

Severity DefaultSeverity(std::string_view id) {
  const RuleInfo* rule = FindRule(id);
  return rule ? rule->severity : Severity::Error;
}

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

std::string_view StageName(Stage stage) {
  switch (stage) {
    case Stage::Load: return "load";
    case Stage::Structure: return "structure";
    case Stage::Catalog: return "catalog";
    case Stage::JqSyntax: return "jq-syntax";
    case Stage::Names: return "names";
    case Stage::Policy: return "policy";
    case Stage::Types: return "types";
    case Stage::Portability: return "portability";
  }
  return "";
}

std::string DocAnchor(std::string_view id) {
  std::string anchor(id);
  std::transform(anchor.begin(), anchor.end(), anchor.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; });
  return anchor;
}

}  // namespace wm::base
