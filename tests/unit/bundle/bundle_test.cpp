// Bundle format: what the writer produces the loader reads back, and every damaged file (any
// truncation, any flipped byte, wrong magic or version) is refused with a message, never a crash.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/bundle/builder.h"
#include "runtime/bundle/bundle.h"
#include "runtime/bundle/format.h"

namespace wm {
namespace {

// A catalog with one definition whose root component has one resolver: `.spec.replicas`.
bundle::Catalog MakeCatalog() {
  auto program = std::make_shared<ir::Program>();
  program->consts.push_back(Value::String("spec"));
  program->consts.push_back(Value::String("replicas"));
  auto add = [&](ir::Node n) {
    program->nodes.push_back(std::move(n));
    return static_cast<ir::NodeId>(program->nodes.size() - 1);
  };
  ir::Node id;
  id.op = ir::Op::Identity;
  ir::NodeId self = add(id);
  ir::Node k1;
  k1.op = ir::Op::Const;
  k1.a = 0;
  ir::NodeId spec_key = add(k1);
  ir::Node k2;
  k2.op = ir::Op::Const;
  k2.a = 1;
  ir::NodeId replicas_key = add(k2);
  ir::Node i1;
  i1.op = ir::Op::Index;
  i1.kids = {self, spec_key};
  ir::NodeId spec = add(i1);
  ir::Node i2;
  i2.op = ir::Op::Index;
  i2.kids = {spec, replicas_key};
  ir::NodeId body = add(i2);
  ir::Function f;
  f.name = "main";
  f.body = body;
  program->functions.push_back(f);
  program->source = ".spec.replicas";

  bundle::Catalog catalog;
  bundle::Resolver r;
  r.info = {"demo", "app", "replicasPath", ".spec.replicas", ""};
  r.program = program;
  catalog.resolvers.push_back(r);
  catalog::Definition d;
  d.name = "demo";
  catalog::Component root;
  root.name = "app";
  root.kind = {"example.com", "v1", "App"};
  root.replicas = 0;
  d.components.push_back(root);
  catalog.definitions.push_back(d);
  return catalog;
}

std::string MakeBundleBytes(const bundle::Catalog& catalog) {
  bundle::BundleContents contents;
  contents.catalog = &catalog;
  return bundle::SerializeBundle(contents);
}

TEST(Bundle, RoundTripsDefinitionsAndResolvers) {
  bundle::Catalog catalog = MakeCatalog();
  std::string error;
  auto loaded = Bundle::FromBytes(MakeBundleBytes(catalog), "t.wmb", &error);
  ASSERT_TRUE(loaded) << error;
  ASSERT_EQ(loaded->definitions().size(), 1u);
  EXPECT_EQ(loaded->definitions()[0].name, "demo");
  EXPECT_EQ(loaded->definitions()[0].root().kind.ApiVersion(), "example.com/v1");
  EXPECT_EQ(loaded->FindDefinition("example.com/v1", "App"), &loaded->definitions()[0]);
  EXPECT_EQ(loaded->FindDefinition("example.com/v2", "App"), nullptr);
  ASSERT_EQ(loaded->resolver_count(), 1u);
  EXPECT_EQ(loaded->resolver_info(0).source, ".spec.replicas");
  EXPECT_FALSE(loaded->native_loaded());
}

TEST(Bundle, EveryTruncationIsRefused) {
  std::string bytes = MakeBundleBytes(MakeCatalog());
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::string error;
    EXPECT_FALSE(Bundle::FromBytes(bytes.substr(0, n), "t.wmb", &error)) << "length " << n;
    EXPECT_NE(error.find("t.wmb: "), std::string::npos) << error;
  }
}

TEST(Bundle, EveryFlippedByteIsRefused) {
  std::string bytes = MakeBundleBytes(MakeCatalog());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5A);
    std::string error;
    EXPECT_FALSE(Bundle::FromBytes(damaged, "t.wmb", &error)) << "byte " << i;
  }
}

TEST(Bundle, ExplainsWhatIsWrong) {
  std::string error;
  EXPECT_FALSE(Bundle::FromBytes("hello world, not a bundle at all......................", "x", &error));
  EXPECT_NE(error.find("not a wmc bundle"), std::string::npos) << error;
  std::string bytes = MakeBundleBytes(MakeCatalog());
  EXPECT_FALSE(Bundle::FromBytes(bytes.substr(0, bytes.size() - 1), "x", &error));
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
}


}  // namespace
}  // namespace wm
