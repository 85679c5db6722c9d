// The structural rules (see rules.h and docs/rules.md). Each check is a small function over the
// model that reports at the offending field; ids, severities and summaries are registered once in
// base/rules.def.
#include "compiler/definition/rules.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "base/did_you_mean.h"
#include "compiler/definition/loader.h"
#include "compiler/jq/policy.h"
#include "compiler/jq/portability.h"

namespace wm::definition {

namespace {

std::string Quote(std::string_view name) { return "'" + std::string(name) + "'"; }

// "version", "version and kind": the empty parts of a kind that must have both.
std::string MissingVersionKind(const GroupVersionKind& gvk) {
  if (gvk.version.value.empty() && gvk.kind.value.empty()) return "version and kind";
  return gvk.version.value.empty() ? "version" : "kind";
}

// Kubernetes label syntax (apimachinery validation.IsQualifiedName / IsValidLabelValue).
bool IsLabelName(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s) {
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

bool IsDnsSubdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t start = 0;
  while (start <= s.size()) {
    size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty() || label.size() > 63) return false;
    auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label) {
      if (!lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return true;
}

bool IsLabelKey(std::string_view key) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos) return IsLabelName(key);
  return IsDnsSubdomain(key.substr(0, slash)) && IsLabelName(key.substr(slash + 1));
}

bool IsLabelValue(std::string_view value) { return value.empty() || IsLabelName(value); }

// Collapses whitespace so `.a | .b` and `.a|.b` compare equal when comparing selectors.
std::string Normalized(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
  }
  return out;
}

// The operator that decides how `<keyPath> == <value>` parses when upstream pastes the two
// together: the tail of the expression (through `|`, `as`, `label` and `def`, which keep their
// meaning), if it is an operator that binds looser than `==` (`,`, `//`, `or`, `and`, assignments).
// Null when pasting is harmless.
const jq::Node* LooseTail(const jq::Node& ast) {
  const jq::Node* node = &ast;
  for (;;) {
    switch (node->kind) {
      case jq::NodeKind::Pipe: node = node->kid(1); break;
      case jq::NodeKind::Bind: node = node->kids.empty() ? nullptr : node->kids.back().get(); break;
      case jq::NodeKind::Label: node = node->kid(0); break;
      case jq::NodeKind::FuncDef: node = node->kid(1); break;
      case jq::NodeKind::Comma:
      case jq::NodeKind::Alternative:
      case jq::NodeKind::Or:
      case jq::NodeKind::And:
      case jq::NodeKind::Assign: return node;
      default: return nullptr;
    }
    if (node == nullptr) return nullptr;
  }
}

std::string_view OperatorText(const jq::Node& node) {
  switch (node.kind) {
    case jq::NodeKind::Comma: return ",";
    case jq::NodeKind::Alternative: return "//";
    case jq::NodeKind::Or: return "or";
    case jq::NodeKind::And: return "and";
    default: return node.text;  // assignments carry their operator
  }
}

class Checker {
 public:
  Checker(const Definition& def, DiagnosticSink& sink) : def_(def), sink_(sink) {}

  void Run() {
    if (def_.name.value.empty()) {
      Report("WM006", def_.name.location, "definition has no metadata.name");
    }
    if (!def_.has_root) {
      Report("WM006", def_.location,
             "definition has no spec.structureDefinition.rootComponent");
    } else {
      RootRules();
    }
    bool graph_ok = NameRules();
    for (const Component& child : def_.children) graph_ok &= OwnerRules(child);
    for (const Component* c : def_.Components()) ComponentRules(*c);
    if (graph_ok) {
      CycleRules();
      if (!cycle_found_) {
        LeafRules();
        SiblingRules();
      }
    }
    KindRules();
    GangRules();
  }

 private:
  // Severity comes from the rule registry (base/rules.def): WM036, WM037, WM053, WM061, WM063,
  // WM070 and WM071 are warnings.
  void Report(const char* rule, const Location& at, std::string message,
              std::vector<std::string> notes = {}) {
    sink_.Report(MakeDiagnostic(rule, at, std::move(message)).Notes(std::move(notes)));
  }
  std::vector<std::string_view> Names() const {
    std::vector<std::string_view> names;
    for (const Component* c : def_.Components()) names.push_back(c->name.value);
    return names;
  }
  static std::string Label(const Component& c) {
    return c.name.value.empty() ? std::string(c.is_root ? "root component" : "unnamed component")
                                : "component " + Quote(c.name.value);
  }
  // "root component 'x'" (or "root component" when it has no name).
  static std::string RootLabel(const Component& c) {
    return c.name.value.empty() ? "root component" : "root component " + Quote(c.name.value);
  }

