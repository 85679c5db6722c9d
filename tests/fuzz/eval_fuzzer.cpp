// libFuzzer target for the evaluator: the input is "PROGRAM\0JSON" (no NUL: the whole input is
// the program, run on null). The program is parsed, lowered and run by the interpreter with small
// limits (fuel, outputs, memory, depth, time); when the native backend supports it, the LLVM JIT
// (at -O0, to keep executions fast) runs it too, and both must agree: same status, same outputs,
// same error message, unless a limit stopped either (engines count steps differently) or the
// program is not deterministic (`now`: two interpreter runs disagree). The view engine
// (runtime/eval/view) runs it on the input's JSON text when it takes the program whole or split,
// and must agree with the interpreter in the same way; with its fills and programs as native code
// (FusedKindOptions::native) it must agree with itself without them. AOT is the JIT's code generator plus a
// link step, far too slow per input: it is not fuzzed here.
// Built by tests/fuzz/build.sh.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "compiler/jq/parser.h"
#include "compiler/lower/lower.h"
#include "runtime/eval/eval.h"
#include "runtime/eval/view/view.h"
#include "runtime/value/json.h"

namespace {

struct Outcome {
  wm::EvalStatus status = wm::EvalStatus::kOk;
  std::vector<std::string> outputs;  // as JSON text
  std::string error;
  bool limit = false;
};

wm::RunOptions FuzzOptions() {
  wm::RunOptions options;
  options.limits.fuel = 200000;
  options.limits.max_outputs = 64;
  options.limits.max_memory_bytes = 32u << 20;
  options.limits.max_depth = 200;
  options.limits.timeout_ms = 2000;
  return options;
}

Outcome RunWith(const wm::Filter& filter, const wm::Value& input) {
  Outcome out;
  wm::EvalError error;
  out.status = filter.Run(input, [&](const wm::Value& v) {
    out.outputs.push_back(wm::ToJson(v));
    return true;
  }, &error, FuzzOptions());
  if (out.status == wm::EvalStatus::kError) {
    out.error = error.Message();
    out.limit = error.limit;
  }
  return out;
}

// The view engine's outcome on `json` (the text the interpreter's input was read from).
Outcome RunView(const wm::view::FusedKind& kind, const std::string& json) {
  wm::view::FusedRunner runner(kind);
  wm::JsonError json_error;
  Outcome out;
  if (!runner.Run(json, FuzzOptions(), &json_error)) {
    std::fprintf(stderr, "the view engine refused its own input text: %s\n", json_error.message.c_str());
    std::abort();
  }
  const wm::view::ResolverResult& result = runner.result(0);
  out.status = result.status;
  for (const wm::view::ViewOutput& v : result.outputs) {
    std::string text;
    v.WriteJson(&text);
    if (text != wm::ToJson(v.ToValue())) {
      std::fprintf(stderr, "a view output writes %s but converts to %s\n", text.c_str(), wm::ToJson(v.ToValue()).c_str());
      std::abort();
    }
    out.outputs.push_back(std::move(text));
  }
  if (out.status == wm::EvalStatus::kError) {
    out.error = result.error.Message();
    out.limit = result.error.limit;
  }
  return out;
}

[[noreturn]] void Mismatch(std::string_view program, const char* engine, const Outcome& interp, const Outcome& other) {
  std::fprintf(stderr, "engines disagree on: %.*s\n", static_cast<int>(program.size()), program.data());
  for (const auto* o : {&interp, &other}) {
    std::fprintf(stderr, "%s: status %d, %zu outputs, error '%s'\n", o == &interp ? "interp" : engine,
                 static_cast<int>(o->status), o->outputs.size(), o->error.c_str());
    for (const std::string& s : o->outputs) std::fprintf(stderr, "  %s\n", s.c_str());
  }
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  size_t nul = all.find('\0');
  std::string_view program = all.substr(0, nul);
  wm::Value input;
  // The text the view engine parses itself: the input's when it is one JSON value, else "null"
  // (a text is not rewritten: ToJson would write 1e1000, read as infinity, as the largest double).
  std::string input_text = "null";
  if (nul != std::string_view::npos) {
    wm::JsonError json_error;
    if (wm::ParseJson(all.substr(nul + 1), &input, &json_error)) input_text = std::string(all.substr(nul + 1));
    else input = wm::Value();
  }
  wm::jq::ParseOptions parse_options;
  parse_options.max_depth = 64;
  parse_options.max_ast_depth = 256;
  wm::jq::ParseResult parsed = wm::jq::Parse(program, parse_options);
  if (!parsed.ok()) return 0;
  wm::lower::LowerResult lowered = wm::lower::Lower(*parsed.ast, program);
  if (!lowered.program) return 0;
  std::shared_ptr<const wm::ir::Program> ir = lowered.program;
  Outcome interp = RunWith(*wm::MakeInterpreter(ir), input);
  auto same = [](const Outcome& a, const Outcome& b) {
    return a.status == b.status && a.outputs == b.outputs && a.error == b.error;
  };
  // A program whose result depends on the clock (`now`, `mktime` of it) differs between any two
  // runs: the interpreter disagreeing with itself marks it, and there is nothing to compare.
  auto deterministic = [&] { return same(interp, RunWith(*wm::MakeInterpreter(ir), input)); };

  wm::view::FusedKind view_kind({ir});
  if (view_kind.fused(0) || view_kind.split(0)) {
    Outcome view = RunView(view_kind, input_text);
    if (!interp.limit && !view.limit && !same(interp, view) && deterministic()) Mismatch(program, "view", interp, view);
    // With its fills and programs as native code (-O0, as the JIT below): the same as without.
    static const std::shared_ptr<const wm::view::NativeViewCompiler> view_compiler = [] {
      wm::codegen::CodegenOptions options;
      options.opt_level = 0;
      return wm::codegen::MakeNativeViewCompiler(options);
    }();
    wm::view::FusedKindOptions native_options;
    native_options.native = view_compiler;
    wm::view::FusedKind native_kind({ir}, native_options);
    if (!native_kind.native_error().empty()) {
      std::fprintf(stderr, "the view engine's native code failed to compile: %s\n", native_kind.native_error().c_str());
      std::abort();
    }
    Outcome native_view = RunView(native_kind, input_text);
    if (!view.limit && !native_view.limit && !same(view, native_view) && deterministic()) {
      Mismatch(program, "view-native", view, native_view);
    }
  }

  std::string why;
  if (!wm::codegen::Supports(*ir, &why)) return 0;
  wm::codegen::CodegenOptions codegen_options;
  codegen_options.opt_level = 0;
  wm::codegen::JitResult jit = wm::codegen::CompileJit(ir, codegen_options);
  if (!jit.filter) {
    std::fprintf(stderr, "JIT failed on a supported program: %s\n", jit.error.c_str());
    std::abort();
  }
  Outcome native = RunWith(*jit.filter, input);
  if (interp.limit || native.limit) return 0;
  if (!same(interp, native) && deterministic()) Mismatch(program, "jit", interp, native);
  return 0;
}
