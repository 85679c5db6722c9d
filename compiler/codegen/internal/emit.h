// Internal interface of the native backends: resolver IR -> LLVM IR (emit.cpp), the optimisation
// pipeline, and the support check shared by Supports/CompileJit/CompileAot. LLVM types are fine
// here; this header is included only by compiler/codegen/**/*.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "runtime/ir/ir.h"

namespace llvm {
enum class CodeGenOptLevel;
class LLVMContext;
class TargetOptions;
class Module;
class TargetMachine;
class raw_pwrite_stream;
enum class CodeGenFileType;
namespace legacy {
class PassManager;
}  // namespace legacy
}  // namespace llvm

namespace wm::codegen::internal {

// Why `program` cannot be compiled natively, or "" when it can.
std::string UnsupportedReason(const ir::Program& program);

struct EmitUnit {
  std::string symbol;  // exported entry point `int32_t symbol(WmCtx*, const WmValue* input)`
  const ir::Program* program = nullptr;
};

// Adds one entry point per unit to `module`. Returns "" or an error message.
std::string EmitUnits(llvm::Module& module, const std::vector<EmitUnit>& units);

// Runs the IR pipeline of `opt_level` (0..3) tuned for `machine` (codegen.cpp says what each
// level runs).
void OptimizeModule(llvm::Module& module, llvm::TargetMachine& machine, int opt_level);

// The machine-code side of `opt_level`, the same for the JIT and AOT: its CodeGenOptLevel and
// whether instruction selection is FastISel (set in `options`).
llvm::CodeGenOptLevel CodegenLevel(int opt_level);
void SetCodegenOptions(int opt_level, llvm::TargetOptions* options);

// Adds the passes that write `machine`'s code for the module to `os` (the AOT objects and dumps).
// At -O2 this is the light pipeline with the greedy register allocator (codegen.cpp says why;
// the ORC JIT, which builds its own pipeline, stays at CodegenLevel). True on failure, as LLVM.
bool AddCodegenPasses(llvm::TargetMachine& machine, int opt_level, llvm::legacy::PassManager& passes,
                      llvm::raw_pwrite_stream& os, llvm::CodeGenFileType file_type);

// The relocatable PIC objects of `units` (aot_compiler.cpp): identical programs emitted once and
// aliased, up to 2 modules built on 2 threads; each unit's entry point is exported under its
// symbol. CompileAot links them; CompileJitBatch loads them into one JIT session.
std::string BuildObjectFiles(const std::vector<AotUnit>& units, const CodegenOptions& options,
                             std::vector<std::string>* objects);

// Initialises the native target once per process.
void InitializeNativeTargetOnce();

}  // namespace wm::codegen::internal
