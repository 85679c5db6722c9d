// Policy files and --allow values. A policy file is one YAML (or JSON) mapping:
//   allow: [range, WM127]   # policy items or portability rules, by name or id
//   target: gojq            # or jq
// Unknown keys and unknown items are errors located in the file, with a did-you-mean, so a typo
// never silently leaves a rule on or off.
#include "compiler/definition/jq_policy.h"

#include <yaml-cpp/yaml.h>

#include "base/did_you_mean.h"
#include "base/file.h"
#include "base/yaml/yaml_json.h"
#include "compiler/definition/loader.h"

namespace wm::definition {

namespace {

constexpr const char* kPolicyRule = "WM008";

Diagnostic Problem(Location at, uint32_t length, std::string message) {
  return MakeDiagnostic(kPolicyRule, std::move(at), std::move(message)).Length(length);
}

Location At(const std::string& file, const YAML::Mark& mark) {
  if (mark.line < 0) return Location{file, 0, 0};
  return Location{file, static_cast<uint32_t>(mark.line + 1), static_cast<uint32_t>(mark.column + 1)};
}

bool IsAllowable(const std::string& item) {
  return jq::Policy::Default().Find(item) != nullptr || jq::FindPortabilityRule(item) != nullptr;
}

// "unknown policy item 'rnage'; did you mean 'range'?"
std::string UnknownItem(const std::string& item) {
  std::vector<std::string> names = AllowableItems();
  std::vector<std::string_view> candidates(names.begin(), names.end());
  std::string message = "unknown policy item '" + item + "'";
  std::string suggestion = base::ClosestMatch(item, candidates);
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  return message;
}

void AllowItem(const std::string& item, JqRuleOptions* out) {
  out->policy.Allow(item);
  out->portability.allowed.insert(item);
}

bool ApplyTarget(const std::string& target, const Location& at, JqRuleOptions* out, DiagnosticSink& sink) {
  if (jq::ParseEngine(target, &out->portability.target)) return true;
  sink.Report(Problem(at, static_cast<uint32_t>(target.size()),
                      "unknown target engine '" + target + "' (gojq or jq)"));
  return false;
}

bool ApplyAllowList(const std::string& file, const YAML::Node& list, JqRuleOptions* out, DiagnosticSink& sink) {
  if (!list.IsSequence()) {
    sink.Report(Problem(At(file, list.Mark()), 1, "'allow' must be a list of policy items"));
    return false;
  }
  bool ok = true;
  for (const YAML::Node& entry : list) {
    if (!entry.IsScalar()) {
      sink.Report(Problem(At(file, entry.Mark()), 1, "a policy item must be a name or a rule id"));
      ok = false;
      continue;
    }
    const std::string& item = entry.Scalar();
    if (!IsAllowable(item)) {
      sink.Report(Problem(At(file, entry.Mark()), static_cast<uint32_t>(item.size()), UnknownItem(item)));
      ok = false;
      continue;
    }
    AllowItem(item, out);
  }
  return ok;
}

bool ApplyPolicyFile(const std::string& file, const std::string& text, JqRuleOptions* out, DiagnosticSink& sink) {
  // The shared conversion first: its typing rule and its size, depth and alias budgets decide
  // what a readable policy file is, as for every other YAML input. The walk below then reads the
  // same text again only for the positions of its findings.
  std::vector<std::string> documents;
  base::yaml::Error invalid;
  if (!base::yaml::TextToJson(text, base::yaml::TextOptions{}, &documents, &invalid)) {
    sink.Report(Problem(Location{file, invalid.line, invalid.column}, 1,
                        "the policy file is not valid YAML or JSON: " + invalid.message));
    return false;
  }
  if (documents.size() > 1) {
    sink.Report(Problem(Location{file, 1, 1}, 1, "a policy file holds one document"));
    return false;
  }
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    sink.Report(Problem(At(file, e.mark), 1, "the policy file is not valid YAML or JSON: " + e.msg));
    return false;
  }
  if (root.IsNull()) return true;  // an empty file allows nothing
  if (!root.IsMap()) {
    sink.Report(Problem(At(file, root.Mark()), 1, "a policy file is a mapping with 'allow' and 'target'"));
    return false;
  }
  bool ok = true;
  for (const auto& entry : root) {
    std::string key = entry.first.Scalar();
    if (key == "allow") {
      ok = ApplyAllowList(file, entry.second, out, sink) && ok;
    } else if (key == "target" && entry.second.IsScalar()) {
      ok = ApplyTarget(entry.second.Scalar(), At(file, entry.second.Mark()), out, sink) && ok;
    } else {
      std::string message = key == "target" ? "'target' must be gojq or jq"
                                            : "unknown field '" + key + "' in the policy file";
      std::string suggestion = base::ClosestMatch(key, {"allow", "target"});
      if (key != "target" && !suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
      sink.Report(Problem(At(file, entry.first.Mark()), static_cast<uint32_t>(key.size()), message));
      ok = false;
    }
  }
  return ok;
}

}  // namespace

std::vector<std::string> AllowableItems() {
  std::vector<std::string> names;
  for (const jq::PolicyItem& item : jq::Policy::Default().items) {
    names.push_back(item.name);
    names.push_back(item.rule);
  }
  for (const jq::PortabilityRule& rule : jq::PortabilityRules()) {
    names.emplace_back(rule.name);
    names.emplace_back(rule.id);
  }
  return names;
}

bool ResolveJqRules(const JqPolicyFlags& flags, JqRuleOptions* out, DiagnosticSink& sink,
                    std::string* file_text) {
  bool ok = true;
  if (!flags.policy_file.empty()) {
    std::string error;
    if (!base::ReadWholeFile(flags.policy_file, file_text, &error)) {
      sink.Report(Problem(Location{flags.policy_file, 0, 0}, 1, error));
      return false;
    }
    ok = ApplyPolicyFile(flags.policy_file, *file_text, out, sink);
  }
  for (const std::string& item : flags.allow) {
    if (!IsAllowable(item)) {
      sink.Report(Problem(Location{"--allow", 0, 0}, 1, UnknownItem(item)));
      ok = false;
      continue;
    }
    AllowItem(item, out);
  }
  if (!flags.target.empty()) ok = ApplyTarget(flags.target, Location{"--target", 0, 0}, out, sink) && ok;
  return ok;
}

}  // namespace wm::definition
