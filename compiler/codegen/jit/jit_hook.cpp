// The bundle's JIT hook (runtime/bundle/native_compiler.h) on top of CompileJitBatch: the runtime
// asks for one kind's resolvers at a time and gets one JIT session per kind, which the kind's
// filters share; and for the view engine's native code (MakeNativeViewCompiler), per kind too. Lives here, not in the runtime, so that loading a bundle never needs LLVM.
#include <memory>
#include <vector>

#include "compiler/codegen/codegen.h"

namespace wm::codegen {
namespace {

class JitCompiler : public NativeCompiler {
 public:
  explicit JitCompiler(CodegenOptions options) : options_(std::move(options)) {}

  NativeBatch Compile(const std::vector<std::shared_ptr<const ir::Program>>& programs) const override {
    JitBatchResult jit = CompileJitBatch(programs, options_);
    NativeBatch batch;
    batch.filters = std::move(jit.filters);
    batch.error = std::move(jit.error);
    return batch;
  }
  std::shared_ptr<const view::NativeViewCompiler> ViewCompiler() const override {
    return MakeNativeViewCompiler(options_);
  }

 private:
  CodegenOptions options_;
};

}  // namespace

std::shared_ptr<const NativeCompiler> MakeJitCompiler(const CodegenOptions& options) {
  return std::make_shared<JitCompiler>(options);
}

}  // namespace wm::codegen