  void RootRules() {
    const Component& root = def_.root;
    const GroupVersionKind* kind = root.kind ? &*root.kind : nullptr;
    bool core_pod = kind && kind->group.value.empty() && kind->kind.value == "Pod";
    if (!kind || !kind->full() || (kind->group.value.empty() && !core_pod)) {
      std::string missing;
      if (!kind) {
        missing = "it has no kind";
      } else {
        std::vector<std::string> parts;
        if (kind->group.value.empty()) parts.push_back("group");
        if (kind->version.value.empty()) parts.push_back("version");
        if (kind->kind.value.empty()) parts.push_back("kind");
        for (size_t i = 0; i < parts.size(); ++i) missing += (i ? ", " : "") + parts[i];
        missing = "missing " + missing;
      }
      Report("WM012", kind ? kind->location : root.location,
             RootLabel(root) + " must have a full kind (group, version, kind): " + missing,
             {"the group may be empty only for the core v1 Pod"});
    }
    if (root.owner_ref) {
      Report("WM013", root.owner_ref->location,
             RootLabel(root) + " cannot have an ownerRef (it names " +
                 Quote(root.owner_ref->value) + ")");
    }
    if (!root.status) {
      Report("WM014", root.location, RootLabel(root) + " must have a statusDefinition");
    }
  }

  // Names present and unique. False when the component graph cannot be trusted.
  bool NameRules() {
    bool ok = true;
    std::map<std::string, const Component*> seen;
    for (const Component* c : def_.Components()) {
      if (c->name.value.empty()) {
        Report("WM010", c->name.location,
               std::string(c->is_root ? "root component" : "child component") + " has no name");
        ok = false;
        continue;
      }
      auto [it, inserted] = seen.emplace(c->name.value, c);
      if (!inserted) {
        Report("WM011", c->name.location,
               "component name " + Quote(c->name.value) + " is not unique",
               {"first defined at line " + std::to_string(it->second->name.location.line)});
        ok = false;
      }
    }
    return ok;
  }

  bool OwnerRules(const Component& child) {
    if (!child.owner_ref || child.owner_ref->value.empty()) {
      Report("WM015", child.owner_ref ? child.owner_ref->location : child.name.location,
             "child " + Label(child) + " has no ownerRef",
             {"set ownerRef to the name of the component that creates it"});
      return false;
    }
    if (!def_.FindComponent(child.owner_ref->value)) {
      std::string suggestion = base::ClosestMatch(child.owner_ref->value, Names());
      std::vector<std::string> notes;
      if (!suggestion.empty()) notes.push_back("did you mean " + Quote(suggestion) + "?");
      Report("WM016", child.owner_ref->location,
             "child " + Label(child) + " has ownerRef to non-existing component " +
                 Quote(child.owner_ref->value),
             std::move(notes));
      return false;
    }
    return true;
  }

  void CycleRules() {
    std::set<std::string> reported;
    for (const Component& child : def_.children) {
      std::vector<const Component*> chain;
      std::set<std::string> visited;
      const Component* current = &child;
      // The root ends every chain, even when it wrongly has an ownerRef itself (WM013).
      while (current && current->owner_ref && !current->is_root) {
        if (!visited.insert(current->name.value).second) break;
        chain.push_back(current);
        current = def_.FindComponent(current->owner_ref->value);
      }
      if (!current || !current->owner_ref || current->is_root) continue;  // reached the root
      // `current` is on a cycle; report each cycle once, at its first member in file order.
      std::vector<std::string> members;
      const Component* walk = current;
      do {
        members.push_back(walk->name.value);
        walk = def_.FindComponent(walk->owner_ref->value);
      } while (walk && walk != current && !walk->is_root);
      std::set<std::string> key(members.begin(), members.end());
      std::string id;
      for (const std::string& m : key) id += m + "\n";
      if (!reported.insert(id).second) continue;
      const Component* first = nullptr;
      for (const Component& c : def_.children) {
        if (key.count(c.name.value)) {
          first = &c;
          break;
        }
      }
      std::string cycle;
      // Start the printed cycle at the reported component.
      auto start = std::find(members.begin(), members.end(), first->name.value);
      std::rotate(members.begin(), start, members.end());
      for (const std::string& m : members) cycle += Quote(m) + " -> ";
      cycle += Quote(members.front());
      Report("WM017", first->owner_ref->location,
             "ownership cycle detected involving component " + Quote(first->name.value) + ": " +
                 cycle,
             {"every child's ownerRef chain must end at the root component"});
      cycle_found_ = true;
    }
  }

