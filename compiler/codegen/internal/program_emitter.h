// The emitter of resolver IR -> LLVM IR, shared by the emit*.cpp files: the compile-time
// model (frames, activations, continuations) and the ProgramEmitter class. Internal to
// compiler/codegen; emit.cpp says how the generated code is shaped and which file does what.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>
#include <memory>

#include "compiler/codegen/internal/emit.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "runtime/eval/native_abi.h"

namespace wm::codegen::internal {

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
  std::string EmitEntry(const std::string& symbol);

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
          saved_entry_(e.entry_block_),
          saved_deferred_(e.deferred_steps_) {
      e.deferred_steps_ = 0;
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
      e_.CheckNoDeferredSteps("the end of a function");
      e_.entry_block_ = saved_entry_;
      e_.deferred_steps_ = saved_deferred_;
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
    uint32_t saved_deferred_;
  };

  void SetAttributes(llvm::Function* fn);

  llvm::Function* NewFunction(const char* what);

  bool Fail(std::string message);

  // ---- small IR helpers

  llvm::Value* I32(uint32_t v) { return llvm::ConstantInt::get(i32_, v); }
  llvm::Value* I64(uint64_t v) { return llvm::ConstantInt::get(i64_, v); }
  llvm::Value* Status(int32_t s) { return llvm::ConstantInt::getSigned(i32_, s); }

  // An alloca in the current function's entry block (so it is promoted and not re-executed).
  llvm::AllocaInst* Alloca(llvm::Type* type, const char* name = "");

  llvm::Value* BytePtr(llvm::Value* base, llvm::Value* offset);
  llvm::Value* BytePtr(llvm::Value* base, uint64_t offset);

  // The ABI table pointer, the table's entries and the constants pointer never change while
  // native code runs: invariant loads, which LLVM may share across the calls in between.
  llvm::Value* InvariantLoad(llvm::Value* pointer, const char* name);

  llvm::Value* CallAbi(WmAbiSlot slot, llvm::ArrayRef<llvm::Value*> args);

  // The step or depth limit is exhausted: one shared out-of-line call per module (`limit` is a
  // WM_LIMIT_* constant) instead of an ABI-table call inlined at each of the thousands of places
  // that count a step, all on paths that run at most once per evaluation.
  llvm::Value* LimitExceeded(uint32_t limit);

  llvm::FunctionType* AbiType(WmAbiSlot slot);

  llvm::Value* Kind(llvm::Value* v) { return builder_.CreateLoad(i8_, v, "kind"); }
  llvm::Value* Truthy(llvm::Value* v);
  llvm::Value* NumberOf(llvm::Value* v) { return builder_.CreateLoad(f64_, BytePtr(v, 8)); }

  // A fresh value slot holding a scalar (no heap cell, so no release needed).
  llvm::Value* ScalarValue(llvm::Value* kind_word, llvm::Value* payload_word);
  llvm::Value* NullValue() { return ScalarValue(I64(WM_KIND_NULL), I64(0)); }
  llvm::Value* BoolValue(llvm::Value* b);
  llvm::Value* NumberValue(llvm::Value* d);
  llvm::Value* OwnedSlot();
  // Drops the reference held in an owned slot; scalars need no call.
  void Release(llvm::Value* slot);
  void StoreNull(llvm::Value* slot);
  void CopyBits(llvm::Value* dst, llvm::Value* src);

  llvm::BasicBlock* NewBlock(const char* name);

  llvm::Value* IsOk(llvm::Value* status) { return builder_.CreateICmpEQ(status, Status(WM_STATUS_OK)); }

  // if (cond) then() else otherwise(); both produce a status; returns the merged status.
  llvm::Value* IfElse(llvm::Value* cond, const std::function<llvm::Value*()>& then,
                      const std::function<llvm::Value*()>& otherwise);

  // Runs `then` only when status is ok; otherwise the status propagates.
  llvm::Value* IfOk(llvm::Value* status, const std::function<llvm::Value*()>& then);

  // One step of fuel (the interpreter's Step): error status when exhausted.
  llvm::Value* Tick();

  // Steps are charged lazily along a straight-line run of code that cannot fail or produce
  // anything (evaluating `.a.b.c` is 7 node steps before the first lookup): DeferStep owes one
  // step, the next Tick charges the owed steps with its own in one check, and code about to do
  // something observable (a call, a branch, a return) first settles them with FlushThen. Exactly
  // the interpreter's count, since nothing in between could stop the run or be seen.
  void DeferStep() { ++deferred_steps_; }
  llvm::Value* FlushThen(const std::function<llvm::Value*()>& then);
  // Whether Gen may defer node n's step: its code starts by evaluating a child (a Tick) after at
  // most stores to its own slots.
  bool StartsWithChildStep(NodeId n, const Activation& act, bool path) const;
  // Owed steps must have been charged before `where` (a guard against a path that forgot to;
  // the program then fails to compile instead of undercounting).
  void CheckNoDeferredSteps(const char* where);
  // The cold path of a multi-step charge: charges `steps` one slice at a time (refills through
  // limit_exceeded), as that many single steps would.
  llvm::Value* StepsExhausted(llvm::Value* steps);

