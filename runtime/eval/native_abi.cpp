// The runtime side of the native ABI (native_abi.h): extern "C" shims over Value and ops.h, the
// function-pointer table handed to JIT and AOT code, and RunEntry, which runs one compiled entry
// point with Filter::Run's contract. No shim lets a C++ exception reach native frames.
#include "runtime/eval/native_abi.h"

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "runtime/eval/internal/step_budget.h"
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
};

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
};

}  // namespace

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
