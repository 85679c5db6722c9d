// The reference engine: executes resolver IR directly as generators in continuation-passing
// style. Eval(node, frame, input, path, k) calls k once per output and returns a Flow (continue,
// stop, break to a label, error) that every node propagates, so backtracking, `try`, `label`,
// `limit` and early stop are ordinary control flow. Path mode (path != nullptr) tracks, next to
// each value, the path it was reached by, for path(f), assignments and del/paths.
//
// IR conventions (produced by compiler/lower, see lower.h): Var, Break and CallParam immediates
// are ir::ScopedIndex(levels, index), where levels counts lexical parents to walk up from the current
// frame; a function's frame links to the frame of its lexical parent (Function::parent). Value
// parameters are bound explicitly in the callee body, so value_param_slots is not used here.
//
// Tail calls: a call of a recursive function whose continuation is its caller's own (the last
// stage of the caller's body, through `|`, `,`, `if` branches and `as` bodies, with at most one
// value flowing in) returns Flow::kTailCall to the trampoline in EvalCall instead of nesting, so
// jq's loops (until, while, repeat, recurse, tail-recursive definitions) run in constant C++
// stack. internal/tail_calls.h has the static facts this needs; EvalTail and RunTailCalls use them.
#include <pthread.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/fn_ref.h"
#include "runtime/eval/eval.h"
#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/tail_calls.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"
#include "runtime/ir/verify.h"
#include "runtime/value/json.h"

namespace wm {

std::string EvalError::Message() const {
  if (value.IsString()) return std::string(value.AsString());
  return ToJson(value) + " (not a string)";
}

namespace {

using ir::NodeId;
using ir::Op;


// kTailCall: a call in tail position asks the nearest EvalCall to run it in a loop (see
// EvalTail); it never travels past that EvalCall.
enum class Flow : uint8_t { kContinue, kStop, kBreak, kError, kTailCall };

// In path mode every value travels with a path: an array of keys, or null when the value was
// not reached by a path expression (using it as one is then an error).
using Cont = FnRef<Flow(const Value& value, const Value* path)>;

struct Frame;
struct Closure {
  NodeId body;
  Frame* env;
};

struct Slot {
  Value value;
  Value path;  // set only when bound in path mode
};

struct Frame {
  int32_t function;
  Frame* parent;  // frame of the lexical parent function's activation
  std::vector<Slot> slots;
  std::vector<Closure> params;
};

// Bytes of stack kept free below the deepest evaluation frame, for the continuation chain of the
// node in progress and for library calls (oniguruma, strftime, ...).
constexpr size_t kStackReserve = 512 * 1024;

// Lowest address and size of the calling thread's stack. pthread_getattr_np reads
// /proc/self/maps on the main thread (tens of microseconds), so the bounds are looked up once per
// thread and cached; they do not change for the thread's lifetime.
struct ThreadStackBounds {
  char* lowest = nullptr;  // nullptr when the bounds could not be determined
  size_t size = 8u << 20;
};

const ThreadStackBounds& CurrentThreadStackBounds() {
  thread_local const ThreadStackBounds bounds = [] {
    ThreadStackBounds result;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr) {
        result.lowest = static_cast<char*>(addr);
        result.size = size;
      }
      pthread_attr_destroy(&attr);
    }
    return result;
  }();
  return bounds;
}

size_t StackBudgetBytes() {
  const ThreadStackBounds& bounds = CurrentThreadStackBounds();
  size_t size = bounds.size;
  // The usable part is what lies below the current position.
  const char* here = eval_internal::StackPosition();
  if (bounds.lowest != nullptr) {
    size_t below = static_cast<size_t>(here - bounds.lowest);
    if (below < size) size = below;
  }
  return size > 2 * kStackReserve ? size - kStackReserve : size / 2;
}

class Evaluation {
 public:
  Evaluation(const ir::Program& program, const eval_internal::TailCallAnalysis& tail, const RunOptions& options)
      : program_(program), tail_(tail), limits_(options.limits), globals_(options.globals), budget_(limits_),
        meter_(&budget_, &fuel_left_, &memory_used_, limits_.max_memory_bytes) {
    fuel_left_ = budget_.FirstSlice();
    stack_top_ = eval_internal::StackPosition();
    stack_budget_ = StackBudgetBytes();
  }

  EvalStatus Execute(const Value& input, const OutputFn& emit, EvalError* error) {
    if (program_.functions.empty() || program_.functions[0].body == ir::kNoNode ||
        program_.functions[0].body >= program_.nodes.size()) {
      SetError(Value::String("invalid program: no entry function"));
      return Finish(Flow::kError, error);
    }
    Frame top{0, nullptr, std::vector<Slot>(program_.functions[0].num_slots), {}};
    if (globals_ != nullptr) {
      for (size_t i = 0; i < globals_->size() && i < top.slots.size(); ++i) top.slots[i].value = (*globals_)[i];
    }
    uint64_t outputs = 0;
    eval_internal::WorkMeterScope metering(&meter_);
    Flow flow = Eval(program_.functions[0].body, &top, input, nullptr,
                     [&](const Value& v, const Value*) -> Flow {
                       if (++outputs >= limits_.max_outputs) return LimitError(eval_internal::OutputLimitMessage(limits_));
                       return emit(v) ? Flow::kContinue : Flow::kStop;
                     });
    return Finish(flow, error);
  }

 private:
  EvalStatus Finish(Flow flow, EvalError* error) {
    LastEvaluationSteps() = budget_.Used(fuel_left_);
    switch (flow) {
      case Flow::kContinue: return EvalStatus::kOk;
      case Flow::kStop: return EvalStatus::kStopped;
      case Flow::kBreak:
        // A break whose label is not active (cannot happen for lowered programs).
        SetError(Value::String("break without an active label"));
        [[fallthrough]];
      case Flow::kTailCall:  // cannot happen: EvalCall runs every tail call
        if (flow == Flow::kTailCall) SetError(Value::String("internal error: tail call outside a function"));
        [[fallthrough]];
      case Flow::kError:
        if (error != nullptr) {
          error->value = error_;
          error->limit = error_is_limit_;
        }
        return EvalStatus::kError;
    }
    return EvalStatus::kError;
  }

