// Internal interface of the native backends: resolver IR -> LLVM IR (emit.cpp), the optimisation
// pipeline, and the support check shared by Supports/CompileJit/CompileAot. LLVM types are fine
// here; this header is included only by compiler/codegen/**/*.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/ir/ir.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
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

// Runs the new pass manager's default pipeline at `opt_level` (0..3) tuned for `machine`.
void OptimizeModule(llvm::Module& module, llvm::TargetMachine& machine, int opt_level);

// Initialises the native target once per process.
void InitializeNativeTargetOnce();

}  // namespace wm::codegen::internal
