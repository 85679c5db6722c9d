// The rule registry (read from base/rules.def): id, default severity, stage and one-line summary
// of every diagnostic wmc reports, and the docs/rules.md anchor that documents it. Stages take
// their default severities from here; the docs test checks docs/rules.md against this table.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace wm::base {

// How serious a finding is (the compiler's wm::Severity is this type).
enum class Severity : uint8_t { Note, Warning, Error };

// The pipeline stage that reports a rule.
enum class Stage : uint8_t {
  Load,       // definition loader: YAML, fields, types (WM001-WM009, WM030)
  Structure,  // structural rules of one definition (WM006, WM010-WM079)
  Catalog,    // rules across the definitions of a catalog (WM080-WM089)
  JqSyntax,   // jq parser (WM100-WM109)
  Names,      // name resolution while lowering (WM110-WM119)
  Policy,     // jq safety policy (WM120-WM139)
  Types,      // schema type checker (WM200-WM299)
  Portability,  // gojq portability and upstream zip pitfalls (WM300-WM339)
};

struct RuleInfo {
  std::string_view id;       // "WM010"
  Severity severity;         // default severity
  Stage stage;
  std::string_view summary;  // one line
};

// Every registered rule, in id order.
std::span<const RuleInfo> AllRules();
// The rule with this id, or nullptr.
const RuleInfo* FindRule(std::string_view id);
// Its default severity; Error for an unregistered id.
Severity DefaultSeverity(std::string_view id);

// "error", "warning", "note" (as docs/rules.md and the text renderer spell them).
std::string_view SeverityName(Severity severity);
std::string_view StageName(Stage stage);

// The docs page that documents every rule, relative to the source tree.
inline constexpr std::string_view kRulesDocument = "docs/rules.md";
// The anchor of a rule's section in it: "## WM010" -> "wm010" (GitHub's heading slug).
std::string DocAnchor(std::string_view id);

}  // namespace wm::base
