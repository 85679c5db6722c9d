// Engines side by side: 15 catalog-style resolver expressions over one ~6 KB JobSet object,
// evaluated by the interpreter, the ORC JIT, an AOT shared object (via NativeModule) and libjq 1.6
// (one compiled jq_state per expression, reused). One benchmark iteration = all 15 resolvers on
// one object, so the reported time is the per-object cost and ratios between engines are direct.
// Before timing, every engine's outputs are compared with the interpreter's and mismatches printed.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/eval/eval.h"
#include "runtime/value/json.h"

extern "C" {
#include <jq.h>
}

namespace {

// Resolvers in the style of catalog/ (paths, counts, status conditions, labels).
const char* const kExpressions[] = {
    R"(.spec.replicatedJobs[].template.spec.template)",
    R"(.spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1))",
    R"(.status.conditions[] | select(.type == "Completed") | .status)",
    R"([.spec.replicatedJobs[].name])",
    R"(.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"])",
    R"(.spec.replicatedJobs[].name)",
    R"(.metadata.name)",
    R"(.spec.replicatedJobs | length)",
    R"((.spec.suspend // false) | not)",
    R"((.status.conditions // []) | any(.type == "Suspended" and .status == "True"))",
    R"((.status.conditions // []) | any((.type == "Completed" or .type == "Failed") and .status == "True") | not)",
    R"((.status.replicatedJobsStatus // []) | all((.ready // 0) == 0))",
    R"(.spec.replicatedJobs[] | {name, replicas: (.replicas // 1)})",
    R"([.spec.replicatedJobs[].template.spec.template.spec.containers[].resources.limits["nvidia.com/gpu"] // "0" | tonumber] | add)",
    R"(.metadata.labels["jobset.sigs.k8s.io/jobset-name"], .metadata.namespace)",
};
constexpr size_t kNumExpressions = sizeof(kExpressions) / sizeof(kExpressions[0]);

// A JobSet as the API server returns it (managed fields trimmed), about 6 KB of JSON.
std::string JobSetJson() {
  auto container = [](const std::string& name, const std::string& gpus) {
    return R"({"name":")" + name + R"(","image":"nvcr.io/nvidia/pytorch:24.05-py3",
      "command":["torchrun","--nnodes=4","--nproc-per-node=8","train.py","--config","/etc/train/config.yaml"],
      "env":[{"name":"MASTER_ADDR","value":"trainer-driver-0-0.trainer"},{"name":"MASTER_PORT","value":"29500"},
             {"name":"NCCL_DEBUG","value":"INFO"},{"name":"WORLD_SIZE","value":"32"},
             {"name":"POD_NAME","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
      "ports":[{"containerPort":29500,"name":"dist","protocol":"TCP"}],
      "resources":{"limits":{"cpu":"32","memory":"256Gi","nvidia.com/gpu":")" + gpus + R"("},
                   "requests":{"cpu":"16","memory":"200Gi","nvidia.com/gpu":")" + gpus + R"("}},
      "volumeMounts":[{"mountPath":"/dev/shm","name":"dshm"},{"mountPath":"/etc/train","name":"config"},
                      {"mountPath":"/data","name":"dataset","readOnly":true}]})";
  };
  auto replicated_job = [&](const std::string& name, int replicas, int parallelism,
                            const std::string& gpus) {
    return R"({"name":")" + name + R"(","replicas":)" + std::to_string(replicas) + R"(,
      "template":{"metadata":{"labels":{"app":"trainer"}},"spec":{"backoffLimit":0,"completionMode":"Indexed",
        "completions":)" + std::to_string(parallelism) + R"(,"parallelism":)" + std::to_string(parallelism) + R"(,
        "template":{"metadata":{"labels":{"app":"trainer","role":")" + name + R"("},
                                "annotations":{"kueue.x-k8s.io/podset-preferred-topology":"rack"}},
          "spec":{"restartPolicy":"Never","schedulerName":"kai-scheduler","subdomain":"trainer",
            "containers":[)" + container(name, gpus) + R"(],
            "tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}],
            "volumes":[{"name":"dshm","emptyDir":{"medium":"Memory","sizeLimit":"64Gi"}},
                       {"name":"config","configMap":{"name":"train-config"}},
                       {"name":"dataset","persistentVolumeClaim":{"claimName":"imagenet"}}]}}}}})";
  };
  return R"({"apiVersion":"jobset.x-k8s.io/v1alpha2","kind":"JobSet",
  "metadata":{"name":"trainer","namespace":"research","uid":"5f0c8a7e-8a51-4c0e-9b1e-3f0e0d6f2a11",
    "resourceVersion":"918273","generation":2,"creationTimestamp":"2024-06-01T10:00:00Z",
    "labels":{"jobset.sigs.k8s.io/jobset-name":"trainer","jobset.sigs.k8s.io/replicatedjob-name":"workers",
              "kueue.x-k8s.io/queue-name":"research","team":"vision"},
    "annotations":{"kueue.x-k8s.io/workload":"jobset-trainer-7c1f2","note":"benchmark object"}},
  "spec":{"network":{"enableDNSHostnames":true,"subdomain":"trainer"},"suspend":false,
    "successPolicy":{"operator":"All","targetReplicatedJobs":["workers"]},
    "failurePolicy":{"maxRestarts":3},
    "replicatedJobs":[)" + replicated_job("driver", 1, 1, "8") + "," +
         replicated_job("workers", 3, 4, "8") + "," + replicated_job("evaluator", 1, 2, "1") +
         R"(]},
  "status":{"restarts":0,"terminalState":"",
    "conditions":[{"type":"StartupPolicyCompleted","status":"True","reason":"AllJobsStarted",
                   "message":"all jobs started","lastTransitionTime":"2024-06-01T10:01:00Z"},
                  {"type":"Suspended","status":"False","reason":"ResumeJobs","message":"jobset is resumed",
                   "lastTransitionTime":"2024-06-01T10:00:30Z"},
                  {"type":"Completed","status":"False","reason":"InProgress","message":"",
                   "lastTransitionTime":"2024-06-01T10:00:30Z"}],
    "replicatedJobsStatus":[{"name":"driver","ready":1,"active":1,"succeeded":0,"failed":0,"suspended":0},
                            {"name":"workers","ready":3,"active":3,"succeeded":0,"failed":0,"suspended":0},
                            {"name":"evaluator","ready":0,"active":1,"succeeded":0,"failed":0,"suspended":0}]}})";
}

