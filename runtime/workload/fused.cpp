// The object-side resolvers of a definition on the view engine (fused.h).
#include "runtime/workload/fused.h"

#include <set>

namespace wm::workload {

std::vector<int32_t> ObjectResolvers(const catalog::Definition& definition) {
  std::vector<int32_t> out;
  std::set<int32_t> seen;
  auto add = [&](int32_t id) {
    if (id >= 0 && seen.insert(id).second) out.push_back(id);
  };
  for (const catalog::Component& c : definition.components) {
    add(c.instance_id);
    add(c.pod_template_spec);
    add(c.pod_spec);
    add(c.pod_metadata);
    for (const auto& [key, id] : c.fragmented) add(id);
    add(c.replicas);
    add(c.min_replicas);
    add(c.max_replicas);
    add(c.status.phase_path);
    add(c.status.conditions_path);
    for (const auto& [name, matchers] : c.status.mappings) {
      for (const catalog::StatusMatcher& m : matchers) add(m.by_expression);
    }
  }
  return out;
}

FusedDefinition::FusedDefinition(const Bundle& bundle, const catalog::Definition& definition) {
  std::vector<int32_t> all = ObjectResolvers(definition);
  object_resolver_count_ = all.size();
  view::FusedKindOptions options;
  options.sort_keys = true;  // the Accessor's order (SortKeysDeep)
  // A resolver whose IR does not decode (a damaged bundle; the bundle opens lazily) is left to the
  // regular engines, whose run of it words the error; it keeps the definition incomplete.
  std::vector<int32_t> decodable;
  for (int32_t id : all) {
    if (bundle.resolver_program(id) != nullptr) decodable.push_back(id);
  }
  auto programs_of = [&](const std::vector<int32_t>& ids) {
    std::vector<std::shared_ptr<const ir::Program>> programs;
    for (int32_t id : ids) programs.push_back(bundle.resolver_program(id));
    return programs;
  };
  // Lowered once to learn which resolvers fuse, then the fused ones alone: the runner never runs
  // the others (the Accessor runs them on the object's Value, charged to its budget).
  view::FusedKind probe(programs_of(decodable), options);
  for (size_t i = 0; i < decodable.size(); ++i) {
    if (!probe.fused(i)) continue;
    position_[decodable[i]] = static_cast<int>(fused_.size());
    fused_.push_back(decodable[i]);
  }
  // With the bundle's JIT hook, the kind's fills and programs run as native code (compiled here,
  // once per definition, as the hook compiles the regular engines' code on a kind's first use).
  if (bundle.native_compiler() != nullptr) options.native = bundle.native_compiler()->ViewCompiler();
  kind_ = std::make_unique<view::FusedKind>(programs_of(fused_), options);
}

int FusedDefinition::Position(int32_t resolver) const {
  auto it = position_.find(resolver);
  return it == position_.end() ? -1 : it->second;
}

std::unique_ptr<view::FusedRunner> FusedDefinition::AcquireRunner() const {
  {
    std::lock_guard<std::mutex> lock(runners_mutex_);
    if (!idle_runners_.empty()) {
      std::unique_ptr<view::FusedRunner> runner = std::move(idle_runners_.back());
      idle_runners_.pop_back();
      return runner;
    }
  }
  return std::make_unique<view::FusedRunner>(*kind_);
}

void FusedDefinition::ReleaseRunner(std::unique_ptr<view::FusedRunner> runner) const {
  std::lock_guard<std::mutex> lock(runners_mutex_);
  idle_runners_.push_back(std::move(runner));
}

bool FusedDefinition::Evaluate(std::string_view json, const RunOptions& run, Answers* out) const {
  out->assign(fused_.size(), std::nullopt);
  std::unique_ptr<view::FusedRunner> runner = AcquireRunner();
  JsonError error;
  bool ok = runner->Run(json, run, &error);
  for (size_t i = 0; ok && i < fused_.size(); ++i) {
    const view::ResolverResult& result = runner->result(i);
    if (!result.fused || result.status != EvalStatus::kOk) continue;
    std::vector<Value>& values = (*out)[i].emplace();
    values.reserve(result.outputs.size());
    for (const view::ViewOutput& v : result.outputs) values.push_back(v.ToValue());
  }
  ReleaseRunner(std::move(runner));
  return ok;
}

bool ObjectBudgetAllowsView(const ObjectLimits& limits) {
  const ObjectLimits defaults;
  return view::StepsAndTimeAtLeast(limits.fuel, limits.timeout_ms, defaults.fuel, defaults.timeout_ms);
}

const FusedDefinition& FusedDefinitions::For(const catalog::Definition& definition) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::unique_ptr<FusedDefinition>& slot = by_definition_[&definition];
  if (!slot) slot = std::make_unique<FusedDefinition>(*bundle_, definition);
  return *slot;
}

}  // namespace wm::workload
