// ProgramEmitter: calls of program functions: inlined activations, recursive functions as LLVM
// functions with call records and closures, and the interpreter's tail-call facts.
#include "compiler/codegen/internal/program_emitter.h"

namespace wm::codegen::internal {

Activation* ProgramEmitter::LexicalParentOf(Activation& caller, const ir::Function& fn) {
  if (fn.parent < 0) return nullptr;
  Activation* link = &caller;
  while (link != nullptr && link->function != static_cast<uint32_t>(fn.parent)) link = link->lexical;
  return link;
}

llvm::Value* ProgramEmitter::Call(NodeId n, const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path) {
  if (node.a >= program_.functions.size()) {
    Fail("function index out of range");
    return Status(WM_STATUS_ERROR);
  }
  const ir::Function& fn = program_.functions[node.a];
  // Value parameters ($p) are bound by the lowered callee body itself (ir.h), as the
  // interpreter relies on too: value_param_slots needs no handling here.
  if (node.kids.size() != fn.num_closure_params) {
    Fail("wrong number of closure arguments for " + fn.name);
    return Status(WM_STATUS_ERROR);
  }
  Activation* lexical = LexicalParentOf(act, fn);
  bool counted = act.tail_nodes.count(n) == 0;
  // Functions on a cycle of the call graph, as the interpreter finds them (tail_calls.cpp).
  if (tail_facts_->IsRecursive(node.a)) return CallRecursive(node, act, lexical, in, k, counted, path);
  // Inlining terminates: every function of a call cycle is called as an LLVM function above,
  // and a closure argument re-enters its caller's body, never a callee's; nested calls of the
  // same function through closure arguments (f(f(.))) are fine.
  uint32_t& next_slot = frame_info_->next_slot;
  if (static_cast<uint64_t>(next_slot) + SlotsOf(fn) > kMaxFrameSlots) {
    Fail("too many variables after inlining");
    return Status(WM_STATUS_ERROR);
  }
  Activation callee;
  callee.function = node.a;
  callee.slot_base = next_slot;
  callee.home = frame_info_;
  callee.id = ++activation_ids_;
  callee.caller = &act;
  callee.closure_args = &node.kids;
  callee.lexical = lexical;
  next_slot += SlotsOf(fn);
  FindTailCalls(fn.body, callee);
  return WithDepth([&] { return Gen(fn.body, callee, in, k, path); }, counted);
}

llvm::Function* ProgramEmitter::ForeignContinuation() {
  if (foreign_cont_ != nullptr) return foreign_cont_;
  foreign_cont_ = NewFunction("foreign_k");
  FunctionScope scope(*this, foreign_cont_);
  llvm::Value* record = foreign_cont_->getArg(3);
  llvm::Value* fn = builder_.CreateLoad(ptr_, BytePtr(record, kRecordContFn));
  llvm::Value* env = builder_.CreateLoad(ptr_, BytePtr(record, kRecordContEnv));
  llvm::Value* frame = builder_.CreateLoad(ptr_, BytePtr(record, kRecordContFrame));
  builder_.CreateRet(builder_.CreateCall(cont_type_, fn, {ctx_, frame, foreign_cont_->getArg(2), env}));
  return foreign_cont_;
}

void ProgramEmitter::StoreCont(llvm::Value* record, Cont k) {
  if (foreign_cont_ != nullptr && k.fn == foreign_cont_) {
    // k is a caller's continuation behind its record: pass that one on, so that a chain of
    // recursive calls (jq's loops) reaches it in one step, not through one adapter per level.
    for (uint64_t at : {kRecordContFn, kRecordContEnv, kRecordContFrame}) {
      builder_.CreateStore(builder_.CreateLoad(ptr_, BytePtr(k.env, at)), BytePtr(record, at));
    }
    return;
  }
  builder_.CreateStore(k.fn, BytePtr(record, kRecordContFn));
  builder_.CreateStore(k.env, BytePtr(record, kRecordContEnv));
  builder_.CreateStore(frame_, BytePtr(record, kRecordContFrame));
}

llvm::Value* ProgramEmitter::CallRecursive(const ir::Node& node, Activation& act, Activation* lexical, llvm::Value* in,
                           Cont k, bool counted, bool path) {
  llvm::Function* target = RecursiveFunction(node.a, lexical, path);
  if (target == nullptr) return Status(WM_STATUS_ERROR);
  uint64_t words = (kRecordClosures + kRecordClosureSize * node.kids.size()) / 8;
  llvm::Value* record = Alloca(llvm::ArrayType::get(ptr_, words), "call_record");
  StoreCont(record, k);
  llvm::Value* link = lexical != nullptr ? FramePtr(lexical->home) : llvm::ConstantPointerNull::get(ptr_);
  builder_.CreateStore(link, BytePtr(record, kRecordStaticLink));
  for (size_t i = 0; i < node.kids.size(); ++i) {
    ClosureCode code = ClosureFor(node.kids[i], act);
    uint64_t at = kRecordClosures + kRecordClosureSize * i;
    builder_.CreateStore(code.value_code, BytePtr(record, at));
    builder_.CreateStore(code.path_code, BytePtr(record, at + kClosurePathCode));
    builder_.CreateStore(code.env, BytePtr(record, at + kClosureEnv));
  }
  return WithDepth([&] { return builder_.CreateCall(target, {ctx_, frame_, in, record}); }, counted);
}

ProgramEmitter::ClosureCode ProgramEmitter::ClosureFor(NodeId body, Activation& act) {
  const ir::Node& node = program_.nodes[body];
  if (node.op == Op::CallParam) {
    Activation* scope = Up(act, node.a);
    if (scope != nullptr && scope->closures_in_record &&
        ir::ScopeIndex(node.a) < program_.functions[scope->function].num_closure_params) {
      llvm::Value* record = builder_.CreateLoad(ptr_, FramePtr(scope->home), "record");
      uint64_t at = kRecordClosures + kRecordClosureSize * ir::ScopeIndex(node.a);
      return ClosureCode{builder_.CreateLoad(ptr_, BytePtr(record, at)),
                         builder_.CreateLoad(ptr_, BytePtr(record, at + kClosurePathCode)),
                         builder_.CreateLoad(ptr_, BytePtr(record, at + kClosureEnv))};
    }
  }
  llvm::Value* value_code = ClosureFunction(body, act, false);
  llvm::Value* path_code =
      has_paths_ ? static_cast<llvm::Value*>(ClosureFunction(body, act, true)) : llvm::ConstantPointerNull::get(ptr_);
  return ClosureCode{value_code, path_code, FramePtr(act.home)};
}

llvm::Function* ProgramEmitter::ClosureFunction(NodeId body, Activation& act, bool path) {
  llvm::Function* fn = NewFunction(path ? "closure.path" : "closure");
  NativeFrame* saved = frame_info_;
  frame_info_ = act.home;
  {
    FunctionScope scope(*this, fn);
    builder_.CreateRet(Gen(body, act, fn->getArg(2), Cont{ForeignContinuation(), fn->getArg(3)}, path));
  }
  frame_info_ = saved;
  return fn;
}

llvm::Value* ProgramEmitter::CallRecordClosure(Activation& scope, uint32_t index, llvm::Value* in, Cont k, bool path) {
  if (index >= program_.functions[scope.function].num_closure_params) {
    Fail("closure parameter out of range");
    return Status(WM_STATUS_ERROR);
  }
  llvm::Value* record = builder_.CreateLoad(ptr_, FramePtr(scope.home), "record");
  uint64_t at = kRecordClosures + kRecordClosureSize * index;
  llvm::Value* code = builder_.CreateLoad(ptr_, BytePtr(record, path ? at + kClosurePathCode : at));
  llvm::Value* env = builder_.CreateLoad(ptr_, BytePtr(record, at + kClosureEnv));
  llvm::Value* cont = Alloca(llvm::ArrayType::get(ptr_, 3), "closure_k");
  StoreCont(cont, k);
  return builder_.CreateCall(cont_type_, code, {ctx_, env, in, cont});
}

llvm::Function* ProgramEmitter::RecursiveFunction(uint32_t index, Activation* lexical, bool path) {
  auto key = std::make_tuple(index, lexical != nullptr ? lexical->id : 0, path);
  if (auto found = recursive_fns_.find(key); found != recursive_fns_.end()) return found->second;
  const ir::Function& fn = program_.functions[index];
  if (1ull + SlotsOf(fn) > kMaxFrameSlots) {
    Fail("too many variables in " + fn.name);
    return nullptr;
  }
  llvm::Function* wrapper = NewFunction("rec");  // checks the stack, allocates the frame
  recursive_fns_[key] = wrapper;
  llvm::Function* body = NewFunction("rec.body");
  NativeFrame frame_info;
  frame_info.static_parent = lexical != nullptr ? lexical->home : nullptr;
  frame_info.next_slot = 1 + SlotsOf(fn);
  Activation callee;
  callee.function = index;
  callee.slot_base = 1;
  callee.home = &frame_info;
  callee.id = ++activation_ids_;
  callee.lexical = lexical;
  callee.closures_in_record = true;
  FindTailCalls(fn.body, callee);
  NativeFrame* saved = frame_info_;
  frame_info_ = &frame_info;
  {
    FunctionScope scope(*this, body);
    builder_.CreateRet(
        Gen(fn.body, callee, body->getArg(2), Cont{ForeignContinuation(), body->getArg(3)}, path));
  }
  frame_info_ = saved;
  FunctionScope scope(*this, wrapper);
  llvm::Value* frame = builder_.CreateAlloca(value_, I32(frame_info.next_slot), "frame");
  if (has_paths_) ZeroFrame(frame, frame_info.next_slot);
  llvm::Value* record = wrapper->getArg(3);
  builder_.CreateStore(record, frame);
  // Near the end of the stack the body continues on a fresh segment (see native_abi.h).
  llvm::Value* low = builder_.CreateICmpNE(CallAbi(WM_ABI_CHECK_STACK, {ctx_}), I32(0));
  llvm::Value* s = IfElse(
      low, [&] { return CallAbi(WM_ABI_CALL_ON_NEW_STACK, {ctx_, body, frame, wrapper->getArg(2), record}); },
      [&] { return builder_.CreateCall(body, {ctx_, frame, wrapper->getArg(2), record}); });
  builder_.CreateRet(s);
  return wrapper;
}

void ProgramEmitter::FindTailCalls(NodeId body, Activation& act) {
  std::vector<NodeId> pending{body};
  while (!pending.empty()) {
    NodeId id = pending.back();
    pending.pop_back();
    if (id == ir::kNoNode || id >= program_.nodes.size() || !tail_facts_->ReachesTailCall(id)) continue;
    const ir::Node& node = program_.nodes[id];
    switch (node.op) {
      case Op::Call: act.tail_nodes.insert(id); break;
      case Op::Comma: pending.push_back(node.kids[1]); break;
      case Op::If:
        if (!AtMostOne(node.kids[0], act)) break;
        act.tail_nodes.insert(id);
        pending.insert(pending.end(), {node.kids[1], node.kids[2]});
        break;
      case Op::Pipe:
      case Op::Bind:
        if (!AtMostOne(node.kids[0], act)) break;
        act.tail_nodes.insert(id);
        pending.push_back(node.kids[1]);
        break;
      default: break;
    }
  }
}

bool ProgramEmitter::AtMostOne(NodeId id, Activation& act) {
  int budget = 64;
  return AtMostOneWithin(id, act, &budget);
}

bool ProgramEmitter::AtMostOneWithin(NodeId id, Activation& act, int* budget) {
  if (id == ir::kNoNode) return true;
  switch (tail_facts_->CountOf(id)) {
    case native::TailCallFacts::Count::kAtMostOne: return true;
    case native::TailCallFacts::Count::kMany: return false;
    case native::TailCallFacts::Count::kOneIfClosures: break;
  }
  if (--*budget < 0) return false;
  const ir::Node& node = program_.nodes[id];
  if (node.op == Op::CallParam) {
    Activation* scope = &act;
    for (uint32_t levels = ir::ScopeLevels(node.a); levels > 0 && scope != nullptr; --levels) scope = scope->lexical;
    uint32_t index = ir::ScopeIndex(node.a);
    if (scope != nullptr && scope->closures_in_record) return ClosureParamAtMostOne(scope->function, index);
    if (scope == nullptr || scope->closure_args == nullptr || scope->caller == nullptr ||
        index >= scope->closure_args->size()) {
      return false;
    }
    return AtMostOneWithin((*scope->closure_args)[index], *scope->caller, budget);
  }
  if (node.op == Op::Call) {
    const ir::Function& fn = program_.functions[node.a];
    Activation probe;
    probe.function = node.a;
    probe.lexical = LexicalParentOf(act, fn);
    probe.caller = &act;
    probe.closure_args = &node.kids;
    return AtMostOneWithin(fn.body, probe, budget);
  }
  std::vector<NodeId> kids;
  if (!native::TailCallFacts::CountedChildren(node, &kids)) return false;
  for (NodeId kid : kids) {
    if (!AtMostOneWithin(kid, act, budget)) return false;
  }
  return true;
}

bool ProgramEmitter::ClosureParamAtMostOne(uint32_t function, uint32_t index) {
  uint64_t key = (static_cast<uint64_t>(function) << 32) | index;
  if (auto found = param_at_most_one_.find(key); found != param_at_most_one_.end()) return found->second;
  bool all = true;
  for (const ir::Node& call : program_.nodes) {
    if (call.op != Op::Call || call.a != function || index >= call.kids.size()) continue;
    const ir::Node& arg = program_.nodes[call.kids[index]];
    if (arg.op == Op::CallParam && ir::ScopeIndex(arg.a) == index) continue;
    if (tail_facts_->CountOf(call.kids[index]) != native::TailCallFacts::Count::kAtMostOne) {
      all = false;
      break;
    }
  }
  param_at_most_one_[key] = all;
  return all;
}

}  // namespace wm::codegen::internal