  Flow SetError(Value v) {
    error_ = std::move(v);
    error_is_limit_ = false;
    return Flow::kError;
  }
  Flow LimitError(const std::string& message) {
    error_ = Value::String(message);
    error_is_limit_ = true;
    return Flow::kError;
  }

  // Charges one step of fuel and checks the stack; returns false (with the error set) when a
  // limit is exceeded.
  bool Step() {
    if (fuel_left_ == 0 && !Refuel()) return false;
    --fuel_left_;
    if (static_cast<size_t>(stack_top_ - eval_internal::StackPosition()) > stack_budget_) {
      LimitError("maximum evaluation depth exceeded (stack)");
      return false;
    }
    return true;
  }

  // The next slice of fuel (the time limit is checked here, once per slice); kept out of line so
  // Step stays small enough to inline everywhere.
  [[gnu::noinline]] bool Refuel() {
    std::string message;
    fuel_left_ = budget_.NextSlice(&message);
    if (fuel_left_ == 0) {
      LimitError(message);
      return false;
    }
    return true;
  }

  bool Charge(const Value& v) {
    size_t bytes = 16;
    if (v.IsString()) bytes += v.AsString().size();
    else if (v.IsArray()) bytes += 16 * v.AsArray().size();
    else if (v.IsObject()) bytes += 48 * v.AsObject().size();
    memory_used_ += bytes;
    if (memory_used_ > limits_.max_memory_bytes) {
      LimitError(eval_internal::MemoryLimitMessage(limits_.max_memory_bytes));
      return false;
    }
    return true;
  }

  const ir::Node& N(NodeId id) const { return program_.nodes[id]; }

  // The activation of `parent_function` that a function defined in it sees, found from the frame
  // that calls the function.
  static Frame* LexicalParent(Frame* caller, int32_t parent_function) {
    if (parent_function < 0) return nullptr;
    Frame* link = caller;
    while (link != nullptr && link->function != parent_function) link = link->parent;
    return link;
  }

  Frame* Up(Frame* frame, uint32_t immediate) const {
    for (uint32_t levels = ir::ScopeLevels(immediate); levels > 0 && frame != nullptr; --levels) frame = frame->parent;
    return frame;
  }

  static Value Extend(const Value& path, const Value& key) {
    Array p = path.AsArray();
    p.push_back(key);
    return Value::MakeArray(std::move(p));
  }

  // Emits a value computed outside path tracking: in path mode it carries no path.
  static Flow EmitValue(const Value& v, const Value* path, Cont k) {
    static const Value kNoPath;
    return k(v, path ? &kNoPath : nullptr);
  }

  Flow InvalidPathAccess(const Value& target, const Value& key) {
    return SetError(Value::String("Invalid path expression near attempt to access element " +
                                  eval_internal::TruncatedJson(key, 15) + " of " + eval_internal::TruncatedJson(target, 30)));
  }
  Flow InvalidPathIterate(const Value& target) {
    return SetError(Value::String("Invalid path expression near attempt to iterate through " + eval_internal::TruncatedJson(target, 30)));
  }

  // An op or builtin failed: a limit it reached while charging its work (WorkMeter) is reported
  // as a limit, anything else as the jq error it is.
  Flow OpFailed(Value error) {
    if (meter_.TakeExceeded()) return LimitError(meter_.message());
    return SetError(std::move(error));
  }

  // ---- the evaluator

  // Dispatch only: every case with locals lives in its own non-inlined function, so that the
  // frames of deep recursions (one Eval per nested node) stay small.
  Flow Eval(NodeId id, Frame* frame, const Value& input, const Value* path, Cont k) {
    if (!Step()) return Flow::kError;
    const ir::Node& n = N(id);
    switch (n.op) {
      case Op::Identity: return k(input, path);
      case Op::Empty: return Flow::kContinue;
      case Op::Const:
      case Op::Loc: return EmitValue(program_.consts[n.a], path, k);
      case Op::RecurseAll: return Recurse(input, path, k);
      case Op::Index: return EvalIndex(n, frame, input, path, k);
      case Op::Slice: return EvalSlice(n, frame, input, path, k);
      case Op::Iterate: return EvalIterate(n, frame, input, path, k);
      case Op::Pipe: return EvalPipe(n, frame, input, path, k);
      case Op::Comma: return EvalComma(n, frame, input, path, k);
      case Op::Neg: return EvalNeg(n, frame, input, path, k);
      case Op::Binary: return EvalBinary(n, frame, input, path, k);
      case Op::And:
      case Op::Or: return EvalAndOr(n, frame, input, path, k);
      case Op::Alternative: return EvalAlternative(n, frame, input, path, k);
      case Op::If: return EvalIf(n, frame, input, path, k);
      case Op::Try: return EvalTry(n, frame, input, path, k);
      case Op::Collect: return EvalCollect(n, frame, input, path, k);
      case Op::Object: return EvalObjectStart(n, frame, input, path, k);
      case Op::Format: return EvalFormat(n, input, path, k);
      case Op::StringInterp: return EvalInterpStart(n, frame, input, path, k);
      case Op::Var: return EvalVar(n, frame, input, path, k);
      case Op::Bind: return EvalBind(n, frame, input, path, k);
      case Op::Reduce: return EvalReduce(n, frame, input, path, k);
      case Op::Foreach: return EvalForeach(n, frame, input, path, k);
      case Op::Label: return EvalLabel(n, frame, input, path, k);
      case Op::Break: return EvalBreak(n, frame);
      case Op::Call: return EvalCall(n, frame, input, path, k);
      case Op::CallParam: return EvalCallParam(n, frame, input, path, k);
      case Op::CallBuiltin: return EvalBuiltin(n, frame, input, path, k);
      case Op::PathOf: return EvalPathOf(n, frame, input, path, k);
      case Op::GetPathGen: return EvalGetPath(n, frame, input, path, k);
      case Op::Error: return EvalError(n, frame, input);
    }
    return SetError(Value::String("invalid IR node"));
  }

#define WM_NOINLINE __attribute__((noinline))

  WM_NOINLINE Flow EvalIterate(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    return Eval(n.kids[0], frame, input, path, [&](const Value& t, const Value* tp) { return IterateValue(t, tp, k); });
  }

  WM_NOINLINE Flow EvalPipe(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    return Eval(n.kids[0], frame, input, path, [&](const Value& v, const Value* vp) {
      return Eval(n.kids[1], frame, v, vp, k);
    });
  }

