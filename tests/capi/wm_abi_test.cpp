// Unit tests of the C ABI (runtime/c/wm.h) through libwm.so, as a consumer links it: every
// function, its error codes and messages, ownership of buffers and errors, limits per bundle and
// per call. Bundles come from the capi-bundles fixture (tests/capi/make_bundles.sh).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/sha256.h"
#include "base/yaml/yaml_json.h"
#include "runtime/c/wm.h"

namespace {

using nlohmann::json;

const std::string kCatalogBundle = std::string(WM_CAPI_DIR) + "/catalog.wmb";
const std::string kNativeBundle = std::string(WM_CAPI_DIR) + "/jobset-native.wmb";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A catalog example (YAML) as JSON text.
std::string Example(const std::string& name) {
  std::string yaml = ReadFile(std::string(WM_SOURCE_DIR) + "/catalog/examples/" + name);
  std::vector<std::string> docs;
  wm::base::yaml::Error error;
  wm::base::yaml::TextOptions options;
  options.first_document_only = true;
  EXPECT_TRUE(wm::base::yaml::TextToJson(yaml, options, &docs, &error)) << error.message;
  return docs.empty() ? "" : docs[0];
}

// Owns what the ABI hands out, so a failing assertion leaks nothing.
struct Call {
  wm_buffer out{};
  wm_error* error = nullptr;
  wm_code code = WM_OK;
  ~Call() {
    wm_buffer_free(&out);
    wm_error_free(error);
  }
  std::string message() const { return error ? wm_error_message(error) : ""; }
  json Json() const { return json::parse(std::string(out.data, out.size)); }
};

struct BundleHandle {
  wm_bundle* bundle = nullptr;
  ~BundleHandle() { wm_bundle_close(bundle); }
};

wm_bundle* Open(const std::string& path, const wm_open_options* options = nullptr) {
  wm_bundle* bundle = nullptr;
  wm_error* error = nullptr;
  EXPECT_EQ(wm_bundle_open(path.c_str(), options, &bundle, &error), WM_OK)
      << (error ? wm_error_message(error) : "");
  wm_error_free(error);
  return bundle;
}

void Resolve(const wm_bundle* bundle, const std::string& object, Call* call,
             const wm_limits* limits = nullptr) {
  call->code = wm_resolve(bundle, object.data(), object.size(), limits, &call->out, &call->error);
}

class CApi : public ::testing::Test {
 protected:
  void SetUp() override { catalog_.bundle = Open(kCatalogBundle); ASSERT_NE(catalog_.bundle, nullptr); }
  BundleHandle catalog_;
};

TEST(CApiVersion, AbiVersionMatchesHeader) {
  EXPECT_EQ(wm_abi_version(), WM_ABI_VERSION);
  EXPECT_STRNE(wm_version(), "");
  EXPECT_STRNE(wm_version(), "unknown");
}

TEST_F(CApi, DefinitionsListNamesGvksAndComponents) {
  Call c;
  c.code = wm_bundle_definitions(catalog_.bundle, &c.out, &c.error);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  EXPECT_EQ(c.out.data[c.out.size], '\0');  // NUL-terminated for C callers
  json defs = c.Json();
  ASSERT_TRUE(defs.is_array());
  EXPECT_GE(defs.size(), 20u);
  const json* jobset = nullptr;
  for (const auto& d : defs) {
    if (d["name"] == "jobset-x-k8s-io-jobset-v1alpha2") jobset = &d;
  }
  ASSERT_NE(jobset, nullptr);
  EXPECT_EQ((*jobset)["apiVersion"], "jobset.x-k8s.io/v1alpha2");
  EXPECT_EQ((*jobset)["kind"], "JobSet");
  EXPECT_EQ((*jobset)["group"], "jobset.x-k8s.io");
  EXPECT_EQ((*jobset)["version"], "v1alpha2");
  const json& components = (*jobset)["components"];
  ASSERT_EQ(components.size(), 2u);
  EXPECT_EQ(components[0]["owner"], nullptr);
  EXPECT_EQ(components[0]["hasStatusDefinition"], true);
  EXPECT_EQ(components[1]["owner"], components[0]["name"]);
  EXPECT_EQ(components[1]["hasPodDefinition"], true);
  EXPECT_EQ(components[1]["hasInstanceIdPath"], true);
}

TEST_F(CApi, ResolvesAJobSet) {
  Call c;
  Resolve(catalog_.bundle, Example("jobset-training.yaml"), &c);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  EXPECT_EQ(c.error, nullptr);
  json w = c.Json();
  EXPECT_EQ(w["kind"], "JobSet");
  EXPECT_EQ(w["name"], "llama-pretrain");
  EXPECT_EQ(w["namespace"], "team-a");
  EXPECT_EQ(w["definition"], "jobset-x-k8s-io-jobset-v1alpha2");
  EXPECT_EQ(w["status"], json::array({"Running"}));
  EXPECT_EQ(w["resources"]["gpus"], 12);
  ASSERT_EQ(w["components"].size(), 2u);
  const json& jobs = w["components"][1];
  ASSERT_EQ(jobs["instances"].size(), 2u);
  EXPECT_EQ(jobs["instances"][0]["id"], "leader");
  EXPECT_EQ(jobs["instances"][0]["replicas"], 1);
  EXPECT_EQ(jobs["instances"][1]["id"], "worker");
  EXPECT_EQ(jobs["instances"][1]["replicas"], 2);
}

TEST_F(CApi, ResolvesEveryCatalogExample) {
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(WM_SOURCE_DIR) + "/catalog/examples")) {
    if (entry.path().extension() != ".yaml") continue;
    Call c;
    Resolve(catalog_.bundle, Example(entry.path().filename()), &c);
    ASSERT_EQ(c.code, WM_OK) << entry.path() << ": " << c.message();
    json w = c.Json();
    EXPECT_FALSE(w["definition"].get<std::string>().empty()) << entry.path();
    EXPECT_FALSE(w["components"].empty()) << entry.path();
  }
}

