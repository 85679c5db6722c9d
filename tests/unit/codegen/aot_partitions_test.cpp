// Tests of the AOT batch layout (aot/aot_compiler.cpp): units with the same IR are emitted once and
// exported as aliases, and a large batch is built as two modules on two threads linked into one
// shared object; every entry point must still run its own program.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/value/json.h"

namespace wm {
namespace {

std::string RunToJson(const Filter& filter, const Value& input) {
  std::string out;
  EvalError error;
  filter.Run(input, [&](const Value& v) {
    out += ToJson(v) + " ";
    return true;
  }, &error);
  return out;
}

TEST(AotPartitionsTest, DuplicatesAndTwoModulesKeepEveryEntryPoint) {
  // 24 units: 12 distinct programs, each twice (so aliases), enough for two partitions.
  std::vector<std::string> texts;
  for (int i = 0; i < 12; ++i) texts.push_back(".a + " + std::to_string(i));
  for (int i = 0; i < 12; ++i) texts.push_back(".a + " + std::to_string(i));
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& text : texts) {
    auto lowered = driver::LowerExpression(text);
    ASSERT_TRUE(lowered.ok()) << text;
    programs.push_back(lowered->program);
  }
  auto filters = driver::BuildAotBatch(programs);
  ASSERT_TRUE(filters.ok()) << filters.failure().message;
  ASSERT_EQ(filters->size(), texts.size());
  Value input;
  JsonError error;
  ASSERT_TRUE(ParseJson("{\"a\":100}", &input, &error));
  for (size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(RunToJson(*(*filters)[i], input), std::to_string(100 + i % 12) + " ") << texts[i];
  }
}

}  // namespace
}  // namespace wm
