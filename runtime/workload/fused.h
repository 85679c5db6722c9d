// Workload resolution on the view engine (runtime/eval/view): the resolvers of one definition that
// run on the workload object (instance ids, pod shapes, scales, status) lowered together in the
// bytewise key order the Accessor evaluates in. Used when an object arrives as JSON text
// (Accessor::FromJson, ResolveJson): fused resolvers then read the parsed text in place.
//
//   FusedDefinitions cache(bundle);  const FusedDefinition& f = cache.For(definition);
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/eval/view/view.h"
#include "runtime/workload/run.h"

namespace wm::workload {

// The resolver ids of a definition that run on the workload object, each once, in definition
// order: per component instance id, pod shape paths, scale paths, status phase, conditions and
// matcher expressions. Pod-side selectors and write paths are not among them.
std::vector<int32_t> ObjectResolvers(const catalog::Definition& definition);

// The fused object-side resolvers of one definition, as one view-engine kind (sort_keys).
class FusedDefinition {
 public:
  FusedDefinition(const Bundle& bundle, const catalog::Definition& definition);

  const view::FusedKind& kind() const { return *kind_; }
  // The position of `resolver` in kind(), or -1 when the view engine does not fuse it.
  int Position(int32_t resolver) const;
  size_t fused_count() const { return fused_.size(); }
  size_t object_resolver_count() const { return object_resolver_count_; }
  // Every object-side resolver is fused: reading an object as text then never needs its Value
  // (unless a resolver fails or reaches a limit), which is where the view engine pays.
  bool complete() const { return fused_.size() == object_resolver_count_; }

  // Per position in kind(): the outputs of that resolver on `json` when the view engine answered
  // it (no error, no limit: those are the regular engine's to word), else nullopt. Outputs are
  // Values in bytewise key order. False when `json` is not valid JSON. Thread-safe.
  using Answers = std::vector<std::optional<std::vector<Value>>>;
  bool Evaluate(std::string_view json, const RunOptions& run, Answers* out) const;

 private:
  std::unique_ptr<view::FusedRunner> AcquireRunner() const;
  void ReleaseRunner(std::unique_ptr<view::FusedRunner> runner) const;

  std::vector<int32_t> fused_;           // kind()'s resolvers, in order
  std::map<int32_t, int> position_;      // resolver id -> position in kind()
  size_t object_resolver_count_ = 0;
  std::unique_ptr<view::FusedKind> kind_;
  // Idle runners (each holds a simdjson parser sized by earlier objects), reused across objects.
  mutable std::mutex runners_mutex_;
  mutable std::vector<std::unique_ptr<view::FusedRunner>> idle_runners_;
};

// Whether objects read under this object budget may be resolved on the view engine. Its fused runs
// count no interpreter steps, so they are not charged to the object budget (docs/limits.md): a
// caller that tightens the budget below the runtime's defaults asks for the regular engines' exact
// step accounting and gets it. At the defaults (50M steps for all runs on one object) only runs
// on the regular engine are charged; fused programs have no recursion, so reaching the budget
// with them takes a document far beyond what the catalog's objects are.
bool ObjectBudgetAllowsView(const ObjectLimits& limits);

// One FusedDefinition per definition of a bundle (which must outlive it), lowered on first use.
// Thread-safe.
class FusedDefinitions {
 public:
  explicit FusedDefinitions(const Bundle& bundle) : bundle_(&bundle) {}
  const FusedDefinition& For(const catalog::Definition& definition) const;

 private:
  const Bundle* bundle_;
  mutable std::mutex mutex_;
  mutable std::map<const catalog::Definition*, std::unique_ptr<FusedDefinition>> by_definition_;
};

}  // namespace wm::workload
