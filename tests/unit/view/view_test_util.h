// Helpers shared by the view engine's tests: an expression lowered to IR, a view-engine result
// and an interpreter run written the same way (compact outputs, one per line, then the error), so
// that a test compares the two engines with one EXPECT_EQ.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "compiler/driver/expression.h"
#include "runtime/eval/view/view.h"
#include "runtime/eval/view/view_program.h"
#include "runtime/value/json.h"

namespace wm::testing {

inline std::shared_ptr<const ir::Program> Lowered(const std::string& expr) {
  auto lowered = driver::LowerExpression(expr);
  EXPECT_TRUE(lowered.ok()) << expr;
  return lowered.ok() ? lowered->program : nullptr;
}

// The native fill compiler the view tests also run their kinds with (one per process: the JIT's
// target set-up once).
inline const std::shared_ptr<const view::NativeViewCompiler>& NativeViewCompiler() {
  static const std::shared_ptr<const view::NativeViewCompiler> compiler = codegen::MakeNativeViewCompiler();
  return compiler;
}
inline view::FusedKindOptions Options(bool sort_keys, bool native) {
  view::FusedKindOptions options;
  options.sort_keys = sort_keys;
  if (native) options.native = NativeViewCompiler();
  return options;
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

// All `exprs` fused into one kind, one runner over all `docs` in turn (the buffers are reused from
// one object to the next), in both key orders, with the trie's fills walking its tables and as
// native code: every result equals the interpreter's. Returns
// how many resolver runs the view engine answered itself, and in *flat_runs (when given) how many
// of those ran as flat code, in *object_runs how many were objects of paths built without it.
inline uint64_t ExpectAgree(const std::vector<std::string>& exprs, const std::vector<std::string>& docs,
                            uint64_t* flat_runs = nullptr, uint64_t* object_runs = nullptr) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  for (const std::string& e : exprs) programs.push_back(Lowered(e));
  uint64_t answered = 0;
  for (bool native : {false, true}) {
    for (bool sorted : {false, true}) {
      view::FusedKind kind(programs, Options(sorted, native));
      EXPECT_EQ(kind.native_error(), "");
      view::FusedRunner runner(kind);
      for (const std::string& doc : docs) {
        JsonError error;
        EXPECT_TRUE(runner.Run(doc, {}, &error)) << doc;
        for (size_t i = 0; i < exprs.size(); ++i) {
          EXPECT_EQ(Describe(runner.result(i)), Interpret(*programs[i], doc, sorted))
              << exprs[i] << " on " << doc << " (sorted " << sorted << ", native fill " << native << ")";
        }
      }
      answered = runner.stats().fused_runs;
      if (flat_runs != nullptr) *flat_runs = runner.stats().flat_runs;
      if (object_runs != nullptr) *object_runs = runner.stats().object_runs;
    }
  }
  return answered;
}

// `expr` lowered on a trie of its own and marked by MarkSingle (its nodes' single, form and
// flags set), or null after a test failure naming why it was refused.
inline std::unique_ptr<view::ViewProgram> Marked(const std::string& expr) {
  view::PathTrie trie;
  std::string reason;
  auto program = view::LowerToView(*Lowered(expr), &trie, &reason);
  EXPECT_NE(program, nullptr) << expr << ": " << reason;
  if (program != nullptr) view::MarkSingle(program.get());
  return program;
}

}  // namespace wm::testing