  void ComponentRules(const Component& c) {
    std::string label = Label(c);
    if (!c.is_root && c.kind && !c.kind->full()) {
      Report("WM018", c.kind->location,
             label + " kind must have a version and a kind: missing " +
                 MissingVersionKind(*c.kind));
    }
    if (c.spec) SpecRules(c, *c.spec);
    // Multi-instance components need both halves: ids from the workload and ids on the pods.
    bool instance_selector = c.pod_selector && c.pod_selector->component_instance_selector;
    if (c.instance_id_path && !instance_selector) {
      Report("WM022", c.instance_id_path->location,
             label + " has instanceIdPath but no podSelector.componentInstanceSelector",
             {"pods cannot be matched to instances without an idPath on the pod"});
    }
    if (instance_selector && !c.instance_id_path) {
      Report("WM023", c.pod_selector->component_instance_selector->location,
             label + " has podSelector.componentInstanceSelector but no instanceIdPath");
    }
    if (c.pod_selector) SelectorRules(c, *c.pod_selector);
    if (c.status) {
      if (!c.is_root) {
        Report("WM036", c.status->location,
               label + " has a statusDefinition; only the root component's status is used");
      }
      StatusRules(c, *c.status);
    }
    if (c.suspend) SuspendRules(c, *c.suspend);
  }

  void SpecRules(const Component& c, const SpecDefinition& spec) {
    std::vector<std::string> shapes;
    if (spec.pod_template_spec_path) shapes.push_back("podTemplateSpecPath");
    if (spec.pod_spec_path) shapes.push_back("podSpecPath");
    if (spec.fragmented) shapes.push_back("fragmentedPodSpecDefinition");
    if (shapes.size() > 1) {
      std::string list;
      for (size_t i = 0; i < shapes.size(); ++i) list += (i ? ", " : "") + shapes[i];
      Report("WM020", spec.location,
             Label(c) + " has multiple pod spec definitions (" + list + ")",
             {"keep exactly one: they are mutually exclusive"});
    }
    if (spec.metadata_path && !spec.pod_spec_path) {
      Report("WM021", spec.metadata_path->location,
             Label(c) + " has metadataPath without podSpecPath",
             {"metadataPath complements podSpecPath when metadata and pod spec are separate"});
    }
  }

  void SelectorRules(const Component& c, const PodSelector& selector) {
    if (selector.component_instance_selector && !selector.component_instance_selector->id_path) {
      Report("WM006", selector.component_instance_selector->location,
             Label(c) + " componentInstanceSelector has no idPath");
    }
    if (selector.replica_selector && !selector.replica_selector->key_path) {
      Report("WM006", selector.replica_selector->location,
             Label(c) + " replicaSelector has no keyPath");
    }
    if (!selector.component_type_selector) return;
    const ComponentTypeSelector& type = *selector.component_type_selector;
    if (!type.key_path && !type.match_labels) {
      Report("WM024", type.location,
             Label(c) + " componentTypeSelector has neither keyPath nor matchLabels");
    }
    if (type.value && !type.key_path) {
      Report("WM025", type.value->location,
             Label(c) + " componentTypeSelector.value is set without keyPath");
    }
    if (type.value && type.key_path && type.key_path->parsed()) {
      if (const jq::Node* loose = LooseTail(*type.key_path->ast)) {
        Report("WM027", type.key_path->map.Map(loose->token.begin),
               Label(c) + " componentTypeSelector.keyPath ends in `" + std::string(OperatorText(*loose)) +
                   "`, which binds looser than `==`: upstream evaluates `<keyPath> == <value>` as "
                   "written, so it compares only the last operand with the value",
               {"wrap the keyPath in parentheses, `(" + type.key_path->text +
                ")`, so that upstream and wmc compare its whole result"});
      }
    }
    if (type.match_labels) {
      if (type.match_labels->empty()) {
        Report("WM026", type.location, Label(c) + " componentTypeSelector.matchLabels is empty");
      }
      for (const LabelMatch& label : *type.match_labels) {
        if (!IsLabelKey(label.key.value)) {
          Report("WM026", label.key.location,
                 Label(c) + " matchLabels key " + Quote(label.key.value) +
                     " is not a valid label key",
                 {"a label key is an optional DNS-subdomain prefix and '/', then a name of at "
                  "most 63 characters: alphanumerics, '-', '_', '.', starting and ending with "
                  "an alphanumeric"});
        }
        if (!IsLabelValue(label.value.value)) {
          Report("WM026", label.value.location,
                 Label(c) + " matchLabels value " + Quote(label.value.value) + " for " +
                     Quote(label.key.value) + " is not a valid label value",
                 {"a label value is empty or at most 63 characters: alphanumerics, '-', '_', "
                  "'.', starting and ending with an alphanumeric"});
        }
      }
    }
  }

