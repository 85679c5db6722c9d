// One bundle resolved by 8 threads on every engine: the interpreter and the AOT code through
// workload::Resolve (what the C ABI and C++ callers run), and the JIT through the same resolvers
// compiled by driver::BuildEngine, one shared Filter per resolver (a Filter promises to be
// thread-safe). Every answer must equal the one computed on the main thread first. Built and run
// under ThreadSanitizer by tests/capi/tsan.sh (engines mode, `make test-sanitize`), which turns
// any data race into a failure.
//   wm_engine_threads NATIVE_BUNDLE   (a bundle with native code for this machine)
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/bundle/bundle.h"
#include "runtime/value/json.h"
#include "runtime/workload/view.h"
#include "runtime/workload/workload.h"

namespace {

constexpr int kThreads = 8;
constexpr int kRounds = 20;

constexpr const char* kJobSet =
    R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",
    "metadata":{"name":"train","namespace":"ml"},
    "spec":{"replicatedJobs":[
      {"name":"leader","replicas":1,"template":{"spec":{"parallelism":1,"template":
        {"spec":{"containers":[{"name":"t","resources":{"limits":{"nvidia.com/gpu":4}}}]}}}}},
      {"name":"worker","replicas":3,"template":{"spec":{"parallelism":2,"template":
        {"spec":{"containers":[{"name":"t","resources":{"limits":{"nvidia.com/gpu":"8"}}}]}}}}}]},
    "status":{"conditions":[{"type":"Completed","status":"True"}],
    "replicatedJobsStatus":[{"name":"leader","ready":1},{"name":"worker","ready":3}]}})";

// Runs `work` (returning the number of wrong answers) on kThreads threads, kRounds times each.
int OnThreads(const std::function<int()>& work) {
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) wrong[t] += work();
    });
  }
  int total = 0;
  for (int t = 0; t < kThreads; ++t) {
    threads[t].join();
    total += wrong[t];
  }
  return total;
}

std::string ResolveJson(const wm::Bundle& bundle, const wm::Value& object) {
  wm::workload::ResolvedWorkload resolved;
  std::string error;
  if (!wm::workload::Resolve(bundle, object, &resolved, &error)) return "error: " + error;
  return wm::ToJson(wm::workload::WorkloadJson(resolved));
}

// The interpreter or the AOT code, through workload::Resolve on one shared Bundle.
int ResolveOnThreads(const char* engine, const std::string& path, const wm::Value& object,
                     const wm::BundleLoadOptions& load) {
  std::string error;
  std::shared_ptr<wm::Bundle> bundle = wm::Bundle::Open(path, &error, load);
  if (!bundle) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  if (load.use_native && !bundle->native_loaded()) {
    std::fprintf(stderr, "%s: no native code loaded: %s\n", path.c_str(),
                 bundle->native_status().c_str());
    return 1;
  }
  const std::string expected = ResolveJson(*bundle, object);
  int wrong = OnThreads([&] { return ResolveJson(*bundle, object) == expected ? 0 : 1; });
  std::printf("%s: %d threads x %d rounds of Resolve, %d wrong answers\n", engine, kThreads,
              kRounds, wrong);
  return wrong != 0 || expected.rfind("error", 0) == 0;
}

// Every output of `filter` on `input` as one JSON array text (or the error).
std::string RunJson(const wm::Filter& filter, const wm::Value& input) {
  std::string out = "[";
  wm::EvalError error;
  wm::EvalStatus status = filter.Run(input, [&](const wm::Value& v) {
    out += wm::ToJson(v) + ",";
    return true;
  }, &error);
  if (status == wm::EvalStatus::kError) return "error: " + error.Message();
  return out + "]";
}

// The JIT: each resolver of the bundle the native backends support, compiled once and run by
// every thread on the workload object (as workload::Resolve runs resolvers: on the whole object).
int JitOnThreads(const std::string& path, const wm::Value& object) {
  std::string error;
  wm::BundleLoadOptions interp;
  interp.use_native = false;
  std::shared_ptr<wm::Bundle> bundle = wm::Bundle::Open(path, &error, interp);
  if (!bundle) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    return 1;
  }
  wm::driver::ExpressionOptions jit;
  jit.engine = wm::driver::Engine::kJit;
  std::vector<std::unique_ptr<wm::Filter>> filters;
  std::vector<std::string> expected;
  for (int32_t id = 0; id < static_cast<int32_t>(bundle->resolver_count()); ++id) {
    std::shared_ptr<const wm::ir::Program> program = bundle->resolver_program(id);
    if (!program || !wm::driver::NativeUnsupportedReason(*program).empty()) continue;
    auto built = wm::driver::BuildEngine(program, jit);
    if (!built.ok()) {
      std::fprintf(stderr, "jit: resolver %d: %s\n", id, built.failure().message.c_str());
      return 1;
    }
    expected.push_back(RunJson(bundle->resolver(id), object));  // the interpreter's answer
    filters.push_back(std::move(*built));
  }
  int wrong = 0;
  for (size_t i = 0; i < filters.size(); ++i) wrong += RunJson(*filters[i], object) != expected[i];
  wrong += OnThreads([&] {
    int bad = 0;
    for (size_t i = 0; i < filters.size(); ++i) bad += RunJson(*filters[i], object) != expected[i];
    return bad;
  });
  std::printf("jit: %zu resolvers, %d threads x %d rounds, %d wrong answers\n", filters.size(),
              kThreads, kRounds, wrong);
  return wrong != 0 || filters.empty();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s NATIVE_BUNDLE\n", argv[0]);
    return 2;
  }
  wm::Value object;
  wm::JsonError error;
  if (!wm::ParseJson(kJobSet, &object, &error)) {
    std::fprintf(stderr, "object: %s\n", error.message.c_str());
    return 2;
  }
  wm::BundleLoadOptions interp, aot;
  interp.use_native = false;
  int failed = 0;
  failed |= ResolveOnThreads("interp", argv[1], object, interp);
  failed |= ResolveOnThreads("aot", argv[1], object, aot);
  failed |= JitOnThreads(argv[1], object);
  return failed;
}