TEST_F(CApi, InputErrorsHaveCodesAndMessages) {
  struct Case {
    std::string object;
    wm_code code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"{\"apiVersion\": ", WM_ERR_INVALID_INPUT, "invalid JSON at byte"},
      {"", WM_ERR_INVALID_INPUT, "invalid JSON"},
      {"[1, 2]", WM_ERR_INVALID_INPUT, "not a Kubernetes object"},
      {"\"JobSet\"", WM_ERR_INVALID_INPUT, "not a Kubernetes object"},
      {"{\"kind\": \"JobSet\"}", WM_ERR_INVALID_INPUT, "apiVersion and kind are required"},
      {"{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\"}", WM_ERR_NO_DEFINITION,
       "example.com/v1 Widget"},
  };
  for (const auto& k : cases) {
    Call c;
    Resolve(catalog_.bundle, k.object, &c);
    EXPECT_EQ(c.code, k.code) << k.object;
    ASSERT_NE(c.error, nullptr) << k.object;
    EXPECT_EQ(wm_error_code(c.error), k.code);
    EXPECT_NE(c.message().find(k.message), std::string::npos) << c.message();
    EXPECT_EQ(c.out.data, nullptr);  // no output on failure
    EXPECT_EQ(c.out.size, 0u);
  }
}

TEST_F(CApi, NullArgumentsAreRefused) {
  wm_buffer out{};
  wm_error* error = nullptr;
  EXPECT_EQ(wm_resolve(nullptr, "{}", 2, nullptr, &out, &error), WM_ERR_BAD_ARGUMENT);
  EXPECT_EQ(wm_error_code(error), WM_ERR_BAD_ARGUMENT);
  wm_error_free(error);
  EXPECT_EQ(wm_resolve(catalog_.bundle, "{}", 2, nullptr, nullptr, nullptr), WM_ERR_BAD_ARGUMENT);
  EXPECT_EQ(wm_resolve(catalog_.bundle, nullptr, 5, nullptr, &out, nullptr), WM_ERR_BAD_ARGUMENT);
  EXPECT_EQ(wm_bundle_definitions(nullptr, &out, nullptr), WM_ERR_BAD_ARGUMENT);
  EXPECT_EQ(wm_bundle_definitions(catalog_.bundle, nullptr, nullptr), WM_ERR_BAD_ARGUMENT);
  wm_bundle* bundle = reinterpret_cast<wm_bundle*>(1);
  EXPECT_EQ(wm_bundle_open(nullptr, nullptr, &bundle, nullptr), WM_ERR_BAD_ARGUMENT);
  EXPECT_EQ(bundle, nullptr);
  EXPECT_EQ(wm_bundle_open(kCatalogBundle.c_str(), nullptr, nullptr, nullptr), WM_ERR_BAD_ARGUMENT);
  EXPECT_EQ(wm_bundle_open_bytes(nullptr, 10, nullptr, &bundle, nullptr), WM_ERR_BAD_ARGUMENT);
  // The free functions accept NULL, and a freed buffer is zeroed.
  wm_error_free(nullptr);
  wm_buffer_free(nullptr);
  wm_bundle_close(nullptr);
  EXPECT_EQ(wm_error_code(nullptr), WM_OK);
}