  void StatusRules(const Component& c, const StatusDefinition& status) {
    std::string label = Label(c);
    if (status.phase && !status.phase->path) {
      Report("WM006", status.phase->location, label + " phaseDefinition has no path");
    }
    if (status.conditions && !status.conditions->path) {
      Report("WM006", status.conditions->location, label + " conditionsDefinition has no path");
    }
    if (status.mappings_location.line == 0) {
      Report("WM006", status.location, label + " statusDefinition has no statusMappings");
      return;
    }
    if (status.mappings.empty()) {
      Report("WM037", status.mappings_location,
             label + " statusMappings maps no status; the component's status is always Undefined");
    }
    for (const StatusMapping& mapping : status.mappings) {
      std::string where = label + " statusMappings." + std::string(StatusKey(mapping.status));
      if (mapping.matchers.empty()) {
        Report("WM037", mapping.location, where + " has no matchers; it never matches");
      }
      for (const StatusMatcher& m : mapping.matchers) {
        bool any = m.by_phase || m.by_conditions || m.by_expression;
        if (!any) {
          Report("WM035", m.location, where + " has a matcher with no criteria",
                 {"use byPhase, byConditions or byExpression"});
        }
        if (m.by_phase && !status.phase) {
          Report("WM033", m.by_phase->location,
                 where + " matches byPhase but the statusDefinition has no phaseDefinition");
        }
        if (m.by_conditions) {
          if (!status.conditions) {
            Location at = m.by_conditions->empty() ? m.location : m.by_conditions->front().location;
            Report("WM031", at,
                   where + " matches byConditions but the statusDefinition has no "
                           "conditionsDefinition");
          }
          if (m.by_conditions->empty()) {
            Report("WM032", m.location, where + " byConditions lists no conditions");
          }
          for (const ExpectedCondition& cond : *m.by_conditions) {
            if (!cond.type || cond.type->value.empty()) {
              Report("WM032", cond.location, where + " byConditions entry has no type");
            }
            if (!cond.status && !cond.reason) {
              Report("WM032", cond.location,
                     where + " byConditions entry " +
                         (cond.type ? Quote(cond.type->value) + " " : std::string()) +
                         "needs a status or a reason");
            }
          }
        }
        if (m.by_expression) {
          if (!m.by_expression->expression) {
            Report("WM034", m.by_expression->location, where + " byExpression has no expression");
          }
          if (!m.by_expression->expected_result) {
            Report("WM034", m.by_expression->location,
                   where + " byExpression has no expectedResult");
          }
        }
      }
    }
  }

  void SuspendRules(const Component& c, const SuspendDefinition& suspend) {
    std::string label = Label(c);
    if (suspend.suspend_actions.empty() || suspend.resume_actions.empty()) {
      std::string missing = suspend.suspend_actions.empty() && suspend.resume_actions.empty()
                                ? "suspendActions and resumeActions"
                            : suspend.suspend_actions.empty() ? "suspendActions"
                                                              : "resumeActions";
      Report("WM040", suspend.location,
             label + " suspendDefinition needs at least one action in " + missing);
    }
    auto actions = [&](const std::vector<SuspendAction>& list, const char* key) {
      for (size_t i = 0; i < list.size(); ++i) {
        const SuspendAction& action = list[i];
        std::string where = label + " " + key + "[" + std::to_string(i) + "]";
        if (!action.path) Report("WM006", action.location, where + " has no path");
        if (!action.value) {
          Report("WM006", action.location, where + " has no value");
        } else if (!nlohmann::json::accept(action.value->json)) {
          Report("WM041", action.value->location,
                 where + " value " + Quote(action.value->json) + " is not valid JSON",
                 {"a string value is read as JSON text: write '\"" + action.value->json +
                  "\"' for a JSON string, or an unquoted YAML value"});
        }
      }
    };
    actions(suspend.suspend_actions, "suspendActions");
    actions(suspend.resume_actions, "resumeActions");
  }

