// Status extraction (status.h) as upstream's Accessor.ExtractStatus: phase, conditions keyed by type
// (last wins), statuses tried in the fixed Entries() order whatever order the bundle lists them in,
// a matcher = byPhase AND every byConditions entry AND byExpression (`(expr) | tostring`, first
// result, compared with expectedResult); an evaluation error fails the whole extraction.
#include "runtime/workload/status.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace wm::workload {
namespace {

// Every result converts to a Go string (null -> ""); the first one is the phase.
Result<std::optional<std::string>> ExtractPhase(const Accessor& a, int32_t resolver) {
  Outputs o = a.Run(resolver);
  if (!o.ok()) return {{}, ResolverError(o)};
  for (size_t i = 0; i < o.values.size(); ++i) {
    const Value& v = o.values[i];
    if (!v.IsString() && !v.IsNull()) return {{}, ConversionError(i, "string", GoJsonTypeName(v), "string")};
  }
  if (o.values.empty()) return {};
  const Value& first = o.values.front();
  return {first.IsString() ? std::string(first.AsString()) : std::string(), {}};
}

// The string at `field` of a condition object; absent when missing or not a string.
std::optional<std::string> OptionalStringField(const Value& condition, const std::string& field) {
  if (!condition.IsObject()) return std::nullopt;
  const Value* v = condition.Find(field);
  if (!v || !v->IsString()) return std::nullopt;
  return std::string(v->AsString());
}

Condition ReadCondition(const Value& element, const catalog::StatusDefinition& s) {
  Condition c;
  c.type = StringField(element, s.type_field);
  c.status = OptionalStringField(element, s.status_field);
  c.message = StringField(element, s.message_field);
  c.reason = OptionalStringField(element, s.reason_field);
  return c;
}

// Flattens the results: an array contributes its elements, null nothing, an object itself.
Result<std::vector<Condition>> ExtractConditions(const Accessor& a, const catalog::StatusDefinition& s) {
  Result<std::vector<Condition>> out;
  if (s.conditions_path < 0) return out;
  Outputs o = a.Run(s.conditions_path);
  if (!o.ok()) return {{}, ResolverError(o)};
  constexpr std::string_view kGoType = "[]map[string]interface {}";
  for (size_t i = 0; i < o.values.size(); ++i) {
    const Value& v = o.values[i];
    if (v.IsObject()) {
      out.value.push_back(ReadCondition(v, s));
    } else if (v.IsArray()) {
      for (const Value& element : v.AsArray()) {
        if (!element.IsObject() && !element.IsNull()) {
          return {{}, ConversionError(i, kGoType, GoJsonTypeName(element), "map[string]interface {}")};
        }
        out.value.push_back(ReadCondition(element, s));
      }
    } else if (!v.IsNull()) {
      return {{}, ConversionError(i, kGoType, GoJsonTypeName(v), kGoType)};
    }
  }
  return out;
}

// byExpression: the first result of `(expr) | tostring` equals expectedResult.
Result<bool> MatchExpression(const Accessor& a, const catalog::StatusMatcher& m) {
  Outputs o = a.Run(m.by_expression);
  if (!o.ok()) return {false, WrapError("failed to evaluate ByExpression", ResolverError(o))};
  if (o.values.empty()) return {false, {}};
  const std::string expected = StringOf(m.expected_result);
  return {StringOf(o.values.front()) == expected, {}};
}

Result<bool> Matches(const Accessor& a, const catalog::StatusMatcher& m, const std::optional<std::string>& phase,
                     const std::map<std::string, const Condition*>& by_type) {
  if (m.by_phase && !m.by_phase->empty() && (!phase || *phase != *m.by_phase)) return {false, {}};
  for (const auto& want : m.by_conditions) {
    auto it = by_type.find(want.type);
    if (it == by_type.end()) return {false, {}};
    const Condition& got = *it->second;
    if (!want.status.empty() && want.status != got.status.value_or("")) return {false, {}};
    if (!want.reason.empty() && want.reason != got.reason.value_or("")) return {false, {}};
  }
  if (m.by_expression >= 0) return MatchExpression(a, m);
  return {true, {}};
}

// "running" or "Running" -> "Running"; names outside upstream's set are kept as written.
std::string DisplayName(const std::string& name) {
  for (const std::string& known : StatusOrder()) {
    if (known.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < name.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(known[i])) == std::tolower(static_cast<unsigned char>(name[i]));
    }
    if (same) return known;
  }
  return name;
}

// The bundle's mappings in upstream's Entries() order (unknown names last, in bundle order).
std::vector<const std::pair<std::string, std::vector<catalog::StatusMatcher>>*> OrderedMappings(
    const catalog::StatusDefinition& s) {
  std::vector<const std::pair<std::string, std::vector<catalog::StatusMatcher>>*> out;
  for (const std::string& name : StatusOrder()) {
    for (const auto& mapping : s.mappings) {
      if (DisplayName(mapping.first) == name) out.push_back(&mapping);
    }
  }
  for (const auto& mapping : s.mappings) {
    if (DisplayName(mapping.first) == mapping.first &&
        std::find(StatusOrder().begin(), StatusOrder().end(), mapping.first) == StatusOrder().end()) {
      out.push_back(&mapping);
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string>& StatusOrder() {
  static const std::vector<std::string> order = {"Resuming", "Suspending", "Suspended",    "Running",
                                                 "Failed",   "Completed",  "Initializing", "Degraded"};
  return order;
}

Result<Status> ExtractStatus(const Accessor& accessor, const catalog::Component& component) {
  const catalog::StatusDefinition& s = component.status;
  if (s.empty()) return {{}, DefinitionNotFound(component, "status")};
  Result<Status> out;
  if (s.phase_path >= 0) {
    auto phase = ExtractPhase(accessor, s.phase_path);
    if (!phase.ok()) return {{}, WrapError("failed to extract phase", std::move(phase.error))};
    out.value.phase = std::move(phase.value);
  }
  auto conditions = ExtractConditions(accessor, s);
  if (!conditions.ok()) return {{}, WrapError("failed to extract conditions", std::move(conditions.error))};
  out.value.conditions = std::move(conditions.value);
  std::map<std::string, const Condition*> by_type;  // the last condition of a type wins
  for (const Condition& c : out.value.conditions) by_type[c.type] = &c;
  for (const auto* mapping : OrderedMappings(s)) {
    for (const catalog::StatusMatcher& m : mapping->second) {
      Result<bool> matched = Matches(accessor, m, out.value.phase, by_type);
      if (!matched.ok()) {
        return {{}, WrapError("failed to match status", WrapError("failed to evaluate matcher", std::move(matched.error)))};
      }
      if (matched.value) {
        out.value.matched_statuses.push_back(DisplayName(mapping->first));
        break;
      }
    }
  }
  if (out.value.matched_statuses.empty()) out.value.matched_statuses.push_back("Undefined");
  return out;
}

}  // namespace wm::workload