  WM_NOINLINE Flow EvalComma(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    Flow f = Eval(n.kids[0], frame, input, path, k);
    if (f != Flow::kContinue) return f;
    return Eval(n.kids[1], frame, input, path, k);
  }

  WM_NOINLINE Flow EvalNeg(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    return Eval(n.kids[0], frame, input, nullptr, [&](const Value& v, const Value*) {
      Value out, err;
      if (!ops::Negate(v, &out, &err)) return OpFailed(err);
      return EmitValue(out, path, k);
    });
  }

  WM_NOINLINE Flow EvalAndOr(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    bool is_and = n.op == Op::And;
    return Eval(n.kids[0], frame, input, nullptr, [&](const Value& a, const Value*) {
      if (is_and ? !a.Truthy() : a.Truthy()) return EmitValue(Value::Bool(!is_and), path, k);
      return Eval(n.kids[1], frame, input, nullptr, [&](const Value& b, const Value*) {
        return EmitValue(Value::Bool(b.Truthy()), path, k);
      });
    });
  }

  WM_NOINLINE Flow EvalIf(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    return Eval(n.kids[0], frame, input, nullptr, [&](const Value& c, const Value*) {
      return Eval(c.Truthy() ? n.kids[1] : n.kids[2], frame, input, path, k);
    });
  }

  WM_NOINLINE Flow EvalCollect(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    Array items;
    Flow f = Eval(n.kids[0], frame, input, nullptr, [&](const Value& v, const Value*) {
      items.push_back(v);
      memory_used_ += 16;
      if (memory_used_ > limits_.max_memory_bytes) {
        return LimitError(eval_internal::MemoryLimitMessage(limits_.max_memory_bytes));
      }
      return Flow::kContinue;
    });
    if (f != Flow::kContinue) return f;
    return EmitValue(Value::MakeArray(std::move(items)), path, k);
  }

  WM_NOINLINE Flow EvalObjectStart(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    std::vector<Member> members;
    return EvalObject(n, 0, frame, input, &members, path, k);
  }

  WM_NOINLINE Flow EvalFormat(const ir::Node& n, const Value& input, const Value* path, Cont k) {
    Value out, err;
    if (!ops::ApplyFormat(n.str, input, &out, &err) || !eval_internal::ChargeFormat(input, out, &err)) {
      return OpFailed(err);
    }
    if (!Charge(out)) return Flow::kError;
    return EmitValue(out, path, k);
  }

  WM_NOINLINE Flow EvalInterpStart(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    std::vector<std::string> pieces(n.kids.size());
    return EvalInterp(n, n.kids.size(), frame, input, &pieces, path, k);
  }

  // IR read from a bundle is checked as it runs: a slot or parameter outside its frame is an
  // evaluation error, never an out-of-bounds access.
  // `immediate` is a scoped slot (Var, Break): ir::ScopedIndex(levels, slot).
  Slot* SlotAt(Frame* frame, uint32_t immediate) {
    return LocalSlot(Up(frame, immediate), ir::ScopeIndex(immediate));
  }
  Slot* LocalSlot(Frame* frame, uint32_t slot) {
    if (frame == nullptr || slot >= frame->slots.size()) {
      SetError(Value::String("invalid program: variable slot out of range"));
      return nullptr;
    }
    return &frame->slots[slot];
  }

  // In path mode a variable is a path only where jq can tell it is one: a `foreach` item bound
  // from a tracked source keeps that source's path; any other variable whose value is the very
  // value at the current path (jq compares identity, not equality) stands for the current path,
  // as in `path(.a | . as $x | $x)`. Otherwise its value is not at a path: `path(.a as $x | $x)`
  // is an error, as in jq.
  WM_NOINLINE Flow EvalVar(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    const Slot* found = SlotAt(frame, n.a);
    if (found == nullptr) return Flow::kError;
    const Slot& slot = *found;
    if (path != nullptr) {
      if (slot.path.IsArray()) return k(slot.value, &slot.path);
      if (path->IsArray() && Identical(slot.value, input)) return k(slot.value, path);
    }
    return EmitValue(slot.value, path, k);
  }

  WM_NOINLINE Flow EvalLabel(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    uint64_t label = ++label_counter_;
    Slot* slot = LocalSlot(frame, n.a);
    if (slot == nullptr) return Flow::kError;
    slot->value = Value::Number(static_cast<double>(label));
    Flow f = Eval(n.kids[0], frame, input, path, k);
    if (f == Flow::kBreak && break_label_ == label) return Flow::kContinue;
    return f;
  }

  WM_NOINLINE Flow EvalBreak(const ir::Node& n, Frame* frame) {
    const Slot* slot = SlotAt(frame, n.a);
    if (slot == nullptr) return Flow::kError;
    const Value& label = slot->value;
    break_label_ = label.IsNumber() ? static_cast<uint64_t>(label.AsNumber()) : 0;
    return Flow::kBreak;
  }

  // Closure calls are not counted against max_depth: unbounded recursion needs Op::Call.
  WM_NOINLINE Flow EvalCallParam(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    Frame* f = Up(frame, n.a);
    if (f == nullptr || ir::ScopeIndex(n.a) >= f->params.size()) {
      return SetError(Value::String("invalid program: closure parameter out of range"));
    }
    const Closure& c = f->params[ir::ScopeIndex(n.a)];
    return Eval(c.body, c.env, input, path, k);
  }

  WM_NOINLINE Flow EvalPathOf(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    static const Value kEmptyPath = Value::EmptyArray();
    return Eval(n.kids[0], frame, input, &kEmptyPath, [&](const Value& v, const Value* vp) {
      if (!vp->IsArray()) {
        return SetError(Value::String("Invalid path expression with result " + eval_internal::TruncatedJson(v, 30)));
      }
      return EmitValue(*vp, path, k);
    });
  }

  WM_NOINLINE Flow EvalGetPath(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    return Eval(n.kids[0], frame, input, nullptr, [&](const Value& p, const Value*) {
      Value out, err;
      Value arg = p;
      if (!ops::CallBuiltin(ir::BuiltinId::GetPath, input, &arg, 1, &out, &err)) return OpFailed(err);
      if (path == nullptr) return k(out, nullptr);
      if (!path->IsArray()) return InvalidPathAccess(input, p);
      Array full = path->AsArray();
      if (p.IsArray()) {
        for (const Value& key : p.AsArray()) full.push_back(key);
      }
      Value fp = Value::MakeArray(std::move(full));
      return k(out, &fp);
    });
  }

