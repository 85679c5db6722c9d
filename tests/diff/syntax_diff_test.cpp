// Syntax differential test: the front end's reading of operator chains against libjq 1.6's parser.
// Seeded random programs mix binary operators with the constructs whose extent jq decides by
// precedence (definitions, `Term as $x |`, `label $x |`, unary minus, `try`, `catch` in any
// place, including where no `try` is open). For each program:
//   - wm's parser and libjq's compiler must agree on whether it is valid jq;
//   - for a valid one, libjq must give the same outcome for the program and for wm's canonical
//     print of it (which parenthesises wherever wm's tree needs it): a different tree shows up as a
//     different outcome. Both runs are libjq's, so this checks wm's parse, not its evaluation.
// Options (environment): WM_SYNTAX_SEED, WM_SYNTAX_CASES (default 250; libjq compiles a program
// in ~35 ms, so this is the bulk of the test's time).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <iterator>
#include <random>
#include <string>

#include "compiler/jq/parser.h"
#include "tests/diff/diff_harness.h"
#include "tests/diff/libjq_oracle.h"

namespace wm::diff {
namespace {

// Random text over the operator grammar; every name it uses is defined by the prefix that
// Program() adds, so a compile failure in libjq is a syntax error. It never writes the 1.6/1.7
// syntax differences (KNOWN_DIFFERENCES L1-L4: `if` without `else`, `.a.[`, `{$x: v}`, a postfix
// after `reduce`/`if`).
class ChainGenerator {
 public:
  explicit ChainGenerator(uint64_t seed) : random_(seed) {}

  std::string Program() { return "def f: 3; 5 as $x | " + Chain(0, false); }

 private:
  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(random_) < p; }
  int Between(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }

  std::string Atom(int depth) {
    static const char* const kLeaves[] = {"1", "2", ".", "null", "error(\"e\")", "$x", "f",
                                          "(1, 2)", "empty", "\"s\""};
    double r = std::uniform_real_distribution<double>(0, 1)(random_);
    if (depth > 3 || r < 0.35) {
      // Inside a definition's body `f` is that definition: calling it would recurse forever.
      std::string leaf = kLeaves[Between(0, std::size(kLeaves) - 1)];
      return leaf == "f" && in_definition_ > 0 ? "3" : leaf;
    }
    if (r < 0.43) return "[" + Chain(depth + 1, false) + "]";
    if (r < 0.51) return "(" + Chain(depth + 1, false) + ")";
    if (r < 0.61) return "try " + Chain(depth + 1, true);
    if (r < 0.68) return "-" + Atom(depth + 1);
    if (r < 0.76) {
      ++in_definition_;
      std::string body = Chain(depth + 1, false);
      --in_definition_;
      return "def f: " + body + "; " + Chain(depth + 1, false);
    }
    if (r < 0.84) return Atom(depth + 1) + " as $x | " + Chain(depth + 1, false);
    if (r < 0.89) return "label $l | " + Chain(depth + 1, false);
    if (r < 0.94) return Atom(depth + 1) + "?";
    return "try " + Atom(depth + 1) + " catch " + Atom(depth + 1);
  }

  // Operands joined by operators, with a `catch` now and then wherever it falls.
  std::string Chain(int depth, bool short_chain) {
    static const char* const kOperators[] = {"|", ",", "//", "+", "-", "*", "/", "and", "or",
                                             "==", "<", "|=", "="};
    int operands = short_chain && Chance(0.5) ? 1 : Between(1, 3);
    std::string text = Atom(depth);
    for (int i = 1; i < operands; ++i) {
      if (Chance(0.25)) {
        text += " catch " + Atom(depth + 1);
      } else {
        text += std::string(" ") + kOperators[Between(0, std::size(kOperators) - 1)] + " " + Atom(depth);
      }
    }
    return text;
  }

  std::mt19937_64 random_;
  int in_definition_ = 0;
};

TEST(SyntaxDiff, ChainsParseAsInLibjq) {
  const uint64_t seed = static_cast<uint64_t>(EnvInt("WM_SYNTAX_SEED", 20261202));
  const int64_t cases = EnvInt("WM_SYNTAX_CASES", 250);
  ChainGenerator generator(seed);
  OracleOptions options;
  options.max_outputs = 200;
  LibjqOracle oracle(options);
  Watchdog watchdog(std::chrono::seconds(60));
  int valid = 0, invalid = 0, mismatches = 0;
  for (int64_t i = 0; i < cases && mismatches < 10; ++i) {
    // Wrapped in an array: one outcome per program, whatever it outputs.
    std::string program = "[" + generator.Program() + "]";
    watchdog.Begin(program, "null");
    jq::ParseResult parsed = jq::Parse(program);
    bool jq_accepts = oracle.Compiles(program);
    watchdog.End();
    if (parsed.ok() != jq_accepts) {
      ++mismatches;
      ADD_FAILURE() << "seed " << seed << " case " << i << ": " << program << "\n  libjq "
                    << (jq_accepts ? "accepts" : "rejects") << ", wm "
                    << (parsed.ok() ? "accepts" : "rejects: " + parsed.diagnostics.front().message);
      continue;
    }
    if (!jq_accepts) {
      ++invalid;
      continue;
    }
    ++valid;
    std::string printed = jq::Print(*parsed.ast);
    watchdog.Begin(program, "null");
    RunOutcome original = oracle.Run(program, "null");
    watchdog.End();
    if (original.truncated) continue;  // an endless generator: nothing to compare
    watchdog.Begin(printed, "null");
    RunOutcome reprinted = oracle.Run(printed, "null");
    watchdog.End();
    if (original.outputs != reprinted.outputs || original.error != reprinted.error ||
        !reprinted.compiled) {
      ++mismatches;
      ADD_FAILURE() << "seed " << seed << " case " << i << ": " << program
                    << "\n  wm reads it as: " << printed << "\n  libjq: " << Describe(original)
                    << "\n  libjq on wm's reading: " << Describe(reprinted);
    }
  }
  std::printf("syntax differential: %d valid and %d invalid programs agree with libjq (%d "
              "mismatches)\n", valid - mismatches, invalid, mismatches);
  // Both kinds must be exercised, or the generator has drifted.
  EXPECT_GT(valid, static_cast<int>(cases / 5));
  EXPECT_GT(invalid, static_cast<int>(cases / 10));
}

}  // namespace
}  // namespace wm::diff
