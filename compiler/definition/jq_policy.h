// The jq rule settings of a `wmc check` / `wmc compile` run: which safety-policy items and
// portability rules the user allows (`--allow ITEM`, repeatable, or `allow:` in a `--policy FILE`)
// and which engine's portability is checked (`--target=gojq|jq`, or `target:` in the file).
// ResolveJqRules turns the flags into JqRuleOptions, reporting unknown items (with did-you-mean)
// and malformed policy files as located WM008 errors.
#pragma once

#include <string>
#include <vector>

#include "compiler/jq/policy.h"
#include "compiler/jq/portability.h"
#include "compiler/source/diagnostic.h"

namespace wm::definition {

struct JqRuleOptions {
  jq::Policy policy = jq::Policy::Default();
  jq::PortabilityOptions portability;  // target engine and allowed portability rules
};

// What the command line says; empty fields leave the defaults (or the policy file's settings).
struct JqPolicyFlags {
  std::vector<std::string> allow;  // `--allow ITEM`: item name or rule id
  std::string policy_file;         // `--policy FILE`: YAML or JSON, `allow: [...]`, `target: gojq`
  std::string target;              // `--target`: "gojq" or "jq"; overrides the file's target
};

// Reads the policy file (if any) and applies it, then the command-line flags. False when the file
// cannot be read or anything is invalid: errors go to `sink` (rule WM008, located in the file, or
// at "--allow" / "--target" for command-line values); the file's text is added to `*file_text`
// so the caller can render the source line.
bool ResolveJqRules(const JqPolicyFlags& flags, JqRuleOptions* out, DiagnosticSink& sink,
                    std::string* file_text);

// Names and ids that --allow and `allow:` accept, for did-you-mean suggestions and help.
std::vector<std::string> AllowableItems();

}  // namespace wm::definition
