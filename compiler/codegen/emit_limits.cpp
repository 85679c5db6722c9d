// ProgramEmitter: the limits in native code: one step of fuel per evaluation (Tick), the call
// depth (WithDepth) and the shared cold path that reports an exhausted limit.
#include "compiler/codegen/internal/program_emitter.h"

namespace wm::codegen::internal {

llvm::Value* ProgramEmitter::LimitExceeded(uint32_t limit) {
  const char* name = "wm.limit_exceeded";
  llvm::Function* helper = module_.getFunction(name);
  if (helper == nullptr) {
    auto* type = llvm::FunctionType::get(i32_, {ptr_, i32_}, false);
    helper = llvm::Function::Create(type, llvm::Function::InternalLinkage, name, module_);
    SetAttributes(helper);
    helper->addFnAttr(llvm::Attribute::Cold);
    helper->addFnAttr(llvm::Attribute::NoInline);
    FunctionScope scope(*this, helper);
    builder_.CreateRet(CallAbi(WM_ABI_LIMIT_EXCEEDED, {ctx_, helper->getArg(1)}));
  }
  return builder_.CreateCall(helper, {ctx_, I32(limit)});
}

llvm::Value* ProgramEmitter::Tick() {
  llvm::Value* fuel_ptr = BytePtr(ctx_, 16);
  llvm::Value* fuel = builder_.CreateLoad(i64_, fuel_ptr, "fuel");
  return IfElse(
      builder_.CreateICmpEQ(fuel, I64(0)),
      [&] { return LimitExceeded(WM_LIMIT_FUEL); },
      [&] {
        builder_.CreateStore(builder_.CreateSub(fuel, I64(1)), fuel_ptr);
        return Status(WM_STATUS_OK);
      });
}

llvm::Value* ProgramEmitter::WithDepth(const std::function<llvm::Value*()>& body, bool counted) {
  if (!counted) return body();
  llvm::Value* depth_ptr = BytePtr(ctx_, 24);
  llvm::Value* depth = builder_.CreateLoad(i32_, depth_ptr, "depth");
  llvm::Value* max_depth = builder_.CreateLoad(i32_, BytePtr(ctx_, 28), "max_depth");
  return IfElse(
      builder_.CreateICmpUGE(depth, max_depth),
      [&] { return LimitExceeded(WM_LIMIT_DEPTH); },
      [&] {
        builder_.CreateStore(builder_.CreateAdd(depth, I32(1)), depth_ptr);
        llvm::Value* s = body();
        llvm::Value* now = builder_.CreateLoad(i32_, depth_ptr);
        builder_.CreateStore(builder_.CreateSub(now, I32(1)), depth_ptr);
        return s;
      });
}

}  // namespace wm::codegen::internal
