// The native builtin table of the IR, derived from builtins.def: ir::BuiltinId (one contiguous
// range), each builtin's name, arity, kind (value or generator) and type signature. The lowering
// resolves names with FindBuiltin, the verifier and the dump use the accessors, the interpreter
// dispatches on the id (runtime/eval/builtins.cpp), and the type checker reads BuiltinSignatureOf.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace wm::ir {

enum class BuiltinId : uint16_t {
#define WM_BUILTIN(Enum, Name, Arity, Kind, Signature) Enum,
#include "runtime/ir/builtins.def"
  Count,  // keep last; not a builtin
};

inline constexpr size_t kBuiltinCount = static_cast<size_t>(BuiltinId::Count);
inline constexpr size_t kMaxBuiltinArity = 3;

// ---- type signatures

// A set of JSON types, one bit per type (booleans are one type).
using TypeSet = uint8_t;
inline constexpr TypeSet kTypeNull = 1u << 0;
inline constexpr TypeSet kTypeBoolean = 1u << 1;
inline constexpr TypeSet kTypeNumber = 1u << 2;
inline constexpr TypeSet kTypeString = 1u << 3;
inline constexpr TypeSet kTypeArray = 1u << 4;
inline constexpr TypeSet kTypeObject = 1u << 5;
inline constexpr TypeSet kTypeAny = 0x3F;
inline constexpr TypeSet kTypeNone = 0;

struct BuiltinSignature {
  TypeSet input = kTypeAny;   // input types it can succeed on; any other input is a type error
  TypeSet output = kTypeAny;  // types of its outputs (kTypeNone: it never produces one)
  uint8_t arity = 0;
  std::array<TypeSet, kMaxBuiltinArity> args{};  // value types of each argument (< arity)
  bool valid = false;         // false when the text did not parse
};

// Parses "(ARG; ...) INPUT -> OUTPUT" where each part is `any`, `none` or type names joined by
// `|` (null boolean number string array object). Returns valid = false on a syntax error, so a
// malformed row of builtins.def fails the static_assert in builtins.cpp.
constexpr BuiltinSignature ParseSignature(std::string_view text);

// "null|number", "any", "none".
std::string TypeSetText(TypeSet types);

// ---- the table

enum class BuiltinKind : uint8_t {
  kValue,      // one output per combination of argument values
  kGenerator,  // zero or more outputs (range): engines loop over them
};

struct BuiltinInfo {
  BuiltinId id;
  const char* name;       // as resolved by the lowering, e.g. "length", "_sort_by_impl"
  uint8_t arity;          // number of argument filters
  BuiltinKind kind;
  const char* signature;  // the text of builtins.def, e.g. "(string) string -> boolean"
};

// Every builtin, in id order (AllBuiltins()[i].id == BuiltinId(i)).
std::span<const BuiltinInfo> AllBuiltins();
// The builtin the lowering calls for `name/arity`, or null.
const BuiltinInfo* FindBuiltin(std::string_view name, size_t arity);

bool IsKnownBuiltin(BuiltinId id);      // id < BuiltinId::Count
const char* BuiltinName(BuiltinId id);  // "?builtin" when unknown
int BuiltinArity(BuiltinId id);         // -1 when unknown
bool IsGeneratorBuiltin(BuiltinId id);  // false when unknown
// The parsed signature; an unknown id gets the all-`any` signature.
const BuiltinSignature& BuiltinSignatureOf(BuiltinId id);

// ---- implementation of ParseSignature (constexpr, so it lives in the header)

namespace signature_internal {

struct Cursor {
  std::string_view text;
  size_t pos = 0;
  bool ok = true;

  constexpr void SkipSpace() {
    while (pos < text.size() && text[pos] == ' ') ++pos;
  }
  constexpr bool Eat(std::string_view token) {
    SkipSpace();
    if (text.substr(pos, token.size()) != token) return false;
    pos += token.size();
    return true;
  }
  constexpr TypeSet Word() {
    SkipSpace();
    size_t begin = pos;
    while (pos < text.size() && text[pos] >= 'a' && text[pos] <= 'z') ++pos;
    std::string_view word = text.substr(begin, pos - begin);
    if (word == "null") return kTypeNull;
    if (word == "boolean") return kTypeBoolean;
    if (word == "number") return kTypeNumber;
    if (word == "string") return kTypeString;
    if (word == "array") return kTypeArray;
    if (word == "object") return kTypeObject;
    if (word == "any") return kTypeAny;
    if (word == "none") return kTypeNone;
    ok = false;
    return kTypeNone;
  }
  // `a|b|c`, `any` or `none`.
  constexpr TypeSet Types() {
    TypeSet set = Word();
    while (ok && Eat("|")) set |= Word();
    return set;
  }
};

}  // namespace signature_internal

constexpr BuiltinSignature ParseSignature(std::string_view text) {
  signature_internal::Cursor in{text};
  BuiltinSignature sig;
  if (in.Eat("(")) {
    do {
      if (sig.arity == kMaxBuiltinArity) return sig;
      sig.args[sig.arity++] = in.Types();
    } while (in.ok && in.Eat(";"));
    if (!in.Eat(")")) return sig;
  }
  sig.input = in.Types();
  if (!in.ok || !in.Eat("->")) return sig;
  sig.output = in.Types();
  in.SkipSpace();
  sig.valid = in.ok && in.pos == text.size();
  return sig;
}

}  // namespace wm::ir
