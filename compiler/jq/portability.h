// Portability of jq expressions to the Go consumers of workload map definitions (upstream's
// library, the KAI scheduler's pod grouper, Run:ai), which evaluate them with gojq rather than
// jq 1.7. CheckPortability warns, at the construct, about everything gojq lacks or evaluates
// differently in a way that can change a resolver's result (WM300-WM323, see docs/rules.md),
// with a fix-it where the rewrite is obvious. CheckStreamAlternatives warns about `A[].x // d`
// in a field whose results are zipped with instance ids (WM330), upstream's most common zip bug.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/jq/ast.h"
#include "compiler/source/diagnostic.h"

namespace wm::jq {

// The engine whose behaviour the definitions must keep: gojq (the Go consumers, the default) or
// jq 1.7 (only wmc and the jq CLI read them).
enum class Engine : uint8_t { kGojq, kJq };

// "gojq" / "jq" -> engine; false for anything else.
bool ParseEngine(std::string_view name, Engine* engine);

struct PortabilityRule {
  std::string_view id;       // "WM300"
  std::string_view name;     // what --allow takes besides the id: "keys_unsorted", "regex-lookaround"
  std::string_view summary;  // one line, as in docs/rules.md
};

// Every portability rule and the stream-alternative rule, in id order.
const std::vector<PortabilityRule>& PortabilityRules();
// The rule with this id or name, or null.
const PortabilityRule* FindPortabilityRule(std::string_view id_or_name);

struct PortabilityOptions {
  Engine target = Engine::kGojq;
  std::set<std::string, std::less<>> allowed;  // rule ids or names not to report
  // Constructs the safety policy already refuses ("$ENV", "env"): their portability warning
  // would only repeat the error.
  std::set<std::string, std::less<>> refused;
};

// Portability findings in `ast` (parsed from `text`), in source order, located through
// `source_map`. Nothing for Engine::kJq: wmc evaluates jq 1.7 itself.
std::vector<Diagnostic> CheckPortability(const Node& ast, std::string_view text,
                                         const SourceMap& source_map, const PortabilityOptions& options);

// WM330: every `L // R` whose left side yields a stream (`A[].x // d`): the alternative drops the
// null and false outputs of L when any output is truthy, so a per-instance field yields fewer
// results than there are instances. The fix-it rewrites the field to `A[] | (.x // d)`. Callers
// run it on fields zipped with instance ids (components with instanceIdPath).
std::vector<Diagnostic> CheckStreamAlternatives(const Node& ast, std::string_view text,
                                                const SourceMap& source_map,
                                                const std::set<std::string, std::less<>>& allowed = {});

}  // namespace wm::jq
