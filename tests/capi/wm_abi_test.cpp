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

}  // namespace