struct Engines {
  wm::Value object;
  jv object_jv;
  std::vector<std::shared_ptr<const wm::ir::Program>> programs;
  std::vector<std::unique_ptr<wm::Filter>> interp, jit, aot;
  std::vector<jq_state*> jq;
  size_t json_bytes = 0;
  bool ok = false;
};

// Collects compact JSON outputs (or "error: msg") of one run.
std::string Outputs(const wm::Filter& filter, const wm::Value& input) {
  std::string text;
  wm::EvalError error;
  wm::EvalStatus status = filter.Run(input, [&](const wm::Value& v) {
    text += wm::ToJson(v) + " ";
    return true;
  }, &error);
  if (status == wm::EvalStatus::kError) text += "error: " + error.Message();
  return text;
}

std::string JqOutputs(jq_state* jq, jv input) {
  std::string text;
  jq_start(jq, jv_copy(input), 0);
  for (jv result = jq_next(jq);; result = jq_next(jq)) {
    if (!jv_is_valid(result)) {
      if (jv_invalid_has_msg(jv_copy(result))) {
        jv message = jv_invalid_get_msg(result);
        text += std::string("error: ") +
                (jv_get_kind(message) == JV_KIND_STRING ? jv_string_value(message) : "?");
        jv_free(message);
      } else {
        jv_free(result);
      }
      break;
    }
    jv dumped = jv_dump_string(result, 0);
    text += std::string(jv_string_value(dumped)) + " ";
    jv_free(dumped);
  }
  return text;
}