  WM_NOINLINE Flow EvalError(const ir::Node& n, Frame* frame, const Value& input) {
    if (n.kids.empty() || n.kids[0] == ir::kNoNode) return SetError(input);
    return Eval(n.kids[0], frame, input, nullptr, [&](const Value& m, const Value*) { return SetError(m); });
  }

  // `..` in path mode (paths, leaf_paths, `..|=`) builds a path per value, as long as the value
  // is deep: charged as work and memory, so that a deeply nested input cannot make it quadratic
  // unnoticed. False with the limit error set.
  bool ExtendCharged(const Value& path, const Value& key, Value* out) {
    uint64_t length = path.AsArray().size() + 1;
    if (!meter_.ChargeSteps(length / 8) || !meter_.ChargeBytes(16 * length)) {
      meter_.TakeExceeded();
      LimitError(meter_.message());
      return false;
    }
    *out = Extend(path, key);
    return true;
  }

  WM_NOINLINE Flow Recurse(const Value& v, const Value* path, Cont k) {
    if (!Step()) return Flow::kError;
    Flow f = k(v, path);
    if (f != Flow::kContinue) return f;
    if (v.IsArray()) {
      Value hold = v;
      const Array& items = hold.AsArray();
      for (size_t i = 0; i < items.size(); ++i) {
        Value cp;
        if (path && path->IsArray() && !ExtendCharged(*path, Value::Number(double(i)), &cp)) return Flow::kError;
        f = Recurse(items[i], path ? &cp : nullptr, k);
        if (f != Flow::kContinue) return f;
      }
    } else if (v.IsObject()) {
      Value hold = v;
      for (const Member& m : hold.AsObject()) {
        Value cp;
        if (path && path->IsArray() && !ExtendCharged(*path, m.first, &cp)) return Flow::kError;
        f = Recurse(m.second, path ? &cp : nullptr, k);
        if (f != Flow::kContinue) return f;
      }
    }
    return Flow::kContinue;
  }

  WM_NOINLINE Flow IterateValue(const Value& t, const Value* tp, Cont k) {
    if (tp != nullptr && !tp->IsArray()) {
      if (t.IsArray() || t.IsObject()) return InvalidPathIterate(t);
    }
    if (t.IsArray()) {
      Value hold = t;
      const Array& items = hold.AsArray();
      for (size_t i = 0; i < items.size(); ++i) {
        Flow f;
        if (tp) {
          Value cp = Extend(*tp, Value::Number(double(i)));
          f = k(items[i], &cp);
        } else {
          f = k(items[i], nullptr);
        }
        if (f != Flow::kContinue) return f;
      }
      return Flow::kContinue;
    }
    if (t.IsObject()) {
      Value hold = t;
      for (const Member& m : hold.AsObject()) {
        Flow f;
        if (tp) {
          Value cp = Extend(*tp, m.first);
          f = k(m.second, &cp);
        } else {
          f = k(m.second, nullptr);
        }
        if (f != Flow::kContinue) return f;
      }
      return Flow::kContinue;
    }
    Array none;
    Value err;
    ops::IterateInto(t, &none, &err);
    return OpFailed(err);
  }

  WM_NOINLINE Flow EvalIndex(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    // jq order: the key generator is the outer loop, the target the inner one.
    return Eval(n.kids[1], frame, input, nullptr, [&](const Value& key, const Value*) {
      return Eval(n.kids[0], frame, input, path, [&](const Value& t, const Value* tp) {
        if (tp != nullptr && !tp->IsArray()) return InvalidPathAccess(t, key);
        Value out, err;
        if (!ops::Index(t, key, &out, &err)) return OpFailed(err);
        if (tp == nullptr) return k(out, nullptr);
        if (!tp->IsArray()) return InvalidPathAccess(t, key);
        Value cp = Extend(*tp, key);
        return k(out, &cp);
      });
    });
  }

  WM_NOINLINE Flow EvalSlice(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    auto bound = [&](NodeId id, FnRef<Flow(const Value&)> next) -> Flow {
      if (id == ir::kNoNode) return next(Value::Null());
      return Eval(id, frame, input, nullptr, [&](const Value& v, const Value*) { return next(v); });
    };
    return bound(n.kids[1], [&](const Value& from) {
      return bound(n.kids[2], [&](const Value& to) {
        return Eval(n.kids[0], frame, input, path, [&](const Value& t, const Value* tp) {
          Value out, err;
          if (!ops::Slice(t, from, to, &out, &err)) return OpFailed(err);
          if (tp == nullptr) return k(out, nullptr);
          Value key = Value::MakeObject({{Value::String("start"), from}, {Value::String("end"), to}});
          if (!tp->IsArray()) return InvalidPathAccess(t, key);
          Value cp = Extend(*tp, key);
          return k(out, &cp);
        });
      });
    });
  }

  WM_NOINLINE Flow EvalBinary(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    auto op = static_cast<ir::BinaryOp>(n.a);
    return Eval(n.kids[1], frame, input, nullptr, [&](const Value& b, const Value*) {
      return Eval(n.kids[0], frame, input, nullptr, [&](const Value& a, const Value*) {
        Value out, err;
        if (!ops::Binary(op, a, b, &out, &err)) return OpFailed(err);
        if ((out.IsString() || out.IsArray() || out.IsObject()) && !Charge(b)) return Flow::kError;
        return EmitValue(out, path, k);
      });
    });
  }

  WM_NOINLINE Flow EvalAlternative(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    bool any = false;
    Flow f = Eval(n.kids[0], frame, input, path, [&](const Value& v, const Value* vp) {
      if (!v.Truthy()) return Flow::kContinue;
      any = true;
      return k(v, vp);
    });
    if (f != Flow::kContinue) return f;
    if (any) return Flow::kContinue;
    return Eval(n.kids[1], frame, input, path, k);
  }

