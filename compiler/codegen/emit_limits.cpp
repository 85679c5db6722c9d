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
  uint64_t steps = 1ull + deferred_steps_;
  deferred_steps_ = 0;
  llvm::Value* fuel_ptr = BytePtr(ctx_, 16);
  llvm::Value* fuel = builder_.CreateLoad(i64_, fuel_ptr, "fuel");
  return IfElse(
      builder_.CreateICmpULT(fuel, I64(steps)),
      [&] { return steps == 1 ? LimitExceeded(WM_LIMIT_FUEL) : StepsExhausted(I64(steps)); },
      [&] {
        builder_.CreateStore(builder_.CreateSub(fuel, I64(steps)), fuel_ptr);
        return Status(WM_STATUS_OK);
      });
}

llvm::Value* ProgramEmitter::FlushThen(const std::function<llvm::Value*()>& then) {
  if (deferred_steps_ == 0) return then();
  --deferred_steps_;  // Tick adds its own step back
  return IfOk(Tick(), then);
}

void ProgramEmitter::CheckNoDeferredSteps(const char* where) {
  if (deferred_steps_ == 0) return;
  deferred_steps_ = 0;
  Fail(std::string("internal error: evaluation steps not charged before ") + where);
}

// `i32 wm.charge_steps(ctx, i64 steps)`: while steps remain, takes what the slice has and asks
// limit_exceeded for the next slice (which charges one step) when it is empty; stops at the
// first status that is not ok.
llvm::Value* ProgramEmitter::StepsExhausted(llvm::Value* steps) {
  const char* name = "wm.charge_steps";
  llvm::Function* helper = module_.getFunction(name);
  if (helper == nullptr) {
    auto* type = llvm::FunctionType::get(i32_, {ptr_, i64_}, false);
    helper = llvm::Function::Create(type, llvm::Function::InternalLinkage, name, module_);
    SetAttributes(helper);
    helper->addFnAttr(llvm::Attribute::Cold);
    helper->addFnAttr(llvm::Attribute::NoInline);
    FunctionScope scope(*this, helper);
    llvm::Value* fuel_ptr = BytePtr(ctx_, 16);
    llvm::BasicBlock* head = NewBlock("charge.head");
    llvm::BasicBlock* refill = NewBlock("charge.refill");
    llvm::BasicBlock* take = NewBlock("charge.take");
    llvm::BasicBlock* done = NewBlock("charge.done");
    llvm::BasicBlock* entry = builder_.GetInsertBlock();
    builder_.CreateBr(head);
    builder_.SetInsertPoint(head);
    llvm::PHINode* left = builder_.CreatePHI(i64_, 3, "left");
    left->addIncoming(helper->getArg(1), entry);
    llvm::Value* fuel = builder_.CreateLoad(i64_, fuel_ptr, "fuel");
    llvm::Value* finished = builder_.CreateICmpEQ(left, I64(0));
    llvm::BasicBlock* check_fuel = NewBlock("charge.fuel");
    builder_.CreateCondBr(finished, done, check_fuel);
    builder_.SetInsertPoint(check_fuel);
    builder_.CreateCondBr(builder_.CreateICmpEQ(fuel, I64(0)), refill, take);
    builder_.SetInsertPoint(refill);
    llvm::Value* status = LimitExceeded(WM_LIMIT_FUEL);  // ok: one step charged from the new slice
    llvm::BasicBlock* after_refill = builder_.GetInsertBlock();
    left->addIncoming(builder_.CreateSub(left, I64(1)), after_refill);
    llvm::BasicBlock* failed = NewBlock("charge.failed");
    builder_.CreateCondBr(IsOk(status), head, failed);
    builder_.SetInsertPoint(failed);
    builder_.CreateRet(status);
    builder_.SetInsertPoint(take);
    llvm::Value* taken = builder_.CreateSelect(builder_.CreateICmpULT(fuel, left), fuel, left);
    builder_.CreateStore(builder_.CreateSub(fuel, taken), fuel_ptr);
    left->addIncoming(builder_.CreateSub(left, taken), take);
    builder_.CreateBr(head);
    builder_.SetInsertPoint(done);
    builder_.CreateRet(Status(WM_STATUS_OK));
  }
  return builder_.CreateCall(helper, {ctx_, steps});
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
