// Random differential test: seeded random jq programs (jq_generator.h) on random JSON inputs,
// through libjq 1.6 and every wm engine. Options (environment): WM_DIFF_SEED (default 20261202),
// WM_DIFF_CASES (default 20000 cases), WM_DIFF_SECONDS (run for N seconds instead of a count),
// WM_DIFF_INPUTS (inputs per program, default 25), WM_DIFF_NATIVE=0 to skip JIT and AOT,
// WM_DIFF_JIT_EVERY (JIT-compile every n-th program, default 2).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "tests/diff/diff_harness.h"
#include "tests/diff/jq_generator.h"

namespace wm::diff {
namespace {

constexpr int64_t kDefaultSeed = 20261202;

TEST(RandomDiff, EnginesAgreeWithLibjq) {
  const uint64_t seed = static_cast<uint64_t>(EnvInt("WM_DIFF_SEED", kDefaultSeed));
  const int64_t seconds = EnvInt("WM_DIFF_SECONDS", 0);
  const int64_t max_cases = seconds > 0 ? INT64_MAX : EnvInt("WM_DIFF_CASES", 20000);
  const int64_t inputs_per_program = std::max<int64_t>(1, EnvInt("WM_DIFF_INPUTS", 25));
  const bool native = EnvInt("WM_DIFF_NATIVE", 1) != 0;
  const int64_t jit_every = std::max<int64_t>(1, EnvInt("WM_DIFF_JIT_EVERY", 2));
  constexpr size_t kBatch = 100;  // programs per AOT shared object

  EngineOptions options;
  options.enable_jit = native;
  options.enable_aot = native;
  ProgramGenerator programs(seed);
  JsonGenerator inputs(seed ^ 0x9e3779b97f4a7c15ull);
  LibjqOracle oracle;
  Watchdog watchdog(std::chrono::seconds(60));
  MismatchLog log(20);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
  };

  int64_t cases = 0, program_count = 0, native_count = 0, fused_count = 0, libjq_errors = 0, invalid = 0;
  int64_t message_differences = 0;
  while (cases < max_cases && (seconds == 0 || elapsed() < seconds)) {
    std::vector<std::unique_ptr<PreparedProgram>> batch;
    AotBatch aot;
    for (size_t i = 0; i < kBatch; ++i) {
      std::string text = programs.Next();
      std::string excluded = FindExcludedConstruct(text);
      if (!excluded.empty()) {
        ADD_FAILURE() << "generator emitted an excluded construct (" << excluded << "): " << text;
        continue;
      }
      if (!oracle.Compiles(text)) {
        ++invalid;
        ADD_FAILURE() << "generator emitted a program libjq 1.6 rejects: " << text;
        continue;
      }
      // JIT sessions cost a few ms each: every `jit_every`-th program gets one (AOT code is
      // batched and cheap per program, so every supported program gets it).
      EngineOptions per_program = options;
      per_program.enable_jit = native && (program_count + static_cast<int64_t>(batch.size())) % jit_every == 0;
      per_program.enable_view_native = per_program.enable_jit;  // a JIT session too
      batch.push_back(Prepare(text, per_program));
      PreparedProgram* p = batch.back().get();
      fused_count += p->view != nullptr ? 1 : 0;
      if (p->program != nullptr && p->native_supported) {
        ++native_count;
        if (options.enable_aot) aot.Add(p);
      }
    }
    std::string aot_error;
    if (aot.size() > 0 && !aot.Build(&aot_error)) {
      std::fprintf(stderr, "AOT batch failed: %s\n", aot_error.c_str());
    }
    for (const auto& p : batch) {
      ++program_count;
      for (int64_t k = 0; k < inputs_per_program && cases < max_cases; ++k) {
        std::string input_json = inputs.Next();
        Value input;
        std::string error;
        ASSERT_TRUE(ParseInput(input_json, &input, &error)) << error << ": " << input_json;
        watchdog.Begin(p->text, input_json);
        CaseInfo info;
        std::vector<Mismatch> found = RunCase(oracle, *p, input_json, input, options.max_outputs, &info);
        watchdog.End();
        if (info.skipped) continue;
        ++cases;
        libjq_errors += info.libjq_error ? 1 : 0;
        message_differences += info.message_differences;
        for (Mismatch& m : found) log.Add(std::move(m));
      }
      if (seconds > 0 && elapsed() >= seconds) break;
    }
  }
  std::fprintf(stderr,
               "random diff: seed %llu, %lld cases, %lld programs (%lld native, %lld fused on the view engine), %lld ended in a "
               "libjq error (%lld engine runs erred with other wording), %lld invalid programs, "
               "%lld mismatches, %llds\n",
               static_cast<unsigned long long>(seed), static_cast<long long>(cases),
               static_cast<long long>(program_count), static_cast<long long>(native_count), static_cast<long long>(fused_count),
               static_cast<long long>(libjq_errors), static_cast<long long>(message_differences),
               static_cast<long long>(invalid),
               static_cast<long long>(log.total()), static_cast<long long>(elapsed()));
  EXPECT_EQ(invalid, 0);
  EXPECT_EQ(log.total(), 0u) << "reproduce with WM_DIFF_SEED=" << seed << "\n"
                             << log.Summary(oracle, options);
}

}  // namespace
}  // namespace wm::diff
