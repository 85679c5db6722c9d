// The hook through which a loaded bundle gets native code compiled in-process (a JIT) without the
// runtime depending on LLVM: the runtime declares the interface, compiler/codegen implements it
// (codegen::MakeJitCompiler), and a tool passes it in BundleLoadOptions::compiler.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/eval/eval.h"
#include "runtime/eval/view/native_view.h"
#include "runtime/ir/ir.h"

namespace wm {

struct NativeBatch {
  // One per program, in order; null for a program the compiler does not support (it stays on the
  // interpreter) and for all of them when the whole batch failed (`error`).
  std::vector<std::unique_ptr<Filter>> filters;
  std::string error;
};

class NativeCompiler {
 public:
  virtual ~NativeCompiler() = default;
  // Compiles the resolvers of one kind together. Called from whichever thread first uses the kind,
  // possibly from several threads for different kinds at once, so it must be thread-safe. The
  // filters must stay valid on their own (they own their code) and be thread-safe like any Filter.
  virtual NativeBatch Compile(const std::vector<std::shared_ptr<const ir::Program>>& programs) const = 0;
  // The compiler of the view engine's native code (fills and programs) for the kinds the bundle's
  // workload objects are resolved with when they arrive as JSON text (workload::FusedDefinition);
  // null: the view engine's tables and Exec.
  virtual std::shared_ptr<const view::NativeViewCompiler> ViewCompiler() const { return nullptr; }
};

}  // namespace wm
