// Resolver IR -> LLVM IR in continuation-passing style (the engine model of DESIGN.md). Every
// generator produces its outputs by calling a continuation `i32 k(ctx, frame, v, env)` once per
// output; the returned status (ok / stop / error / break) propagates. Continuations are internal
// functions known at compile time, so every call is direct and LLVM's inliner turns path-shaped
// filters into straight loops. Functions of the program are inlined at compile time, each inlined
// activation with its own slot range in one frame; functions on a call cycle (TailCallFacts says
// which, as for the interpreter) become LLVM functions with a frame per activation.
// Runtime services come only through the WmAbi table in the context (runtime/eval/native_abi.h).
//
// Agreement with the interpreter (runtime/eval/interpreter.cpp) is by construction: the same
// IR conventions (Var/Break/CallParam immediates are ir::ScopedIndex(levels, index) over lexical parents),
// the same generator orders, one step of fuel per node evaluation, per destructuring and per range
// element, and the same call-depth accounting (Calls count, closure invocations do not).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/codegen/internal/emit.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "runtime/eval/native_abi.h"

namespace wm::codegen::internal {
namespace {

using ir::NodeId;
using ir::Op;

// Bounds on compile-time work for one program: C++ recursion while generating nested nodes, and
// the number of nodes generated after inlining functions (inlining can multiply code size).
constexpr int kMaxGenDepth = 1500;
constexpr size_t kMaxGeneratedNodes = 50'000;
constexpr uint32_t kMaxFrameSlots = 4096;  // 64 KiB of native stack for one frame

// One native stack frame: the entry's, or one per activation of a recursive function's LLVM
// function. Slot 0 of a recursive function's frame holds its call record (see CallRecursive),
// whose static link leads to the frame of the function's lexical parent.
struct NativeFrame {
  NativeFrame* static_parent = nullptr;  // frame the static link points to (null: the entry's)
  uint32_t next_slot = 0;                // slots allocated so far (grows while inlining)
};

// Byte offsets in a call record: the caller's continuation, the static link, and one
// (value-mode code, path-mode code, env) triple per closure argument (the path-mode code is null
// in programs without path expressions).
constexpr uint64_t kRecordContFn = 0;
constexpr uint64_t kRecordContEnv = 8;
constexpr uint64_t kRecordContFrame = 16;
constexpr uint64_t kRecordStaticLink = 24;
constexpr uint64_t kRecordClosures = 32;
constexpr uint64_t kRecordClosureSize = 24;
constexpr uint64_t kClosurePathCode = 8;
constexpr uint64_t kClosureEnv = 16;

// One function activation at compile time: where its slots live and what its closure params
// denote. Inlined activations evaluate closure args in `caller`; the activation of a recursive
// function reads them from its call record at run time (closures_in_record).
struct Activation {
  uint32_t function = 0;
  uint32_t slot_base = 0;
  NativeFrame* home = nullptr;    // the frame holding the slots
  uint64_t id = 0;                // unique per activation (keys the recursive-function cache)
  Activation* caller = nullptr;   // closure args are evaluated in this activation
  Activation* lexical = nullptr;  // activation of Function::parent (the static link)
  const std::vector<NodeId>* closure_args = nullptr;
  bool closures_in_record = false;
  std::unordered_map<uint32_t, uint32_t> labels;  // label slot -> compile-time label id
  // The interpreter's tail path through the body: the Calls it makes as tail calls (not counted
  // as call depth) and the `|`, `if` and `as` nodes on the way, whose left side it runs to its
  // single value before going on (see TakeThen).
  std::unordered_set<NodeId> tail_nodes;
};

// A continuation: a generated function plus its environment pointer (valid in the current
// function).
struct Cont {
  llvm::Function* fn;
  llvm::Value* env;
};

using Values = std::vector<llvm::Value*>;

class ProgramEmitter {
 public:
  ProgramEmitter(llvm::Module& module, const ir::Program& program, const std::string& prefix)
      : module_(module),
        context_(module.getContext()),
        builder_(context_),
        program_(program),
        prefix_(prefix) {
    ptr_ = llvm::PointerType::getUnqual(context_);
    i1_ = llvm::Type::getInt1Ty(context_);
    i8_ = llvm::Type::getInt8Ty(context_);
    i32_ = llvm::Type::getInt32Ty(context_);
    i64_ = llvm::Type::getInt64Ty(context_);
    f64_ = llvm::Type::getDoubleTy(context_);
    void_ = llvm::Type::getVoidTy(context_);
    value_ = llvm::ArrayType::get(i64_, 2);
    cont_type_ = llvm::FunctionType::get(i32_, {ptr_, ptr_, ptr_, ptr_}, false);
    tail_facts_ = std::make_unique<native::TailCallFacts>(program);
    for (const ir::Node& node : program.nodes) has_paths_ = has_paths_ || node.op == Op::PathOf;
  }

  // Defines `i32 symbol(ptr ctx, ptr input)`. Returns "" or an error.
  std::string EmitEntry(const std::string& symbol) {
    if (program_.functions.empty() || program_.functions[0].body == ir::kNoNode) {
      return "program has no entry function";
    }
    // The program body runs in a continuation-shaped function; the entry allocates the frame
    // once the total slot count (known only after inlining) is final.
    llvm::Function* emit_output = NewFunction("emit");
    {
      FunctionScope scope(*this, emit_output);
      builder_.CreateRet(CallAbi(WM_ABI_EMIT, {ctx_, emit_output->getArg(2)}));
    }
    llvm::Function* body = NewFunction("body");
    NativeFrame root_frame;
    root_frame.next_slot = SlotsOf(program_.functions[0]);
    frame_info_ = &root_frame;
    Activation root;
    root.function = 0;
    root.slot_base = 0;
    root.home = &root_frame;
    root.id = ++activation_ids_;
    if (root_frame.next_slot > kMaxFrameSlots) return "too many variables for native code";
    {
      FunctionScope scope(*this, body);
      llvm::Value* status = Gen(program_.functions[0].body, root, body->getArg(2),
                                Cont{emit_output, llvm::ConstantPointerNull::get(ptr_)});
      if (!error_.empty()) return error_;
      builder_.CreateRet(status);
    }
    if (!error_.empty()) return error_;

    auto* entry_type = llvm::FunctionType::get(i32_, {ptr_, ptr_}, false);
    llvm::Function* entry =
        llvm::Function::Create(entry_type, llvm::Function::ExternalLinkage, symbol, module_);
    SetAttributes(entry);
    {
      FunctionScope scope(*this, entry);
      uint32_t slots = root_frame.next_slot == 0 ? 1 : root_frame.next_slot;
      llvm::Value* frame = builder_.CreateAlloca(value_, llvm::ConstantInt::get(i32_, slots), "frame");
      frame_ = frame;
      if (has_paths_) ZeroFrame(frame, slots);
      CallAbi(WM_ABI_BIND_GLOBALS,
              {ctx_, frame, llvm::ConstantInt::get(i32_, program_.functions[0].num_slots)});
      builder_.CreateRet(builder_.CreateCall(body, {ctx_, frame, entry->getArg(1),
                                                    llvm::ConstantPointerNull::get(ptr_)}));
    }
    return error_;
  }

 private:
  // Switches generation into `fn` (a fresh function) and restores the previous one afterwards.
  class FunctionScope {
   public:
    FunctionScope(ProgramEmitter& e, llvm::Function* fn)
        : e_(e),
          saved_block_(e.builder_.GetInsertBlock()),
          saved_point_(e.builder_.GetInsertPoint()),
          saved_fn_(e.fn_),
          saved_ctx_(e.ctx_),
          saved_frame_(e.frame_),
          saved_entry_(e.entry_block_) {
      e.fn_ = fn;
      e.ctx_ = fn->getArg(0);
      e.frame_ = fn->arg_size() > 2 ? fn->getArg(1) : nullptr;
      e.entry_block_ = llvm::BasicBlock::Create(e.context_, "entry", fn);
      e.builder_.SetInsertPoint(e.entry_block_);
    }
    ~FunctionScope() {
      e_.fn_ = saved_fn_;
      e_.ctx_ = saved_ctx_;
      e_.frame_ = saved_frame_;
      e_.entry_block_ = saved_entry_;
      if (saved_block_ != nullptr) e_.builder_.SetInsertPoint(saved_block_, saved_point_);
    }

   private:
    ProgramEmitter& e_;
    llvm::BasicBlock* saved_block_;
    llvm::BasicBlock::iterator saved_point_;
    llvm::Function* saved_fn_;
    llvm::Value* saved_ctx_;
    llvm::Value* saved_frame_;
    llvm::BasicBlock* saved_entry_;
  };