Engines* Setup() {
  auto* e = new Engines();
  std::string json = JobSetJson();
  e->json_bytes = json.size();
  wm::JsonError json_error;
  if (!wm::ParseJson(json, &e->object, &json_error)) {
    std::fprintf(stderr, "benchmark object is not valid JSON: %s\n", json_error.message.c_str());
    return e;
  }
  e->object_jv = jv_parse(json.c_str());
  std::vector<std::shared_ptr<const wm::ir::Program>> native_programs;
  wm::driver::ExpressionOptions jit_options;
  jit_options.engine = wm::driver::Engine::kJit;
  for (size_t i = 0; i < kNumExpressions; ++i) {
    const char* text = kExpressions[i];
    auto lowered = wm::driver::LowerExpression(text);
    if (!lowered.ok()) {
      std::fprintf(stderr, "does not compile: %s: %s\n", text, lowered.failure().Summary().c_str());
      return e;
    }
    std::shared_ptr<const wm::ir::Program> program = lowered->program;
    e->programs.push_back(program);
    e->interp.push_back(std::move(*wm::driver::BuildEngine(program)));
    std::string why = wm::driver::NativeUnsupportedReason(*program);
    if (why.empty()) {
      auto jit = wm::driver::BuildEngine(program, jit_options);
      if (!jit.ok()) std::fprintf(stderr, "JIT failed for %s: %s\n", text, jit.failure().message.c_str());
      e->jit.push_back(jit.ok() ? std::move(*jit) : nullptr);
      native_programs.push_back(program);
    } else {
      // As a bundle would: this resolver falls back to the interpreter in the native columns.
      std::fprintf(stderr, "note: native backends do not support %s (%s); using the interpreter\n",
                   text, why.c_str());
      e->jit.push_back(nullptr);
    }
    jq_state* jq = jq_init();
    if (jq == nullptr || !jq_compile(jq, text)) {
      std::fprintf(stderr, "libjq cannot compile %s\n", text);
      return e;
    }
    e->jq.push_back(jq);
  }
  // One shared object for every supported resolver, as in a bundle.
  auto aot = wm::driver::BuildAotBatch(native_programs);
  if (!aot.ok()) {
    std::fprintf(stderr, "AOT failed: %s\n", aot.failure().message.c_str());
    return e;
  }
  for (size_t i = 0, next = 0; i < kNumExpressions; ++i) {
    bool native = wm::driver::NativeUnsupportedReason(*e->programs[i]).empty();
    e->aot.push_back(native ? std::move((*aot)[next++]) : nullptr);
  }
  // Same answers everywhere before timing anything.
  for (size_t i = 0; i < kNumExpressions; ++i) {
    std::string reference = Outputs(*e->interp[i], e->object);
    std::string from_jq = JqOutputs(e->jq[i], e->object_jv);
    if (from_jq != reference) {
      std::fprintf(stderr, "MISMATCH libjq vs interpreter on %s:\n  jq:     %s\n  interp: %s\n",
                   kExpressions[i], from_jq.c_str(), reference.c_str());
    }
    for (const auto* engine : {&e->jit, &e->aot}) {
      const wm::Filter* f = (*engine)[i].get();
      if (f != nullptr && Outputs(*f, e->object) != reference) {
        std::fprintf(stderr, "MISMATCH %s vs interpreter on %s\n", f->engine_name(), kExpressions[i]);
      }
    }
  }
  std::fprintf(stderr, "object: %zu bytes of JSON; %zu resolvers per iteration\n", e->json_bytes,
               kNumExpressions);
  e->ok = true;
  return e;
}

Engines& Get() {
  static Engines* engines = Setup();
  return *engines;
}

// Runs every resolver once on the object, counting outputs so the work cannot be elided.
void RunAll(benchmark::State& state, const std::vector<std::unique_ptr<wm::Filter>>& filters) {
  Engines& e = Get();
  if (!e.ok) {
    state.SkipWithError("set-up failed (see stderr)");
    return;
  }
  size_t outputs = 0;
  wm::OutputFn count = [&](const wm::Value&) {
    ++outputs;
    return true;
  };
  wm::EvalError error;
  for (auto _ : state) {
    for (size_t i = 0; i < kNumExpressions; ++i) {
      const wm::Filter* f = filters[i] != nullptr ? filters[i].get() : e.interp[i].get();
      f->Run(e.object, count, &error);
    }
  }
  benchmark::DoNotOptimize(outputs);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.counters["outputs/obj"] = static_cast<double>(outputs) / static_cast<double>(state.iterations());
}

void BM_Interpreter(benchmark::State& state) { RunAll(state, Get().interp); }
void BM_Jit(benchmark::State& state) { RunAll(state, Get().jit); }
void BM_Aot(benchmark::State& state) { RunAll(state, Get().aot); }

void BM_Libjq(benchmark::State& state) {
  Engines& e = Get();
  if (!e.ok) {
    state.SkipWithError("set-up failed (see stderr)");
    return;
  }
  size_t outputs = 0;
  for (auto _ : state) {
    for (jq_state* jq : e.jq) {
      jq_start(jq, jv_copy(e.object_jv), 0);
      for (jv result = jq_next(jq); jv_is_valid(result); result = jq_next(jq)) {
        ++outputs;
        jv_free(result);
      }
    }
  }
  benchmark::DoNotOptimize(outputs);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.counters["outputs/obj"] = static_cast<double>(outputs) / static_cast<double>(state.iterations());
}

// Ingest costs, for context: our simdjson-based parser vs libjq's.
void BM_ParseJsonWm(benchmark::State& state) {
  std::string json = JobSetJson();
  for (auto _ : state) {
    wm::Value v;
    wm::JsonError error;
    benchmark::DoNotOptimize(wm::ParseJson(json, &v, &error));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * json.size()));
}

void BM_ParseJsonLibjq(benchmark::State& state) {
  std::string json = JobSetJson();
  for (auto _ : state) jv_free(jv_parse(json.c_str()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * json.size()));
}

BENCHMARK(BM_Interpreter)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Jit)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Aot)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Libjq)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParseJsonWm)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParseJsonLibjq)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