  llvm::Value* CallCont(Cont k, llvm::Value* v);

  llvm::Value* ConstPtr(uint32_t index);

  // The activation ir::ScopeLevels(immediate) lexical levels up (Var, Break, CallParam).
  Activation* Up(Activation& act, uint32_t immediate);

  // `slot` is a plain slot of `act` (patterns, labels); scoped immediates go through Up first.
  llvm::Value* SlotPtr(const Activation& act, uint32_t slot);

  // The frame `target` at run time, reached from the current function's frame through the
  // static links of recursive-function frames.
  llvm::Value* FramePtr(NativeFrame* target);

  // Single-output, error-free nodes: their value is available without a continuation.
  llvm::Value* SimpleValue(NodeId n, Activation& act, llvm::Value* in);

  using Body = std::function<llvm::Value*(llvm::Value* v, const Values& captured)>;

  // Generates `body(v)` for every output v of node n. The body may run in a new continuation
  // function: whatever it needs from the current function must be passed in `captures`, and the
  // body must use the (reloaded) `captured` values instead. `body_ticks_first`: the body starts
  // by evaluating a node (a Tick), so the step of a simple n can be deferred into it.
  llvm::Value* ForEach(NodeId n, Activation& act, llvm::Value* in, const Values& captures,
                       const Body& body, bool charge = true, bool path = false,
                       bool body_ticks_first = false);

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
                         bool literal_strings_are_free = false, const LevelCheck& check = nullptr);

  // String interpolation reads literal parts without evaluating them.
  bool IsLiteralString(NodeId n) const;

  // ---- the generator

  // Generates node n: k gets every output. In path mode (`path`, under path(f)) `in` and every
  // output are pairs {value, path} (PairOf), as the interpreter's (value, path) arguments.
  llvm::Value* Gen(NodeId n, Activation& act, llvm::Value* in, Cont k, bool path = false);

  // `path`: in path mode (called by GenPathNode for the nodes path mode does not change).
  llvm::Value* GenNode(NodeId n, Activation& act, llvm::Value* in, Cont k, bool path = false);

  // The generator builtins (ir::IsGeneratorBuiltin) compile to native loops; the verifier has
  // checked that each has its arity's children.
  bool IsRange(const ir::Node& node) const;

  // The numbers from, from+by, ... while below upto (above it for a negative step; none for 0).
  llvm::Value* RangeLoop(const Values& bounds, Cont k);

  // Passes an owned result to k if the producing call succeeded, then releases it.
  llvm::Value* WithOwned(llvm::Value* status, llvm::Value* out, Cont k);

  // An array of value pointers in the current function (for shims taking `const WmValue* const*`).
  llvm::Value* PointerArray(const Values& values);

  // The loop over t's elements (arrays and objects).
  llvm::Value* IterateOver(llvm::Value* target, Cont k);

  llvm::Value* Negate(llvm::Value* v, Cont k);

  // Arithmetic and comparisons; numbers take an inline fast path, everything else the shim.
  llvm::Value* BinaryOp(ir::BinaryOp op, llvm::Value* lhs, llvm::Value* rhs, Cont k);

  // `a and b` / `a or b`: for each a (outer); short-circuits per a.
  llvm::Value* Logical(bool is_and, NodeId a, NodeId b, Activation& act, llvm::Value* in, Cont k);

  // Marks errors returned by the downstream continuation, so try and `//` do not swallow them.
  llvm::Value* CallFlaggingDownstreamErrors(Cont k, llvm::Value* v, llvm::Value* flag);

  // After `s = run A`: true when A itself raised a catchable error (moved into *error_value).
  llvm::Value* CaughtOwnError(llvm::Value* s, llvm::Value* downstream_flag, llvm::Value* error_value);

  // A // B: the truthy outputs of A; if there are none, the outputs of B. Errors of A propagate
  // (as in jq 1.6 and the interpreter).
  llvm::Value* Alternative(NodeId a, NodeId b, Activation& act, llvm::Value* in, Cont k, bool path);

  // try BODY catch HANDLER (HANDLER kNoNode: suppress). Errors of the continuation and limit
  // errors are not caught; the body stops at its first error.
  llvm::Value* Try(NodeId body, NodeId handler, Activation& act, llvm::Value* in, Cont k, bool path);

  // Runs body() with `v` bound (bitwise, borrowed) in `slot`; restores the old slot bits after.
  llvm::Value* WithBinding(llvm::Value* slot_ptr, llvm::Value* v, const std::function<llvm::Value*()>& body);

  using Then = std::function<llvm::Value*(const Values& captured)>;

  // v[key] for destructuring; the result lives while `scratch` does (error status if it fails).
  llvm::Value* IndexThen(llvm::Value* v, llvm::Value* key,
                         const std::function<llvm::Value*(llvm::Value* element)>& then);

  // Destructures v with pattern `index` (jq's `as $x`, `as [$a, $b]`, `as {key: $v, $w}`), then
  // runs then(). Object-pattern keys are filters on `input` (the input of the binding node, as
  // ir.h specifies) and may generate several bindings. Like ForEach, whatever then() needs must
  // travel in `captures`. One step of fuel per (sub)pattern, as the interpreter's Destructure.
  llvm::Value* BindPattern(uint32_t index, Activation& act, llvm::Value* v, llvm::Value* input,
                           const Values& captures, const Then& then, int depth = 0);

  // Splits captures built as {outer..., v, input} back into their parts.
  struct Unpacked {
    Values outer;
    llvm::Value* v;
    llvm::Value* input;
  };
  static Unpacked Unpack(const Values& c);
  static Values Pack(const Values& outer, llvm::Value* v, llvm::Value* input);

  llvm::Value* BindArray(const ir::Pattern& p, size_t i, Activation& act, llvm::Value* v,
                         llvm::Value* input, const Values& captures, const Then& then, int depth);

  llvm::Value* BindObject(const ir::Pattern& p, size_t j, Activation& act, llvm::Value* v,
                          llvm::Value* input, const Values& captures, const Then& then, int depth);

  // The variable slots a pattern binds (for ?// alternatives, which reset all of them to null).
  void CollectPatternSlots(uint32_t index, std::vector<uint32_t>* slots, int depth = 0);

  // Destructures v with the first of `patterns` that works (jq's `?//`) and runs then() for it.
  // With alternatives, every variable of every pattern starts null, and an error raised while
  // destructuring or in then() (not downstream, not a limit) moves on to the next pattern; the
  // last pattern's errors propagate (as the interpreter's DestructureAlternatives). then() gets
  // the reloaded captures and a flag it must set (FlagErrors) for errors coming from downstream
  // of its outputs; the flag is null when there is a single pattern (nothing to retry).
  using ThenFlagged = std::function<llvm::Value*(const Values& captured, llvm::Value* downstream)>;
  llvm::Value* BindAlternatives(const std::vector<uint32_t>& patterns, Activation& act, llvm::Value* v,
                                llvm::Value* input, const Values& captures, const ThenFlagged& then);

  // Marks an error status that came from downstream (flag may be null: nothing to mark).
  llvm::Value* FlagErrors(llvm::Value* status, llvm::Value* flag);

  // SRC as P1 ?// P2 ... | BODY: for each SRC output, destructure and run BODY (see
  // BindAlternatives for what an alternative's failure means).
  // The source is evaluated in value mode (in path mode it reads the pair's value), the body in
  // the mode of the node, as the interpreter does.
  llvm::Value* Bind(const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path);

  // reduce SRC as $x (INIT; UPDATE): for each INIT (outer), fold; an UPDATE with no output makes
  // the state null (as jq), several outputs keep the last.
  llvm::Value* Reduce(const ir::Node& node, Activation& act, llvm::Value* in, Cont k);

  // foreach SRC as $x (INIT; UPDATE; EXTRACT): every UPDATE output becomes the state at once and
  // is extracted; UPDATE keeps reading the state it started from; no output keeps the state.
  // In path mode the items come with their paths (SRC runs in path mode) and `$x` keeps its
  // item's path; the state is not at a path. Only a plain `$x` pattern is tracked there.
  llvm::Value* Foreach(const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path);

  // ---- path mode (path(f) and getpath; the interpreter's Eval with a path)

  // Frame slots of one activation: in programs with path expressions every variable slot has a
  // path slot after them (null unless a path-mode foreach bound it).
  uint32_t SlotsOf(const ir::Function& fn) const { return has_paths_ ? 2 * fn.num_slots : fn.num_slots; }

  llvm::Value* PathSlotPtr(const Activation& act, uint32_t slot);

  // Nulls every slot (path slots are read before any binding sets them).
  void ZeroFrame(llvm::Value* frame, uint32_t slots);

  // A pair {value, path} of borrowed bits, as path-mode code passes them.
  llvm::Value* PairOf(llvm::Value* value, llvm::Value* path);
  llvm::Value* PairSlot() { return Alloca(llvm::ArrayType::get(value_, 2), "pair"); }

  // Passes an owned pair to k if the producing call succeeded, then releases both halves.
  llvm::Value* WithOwnedPair(llvm::Value* status, llvm::Value* pair, Cont k);

  // Path mode: the nodes that track paths; every other node computes its value as in value mode
  // and yields it with a null path (the interpreter's EmitValue).
  llvm::Value* GenPathNode(NodeId n, Activation& act, llvm::Value* in, Cont k);

  // path(f) in value mode: f runs in path mode from an empty path; each output must be at a
  // path, which is what path(f) yields.
  llvm::Value* PathOf(NodeId body, Activation& act, llvm::Value* in, Cont k);

  // getpath(P): for each P (value mode), the value there; in path mode also the input's path
  // extended by P (a pair is passed on, whose value comes first, so value mode reads it too).
  llvm::Value* GetPath(NodeId p, Activation& act, llvm::Value* in, bool path, Cont k);

  // The activation of fn's lexical parent seen from a call in `caller` (null for none).
  static Activation* LexicalParentOf(Activation& caller, const ir::Function& fn);

  // A call of a program function: inlined (a new activation with its own slots in the current
  // frame), or for a function of a recursive cycle, a call of its LLVM function. The depth and
  // fuel limits are checked at run time as the interpreter does per call.
  llvm::Value* Call(NodeId n, const ir::Node& node, Activation& act, llvm::Value* in, Cont k, bool path);

  // ---- recursive functions (native calls instead of inlining)

  // The continuation a recursive function or a closure gets from its caller, behind a record
  // whose first words are (fn, env, frame): calls fn with the caller's frame and env.
  llvm::Function* ForeignContinuation();

  // Stores k (valid in the current function) as the first words of `record`.
  void StoreCont(llvm::Value* record, Cont k);

  // A call of a function on a call cycle: its LLVM function gets a call record with the
  // continuation, the static link and one (code, env) pair per closure argument.
  llvm::Value* CallRecursive(const ir::Node& node, Activation& act, Activation* lexical, llvm::Value* in,
                             Cont k, bool counted, bool path);

  struct ClosureCode {
    llvm::Value* value_code;
    llvm::Value* path_code;
    llvm::Value* env;
  };

  // The code and env of the closure `body` evaluated in `act`. A parameter passed on unchanged
  // (`def f(g): ... f(g)`) is forwarded, so chains of recursive calls do not nest closures.
  ClosureCode ClosureFor(NodeId body, Activation& act);

  // `i32 (ctx, env frame, input, continuation record)` running `body` in `act`.
  llvm::Function* ClosureFunction(NodeId body, Activation& act, bool path);

  // Invokes closure parameter `index` of a recursive function's activation (not a call: no
  // depth, as in the interpreter).
  llvm::Value* CallRecordClosure(Activation& scope, uint32_t index, llvm::Value* in, Cont k, bool path);

  // The LLVM function of recursive function `index` whose lexical parent is `lexical`:
  // `i32 (ctx, caller_frame, input, record)`. It checks the native stack, allocates its frame
  // (slot 0: the record) and runs the body, whose outputs go to the record's continuation.
  llvm::Function* RecursiveFunction(uint32_t index, Activation* lexical, bool path);

  // The Calls of `body` (evaluated in `act`) that the interpreter's EvalTail reaches in tail
  // position and runs as tail calls: through the right of `,`, the branches of `if` and the
  // right of `|` and `as` when their left side yields at most one value.
  void FindTailCalls(NodeId body, Activation& act);

  // The interpreter's AtMostOne: the static count, closures resolved through the compile-time
  // activations (a recursive function's closures are known only at run time: "no", which makes
  // native code count a call the interpreter would not; only a tight depth limit can tell).
  bool AtMostOne(NodeId id, Activation& act);
  bool AtMostOneWithin(NodeId id, Activation& act, int* budget);

  // A recursive function's closure parameter is known only at run time: it yields at most one
  // value if every argument any call passes for it does (one passed on unchanged, `f(g)` inside
  // f, adds nothing). The interpreter looks at the actual closure; this static answer agrees
  // unless another call site passes a generator.
  bool ClosureParamAtMostOne(uint32_t function, uint32_t index);

  // On the tail path (Activation::tail_nodes) the interpreter runs the left side of `|`, the
  // condition of `if` and the source of `as` to their single value first and then goes on, so
  // the calls made there are over (their depth released) before the tail call: the same here.
  // `then` gets the value taken (a pair in path mode), valid until it returns.
  llvm::Value* TakeThen(NodeId source, Activation& act, llvm::Value* in, bool path,
                        const std::function<llvm::Value*(llvm::Value* taken)>& then);

  // One more level of call depth around body() (Calls only, as the interpreter counts; not for
  // the calls it makes as tail calls: `counted` false).
  llvm::Value* WithDepth(const std::function<llvm::Value*()>& body, bool counted = true);

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
  uint32_t deferred_steps_ = 0;  // steps owed at the insertion point (DeferStep)
};

}  // namespace wm::codegen::internal
