// The runtime side of the native ABI (native_abi.h): extern "C" shims over Value and ops.h, the
// function-pointer table handed to JIT and AOT code, and RunEntry, which runs one compiled entry
// point with Filter::Run's contract. No shim lets a C++ exception reach native frames.
#include "runtime/eval/native_abi.h"

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <cstring>
#include <utility>
#include <new>
#include <string>
#include <vector>

#include "runtime/eval/internal/step_budget.h"
#include "runtime/eval/internal/tail_calls.h"
#include "runtime/eval/internal/text.h"
#include "runtime/eval/ops.h"
#include "runtime/value/json.h"

namespace wm::native {
namespace {

static_assert(sizeof(WmValue) == sizeof(Value), "WmValue must mirror wm::Value");
static_assert(offsetof(WmValue, payload) == 8, "payload at offset 8");
static_assert(offsetof(WmCtx, consts) == 8 && offsetof(WmCtx, fuel) == 16 &&
                  offsetof(WmCtx, depth) == 24 && offsetof(WmCtx, max_depth) == 28 &&
                  offsetof(WmCtx, host) == 32,
              "generated code relies on these WmCtx offsets");
static_assert(offsetof(WmAbi, copy) == 8 &&
                  offsetof(WmAbi, check_pattern_key) == 8 + 8 * WM_ABI_CHECK_PATTERN_KEY &&
                  offsetof(WmAbi, check_object_key) == 8 + 8 * WM_ABI_CHECK_OBJECT_KEY &&
                  offsetof(WmAbi, check_stack) == 8 + 8 * WM_ABI_CHECK_STACK &&
                  offsetof(WmAbi, path_check) == 8 + 8 * WM_ABI_PATH_CHECK &&
                  sizeof(WmAbi) == 8 + 8 * WM_ABI_NUM_SLOTS,
              "WmAbiSlot numbering must follow the WmAbi field order");
static_assert(sizeof(std::pair<Value, Value>) == 32, "object members are iterated with stride 32");
static_assert(static_cast<int>(Kind::Number) == WM_KIND_NUMBER &&
                  static_cast<int>(Kind::String) == WM_KIND_STRING,
              "kind numbering shared with native code");

// State of one run that native code does not see (WmCtx::host).
struct HostState {
  const ir::Program* program = nullptr;
  const OutputFn* emit = nullptr;
  const std::vector<Value>* globals = nullptr;
  uint64_t outputs = 0;
  const EvalLimits* limits = nullptr;
  eval_internal::StepBudget* budget = nullptr;  // refills WmCtx::fuel slice by slice
  eval_internal::WorkMeter* meter = nullptr;     // what builtins charge (same fuel and memory)
  uint64_t memory_used = 0;   // bytes charged for values built, as the interpreter counts them
  uint64_t max_memory = 0;
  Value error;               // pending error value
  bool error_pending = false;
  bool error_is_limit = false;
  const char* stack_top = nullptr;  // an address near the top of the current stack (segment)
  size_t stack_budget = 0;          // bytes native code may use below it
  size_t stack_segment_bytes = 0;   // stack segments in use (ShimCallOnNewStack)
};

// Deep native recursion (jq's loops: the interpreter runs tail calls as loops, native code nests
// them) continues on fresh stack segments, up to kMaxNativeStack in all; past that it stops with
// the interpreter's stack-guard error.
constexpr size_t kStackSegment = 8u << 20;
constexpr size_t kGuardBytes = 4096;
constexpr size_t kMaxNativeStack = 1ull << 30;

// Bytes of the calling thread's stack below the current position that native recursion may use,
// keeping kStackReserve free for the continuation chain and library calls (the interpreter's
// stack guard reserves the same). The thread's bounds are looked up once per thread.
constexpr size_t kStackReserve = 512 * 1024;
size_t NativeStackBudget(const char* here) {
  thread_local const std::pair<const char*, size_t> bounds = [] {
    std::pair<const char*, size_t> result{nullptr, 8u << 20};
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr) {
        result = {static_cast<const char*>(addr), size};
      }
      pthread_attr_destroy(&attr);
    }
    return result;
  }();
  size_t size = bounds.second;
  if (bounds.first != nullptr && here > bounds.first && static_cast<size_t>(here - bounds.first) < size) {
    size = static_cast<size_t>(here - bounds.first);
  }
  return size > 2 * kStackReserve ? size - kStackReserve : size / 2;
}

