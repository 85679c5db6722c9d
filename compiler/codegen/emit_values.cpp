// ProgramEmitter: values and reference counting. Scalar and owned value slots, releases, frame
// and variable slots (reached through static links), constants and bitwise bindings.
#include "compiler/codegen/internal/program_emitter.h"

namespace wm::codegen::internal {

llvm::AllocaInst* ProgramEmitter::Alloca(llvm::Type* type, const char* name) {
  llvm::IRBuilder<> entry(entry_block_, entry_block_->begin());
  return entry.CreateAlloca(type, nullptr, name);
}

llvm::Value* ProgramEmitter::BytePtr(llvm::Value* base, llvm::Value* offset) {
  return builder_.CreateGEP(i8_, base, offset);
}

llvm::Value* ProgramEmitter::BytePtr(llvm::Value* base, uint64_t offset) {
  return offset == 0 ? base : BytePtr(base, I64(offset));
}

llvm::Value* ProgramEmitter::Truthy(llvm::Value* v) {
  return builder_.CreateICmpUGT(Kind(v), llvm::ConstantInt::get(i8_, WM_KIND_FALSE));
}

llvm::Value* ProgramEmitter::ScalarValue(llvm::Value* kind_word, llvm::Value* payload_word) {
  llvm::AllocaInst* slot = Alloca(value_, "scalar");
  builder_.CreateStore(kind_word, slot);
  builder_.CreateStore(payload_word, BytePtr(slot, 8));
  return slot;
}

llvm::Value* ProgramEmitter::BoolValue(llvm::Value* b) {
  return ScalarValue(builder_.CreateSelect(b, I64(WM_KIND_TRUE), I64(WM_KIND_FALSE)), I64(0));
}

llvm::Value* ProgramEmitter::NumberValue(llvm::Value* d) {
  return ScalarValue(I64(WM_KIND_NUMBER), builder_.CreateBitCast(d, i64_));
}

llvm::Value* ProgramEmitter::OwnedSlot() {
  llvm::AllocaInst* slot = Alloca(value_, "owned");
  return slot;
}

void ProgramEmitter::Release(llvm::Value* slot) {
  llvm::Value* heap = builder_.CreateICmpUGE(Kind(slot), llvm::ConstantInt::get(i8_, WM_KIND_STRING));
  llvm::BasicBlock* release = NewBlock("release");
  llvm::BasicBlock* done = NewBlock("released");
  builder_.CreateCondBr(heap, release, done);
  builder_.SetInsertPoint(release);
  CallAbi(WM_ABI_RELEASE, {slot});
  builder_.CreateBr(done);
  builder_.SetInsertPoint(done);
}

void ProgramEmitter::StoreNull(llvm::Value* slot) {
  builder_.CreateStore(I64(0), slot);
  builder_.CreateStore(I64(0), BytePtr(slot, 8));
}

void ProgramEmitter::CopyBits(llvm::Value* dst, llvm::Value* src) {
  builder_.CreateStore(builder_.CreateLoad(i64_, src), dst);
  builder_.CreateStore(builder_.CreateLoad(i64_, BytePtr(src, 8)), BytePtr(dst, 8));
}

llvm::Value* ProgramEmitter::ConstPtr(uint32_t index) {
  if (index >= program_.consts.size()) {
    Fail("constant index out of range");
    return NullValue();
  }
  llvm::Value* consts = InvariantLoad(BytePtr(ctx_, 8), "consts");
  return BytePtr(consts, 16ull * index);
}

Activation* ProgramEmitter::Up(Activation& act, uint32_t immediate) {
  Activation* a = &act;
  for (uint32_t levels = ir::ScopeLevels(immediate); levels > 0 && a != nullptr; --levels) {
    a = a->lexical;
  }
  if (a == nullptr) Fail("variable or parameter refers to a missing lexical scope");
  return a;
}

llvm::Value* ProgramEmitter::SlotPtr(const Activation& act, uint32_t slot) {
  if (slot >= program_.functions[act.function].num_slots) {
    Fail("variable slot out of range in " + program_.functions[act.function].name);
    return NullValue();
  }
  return BytePtr(FramePtr(act.home), 16ull * (act.slot_base + slot));
}

llvm::Value* ProgramEmitter::FramePtr(NativeFrame* target) {
  llvm::Value* p = frame_;
  NativeFrame* f = frame_info_;
  while (f != nullptr && f != target) {
    llvm::Value* record = builder_.CreateLoad(ptr_, p, "record");
    p = builder_.CreateLoad(ptr_, BytePtr(record, kRecordStaticLink), "static_link");
    f = f->static_parent;
  }
  if (f == nullptr) Fail("a variable's frame is not reachable from native code");
  return p;
}

llvm::Value* ProgramEmitter::SimpleValue(NodeId n, Activation& act, llvm::Value* in) {
  if (n == ir::kNoNode) return NullValue();
  const ir::Node& node = program_.nodes[n];
  switch (node.op) {
    case Op::Identity: return in;
    case Op::Const:
    case Op::Loc: return ConstPtr(node.a);
    case Op::Var: {
      Activation* scope = Up(act, node.a);
      return scope != nullptr ? SlotPtr(*scope, ir::ScopeIndex(node.a)) : NullValue();
    }
    default: return nullptr;
  }
}

llvm::Value* ProgramEmitter::WithOwned(llvm::Value* status, llvm::Value* out, Cont k) {
  llvm::Value* s = IfOk(status, [&] { return CallCont(k, out); });
  Release(out);
  return s;
}

llvm::Value* ProgramEmitter::PointerArray(const Values& values) {
  llvm::AllocaInst* array =
      Alloca(llvm::ArrayType::get(ptr_, values.empty() ? 1 : values.size()), "ptrs");
  for (size_t i = 0; i < values.size(); ++i) {
    builder_.CreateStore(values[i], BytePtr(array, 8 * i));
  }
  return array;
}

llvm::Value* ProgramEmitter::WithBinding(llvm::Value* slot_ptr, llvm::Value* v, const std::function<llvm::Value*()>& body) {
  llvm::Value* saved = Alloca(value_, "saved_slot");
  CopyBits(saved, slot_ptr);
  CopyBits(slot_ptr, v);
  llvm::Value* s = body();
  CopyBits(slot_ptr, saved);
  return s;
}

void ProgramEmitter::ZeroFrame(llvm::Value* frame, uint32_t slots) {
  llvm::BasicBlock* pre = builder_.GetInsertBlock();
  llvm::BasicBlock* head = NewBlock("zero.head");
  llvm::BasicBlock* exit = NewBlock("zero.exit");
  builder_.CreateBr(head);
  builder_.SetInsertPoint(head);
  llvm::PHINode* i = builder_.CreatePHI(i64_, 2, "i");
  i->addIncoming(I64(0), pre);
  builder_.CreateStore(I64(0), BytePtr(frame, builder_.CreateMul(i, I64(8))));
  llvm::Value* next = builder_.CreateAdd(i, I64(1));
  i->addIncoming(next, head);
  builder_.CreateCondBr(builder_.CreateICmpULT(next, I64(2ull * slots)), head, exit);
  builder_.SetInsertPoint(exit);
}

}  // namespace wm::codegen::internal