  void LeafRules() {
    std::set<std::string> owners;
    for (const Component& child : def_.children) {
      if (child.owner_ref) owners.insert(child.owner_ref->value);
    }
    // A child that names the kind of object it stands for (a CronJob's Jobs, a Deployment's
    // ReplicaSets) is part of the workload's tree even without pods, as upstream models it.
    for (const Component& child : def_.children) {
      if (!child.HasPodDefinition() && !owners.count(child.name.value) && !child.kind) {
        Report("WM070", child.name.location,
               "child " + Label(child) + " has no pod definition and no child components",
               {"it contributes no pods; add a specDefinition or remove it"});
      }
    }
  }

  // Two pod-bearing siblings must have pod selectors that tell their pods apart: the runtime
  // assigns a pod to a component by its componentTypeSelector, so a pod both selectors accept
  // would be counted twice. Only overlaps that can be proven from the text are reported. One
  // finding per component at most, against the first earlier sibling it overlaps: N siblings
  // without selectors give N-1 findings (not N^2/2) and the first comparison already finds it;
  // siblings that are told apart are rejected by CannotOverlap without building any text.
  void SiblingRules() {
    std::map<std::string, std::vector<const Component*>> by_owner;
    for (const Component& child : def_.children) {
      if (child.HasPodDefinition()) by_owner[child.owner_ref->value].push_back(&child);
    }
    for (const auto& [owner, siblings] : by_owner) {
      std::vector<std::string> key_paths;  // each sibling's normalized keyPath, "" without one
      for (const Component* c : siblings) {
        const ComponentTypeSelector* type = TypeSelector(*c);
        key_paths.push_back(type && type->key_path ? Normalized(type->key_path->text) : "");
      }
      for (size_t j = 1; j < siblings.size(); ++j) {
        for (size_t i = 0; i < j; ++i) {
          if (CannotOverlap(*siblings[i], key_paths[i], *siblings[j], key_paths[j])) continue;
          const Component& a = *siblings[i];
          const Component& b = *siblings[j];
          std::string why = Overlap(a, b);
          if (why.empty()) continue;
          Report("WM071", SelectorLocation(b),
                 "components " + Quote(a.name.value) + " and " + Quote(b.name.value) +
                     " (both owned by " + Quote(owner) + ") have pod selectors that cannot tell "
                     "their pods apart: " + why,
                 {"give each a podSelector.componentTypeSelector matching a distinct pod label"});
          break;
        }
      }
    }
  }

  // A cheap, allocation-free proof that Overlap(a, b) is "": two keyPath selectors on different
  // expressions, or two matchLabels selectors requiring different values for one key.
  static bool CannotOverlap(const Component& a, const std::string& a_key_path, const Component& b,
                            const std::string& b_key_path) {
    const ComponentTypeSelector* sa = TypeSelector(a);
    const ComponentTypeSelector* sb = TypeSelector(b);
    if (!sa || !sb) return false;
    if (sa->key_path && sb->key_path && a_key_path != b_key_path) return true;
    if (!sa->match_labels || !sb->match_labels) return false;
    for (const LabelMatch& la : *sa->match_labels) {
      for (const LabelMatch& lb : *sb->match_labels) {
        if (la.key.value == lb.key.value && la.value.value != lb.value.value) return true;
      }
    }
    return false;
  }

  static const ComponentTypeSelector* TypeSelector(const Component& c) {
    return c.pod_selector && c.pod_selector->component_type_selector
               ? &*c.pod_selector->component_type_selector
               : nullptr;
  }

  // The most precise place of a component's pod selection: its componentTypeSelector, else its
  // podSelector, else (no selector at all) its name.
  static Location SelectorLocation(const Component& c) {
    if (const ComponentTypeSelector* type = TypeSelector(c)) return type->location;
    if (c.pod_selector) return c.pod_selector->location;
    return c.name.location;
  }