  void SetAttributes(llvm::Function* fn) {
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    // The AOT object is linked with -nostdlib: never turn loops into memset/memcpy calls.
    fn->addFnAttr("no-builtins");
  }

  llvm::Function* NewFunction(const char* what) {
    llvm::Function* fn = llvm::Function::Create(cont_type_, llvm::Function::InternalLinkage,
                                                prefix_ + what, module_);
    SetAttributes(fn);
    return fn;
  }

  bool Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  // ---- small IR helpers

  llvm::Value* I32(uint32_t v) { return llvm::ConstantInt::get(i32_, v); }
  llvm::Value* I64(uint64_t v) { return llvm::ConstantInt::get(i64_, v); }
  llvm::Value* Status(int32_t s) { return llvm::ConstantInt::getSigned(i32_, s); }

  // An alloca in the current function's entry block (so it is promoted and not re-executed).
  llvm::AllocaInst* Alloca(llvm::Type* type, const char* name = "") {
    llvm::IRBuilder<> entry(entry_block_, entry_block_->begin());
    return entry.CreateAlloca(type, nullptr, name);
  }

  llvm::Value* BytePtr(llvm::Value* base, llvm::Value* offset) {
    return builder_.CreateGEP(i8_, base, offset);
  }
  llvm::Value* BytePtr(llvm::Value* base, uint64_t offset) {
    return offset == 0 ? base : BytePtr(base, I64(offset));
  }

  // The ABI table pointer, the table's entries and the constants pointer never change while
  // native code runs: invariant loads, which LLVM may share across the calls in between.
  llvm::Value* InvariantLoad(llvm::Value* pointer, const char* name) {
    llvm::LoadInst* load = builder_.CreateLoad(ptr_, pointer, name);
    load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(context_, {}));
    return load;
  }

  llvm::Value* CallAbi(WmAbiSlot slot, llvm::ArrayRef<llvm::Value*> args) {
    llvm::Value* abi = InvariantLoad(ctx_, "abi");
    llvm::Value* fn = InvariantLoad(BytePtr(abi, 8 + 8 * static_cast<uint64_t>(slot)), "abi_fn");
    return builder_.CreateCall(AbiType(slot), fn, args);
  }

