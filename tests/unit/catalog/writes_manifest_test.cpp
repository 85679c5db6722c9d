// The write half of the manifest: path programs (writePaths) and suspendDefinition survive the
// JSON round trip with their values (true, 0, "paused", null stay distinct), and a damaged
// entry (an action without a value, a path index outside the resolver table) is refused.
#include <gtest/gtest.h>

#include "runtime/catalog/definition.h"
#include "runtime/value/json.h"

namespace wm::catalog {
namespace {

Definition WithWrites() {
  Definition d;
  d.name = "app";
  Component root;
  root.name = "root";
  root.kind = {"example.com", "v1", "App"};
  root.write_paths.pod_template_spec = 0;
  root.write_paths.pod_metadata = 1;
  root.write_paths.fragmented["imagePath"] = 2;
  SuspendDefinition suspend;
  suspend.suspend_actions = {{0, Value::Bool(true)}, {1, Value::Number(0)}, {2, Value::String("paused")}};
  suspend.resume_actions = {{2, Value::Null()}};
  root.suspend = suspend;
  d.components.push_back(root);
  Component plain;
  plain.name = "plain";
  plain.owner = "root";
  d.components.push_back(plain);
  return d;
}

TEST(CatalogWritesManifest, RoundTripKeepsPathProgramsAndActionValues) {
  Definition back;
  std::string error;
  ASSERT_TRUE(FromJson(ToJson(WithWrites()), 3, &back, &error)) << error;
  const Component& root = back.root();
  EXPECT_EQ(root.write_paths.pod_template_spec, 0);
  EXPECT_EQ(root.write_paths.pod_spec, kNoResolver);
  EXPECT_EQ(root.write_paths.pod_metadata, 1);
  EXPECT_EQ(root.write_paths.fragmented.at("imagePath"), 2);
  ASSERT_TRUE(root.suspend.has_value());
  ASSERT_EQ(root.suspend->suspend_actions.size(), 3u);
  EXPECT_EQ(root.suspend->suspend_actions[0].path, 0);
  EXPECT_EQ(ToJson(root.suspend->suspend_actions[0].value), "true");
  EXPECT_EQ(ToJson(root.suspend->suspend_actions[1].value), "0");
  EXPECT_EQ(ToJson(root.suspend->suspend_actions[2].value), "\"paused\"");
  ASSERT_EQ(root.suspend->resume_actions.size(), 1u);
  EXPECT_TRUE(root.suspend->resume_actions[0].value.IsNull());
  // A component without writes has none after the round trip either.
  EXPECT_FALSE(back.Find("plain")->suspend.has_value());
  EXPECT_TRUE(back.Find("plain")->write_paths.fragmented.empty());
}

TEST(CatalogWritesManifest, RefusesAnActionWithoutValue) {
  Value json = ToJson(WithWrites());
  std::string text = ToJson(json);
  std::string needle = "\"value\":null";
  size_t at = text.find(needle);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, needle.size(), "\"other\":null");
  Value damaged;
  JsonError json_error;
  ASSERT_TRUE(ParseJson(text, &damaged, &json_error));
  Definition back;
  std::string error;
  EXPECT_FALSE(FromJson(damaged, 3, &back, &error));
  EXPECT_EQ(error, "manifest resumeActions entry needs a path and a value");
}

TEST(CatalogWritesManifest, RefusesPathProgramsOutsideTheTable) {
  Definition back;
  std::string error;
  EXPECT_FALSE(FromJson(ToJson(WithWrites()), 2, &back, &error));
  EXPECT_NE(error.find("not a valid resolver index"), std::string::npos) << error;
}

}  // namespace
}  // namespace wm::catalog
