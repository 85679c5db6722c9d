// Test helper: compiles a jq expression for the interpreter (driver::CompileExpression) and runs
// it, returning the compact JSON of each output, then "error: <message>" if evaluation failed.
#pragma once

#include <string>
#include <vector>

#include "compiler/driver/expression.h"
#include "runtime/eval/eval.h"
#include "runtime/value/json.h"

namespace wm::testing {

struct EvalOutcome {
  std::vector<std::string> outputs;  // compact JSON
  bool compiled = true;
  bool failed = false;
  bool limit = false;
  std::string error;                 // EvalError::Message() or the first diagnostic
  std::string Joined() const {
    std::string s;
    for (const auto& o : outputs) s += (s.empty() ? "" : " ") + o;
    if (failed) s += (s.empty() ? "" : " ") + std::string("error: ") + error;
    return s;
  }
};

inline EvalOutcome EvalJq(const std::string& expr, const std::string& input_json = "null",
                          const RunOptions& options = {}) {
  EvalOutcome outcome;
  driver::Expected<driver::Executable> compiled = driver::CompileExpression(expr);
  if (!compiled.ok()) {
    const driver::Failure& failure = compiled.failure();
    outcome.compiled = false;
    outcome.error = failure.diagnostics.empty()
                        ? (failure.stage == driver::Stage::kAst ? "parse error" : "lower error")
                        : failure.diagnostics[0].message;
    return outcome;
  }
  Value input;
  JsonError json_error;
  if (!ParseJson(input_json, &input, &json_error)) {
    outcome.compiled = false;
    outcome.error = "bad test input: " + json_error.message;
    return outcome;
  }
  const Filter* filter = compiled->filter.get();
  EvalError error;
  EvalStatus status = filter->Run(
      input, [&](const Value& v) { outcome.outputs.push_back(ToJson(v)); return true; }, &error, options);
  if (status == EvalStatus::kError) {
    outcome.failed = true;
    outcome.limit = error.limit;
    outcome.error = error.Message();
  }
  return outcome;
}

// Shorthand: outputs joined by spaces (and " error: msg" at the end on failure).
inline std::string Jq(const std::string& expr, const std::string& input_json = "null") {
  EvalOutcome o = EvalJq(expr, input_json);
  if (!o.compiled) return "compile error: " + o.error;
  return o.Joined();
}

}  // namespace wm::testing
