// Native backends over the resolver IR: LLVM ORC JIT (compile in-process now) and AOT (emit an
// object file for many programs and link it into a self-contained shared object that
// runtime/bundle/native_module.h loads). This header is LLVM-free so that tools and tests can
// include it cheaply; LLVM types stay inside compiler/codegen/*.cpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/bundle/native_compiler.h"
#include "runtime/eval/eval.h"
#include "runtime/eval/view/native_view.h"
#include "runtime/ir/ir.h"

namespace wm::codegen {

struct CodegenOptions {
  int opt_level = 2;  // LLVM optimisation level 0..3 (default 2)
  // Called with each phase's name and wall seconds ("llvm emit", "llvm optimize", "llvm codegen",
  // "link"), for `wmc compile --time-passes`; unset = not timed.
  std::function<void(const char* phase, double seconds)> on_phase;
};

// True when the native backends can compile every node of `program`; otherwise false with the
// unsupported construct named in *why (callers then use the interpreter for that program).
bool Supports(const ir::Program& program, std::string* why);

struct JitResult {
  std::unique_ptr<Filter> filter;  // null on failure
  std::string error;
};
// Compiles `program` with ORC LLJIT; the returned Filter owns its JIT session.
JitResult CompileJit(std::shared_ptr<const ir::Program> program, const CodegenOptions& options = {});

struct JitBatchResult {
  // One per program, in order: null for a program the native backends do not support (its
  // reason in errors[i]) and for all of them when the batch failed (`error`).
  std::vector<std::unique_ptr<Filter>> filters;
  std::vector<std::string> errors;
  std::string error;
};
// Compiles many programs in one JIT session: the objects CompileAot would link (identical
// programs once, 2 modules on 2 threads) loaded into one LLJIT, which the filters share. What a
// bundle without native code for this machine costs to compile whole (bench/bench_bundle.cpp).
JitBatchResult CompileJitBatch(const std::vector<std::shared_ptr<const ir::Program>>& programs,
                               const CodegenOptions& options = {});

// The JIT hook a bundle takes (BundleLoadOptions::compiler): each kind's resolvers compiled on
// the kind's first use with CompileJitBatch at options.opt_level (jit/jit_hook.cpp).
std::shared_ptr<const NativeCompiler> MakeJitCompiler(const CodegenOptions& options = {});

// The view engine's fills as native code (view::FusedKindOptions::native): each kind's trie
// compiled at options.opt_level into one JIT-loaded function per fill root (view_fill.cpp).
std::shared_ptr<const view::NativeViewCompiler> MakeNativeViewCompiler(const CodegenOptions& options = {});

struct AotUnit {
  std::string symbol;  // exported entry point name, unique within the object
  std::shared_ptr<const ir::Program> program;
};
struct AotResult {
  std::string shared_object;  // bytes of the linked .so; empty on failure
  std::string error;
};
// Emits one object file with an entry point per unit and links it into a shared object.
AotResult CompileAot(const std::vector<AotUnit>& units, const CodegenOptions& options = {});

// Stage dumps for `wmc --emit=llvm|asm` and golden tests.
struct EmitResult {
  std::string text;   // LLVM IR or assembly text, or the bytes of the ELF object; empty on failure
  std::string error;
};
// The LLVM IR of the units after optimisation at options.opt_level (0 = as generated).
EmitResult EmitLlvmIr(const std::vector<AotUnit>& units, const CodegenOptions& options = {});
// The relocatable object file CompileAot links (before linking).
EmitResult EmitObject(const std::vector<AotUnit>& units, const CodegenOptions& options = {});
// The native assembly of that object file (AT&T syntax on x86-64), as the target prints it.
EmitResult EmitAssembly(const std::vector<AotUnit>& units, const CodegenOptions& options = {});

}  // namespace wm::codegen
