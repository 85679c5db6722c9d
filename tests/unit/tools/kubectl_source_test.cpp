// Tests of tools/kubectl_source.h: the process runner (exit status, both pipes, the output bound),
// the exact kubectl argv of each scope, finding kubectl through WMC_KUBECTL and PATH, and
// FetchDescribeInput against the lit tests' recorded cluster (tests/lit/cli/Inputs/fake-kubectl).
#include "tools/kubectl_source.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace wm::tools {
namespace {

using Args = std::vector<std::string>;

TEST(KubectlSourceTest, RunProcessCollectsStdoutStderrAndStatus) {
  ProcessOutput out;
  std::string error;
  ProcessOptions options;
  options.relay_stderr = false;
  ASSERT_TRUE(RunProcess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, options, &out, &error)) << error;
  EXPECT_EQ(out.out, "out\n");
  EXPECT_EQ(out.err, "err\n");
  EXPECT_EQ(out.exit_status, 3);
}

TEST(KubectlSourceTest, RunProcessPassesArgvUnchangedWithoutAShell) {
  ProcessOutput out;
  std::string error;
  ASSERT_TRUE(RunProcess({"/bin/echo", "a b", "$HOME", "*"}, {}, &out, &error)) << error;
  EXPECT_EQ(out.out, "a b $HOME *\n");
}

TEST(KubectlSourceTest, RunProcessKillsAProcessPastTheOutputBound) {
  ProcessOutput out;
  std::string error;
  ProcessOptions options;
  options.max_output_bytes = 100000;
  EXPECT_FALSE(RunProcess({"/usr/bin/yes"}, options, &out, &error));
  EXPECT_EQ(error, "output exceeds 100000 bytes");
}

TEST(KubectlSourceTest, RunProcessReportsAMissingProgram) {
  ProcessOutput out;
  std::string error;
  EXPECT_FALSE(RunProcess({"/nonexistent/kubectl"}, {}, &out, &error));
  EXPECT_NE(error.find("cannot run /nonexistent/kubectl"), std::string::npos) << error;
}

TEST(KubectlSourceTest, GetArgsPerScope) {
  KubectlOptions o;
  EXPECT_EQ(KubectlGetArgs(o, "pods", std::nullopt), (Args{"get", "pods", "-o", "json"}));
  o.namespace_ = "team-a";
  o.context = "prod";
  o.kubeconfig = "/k/config";
  EXPECT_EQ(KubectlGetArgs(o, "jobsets.v1alpha2.jobset.x-k8s.io", std::string("x")),
            (Args{"get", "jobsets.v1alpha2.jobset.x-k8s.io", "x", "--namespace", "team-a", "--context", "prod",
                  "--kubeconfig", "/k/config", "-o", "json"}));
  o.all_namespaces = true;
  EXPECT_EQ(KubectlGetArgs(o, "pods", std::nullopt),
            (Args{"get", "pods", "--all-namespaces", "--context", "prod", "--kubeconfig", "/k/config", "-o", "json"}));
}

TEST(KubectlSourceTest, FindKubectlHonoursWmcKubectl) {
  FetchError error;
  ::setenv("WMC_KUBECTL", "/bin/sh", 1);
  EXPECT_EQ(FindKubectl(&error).value_or(""), "/bin/sh");
  ::setenv("WMC_KUBECTL", "/nonexistent/kubectl", 1);
  EXPECT_FALSE(FindKubectl(&error));
  EXPECT_EQ(error.message, "WMC_KUBECTL=/nonexistent/kubectl is not an executable file");
  EXPECT_EQ(error.exit_code, 2);
  ::setenv("WMC_KUBECTL", "sh", 1);  // a name is looked up on PATH
  EXPECT_NE(FindKubectl(&error).value_or(""), "");
  ::unsetenv("WMC_KUBECTL");
}

// The stand-in kubectl of the lit tests, its argv logged to a temporary file.
class FakeKubectlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_ = std::filesystem::temp_directory_path() / ("wm_fake_kubectl_" + std::to_string(::getpid()) + ".log");
    std::filesystem::remove(log_);
    ::setenv("WMC_KUBECTL", WM_SOURCE_DIR "/tests/lit/cli/Inputs/fake-kubectl", 1);
    ::setenv("FAKE_KUBECTL_LOG", log_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("WMC_KUBECTL");
    ::unsetenv("FAKE_KUBECTL_LOG");
    std::filesystem::remove(log_);
  }
  std::string Log() {
    std::ifstream in(log_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::filesystem::path log_;
};

std::string Name(const Value& object) {
  const Value* meta = object.Find("metadata");
  const Value* name = meta ? meta->Find("name") : nullptr;
  return name && name->IsString() ? std::string(name->AsString()) : "";
}

TEST_F(FakeKubectlTest, FetchDescribeInputReadsTheWorkloadAndThePodsOfItsNamespace) {
  KubectlOptions options;
  options.context = "lab";
  ResolvedType jobset{{"jobset.x-k8s.io", "v1alpha2", "JobSet"}, NamesOf("jobset.x-k8s.io", "JobSet")};
  DescribeInput input;
  FetchError error;
  options.namespace_ = "team-a";
  ASSERT_TRUE(FetchDescribeInput(options, jobset, "llama-pretrain", &input, &error)) << error.message;
  EXPECT_EQ(Name(input.workload), "llama-pretrain");
  EXPECT_FALSE(input.from_file);
  ASSERT_TRUE(input.pods.has_value());
  // The pods of the namespace, then the owners between them and the JobSet (its Jobs), fetched
  // in the workload's namespace; the workload itself is not among them.
  std::vector<std::string> pods, owner_kinds;
  for (const Value& p : *input.pods) {
    const Value* kind = p.Find("kind");
    if (kind && kind->IsString() && kind->AsString() == "Pod") pods.push_back(Name(p));
    else owner_kinds.emplace_back(kind && kind->IsString() ? std::string(kind->AsString()) : "?");
  }
  EXPECT_EQ(pods, (std::vector<std::string>{"llama-pretrain-leader-0-0-x7k2p", "llama-pretrain-worker-0-0-m4q8r",
                                            "llama-pretrain-worker-1-0-t9v3z"}));
  EXPECT_FALSE(owner_kinds.empty());
  for (const std::string& kind : owner_kinds) EXPECT_EQ(kind, "Job");
  EXPECT_EQ(Log(),
            "get jobsets.v1alpha2.jobset.x-k8s.io llama-pretrain --namespace team-a --context lab -o json\n"
            "get pods --namespace team-a --context lab -o json\n"
            "get jobs.v1.batch --namespace team-a --context lab -o json\n");
}

TEST_F(FakeKubectlTest, FetchDescribeInputNotFound) {
  KubectlOptions options;
  options.namespace_ = "team-a";
  ResolvedType jobset{{"jobset.x-k8s.io", "v1alpha2", "JobSet"}, NamesOf("jobset.x-k8s.io", "JobSet")};
  DescribeInput input;
  FetchError error;
  EXPECT_FALSE(FetchDescribeInput(options, jobset, "nope", &input, &error));
  EXPECT_EQ(error.message, "JobSet \"nope\" not found in namespace team-a");
  EXPECT_EQ(error.exit_code, 1);
  EXPECT_EQ(Log(), "get jobsets.v1alpha2.jobset.x-k8s.io nope --namespace team-a -o json\n");  // no pods asked
}

}  // namespace
}  // namespace wm::tools