TEST(CApiOpen, MissingFileIsABadBundle) {
  wm_bundle* bundle = nullptr;
  wm_error* error = nullptr;
  EXPECT_EQ(wm_bundle_open("/nonexistent/catalog.wmb", nullptr, &bundle, &error), WM_ERR_BAD_BUNDLE);
  EXPECT_EQ(bundle, nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(wm_error_message(error)).find("/nonexistent/catalog.wmb"), std::string::npos)
      << wm_error_message(error);
  wm_error_free(error);
}

TEST(CApiOpen, BadAndTruncatedBytesAreRefused) {
  std::string bytes = ReadFile(kCatalogBundle);
  ASSERT_GT(bytes.size(), 1000u);
  std::vector<std::string> bad = {"", "not a bundle", std::string(64, '\0'),
                                  bytes.substr(0, bytes.size() - 1), bytes.substr(0, 16),
                                  bytes.substr(0, bytes.size() / 2)};
  std::string damaged = bytes;
  damaged[damaged.size() / 3] ^= 0x5a;
  bad.push_back(damaged);
  for (const auto& b : bad) {
    wm_bundle* bundle = nullptr;
    wm_error* error = nullptr;
    EXPECT_EQ(wm_bundle_open_bytes(b.data(), b.size(), nullptr, &bundle, &error), WM_ERR_BAD_BUNDLE)
        << "size " << b.size();
    EXPECT_EQ(bundle, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_STRNE(wm_error_message(error), "");
    wm_error_free(error);
  }
}

// A pinned digest: the right one (either case) opens, any other is refused before parsing, and
// a malformed one is a bad argument. The file and byte variants agree.
TEST(CApiOpen, PinnedDigestIsEnforced) {
  std::string bytes = ReadFile(kCatalogBundle);
  std::string digest = wm::base::Sha256Hex(bytes);
  std::string upper = digest;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const std::string& pin : {digest, upper}) {
    BundleHandle h;
    EXPECT_EQ(wm_bundle_open_pinned(kCatalogBundle.c_str(), pin.c_str(), nullptr, &h.bundle, nullptr), WM_OK);
    BundleHandle b;
    EXPECT_EQ(wm_bundle_open_bytes_pinned(bytes.data(), bytes.size(), pin.c_str(), nullptr, &b.bundle, nullptr),
              WM_OK);
  }
  std::string other = wm::base::Sha256Hex("another bundle");
  wm_bundle* bundle = nullptr;
  wm_error* error = nullptr;
  EXPECT_EQ(wm_bundle_open_pinned(kCatalogBundle.c_str(), other.c_str(), nullptr, &bundle, &error),
            WM_ERR_BAD_BUNDLE);
  EXPECT_EQ(bundle, nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(wm_error_message(error)).find("SHA-256 mismatch: expected " + other), std::string::npos)
      << wm_error_message(error);
  wm_error_free(error);
  // Not a bundle at all: the digest refuses it, before the magic is looked at.
  EXPECT_EQ(wm_bundle_open_bytes_pinned("junk", 4, other.c_str(), nullptr, &bundle, &error), WM_ERR_BAD_BUNDLE);
  EXPECT_NE(std::string(wm_error_message(error)).find("SHA-256 mismatch"), std::string::npos);
  wm_error_free(error);
  for (const char* bad : {static_cast<const char*>(nullptr), "abc", "zz"}) {
    EXPECT_EQ(wm_bundle_open_pinned(kCatalogBundle.c_str(), bad, nullptr, &bundle, nullptr), WM_ERR_BAD_ARGUMENT);
    EXPECT_EQ(wm_bundle_open_bytes_pinned(bytes.data(), bytes.size(), bad, nullptr, &bundle, nullptr),
              WM_ERR_BAD_ARGUMENT);
  }
}

