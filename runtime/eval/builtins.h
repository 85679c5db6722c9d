// The table of native (C++) builtins the lowering may call with Op::CallBuiltin, and the ids of
// builtins added after ir::BuiltinId was frozen. Extra ids start at kFirstExtraBuiltin (above
// ir::BuiltinId::Count) so that ir.h's enum and its name table stay untouched; ops::CallBuiltin
// accepts both ranges. Names starting with '_' are internal helpers used by the jq prelude.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "runtime/ir/ir.h"

namespace wm::eval {

inline constexpr uint16_t kFirstExtraBuiltin = 256;

// Builtins beyond ir::BuiltinId (stored as ir::BuiltinId(kFirstExtraBuiltin + n)). Append only:
// bundles store the numbers.
enum class ExtraBuiltin : uint16_t {
  Acos = kFirstExtraBuiltin, Acosh, Asin, Asinh, Atan, Atanh, Cbrt, Cos, Cosh, Exp10, Exp2, Expm1,
  Gamma, J0, J1, Lgamma, Log1p, Logb, Nearbyint, Pow10, Rint, Sin, Sinh, Tan, Tanh, Tgamma, Y0,
  Y1, LgammaR, Frexp, Modf,
  Atan2, Copysign, Drem, Fdim, Fmax, Fmin, Fmod, Hypot, Ldexp, Nextafter, Nexttoward, Scalb,
  Scalbln, Fma,
  Trim, Ltrim, Rtrim,
  Range3,       // range(from; upto; by): a generator, like Range (interpreter handles both)
  Erf, Erfc,    // one-argument math, after the others because ids are append-only
  Jn, Yn, Remainder,  // two-argument math; jn/yn take the order as an integer
  End,          // keep last
};

constexpr ir::BuiltinId ToId(ExtraBuiltin e) { return static_cast<ir::BuiltinId>(e); }

struct NativeBuiltin {
  const char* name;   // as called from jq ("length", "_sort_by_impl", ...)
  int arity;          // number of (value) arguments; evaluated as a cartesian product
  ir::BuiltinId id;
};

// Every native builtin, for name resolution in the lowering and for `builtins`.
const std::vector<NativeBuiltin>& NativeBuiltins();
// The jq name of any builtin id (including extra ids); "?builtin" when unknown.
const char* NativeBuiltinName(ir::BuiltinId id);
// True for builtins that produce zero or more outputs (range); the interpreter runs them as
// generators and ops::CallBuiltin refuses them.
bool IsGeneratorBuiltin(ir::BuiltinId id);

}  // namespace wm::eval