  WM_NOINLINE Flow EvalTry(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    bool downstream = false;  // the flow came from k, i.e. from outside the try body
    Flow f = Eval(n.kids[0], frame, input, path, [&](const Value& v, const Value* vp) {
      Flow r = k(v, vp);
      if (r != Flow::kContinue) downstream = true;
      return r;
    });
    if (f != Flow::kError || downstream || error_is_limit_) return f;
    NodeId handler = n.kids.size() > 1 ? n.kids[1] : ir::kNoNode;
    if (handler == ir::kNoNode) return Flow::kContinue;
    Value caught = std::move(error_);
    error_ = Value();
    return Eval(handler, frame, caught, path ? &kNoPathValue : nullptr, k);
  }

  WM_NOINLINE Flow EvalObject(const ir::Node& n, size_t entry, Frame* frame, const Value& input,
                  std::vector<Member>* members, const Value* path, Cont k) {
    if (entry * 2 >= n.kids.size()) {
      Value obj = Value::MakeObject(*members);
      if (!Charge(obj)) return Flow::kError;
      return EmitValue(obj, path, k);
    }
    return Eval(n.kids[entry * 2], frame, input, nullptr, [&](const Value& key, const Value*) {
      return Eval(n.kids[entry * 2 + 1], frame, input, nullptr, [&](const Value& value, const Value*) {
        // jq checks the key when it inserts the pair, i.e. once per value: a value that yields
        // nothing never reports a bad key (`{(null): empty}` is empty, not an error).
        if (!key.IsString()) {
          return SetError(Value::String(std::string("Cannot use ") + eval_internal::Describe(key) + " as object key"));
        }
        members->emplace_back(key, value);
        Flow f = EvalObject(n, entry + 1, frame, input, members, path, k);
        members->pop_back();
        return f;
      });
    });
  }

  // Parts are produced with the last part as the outermost loop, as jq does.
  WM_NOINLINE Flow EvalInterp(const ir::Node& n, size_t remaining, Frame* frame, const Value& input,
                  std::vector<std::string>* pieces, const Value* path, Cont k) {
    if (remaining == 0) {
      std::string s;
      for (const std::string& p : *pieces) s += p;
      Value out = Value::String(s);
      if (!Charge(out)) return Flow::kError;
      return EmitValue(out, path, k);
    }
    size_t i = remaining - 1;
    const ir::Node& part = N(n.kids[i]);
    if (part.op == Op::Const && program_.consts[part.a].IsString()) {
      (*pieces)[i] = std::string(program_.consts[part.a].AsString());
      return EvalInterp(n, i, frame, input, pieces, path, k);
    }
    std::string_view format = n.str.empty() ? std::string_view("text") : std::string_view(n.str);
    return Eval(n.kids[i], frame, input, nullptr, [&](const Value& v, const Value*) {
      Value out, err;
      if (!ops::ApplyFormat(format, v, &out, &err) || !eval_internal::ChargeFormat(v, out, &err)) {
        return OpFailed(err);
      }
      (*pieces)[i] = std::string(out.AsString());
      return EvalInterp(n, i, frame, input, pieces, path, k);
    });
  }

  // ---- destructuring

  WM_NOINLINE Flow Destructure(uint32_t pattern_index, const Value& v, const Value* vp, Frame* frame,
                   const Value& input, FnRef<Flow()> k) {
    if (!Step()) return Flow::kError;
    const ir::Pattern& pat = program_.patterns[pattern_index];
    switch (pat.kind) {
      case ir::Pattern::Kind::Var: {
        if (pat.slot >= frame->slots.size()) return SetError(Value::String("invalid program: pattern slot out of range"));
        Slot& slot = frame->slots[pat.slot];
        slot.value = v;
        slot.path = (vp && vp->IsArray()) ? *vp : Value();
        return k();
      }
      case ir::Pattern::Kind::Array: return DestructureArray(pat, 0, v, vp, frame, input, k);
      case ir::Pattern::Kind::Object: return DestructureObject(pat, 0, v, vp, frame, input, k);
    }
    return SetError(Value::String("invalid pattern"));
  }

  WM_NOINLINE Flow DestructureArray(const ir::Pattern& pat, size_t i, const Value& v, const Value* vp,
                        Frame* frame, const Value& input, FnRef<Flow()> k) {
    if (i == pat.elements.size()) return k();
    Value key = Value::Number(double(i));
    Value elem, err;
    if (!ops::Index(v, key, &elem, &err)) return OpFailed(err);
    Value ep;
    if (vp && vp->IsArray()) ep = Extend(*vp, key);
    return Destructure(pat.elements[i], elem, vp ? &ep : nullptr, frame, input, [&] {
      return DestructureArray(pat, i + 1, v, vp, frame, input, k);
    });
  }

  WM_NOINLINE Flow DestructureObject(const ir::Pattern& pat, size_t i, const Value& v, const Value* vp,
                         Frame* frame, const Value& input, FnRef<Flow()> k) {
    if (i == pat.entries.size()) return k();
    const ir::Pattern::Entry& entry = pat.entries[i];
    return Eval(entry.key, frame, input, nullptr, [&](const Value& key, const Value*) {
      if (!key.IsString()) {
        return SetError(Value::String(std::string("Cannot index ") + KindName(v.kind()) + " with " + KindName(key.kind())));
      }
      Value member, err;
      if (!ops::Index(v, key, &member, &err)) return OpFailed(err);
      Value mp;
      if (vp && vp->IsArray()) mp = Extend(*vp, key);
      if (entry.bind_slot >= 0 && uint32_t(entry.bind_slot) < frame->slots.size()) {
        Slot& slot = frame->slots[uint32_t(entry.bind_slot)];
        slot.value = member;
        slot.path = mp;
      }
      if (entry.value_pattern < 0) return DestructureObject(pat, i + 1, v, vp, frame, input, k);
      return Destructure(uint32_t(entry.value_pattern), member, vp ? &mp : nullptr, frame, input, [&] {
        return DestructureObject(pat, i + 1, v, vp, frame, input, k);
      });
    });
  }

