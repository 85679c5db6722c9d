// Structural rules of workload map definitions: every check the model allows without looking at
// CRD schemas (component graph, pod-shape exclusivity, selectors, status mappings, suspend actions,
// gang scheduling). Each rule has a stable id (docs/rules.md); findings go to a DiagnosticSink.
#pragma once

#include <string_view>
#include <vector>

#include "compiler/definition/jq_policy.h"
#include "compiler/definition/model.h"
#include "compiler/source/diagnostic.h"

namespace wm::definition {

struct RuleInfo {
  std::string_view id;        // "WM010"
  Severity severity;          // default severity
  std::string_view summary;   // one line, as in docs/rules.md
};

// Every rule id this stage and the loader can report (jq syntax errors WM100-WM109 come from the
// jq parser and are listed here too so the documentation test can see them).
const std::vector<RuleInfo>& AllRules();

// Runs every structural rule over one loaded definition. Rules that depend on a sound component
// graph (ownership cycles, sibling selectors) are skipped when names are missing or duplicated.
// `jq_rules` selects the allowed policy items and the portability target of the jq fields.
void CheckDefinition(const Definition& definition, DiagnosticSink& sink,
                     const JqRuleOptions& jq_rules = {});

// Rules across the definitions of one catalog (WM080: two definitions describe the same root
// apiVersion/kind; a bundle and a cluster map each kind to one definition).
void CheckDefinitionSet(const std::vector<const Definition*>& definitions, DiagnosticSink& sink);

}  // namespace wm::definition
