// Whole-workload resolution through the C ABI (wm_resolve: JSON bytes in, JSON bytes out) next to
// the same resolution through the C++ API (ParseJson + workload::Resolve, no output document), so
// the ABI's own cost shows. Each catalog example below is resolved through its definition compiled
// to native code and to the interpreter, as a consumer would load them from a bundle.
//   build/bin/bench_capi [--benchmark_filter=Abi]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "base/yaml/yaml_json.h"
#include "compiler/driver/definitions.h"
#include "runtime/bundle/bundle.h"
#include "runtime/value/json.h"
#include "runtime/workload/workload.h"
#include "runtime/c/wm.h"

namespace {

struct Case {
  const char* name;        // benchmark argument label
  const char* definition;  // catalog/<definition>.yaml
  const char* example;     // catalog/examples/<example>
};
const Case kCases[] = {
    {"jobset", "jobset-x-k8s-io-jobset-v1alpha2", "jobset-training.yaml"},
    {"pytorchjob", "kubeflow-org-pytorchjob-v1", "kubeflow-org-pytorchjob-v1-running.yaml"},
};

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "bench_capi: %s\n", message.c_str());
  std::exit(1);
}

std::string ExampleJson(const Case& c) {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/catalog/examples/" + c.example);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> docs;
  wm::base::yaml::Error error;
  wm::base::yaml::TextOptions options;
  options.first_document_only = true;
  if (!wm::base::yaml::TextToJson(text.str(), options, &docs, &error) || docs.empty()) {
    Die(std::string(c.example) + ": " + error.message);
  }
  return docs[0];
}

std::string BundleBytes(const Case& c, bool native) {
  wm::driver::DefinitionOptions options;
  options.goal = wm::driver::Goal::kBundle;
  options.native = native;
  auto compiled = wm::driver::CompileDefinitions(
      {std::string(WM_SOURCE_DIR) + "/catalog/" + c.definition + ".yaml"}, options);
  if (!compiled.ok() || !compiled->bundle) Die(std::string("cannot compile ") + c.definition);
  return compiled->bundle->bytes;
}

// Bundles and objects, built once per (case, engine) on first use.
struct Fixture {
  std::string bytes;
  std::string object;
  wm_bundle* abi = nullptr;
  std::shared_ptr<wm::Bundle> cpp;
};

Fixture& Get(size_t index, bool native) {
  static std::map<std::pair<size_t, bool>, Fixture> fixtures;
  Fixture& f = fixtures[{index, native}];
  if (f.abi) return f;
  f.bytes = BundleBytes(kCases[index], native);
  f.object = ExampleJson(kCases[index]);
  wm_error* error = nullptr;
  if (wm_bundle_open_bytes(f.bytes.data(), f.bytes.size(), nullptr, &f.abi, &error) != WM_OK) {
    Die(wm_error_message(error));
  }
  std::string message;
  f.cpp = wm::Bundle::FromBytes(f.bytes, kCases[index].definition, &message);
  if (!f.cpp) Die(message);
  return f;
}

void BM_ResolveAbi(benchmark::State& state, bool native) {
  Fixture& f = Get(static_cast<size_t>(state.range(0)), native);
  state.SetLabel(kCases[state.range(0)].name);
  size_t bytes_out = 0;
  for (auto _ : state) {
    wm_buffer out{};
    if (wm_resolve(f.abi, f.object.data(), f.object.size(), nullptr, &out, nullptr) != WM_OK) {
      state.SkipWithError("wm_resolve failed");
      break;
    }
    bytes_out = out.size;
    wm_buffer_free(&out);
  }
  state.counters["out_bytes"] = static_cast<double>(bytes_out);
}

void BM_ResolveCpp(benchmark::State& state, bool native) {
  Fixture& f = Get(static_cast<size_t>(state.range(0)), native);
  state.SetLabel(kCases[state.range(0)].name);
  for (auto _ : state) {
    wm::Value object;
    wm::JsonError json_error;
    wm::ParseJson(f.object, &object, &json_error);
    wm::workload::ResolvedWorkload resolved;
    std::string error;
    if (!wm::workload::Resolve(*f.cpp, object, &resolved, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    benchmark::DoNotOptimize(resolved);
  }
}

BENCHMARK_CAPTURE(BM_ResolveAbi, native, true)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveAbi, interp, false)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveCpp, native, true)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveCpp, interp, false)->DenseRange(0, 1);

}  // namespace

BENCHMARK_MAIN();