HostState& Host(WmCtx* ctx) { return *static_cast<HostState*>(ctx->host); }
const Value& V(const WmValue* v) { return *reinterpret_cast<const Value*>(v); }
Value* MutV(WmValue* v) { return reinterpret_cast<Value*>(v); }
// Constructs a Value in uninitialised WmValue storage.
void Put(WmValue* out, Value v) { new (out) Value(std::move(v)); }

int32_t SetError(WmCtx* ctx, Value value, bool limit) {
  HostState& host = Host(ctx);
  host.error = std::move(value);
  host.error_pending = true;
  host.error_is_limit = limit;
  return WM_STATUS_ERROR;
}

int32_t Internal(WmCtx* ctx, const char* what) {
  return SetError(ctx, Value::String(std::string("internal error in native code: ") + what), false);
}

// Wraps a shim body: any exception (allocation failure, a throwing consumer) becomes an error.
template <typename Body>
int32_t Guarded(WmCtx* ctx, const char* what, Body&& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return SetError(ctx, Value::String("out of memory"), true);
  } catch (...) {
    return Internal(ctx, what);
  }
}

int32_t LimitError(WmCtx* ctx, const std::string& message) {
  return SetError(ctx, Value::String(message), true);
}

// The interpreter's memory accounting for a value it builds (see Evaluation::Charge).
int32_t Charge(WmCtx* ctx, const Value& v) {
  HostState& host = Host(ctx);
  size_t bytes = 16;
  if (v.IsString()) {
    bytes += v.AsString().size();
  } else if (v.IsArray()) {
    bytes += 16 * v.AsArray().size();
  } else if (v.IsObject()) {
    bytes += 48 * v.AsObject().size();
  }
  host.memory_used += bytes;
  if (host.memory_used > host.max_memory) {
    return LimitError(ctx, eval_internal::MemoryLimitMessage(host.max_memory));
  }
  return WM_STATUS_OK;
}

// A failed op's error, pending. A limit the op reached while charging its work (WorkMeter) stays
// a limit, which try cannot catch.
int32_t OpError(WmCtx* ctx, Value error) {
  HostState& host = Host(ctx);
  if (host.meter != nullptr && host.meter->TakeExceeded()) {
    return SetError(ctx, Value::String(host.meter->message()), true);
  }
  return SetError(ctx, std::move(error), false);
}

// An op that returns (ok, out, error) becomes a status with the error pending.
int32_t FromOp(WmCtx* ctx, bool ok, Value result, Value error, WmValue* out) {
  if (ok) {
    Put(out, std::move(result));
    return WM_STATUS_OK;
  }
  Put(out, Value());
  return OpError(ctx, std::move(error));
}