  void ClearPatternSlots(uint32_t pattern_index, Frame* frame, int depth = 0) {
    if (depth > 1000) return;
    const ir::Pattern& pat = program_.patterns[pattern_index];
    switch (pat.kind) {
      case ir::Pattern::Kind::Var:
        if (pat.slot < frame->slots.size()) frame->slots[pat.slot] = Slot{};
        break;
      case ir::Pattern::Kind::Array:
        for (uint32_t e : pat.elements) ClearPatternSlots(e, frame, depth + 1);
        break;
      case ir::Pattern::Kind::Object:
        for (const auto& e : pat.entries) {
          if (e.bind_slot >= 0 && uint32_t(e.bind_slot) < frame->slots.size()) {
            frame->slots[uint32_t(e.bind_slot)] = Slot{};
          }
          if (e.value_pattern >= 0) ClearPatternSlots(uint32_t(e.value_pattern), frame, depth + 1);
        }
        break;
    }
  }

  // Destructures `v` with the first pattern of `patterns` that works: with `?//` alternatives, an
  // error while destructuring or while running `body` for a non-final alternative (but not an
  // error raised downstream of the body's outputs) moves on to the next one, with every
  // variable of every alternative reset to null.
  WM_NOINLINE Flow DestructureAlternatives(const std::vector<uint32_t>& patterns, const Value& v,
                                           const Value* vp, Frame* frame, const Value& input,
                                           FnRef<Flow(bool* downstream)> body) {
    const size_t alternatives = patterns.size();
    for (size_t alt = 0; alt < alternatives; ++alt) {
      const bool last = alt + 1 == alternatives;
      if (alternatives > 1) {
        for (uint32_t p : patterns) ClearPatternSlots(p, frame);
      }
      bool downstream = false;
      Flow f = Destructure(patterns[alt], v, vp, frame, input, [&] { return body(&downstream); });
      if (f == Flow::kError && !last && !downstream && !error_is_limit_) continue;
      return f;
    }
    return Flow::kContinue;
  }

  WM_NOINLINE Flow EvalBind(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    // The source is a subexpression, as in jq: it is not a path even in path mode, so
    // `path(.a as $x | $x)` fails while `path(.a as $x | .b)` is ["b"] (see EvalVar).
    return Eval(n.kids[0], frame, input, nullptr, [&](const Value& v, const Value* vp) {
      return DestructureAlternatives(n.patterns, v, vp, frame, input, [&](bool* downstream) {
        return Eval(n.kids[1], frame, input, path, [&](const Value& out, const Value* op) {
          Flow r = k(out, op);
          if (r != Flow::kContinue) *downstream = true;
          return r;
        });
      });
    });
  }

  WM_NOINLINE Flow EvalReduce(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    return Eval(n.kids[1], frame, input, nullptr, [&](const Value& init, const Value*) {
      Value state = init;
      Flow f = Eval(n.kids[0], frame, input, nullptr, [&](const Value& item, const Value*) {
        return DestructureAlternatives(n.patterns, item, nullptr, frame, input, [&](bool*) {
          Value last;
          Flow u = Eval(n.kids[2], frame, state, nullptr, [&](const Value& next, const Value*) {
            last = next;
            return Flow::kContinue;
          });
          if (u != Flow::kContinue) return u;
          state = std::move(last);  // an empty update leaves null, as jq does
          return Flow::kContinue;
        });
      });
      if (f != Flow::kContinue) return f;
      return EmitValue(state, path, k);
    });
  }

  WM_NOINLINE Flow EvalForeach(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    NodeId extract = n.kids.size() > 3 ? n.kids[3] : ir::kNoNode;
    return Eval(n.kids[1], frame, input, nullptr, [&](const Value& init, const Value*) {
      Value state = init;
      return Eval(n.kids[0], frame, input, path, [&](const Value& item, const Value* ip) {
        return DestructureAlternatives(n.patterns, item, ip, frame, input, [&](bool* downstream) {
          Value old = state;
          return Eval(n.kids[2], frame, old, nullptr, [&](const Value& next, const Value*) {
            state = next;
            Flow r = extract == ir::kNoNode ? EmitValue(next, path, k)
                                            : Eval(extract, frame, next, path ? &kNoPathValue : nullptr, k);
            if (r != Flow::kContinue) *downstream = true;
            return r;
          });
        });
      });
    });
  }

  WM_NOINLINE Flow EvalCall(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    if (n.a >= program_.functions.size()) return SetError(Value::String("call to an unknown function"));
    const ir::Function& fn = program_.functions[n.a];
    if (++depth_ > limits_.max_depth) {
      --depth_;
      return LimitError("maximum recursion depth exceeded (" + std::to_string(limits_.max_depth) + ")");
    }
    Frame callee{static_cast<int32_t>(n.a), LexicalParent(frame, fn.parent), std::vector<Slot>(fn.num_slots), {}};
    callee.params.reserve(n.kids.size());
    for (NodeId arg : n.kids) callee.params.push_back(Closure{arg, frame});
    // Bodies with no call of a recursive function in tail position (every catalog resolver) take
    // the plain path: no extra frame, no checks.
    Flow f = tail_.ReachesTailCall(fn.body) ? EvalBodyWithTailCalls(fn.body, &callee, input, path, k)
                                            : Eval(fn.body, &callee, input, path, k);
    --depth_;
    return f;
  }

  // ---- tail calls

  // Out of line, so that EvalCall stays as small and fast as it was for every other body.
  // The pending call lives here, not in the Evaluation, so that runs without tail calls do not
  // pay for constructing and destroying it; nested bodies install their own and restore ours.
  WM_NOINLINE Flow EvalBodyWithTailCalls(NodeId body, Frame* callee, const Value& input, const Value* path, Cont k) {
    PendingTailCall pending;
    PendingTailCall* outer = pending_;
    pending_ = &pending;
    Flow f = EvalTail(body, callee, input, path, k);
    if (f == Flow::kTailCall) f = RunTailCalls(callee, &pending, k);
    pending_ = outer;
    return f;
  }

