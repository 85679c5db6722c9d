// Test helper for the workload layer: compiles definition YAML text through the driver into an
// interpreter bundle and loads it, and parses JSON objects; so each test states its definition and
// object inline, as upstream's tests do.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "compiler/driver/definitions.h"
#include "runtime/bundle/bundle.h"
#include "runtime/value/json.h"

namespace wm::testing {

struct CompileBundleOptions {
  bool native = false;             // also compile native code for what the backends support
  int opt_level = 0;               // LLVM optimisation level of that native code
  bool findings_fail = false;      // any finding (warnings included) fails the test
};

// Compiles `yaml` (one or more definitions) to a loaded bundle; null (with a test failure) when the
// definitions have errors.
inline std::shared_ptr<Bundle> CompileBundle(const std::string& yaml,
                                             const CompileBundleOptions& how = {}) {
  static std::atomic<int> counter{0};
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() /
                 ("wm-workload-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  std::ofstream((dir / "definition.yaml").string()) << yaml;
  driver::DefinitionOptions options;
  options.goal = driver::Goal::kBundle;
  options.type_check = false;
  options.native = how.native;
  options.opt_level = how.opt_level;
  driver::Expected<driver::CompiledDefinitions> compiled =
      driver::CompileDefinitions({(dir / "definition.yaml").string()}, options);
  fs::remove_all(dir);
  if (!compiled.ok()) {
    ADD_FAILURE() << compiled.failure().message;
    return nullptr;
  }
  if (how.findings_fail) {
    for (const auto& d : compiled->sink.items()) ADD_FAILURE() << d.rule << " " << d.message;
  }
  if (!compiled->bundle) {
    std::string findings;
    for (const auto& d : compiled->SortedFindings()) findings += d.rule + ": " + d.message + "\n";
    ADD_FAILURE() << "no bundle: " << compiled->bundle_error << "\n" << findings;
    return nullptr;
  }
  std::string error;
  std::shared_ptr<Bundle> bundle = Bundle::FromBytes(compiled->bundle->bytes, "test.wmb", &error);
  if (!bundle) ADD_FAILURE() << error;
  return bundle;
}

inline Value ParseObject(std::string_view json) {
  Value v;
  JsonError error;
  EXPECT_TRUE(ParseJson(json, &v, &error)) << error.message;
  return v;
}

// A Pod named `name` with these labels (a JSON object text).
inline Value PodWithLabels(const std::string& name, const std::string& labels) {
  return ParseObject(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","labels":)" + labels +
                     "}}");
}

}  // namespace wm::testing