  // Why two keyPath selectors can accept the same pod, or "" when they provably cannot or when
  // the expressions differ (their results cannot be compared without evaluating them). A
  // keyPath without a value accepts every pod where the path is present, whatever its value.
  static std::string KeyPathOverlap(const Component& a, const ComponentTypeSelector& sa,
                                    const Component& b, const ComponentTypeSelector& sb) {
    if (Normalized(sa.key_path->text) != Normalized(sb.key_path->text)) return "";
    std::string key = "keyPath " + Quote(sa.key_path->text);
    if (!sa.value && !sb.value) return "both select on " + key + " without a value";
    if (!sa.value || !sb.value) {
      const Component& open = sa.value ? b : a;
      return Quote(open.name.value) + " selects on " + key +
             " without a value, so it also accepts the other's pods";
    }
    if (sa.value->value != sb.value->value) return "";
    return "both select on " + key + " with value " + Quote(sa.value->value);
  }

  // Why two matchLabels selectors can accept the same pod, or "". They are disjoint only when
  // some key is required by both with different values; otherwise a pod carrying the union of
  // the two label sets matches both.
  static std::string MatchLabelsOverlap(const ComponentTypeSelector& sa,
                                        const ComponentTypeSelector& sb) {
    std::map<std::string, std::string> union_labels;
    for (const LabelMatch& label : *sa.match_labels) {
      union_labels[label.key.value] = label.value.value;
    }
    for (const LabelMatch& label : *sb.match_labels) {
      auto [it, inserted] = union_labels.emplace(label.key.value, label.value.value);
      if (!inserted && it->second != label.value.value) return "";
    }
    std::string shown;
    for (const auto& [key, value] : union_labels) {
      shown += (shown.empty() ? "" : ", ") + key + "=" + value;
    }
    return "a pod labelled {" + shown + "} matches both matchLabels";
  }

  static std::string Overlap(const Component& a, const Component& b) {
    const ComponentTypeSelector* sa = TypeSelector(a);
    const ComponentTypeSelector* sb = TypeSelector(b);
    if (!sa && !sb) return "neither has a componentTypeSelector";
    if (!sa) return Quote(a.name.value) + " has no componentTypeSelector, so it matches every pod";
    if (!sb) return Quote(b.name.value) + " has no componentTypeSelector, so it matches every pod";
    // Selectors built from different mechanisms (keyPath vs matchLabels) cannot be compared
    // without evaluating the keyPath, and one with neither is already an error (WM024).
    bool key_paths = sa->key_path.has_value();
    bool labels = sa->match_labels.has_value();
    if (key_paths != sb->key_path.has_value() || labels != sb->match_labels.has_value()) return "";
    if (!key_paths && !labels) return "";
    std::string by_key_path = key_paths ? KeyPathOverlap(a, *sa, b, *sb) : std::string();
    std::string by_labels = labels ? MatchLabelsOverlap(*sa, *sb) : std::string();
    // A selector using both mechanisms requires both, so both must overlap.
    if ((key_paths && by_key_path.empty()) || (labels && by_labels.empty())) return "";
    if (key_paths && labels) return by_key_path + ", and " + by_labels;
    return key_paths ? by_key_path : by_labels;
  }

  void KindRules() {
    std::set<std::string> seen;                 // group + kind
    std::map<std::string, std::string> groups;  // kind -> first group
    for (const GroupVersionKind& gvk : def_.additional_child_kinds) {
      if (!gvk.full()) {
        Report("WM060", gvk.location,
               "additionalChildKinds entry " +
                   (gvk.kind.value.empty() ? std::string() : Quote(gvk.kind.value) + " ") +
                   "must have a version and a kind: missing " + MissingVersionKind(gvk));
        continue;
      }
      if (!seen.insert(gvk.group.value + "/" + gvk.kind.value).second) {
        Report("WM062", gvk.kind.location,
               "additionalChildKinds lists " + gvk.ToString() + " more than once");
      } else if (auto [it, inserted] = groups.emplace(gvk.kind.value, gvk.group.value); !inserted) {
        auto group_name = [](const std::string& g) { return g.empty() ? "core" : g; };
        Report("WM063", gvk.kind.location,
               "additionalChildKinds lists kind " + Quote(gvk.kind.value) + " under groups " +
                   Quote(group_name(it->second)) + " and " + Quote(group_name(gvk.group.value)),
               {"the upstream Karta CRD keys additionalChildKinds by kind alone "
                "(x-kubernetes-list-map-keys: [kind]); an API server with that CRD rejects the "
                "second entry"});
      }
      for (const Component* c : def_.Components()) {
        if (c->kind && c->kind->group.value == gvk.group.value &&
            c->kind->kind.value == gvk.kind.value) {
          Report("WM061", gvk.location,
                 "additionalChildKinds entry " + gvk.ToString() + " repeats the kind of " +
                     Label(*c),
                 {"additionalChildKinds is for kinds that are not modelled as components"});
          break;
        }
      }
    }
  }

