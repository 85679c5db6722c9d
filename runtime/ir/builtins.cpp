// The builtin table (builtins.h), expanded from builtins.def: names, arities, kinds and the
// signatures, parsed at compile time so that a malformed or arity-inconsistent row does not build.
#include "runtime/ir/builtins.h"

#include <string>

namespace wm::ir {
namespace {

constexpr BuiltinInfo kBuiltins[] = {
#define WM_BUILTIN(Enum, Name, Arity, Kind, Signature) \
  {BuiltinId::Enum, Name, Arity, BuiltinKind::k##Kind, Signature},
#include "runtime/ir/builtins.def"
};
static_assert(std::size(kBuiltins) == kBuiltinCount);

constexpr BuiltinSignature kSignatures[] = {
#define WM_BUILTIN(Enum, Name, Arity, Kind, Signature) ParseSignature(Signature),
#include "runtime/ir/builtins.def"
};

constexpr bool RowsAreConsistent() {
  for (size_t i = 0; i < kBuiltinCount; ++i) {
    if (kBuiltins[i].id != static_cast<BuiltinId>(i)) return false;
    if (!kSignatures[i].valid || kSignatures[i].arity != kBuiltins[i].arity) return false;
  }
  return true;
}
static_assert(RowsAreConsistent(),
              "builtins.def: every signature must parse and list one type set per argument");

constexpr BuiltinSignature kUnknownSignature = {kTypeAny, kTypeAny, 0, {}, true};

}  // namespace

std::span<const BuiltinInfo> AllBuiltins() { return kBuiltins; }

const BuiltinInfo* FindBuiltin(std::string_view name, size_t arity) {
  for (const BuiltinInfo& b : kBuiltins) {
    if (b.arity == arity && name == b.name) return &b;
  }
  return nullptr;
}

bool IsKnownBuiltin(BuiltinId id) { return static_cast<size_t>(id) < kBuiltinCount; }

const char* BuiltinName(BuiltinId id) {
  return IsKnownBuiltin(id) ? kBuiltins[static_cast<size_t>(id)].name : "?builtin";
}

int BuiltinArity(BuiltinId id) {
  return IsKnownBuiltin(id) ? kBuiltins[static_cast<size_t>(id)].arity : -1;
}

bool IsGeneratorBuiltin(BuiltinId id) {
  return IsKnownBuiltin(id) && kBuiltins[static_cast<size_t>(id)].kind == BuiltinKind::kGenerator;
}

const BuiltinSignature& BuiltinSignatureOf(BuiltinId id) {
  return IsKnownBuiltin(id) ? kSignatures[static_cast<size_t>(id)] : kUnknownSignature;
}

std::string TypeSetText(TypeSet types) {
  if (types == kTypeAny) return "any";
  if (types == kTypeNone) return "none";
  static constexpr const char* kNames[] = {"null", "boolean", "number", "string", "array", "object"};
  std::string text;
  for (size_t bit = 0; bit < std::size(kNames); ++bit) {
    if ((types >> bit) & 1) {
      if (!text.empty()) text += "|";
      text += kNames[bit];
    }
  }
  return text;
}

}  // namespace wm::ir