extern "C" {

void ShimCopy(WmValue* dst, const WmValue* src) { new (dst) Value(V(src)); }

void ShimRelease(WmValue* v) {
  MutV(v)->~Value();
  new (v) Value();
}

const WmValue* ShimIndex(WmCtx* ctx, const WmValue* t, const WmValue* k, WmValue* scratch) {
  new (scratch) Value();
  const Value& target = V(t);
  const Value& key = V(k);
  // Fast path: borrow object members instead of copying them.
  if (target.IsObject() && key.IsString()) {
    const Value* found = target.Find(key.AsString());
    return found != nullptr ? reinterpret_cast<const WmValue*>(found) : scratch;
  }
  int32_t status = Guarded(ctx, "index", [&]() -> int32_t {
    Value result, error;
    bool ok = ops::Index(target, key, &result, &error);
    MutV(scratch)->~Value();
    return FromOp(ctx, ok, std::move(result), std::move(error), scratch);
  });
  return status == WM_STATUS_OK ? scratch : nullptr;
}

int32_t ShimSlice(WmCtx* ctx, const WmValue* t, const WmValue* from, const WmValue* to,
                  WmValue* out) {
  new (out) Value();
  return Guarded(ctx, "slice", [&]() -> int32_t {
    Value result, error;
    bool ok = ops::Slice(V(t), V(from), V(to), &result, &error);
    MutV(out)->~Value();
    return FromOp(ctx, ok, std::move(result), std::move(error), out);
  });
}

int32_t ShimIterate(WmCtx* ctx, const WmValue* t, const WmValue** first, int64_t* count,
                    int64_t* stride) {
  const Value& target = V(t);
  if (target.IsArray()) {
    const Array& elements = target.AsArray();
    *first = reinterpret_cast<const WmValue*>(elements.data());
    *count = static_cast<int64_t>(elements.size());
    *stride = sizeof(Value);
    return WM_STATUS_OK;
  }
  if (target.IsObject()) {
    const std::vector<Member>& members = target.AsObject();
    *first = members.empty() ? nullptr : reinterpret_cast<const WmValue*>(&members.front().second);
    *count = static_cast<int64_t>(members.size());
    *stride = sizeof(Member);
    return WM_STATUS_OK;
  }
  *first = nullptr;
  *count = 0;
  *stride = 0;
  // Not iterable: let the shared op word the error exactly as the interpreter does.
  return Guarded(ctx, "iterate", [&]() -> int32_t {
    Array ignored;
    Value error;
    if (ops::IterateInto(target, &ignored, &error)) return Internal(ctx, "iterate");
    return SetError(ctx, std::move(error), false);
  });
}

int32_t ShimBinary(WmCtx* ctx, uint32_t op, const WmValue* lhs, const WmValue* rhs,
                   WmValue* out) {
  new (out) Value();
  return Guarded(ctx, "binary", [&]() -> int32_t {
    Value result, error;
    bool ok = ops::Binary(static_cast<ir::BinaryOp>(op), V(lhs), V(rhs), &result, &error);
    MutV(out)->~Value();
    int32_t status = FromOp(ctx, ok, std::move(result), std::move(error), out);
    const Value& built = V(out);
    if (status == WM_STATUS_OK && (built.IsString() || built.IsArray() || built.IsObject())) {
      status = Charge(ctx, V(rhs));  // what the interpreter charges for a built operand
    }
    return status;
  });
}

int32_t ShimNegate(WmCtx* ctx, const WmValue* v, WmValue* out) {
  new (out) Value();
  return Guarded(ctx, "negate", [&]() -> int32_t {
    Value result, error;
    bool ok = ops::Negate(V(v), &result, &error);
    MutV(out)->~Value();
    return FromOp(ctx, ok, std::move(result), std::move(error), out);
  });
}

int32_t ShimCallBuiltin(WmCtx* ctx, uint32_t builtin, const WmValue* input,
                        const WmValue* const* args, uint32_t nargs, WmValue* out) {
  new (out) Value();
  return Guarded(ctx, "builtin", [&]() -> int32_t {
    std::vector<Value> values;
    values.reserve(nargs);
    for (uint32_t i = 0; i < nargs; ++i) values.push_back(V(args[i]));
    Value result, error;
    bool ok = ops::CallBuiltin(static_cast<ir::BuiltinId>(builtin), V(input), values.data(),
                               values.size(), &result, &error);
    MutV(out)->~Value();
    int32_t status = FromOp(ctx, ok, std::move(result), std::move(error), out);
    return status == WM_STATUS_OK ? Charge(ctx, V(out)) : status;
  });
}

int32_t ShimFormat(WmCtx* ctx, uint32_t node, const WmValue* v, WmValue* out) {
  new (out) Value();
  return Guarded(ctx, "format", [&]() -> int32_t {
    const ir::Program& program = *Host(ctx).program;
    if (node >= program.nodes.size()) return Internal(ctx, "format node");
    Value result, error;
    bool ok = ops::ApplyFormat(program.nodes[node].str, V(v), &result, &error);
    // Also called for each part of a non-text interpolation as it arrives (emit.cpp), which is
    // where the interpreter charges it; string_interp then charges only text parts.
    if (ok) ok = eval_internal::ChargeFormat(V(v), result, &error);
    MutV(out)->~Value();
    int32_t status = FromOp(ctx, ok, std::move(result), std::move(error), out);
    return status == WM_STATUS_OK ? Charge(ctx, V(out)) : status;
  });
}

int32_t ShimStringInterp(WmCtx* ctx, uint32_t node, const WmValue* const* parts, WmValue* out) {
  new (out) Value();
  return Guarded(ctx, "string interpolation", [&]() -> int32_t {
    const ir::Program& program = *Host(ctx).program;
    if (node >= program.nodes.size()) return Internal(ctx, "interpolation node");
    const ir::Node& n = program.nodes[node];
    std::string format = n.str.empty() ? "text" : n.str;
    // Parts are formatted from the last to the first, as jq (and the interpreter) formats each
    // value as it is produced with the last part as the outermost loop: when several parts
    // cannot be formatted, the error reported is the last part's.
    std::vector<std::string> pieces(n.kids.size());
    for (size_t i = n.kids.size(); i-- > 0;) {
      const ir::Node& part = program.nodes[n.kids[i]];
      const Value& value = V(parts[i]);
      if (part.op == ir::Op::Const && value.IsString()) {
        pieces[i] = std::string(value.AsString());
        continue;
      }
      Value formatted, error;
      if (!ops::ApplyFormat(format, value, &formatted, &error) ||
          (format == "text" && !eval_internal::ChargeFormat(value, formatted, &error))) {
        return OpError(ctx, std::move(error));
      }
      if (!formatted.IsString()) return Internal(ctx, "format result");
      pieces[i] = std::string(formatted.AsString());
    }
    std::string text;
    for (const std::string& piece : pieces) text += piece;
    MutV(out)->~Value();
    Put(out, Value::String(text));
    return Charge(ctx, V(out));
  });
}

int32_t ShimCheckObjectKey(WmCtx* ctx, const WmValue* key) {
  return Guarded(ctx, "object construction", [&]() -> int32_t {
    const Value& k = V(key);
    if (k.IsString()) return WM_STATUS_OK;
    return SetError(ctx, Value::String("Cannot use " + eval_internal::Describe(k) + " as object key"),
                    false);
  });
}

int32_t ShimMakeObject(WmCtx* ctx, const WmValue* const* kv, uint32_t npairs, WmValue* out) {
  new (out) Value();
  return Guarded(ctx, "object construction", [&]() -> int32_t {
    std::vector<Member> members;
    members.reserve(npairs);
    for (uint32_t i = 0; i < npairs; ++i) {
      // Native code has already checked each key on insertion; this keeps the shim safe alone.
      int32_t key_status = ShimCheckObjectKey(ctx, kv[2 * i]);
      if (key_status != WM_STATUS_OK) return key_status;
      members.emplace_back(V(kv[2 * i]), V(kv[2 * i + 1]));
    }
    MutV(out)->~Value();
    Put(out, Value::MakeObject(std::move(members)));
    return Charge(ctx, V(out));
  });
}

void ShimArrayNew(WmValue* out) { new (out) Value(Value::EmptyArray()); }

int32_t ShimArrayPush(WmCtx* ctx, WmValue* array, const WmValue* v) {
  return Guarded(ctx, "collect", [&]() -> int32_t {
    MutV(array)->MutableArray().push_back(V(v));
    HostState& host = Host(ctx);
    host.memory_used += 16;
    if (host.memory_used > host.max_memory) {
      return LimitError(ctx, eval_internal::MemoryLimitMessage(host.max_memory));
    }
    return WM_STATUS_OK;
  });
}

int32_t ShimEmit(WmCtx* ctx, const WmValue* v) {
  HostState& host = Host(ctx);
  if (++host.outputs >= host.limits->max_outputs) return LimitError(ctx, eval_internal::OutputLimitMessage(*host.limits));
  return Guarded(ctx, "output callback", [&]() -> int32_t {
    return (*host.emit)(V(v)) ? WM_STATUS_OK : WM_STATUS_STOP;
  });
}

int32_t ShimRaiseError(WmCtx* ctx, const WmValue* v) { return SetError(ctx, V(v), false); }

// Native code calls this when WmCtx::fuel reaches 0: the next slice of the step budget, charged
// for the step that asked (status ok, the code continues), unless the budget is spent or the
// time limit has passed (this is where native code's clock is read, once per slice).
int32_t ShimLimitExceeded(WmCtx* ctx, uint32_t which) {
  if (which == WM_LIMIT_FUEL) {
    std::string message;
    uint64_t slice = Host(ctx).budget->NextSlice(&message);
    if (slice == 0) return LimitError(ctx, message);
    ctx->fuel = slice - 1;
    return WM_STATUS_OK;
  }
  return LimitError(ctx, "maximum recursion depth exceeded (" + std::to_string(ctx->max_depth) + ")");
}

int32_t ShimCatchError(WmCtx* ctx, WmValue* out) {
  HostState& host = Host(ctx);
  if (!host.error_pending || host.error_is_limit) {
    new (out) Value();
    return 0;
  }
  new (out) Value(std::move(host.error));
  host.error = Value();
  host.error_pending = false;
  return 1;
}

void ShimBindGlobals(WmCtx* ctx, WmValue* frame, uint32_t nslots) {
  const std::vector<Value>* globals = Host(ctx).globals;
  if (globals == nullptr) return;
  for (size_t i = 0; i < globals->size() && i < nslots; ++i) {
    // A bitwise copy: frames hold borrowed values and the globals outlive the run.
    std::memcpy(static_cast<void*>(&frame[i]), static_cast<const void*>(&(*globals)[i]),
                sizeof(WmValue));
  }
}

int32_t ShimRecurseAll(WmCtx* ctx, WmValue* frame, const WmValue* v, WmCont k, void* kenv) {
  // Pre-order walk with an explicit stack (user data may be deeply nested).
  struct Level {
    const WmValue* first;
    int64_t count;
    int64_t stride;
    int64_t next;
  };
  std::vector<Level> stack;
  const WmValue* current = v;
  for (;;) {
    if (current != nullptr) {
      if (ctx->fuel == 0) {
        int32_t refilled = ShimLimitExceeded(ctx, WM_LIMIT_FUEL);
        if (refilled != WM_STATUS_OK) return refilled;
      } else {
        --ctx->fuel;
      }
      int32_t status = k(ctx, frame, current, kenv);
      if (status != WM_STATUS_OK) return status;
      const Value& value = V(current);
      if (value.IsArray() || value.IsObject()) {
        Level level{nullptr, 0, 0, 0};
        ShimIterate(ctx, current, &level.first, &level.count, &level.stride);
        stack.push_back(level);
      }
      current = nullptr;
    }
    if (stack.empty()) return WM_STATUS_OK;
    Level& top = stack.back();
    if (top.next == top.count) {
      stack.pop_back();
      continue;
    }
    current = reinterpret_cast<const WmValue*>(reinterpret_cast<const char*>(top.first) +
                                               top.next * top.stride);
    ++top.next;
  }
}

int32_t ShimCheckRangeArgs(WmCtx* ctx, const WmValue* const* args, uint32_t nargs) {
  for (uint32_t i = 0; i < nargs; ++i) {
    if (!V(args[i]).IsNumber()) {
      return SetError(ctx, Value::String("Range bounds must be numeric"), false);
    }
  }
  return WM_STATUS_OK;
}

int32_t ShimCheckPatternKey(WmCtx* ctx, const WmValue* object, const WmValue* key) {
  if (V(key).IsString()) return WM_STATUS_OK;
  return SetError(ctx,
                  Value::String(std::string("Cannot index ") + KindName(V(object).kind()) +
                                " with " + KindName(V(key).kind())),
                  false);
}

int32_t ShimCheckStack(WmCtx* ctx) {
  const HostState& host = Host(ctx);
  return host.stack_top != nullptr &&
                 static_cast<size_t>(host.stack_top - eval_internal::StackPosition()) > host.stack_budget
             ? 1
             : 0;
}

// A call made on a fresh stack segment (see ShimCallOnNewStack); handed to the segment's entry
// through a thread-local, as makecontext passes only ints.
struct SegmentCall {
  WmCont fn;
  WmCtx* ctx;
  WmValue* frame;
  const WmValue* input;
  void* env;
  int32_t status;
};
thread_local SegmentCall* t_segment_call = nullptr;

void RunSegmentCall() {
  SegmentCall* call = t_segment_call;
  call->status = call->fn(call->ctx, call->frame, call->input, call->env);
}

int32_t ShimCallOnNewStack(WmCtx* ctx, WmCont fn, WmValue* frame, const WmValue* input, void* env) {
  HostState& host = Host(ctx);
  const char* const kStackMessage = "maximum evaluation depth exceeded (stack)";
  if (host.stack_segment_bytes + kStackSegment > kMaxNativeStack) return LimitError(ctx, kStackMessage);
  void* memory = mmap(nullptr, kStackSegment, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (memory == MAP_FAILED) return LimitError(ctx, kStackMessage);
  char* base = static_cast<char*>(memory);
  mprotect(base, kGuardBytes, PROT_NONE);  // an overflow faults instead of corrupting memory
  SegmentCall call{fn, ctx, frame, input, env, WM_STATUS_ERROR};
  ucontext_t caller, segment;
  getcontext(&segment);
  segment.uc_stack.ss_sp = base;
  segment.uc_stack.ss_size = kStackSegment;
  segment.uc_link = &caller;
  makecontext(&segment, RunSegmentCall, 0);
  SegmentCall* outer_call = t_segment_call;
  const char* outer_top = host.stack_top;
  size_t outer_budget = host.stack_budget;
  t_segment_call = &call;
  host.stack_top = base + kStackSegment;
  host.stack_budget = kStackSegment - kStackReserve;
  host.stack_segment_bytes += kStackSegment;
  swapcontext(&caller, &segment);
  host.stack_segment_bytes -= kStackSegment;
  host.stack_top = outer_top;
  host.stack_budget = outer_budget;
  t_segment_call = outer_call;
  munmap(memory, kStackSegment);
  return call.status;
}

}  // extern "C"

// ---- path mode (the interpreter's path tracking, runtime/eval/interpreter.cpp)

Value Extend(const Value& path, const Value& key) {
  Array extended = path.AsArray();
  extended.push_back(key);
  return Value::MakeArray(std::move(extended));
}

int32_t InvalidPathAccess(WmCtx* ctx, const Value& target, const Value& key) {
  return SetError(ctx,
                  Value::String("Invalid path expression near attempt to access element " + eval_internal::TruncatedJson(key, 15) +
                                " of " + eval_internal::TruncatedJson(target, 30)),
                  false);
}

// Out pairs start as two nulls, so native code may release them whatever happens.
void PutNullPair(WmValue* out) {
  new (out) Value();
  new (out + 1) Value();
}

void SetPair(WmValue* out, Value value, Value path) {
  *MutV(out) = std::move(value);
  *MutV(out + 1) = std::move(path);
}

// One step of fuel per value visited by `..`, as Step in the interpreter's Recurse.
int32_t TickFuel(WmCtx* ctx) {
  if (ctx->fuel == 0) return ShimLimitExceeded(ctx, WM_LIMIT_FUEL);
  --ctx->fuel;
  return WM_STATUS_OK;
}

int32_t RecursePaths(WmCtx* ctx, WmValue* frame, const Value& v, const Value& path, WmCont k, void* kenv) {
  int32_t status = TickFuel(ctx);
  if (status != WM_STATUS_OK) return status;
  Value pair[2] = {v, path};
  status = k(ctx, frame, reinterpret_cast<const WmValue*>(pair), kenv);
  if (status != WM_STATUS_OK) return status;
  if (v.IsArray()) {
    const Array& items = v.AsArray();
    for (size_t i = 0; i < items.size(); ++i) {
      Value child_path = path.IsArray() ? Extend(path, Value::Number(double(i))) : Value();
      status = RecursePaths(ctx, frame, items[i], child_path, k, kenv);
      if (status != WM_STATUS_OK) return status;
    }
  } else if (v.IsObject()) {
    for (const Member& m : v.AsObject()) {
      Value child_path = path.IsArray() ? Extend(path, m.first) : Value();
      status = RecursePaths(ctx, frame, m.second, child_path, k, kenv);
      if (status != WM_STATUS_OK) return status;
    }
  }
  return WM_STATUS_OK;
}

extern "C" {

int32_t ShimPathIndex(WmCtx* ctx, const WmValue* target, const WmValue* key, WmValue* out) {
  PutNullPair(out);
  return Guarded(ctx, "path index", [&]() -> int32_t {
    const Value& t = V(target);
    const Value& path = V(target + 1);
    if (!path.IsArray()) return InvalidPathAccess(ctx, t, V(key));
    Value result, error;
    if (!ops::Index(t, V(key), &result, &error)) return OpError(ctx, std::move(error));
    SetPair(out, std::move(result), Extend(path, V(key)));
    return WM_STATUS_OK;
  });
}

int32_t ShimPathSlice(WmCtx* ctx, const WmValue* target, const WmValue* from, const WmValue* to,
                      WmValue* out) {
  PutNullPair(out);
  return Guarded(ctx, "path slice", [&]() -> int32_t {
    const Value& t = V(target);
    Value result, error;
    if (!ops::Slice(t, V(from), V(to), &result, &error)) return OpError(ctx, std::move(error));
    Value key = Value::MakeObject({{Value::String("start"), V(from)}, {Value::String("end"), V(to)}});
    if (!V(target + 1).IsArray()) return InvalidPathAccess(ctx, t, key);
    SetPair(out, std::move(result), Extend(V(target + 1), key));
    return WM_STATUS_OK;
  });
}

int32_t ShimPathIterate(WmCtx* ctx, WmValue* frame, const WmValue* target, WmCont k, void* kenv) {
  return Guarded(ctx, "path iterate", [&]() -> int32_t {
    Value t = V(target);  // held: k may not keep the pair it got alive
    const Value& path = V(target + 1);
    if (!path.IsArray() && (t.IsArray() || t.IsObject())) {
      return SetError(ctx,
                      Value::String("Invalid path expression near attempt to iterate through " + eval_internal::TruncatedJson(t, 30)),
                      false);
    }
    if (t.IsArray()) {
      const Array& items = t.AsArray();
      for (size_t i = 0; i < items.size(); ++i) {
        Value pair[2] = {items[i], Extend(path, Value::Number(double(i)))};
        int32_t status = k(ctx, frame, reinterpret_cast<const WmValue*>(pair), kenv);
        if (status != WM_STATUS_OK) return status;
      }
      return WM_STATUS_OK;
    }
    if (t.IsObject()) {
      for (const Member& m : t.AsObject()) {
        Value pair[2] = {m.second, Extend(path, m.first)};
        int32_t status = k(ctx, frame, reinterpret_cast<const WmValue*>(pair), kenv);
        if (status != WM_STATUS_OK) return status;
      }
      return WM_STATUS_OK;
    }
    Array ignored;
    Value error;
    if (ops::IterateInto(t, &ignored, &error)) return Internal(ctx, "path iterate");
    return OpError(ctx, std::move(error));
  });
}

int32_t ShimPathRecurse(WmCtx* ctx, WmValue* frame, const WmValue* v, WmCont k, void* kenv) {
  return Guarded(ctx, "path recurse", [&]() -> int32_t {
    Value root = V(v);
    return RecursePaths(ctx, frame, root, V(v + 1), k, kenv);
  });
}

int32_t ShimPathGetpath(WmCtx* ctx, const WmValue* input, const WmValue* input_path,
                        const WmValue* keys, WmValue* out) {
  PutNullPair(out);
  return Guarded(ctx, "getpath", [&]() -> int32_t {
    Value result, error;
    Value arg = V(keys);
    if (!ops::CallBuiltin(ir::BuiltinId::GetPath, V(input), &arg, 1, &result, &error)) {
      return OpError(ctx, std::move(error));
    }
    if (input_path == nullptr) {
      SetPair(out, std::move(result), Value());
      return WM_STATUS_OK;
    }
    const Value& path = V(input_path);
    if (!path.IsArray()) return InvalidPathAccess(ctx, V(input), arg);
    Array full = path.AsArray();
    if (arg.IsArray()) {
      for (const Value& key : arg.AsArray()) full.push_back(key);
    }
    SetPair(out, std::move(result), Value::MakeArray(std::move(full)));
    return WM_STATUS_OK;
  });
}

void ShimPathVar(const WmValue* value, const WmValue* bound_path, const WmValue* input, WmValue* out) {
  PutNullPair(out);
  const Value& path = V(bound_path);
  if (path.IsArray()) {
    SetPair(out, V(value), path);
  } else if (V(input + 1).IsArray() && Identical(V(value), V(input))) {
    SetPair(out, V(value), V(input + 1));
  } else {
    SetPair(out, V(value), Value());
  }
}

int32_t ShimPathCheck(WmCtx* ctx, const WmValue* pair) {
  if (V(pair + 1).IsArray()) return WM_STATUS_OK;
  return Guarded(ctx, "path check", [&]() -> int32_t {
    return SetError(ctx, Value::String("Invalid path expression with result " + eval_internal::TruncatedJson(V(pair), 30)), false);
  });
}

}  // extern "C"

const WmAbi kAbi = {
    WM_NATIVE_ABI_VERSION,
    WM_ABI_NUM_SLOTS,
    ShimCopy,
    ShimRelease,
    ShimIndex,
    ShimSlice,
    ShimIterate,
    ShimBinary,
    ShimNegate,
    ShimCallBuiltin,
    ShimFormat,
    ShimStringInterp,
    ShimMakeObject,
    ShimArrayNew,
    ShimArrayPush,
    ShimEmit,
    ShimRaiseError,
    ShimLimitExceeded,
    ShimCatchError,
    ShimBindGlobals,
    ShimRecurseAll,
    ShimCheckRangeArgs,
    ShimCheckPatternKey,
    ShimCheckObjectKey,
    ShimCheckStack,
    ShimCallOnNewStack,
    ShimPathIndex,
    ShimPathSlice,
    ShimPathIterate,
    ShimPathRecurse,
    ShimPathGetpath,
    ShimPathVar,
    ShimPathCheck,
};

}  // namespace