  // Evaluates `id` in tail position of the function whose frame is `frame`: its outputs go to
  // that function's continuation `k`, and nothing of the function runs after it returns. A Call
  // of a recursive function reached this way is not made here: it is recorded in *pending_ and
  // Flow::kTailCall returns to RunTailCalls, which makes it in a loop (and does not count it
  // against max_depth). Tail position continues into the right side of `|` only when the left
  // side yields at most one value (AtMostOne): that value is taken first and the left side is
  // finished, so running the right side after it changes no order of outputs or errors. A
  // multi-output left side keeps the nesting (correct, not constant-stack). Charges the same one
  // step per node as Eval.
  WM_NOINLINE Flow EvalTail(NodeId id, Frame* frame, const Value& input, const Value* path, Cont k) {
    if (!tail_.ReachesTailCall(id)) return Eval(id, frame, input, path, k);
    if (!Step()) return Flow::kError;
    const ir::Node& n = N(id);
    switch (n.op) {
      case Op::Call:
        pending_->call = id;
        pending_->input = input;
        pending_->has_path = path != nullptr;
        if (path != nullptr) pending_->path = *path;
        return Flow::kTailCall;
      case Op::Comma: {
        Flow f = Eval(n.kids[0], frame, input, path, k);
        if (f != Flow::kContinue) return f;
        return EvalTail(n.kids[1], frame, input, path, k);
      }
      case Op::If: {
        if (!AtMostOne(n.kids[0], frame)) return EvalIf(n, frame, input, path, k);
        bool produced = false;
        bool truthy = false;
        Flow f = Eval(n.kids[0], frame, input, nullptr, [&](const Value& c, const Value*) {
          produced = true;
          truthy = c.Truthy();
          return Flow::kContinue;
        });
        if (f != Flow::kContinue || !produced) return f;
        return EvalTail(truthy ? n.kids[1] : n.kids[2], frame, input, path, k);
      }
      case Op::Pipe: {
        if (!AtMostOne(n.kids[0], frame)) return EvalPipe(n, frame, input, path, k);
        TakenValue taken;
        Flow f = Eval(n.kids[0], frame, input, path, taken);
        if (f != Flow::kContinue || !taken.produced) return f;
        return EvalTail(n.kids[1], frame, taken.value, taken.Path(), k);
      }
      case Op::Bind: {
        // ReachesTailCall admits only one plain `$name` pattern: binding it cannot fail.
        if (!AtMostOne(n.kids[0], frame)) return EvalBind(n, frame, input, path, k);
        TakenValue taken;
        Flow f = Eval(n.kids[0], frame, input, nullptr, taken);
        if (f != Flow::kContinue || !taken.produced) return f;
        // The body's tail call returns kTailCall back out through Destructure: no nesting.
        return Destructure(n.patterns[0], taken.value, taken.Path(), frame, input,
                           [&] { return EvalTail(n.kids[1], frame, input, path, k); });
      }
      default:
        return SetError(Value::String(std::string("internal error: no tail evaluation for ") + ir::OpName(n.op)));
    }
  }

  // A call in tail position on its way from EvalTail to RunTailCalls: the Call node and the value
  // (and path) it was called with.
  struct PendingTailCall {
    NodeId call = 0;
    Value input;
    Value path;
    bool has_path = false;
  };

  // The single value (and its path) of an expression known to yield at most one.
  struct TakenValue {
    Value value;
    Value path;
    bool produced = false;
    bool has_path = false;
    // The continuation that takes it.
    Flow operator()(const Value& v, const Value* vp) {
      produced = true;
      value = v;
      has_path = vp != nullptr;
      if (vp != nullptr) path = *vp;
      return Flow::kContinue;
    }
    const Value* Path() const { return has_path ? &path : nullptr; }
  };

  // Whether `id`, evaluated in `frame`, yields at most one value. The static count decides most
  // nodes; the rest depend on closure parameters, which are looked up through the frames here
  // (a Call is looked into with a parameter-only frame, as EvalCall would build it). A bounded
  // number of lookups: past it the answer is "no", which only costs stack.
  bool AtMostOne(NodeId id, Frame* frame) {
    int budget = 64;
    return AtMostOneWithin(id, frame, &budget);
  }

  bool AtMostOneWithin(NodeId id, Frame* frame, int* budget) {
    switch (tail_.Count(id)) {
      case eval_internal::OutputCount::kAtMostOne: return true;
      case eval_internal::OutputCount::kMany: return false;
      case eval_internal::OutputCount::kOneIfClosures: break;
    }
    if (--*budget < 0) return false;
    const ir::Node& n = N(id);
    if (n.op == Op::CallParam) {
      Frame* owner = Up(frame, n.a);
      if (owner == nullptr || ir::ScopeIndex(n.a) >= owner->params.size()) return false;
      const Closure& closure = owner->params[ir::ScopeIndex(n.a)];
      return AtMostOneWithin(closure.body, closure.env, budget);
    }
    if (n.op == Op::Call) {
      const ir::Function& fn = program_.functions[n.a];
      Frame probe{static_cast<int32_t>(n.a), LexicalParent(frame, fn.parent), {}, {}};
      probe.params.reserve(n.kids.size());
      for (NodeId arg : n.kids) probe.params.push_back(Closure{arg, frame});
      return AtMostOneWithin(fn.body, &probe, budget);
    }
    return eval_internal::TailCallAnalysis::ForEachCountedChild(
        n, [&](NodeId kid) { return AtMostOneWithin(kid, frame, budget); });
  }

