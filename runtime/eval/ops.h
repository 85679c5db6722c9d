// Value-level operations shared by the interpreter and by native code (JIT/AOT call them through
// the C shims of runtime/eval/native_abi.h). Each returns true and sets *out, or returns false and
// sets *error to the jq error value (a string message exactly as jq 1.7 words it, e.g.
// `Cannot index number with "a"`). None of them throws.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/ir/ir.h"
#include "runtime/value/value.h"

namespace wm::ops {

// .[key] on target: object by string key, array by number (floor, negative from end), null -> null.
bool Index(const Value& target, const Value& key, Value* out, Value* error);
// .[from:to] on arrays, strings (by codepoint) and null; a null bound means open.
bool Slice(const Value& target, const Value& from, const Value& to, Value* out, Value* error);
// The values .[] yields, appended to *out; error if target is not an array or object.
bool IterateInto(const Value& target, Array* out, Value* error);
// Arithmetic and comparison with jq's rules (object merge, array difference, string repeat, ...).
bool Binary(ir::BinaryOp op, const Value& lhs, const Value& rhs, Value* out, Value* error);
bool Negate(const Value& v, Value* out, Value* error);
// A builtin applied to its input and already-evaluated value arguments (one output).
bool CallBuiltin(ir::BuiltinId id, const Value& input, const Value* args, size_t nargs, Value* out,
                 Value* error);
// @text, @json, @base64, ... applied to v.
bool ApplyFormat(std::string_view format, const Value& v, Value* out, Value* error);

}  // namespace wm::ops
