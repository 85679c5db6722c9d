// ProgramEmitter: path mode (path(f), getpath and the nodes that track paths), where values
// travel as {value, path} pairs, as the interpreter's Eval with a path.
#include "compiler/codegen/internal/program_emitter.h"

namespace wm::codegen::internal {

llvm::Value* ProgramEmitter::PathSlotPtr(const Activation& act, uint32_t slot) {
  const ir::Function& fn = program_.functions[act.function];
  if (!has_paths_ || slot >= fn.num_slots) {
    Fail("path slot out of range in " + fn.name);
    return NullValue();
  }
  return BytePtr(FramePtr(act.home), 16ull * (act.slot_base + fn.num_slots + slot));
}

llvm::Value* ProgramEmitter::PairOf(llvm::Value* value, llvm::Value* path) {
  llvm::Value* pair = PairSlot();
  CopyBits(pair, value);
  CopyBits(BytePtr(pair, 16), path);
  return pair;
}

llvm::Value* ProgramEmitter::WithOwnedPair(llvm::Value* status, llvm::Value* pair, Cont k) {
  llvm::Value* s = IfOk(status, [&] { return CallCont(k, pair); });
  Release(pair);
  Release(BytePtr(pair, 16));
  return s;
}

llvm::Value* ProgramEmitter::GenPathNode(NodeId n, Activation& act, llvm::Value* in, Cont k) {
  const ir::Node& node = program_.nodes[n];
  auto kid = [&](size_t i) { return i < node.kids.size() ? node.kids[i] : ir::kNoNode; };
  switch (node.op) {
    case Op::Identity:
      return CallCont(k, in);
    case Op::Empty: case Op::Pipe: case Op::Comma: case Op::Alternative: case Op::If: case Op::Try:
    case Op::Bind: case Op::Foreach: case Op::Label: case Op::Break: case Op::Call: case Op::CallParam:
      return GenNode(n, act, in, k, /*path=*/true);
    case Op::Index:
      // The key (value mode) is the outer loop, the target (path mode) the inner one.
      return ForEach(kid(1), act, in, {k.env, in}, [&](llvm::Value* key, const Values& c) {
        return ForEach(kid(0), act, c[1], {c[0], key}, [&](llvm::Value* target, const Values& c2) {
          llvm::Value* out = PairSlot();
          llvm::Value* s = CallAbi(WM_ABI_PATH_INDEX, {ctx_, target, c2[1], out});
          return WithOwnedPair(s, out, Cont{k.fn, c2[0]});
        }, true, true);
      });
    case Op::Slice:
      return ForEach(kid(1), act, in, {k.env, in}, [&](llvm::Value* from, const Values& c) {
        return ForEach(kid(2), act, c[1], {c[0], c[1], from}, [&](llvm::Value* to, const Values& c2) {
          return ForEach(kid(0), act, c2[1], {c2[0], c2[2], to}, [&](llvm::Value* target, const Values& c3) {
            llvm::Value* out = PairSlot();
            llvm::Value* s = CallAbi(WM_ABI_PATH_SLICE, {ctx_, target, c3[1], c3[2], out});
            return WithOwnedPair(s, out, Cont{k.fn, c3[0]});
          }, true, true);
        });
      });
    case Op::Iterate:
      return ForEach(kid(0), act, in, {k.env}, [&](llvm::Value* target, const Values& c) {
        return CallAbi(WM_ABI_PATH_ITERATE, {ctx_, frame_, target, k.fn, c[0]});
      }, true, true);
    case Op::RecurseAll:
      return CallAbi(WM_ABI_PATH_RECURSE, {ctx_, frame_, in, k.fn, k.env});
    case Op::Var: {
      Activation* scope = Up(act, node.a);
      if (scope == nullptr) return Status(WM_STATUS_ERROR);
      uint32_t slot = ir::ScopeIndex(node.a);
      llvm::Value* out = PairSlot();
      CallAbi(WM_ABI_PATH_VAR, {SlotPtr(*scope, slot), PathSlotPtr(*scope, slot), in, out});
      return WithOwnedPair(Status(WM_STATUS_OK), out, k);
    }
    case Op::GetPathGen:
      return GetPath(kid(0), act, in, /*path=*/true, k);
    default: {
      llvm::Function* no_path = NewFunction("k.nopath");
      {
        FunctionScope scope(*this, no_path);
        builder_.CreateRet(CallCont(Cont{k.fn, no_path->getArg(3)}, PairOf(no_path->getArg(2), NullValue())));
      }
      return GenNode(n, act, in, Cont{no_path, k.env});
    }
  }
}

llvm::Value* ProgramEmitter::PathOf(NodeId body, Activation& act, llvm::Value* in, Cont k) {
  llvm::Value* start = PairSlot();
  CopyBits(start, in);
  CallAbi(WM_ABI_ARRAY_NEW, {BytePtr(start, 16)});
  llvm::Value* s = ForEach(body, act, start, {k.env}, [&](llvm::Value* pair, const Values& c) {
    return IfOk(CallAbi(WM_ABI_PATH_CHECK, {ctx_, pair}),
                [&] { return CallCont(Cont{k.fn, c[0]}, BytePtr(pair, 16)); });
  }, true, true);
  Release(BytePtr(start, 16));
  return s;
}

llvm::Value* ProgramEmitter::GetPath(NodeId p, Activation& act, llvm::Value* in, bool path, Cont k) {
  return ForEach(p, act, in, {k.env, in}, [&](llvm::Value* keys, const Values& c) {
    llvm::Value* out = PairSlot();
    llvm::Value* in_path = path ? BytePtr(c[1], 16) : llvm::ConstantPointerNull::get(ptr_);
    llvm::Value* s = CallAbi(WM_ABI_PATH_GETPATH, {ctx_, c[1], in_path, keys, out});
    return WithOwnedPair(s, out, Cont{k.fn, c[0]});
  });
}

}  // namespace wm::codegen::internal