  void ComponentRef(const std::optional<Text>& name, const Location& fallback,
                    const std::string& where) {
    if (!name || name->value.empty()) {
      Report("WM006", fallback, where + " has no componentName");
      return;
    }
    if (!def_.FindComponent(name->value)) {
      std::string suggestion = base::ClosestMatch(name->value, Names());
      std::vector<std::string> notes;
      if (!suggestion.empty()) notes.push_back("did you mean " + Quote(suggestion) + "?");
      Report("WM050", name->location,
             where + " component " + Quote(name->value) +
                 " is not defined (should be a root or child component)",
             std::move(notes));
    }
  }

  void TopologyRules(const Topology& t, const std::string& where) {
    bool level = t.required_topology_level || t.preferred_topology_level;
    if (!t.topology_name || t.topology_name->value.empty()) {
      Report("WM052", t.location, where + " topology has no topologyName",
             {"name the Topology object the levels refer to"});
    }
    if (!level) {
      Report("WM052", t.location,
             where + " topology sets neither requiredTopologyLevel nor preferredTopologyLevel");
    }
  }

  void GangRules() {
    if (!def_.instructions.gang_scheduling) return;
    const GangScheduling& gang = *def_.instructions.gang_scheduling;
    // Both forms side by side are the transition the upstream API asks for (its library reads
    // podGroups, the KAI scheduler podGroup first), so they are flagged only when they would
    // gang different pods.
    if (gang.pod_group && gang.pod_groups && !cycle_found_) {
      std::vector<std::string> legacy_names;
      for (const PodGroupDefinition& group : *gang.pod_groups) {
        for (const PodGroupMember& member : group.members) {
          if (member.component_name) legacy_names.push_back(member.component_name->value);
        }
      }
      std::vector<std::string> current_names;
      for (const SubGroup& sub : gang.pod_group->sub_groups) {
        if (sub.component_name) current_names.push_back(sub.component_name->value);
      }
      if (GangedPodComponents(legacy_names) != GangedPodComponents(current_names)) {
        Report("WM053", gang.location,
               "gangScheduling sets both podGroup and the deprecated podGroups and they gang "
               "different components; podGroup is used",
               {"name the same components (or their ancestors) in both, or remove podGroups"});
      }
    }
    if (gang.pod_group) {
      const PodGroup& group = *gang.pod_group;
      if (group.sub_groups.empty()) {
        Report("WM054", group.location, "gangScheduling.podGroup has no subGroups");
      }
      if (group.topology) TopologyRules(*group.topology, "gangScheduling.podGroup");
      std::set<std::string> seen;
      for (size_t i = 0; i < group.sub_groups.size(); ++i) {
        const SubGroup& sub = group.sub_groups[i];
        std::string where = "gangScheduling.podGroup.subGroups[" + std::to_string(i) + "]";
        ComponentRef(sub.component_name, sub.location, where);
        // KAI names each subgroup after its component: a second entry would be a second
        // subgroup with the same name in one PodGroup.
        if (sub.component_name && !sub.component_name->value.empty() &&
            !seen.insert(sub.component_name->value).second) {
          Report("WM051", sub.component_name->location,
                 where + " names component " + Quote(sub.component_name->value) +
                     " again; subgroups are named after their component, so the names repeat");
        }
        if (sub.topology) TopologyRules(*sub.topology, where);
      }
    }
    if (gang.pod_groups) {
      std::map<std::string, Location> names;
      for (size_t i = 0; i < gang.pod_groups->size(); ++i) {
        const PodGroupDefinition& group = (*gang.pod_groups)[i];
        std::string where = "gangScheduling.podGroups[" + std::to_string(i) + "]";
        if (!group.name || group.name->value.empty()) {
          Report("WM006", group.location, where + " has no name");
        } else {
          where = "pod group " + Quote(group.name->value);
          auto [it, inserted] = names.emplace(group.name->value, group.name->location);
          if (!inserted) {
            Report("WM051", group.name->location,
                   "pod group name " + Quote(group.name->value) + " is not unique",
                   {"first defined at line " + std::to_string(it->second.line)});
          }
        }
        if (group.members.empty()) Report("WM054", group.location, where + " has no members");
        for (const PodGroupMember& member : group.members) {
          ComponentRef(member.component_name, member.location, where + " member");
        }
      }
    }
  }

