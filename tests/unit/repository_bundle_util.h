// Test helper: definitions of this repository (the catalog, or one file of it) compiled by the
// driver into the bytes of an interpreter-only bundle, for tests that need real definitions:
// the loader's checks, lazy decoding, the JIT hook, the view engine on catalog resolvers.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "compiler/driver/definitions.h"

namespace wm::testing {

// `path` is relative to the source tree ("catalog", "catalog/<file>.yaml"). Empty (with a test
// failure) when the definitions do not compile to a bundle.
inline std::string CompileRepositoryBundle(const std::string& path, bool type_check = true) {
  driver::DefinitionOptions options;
  options.goal = driver::Goal::kBundle;
  options.type_check = type_check;
  options.native = false;
  auto compiled = driver::CompileDefinitions({std::string(WM_SOURCE_DIR) + "/" + path}, options);
  EXPECT_TRUE(compiled.ok() && compiled->bundle) << path;
  return compiled.ok() && compiled->bundle ? compiled->bundle->bytes : std::string();
}

}  // namespace wm::testing
