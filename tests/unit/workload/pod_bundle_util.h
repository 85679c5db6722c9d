// Test support for the pod and gang tests: compiles a definition written inline (YAML) into an
// interpreter-only bundle through the driver, as `wmc compile --no-native` would, and parses
// inline JSON objects.
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

namespace wm::workload::testing {

// The bundle of one definition; fails the test (and returns null) when it does not compile.
inline std::shared_ptr<Bundle> CompileBundle(const std::string& yaml) {
  static std::atomic<int> counter{0};
  namespace fs = std::filesystem;
  fs::path file = fs::temp_directory_path() /
                  ("wm-pods-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".yaml");
  std::ofstream(file.string()) << yaml;
  driver::DefinitionOptions options;
  options.goal = driver::Goal::kBundle;
  options.type_check = false;
  options.native = false;
  auto compiled = driver::CompileDefinitions({file.string()}, options);
  fs::remove(file);
  if (!compiled.ok()) {
    ADD_FAILURE() << compiled.failure().message;
    return nullptr;
  }
  if (!compiled->bundle) {
    std::string findings;
    for (const auto& d : compiled->sink.items()) findings += d.rule + ": " + d.message + "\n";
    ADD_FAILURE() << "definition does not compile:\n" << findings << compiled->bundle_error;
    return nullptr;
  }
  std::string error;
  auto bundle = Bundle::FromBytes(compiled->bundle->bytes, "test.wmb", &error);
  if (!bundle) ADD_FAILURE() << error;
  return bundle;
}

inline Value Json(std::string_view text) {
  Value v;
  JsonError e;
  EXPECT_TRUE(ParseJson(text, &v, &e)) << e.message << " in " << text;
  return v;
}

// A Pod named `name` with these labels (a JSON object text).
inline Value PodWithLabels(const std::string& name, const std::string& labels) {
  return Json(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","labels":)" +
              labels + "}}");
}

}  // namespace wm::workload::testing
