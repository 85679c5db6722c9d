// Compiling one jq expression: text -> parse -> safety policy -> lowering (name resolution) ->
// the chosen engine (interpreter, ORC JIT, or an AOT shared object loaded as a bundle would).
// `wmc eval`, the differential and conformance harnesses, the benchmarks and the unit-test helpers
// all come here instead of calling the stages themselves. LLVM stays behind compiler/codegen.
//
//   driver::ExpressionOptions options;  options.engine = driver::Engine::kJit;
//   auto compiled = driver::CompileExpression(".spec.replicas", options);
//   if (!compiled.ok()) { ... compiled.failure().diagnostics / .message ... }
//   compiled->filter->Run(input, emit, &error);
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/driver/stage.h"
#include "compiler/jq/ast.h"
#include "runtime/eval/eval.h"
#include "runtime/ir/ir.h"

namespace wm::jq {
struct Policy;
}

namespace wm::driver {

struct ExpressionOptions {
  Engine engine = Engine::kInterp;       // which engine CompileExpression builds (default interp)
  int opt_level = 2;                     // LLVM optimisation level of JIT / AOT code, 0..3
  std::string source_name = "<expr>";    // the file name diagnostics point into
  const jq::Policy* policy = nullptr;    // safety policy to enforce; null (default) = none, as
                                         // `wmc eval` and the jq test suites run any jq
  std::vector<std::string> global_vars;  // `$name`s bound by the caller (`--arg`), in the order
                                         // of RunOptions::globals
};

// An expression after the front end.
struct LoweredExpression {
  std::string text;
  std::unique_ptr<jq::Node> ast;
  std::shared_ptr<const ir::Program> program;
  std::vector<Diagnostic> diagnostics;  // warnings of the policy (errors make a Failure)
};

// A ready-to-run expression: its IR and the chosen engine's loaded code.
struct Executable {
  std::string text;
  std::shared_ptr<const ir::Program> program;
  Engine engine = Engine::kInterp;  // the engine `filter` runs on (kAuto resolved)
  std::unique_ptr<Filter> filter;   // never null
  std::vector<Diagnostic> diagnostics;
};

// Parse, policy and lowering. A Failure at Stage::kAst (syntax, policy) or Stage::kIr (names)
// carries the diagnostics, located in options.source_name.
Expected<LoweredExpression> LowerExpression(std::string_view text,
                                            const ExpressionOptions& options = {});

// Why the native backends cannot compile `program` ("" when they can; then JIT and AOT both do).
std::string NativeUnsupportedReason(const ir::Program& program);

// The engine `requested` stands for on `program`: kAuto is kJit when the native backends support
// the program and kInterp otherwise; the other engines stand for themselves.
Engine ChooseEngine(const ir::Program& program, Engine requested);

// The filter of engine options.engine for a lowered program. A native engine on a program it does
// not support, or a JIT / AOT / loader error, is a Failure with a message.
Expected<std::unique_ptr<Filter>> BuildEngine(std::shared_ptr<const ir::Program> program,
                                              const ExpressionOptions& options = {});

// Native code of many programs in ONE shared object (a link costs ~16 ms, so harnesses batch),
// loaded at once: one filter per program, in order; each keeps the module loaded. Every program
// must be supported by the native backends.
Expected<std::vector<std::unique_ptr<Filter>>> BuildAotBatch(
    const std::vector<std::shared_ptr<const ir::Program>>& programs,
    const ExpressionOptions& options = {});

// LowerExpression, then BuildEngine.
Expected<Executable> CompileExpression(std::string_view text,
                                       const ExpressionOptions& options = {});

// `wmc eval --emit=STAGE`: the AST dump; the AST annotated with each call's and $variable's
// binding (resolved); the type checker's result type and cardinality against an input with no
// schema, i.e. unknown (checked: `<expr>: TEXT => TYPE, CARDINALITY`, then `// RULE: message`
// per finding); the IR dump; or the LLVM IR / assembly of entry point `wm_expression`. Every
// stage after ast lowers first, so unknown names fail at Stage::kIr.
Expected<std::string> EmitExpression(std::string_view text, Stage stage,
                                     const ExpressionOptions& options = {});

}  // namespace wm::driver