TEST(CApiOpen, BytesAreCopied) {
  std::string bytes = ReadFile(kCatalogBundle);
  BundleHandle h;
  wm_error* error = nullptr;
  ASSERT_EQ(wm_bundle_open_bytes(bytes.data(), bytes.size(), nullptr, &h.bundle, &error), WM_OK);
  std::fill(bytes.begin(), bytes.end(), '\0');  // the caller's copy is gone
  bytes.clear();
  bytes.shrink_to_fit();
  Call c;
  Resolve(h.bundle, Example("jobset-training.yaml"), &c);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  EXPECT_EQ(c.Json()["resources"]["gpus"], 12);
}

TEST(CApiOpen, NativeAndInterpreterAgree) {
  BundleHandle native, interp;
  native.bundle = Open(kNativeBundle);
  wm_open_options options{};
  options.interpreter_only = 1;
  interp.bundle = Open(kNativeBundle, &options);
  ASSERT_NE(native.bundle, nullptr);
  ASSERT_NE(interp.bundle, nullptr);
  for (const char* example : {"jobset-training.yaml", "jobset-failed.yaml"}) {
    Call a, b;
    Resolve(native.bundle, Example(example), &a);
    Resolve(interp.bundle, Example(example), &b);
    ASSERT_EQ(a.code, WM_OK) << a.message();
    ASSERT_EQ(b.code, WM_OK) << b.message();
    EXPECT_EQ(a.Json(), b.Json()) << example;
  }
}

// Problems of the replicated-job component (its instance ids hit an output cap of 1).
size_t JobProblems(const Call& c) {
  json problems = c.Json()["components"][1]["problems"];
  return problems.is_array() ? problems.size() : 0;
}

TEST(CApiLimits, CallLimitsOverrideBundleLimits) {
  std::string jobset = Example("jobset-training.yaml");
  wm_open_options strict{};
  strict.limits.max_outputs = 1;
  BundleHandle h;
  h.bundle = Open(kCatalogBundle, &strict);
  Call capped;
  Resolve(h.bundle, jobset, &capped);
  ASSERT_EQ(capped.code, WM_OK) << capped.message();
  EXPECT_GT(JobProblems(capped), 0u) << capped.Json().dump();
  wm_limits generous{};
  generous.max_outputs = 1000;
  Call free;
  Resolve(h.bundle, jobset, &free, &generous);
  ASSERT_EQ(free.code, WM_OK) << free.message();
  EXPECT_EQ(JobProblems(free), 0u) << free.Json().dump();
}

TEST_F(CApi, PerCallLimitsApply) {
  std::string jobset = Example("jobset-training.yaml");
  wm_limits fuel{};
  fuel.fuel = 3;
  Call c;
  Resolve(catalog_.bundle, jobset, &c, &fuel);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  EXPECT_GT(JobProblems(c), 0u);
  Call normal;
  Resolve(catalog_.bundle, jobset, &normal);
  EXPECT_EQ(JobProblems(normal), 0u);
}

// Every document of a YAML file (under the source tree) as JSON texts.
std::vector<std::string> Documents(const std::string& path) {
  std::string yaml = ReadFile(std::string(WM_SOURCE_DIR) + "/" + path);
  std::vector<std::string> docs;
  wm::base::yaml::Error error;
  EXPECT_TRUE(wm::base::yaml::TextToJson(yaml, {}, &docs, &error)) << error.message;
  return docs;
}

// The catalog example the goldens of `stem` ran on (as tests/golden/check_golden.sh picks it):
// <stem>-running.yaml, else the file named on the first line of its pods file.
std::string WorkloadOfPods(const std::string& stem) {
  std::string running = stem + "-running.yaml";
  if (std::filesystem::exists(std::string(WM_SOURCE_DIR) + "/catalog/examples/" + running)) return running;
  std::string first_line = ReadFile(std::string(WM_SOURCE_DIR) + "/catalog/examples/pods/" + stem + "-pods.yaml");
  first_line = first_line.substr(0, first_line.find('\n'));
  size_t end = first_line.find(".yaml");
  size_t begin = first_line.rfind(' ', end) + 1;
  return first_line.substr(begin, end + 5 - begin);
}

