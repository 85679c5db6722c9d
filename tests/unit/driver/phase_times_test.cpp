// Tests of compiler/driver/phase_times.h and `--time-passes`' source: phases accumulate by name in
// first-seen order, and compiling a definition with native code reports the LLVM phases.
#include "compiler/driver/phase_times.h"

#include <gtest/gtest.h>

#include "compiler/driver/definitions.h"

namespace wm::driver {
namespace {

TEST(PhaseTimesTest, AccumulatesByNameInFirstSeenOrder) {
  PhaseTimes times;
  times.Add("parse", 0.5);
  times.Add("lower", 0.25);
  times.Add("parse", 0.5);
  ASSERT_EQ(times.phases().size(), 2u);
  EXPECT_EQ(times.phases()[0].first, "parse");
  EXPECT_DOUBLE_EQ(times.phases()[0].second, 1.0);
  EXPECT_DOUBLE_EQ(times.Total(), 1.25);
  EXPECT_NE(times.Report().find("parse"), std::string::npos);
  EXPECT_NE(times.Report().find("80.0%"), std::string::npos) << times.Report();
}

TEST(PhaseTimesTest, BundleCompileReportsEveryStage) {
  PhaseTimes times;
  DefinitionOptions options;
  options.goal = Goal::kBundle;
  options.phase_times = &times;
  auto compiled = CompileDefinitions({std::string(WM_SOURCE_DIR) + "/catalog/batch-job-v1.yaml"}, options);
  ASSERT_TRUE(compiled.ok());
  ASSERT_TRUE(compiled->bundle.has_value()) << compiled->bundle_error;
  std::vector<std::string> names;
  for (const auto& [name, seconds] : times.phases()) names.push_back(name);
  for (const char* phase : {"schema loading", "YAML and jq parsing", "rules and lowering", "type checking",
                            "catalog", "llvm emit", "llvm optimize", "llvm codegen", "link", "bundle bytes"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), phase), names.end()) << phase;
  }
}

}  // namespace
}  // namespace wm::driver
