// Whole-workload resolution through the C ABI (wm_resolve: JSON bytes in, JSON bytes out) next to
// the same resolution through the C++ API (ParseJson + workload::Resolve, no output document), so
// the ABI's own cost shows, and next to the same object resolved from its text on the view engine
// (workload::ResolveOnView: fused resolvers read the parsed text, no Value of the object). Each catalog example below is resolved through its definition compiled
// to native code and to the interpreter, as a consumer would load them from a bundle. The PodMap
// cases map every example pod of the workload (catalog/examples/pods/) to its component, instance,
// replica key and PodGroup: one wm_pod_map_batch call against one wm_pod_map call per pod.
//   build/bin/bench_capi [--benchmark_filter=Abi|PodMap]
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

// Every YAML document of a file under catalog/examples/ as JSON text.
std::vector<std::string> ExampleDocuments(const std::string& relative, bool first_only) {
  std::ifstream in(std::string(WM_SOURCE_DIR) + "/catalog/examples/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> docs;
  wm::base::yaml::Error error;
  wm::base::yaml::TextOptions options;
  options.first_document_only = first_only;
  if (!wm::base::yaml::TextToJson(text.str(), options, &docs, &error) || docs.empty()) {
    Die(relative + ": " + error.message);
  }
  return docs;
}

std::string ExampleJson(const Case& c) { return ExampleDocuments(c.example, true)[0]; }

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
  std::vector<std::string> pods;  // the example's pods, one JSON text each
  std::string pod_list;           // the same pods as one JSON array
  wm_bundle* abi = nullptr;
  std::shared_ptr<wm::Bundle> cpp;
  std::unique_ptr<wm::workload::FusedDefinitions> fused;  // the view engine's lowering of cpp
};

Fixture& Get(size_t index, bool native) {
  static std::map<std::pair<size_t, bool>, Fixture> fixtures;
  Fixture& f = fixtures[{index, native}];
  if (f.abi) return f;
  f.bytes = BundleBytes(kCases[index], native);
  f.object = ExampleJson(kCases[index]);
  f.pods = ExampleDocuments(std::string("pods/") + kCases[index].definition + "-pods.yaml", false);
  f.pod_list = "[";
  for (const std::string& pod : f.pods) f.pod_list += (f.pod_list.size() > 1 ? "," : "") + pod;
  f.pod_list += "]";
  wm_error* error = nullptr;
  if (wm_bundle_open_bytes(f.bytes.data(), f.bytes.size(), nullptr, &f.abi, &error) != WM_OK) {
    Die(wm_error_message(error));
  }
  std::string message;
  f.cpp = wm::Bundle::FromBytes(f.bytes, kCases[index].definition, &message);
  if (!f.cpp) Die(message);
  f.fused = std::make_unique<wm::workload::FusedDefinitions>(*f.cpp);
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

// BM_ResolveCpp from the object's JSON text on the view engine (the path wm_resolve takes);
// on_view = 1 when the view engine took the definition (else it is ParseJson + Resolve).
void BM_ResolveCppView(benchmark::State& state, bool native) {
  Fixture& f = Get(static_cast<size_t>(state.range(0)), native);
  state.SetLabel(kCases[state.range(0)].name);
  bool on_view = false;
  for (auto _ : state) {
    wm::workload::ResolvedWorkload resolved;
    on_view = wm::workload::ResolveOnView(*f.cpp, f.object, *f.fused, &resolved);
    if (!on_view) {
      wm::Value object;
      wm::JsonError json_error;
      wm::ParseJson(f.object, &object, &json_error);
      std::string error;
      if (!wm::workload::Resolve(*f.cpp, object, &resolved, &error)) {
        state.SkipWithError(error.c_str());
        break;
      }
    }
    benchmark::DoNotOptimize(resolved);
  }
  state.counters["on_view"] = on_view ? 1 : 0;
}

// All pods of the example in one call: the workload is parsed and resolved once.
void BM_PodMapBatch(benchmark::State& state, bool native) {
  Fixture& f = Get(static_cast<size_t>(state.range(0)), native);
  state.SetLabel(kCases[state.range(0)].name);
  for (auto _ : state) {
    wm_buffer out{};
    if (wm_pod_map_batch(f.abi, f.object.data(), f.object.size(), f.pod_list.data(),
                         f.pod_list.size(), nullptr, &out, nullptr) != WM_OK) {
      state.SkipWithError("wm_pod_map_batch failed");
      break;
    }
    wm_buffer_free(&out);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(f.pods.size()));
}

// One wm_pod_map call per pod, as a consumer answering pods one at a time does.
void BM_PodMapEach(benchmark::State& state, bool native) {
  Fixture& f = Get(static_cast<size_t>(state.range(0)), native);
  state.SetLabel(kCases[state.range(0)].name);
  for (auto _ : state) {
    for (const std::string& pod : f.pods) {
      wm_buffer out{};
      if (wm_pod_map(f.abi, f.object.data(), f.object.size(), pod.data(), pod.size(), nullptr,
                     &out, nullptr) != WM_OK) {
        state.SkipWithError("wm_pod_map failed");
        return;
      }
      wm_buffer_free(&out);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(f.pods.size()));
}

BENCHMARK_CAPTURE(BM_ResolveAbi, native, true)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveAbi, interp, false)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveCpp, native, true)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveCpp, interp, false)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveCppView, native, true)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_ResolveCppView, interp, false)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_PodMapBatch, native, true)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_PodMapEach, native, true)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_PodMapBatch, interp, false)->DenseRange(0, 1);
BENCHMARK_CAPTURE(BM_PodMapEach, interp, false)->DenseRange(0, 1);

}  // namespace

BENCHMARK_MAIN();
