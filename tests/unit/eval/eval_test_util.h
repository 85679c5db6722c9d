// Test helper: compiles a jq expression (parse + lower) and runs it through the interpreter,
// returning the compact JSON of each output, then "error: <message>" if evaluation failed.
#pragma once

#include <string>
#include <vector>

#include "compiler/jq/parser.h"
#include "compiler/lower/lower.h"
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
  jq::ParseResult parsed = jq::Parse(expr);
  if (!parsed.ok()) {
    outcome.compiled = false;
    outcome.error = parsed.diagnostics.empty() ? "parse error" : parsed.diagnostics[0].message;
    return outcome;
  }
  lower::LowerResult lowered = lower::Lower(*parsed.ast, expr);
  if (!lowered.program) {
    outcome.compiled = false;
    outcome.error = lowered.diagnostics.empty() ? "lower error" : lowered.diagnostics[0].message;
    return outcome;
  }
  Value input;
  JsonError json_error;
  if (!ParseJson(input_json, &input, &json_error)) {
    outcome.compiled = false;
    outcome.error = "bad test input: " + json_error.message;
    return outcome;
  }
  std::unique_ptr<Filter> filter = MakeInterpreter(lowered.program);
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
