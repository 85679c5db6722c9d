// Shared machinery of the differential tests: compares one case (program + input) across libjq
// and every wm engine, records mismatches with a category, shrinks them to small reproducers,
// prints a concise summary, and guards the run with a watchdog. Used by catalog_test.cpp and
// random_test.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/diff/libjq_oracle.h"
#include "tests/diff/wm_engines.h"

namespace wm::diff {

// Integer option from the environment (WM_DIFF_SEED, WM_DIFF_CASES, ...), or `fallback`.
int64_t EnvInt(const char* name, int64_t fallback);

// One disagreement between an engine and libjq.
struct Mismatch {
  std::string engine;    // "interp", "jit", "aot", or "front-end"
  std::string kind;      // see Classify()
  std::string program;
  std::string input;
  RunOutcome oracle;
  RunOutcome engine_outcome;
};

// "" when the engine agrees with libjq on outputs (compact JSON, in order) and on error-or-not;
// otherwise the kind of disagreement: "outputs", "wm-error" (wm errs, libjq does not),
// "wm-no-error", "limit" (a wm EvalLimits limit), "truncation". Error MESSAGES are not compared:
// jq 1.7 words many runtime errors differently from 1.6 (KNOWN_DIFFERENCES.md); they are shown
// in reports.
std::string Classify(const RunOutcome& oracle, const RunOutcome& engine);

// Human-readable outcome: outputs one per line, then "error: <message>".
std::string Describe(const RunOutcome& outcome);

// What RunCase saw besides mismatches.
struct CaseInfo {
  bool skipped = false;          // libjq rejected the program or input: nothing to compare
  bool libjq_error = false;      // libjq ended with an error
  int message_differences = 0;   // engines that erred like libjq but with another message
};

// Runs a case through libjq and every engine of `prepared` (interp, jit, aot when present) and
// returns the mismatches. A program the wm front end rejects while libjq runs it is a mismatch of
// engine "front-end"; a program libjq rejects is skipped.
std::vector<Mismatch> RunCase(LibjqOracle& oracle, const PreparedProgram& prepared,
                              const std::string& input_json, const Value& input,
                              size_t max_outputs, CaseInfo* info);

// Collects mismatches, prints the first few in full as they come, and renders a summary with one
// shrunk reproducer per distinct category.
class MismatchLog {
 public:
  explicit MismatchLog(size_t print_limit = 20) : print_limit_(print_limit) {}
  void Add(Mismatch m);
  size_t total() const { return total_; }
  // Shrinks the first example of each category (bounded work) and returns the report.
  std::string Summary(LibjqOracle& oracle, const EngineOptions& options);

 private:
  size_t print_limit_;
  size_t total_ = 0;
  struct Category {
    size_t count = 0;
    std::set<std::string> engines;
    Mismatch example;
  };
  std::map<std::string, Category> categories_;
};

// Category key of a mismatch: its kind and the shapes of the error messages involved (digits,
// quoted text and parenthesised values removed), so that one bug seen through many programs and
// engines forms one category.
std::string CategoryKey(const Mismatch& m);

// Greedy textual shrinking: tries sub-expressions of the program and sub-values of the input
// while the same engine still disagrees with libjq in the same way. Bounded by `budget` attempts
// and by `deadline`.
Mismatch Shrink(const Mismatch& m, LibjqOracle& oracle, const EngineOptions& options, int budget,
                std::chrono::steady_clock::time_point deadline);

// Aborts the process with the current case printed if one case runs longer than the limit
// (a hang in libjq or an engine must not hang `make test`).
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds limit);
  ~Watchdog();
  void Begin(const std::string& program, const std::string& input);
  void End();

 private:
  void Loop();
  std::chrono::seconds limit_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> started_ms_{0};  // 0 = idle
  std::string program_;
  std::string input_;
  std::thread thread_;
};

}  // namespace wm::diff
