// ProgramEmitter: builtin calls and operators with inline fast paths: range loops, `.[]`,
// unary minus and the arithmetic/comparison operators on numbers.
#include "compiler/codegen/internal/program_emitter.h"

namespace wm::codegen::internal {

bool ProgramEmitter::IsRange(const ir::Node& node) const {
  return node.a == static_cast<uint32_t>(ir::BuiltinId::Range) ||
         node.a == static_cast<uint32_t>(ir::BuiltinId::Range3);
}

llvm::Value* ProgramEmitter::RangeLoop(const Values& bounds, Cont k) {
  llvm::Value* checked = CallAbi(WM_ABI_CHECK_RANGE_ARGS,
                                 {ctx_, PointerArray(bounds), I32(static_cast<uint32_t>(bounds.size()))});
  return IfOk(checked, [&] {
    llvm::Value* from = NumberOf(bounds[0]);
    llvm::Value* upto = NumberOf(bounds[1]);
    llvm::Value* by = bounds.size() > 2 ? NumberOf(bounds[2]) : llvm::ConstantFP::get(f64_, 1.0);
    llvm::Value* zero = llvm::ConstantFP::get(f64_, 0.0);
    llvm::Value* up = builder_.CreateFCmpOGT(by, zero);
    llvm::Value* down = builder_.CreateFCmpOLT(by, zero);
    llvm::AllocaInst* status_slot = Alloca(i32_, "range_status");
    builder_.CreateStore(Status(WM_STATUS_OK), status_slot);
    llvm::BasicBlock* pre = builder_.GetInsertBlock();
    llvm::BasicBlock* head = NewBlock("range.head");
    llvm::BasicBlock* body = NewBlock("range.body");
    llvm::BasicBlock* exit = NewBlock("range.exit");
    builder_.CreateBr(head);
    builder_.SetInsertPoint(head);
    llvm::PHINode* x = builder_.CreatePHI(f64_, 2, "x");
    x->addIncoming(from, pre);
    llvm::Value* more = builder_.CreateOr(builder_.CreateAnd(up, builder_.CreateFCmpOLT(x, upto)),
                                          builder_.CreateAnd(down, builder_.CreateFCmpOGT(x, upto)));
    builder_.CreateCondBr(more, body, exit);
    builder_.SetInsertPoint(body);
    llvm::Value* step = IfOk(Tick(), [&] { return CallCont(k, NumberValue(x)); });
    builder_.CreateStore(step, status_slot);
    x->addIncoming(builder_.CreateFAdd(x, by), builder_.GetInsertBlock());
    builder_.CreateCondBr(IsOk(step), head, exit);
    builder_.SetInsertPoint(exit);
    return builder_.CreateLoad(i32_, status_slot);
  });
}

llvm::Value* ProgramEmitter::IterateOver(llvm::Value* target, Cont k) {
  llvm::Value* first_slot = Alloca(ptr_, "first");
  llvm::Value* count_slot = Alloca(i64_, "count");
  llvm::Value* stride_slot = Alloca(i64_, "stride");
  llvm::Value* s =
      CallAbi(WM_ABI_ITERATE, {ctx_, target, first_slot, count_slot, stride_slot});
  return IfOk(s, [&] {
    llvm::Value* first = builder_.CreateLoad(ptr_, first_slot);
    llvm::Value* count = builder_.CreateLoad(i64_, count_slot);
    llvm::Value* stride = builder_.CreateLoad(i64_, stride_slot);
    llvm::AllocaInst* status_slot = Alloca(i32_, "loop_status");
    builder_.CreateStore(Status(WM_STATUS_OK), status_slot);
    llvm::BasicBlock* pre = builder_.GetInsertBlock();
    llvm::BasicBlock* head = NewBlock("iter.head");
    llvm::BasicBlock* body = NewBlock("iter.body");
    llvm::BasicBlock* exit = NewBlock("iter.exit");
    builder_.CreateBr(head);
    builder_.SetInsertPoint(head);
    llvm::PHINode* i = builder_.CreatePHI(i64_, 2, "i");
    i->addIncoming(I64(0), pre);
    builder_.CreateCondBr(builder_.CreateICmpSLT(i, count), body, exit);
    builder_.SetInsertPoint(body);
    llvm::Value* elem = BytePtr(first, builder_.CreateMul(i, stride));
    llvm::Value* step = CallCont(k, elem);
    builder_.CreateStore(step, status_slot);
    llvm::BasicBlock* latch = builder_.GetInsertBlock();
    i->addIncoming(builder_.CreateAdd(i, I64(1)), latch);
    builder_.CreateCondBr(IsOk(step), head, exit);
    builder_.SetInsertPoint(exit);
    return builder_.CreateLoad(i32_, status_slot);
  });
}

llvm::Value* ProgramEmitter::Negate(llvm::Value* v, Cont k) {
  llvm::Value* is_number = builder_.CreateICmpEQ(Kind(v), llvm::ConstantInt::get(i8_, WM_KIND_NUMBER));
  return IfElse(
      is_number, [&] { return CallCont(k, NumberValue(builder_.CreateFNeg(NumberOf(v)))); },
      [&] {
        llvm::Value* out = OwnedSlot();
        return WithOwned(CallAbi(WM_ABI_NEGATE, {ctx_, v, out}), out, k);
      });
}

llvm::Value* ProgramEmitter::BinaryOp(ir::BinaryOp op, llvm::Value* lhs, llvm::Value* rhs, Cont k) {
  auto slow = [&] {
    llvm::Value* out = OwnedSlot();
    llvm::Value* s =
        CallAbi(WM_ABI_BINARY, {ctx_, I32(static_cast<uint32_t>(op)), lhs, rhs, out});
    return WithOwned(s, out, k);
  };
  if (op == ir::BinaryOp::Mod) return slow();
  llvm::Value* number = llvm::ConstantInt::get(i8_, WM_KIND_NUMBER);
  llvm::Value* both = builder_.CreateAnd(builder_.CreateICmpEQ(Kind(lhs), number),
                                         builder_.CreateICmpEQ(Kind(rhs), number));
  // Loads of the payload are harmless for non-numbers (always 8 readable bytes).
  llvm::Value* a = NumberOf(lhs);
  llvm::Value* b = NumberOf(rhs);
  llvm::Value* fast = both;
  bool compare = op != ir::BinaryOp::Add && op != ir::BinaryOp::Sub &&
                 op != ir::BinaryOp::Mul && op != ir::BinaryOp::Div;
  // NaN ordering and division by zero follow jq's special rules: leave them to the shim.
  if (compare) fast = builder_.CreateAnd(fast, builder_.CreateFCmpORD(a, b));
  if (op == ir::BinaryOp::Div) {
    fast = builder_.CreateAnd(fast, builder_.CreateFCmpONE(b, llvm::ConstantFP::get(f64_, 0.0)));
  }
  return IfElse(
      fast,
      [&] {
        switch (op) {
          case ir::BinaryOp::Add: return CallCont(k, NumberValue(builder_.CreateFAdd(a, b)));
          case ir::BinaryOp::Sub: return CallCont(k, NumberValue(builder_.CreateFSub(a, b)));
          case ir::BinaryOp::Mul: return CallCont(k, NumberValue(builder_.CreateFMul(a, b)));
          case ir::BinaryOp::Div: return CallCont(k, NumberValue(builder_.CreateFDiv(a, b)));
          case ir::BinaryOp::Eq: return CallCont(k, BoolValue(builder_.CreateFCmpOEQ(a, b)));
          case ir::BinaryOp::Ne: return CallCont(k, BoolValue(builder_.CreateFCmpONE(a, b)));
          case ir::BinaryOp::Lt: return CallCont(k, BoolValue(builder_.CreateFCmpOLT(a, b)));
          case ir::BinaryOp::Le: return CallCont(k, BoolValue(builder_.CreateFCmpOLE(a, b)));
          case ir::BinaryOp::Gt: return CallCont(k, BoolValue(builder_.CreateFCmpOGT(a, b)));
          case ir::BinaryOp::Ge: return CallCont(k, BoolValue(builder_.CreateFCmpOGE(a, b)));
          case ir::BinaryOp::Mod: break;
        }
        return Status(WM_STATUS_ERROR);
      },
      slow);
}

}  // namespace wm::codegen::internal
