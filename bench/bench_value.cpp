// Benchmarks of the value model against nlohmann::json on a ~6 KB Kubernetes-like object (a
// JobSet with two replicated jobs and status): parse, serialize, both, and a field lookup path.
// simdjson's DOM parse is included as the floor for parsing alone. Run: build/bin/bench_value
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <string>

#include "runtime/value/json.h"
#include "runtime/value/value.h"

namespace {

// A JobSet resembling what a controller sees: labels, annotations, two pod templates with env,
// resources, volumes and tolerations, and a status with conditions.
std::string MakeJobSetJson() {
  using nlohmann::json;
  auto container = [](const std::string& name, int gpus) {
    json env = json::array();
    for (int i = 0; i < 24; ++i) {
      env.push_back({{"name", "TRAINING_OPTION_" + std::to_string(i)}, {"value", "value-" + std::to_string(i * 37)}});
    }
    env.push_back({{"name", "POD_IP"}, {"valueFrom", {{"fieldRef", {{"fieldPath", "status.podIP"}}}}}});
    return json{{"name", name},
                {"image", "nvcr.io/nvidia/pytorch:24.05-py3"},
                {"command", {"torchrun", "--nnodes=3", "--nproc-per-node=4", "train.py"}},
                {"args", {"--config", "/etc/config/llama-70b.yaml", "--steps", "100000"}},
                {"env", env},
                {"ports", {{{"containerPort", 29500}, {"name", "c10d"}, {"protocol", "TCP"}}}},
                {"resources",
                 {{"limits", {{"cpu", "32"}, {"memory", "512Gi"}, {"nvidia.com/gpu", gpus}}},
                  {"requests", {{"cpu", "30"}, {"memory", "480Gi"}, {"nvidia.com/gpu", gpus}}}}},
                {"volumeMounts",
                 {{{"name", "config"}, {"mountPath", "/etc/config"}},
                  {{"name", "dshm"}, {"mountPath", "/dev/shm"}},
                  {{"name", "checkpoints"}, {"mountPath", "/checkpoints"}}}}};
  };
  auto replicated_job = [&](const std::string& name, int replicas) {
    return json{
        {"name", name},
        {"replicas", replicas},
        {"template",
         {{"metadata", {{"labels", {{"role", name}}}}},
          {"spec",
           {{"parallelism", 1},
            {"completions", 1},
            {"backoffLimit", 0},
            {"template",
             {{"metadata", {{"labels", {{"role", name}, {"app", "llama-pretrain"}}},
                            {"annotations", {{"kueue.x-k8s.io/podset", name}}}}},
              {"spec",
               {{"restartPolicy", "Never"},
                {"schedulerName", "kai-scheduler"},
                {"priorityClassName", "train"},
                {"containers", {container(name, 4)}},
                {"tolerations",
                 {{{"key", "nvidia.com/gpu"}, {"operator", "Exists"}, {"effect", "NoSchedule"}}}},
                {"nodeSelector", {{"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"}}},
                {"volumes",
                 {{{"name", "config"}, {"configMap", {{"name", "llama-config"}}}},
                  {{"name", "dshm"}, {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", "64Gi"}}}},
                  {{"name", "checkpoints"},
                   {"persistentVolumeClaim", {{"claimName", "llama-checkpoints"}}}}}}}}}}}}}}};
  };
  json jobset = {
      {"apiVersion", "jobset.x-k8s.io/v1alpha2"},
      {"kind", "JobSet"},
      {"metadata",
       {{"name", "llama-pretrain"},
        {"namespace", "team-a"},
        {"uid", "5b0d7a56-3f0e-4d8e-9c51-7e1f3a2b9c10"},
        {"generation", 1},
        {"resourceVersion", "99812734"},
        {"creationTimestamp", "2026-11-30T09:12:04Z"},
        {"labels", {{"kueue.x-k8s.io/queue-name", "team-a"}, {"app", "llama-pretrain"}}},
        {"annotations", {{"run.ai/description", "70B pretraining, 3 nodes x 4 GPUs"}}}}},
      {"spec",
       {{"startupPolicy", {{"startupPolicyOrder", "InOrder"}}},
        {"successPolicy", {{"operator", "All"}, {"targetReplicatedJobs", {"leader"}}}},
        {"failurePolicy", {{"maxRestarts", 3}}},
        {"network", {{"enableDNSHostnames", true}, {"subdomain", "llama"}}},
        {"replicatedJobs", {replicated_job("leader", 1), replicated_job("worker", 2)}}}},
      {"status",
       {{"restarts", 0},
        {"terminalState", nullptr},
        {"conditions",
         {{{"type", "StartupPolicyCompleted"},
           {"status", "True"},
           {"reason", "StartupPolicyCompleted"},
           {"message", "InOrder startup policy has completed"},
           {"lastTransitionTime", "2026-11-30T09:14:40Z"}}}},
        {"replicatedJobsStatus",
         {{{"name", "leader"}, {"ready", 1}, {"succeeded", 0}, {"failed", 0}, {"active", 1}, {"suspended", 0}},
          {{"name", "worker"}, {"ready", 2}, {"succeeded", 0}, {"failed", 0}, {"active", 2}, {"suspended", 0}}}},
        {"progress", 0.4375},
        {"throughput", 1.25e5}}}};
  return jobset.dump();
}

const std::string& Document() {
  static const std::string text = MakeJobSetJson();
  return text;
}

void SetCounters(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(Document().size()));
  state.counters["doc_bytes"] = static_cast<double>(Document().size());
}

wm::Value ParseWm() {
  wm::Value v;
  wm::JsonError error;
  if (!wm::ParseJson(Document(), &v, &error)) std::abort();
  return v;
}

void BM_Wm_Parse(benchmark::State& state) {
  for (auto _ : state) {
    wm::Value v = ParseWm();
    benchmark::DoNotOptimize(v);
  }
  SetCounters(state);
}
BENCHMARK(BM_Wm_Parse);

void BM_Nlohmann_Parse(benchmark::State& state) {
  for (auto _ : state) {
    auto j = nlohmann::json::parse(Document());
    benchmark::DoNotOptimize(j);
  }
  SetCounters(state);
}
BENCHMARK(BM_Nlohmann_Parse);

void BM_SimdjsonDom_ParseOnly(benchmark::State& state) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(Document());
  for (auto _ : state) {
    simdjson::dom::element doc;
    if (parser.parse(padded).get(doc) != simdjson::SUCCESS) std::abort();
    benchmark::DoNotOptimize(doc);
  }
  SetCounters(state);
}
BENCHMARK(BM_SimdjsonDom_ParseOnly);

void BM_Wm_Serialize(benchmark::State& state) {
  wm::Value v = ParseWm();
  std::string out;
  for (auto _ : state) {
    out.clear();
    wm::WriteJson(v, &out);
    benchmark::DoNotOptimize(out.data());
  }
  SetCounters(state);
}
BENCHMARK(BM_Wm_Serialize);

void BM_Nlohmann_Dump(benchmark::State& state) {
  auto j = nlohmann::json::parse(Document());
  for (auto _ : state) {
    std::string out = j.dump();
    benchmark::DoNotOptimize(out.data());
  }
  SetCounters(state);
}
BENCHMARK(BM_Nlohmann_Dump);

void BM_Wm_ParseSerialize(benchmark::State& state) {
  std::string out;
  for (auto _ : state) {
    wm::Value v = ParseWm();
    out.clear();
    wm::WriteJson(v, &out);
    benchmark::DoNotOptimize(out.data());
  }
  SetCounters(state);
}
BENCHMARK(BM_Wm_ParseSerialize);

void BM_Nlohmann_ParseDump(benchmark::State& state) {
  for (auto _ : state) {
    auto j = nlohmann::json::parse(Document());
    std::string out = j.dump();
    benchmark::DoNotOptimize(out.data());
  }
  SetCounters(state);
}
BENCHMARK(BM_Nlohmann_ParseDump);

// .spec.replicatedJobs[1].template.spec.template.spec.containers[0].resources.limits["nvidia.com/gpu"]
void BM_Wm_LookupPath(benchmark::State& state) {
  wm::Value v = ParseWm();
  for (auto _ : state) {
    const wm::Value* jobs = v.Find("spec")->Find("replicatedJobs");
    const wm::Value* pod = jobs->At(1)->Find("template")->Find("spec")->Find("template")->Find("spec");
    const wm::Value* gpus =
        pod->Find("containers")->At(0)->Find("resources")->Find("limits")->Find("nvidia.com/gpu");
    benchmark::DoNotOptimize(gpus->AsNumber());
  }
}
BENCHMARK(BM_Wm_LookupPath);

void BM_Nlohmann_LookupPath(benchmark::State& state) {
  auto j = nlohmann::json::parse(Document());
  for (auto _ : state) {
    const auto& jobs = j["spec"]["replicatedJobs"];
    const auto& pod = jobs[1]["template"]["spec"]["template"]["spec"];
    double gpus = pod["containers"][0]["resources"]["limits"]["nvidia.com/gpu"].get<double>();
    benchmark::DoNotOptimize(gpus);
  }
}
BENCHMARK(BM_Nlohmann_LookupPath);

// Copies share cells: copying the whole document is one refcount increment.
void BM_Wm_CopyDocument(benchmark::State& state) {
  wm::Value v = ParseWm();
  for (auto _ : state) {
    wm::Value copy = v;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_Wm_CopyDocument);

}  // namespace

BENCHMARK_MAIN();
