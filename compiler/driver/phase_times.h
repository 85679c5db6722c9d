// Wall time per compiler phase for `wmc compile|check --time-passes`: the driver adds the time of
// each stage (schema loading, YAML + jq parsing, lowering, type checking, LLVM emit / optimize /
// codegen, link) under its name, in first-seen order, and Report() prints the table on stderr.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wm::driver {

class PhaseTimes {
 public:
  // Adds `seconds` to `phase` (a phase seen again accumulates, e.g. lowering of every file).
  void Add(std::string_view phase, double seconds);
  double Total() const;
  // "  <phase padded>  <ms> ms  <percent>%" per phase, then the total.
  std::string Report() const;
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }

 private:
  std::vector<std::pair<std::string, double>> phases_;
};

// Times a scope into `times` (no-op when `times` is null).
class ScopedPhase {
 public:
  ScopedPhase(PhaseTimes* times, std::string_view phase) : times_(times), phase_(phase) {}
  ~ScopedPhase() {
    if (times_ == nullptr) return;
    times_->Add(phase_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimes* times_;
  std::string_view phase_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace wm::driver
