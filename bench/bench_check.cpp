// Benchmarks of the schema stage and the type checker on the catalog's JobSet definition and the
// committed schemas: a cold registry (create + first lookup of JobSet and Pod, lazy fragment
// loads included), a full TypeCheck with a cold registry, a TypeCheck with a warm registry, and
// importing the JobSet CRD from YAML (what `wmc schema import` and `--crd FILE` cost).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "compiler/check/typecheck.h"
#include "compiler/definition/loader.h"
#include "compiler/schema/import.h"
#include "compiler/schema/registry.h"

namespace {

using namespace wm;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kSchemas = std::string(WM_SOURCE_DIR) + "/schemas";
const std::string kDefinitionPath =
    std::string(WM_SOURCE_DIR) + "/catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml";

schema::RegistryOptions Options() {
  schema::RegistryOptions o;
  o.schema_dirs = {kSchemas};
  o.use_default_dir = false;
  return o;
}

const definition::Definition& JobSetDefinition() {
  static definition::LoadResult loaded = [] {
    DiagnosticSink sink;
    std::string text = ReadText(kDefinitionPath);
    return definition::LoadDefinitions(kDefinitionPath, text, {}, sink);
  }();
  if (loaded.definitions.empty()) {
    std::fprintf(stderr, "bench_check: cannot load %s\n", kDefinitionPath.c_str());
    std::abort();
  }
  return loaded.definitions[0];
}

void BM_RegistryColdLookup(benchmark::State& state) {
  std::string error;
  size_t files = 0;
  for (auto _ : state) {
    auto reg = schema::SchemaRegistry::Create(Options(), &error);
    const schema::Schema* js = reg->Lookup(schema::Gvk::FromApiVersion("jobset.x-k8s.io/v1alpha2", "JobSet"));
    const schema::Schema* tpl = reg->Walk(js, ".spec.replicatedJobs[].template.spec.template.spec", &error);
    benchmark::DoNotOptimize(tpl);
    files = reg->files_loaded();
  }
  state.counters["files_loaded"] = static_cast<double>(files);
}
BENCHMARK(BM_RegistryColdLookup)->Unit(benchmark::kMicrosecond);

void BM_TypeCheckColdRegistry(benchmark::State& state) {
  const definition::Definition& def = JobSetDefinition();
  std::string error;
  size_t findings = 0, files = 0;
  for (auto _ : state) {
    auto reg = schema::SchemaRegistry::Create(Options(), &error);
    auto ds = check::TypeCheck(def, *reg);
    findings = ds.size();
    files = reg->files_loaded();
    benchmark::DoNotOptimize(ds);
  }
  state.counters["findings"] = static_cast<double>(findings);
  state.counters["files_loaded"] = static_cast<double>(files);
}
BENCHMARK(BM_TypeCheckColdRegistry)->Unit(benchmark::kMicrosecond);

void BM_TypeCheckWarmRegistry(benchmark::State& state) {
  const definition::Definition& def = JobSetDefinition();
  std::string error;
  auto reg = schema::SchemaRegistry::Create(Options(), &error);
  check::TypeCheck(def, *reg);  // loads what the definition touches
  for (auto _ : state) {
    auto ds = check::TypeCheck(def, *reg);
    benchmark::DoNotOptimize(ds);
  }
}
BENCHMARK(BM_TypeCheckWarmRegistry)->Unit(benchmark::kMicrosecond);

void BM_ImportJobSetCrd(benchmark::State& state) {
  std::string text = ReadText(std::string(WM_SOURCE_DIR) + "/../shared/crds/jobset.x-k8s.io/JobSet.yaml");
  if (text.empty()) {
    state.SkipWithError("../shared/crds/jobset.x-k8s.io/JobSet.yaml not found");
    return;
  }
  for (auto _ : state) {
    schema::ImportResult r;
    std::string error;
    bool ok = schema::ImportText(text, "JobSet.yaml", &r, &error);
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ImportJobSetCrd)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