  // The step or depth limit is exhausted: one shared out-of-line call per module (`limit` is a
  // WM_LIMIT_* constant) instead of an ABI-table call inlined at each of the thousands of places
  // that count a step, all on paths that run at most once per evaluation.
  llvm::Value* LimitExceeded(uint32_t limit) {
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

  llvm::FunctionType* AbiType(WmAbiSlot slot) {
    auto fn = [&](llvm::Type* result, std::vector<llvm::Type*> params) {
      return llvm::FunctionType::get(result, params, false);
    };
    switch (slot) {
      case WM_ABI_COPY: return fn(void_, {ptr_, ptr_});
      case WM_ABI_RELEASE: return fn(void_, {ptr_});
      case WM_ABI_INDEX: return fn(ptr_, {ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_SLICE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_ITERATE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_BINARY: return fn(i32_, {ptr_, i32_, ptr_, ptr_, ptr_});
      case WM_ABI_NEGATE: return fn(i32_, {ptr_, ptr_, ptr_});
      case WM_ABI_CALL_BUILTIN: return fn(i32_, {ptr_, i32_, ptr_, ptr_, i32_, ptr_});
      case WM_ABI_FORMAT: return fn(i32_, {ptr_, i32_, ptr_, ptr_});
      case WM_ABI_STRING_INTERP: return fn(i32_, {ptr_, i32_, ptr_, ptr_});
      case WM_ABI_MAKE_OBJECT: return fn(i32_, {ptr_, ptr_, i32_, ptr_});
      case WM_ABI_ARRAY_NEW: return fn(void_, {ptr_});
      case WM_ABI_ARRAY_PUSH: return fn(i32_, {ptr_, ptr_, ptr_});
      case WM_ABI_EMIT: return fn(i32_, {ptr_, ptr_});
      case WM_ABI_RAISE_ERROR: return fn(i32_, {ptr_, ptr_});
      case WM_ABI_LIMIT_EXCEEDED: return fn(i32_, {ptr_, i32_});
      case WM_ABI_CATCH_ERROR: return fn(i32_, {ptr_, ptr_});
      case WM_ABI_BIND_GLOBALS: return fn(void_, {ptr_, ptr_, i32_});
      case WM_ABI_RECURSE_ALL: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_CHECK_RANGE_ARGS: return fn(i32_, {ptr_, ptr_, i32_});
      case WM_ABI_CHECK_PATTERN_KEY: return fn(i32_, {ptr_, ptr_, ptr_});
      case WM_ABI_CHECK_OBJECT_KEY: return fn(i32_, {ptr_, ptr_});
      case WM_ABI_CHECK_STACK: return fn(i32_, {ptr_});
      case WM_ABI_CALL_ON_NEW_STACK: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_PATH_INDEX: return fn(i32_, {ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_PATH_SLICE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_PATH_ITERATE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_PATH_RECURSE: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_PATH_GETPATH: return fn(i32_, {ptr_, ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_PATH_VAR: return fn(void_, {ptr_, ptr_, ptr_, ptr_});
      case WM_ABI_PATH_CHECK: return fn(i32_, {ptr_, ptr_});
      case WM_ABI_NUM_SLOTS: break;
    }
    return fn(void_, {});
  }

  llvm::Value* Kind(llvm::Value* v) { return builder_.CreateLoad(i8_, v, "kind"); }
  llvm::Value* Truthy(llvm::Value* v) {
    return builder_.CreateICmpUGT(Kind(v), llvm::ConstantInt::get(i8_, WM_KIND_FALSE));
  }
  llvm::Value* NumberOf(llvm::Value* v) { return builder_.CreateLoad(f64_, BytePtr(v, 8)); }

  // A fresh value slot holding a scalar (no heap cell, so no release needed).
  llvm::Value* ScalarValue(llvm::Value* kind_word, llvm::Value* payload_word) {
    llvm::AllocaInst* slot = Alloca(value_, "scalar");
    builder_.CreateStore(kind_word, slot);
    builder_.CreateStore(payload_word, BytePtr(slot, 8));
    return slot;
  }
  llvm::Value* NullValue() { return ScalarValue(I64(WM_KIND_NULL), I64(0)); }
  llvm::Value* BoolValue(llvm::Value* b) {
    return ScalarValue(builder_.CreateSelect(b, I64(WM_KIND_TRUE), I64(WM_KIND_FALSE)), I64(0));
  }
  llvm::Value* NumberValue(llvm::Value* d) {
    return ScalarValue(I64(WM_KIND_NUMBER), builder_.CreateBitCast(d, i64_));
  }
  llvm::Value* OwnedSlot() {
    llvm::AllocaInst* slot = Alloca(value_, "owned");
    return slot;
  }
  // Drops the reference held in an owned slot; scalars need no call.
  void Release(llvm::Value* slot) {
    llvm::Value* heap = builder_.CreateICmpUGE(Kind(slot), llvm::ConstantInt::get(i8_, WM_KIND_STRING));
    llvm::BasicBlock* release = NewBlock("release");
    llvm::BasicBlock* done = NewBlock("released");
    builder_.CreateCondBr(heap, release, done);
    builder_.SetInsertPoint(release);
    CallAbi(WM_ABI_RELEASE, {slot});
    builder_.CreateBr(done);
    builder_.SetInsertPoint(done);
  }
  void StoreNull(llvm::Value* slot) {
    builder_.CreateStore(I64(0), slot);
    builder_.CreateStore(I64(0), BytePtr(slot, 8));
  }
  void CopyBits(llvm::Value* dst, llvm::Value* src) {
    builder_.CreateStore(builder_.CreateLoad(i64_, src), dst);
    builder_.CreateStore(builder_.CreateLoad(i64_, BytePtr(src, 8)), BytePtr(dst, 8));
  }

  llvm::BasicBlock* NewBlock(const char* name) {
    return llvm::BasicBlock::Create(context_, name, fn_);
  }

  llvm::Value* IsOk(llvm::Value* status) { return builder_.CreateICmpEQ(status, Status(WM_STATUS_OK)); }

  // if (cond) then() else otherwise(); both produce a status; returns the merged status.
  llvm::Value* IfElse(llvm::Value* cond, const std::function<llvm::Value*()>& then,
                      const std::function<llvm::Value*()>& otherwise) {
    llvm::BasicBlock* then_block = NewBlock("then");
    llvm::BasicBlock* else_block = NewBlock("else");
    llvm::BasicBlock* join = NewBlock("join");
    builder_.CreateCondBr(cond, then_block, else_block);
    builder_.SetInsertPoint(then_block);
    llvm::Value* then_status = then();
    llvm::BasicBlock* then_end = builder_.GetInsertBlock();
    builder_.CreateBr(join);
    builder_.SetInsertPoint(else_block);
    llvm::Value* else_status = otherwise();
    llvm::BasicBlock* else_end = builder_.GetInsertBlock();
    builder_.CreateBr(join);
    builder_.SetInsertPoint(join);
    llvm::PHINode* phi = builder_.CreatePHI(i32_, 2, "status");
    phi->addIncoming(then_status, then_end);
    phi->addIncoming(else_status, else_end);
    return phi;
  }

  // Runs `then` only when status is ok; otherwise the status propagates.
  llvm::Value* IfOk(llvm::Value* status, const std::function<llvm::Value*()>& then) {
    return IfElse(IsOk(status), then, [&] { return status; });
  }

  // One step of fuel (the interpreter's Step): error status when exhausted.
  llvm::Value* Tick() {
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

  llvm::Value* CallCont(Cont k, llvm::Value* v) {
    return builder_.CreateCall(k.fn, {ctx_, frame_, v, k.env});
  }

  llvm::Value* ConstPtr(uint32_t index) {
    if (index >= program_.consts.size()) {
      Fail("constant index out of range");
      return NullValue();
    }
    llvm::Value* consts = InvariantLoad(BytePtr(ctx_, 8), "consts");
    return BytePtr(consts, 16ull * index);
  }

  // The activation ir::ScopeLevels(immediate) lexical levels up (Var, Break, CallParam).
  Activation* Up(Activation& act, uint32_t immediate) {
    Activation* a = &act;
    for (uint32_t levels = ir::ScopeLevels(immediate); levels > 0 && a != nullptr; --levels) {
      a = a->lexical;
    }
    if (a == nullptr) Fail("variable or parameter refers to a missing lexical scope");
    return a;
  }

  // `slot` is a plain slot of `act` (patterns, labels); scoped immediates go through Up first.
  llvm::Value* SlotPtr(const Activation& act, uint32_t slot) {
    if (slot >= program_.functions[act.function].num_slots) {
      Fail("variable slot out of range in " + program_.functions[act.function].name);
      return NullValue();
    }
    return BytePtr(FramePtr(act.home), 16ull * (act.slot_base + slot));
  }

  // The frame `target` at run time, reached from the current function's frame through the
  // static links of recursive-function frames.
  llvm::Value* FramePtr(NativeFrame* target) {
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

  // Single-output, error-free nodes: their value is available without a continuation.
  llvm::Value* SimpleValue(NodeId n, Activation& act, llvm::Value* in) {
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

  using Body = std::function<llvm::Value*(llvm::Value* v, const Values& captured)>;

  // Generates `body(v)` for every output v of node n. The body may run in a new continuation
  // function: whatever it needs from the current function must be passed in `captures`, and the
  // body must use the (reloaded) `captured` values instead.
  llvm::Value* ForEach(NodeId n, Activation& act, llvm::Value* in, const Values& captures,
                       const Body& body, bool charge = true, bool path = false) {
    if (llvm::Value* simple = path ? nullptr : SimpleValue(n, act, in)) {
      // Evaluating the node costs its step, as in the interpreter (absent nodes cost nothing).
      if (!charge || n == ir::kNoNode) return body(simple, captures);
      return IfOk(Tick(), [&] { return body(simple, captures); });
    }
    llvm::Function* fn = NewFunction("k");
    std::vector<llvm::Type*> types;
    for (llvm::Value* c : captures) types.push_back(c->getType());
    llvm::StructType* env_type = llvm::StructType::get(context_, types);
    llvm::Value* env = llvm::ConstantPointerNull::get(ptr_);
    if (!captures.empty()) {
      env = Alloca(env_type, "env");
      for (size_t i = 0; i < captures.size(); ++i) {
        builder_.CreateStore(captures[i], builder_.CreateStructGEP(env_type, env, i));
      }
    }
    {
      FunctionScope scope(*this, fn);
      Values loaded;
      for (size_t i = 0; i < captures.size(); ++i) {
        loaded.push_back(builder_.CreateLoad(
            types[i], builder_.CreateStructGEP(env_type, fn->getArg(3), i)));
      }
      builder_.CreateRet(body(fn->getArg(2), loaded));
    }
    return Gen(n, act, in, Cont{fn, env}, path);
  }

  using Done = std::function<llvm::Value*(const Values& values, const Values& captured)>;
  // Runs once per value a loop level produces, before the inner levels: `got` holds the values
  // of the levels so far (outermost first, this level's last). Returns a status; a status other
  // than ok skips the inner levels and is the level's result.
  using LevelCheck = std::function<llvm::Value*(size_t depth, const Values& got)>;

  // Cartesian product: nodes[order[0]] is the outermost loop. `done` gets one value per node (in
  // node order; kNoNode gives null) and the reloaded captures. `check`, when given, runs as
  // LevelCheck says.
  llvm::Value* Cartesian(const std::vector<NodeId>& nodes, const std::vector<size_t>& order,
                         Activation& act, llvm::Value* in, const Values& captures, const Done& done,
                         bool literal_strings_are_free = false, const LevelCheck& check = nullptr) {
    std::function<llvm::Value*(size_t, llvm::Value*, const Values&, const Values&)> level =
        [&](size_t depth, llvm::Value* input, const Values& caps, const Values& got) -> llvm::Value* {
      if (depth == order.size()) {
        Values by_node(nodes.size(), nullptr);
        for (size_t i = 0; i < order.size(); ++i) by_node[order[i]] = got[i];
        return done(by_node, caps);
      }
      Values pass = caps;
      pass.push_back(input);
      for (llvm::Value* g : got) pass.push_back(g);
      NodeId node = nodes[order[depth]];
      bool charge = !(literal_strings_are_free && IsLiteralString(node));
      return ForEach(node, act, input, pass, [&](llvm::Value* v, const Values& c) {
        Values inner_caps(c.begin(), c.begin() + caps.size());
        llvm::Value* inner_in = c[caps.size()];
        Values inner_got(c.begin() + caps.size() + 1, c.end());
        inner_got.push_back(v);
        if (!check) return level(depth + 1, inner_in, inner_caps, inner_got);
        return IfOk(check(depth, inner_got),
                    [&] { return level(depth + 1, inner_in, inner_caps, inner_got); });
      }, charge);
    };
    return level(0, in, captures, {});
  }

  // String interpolation reads literal parts without evaluating them.
  bool IsLiteralString(NodeId n) const {
    if (n == ir::kNoNode || n >= program_.nodes.size()) return false;
    const ir::Node& node = program_.nodes[n];
    return node.op == Op::Const && node.a < program_.consts.size() &&
           program_.consts[node.a].IsString();
  }

  // ---- the generator

  // Generates node n: k gets every output. In path mode (`path`, under path(f)) `in` and every
  // output are pairs {value, path} (PairOf), as the interpreter's (value, path) arguments.
  llvm::Value* Gen(NodeId n, Activation& act, llvm::Value* in, Cont k, bool path = false) {
    if (!error_.empty()) return Status(WM_STATUS_ERROR);
    if (n == ir::kNoNode || n >= program_.nodes.size()) {
      Fail("node index out of range");
      return Status(WM_STATUS_ERROR);
    }
    if (++generated_nodes_ > kMaxGeneratedNodes) {
      Fail("program too large for native code after inlining functions");
      return Status(WM_STATUS_ERROR);
    }
    if (gen_depth_ >= kMaxGenDepth) {
      Fail("expression nested too deeply for native code");
      return Status(WM_STATUS_ERROR);
    }
    ++gen_depth_;
    llvm::Value* status = IfOk(Tick(), [&] { return path ? GenPathNode(n, act, in, k) : GenNode(n, act, in, k); });
    --gen_depth_;
    return status;
  }

  // `path`: in path mode (called by GenPathNode for the nodes path mode does not change).
  llvm::Value* GenNode(NodeId n, Activation& act, llvm::Value* in, Cont k, bool path = false) {
    const ir::Node& node = program_.nodes[n];
    auto kid = [&](size_t i) { return i < node.kids.size() ? node.kids[i] : ir::kNoNode; };
    switch (node.op) {
      case Op::Identity:
      case Op::Const:
      case Op::Loc:
      case Op::Var:
        return CallCont(k, SimpleValue(n, act, in));
      case Op::Empty:
        return Status(WM_STATUS_OK);
      case Op::Pipe:
        if (act.tail_nodes.count(n) != 0) {
          return TakeThen(kid(0), act, in, path, [&](llvm::Value* v) { return Gen(kid(1), act, v, k, path); });
        }
        return ForEach(kid(0), act, in, {k.env}, [&](llvm::Value* v, const Values& c) {
          return Gen(kid(1), act, v, Cont{k.fn, c[0]}, path);
        }, true, path);
      case Op::Comma: {
        llvm::Value* first = Gen(kid(0), act, in, k, path);
        return IfOk(first, [&] { return Gen(kid(1), act, in, k, path); });
      }
      case Op::Index:
        // jq evaluates the key outside the target: for each key, for each target.
        return Cartesian({kid(0), kid(1)}, {1, 0}, act, in, {k.env},
                         [&](const Values& v, const Values& c) {
                           llvm::Value* scratch = OwnedSlot();
                           llvm::Value* result =
                               CallAbi(WM_ABI_INDEX, {ctx_, v[0], v[1], scratch});
                           llvm::Value* failed = builder_.CreateIsNull(result);
                           return IfElse(
                               failed, [&] { return Status(WM_STATUS_ERROR); },
                               [&] {
                                 llvm::Value* s = CallCont(Cont{k.fn, c[0]}, result);
                                 Release(scratch);
                                 return s;
                               });
                         });
      case Op::Slice:
        return Cartesian({kid(0), kid(1), kid(2)}, {1, 2, 0}, act, in, {k.env},
                         [&](const Values& v, const Values& c) {
                           llvm::Value* out = OwnedSlot();
                           llvm::Value* s = CallAbi(WM_ABI_SLICE, {ctx_, v[0], v[1], v[2], out});
                           return WithOwned(s, out, Cont{k.fn, c[0]});
                         });
      case Op::Iterate:
        return ForEach(kid(0), act, in, {k.env}, [&](llvm::Value* v, const Values& c) {
          return IterateOver(v, Cont{k.fn, c[0]});
        });
      case Op::RecurseAll:
        return CallAbi(WM_ABI_RECURSE_ALL, {ctx_, frame_, in, k.fn, k.env});
      case Op::Neg:
        return ForEach(kid(0), act, in, {k.env}, [&](llvm::Value* v, const Values& c) {
          return Negate(v, Cont{k.fn, c[0]});
        });
      case Op::Binary:
        // jq: for each output of the right operand (outer), each output of the left.
        return Cartesian({kid(0), kid(1)}, {1, 0}, act, in, {k.env},
                         [&](const Values& v, const Values& c) {
                           return BinaryOp(static_cast<ir::BinaryOp>(node.a), v[0], v[1],
                                           Cont{k.fn, c[0]});
                         });
      case Op::And:
      case Op::Or:
        return Logical(node.op == Op::And, kid(0), kid(1), act, in, k);
      case Op::Alternative:
        return Alternative(kid(0), kid(1), act, in, k, path);
      case Op::If:
        if (act.tail_nodes.count(n) != 0) {
          return TakeThen(kid(0), act, in, false, [&](llvm::Value* cond) {
            return IfElse(
                Truthy(cond), [&] { return Gen(kid(1), act, in, k, path); },
                [&] { return kid(2) == ir::kNoNode ? CallCont(k, in) : Gen(kid(2), act, in, k, path); });
          });
        }
        // The condition reads the input's value (a pair starts with it in path mode).
        return ForEach(kid(0), act, in, {k.env, in}, [&](llvm::Value* cond, const Values& c) {
          Cont inner{k.fn, c[0]};
          NodeId otherwise = kid(2);
          return IfElse(
              Truthy(cond), [&] { return Gen(kid(1), act, c[1], inner, path); },
              [&] {
                return otherwise == ir::kNoNode ? CallCont(inner, c[1])
                                                : Gen(otherwise, act, c[1], inner, path);
              });
        });
      case Op::Try:
        return Try(kid(0), kid(1), act, in, k, path);
      case Op::Collect: {
        llvm::Value* array = OwnedSlot();
        CallAbi(WM_ABI_ARRAY_NEW, {array});
        llvm::Value* s = ForEach(kid(0), act, in, {array}, [&](llvm::Value* v, const Values& c) {
          return CallAbi(WM_ABI_ARRAY_PUSH, {ctx_, c[0], v});
        });
        llvm::Value* result = IfOk(s, [&] { return CallCont(k, array); });
        Release(array);
        return result;
      }
      case Op::Object: {
        if (node.kids.size() % 2 != 0) {
          Fail("object node with an odd number of kids");
          return Status(WM_STATUS_ERROR);
        }
        std::vector<size_t> order(node.kids.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;  // first key outermost
        // As jq and the interpreter do, each key is checked when its pair is inserted, i.e. once
        // per value of the pair and before the next pair's key is evaluated: a bad key errors
        // even when a later pair yields nothing, and never when its own value yields nothing.
        LevelCheck check_key_on_insert = [&](size_t depth, const Values& got) -> llvm::Value* {
          if (depth % 2 == 0) return Status(WM_STATUS_OK);  // a key: its value comes next
          return CallAbi(WM_ABI_CHECK_OBJECT_KEY, {ctx_, got[depth - 1]});
        };
        return Cartesian(node.kids, order, act, in, {k.env},
                         [&](const Values& v, const Values& c) {
                           llvm::Value* out = OwnedSlot();
                           llvm::Value* kv = PointerArray(v);
                           llvm::Value* s = CallAbi(
                               WM_ABI_MAKE_OBJECT,
                               {ctx_, kv, I32(static_cast<uint32_t>(v.size() / 2)), out});
                           return WithOwned(s, out, Cont{k.fn, c[0]});
                         },
                         /*literal_strings_are_free=*/false, check_key_on_insert);
      }
      case Op::Format: {
        llvm::Value* out = OwnedSlot();
        llvm::Value* s = CallAbi(WM_ABI_FORMAT, {ctx_, I32(n), in, out});
        return WithOwned(s, out, k);
      }
      case Op::StringInterp: {
        // Later parts vary slowest (jq builds the string with `+`, right operand outer).
        std::vector<size_t> order(node.kids.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
        // jq formats each value as it is produced: with a format that can fail (`@csv` of a
        // non-array), a part's error is raised even when an earlier part later yields nothing.
        // Plain interpolation (`@text`) never fails, so it needs no per-part check.
        LevelCheck format_on_arrival = [&](size_t depth, const Values& got) -> llvm::Value* {
          if (node.str.empty() || node.str == "text" || IsLiteralString(node.kids[order[depth]])) {
            return Status(WM_STATUS_OK);
          }
          llvm::Value* formatted = OwnedSlot();
          llvm::Value* s = CallAbi(WM_ABI_FORMAT, {ctx_, I32(n), got[depth], formatted});
          Release(formatted);
          return s;
        };
        return Cartesian(node.kids, order, act, in, {k.env},
                         [&](const Values& v, const Values& c) {
                           llvm::Value* out = OwnedSlot();
                           llvm::Value* s = CallAbi(WM_ABI_STRING_INTERP,
                                                    {ctx_, I32(n), PointerArray(v), out});
                           return WithOwned(s, out, Cont{k.fn, c[0]});
                         },
                         /*literal_strings_are_free=*/true, format_on_arrival);
      }
      case Op::CallBuiltin: {
        if (IsRange(node)) {
          // range(from; upto[; by]): from outermost, as jq binds $from, $upto, $by in order.
          std::vector<size_t> in_order(node.kids.size());
          for (size_t i = 0; i < in_order.size(); ++i) in_order[i] = i;
          return Cartesian(node.kids, in_order, act, in, {k.env},
                           [&](const Values& v, const Values& c) {
                             return RangeLoop(v, Cont{k.fn, c[0]});
                           });
        }
        // The last argument varies slowest, as in jq's cfunction calls.
        std::vector<size_t> order(node.kids.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
        return Cartesian(node.kids, order, act, in, {k.env, in},
                         [&](const Values& v, const Values& c) {
                           llvm::Value* out = OwnedSlot();
                           llvm::Value* args = v.empty() ? llvm::ConstantPointerNull::get(ptr_)
                                                         : PointerArray(v);
                           llvm::Value* s = CallAbi(
                               WM_ABI_CALL_BUILTIN,
                               {ctx_, I32(node.a), c[1], args,
                                I32(static_cast<uint32_t>(v.size())), out});
                           return WithOwned(s, out, Cont{k.fn, c[0]});
                         });
      }
      case Op::Error:
        if (kid(0) == ir::kNoNode) return CallAbi(WM_ABI_RAISE_ERROR, {ctx_, in});
        return ForEach(kid(0), act, in, {}, [&](llvm::Value* v, const Values&) {
          return CallAbi(WM_ABI_RAISE_ERROR, {ctx_, v});
        });
      case Op::Bind:
        if (act.tail_nodes.count(n) != 0) {  // one plain `$x` pattern (ReachesTailCall)
          return TakeThen(kid(0), act, in, false, [&](llvm::Value* v) {
            return BindPattern(node.patterns[0], act, v, in, {k.env, in}, [&](const Values& c) {
              return Gen(kid(1), act, c[1], Cont{k.fn, c[0]}, path);
            });
          });
        }
        return Bind(node, act, in, k, path);
      case Op::Reduce:
        return Reduce(node, act, in, k);
      case Op::Foreach:
        return Foreach(node, act, in, k, path);
      case Op::Label: {
        uint32_t id = next_label_id_++;
        uint32_t slot = node.a;  // a plain slot of the current frame
        auto previous = act.labels.find(slot);
        bool had_previous = previous != act.labels.end();
        uint32_t previous_id = had_previous ? previous->second : 0;
        act.labels[slot] = id;
        llvm::Value* s = Gen(kid(0), act, in, k, path);
        if (had_previous) {
          act.labels[slot] = previous_id;
        } else {
          act.labels.erase(slot);
        }
        llvm::Value* mine = builder_.CreateICmpEQ(s, Status(WM_STATUS_BREAK_BASE + id));
        return builder_.CreateSelect(mine, Status(WM_STATUS_OK), s);
      }
      case Op::Break: {
        Activation* scope = Up(act, node.a);
        if (scope == nullptr) return Status(WM_STATUS_ERROR);
        auto found = scope->labels.find(ir::ScopeIndex(node.a));
        if (found == scope->labels.end()) {
          Fail("break outside of its label");
          return Status(WM_STATUS_ERROR);
        }
        return Status(static_cast<int32_t>(WM_STATUS_BREAK_BASE + found->second));
      }
      case Op::Call:
        return Call(n, node, act, in, k, path);
      case Op::CallParam: {
        Activation* scope = Up(act, node.a);
        uint32_t index = ir::ScopeIndex(node.a);
        if (scope != nullptr && scope->closures_in_record) return CallRecordClosure(*scope, index, in, k, path);
        if (scope == nullptr || scope->closure_args == nullptr ||
            index >= scope->closure_args->size() || scope->caller == nullptr) {
          Fail("closure parameter out of range");
          return Status(WM_STATUS_ERROR);
        }
        Activation* env = scope->caller;
        NodeId body = (*scope->closure_args)[index];
        return Gen(body, *env, in, k, path);  // closure invocations do not count as call depth
      }
      case Op::PathOf:
        return PathOf(kid(0), act, in, k);
      case Op::GetPathGen:
        return GetPath(kid(0), act, in, /*path=*/false, k);
    }
    Fail(std::string("unsupported operation ") + ir::OpName(node.op));
    return Status(WM_STATUS_ERROR);
  }

  // The generator builtins (ir::IsGeneratorBuiltin) compile to native loops; the verifier has
  // checked that each has its arity's children.
  bool IsRange(const ir::Node& node) const {
    return node.a == static_cast<uint32_t>(ir::BuiltinId::Range) ||
           node.a == static_cast<uint32_t>(ir::BuiltinId::Range3);
  }

  // The numbers from, from+by, ... while below upto (above it for a negative step; none for 0).
  llvm::Value* RangeLoop(const Values& bounds, Cont k) {
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

  // Passes an owned result to k if the producing call succeeded, then releases it.
  llvm::Value* WithOwned(llvm::Value* status, llvm::Value* out, Cont k) {
    llvm::Value* s = IfOk(status, [&] { return CallCont(k, out); });
    Release(out);
    return s;
  }

  // An array of value pointers in the current function (for shims taking `const WmValue* const*`).
  llvm::Value* PointerArray(const Values& values) {
    llvm::AllocaInst* array =
        Alloca(llvm::ArrayType::get(ptr_, values.empty() ? 1 : values.size()), "ptrs");
    for (size_t i = 0; i < values.size(); ++i) {
      builder_.CreateStore(values[i], BytePtr(array, 8 * i));
    }
    return array;
  }

  // The loop over t's elements (arrays and objects).
  llvm::Value* IterateOver(llvm::Value* target, Cont k) {
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

  llvm::Value* Negate(llvm::Value* v, Cont k) {
    llvm::Value* is_number = builder_.CreateICmpEQ(Kind(v), llvm::ConstantInt::get(i8_, WM_KIND_NUMBER));
    return IfElse(
        is_number, [&] { return CallCont(k, NumberValue(builder_.CreateFNeg(NumberOf(v)))); },
        [&] {
          llvm::Value* out = OwnedSlot();
          return WithOwned(CallAbi(WM_ABI_NEGATE, {ctx_, v, out}), out, k);
        });
  }

  // Arithmetic and comparisons; numbers take an inline fast path, everything else the shim.
  llvm::Value* BinaryOp(ir::BinaryOp op, llvm::Value* lhs, llvm::Value* rhs, Cont k) {
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

  // `a and b` / `a or b`: for each a (outer); short-circuits per a.
  llvm::Value* Logical(bool is_and, NodeId a, NodeId b, Activation& act, llvm::Value* in, Cont k) {
    return ForEach(a, act, in, {k.env, in}, [&](llvm::Value* av, const Values& c) {
      Cont inner{k.fn, c[0]};
      llvm::Value* decided = is_and ? builder_.CreateNot(Truthy(av)) : Truthy(av);
      return IfElse(
          decided,
          [&] { return CallCont(inner, BoolValue(llvm::ConstantInt::getBool(i1_, !is_and))); },
          [&] {
            return ForEach(b, act, c[1], {c[0]}, [&](llvm::Value* bv, const Values& c2) {
              return CallCont(Cont{k.fn, c2[0]}, BoolValue(Truthy(bv)));
            });
          });
    });
  }

  // Marks errors returned by the downstream continuation, so try and `//` do not swallow them.
  llvm::Value* CallFlaggingDownstreamErrors(Cont k, llvm::Value* v, llvm::Value* flag) {
    llvm::Value* s = CallCont(k, v);
    llvm::Value* is_error = builder_.CreateICmpEQ(s, Status(WM_STATUS_ERROR));
    llvm::Value* old = builder_.CreateLoad(i8_, flag);
    builder_.CreateStore(builder_.CreateSelect(is_error, llvm::ConstantInt::get(i8_, 1), old), flag);
    return s;
  }

  // After `s = run A`: true when A itself raised a catchable error (moved into *error_value).
  llvm::Value* CaughtOwnError(llvm::Value* s, llvm::Value* downstream_flag, llvm::Value* error_value) {
    StoreNull(error_value);
    llvm::Value* own = builder_.CreateAnd(
        builder_.CreateICmpEQ(s, Status(WM_STATUS_ERROR)),
        builder_.CreateICmpEQ(builder_.CreateLoad(i8_, downstream_flag), llvm::ConstantInt::get(i8_, 0)));
    llvm::AllocaInst* caught = Alloca(i1_, "caught");
    builder_.CreateStore(llvm::ConstantInt::getFalse(context_), caught);
    llvm::BasicBlock* try_catch = NewBlock("catch");
    llvm::BasicBlock* done = NewBlock("caught");
    builder_.CreateCondBr(own, try_catch, done);
    builder_.SetInsertPoint(try_catch);
    llvm::Value* got = CallAbi(WM_ABI_CATCH_ERROR, {ctx_, error_value});
    builder_.CreateStore(builder_.CreateICmpNE(got, I32(0)), caught);
    builder_.CreateBr(done);
    builder_.SetInsertPoint(done);
    return builder_.CreateLoad(i1_, caught);
  }

  // A // B: the truthy outputs of A; if there are none, the outputs of B. Errors of A propagate
  // (as in jq 1.6 and the interpreter).
  llvm::Value* Alternative(NodeId a, NodeId b, Activation& act, llvm::Value* in, Cont k, bool path) {
    llvm::Value* found = Alloca(i8_, "found");
    builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), found);
    llvm::Value* s = ForEach(a, act, in, {k.env, found}, [&](llvm::Value* v, const Values& c) {
      return IfElse(
          Truthy(v),
          [&] {
            builder_.CreateStore(llvm::ConstantInt::get(i8_, 1), c[1]);
            return CallCont(Cont{k.fn, c[0]}, v);
          },
          [&] { return Status(WM_STATUS_OK); });
    }, true, path);
    return IfOk(s, [&] {
      llvm::Value* none =
          builder_.CreateICmpEQ(builder_.CreateLoad(i8_, found), llvm::ConstantInt::get(i8_, 0));
      return IfElse(none, [&] { return Gen(b, act, in, k, path); }, [&] { return Status(WM_STATUS_OK); });
    });
  }

  // try BODY catch HANDLER (HANDLER kNoNode: suppress). Errors of the continuation and limit
  // errors are not caught; the body stops at its first error.
  llvm::Value* Try(NodeId body, NodeId handler, Activation& act, llvm::Value* in, Cont k, bool path) {
    llvm::Value* downstream = Alloca(i8_, "downstream_error");
    builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), downstream);
    llvm::Value* s = ForEach(body, act, in, {k.env, downstream}, [&](llvm::Value* v, const Values& c) {
      return CallFlaggingDownstreamErrors(Cont{k.fn, c[0]}, v, c[1]);
    }, true, path);
    llvm::Value* error_value = OwnedSlot();
    llvm::Value* caught = CaughtOwnError(s, downstream, error_value);
    llvm::Value* result = IfElse(
        caught,
        [&] {
          if (handler == ir::kNoNode) return Status(WM_STATUS_OK);
          // In path mode the caught error is not at a path.
          return Gen(handler, act, path ? PairOf(error_value, NullValue()) : error_value, k, path);
        },
        [&] { return s; });
    Release(error_value);
    return result;
  }

  // Runs body() with `v` bound (bitwise, borrowed) in `slot`; restores the old slot bits after.
  llvm::Value* WithBinding(llvm::Value* slot_ptr, llvm::Value* v, const std::function<llvm::Value*()>& body) {
    llvm::Value* saved = Alloca(value_, "saved_slot");
    CopyBits(saved, slot_ptr);
    CopyBits(slot_ptr, v);
    llvm::Value* s = body();
    CopyBits(slot_ptr, saved);
    return s;
  }

  using Then = std::function<llvm::Value*(const Values& captured)>;

  // v[key] for destructuring; the result lives while `scratch` does (error status if it fails).
  llvm::Value* IndexThen(llvm::Value* v, llvm::Value* key,
                         const std::function<llvm::Value*(llvm::Value* element)>& then) {
    llvm::Value* scratch = OwnedSlot();
    llvm::Value* element = CallAbi(WM_ABI_INDEX, {ctx_, v, key, scratch});
    return IfElse(
        builder_.CreateIsNull(element), [&] { return Status(WM_STATUS_ERROR); },
        [&] {
          llvm::Value* s = then(element);
          Release(scratch);
          return s;
        });
  }

  // Destructures v with pattern `index` (jq's `as $x`, `as [$a, $b]`, `as {key: $v, $w}`), then
  // runs then(). Object-pattern keys are filters on `input` (the input of the binding node, as
  // ir.h specifies) and may generate several bindings. Like ForEach, whatever then() needs must
  // travel in `captures`. One step of fuel per (sub)pattern, as the interpreter's Destructure.
  llvm::Value* BindPattern(uint32_t index, Activation& act, llvm::Value* v, llvm::Value* input,
                           const Values& captures, const Then& then, int depth = 0) {
    if (index >= program_.patterns.size() || depth > 64) {
      Fail("pattern index out of range or nested too deeply");
      return Status(WM_STATUS_ERROR);
    }
    const ir::Pattern& p = program_.patterns[index];
    return IfOk(Tick(), [&]() -> llvm::Value* {
      switch (p.kind) {
        case ir::Pattern::Kind::Var:
          return WithBinding(SlotPtr(act, p.slot), v, [&] { return then(captures); });
        case ir::Pattern::Kind::Array:
          return BindArray(p, 0, act, v, input, captures, then, depth);
        case ir::Pattern::Kind::Object:
          return BindObject(p, 0, act, v, input, captures, then, depth);
      }
      return Status(WM_STATUS_ERROR);
    });
  }

  // Splits captures built as {outer..., v, input} back into their parts.
  struct Unpacked {
    Values outer;
    llvm::Value* v;
    llvm::Value* input;
  };
  static Unpacked Unpack(const Values& c) {
    return Unpacked{Values(c.begin(), c.end() - 2), c[c.size() - 2], c.back()};
  }
  static Values Pack(const Values& outer, llvm::Value* v, llvm::Value* input) {
    Values packed = outer;
    packed.push_back(v);
    packed.push_back(input);
    return packed;
  }

  llvm::Value* BindArray(const ir::Pattern& p, size_t i, Activation& act, llvm::Value* v,
                         llvm::Value* input, const Values& captures, const Then& then, int depth) {
    if (i == p.elements.size()) return then(captures);
    llvm::Value* position = NumberValue(llvm::ConstantFP::get(f64_, static_cast<double>(i)));
    return IndexThen(v, position, [&](llvm::Value* element) {
      return BindPattern(p.elements[i], act, element, input, Pack(captures, v, input),
                         [&](const Values& c) {
                           Unpacked u = Unpack(c);
                           return BindArray(p, i + 1, act, u.v, u.input, u.outer, then, depth);
                         },
                         depth + 1);
    });
  }

  llvm::Value* BindObject(const ir::Pattern& p, size_t j, Activation& act, llvm::Value* v,
                          llvm::Value* input, const Values& captures, const Then& then, int depth) {
    if (j == p.entries.size()) return then(captures);
    const ir::Pattern::Entry& entry = p.entries[j];
    return ForEach(entry.key, act, input, Pack(captures, v, input), [&](llvm::Value* key, const Values& c) {
      Unpacked u = Unpack(c);
      llvm::Value* key_ok = CallAbi(WM_ABI_CHECK_PATTERN_KEY, {ctx_, u.v, key});
      return IfOk(key_ok, [&] {
        return IndexThen(u.v, key, [&](llvm::Value* member) {
          auto rest = [&]() -> llvm::Value* {
            if (entry.value_pattern < 0) {
              return BindObject(p, j + 1, act, u.v, u.input, u.outer, then, depth);
            }
            return BindPattern(static_cast<uint32_t>(entry.value_pattern), act, member, u.input,
                               Pack(u.outer, u.v, u.input),
                               [&](const Values& c2) {
                                 Unpacked w = Unpack(c2);
                                 return BindObject(p, j + 1, act, w.v, w.input, w.outer, then, depth);
                               },
                               depth + 1);
          };
          if (entry.bind_slot < 0) return rest();
          return WithBinding(SlotPtr(act, static_cast<uint32_t>(entry.bind_slot)), member, rest);
        });
      });
    });
  }

  // The variable slots a pattern binds (for ?// alternatives, which reset all of them to null).
  void CollectPatternSlots(uint32_t index, std::vector<uint32_t>* slots, int depth = 0) {
    if (index >= program_.patterns.size() || depth > 64) return;
    const ir::Pattern& p = program_.patterns[index];
    if (p.kind == ir::Pattern::Kind::Var) slots->push_back(p.slot);
    for (uint32_t e : p.elements) CollectPatternSlots(e, slots, depth + 1);
    for (const ir::Pattern::Entry& e : p.entries) {
      if (e.bind_slot >= 0) slots->push_back(static_cast<uint32_t>(e.bind_slot));
      if (e.value_pattern >= 0) CollectPatternSlots(static_cast<uint32_t>(e.value_pattern), slots, depth + 1);
    }
  }

  // Destructures v with the first of `patterns` that works (jq's `?//`) and runs then() for it.
  // With alternatives, every variable of every pattern starts null, and an error raised while
  // destructuring or in then() (not downstream, not a limit) moves on to the next pattern; the
  // last pattern's errors propagate (as the interpreter's DestructureAlternatives). then() gets
  // the reloaded captures and a flag it must set (FlagErrors) for errors coming from downstream
  // of its outputs; the flag is null when there is a single pattern (nothing to retry).
  using ThenFlagged = std::function<llvm::Value*(const Values& captured, llvm::Value* downstream)>;
  llvm::Value* BindAlternatives(const std::vector<uint32_t>& patterns, Activation& act, llvm::Value* v,
                                llvm::Value* input, const Values& captures, const ThenFlagged& then) {
    if (patterns.empty()) {
      Fail("binding without patterns");
      return Status(WM_STATUS_ERROR);
    }
    if (patterns.size() == 1) {
      return BindPattern(patterns[0], act, v, input, captures,
                         [&](const Values& c) { return then(c, nullptr); });
    }
    std::vector<uint32_t> slots;
    for (uint32_t p : patterns) CollectPatternSlots(p, &slots);
    llvm::Value* downstream = Alloca(i8_, "downstream");
    std::function<llvm::Value*(size_t)> attempt = [&](size_t alt) -> llvm::Value* {
      for (uint32_t slot : slots) StoreNull(SlotPtr(act, slot));
      builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), downstream);
      Values caps = captures;
      caps.push_back(downstream);
      llvm::Value* s = BindPattern(patterns[alt], act, v, input, caps, [&](const Values& c2) {
        return then(Values(c2.begin(), c2.end() - 1), c2.back());
      });
      if (alt + 1 == patterns.size()) return s;
      llvm::Value* error_value = OwnedSlot();
      llvm::Value* caught = CaughtOwnError(s, downstream, error_value);
      Release(error_value);
      return IfElse(caught, [&] { return attempt(alt + 1); }, [&] { return s; });
    };
    return attempt(0);
  }

  // Marks an error status that came from downstream (flag may be null: nothing to mark).
  llvm::Value* FlagErrors(llvm::Value* status, llvm::Value* flag) {
    if (flag == nullptr) return status;
    llvm::Value* is_error = builder_.CreateICmpEQ(status, Status(WM_STATUS_ERROR));
    llvm::Value* old = builder_.CreateLoad(i8_, flag);
    builder_.CreateStore(builder_.CreateSelect(is_error, llvm::ConstantInt::get(i8_, 1), old), flag);
    return status;
  }

  // SRC as P1 ?// P2 ... | BODY: for each SRC output, destructure and run BODY (see
  // BindAlternatives for what an alternative's failure means).
  // The source is evaluated in value mode (in path mode it reads the pair's value), the body in
  // the mode of the node, as the interpreter does.
  llvm::Value* Bind(const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path) {
    NodeId body = node.kids.size() > 1 ? node.kids[1] : ir::kNoNode;
    return ForEach(node.kids[0], act, in, {k.env, in}, [&](llvm::Value* v, const Values& c) {
      return BindAlternatives(node.patterns, act, v, c[1], c, [&](const Values& c2, llvm::Value* flag) {
        if (flag == nullptr) return Gen(body, act, c2[1], Cont{k.fn, c2[0]}, path);
        return ForEach(body, act, c2[1], {c2[0], flag}, [&](llvm::Value* out, const Values& c3) {
          return CallFlaggingDownstreamErrors(Cont{k.fn, c3[0]}, out, c3[1]);
        }, true, path);
      });
    });
  }

  // reduce SRC as $x (INIT; UPDATE): for each INIT (outer), fold; an UPDATE with no output makes
  // the state null (as jq), several outputs keep the last.
  llvm::Value* Reduce(const ir::Node& node, Activation& act, llvm::Value* in, Cont k) {
    if (node.kids.size() < 3) {
      Fail("malformed reduce");
      return Status(WM_STATUS_ERROR);
    }
    NodeId source = node.kids[0], init = node.kids[1], update = node.kids[2];
    return ForEach(init, act, in, {k.env, in}, [&](llvm::Value* init_value, const Values& c) {
      llvm::Value* acc = OwnedSlot();
      CallAbi(WM_ABI_COPY, {acc, init_value});
      llvm::Value* s = ForEach(source, act, c[1], {acc, c[1]}, [&](llvm::Value* x, const Values& c2) {
        return BindAlternatives(node.patterns, act, x, c2[1], c2, [&](const Values& c3, llvm::Value*) {
          llvm::Value* acc_in = c3[0];
          llvm::Value* next = OwnedSlot();
          StoreNull(next);
          llvm::Value* su = ForEach(update, act, acc_in, {next}, [&](llvm::Value* u, const Values& c4) {
            Release(c4[0]);
            CallAbi(WM_ABI_COPY, {c4[0], u});
            return Status(WM_STATUS_OK);
          });
          // The new state replaces the old only after UPDATE finished reading it (on error the
          // state is dropped with the run, so replacing it anyway is harmless).
          Release(acc_in);
          CopyBits(acc_in, next);
          return su;
        });
      });
      llvm::Value* result = IfOk(s, [&] { return CallCont(Cont{k.fn, c[0]}, acc); });
      Release(acc);
      return result;
    });
  }

  // foreach SRC as $x (INIT; UPDATE; EXTRACT): every UPDATE output becomes the state at once and
  // is extracted; UPDATE keeps reading the state it started from; no output keeps the state.
  // In path mode the items come with their paths (SRC runs in path mode) and `$x` keeps its
  // item's path; the state is not at a path. Only a plain `$x` pattern is tracked there.
  llvm::Value* Foreach(const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path) {
    if (node.kids.size() < 3) {
      Fail("malformed foreach");
      return Status(WM_STATUS_ERROR);
    }
    if (path && (node.patterns.size() != 1 || node.patterns[0] >= program_.patterns.size() ||
                 program_.patterns[node.patterns[0]].kind != ir::Pattern::Kind::Var)) {
      Fail("foreach with a destructuring pattern inside a path expression");
      return Status(WM_STATUS_ERROR);
    }
    NodeId source = node.kids[0], init = node.kids[1], update = node.kids[2];
    NodeId extract = node.kids.size() > 3 ? node.kids[3] : ir::kNoNode;
    return ForEach(init, act, in, {k.env, in}, [&](llvm::Value* init_value, const Values& c) {
      llvm::Value* state = OwnedSlot();
      CallAbi(WM_ABI_COPY, {state, init_value});
      llvm::Value* s = ForEach(source, act, c[1], {c[0], state, c[1]}, [&](llvm::Value* x, const Values& c2) {
        auto step = [&](const Values& c3, llvm::Value* flag) {
          llvm::Value* state_in = c3[1];
          llvm::Value* old = OwnedSlot();
          CallAbi(WM_ABI_COPY, {old, state_in});
          Values update_caps = {c3[0], state_in};
          if (flag != nullptr) update_caps.push_back(flag);
          llvm::Value* su =
              ForEach(update, act, old, update_caps, [&](llvm::Value* u, const Values& c4) {
                // u may point into `old`, never into the state slot being replaced.
                Release(c4[1]);
                CallAbi(WM_ABI_COPY, {c4[1], u});
                Cont out{k.fn, c4[0]};
                llvm::Value* next = path ? PairOf(c4[1], NullValue()) : c4[1];
                // Errors of EXTRACT and downstream are not the pattern's: no next alternative.
                return FlagErrors(extract == ir::kNoNode ? CallCont(out, next)
                                                         : Gen(extract, act, next, out, path),
                                  flag == nullptr ? nullptr : c4[2]);
              });
          Release(old);
          return su;
        };
        if (!path) return BindAlternatives(node.patterns, act, x, c2[2], c2, step);
        uint32_t slot = program_.patterns[node.patterns[0]].slot;
        return IfOk(Tick(), [&] {
          return WithBinding(SlotPtr(act, slot), x, [&] {
            return WithBinding(PathSlotPtr(act, slot), BytePtr(x, 16), [&] { return step(c2, nullptr); });
          });
        });
      }, true, path);
      Release(state);
      return s;
    });
  }

  // ---- path mode (path(f) and getpath; the interpreter's Eval with a path)

  // Frame slots of one activation: in programs with path expressions every variable slot has a
  // path slot after them (null unless a path-mode foreach bound it).
  uint32_t SlotsOf(const ir::Function& fn) const { return has_paths_ ? 2 * fn.num_slots : fn.num_slots; }

  llvm::Value* PathSlotPtr(const Activation& act, uint32_t slot) {
    const ir::Function& fn = program_.functions[act.function];
    if (!has_paths_ || slot >= fn.num_slots) {
      Fail("path slot out of range in " + fn.name);
      return NullValue();
    }
    return BytePtr(FramePtr(act.home), 16ull * (act.slot_base + fn.num_slots + slot));
  }

  // Nulls every slot (path slots are read before any binding sets them).
  void ZeroFrame(llvm::Value* frame, uint32_t slots) {
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

  // A pair {value, path} of borrowed bits, as path-mode code passes them.
  llvm::Value* PairOf(llvm::Value* value, llvm::Value* path) {
    llvm::Value* pair = PairSlot();
    CopyBits(pair, value);
    CopyBits(BytePtr(pair, 16), path);
    return pair;
  }
  llvm::Value* PairSlot() { return Alloca(llvm::ArrayType::get(value_, 2), "pair"); }

  // Passes an owned pair to k if the producing call succeeded, then releases both halves.
  llvm::Value* WithOwnedPair(llvm::Value* status, llvm::Value* pair, Cont k) {
    llvm::Value* s = IfOk(status, [&] { return CallCont(k, pair); });
    Release(pair);
    Release(BytePtr(pair, 16));
    return s;
  }

  // Path mode: the nodes that track paths; every other node computes its value as in value mode
  // and yields it with a null path (the interpreter's EmitValue).
  llvm::Value* GenPathNode(NodeId n, Activation& act, llvm::Value* in, Cont k) {
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

  // path(f) in value mode: f runs in path mode from an empty path; each output must be at a
  // path, which is what path(f) yields.
  llvm::Value* PathOf(NodeId body, Activation& act, llvm::Value* in, Cont k) {
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

  // getpath(P): for each P (value mode), the value there; in path mode also the input's path
  // extended by P (a pair is passed on, whose value comes first, so value mode reads it too).
  llvm::Value* GetPath(NodeId p, Activation& act, llvm::Value* in, bool path, Cont k) {
    return ForEach(p, act, in, {k.env, in}, [&](llvm::Value* keys, const Values& c) {
      llvm::Value* out = PairSlot();
      llvm::Value* in_path = path ? BytePtr(c[1], 16) : llvm::ConstantPointerNull::get(ptr_);
      llvm::Value* s = CallAbi(WM_ABI_PATH_GETPATH, {ctx_, c[1], in_path, keys, out});
      return WithOwnedPair(s, out, Cont{k.fn, c[0]});
    });
  }

  // The activation of fn's lexical parent seen from a call in `caller` (null for none).
  static Activation* LexicalParentOf(Activation& caller, const ir::Function& fn) {
    if (fn.parent < 0) return nullptr;
    Activation* link = &caller;
    while (link != nullptr && link->function != static_cast<uint32_t>(fn.parent)) link = link->lexical;
    return link;
  }

  // A call of a program function: inlined (a new activation with its own slots in the current
  // frame), or for a function of a recursive cycle, a call of its LLVM function. The depth and
  // fuel limits are checked at run time as the interpreter does per call.
  llvm::Value* Call(NodeId n, const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path) {
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

  // ---- recursive functions (native calls instead of inlining)

  // The continuation a recursive function or a closure gets from its caller, behind a record
  // whose first words are (fn, env, frame): calls fn with the caller's frame and env.
  llvm::Function* ForeignContinuation() {
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

  // Stores k (valid in the current function) as the first words of `record`.
  void StoreCont(llvm::Value* record, Cont k) {
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

  // A call of a function on a call cycle: its LLVM function gets a call record with the
  // continuation, the static link and one (code, env) pair per closure argument.
  llvm::Value* CallRecursive(const ir::Node& node, Activation& act, Activation* lexical, llvm::Value* in,
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

  struct ClosureCode {
    llvm::Value* value_code;
    llvm::Value* path_code;
    llvm::Value* env;
  };

  // The code and env of the closure `body` evaluated in `act`. A parameter passed on unchanged
  // (`def f(g): ... f(g)`) is forwarded, so chains of recursive calls do not nest closures.
  ClosureCode ClosureFor(NodeId body, Activation& act) {
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

  // `i32 (ctx, env frame, input, continuation record)` running `body` in `act`.
  llvm::Function* ClosureFunction(NodeId body, Activation& act, bool path) {
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

  // Invokes closure parameter `index` of a recursive function's activation (not a call: no
  // depth, as in the interpreter).
  llvm::Value* CallRecordClosure(Activation& scope, uint32_t index, llvm::Value* in, Cont k, bool path) {
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

  // The LLVM function of recursive function `index` whose lexical parent is `lexical`:
  // `i32 (ctx, caller_frame, input, record)`. It checks the native stack, allocates its frame
  // (slot 0: the record) and runs the body, whose outputs go to the record's continuation.
  llvm::Function* RecursiveFunction(uint32_t index, Activation* lexical, bool path) {
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

  // The Calls of `body` (evaluated in `act`) that the interpreter's EvalTail reaches in tail
  // position and runs as tail calls: through the right of `,`, the branches of `if` and the
  // right of `|` and `as` when their left side yields at most one value.
  void FindTailCalls(NodeId body, Activation& act) {
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

  // The interpreter's AtMostOne: the static count, closures resolved through the compile-time
  // activations (a recursive function's closures are known only at run time: "no", which makes
  // native code count a call the interpreter would not; only a tight depth limit can tell).
  bool AtMostOne(NodeId id, Activation& act) {
    int budget = 64;
    return AtMostOneWithin(id, act, &budget);
  }
  bool AtMostOneWithin(NodeId id, Activation& act, int* budget) {
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

  // A recursive function's closure parameter is known only at run time: it yields at most one
  // value if every argument any call passes for it does (one passed on unchanged, `f(g)` inside
  // f, adds nothing). The interpreter looks at the actual closure; this static answer agrees
  // unless another call site passes a generator.
  bool ClosureParamAtMostOne(uint32_t function, uint32_t index) {
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

  // On the tail path (Activation::tail_nodes) the interpreter runs the left side of `|`, the
  // condition of `if` and the source of `as` to their single value first and then goes on, so
  // the calls made there are over (their depth released) before the tail call: the same here.
  // `then` gets the value taken (a pair in path mode), valid until it returns.
  llvm::Value* TakeThen(NodeId source, Activation& act, llvm::Value* in, bool path,
                        const std::function<llvm::Value*(llvm::Value* taken)>& then) {
    llvm::Value* taken = PairSlot();
    StoreNull(taken);
    StoreNull(BytePtr(taken, 16));
    llvm::Value* produced = Alloca(i8_, "produced");
    builder_.CreateStore(llvm::ConstantInt::get(i8_, 0), produced);
    llvm::Value* s = ForEach(source, act, in, {taken, produced}, [&](llvm::Value* v, const Values& c) {
      CallAbi(WM_ABI_COPY, {c[0], v});
      if (path) CallAbi(WM_ABI_COPY, {BytePtr(c[0], 16), BytePtr(v, 16)});
      builder_.CreateStore(llvm::ConstantInt::get(i8_, 1), c[1]);
      return Status(WM_STATUS_OK);
    }, true, path);
    llvm::Value* result = IfOk(s, [&] {
      llvm::Value* got = builder_.CreateICmpNE(builder_.CreateLoad(i8_, produced), llvm::ConstantInt::get(i8_, 0));
      return IfElse(got, [&] { return then(taken); }, [&] { return Status(WM_STATUS_OK); });
    });
    Release(taken);
    Release(BytePtr(taken, 16));
    return result;
  }

  // One more level of call depth around body() (Calls only, as the interpreter counts; not for
  // the calls it makes as tail calls: `counted` false).
  llvm::Value* WithDepth(const std::function<llvm::Value*()>& body, bool counted = true) {
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

  llvm::Module& module_;
  llvm::LLVMContext& context_;
  llvm::IRBuilder<> builder_;
  const ir::Program& program_;
  std::string prefix_;
  std::string error_;

  llvm::PointerType* ptr_;
  llvm::Type* i1_;
  llvm::Type* i8_;
  llvm::Type* i32_;
  llvm::Type* i64_;
  llvm::Type* f64_;
  llvm::Type* void_;
  llvm::ArrayType* value_;
  llvm::FunctionType* cont_type_;

  // Current function.
  llvm::Function* fn_ = nullptr;
  llvm::Value* ctx_ = nullptr;
  llvm::Value* frame_ = nullptr;
  llvm::BasicBlock* entry_block_ = nullptr;

  NativeFrame* frame_info_ = nullptr;  // the frame `frame_` points to
  uint64_t activation_ids_ = 0;
  // (function, lexical activation id, path mode) -> LLVM function
  std::map<std::tuple<uint32_t, uint64_t, bool>, llvm::Function*> recursive_fns_;
  bool has_paths_ = false;  // the program has path(f): frames carry path slots
  llvm::Function* foreign_cont_ = nullptr;
  std::unique_ptr<native::TailCallFacts> tail_facts_;
  std::unordered_map<uint64_t, bool> param_at_most_one_;  // (function << 32 | param) -> answer
  uint32_t next_label_id_ = 0;
  size_t generated_nodes_ = 0;
  int gen_depth_ = 0;
};

}  // namespace

std::string EmitUnits(llvm::Module& module, const std::vector<EmitUnit>& units) {
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].program == nullptr) return "unit " + units[i].symbol + " has no program";
    std::string reason = UnsupportedReason(*units[i].program);
    if (!reason.empty()) return units[i].symbol + ": " + reason;
    ProgramEmitter emitter(module, *units[i].program, "u" + std::to_string(i) + ".");
    std::string error = emitter.EmitEntry(units[i].symbol);
    if (!error.empty()) return units[i].symbol + ": " + error;
  }
  std::string verify_errors;
  llvm::raw_string_ostream os(verify_errors);
  if (llvm::verifyModule(module, &os)) return "generated invalid LLVM IR: " + os.str();
  return "";
}

}  // namespace wm::codegen::internal