  // The pod-bearing components whose pods a gang naming these components takes in: each named
  // component and every descendant of it (upstream's members also cover descendants).
  std::set<std::string> GangedPodComponents(const std::vector<std::string>& names) const {
    std::set<std::string> named(names.begin(), names.end());
    std::set<std::string> ganged;
    for (const Component* component : def_.Components()) {
      if (!component->HasPodDefinition()) continue;
      std::set<std::string> visited;
      for (const Component* walk = component; walk;) {
        if (named.count(walk->name.value)) {
          ganged.insert(component->name.value);
          break;
        }
        if (walk->is_root || !walk->owner_ref || !visited.insert(walk->name.value).second) break;
        walk = def_.FindComponent(walk->owner_ref->value);
      }
    }
    return ganged;
  }

  const Definition& def_;
  DiagnosticSink& sink_;
  bool cycle_found_ = false;
};

}  // namespace

const std::vector<RuleInfo>& AllRules() {
  static const std::vector<RuleInfo> rules = [] {
    std::vector<RuleInfo> out;
    for (const RuleInfo& rule : base::AllRules()) {
      if (rule.stage == base::Stage::Load || rule.stage == base::Stage::Structure ||
          rule.stage == base::Stage::Catalog || rule.stage == base::Stage::JqSyntax) {
        out.push_back(rule);
      }
    }
    return out;
  }();
  return rules;
}

// Upstream admission, safety policy and portability of one jq field: the policy (suspend and
// resume action paths are assignment targets by nature, so assignments are allowed there, as
// upstream's ValidateActionExpression allows them), the gojq portability warnings, and in a
// component with instanceIdPath the stream-alternative pitfall of its per-instance fields.
// Returns false when the policy refuses the field.
bool CheckJqFieldRules(const Definition& definition, std::string_view component, JqRole role,
                       const JqField& field, const JqRuleOptions& rules, DiagnosticSink& sink) {
  bool assignment_target = role == JqRole::kSuspendPath || role == JqRole::kResumePath;
  jq::Policy policy = rules.policy;
  if (assignment_target) policy.Allow("assign");
  bool refused = false;
  for (Diagnostic& d : jq::CheckPolicy(*field.ast, policy, field.map)) {
    refused = refused || d.severity == Severity::Error;
    sink.Report(std::move(d));
  }
  jq::PortabilityOptions portability = rules.portability;
  for (const char* environment : {"$ENV", "env"}) {
    const jq::PolicyItem* item = policy.Find(environment);
    if (item && !policy.IsAllowed(*item)) portability.refused.insert(environment);
  }
  for (Diagnostic& d : jq::CheckPortability(*field.ast, field.text, field.map, portability)) {
    sink.Report(std::move(d));
  }
  bool per_instance = InputOf(role) == JqInput::kWorkload && role != JqRole::kPhase &&
                      role != JqRole::kConditions && role != JqRole::kStatusExpression && !assignment_target;
  const Component* owner = nullptr;
  for (const Component* c : definition.Components()) {
    if (c->name.value == component) owner = c;
  }
  if (per_instance && owner && owner->instance_id_path) {
    for (Diagnostic& d : jq::CheckStreamAlternatives(*field.ast, field.text, field.map, portability.allowed)) {
      sink.Report(std::move(d));
    }
  }
  return !refused;
}

void CheckDefinition(const Definition& definition, DiagnosticSink& sink) {
  Checker(definition, sink).Run();
}

void CheckDefinitionSet(const std::vector<const Definition*>& definitions, DiagnosticSink& sink) {
  std::map<std::string, const Definition*> seen;
  for (const Definition* def : definitions) {
    if (!def->has_root || !def->root.kind || !def->root.kind->full()) continue;
    const GroupVersionKind& kind = *def->root.kind;
    // Versions of one kind are distinct resources: key on group, version and kind.
    std::string key = kind.ToString();
    auto [it, inserted] = seen.emplace(key, def);
    if (inserted) continue;
    sink.Report(MakeDiagnostic("WM080", kind.location,
                               "definitions " + Quote(it->second->name.value) + " and " +
                                   Quote(def->name.value) + " both describe " + key)
                    .Note("first defined at " + it->second->file + ":" +
                          std::to_string(it->second->root.kind->location.line)));
  }
}

}  // namespace wm::definition