TailCallFacts::TailCallFacts(const ir::Program& program)
    : analysis_(std::make_unique<eval_internal::TailCallAnalysis>(program)) {}
TailCallFacts::~TailCallFacts() = default;

TailCallFacts::Count TailCallFacts::CountOf(ir::NodeId id) const {
  switch (analysis_->Count(id)) {
    case eval_internal::OutputCount::kAtMostOne: return Count::kAtMostOne;
    case eval_internal::OutputCount::kOneIfClosures: return Count::kOneIfClosures;
    case eval_internal::OutputCount::kMany: break;
  }
  return Count::kMany;
}

bool TailCallFacts::ReachesTailCall(ir::NodeId id) const { return analysis_->ReachesTailCall(id); }

bool TailCallFacts::IsRecursive(uint32_t function) const { return analysis_->IsRecursive(function); }

bool TailCallFacts::CountedChildren(const ir::Node& node, std::vector<ir::NodeId>* kids) {
  return eval_internal::TailCallAnalysis::ForEachCountedChild(node, [&](ir::NodeId kid) {
    kids->push_back(kid);
    return true;
  });
}

EvalStatus RunEntry(WmEntry entry, const ir::Program& program, const Value& input,
                    const OutputFn& emit, EvalError* error, const RunOptions& options) {
  HostState host;
  host.program = &program;
  host.emit = &emit;
  host.globals = options.globals;
  host.limits = &options.limits;
  eval_internal::StepBudget budget(options.limits);
  host.budget = &budget;
  host.max_memory = options.limits.max_memory_bytes;
  host.stack_top = eval_internal::StackPosition();
  host.stack_budget = NativeStackBudget(host.stack_top);
  WmCtx ctx;
  ctx.abi = &kAbi;
  ctx.consts = reinterpret_cast<const WmValue*>(program.consts.data());
  ctx.fuel = budget.FirstSlice();
  ctx.depth = 0;
  ctx.max_depth = options.limits.max_depth;
  ctx.host = &host;
  eval_internal::WorkMeter meter(&budget, &ctx.fuel, &host.memory_used, host.max_memory);
  host.meter = &meter;
  eval_internal::WorkMeterScope metering(&meter);
  int32_t status = entry(&ctx, reinterpret_cast<const WmValue*>(&input));
  LastEvaluationSteps() = budget.Used(ctx.fuel);
  if (status == WM_STATUS_OK) return EvalStatus::kOk;
  if (status == WM_STATUS_STOP) return EvalStatus::kStopped;
  if (error != nullptr) {
    if (status == WM_STATUS_ERROR && host.error_pending) {
      error->value = std::move(host.error);
      error->limit = host.error_is_limit;
    } else {
      // A break whose label is not active (cannot happen for lowered programs).
      error->value = Value::String("break without an active label");
      error->limit = false;
    }
  }
  return EvalStatus::kError;
}

}  // namespace wm::native

extern "C" const WmAbi* wm_native_abi(void) { return &wm::native::kAbi; }