void MapPod(const wm_bundle* bundle, const std::string& workload, const std::string& pod, Call* call) {
  call->code = wm_pod_map(bundle, workload.data(), workload.size(), pod.data(), pod.size(), nullptr,
                          &call->out, &call->error);
}

// The replicated-job problems of `object` resolved on a catalog bundle opened with `limits` as its
// defaults (the call passes none).
size_t JobProblemsWithBundleLimits(const wm_limits& limits, const std::string& object) {
  wm_open_options options{};
  options.limits = limits;
  BundleHandle h;
  h.bundle = Open(kCatalogBundle, &options);
  Call c;
  Resolve(h.bundle, object, &c);
  EXPECT_EQ(c.code, WM_OK) << c.message();
  return c.code == WM_OK ? JobProblems(c) : 0;
}

// The object budget (docs/limits.md) is shared by every run on one object: with 1 step the first
// run is cut short and the others find it spent, in a resolution, a write and a pod's mapping.
TEST_F(CApi, ObjectLimitsApplyToResolveWritesAndPods) {
  std::string jobset = Example("jobset-training.yaml");
  wm_limits tiny{};
  tiny.size = WM_LIMITS_SIZE;
  tiny.object_fuel = 1;
  Call resolved;
  Resolve(catalog_.bundle, jobset, &resolved, &tiny);
  ASSERT_EQ(resolved.code, WM_OK) << resolved.message();
  std::string text(resolved.out.data, resolved.out.size);
  EXPECT_NE(text.find("object evaluation step budget exhausted (fuel 1)"), std::string::npos) << text;
  Call suspended;
  suspended.code = wm_suspend(catalog_.bundle, jobset.data(), jobset.size(), nullptr, &tiny,
                              &suspended.out, &suspended.error);
  EXPECT_EQ(suspended.code, WM_ERR_LIMIT);
  EXPECT_NE(suspended.message().find("evaluation step budget exhausted (fuel 1)"), std::string::npos)
      << suspended.message();
  std::string pod = Documents("catalog/examples/pods/jobset-x-k8s-io-jobset-v1alpha2-pods.yaml").at(0);
  Call mapped;
  mapped.code = wm_pod_map(catalog_.bundle, jobset.data(), jobset.size(), pod.data(), pod.size(),
                           &tiny, &mapped.out, &mapped.error);
  ASSERT_EQ(mapped.code, WM_OK) << mapped.message();
  EXPECT_NE(mapped.Json().dump().find("budget exhausted (fuel 1)"), std::string::npos)
      << mapped.Json().dump();
  // The same limits on the bundle, inherited by a call without its own.
  EXPECT_GT(JobProblemsWithBundleLimits(tiny, jobset), 0u);
}

// A caller compiled against the first layout passes size 0 (the field was `reserved`) and a
// struct that ends at timeout_ms: nothing after it is read (here it would ask for 1 step).
TEST_F(CApi, LimitsOfTheFirstLayoutAreReadToTimeoutOnly) {
  static_assert(sizeof(wm_limits) == WM_LIMITS_SIZE_OBJECT);
  std::string jobset = Example("jobset-training.yaml");
  wm_limits old{};
  old.size = 0;
  old.object_fuel = 1;
  Call c;
  Resolve(catalog_.bundle, jobset, &c, &old);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  EXPECT_EQ(JobProblems(c), 0u) << c.Json().dump();
  EXPECT_EQ(JobProblemsWithBundleLimits(old, jobset), 0u);
  wm_limits broken{};
  broken.size = 8;
  Call refused;
  Resolve(catalog_.bundle, jobset, &refused, &broken);
  EXPECT_EQ(refused.code, WM_ERR_BAD_ARGUMENT);
  EXPECT_EQ(refused.message(), "wm_limits.size is 8; set it to sizeof(wm_limits)");
}

