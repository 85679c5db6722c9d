// Front-end benchmarks: jq parse throughput on catalog-style expressions (target: under 20 us per
// typical definition expression), parse + lower, and `wmc check catalog/` as a whole process
// (target: under 200 ms for the full catalog). Run: build/bin/bench_frontend
#include <benchmark/benchmark.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <climits>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "compiler/jq/parser.h"

extern char** environ;

namespace {

// Representative definition expressions, from short paths to status expressions.
const std::vector<std::string>& Expressions() {
  static const std::vector<std::string> kExpressions = {
      ".spec.replicatedJobs[].name",
      ".spec.replicatedJobs[].template.spec.template",
      ".spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1)",
      ".metadata.labels[\"jobset.sigs.k8s.io/replicatedjob-name\"]",
      ".status.conditions",
      "((.status.conditions // []) | any((.type == \"Completed\" or .type == \"Failed\") and "
      ".status == \"True\") | not) and ((.status.replicatedJobsStatus // []) | any((.ready // 0) "
      "> 0 and (.active // 0) > 0))",
      ".spec.pytorchReplicaSpecs | to_entries[] | .key",
      ".spec.pytorchReplicaSpecs | to_entries[] | .value.template",
      ".spec.workerGroupSpecs[] | .replicas // .minReplicas // 1",
      "if .spec.suspend then \"Suspended\" elif .status.state == \"ready\" then \"Running\" "
      "else \"Pending\" end",
      "[.status.conditions[]? | select(.type == \"Ready\") | .status] | first // \"Unknown\"",
      ".spec.leaderWorkerTemplate.size - 1",
  };
  return kExpressions;
}

void BM_Parse(benchmark::State& state) {
  const auto& exprs = Expressions();
  size_t i = 0;
  for (auto _ : state) {
    auto result = wm::jq::Parse(exprs[i]);
    if (!result.ok()) state.SkipWithError(("does not parse: " + exprs[i]).c_str());
    benchmark::DoNotOptimize(result.ast.get());
    i = (i + 1) % exprs.size();
  }
  state.SetLabel("per expression, " + std::to_string(exprs.size()) + " catalog-style expressions");
}
BENCHMARK(BM_Parse);

void BM_ParseAndLower(benchmark::State& state) {
  const auto& exprs = Expressions();
  size_t i = 0;
  for (auto _ : state) {
    auto lowered = wm::driver::LowerExpression(exprs[i]);
    benchmark::DoNotOptimize(lowered.ok());
    i = (i + 1) % exprs.size();
  }
}
BENCHMARK(BM_ParseAndLower);

std::string SiblingBinary(const char* name) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return name;
  std::string path(self, static_cast<size_t>(n));
  return path.substr(0, path.rfind('/') + 1) + name;
}

// The whole `wmc check catalog/` process, as CI runs it: start-up, reading, rules, type checking.
void BM_CheckCatalogProcess(benchmark::State& state) {
  std::string wmc = SiblingBinary("wmc");
  std::string catalog = std::string(WM_SOURCE_DIR) + "/catalog";
  for (auto _ : state) {
    std::vector<char*> argv = {wmc.data(), const_cast<char*>("check"), catalog.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    if (posix_spawn(&pid, wmc.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
      state.SkipWithError("cannot start wmc");
      break;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&actions);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("wmc check catalog/ did not exit 0");
      break;
    }
  }
}
BENCHMARK(BM_CheckCatalogProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
