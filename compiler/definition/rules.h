// Structural rules of workload map definitions: every check the model allows without looking at
// CRD schemas (component graph, pod-shape exclusivity, selectors, status mappings, suspend actions,
// gang scheduling). Each rule has a stable id (docs/rules.md); findings go to a DiagnosticSink.
#pragma once

#include <string_view>
#include <vector>

#include "base/rules.h"
#include "compiler/definition/jq_policy.h"
#include "compiler/definition/model.h"
#include "compiler/source/diagnostic.h"

namespace wm::definition {

using RuleInfo = base::RuleInfo;

// The registered rules (base/rules.def) this stage and the loader can report: stages Load,
// Structure, Catalog, and JqSyntax (WM100-WM109 come from the jq parser every field goes through).
const std::vector<RuleInfo>& AllRules();

// Runs every structural rule over one loaded definition. Rules that depend on a sound component
// graph (ownership cycles, sibling selectors) are skipped when names are missing or duplicated.
void CheckDefinition(const Definition& definition, DiagnosticSink& sink);

// The rules of one parsed jq field of `definition` (owned by `component`, read in `role`):
// upstream's admission and wmc's safety policy (assignments allowed in suspend/resume action
// paths), the gojq portability warnings of `rules.portability`, and the stream-alternative
// pitfall in per-instance fields. Findings go to `sink`; false when the policy refuses the field
// (the driver then does not lower it: its forbidden builtins would only repeat as "not defined").
bool CheckJqFieldRules(const Definition& definition, std::string_view component, JqRole role,
                       const JqField& field, const JqRuleOptions& rules, DiagnosticSink& sink);

// Rules across the definitions of one catalog (WM080: two definitions describe the same root
// apiVersion/kind; a bundle and a cluster map each kind to one definition).
void CheckDefinitionSet(const std::vector<const Definition*>& definitions, DiagnosticSink& sink);

}  // namespace wm::definition