TEST_F(CApi, PodMapAnswersAJobSetPod) {
  std::vector<std::string> pods = Documents("catalog/examples/pods/jobset-x-k8s-io-jobset-v1alpha2-pods.yaml");
  ASSERT_FALSE(pods.empty());
  Call c;
  MapPod(catalog_.bundle, Example("jobset-training.yaml"), pods[0], &c);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  json p = c.Json();
  EXPECT_EQ(p["name"], "llama-pretrain-leader-0-0-x7k2p");
  EXPECT_EQ(p["component"], "replicatedjob");
  EXPECT_EQ(p["instance"], "leader");
  EXPECT_EQ(p["podGroupName"], "pg-5b0d7a56-3f0e-4d8e-9c51-7e1f3a2b9c10-job");  // podGroup, read first
  EXPECT_EQ(p["podGroup"]["subGroup"], "replicatedjob");
  EXPECT_EQ(p["podGroups"]["groupKeys"], json::array({"llama-pretrain"}));
  EXPECT_EQ(p["podGroups"]["minMember"], 1);  // the leader instance's subtree
  EXPECT_FALSE(p.contains("errors"));
}

// The ABI answers every example pod exactly as `wmc pods -o json` does (its goldens).
TEST_F(CApi, PodMapAgreesWithThePodsGoldens) {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(std::string(WM_SOURCE_DIR) + "/tests/golden/pods")) {
    if (entry.path().extension() != ".json") continue;
    std::string stem = entry.path().stem().string();
    std::string pods_file = "catalog/examples/pods/" + stem + "-pods.yaml";
    std::string workload_file = WorkloadOfPods(stem);
    json golden = json::parse(ReadFile(entry.path().string()));
    std::vector<std::string> pods = Documents(pods_file);
    ASSERT_EQ(pods.size(), golden["pods"].size()) << stem;
    std::string workload = Example(workload_file);
    for (size_t i = 0; i < pods.size(); ++i) {
      Call c;
      MapPod(catalog_.bundle, workload, pods[i], &c);
      ASSERT_EQ(c.code, WM_OK) << stem << ": " << c.message();
      EXPECT_EQ(c.Json(), golden["pods"][i]) << stem << " pod " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

TEST_F(CApi, PodMapErrors) {
  std::string pod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})";
  Call unknown;
  MapPod(catalog_.bundle, R"({"apiVersion":"x/v1","kind":"Nope"})", pod, &unknown);
  EXPECT_EQ(unknown.code, WM_ERR_NO_DEFINITION);
  EXPECT_EQ(unknown.message(), "no definition in the bundle for x/v1 Nope");
  Call bad_pod;
  MapPod(catalog_.bundle, Example("jobset-training.yaml"), "[1]", &bad_pod);
  EXPECT_EQ(bad_pod.code, WM_ERR_INVALID_INPUT);
  Call untyped;
  MapPod(catalog_.bundle, "{}", pod, &untyped);
  EXPECT_EQ(untyped.code, WM_ERR_INVALID_INPUT);
  Call null_out;
  null_out.code = wm_pod_map(catalog_.bundle, "{}", 2, "{}", 2, nullptr, nullptr, &null_out.error);
  EXPECT_EQ(null_out.code, WM_ERR_BAD_ARGUMENT);
}

void MapPods(const wm_bundle* bundle, const std::string& workload, const std::string& pods, Call* call) {
  call->code = wm_pod_map_batch(bundle, workload.data(), workload.size(), pods.data(), pods.size(),
                                nullptr, &call->out, &call->error);
}

