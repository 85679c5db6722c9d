// Bundle load (issue 17 item 5): opening the built catalog (build/share/wmc/catalog.wmb) with its
// AOT shared object mapped, on the interpreter only, and with the JIT hook (BundleLoadJit: resolvers
// compiled per kind on first use, so opening compiles nothing); the time to JIT one kind on its
// first use (BundleJitKind, per definition); and JIT-compiling every resolver the native backends
// support at once (what a bundle without AOT code for this machine would cost eagerly) at -O1 and
// -O2: one JIT session per resolver (BundleJitAll) and one for all (BundleJitBatch,
// codegen::CompileJitBatch). Run after `make build`; the path can be given as WMC_CATALOG.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "compiler/driver/expression.h"
#include "runtime/bundle/bundle.h"

namespace {

std::string CatalogPath() {
  if (const char* env = std::getenv("WMC_CATALOG")) return env;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string dir = n > 0 ? std::string(exe, static_cast<size_t>(n)) : std::string("build/bin/x");
  dir = dir.substr(0, dir.rfind('/'));
  return dir + "/../share/wmc/catalog.wmb";
}

std::shared_ptr<wm::Bundle> Open(bool native, benchmark::State& state,
                                  std::shared_ptr<const wm::NativeCompiler> compiler = nullptr) {
  std::string error;
  wm::BundleLoadOptions options;
  options.use_native = native;
  options.compiler = std::move(compiler);
  std::shared_ptr<wm::Bundle> bundle = wm::Bundle::Open(CatalogPath(), &error, options);
  if (!bundle) state.SkipWithError(("cannot open the catalog: " + error).c_str());
  return bundle;
}

void BM_BundleLoadAot(benchmark::State& state) {
  for (auto _ : state) {
    std::shared_ptr<wm::Bundle> bundle = Open(true, state);
    if (!bundle) return;
    if (!bundle->native_loaded()) {
      state.SkipWithError(("no native code: " + bundle->native_status()).c_str());
      return;
    }
    state.counters["native_resolvers"] = static_cast<double>(bundle->native_resolver_count());
  }
}

void BM_BundleLoadInterp(benchmark::State& state) {
  for (auto _ : state) {
    if (!Open(false, state)) return;
  }
}

std::shared_ptr<const wm::NativeCompiler> JitHook(int opt_level) {
  wm::codegen::CodegenOptions options;
  options.opt_level = opt_level;
  return wm::codegen::MakeJitCompiler(options);
}

// Opening with the JIT hook: nothing is compiled until a kind is used.
void BM_BundleLoadJit(benchmark::State& state) {
  std::shared_ptr<const wm::NativeCompiler> hook = JitHook(1);
  for (auto _ : state) {
    if (!Open(false, state, hook)) return;
  }
}

// The first use of one kind (definition `range(0)` of the catalog, in manifest order) on a bundle
// opened with the JIT hook at -O`range(1)`: the kind's resolvers compiled in one batch. The bundle
// is opened outside the timing, once per iteration.
void BM_BundleJitKind(benchmark::State& state) {
  std::shared_ptr<const wm::NativeCompiler> hook = JitHook(static_cast<int>(state.range(1)));
  size_t compiled = 0;
  std::string name;
  for (auto _ : state) {
    state.PauseTiming();
    std::shared_ptr<wm::Bundle> bundle = Open(false, state, hook);
    if (!bundle) return;
    if (static_cast<size_t>(state.range(0)) >= bundle->definitions().size()) {
      state.SkipWithError("no such definition");
      return;
    }
    const wm::catalog::Definition& definition = bundle->definitions()[state.range(0)];
    name = definition.name;
    state.ResumeTiming();
    bundle->PrepareDefinition(definition);
    compiled = bundle->compiled_resolver_count();
  }
  state.SetLabel(name);
  state.counters["resolvers"] = static_cast<double>(compiled);
}

// JIT of the whole catalog: every supported resolver's program through the ORC JIT.
void BM_BundleJitAll(benchmark::State& state) {
  std::shared_ptr<wm::Bundle> bundle = Open(false, state);
  if (!bundle) return;
  std::vector<std::shared_ptr<const wm::ir::Program>> programs;
  for (size_t id = 0; id < bundle->resolver_count(); ++id) {
    std::shared_ptr<const wm::ir::Program> program = bundle->resolver_program(static_cast<int32_t>(id));
    if (!program || !wm::driver::NativeUnsupportedReason(*program).empty()) continue;
    programs.push_back(std::move(program));
  }
  wm::driver::ExpressionOptions options;
  options.engine = wm::driver::Engine::kJit;
  options.opt_level = static_cast<int>(state.range(0));
  for (auto _ : state) {
    std::vector<std::unique_ptr<wm::Filter>> filters;
    for (const auto& program : programs) {
      auto built = wm::driver::BuildEngine(program, options);
      if (!built.ok()) {
        state.SkipWithError(built.failure().message.c_str());
        return;
      }
      filters.push_back(std::move(*built));
    }
  }
  state.counters["resolvers"] = static_cast<double>(programs.size());
}

// The same programs in one JIT session (codegen::CompileJitBatch), the whole batch timed.
void BM_BundleJitBatch(benchmark::State& state) {
  std::shared_ptr<wm::Bundle> bundle = Open(false, state);
  if (!bundle) return;
  std::vector<std::shared_ptr<const wm::ir::Program>> programs;
  for (size_t id = 0; id < bundle->resolver_count(); ++id) {
    programs.push_back(bundle->resolver_program(static_cast<int32_t>(id)));
  }
  wm::codegen::CodegenOptions options;
  options.opt_level = static_cast<int>(state.range(0));
  size_t compiled = 0;
  for (auto _ : state) {
    wm::codegen::JitBatchResult batch = wm::codegen::CompileJitBatch(programs, options);
    if (!batch.error.empty()) {
      state.SkipWithError(batch.error.c_str());
      return;
    }
    compiled = 0;
    for (const auto& filter : batch.filters) compiled += filter != nullptr ? 1 : 0;
  }
  state.counters["resolvers"] = static_cast<double>(compiled);
}

BENCHMARK(BM_BundleLoadAot)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BundleLoadInterp)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BundleLoadJit)->Unit(benchmark::kMillisecond);
// Every kind of the catalog (28 definitions; an index past the end is skipped) at -O1 and -O2;
// the CPU column is the process's (both compile threads).
BENCHMARK(BM_BundleJitKind)
    ->ArgsProduct({benchmark::CreateDenseRange(0, 27, 1), {1, 2}})
    ->Iterations(1)
    ->MeasureProcessCPUTime()  // CompileJitBatch compiles on 2 threads
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BundleJitAll)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BundleJitBatch)
    ->Arg(1)
    ->Arg(2)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()  // 2 compile threads, as BundleJitKind
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
