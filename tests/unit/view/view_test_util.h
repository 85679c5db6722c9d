// Helpers shared by the view engine's tests: an expression lowered to IR, a view-engine result
// and an interpreter run written the same way (compact outputs, one per line, then the error), so
// that a test compares the two engines with one EXPECT_EQ.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "compiler/driver/expression.h"
#include "runtime/eval/view/view.h"
#include "runtime/value/json.h"

namespace wm::testing {

inline std::shared_ptr<const ir::Program> Lowered(const std::string& expr) {
  auto lowered = driver::LowerExpression(expr);
  EXPECT_TRUE(lowered.ok()) << expr;
  return lowered.ok() ? lowered->program : nullptr;
}

// What the view engine made of one resolver on one object.
inline std::string Describe(const view::ResolverResult& r) {
  std::string text;
  for (const view::ViewOutput& out : r.outputs) {
    out.WriteJson(&text);
    text += "\n";
  }
  if (r.status == EvalStatus::kError) text += "error: " + r.error.Message() + "\n";
  return text;
}

// What the interpreter makes of `program` on `json` (keys sorted first when `sort_keys`).
inline std::string Interpret(const ir::Program& program, const std::string& json, bool sort_keys,
                             const RunOptions& options = {}) {
  Value input;
  JsonError error;
  if (!ParseJson(json, &input, &error)) return "invalid JSON: " + error.message;
  if (sort_keys) input = SortKeysDeep(input);
  auto interp = MakeInterpreter(std::make_shared<ir::Program>(program));
  std::string text;
  EvalError eval_error;
  EvalStatus status = interp->Run(input, [&](const Value& v) {
    WriteJson(v, &text);
    text += "\n";
    return true;
  }, &eval_error, options);
  if (status == EvalStatus::kError) text += "error: " + eval_error.Message() + "\n";
  return text;
}

}  // namespace wm::testing