// The batch call answers every example's pods in one call, exactly as the goldens (and so as
// wm_pod_map per pod), whether the pods come as an array or as a kubectl List.
TEST_F(CApi, PodMapBatchAgreesWithThePodsGoldens) {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(std::string(WM_SOURCE_DIR) + "/tests/golden/pods")) {
    if (entry.path().extension() != ".json") continue;
    std::string stem = entry.path().stem().string();
    json golden = json::parse(ReadFile(entry.path().string()));
    json pods = json::array();
    for (const std::string& pod : Documents("catalog/examples/pods/" + stem + "-pods.yaml")) {
      pods.push_back(json::parse(pod));
    }
    std::string workload = Example(WorkloadOfPods(stem));
    Call as_array;
    MapPods(catalog_.bundle, workload, pods.dump(), &as_array);
    ASSERT_EQ(as_array.code, WM_OK) << stem << ": " << as_array.message();
    EXPECT_EQ(as_array.Json(), golden["pods"]) << stem;
    Call as_list;
    json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", pods}};
    MapPods(catalog_.bundle, workload, list.dump(), &as_list);
    ASSERT_EQ(as_list.code, WM_OK) << stem << ": " << as_list.message();
    EXPECT_EQ(as_list.Json(), golden["pods"]) << stem;
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST_F(CApi, PodMapBatchErrors) {
  std::string jobset = Example("jobset-training.yaml");
  Call not_a_list;
  MapPods(catalog_.bundle, jobset, R"({"kind":"Pod"})", &not_a_list);
  EXPECT_EQ(not_a_list.code, WM_ERR_INVALID_INPUT);
  EXPECT_EQ(not_a_list.message(), "pods must be a JSON array of Pods or a List with \"items\"");
  Call bad_item;
  MapPods(catalog_.bundle, jobset, R"([{"kind":"Pod"}, 7])", &bad_item);
  EXPECT_EQ(bad_item.code, WM_ERR_INVALID_INPUT);
  EXPECT_EQ(bad_item.message(), "pods[1] is not a JSON object");
  Call empty;
  MapPods(catalog_.bundle, jobset, "[]", &empty);
  ASSERT_EQ(empty.code, WM_OK) << empty.message();
  EXPECT_EQ(empty.Json(), json::array());
  Call unknown;
  MapPods(catalog_.bundle, R"({"apiVersion":"x/v1","kind":"Nope"})", "[]", &unknown);
  EXPECT_EQ(unknown.code, WM_ERR_NO_DEFINITION);
}

void Gangs(const wm_bundle* bundle, const std::string& workload, Call* call) {
  call->code = wm_gangs(bundle, workload.data(), workload.size(), nullptr, &call->out, &call->error);
}

// The ABI's gang view is `wmc gangs -o json` without the pods' part (the goldens ran with --pods).
TEST_F(CApi, GangsAgreeWithTheGangsGoldens) {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(std::string(WM_SOURCE_DIR) + "/tests/golden/gangs")) {
    if (entry.path().extension() != ".json") continue;
    std::string stem = entry.path().stem().string();
    json golden = json::parse(ReadFile(entry.path().string()));
    golden.erase("podGroupsOfPods");
    golden.erase("problems");
    Call c;
    Gangs(catalog_.bundle, Example(WorkloadOfPods(stem)), &c);
    ASSERT_EQ(c.code, WM_OK) << stem << ": " << c.message();
    EXPECT_EQ(c.Json(), golden) << stem;
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST_F(CApi, GangsOfAJobSetAndErrors) {
  Call c;
  Gangs(catalog_.bundle, Example("jobset-training.yaml"), &c);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  json g = c.Json();
  EXPECT_EQ(g["gangSource"], "podGroup");
  EXPECT_EQ(g["podGroup"]["subGroups"][0], json::parse(R"({"name":"replicatedjob","minMember":3})"));
  EXPECT_EQ(g["podGroups"][0]["members"][0]["instances"][1], json::parse(R"({"id":"worker","minMember":2})"));
  Call unknown;
  Gangs(catalog_.bundle, R"({"apiVersion":"x/v1","kind":"Nope"})", &unknown);
  EXPECT_EQ(unknown.code, WM_ERR_NO_DEFINITION);
  Call bad;
  Gangs(catalog_.bundle, "{", &bad);
  EXPECT_EQ(bad.code, WM_ERR_INVALID_INPUT);
}

TEST_F(CApi, SuspendAndResumeTheRoot) {
  std::string jobset = Example("jobset-training.yaml");
  Call suspended;
  suspended.code = wm_suspend(catalog_.bundle, jobset.data(), jobset.size(), nullptr, nullptr,
                              &suspended.out, &suspended.error);
  ASSERT_EQ(suspended.code, WM_OK) << suspended.message();
  json s = suspended.Json();
  EXPECT_EQ(s["spec"]["suspend"], true);
  EXPECT_EQ(s["metadata"]["name"], "llama-pretrain");
  std::string text(suspended.out.data, suspended.out.size);
  Call resumed;
  resumed.code = wm_resume(catalog_.bundle, text.data(), text.size(), nullptr, nullptr, &resumed.out,
                           &resumed.error);
  ASSERT_EQ(resumed.code, WM_OK) << resumed.message();
  EXPECT_EQ(resumed.Json()["spec"]["suspend"], false);
  Call child;
  child.code = wm_suspend(catalog_.bundle, jobset.data(), jobset.size(), "replicatedjob", nullptr,
                          &child.out, &child.error);
  EXPECT_EQ(child.code, WM_ERR_NO_DEFINITION);
  EXPECT_EQ(child.message(), "component replicatedjob does not have suspendDefinition");
  Call unknown;
  unknown.code = wm_suspend(catalog_.bundle, jobset.data(), jobset.size(), "nope", nullptr,
                            &unknown.out, &unknown.error);
  EXPECT_EQ(unknown.code, WM_ERR_NOT_FOUND);
  EXPECT_EQ(unknown.message(), "component nope not found");
}

void Update(const wm_bundle* bundle, const std::string& workload, const char* component,
            const char* field, const std::string& values, Call* call) {
  call->code = wm_update(bundle, workload.data(), workload.size(), component, field, values.data(),
                         values.size(), nullptr, &call->out, &call->error);
}

TEST_F(CApi, UpdateWritesEachInstance) {
  std::string jobset = Example("jobset-training.yaml");
  Call c;
  Update(catalog_.bundle, jobset, "replicatedjob", "podTemplateSpec",
         R"({"leader":{"spec":{"schedulerName":"kai"}},"worker":{"spec":{"schedulerName":"volcano"}}})", &c);
  ASSERT_EQ(c.code, WM_OK) << c.message();
  Call resolved;
  std::string updated(c.out.data, c.out.size);
  Resolve(catalog_.bundle, updated, &resolved);
  ASSERT_EQ(resolved.code, WM_OK) << resolved.message();
  json view = resolved.Json();
  ASSERT_EQ(view["components"].size(), 2u) << view.dump();
  const json& instances = view["components"][1]["instances"];
  ASSERT_EQ(instances.size(), 2u) << view.dump();
  EXPECT_EQ(instances[0]["podTemplateSpec"]["spec"], json::parse(R"({"schedulerName":"kai"})"));
  EXPECT_EQ(instances[1]["podTemplateSpec"]["spec"], json::parse(R"({"schedulerName":"volcano"})"));

  Call missing;
  Update(catalog_.bundle, jobset, "replicatedjob", "podTemplateSpec", R"({"leader":{}})", &missing);
  EXPECT_EQ(missing.code, WM_ERR_NOT_FOUND);
  EXPECT_NE(missing.message().find("value not found for instance id: worker"), std::string::npos)
      << missing.message();
  Call field;
  Update(catalog_.bundle, jobset, "replicatedjob", "spec", "{}", &field);
  EXPECT_EQ(field.code, WM_ERR_BAD_ARGUMENT);
  Call values;
  Update(catalog_.bundle, jobset, "replicatedjob", "podSpec", "[]", &values);
  EXPECT_EQ(values.code, WM_ERR_INVALID_INPUT);
}

TEST_F(CApi, ComponentExtractAndStatus) {
  std::string jobset = Example("jobset-training.yaml");
  Call extracted;
  extracted.code = wm_component_extract(catalog_.bundle, jobset.data(), jobset.size(), "replicatedjob",
                                        nullptr, &extracted.out, &extracted.error);
  ASSERT_EQ(extracted.code, WM_OK) << extracted.message();
  json list = extracted.Json();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["id"], "leader");
  EXPECT_EQ(list[1]["id"], "worker");
  EXPECT_EQ(list[1]["scale"]["replicas"], 2);
  EXPECT_TRUE(list[0]["podTemplateSpec"].is_object());

  Call status;
  status.code = wm_status(catalog_.bundle, jobset.data(), jobset.size(), nullptr, nullptr, &status.out,
                          &status.error);
  ASSERT_EQ(status.code, WM_OK) << status.message();
  EXPECT_EQ(status.Json()["matchedStatuses"], json::array({"Running"}));
  Call child;
  child.code = wm_status(catalog_.bundle, jobset.data(), jobset.size(), "replicatedjob", nullptr,
                         &child.out, &child.error);
  EXPECT_EQ(child.code, WM_ERR_NO_DEFINITION);
  EXPECT_EQ(child.message(), "component replicatedjob does not have status definition");
  Call unknown;
  unknown.code = wm_component_extract(catalog_.bundle, jobset.data(), jobset.size(), "nope", nullptr,
                                      &unknown.out, &unknown.error);
  EXPECT_EQ(unknown.code, WM_ERR_NOT_FOUND);
}

}  // namespace