  // The trampoline: makes the pending tail call, and every tail call its body makes in turn, in
  // a loop, until one iteration finishes without one. `first` is the frame of the call EvalCall
  // made (it outlives the loop). Each iteration gets a fresh frame; the previous one is recycled
  // unless the new one refers to it (a closure argument such as `f($n - 1)` evaluated in it, or
  // its lexical parent, as for `until` calling its inner `_until`): such frames are kept to the
  // end of the loop and charged to the memory limit.
  WM_NOINLINE Flow RunTailCalls(Frame* first, PendingTailCall* pending, Cont k) {
    std::vector<std::unique_ptr<Frame>> kept;
    std::unique_ptr<Frame> current_owned;
    std::unique_ptr<Frame> spare;
    Frame* current = first;
    Value input;
    Value path;
    Flow f = Flow::kTailCall;
    while (f == Flow::kTailCall) {
      const ir::Node& call = N(pending->call);
      const ir::Function& fn = program_.functions[call.a];
      input = std::move(pending->input);
      const bool has_path = pending->has_path;
      if (has_path) path = std::move(pending->path);
      std::unique_ptr<Frame> next = spare ? std::move(spare) : std::make_unique<Frame>();
      next->function = static_cast<int32_t>(call.a);
      next->parent = LexicalParent(current, fn.parent);
      next->slots.assign(fn.num_slots, Slot{});
      next->params.clear();
      bool refers_to_current = next->parent == current;
      for (NodeId arg : call.kids) {
        Closure closure{arg, current};
        // A parameter passed on unchanged (`def f(g): ... f(g)`) is the closure it names, so
        // the frame it was named in need not stay alive.
        const ir::Node& a = N(arg);
        if (a.op == Op::CallParam) {
          Frame* owner = Up(current, a.a);
          if (owner != nullptr && ir::ScopeIndex(a.a) < owner->params.size()) closure = owner->params[ir::ScopeIndex(a.a)];
        }
        refers_to_current = refers_to_current || closure.env == current;
        next->params.push_back(closure);
      }
      if (current_owned != nullptr) {
        if (refers_to_current) {
          memory_used_ += sizeof(Frame) + current_owned->slots.size() * sizeof(Slot) +
                          current_owned->params.size() * sizeof(Closure);
          if (memory_used_ > limits_.max_memory_bytes) {
            return LimitError(eval_internal::MemoryLimitMessage(limits_.max_memory_bytes));
          }
          kept.push_back(std::move(current_owned));
        } else {
          spare = std::move(current_owned);
        }
      }
      current_owned = std::move(next);
      current = current_owned.get();
      f = EvalTail(fn.body, current, input, has_path ? &path : nullptr, k);
    }
    return f;
  }

  WM_NOINLINE Flow EvalBuiltin(const ir::Node& n, Frame* frame, const Value& input, const Value* path, Cont k) {
    auto id = static_cast<ir::BuiltinId>(n.a);
    std::vector<Value> args(n.kids.size());
    if (ir::IsGeneratorBuiltin(id)) {
      // range: the first argument is the outermost loop ($from, then $upto, then $by).
      return EvalArgsForward(n, 0, frame, input, &args, [&]() { return RunRange(args, path, k); });
    }
    return EvalArgsBackward(n, n.kids.size(), frame, input, &args, [&]() {
      Value out, err;
      if (!ops::CallBuiltin(id, input, args.data(), args.size(), &out, &err)) return OpFailed(err);
      if (!Charge(out)) return Flow::kError;
      return EmitValue(out, path, k);
    });
  }

  // Arguments of value builtins: the last argument is the outermost loop (jq: pow(2,3; 1,2) is
  // 2,3,4,9).
  WM_NOINLINE Flow EvalArgsBackward(const ir::Node& n, size_t remaining, Frame* frame, const Value& input,
                        std::vector<Value>* args, FnRef<Flow()> k) {
    if (remaining == 0) return k();
    size_t i = remaining - 1;
    return Eval(n.kids[i], frame, input, nullptr, [&](const Value& v, const Value*) {
      (*args)[i] = v;
      return EvalArgsBackward(n, i, frame, input, args, k);
    });
  }

  WM_NOINLINE Flow EvalArgsForward(const ir::Node& n, size_t i, Frame* frame, const Value& input,
                       std::vector<Value>* args, FnRef<Flow()> k) {
    if (i == n.kids.size()) return k();
    return Eval(n.kids[i], frame, input, nullptr, [&](const Value& v, const Value*) {
      (*args)[i] = v;
      return EvalArgsForward(n, i + 1, frame, input, args, k);
    });
  }

  WM_NOINLINE Flow RunRange(const std::vector<Value>& args, const Value* path, Cont k) {
    for (const Value& a : args) {
      if (!a.IsNumber()) return SetError(Value::String("Range bounds must be numeric"));
    }
    double from = args[0].AsNumber();
    double upto = args[1].AsNumber();
    double by = args.size() > 2 ? args[2].AsNumber() : 1;
    if (by == 0 || std::isnan(by)) return Flow::kContinue;
    for (double x = from; by > 0 ? x < upto : x > upto; x += by) {
      if (!Step()) return Flow::kError;
      Flow f = EmitValue(Value::Number(x), path, k);
      if (f != Flow::kContinue) return f;
    }
    return Flow::kContinue;
  }

  static inline const Value kNoPathValue{};

  const ir::Program& program_;
  const eval_internal::TailCallAnalysis& tail_;
  EvalLimits limits_;
  const std::vector<Value>* globals_;
  eval_internal::StepBudget budget_;
  uint64_t fuel_left_ = 0;  // steps left in the current slice of budget_
  uint64_t memory_used_ = 0;
  eval_internal::WorkMeter meter_;  // what builtins charge: budget_, fuel_left_, memory_used_
  uint32_t depth_ = 0;
  uint64_t label_counter_ = 0;
  uint64_t break_label_ = 0;
  Value error_;
  bool error_is_limit_ = false;
  const char* stack_top_ = nullptr;
  size_t stack_budget_ = 0;
  // Where EvalTail records the tail call it hands to RunTailCalls (owned by the innermost
  // EvalBodyWithTailCalls in progress).
  PendingTailCall* pending_ = nullptr;
};

class Interpreter final : public Filter {
 public:
  explicit Interpreter(std::shared_ptr<const ir::Program> program)
      : Filter("interp"), program_(std::move(program)) {
    // The program may come from a bundle file: run it only once the verifier vouches for it.
    if (program_ == nullptr) {
      invalid_ = "no program";
    } else if (std::string why; !ir::Verify(*program_, &why)) {
      invalid_ = why;
    }
    if (invalid_.empty()) tail_ = std::make_unique<eval_internal::TailCallAnalysis>(*program_);
  }

  EvalStatus Run(const Value& input, const OutputFn& emit, EvalError* error,
                 const RunOptions& options) const override {
    if (!invalid_.empty()) {
      if (error != nullptr) *error = EvalError{Value::String("invalid program: " + invalid_), false};
      return EvalStatus::kError;
    }
    Evaluation evaluation(*program_, *tail_, options);
    return evaluation.Execute(input, emit, error);
  }

 private:
  std::shared_ptr<const ir::Program> program_;
  std::string invalid_;  // why the program cannot run; empty when it is sound
  std::unique_ptr<eval_internal::TailCallAnalysis> tail_;  // set when the program is sound
};

}  // namespace

std::unique_ptr<Filter> MakeInterpreter(std::shared_ptr<const ir::Program> program) {
  return std::make_unique<Interpreter>(std::move(program));
}

}  // namespace wm
