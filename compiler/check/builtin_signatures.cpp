// The builtin signature table (internal/builtin_signatures.h): one row per jq name/arity the
// checker knows. For a native IR builtin the input and result kinds come from its signature in
// runtime/ir/builtins.def (kFromIr); the rows keep only the WM213 wording, the effect, the kinds
// of jq-defined prelude functions (map, select, ...) and the overrides where the checker differs.
#include "compiler/check/internal/builtin_signatures.h"

#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compiler/check/internal/types.h"

namespace wm::check::internal {
namespace {

using E = BuiltinEffect;

constexpr uint8_t kAnyInput = 0;
// In `accepts` or `kinds`: take it from the IR signature of the builtin name/arity.
constexpr uint8_t kFromIr = 0xFF;
static_assert((kNull | kBool | kNumeric | kStr | kArr | kObj) != kFromIr);
constexpr uint8_t kAll = kNull | kBool | kNumeric | kStr | kArr | kObj;
constexpr uint8_t kMeasurable = kNull | kNumeric | kStr | kArr | kObj;  // what length accepts
constexpr uint8_t kScalars = kNull | kBool | kNumeric | kStr;
constexpr std::string_view kArray = "an array";
constexpr std::string_view kString = "a string";
constexpr std::string_view kNumber = "a number";

constexpr BuiltinSignature kSignatures[] = {
    // name, arity, accepted input, what it needs, effect, result (or kept) kinds
    {"empty", 0, kAnyInput, "", E::kNoOutput, 0},
    {"error", 1, kFromIr, "", E::kNoOutput, 0},
    {"not", 0, kFromIr, "", E::kFixed, kFromIr},
    {"length", 0, kFromIr, "a string, array, object, number or null", E::kFixed, kFromIr},
    // Input override: the IR accepts only strings; the checker has always let null, numbers,
    // arrays and objects through (WM213 names them as what it needs).
    {"utf8bytelength", 0, kMeasurable, "a string, array, object, number or null", E::kFixed, kFromIr},
    {"keys", 0, kFromIr, "an object or array", E::kKeys, 0},
    {"keys_unsorted", 0, kFromIr, "an object or array", E::kKeys, 0},
    {"tostring", 0, kFromIr, "", E::kFixed, kFromIr},
    {"tojson", 0, kFromIr, "", E::kFixed, kFromIr},
    {"type", 0, kFromIr, "", E::kFixed, kFromIr},
    {"@text", 0, kAnyInput, "", E::kFixed, kStr},
    {"@json", 0, kAnyInput, "", E::kFixed, kStr},
    {"ascii_downcase", 0, kFromIr, kString, E::kFixed, kFromIr},
    {"ascii_upcase", 0, kFromIr, kString, E::kFixed, kFromIr},
    {"tonumber", 0, kFromIr, "a string or number", E::kFixed, kFromIr},
    {"floor", 0, kFromIr, kNumber, E::kFixed, kFromIr},
    {"ceil", 0, kFromIr, kNumber, E::kFixed, kFromIr},
    {"round", 0, kFromIr, kNumber, E::kFixed, kFromIr},
    {"sqrt", 0, kFromIr, kNumber, E::kFixed, kFromIr},
    {"fabs", 0, kFromIr, kNumber, E::kFixed, kFromIr},
    // Input override: the IR accepts arrays too; the checker reports an array input (WM213).
    {"to_entries", 0, kObj, "an object", E::kToEntries, 0},
    {"from_entries", 0, kArr, kArray, E::kFixed, kObj},
    // Input override: the IR accepts objects and not null; the checker accepts null and reports
    // an object input.
    {"add", 0, kArr | kNull, kArray, E::kAddElements, 0},
    {"first", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"last", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    // Input override: the IR does not accept null; the checker lets a null input through.
    {"min", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"max", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"sort", 0, kFromIr, kArray, E::kSameArray, 0},
    {"unique", 0, kFromIr, kArray, E::kSameArray, 0},
    {"flatten", 0, kArr, kArray, E::kSameArray, 0},
    // Input override: the IR accepts objects too; the checker reports an object input.
    {"reverse", 0, kArr | kStr | kNull, kArray, E::kSameArray, 0},
    {"any", 0, kArr | kObj, "an array or object", E::kFixed, kBool},
    {"all", 0, kArr | kObj, "an array or object", E::kFixed, kBool},
    {"values", 0, kAnyInput, "", E::kKeepKinds, uint8_t(kAll & ~kNull)},
    {"nulls", 0, kAnyInput, "", E::kKeepKinds, kNull},
    {"booleans", 0, kAnyInput, "", E::kKeepKinds, kBool},
    {"numbers", 0, kAnyInput, "", E::kKeepKinds, kNumeric},
    {"strings", 0, kAnyInput, "", E::kKeepKinds, kStr},
    {"arrays", 0, kAnyInput, "", E::kKeepKinds, kArr},
    {"objects", 0, kAnyInput, "", E::kKeepKinds, kObj},
    {"iterables", 0, kAnyInput, "", E::kKeepKinds, kArr | kObj},
    {"scalars", 0, kAnyInput, "", E::kKeepKinds, kScalars},
    {"recurse", 0, kAnyInput, "", E::kGenerator, 0},
    {"paths", 0, kAnyInput, "", E::kGenerator, 0},
    {"leaf_paths", 0, kAnyInput, "", E::kGenerator, 0},
    {"recurse", 1, kAnyInput, "", E::kGenerator, 0},
    {"env", 0, kFromIr, "", E::kOneUnknown, 0},
    {"$__loc__", 0, kAnyInput, "", E::kOneUnknown, 0},
    {"now", 0, kFromIr, "", E::kOneUnknown, 0},
    {"input_line_number", 0, kAnyInput, "", E::kOneUnknown, 0},
    {"select", 1, kAnyInput, "", E::kSelect, 0},
    {"map", 1, kArr | kObj | kNull, "an array or object", E::kMap, 0},
    {"map_values", 1, kArr | kObj | kNull, "an array or object", E::kMapValues, 0},
    // Input override: the IR accepts null too; the checker reports a null input.
    {"has", 1, kObj | kArr, "an object or array", E::kFixedAfterArguments, kFromIr},
    {"contains", 1, kFromIr, "", E::kFixedAfterArguments, kFromIr},
    {"inside", 1, kAnyInput, "", E::kFixedAfterArguments, kBool},
    {"in", 1, kAnyInput, "", E::kFixedAfterArguments, kBool},
    {"isempty", 1, kAnyInput, "", E::kFixedAfterArguments, kBool},
    {"startswith", 1, kFromIr, kString, E::kFixedAfterArguments, kFromIr},
    {"endswith", 1, kFromIr, kString, E::kFixedAfterArguments, kFromIr},
    {"test", 1, kStr, kString, E::kFixedAfterArguments, kBool},
    {"any", 1, kAnyInput, "", E::kPredicateOnElements, 0},
    {"all", 1, kAnyInput, "", E::kPredicateOnElements, 0},
    {"ltrimstr", 1, kFromIr, "", E::kTrimmed, 0},
    {"rtrimstr", 1, kFromIr, "", E::kTrimmed, 0},
    {"split", 1, kFromIr, kString, E::kSplit, 0},
    // Input override: the IR accepts objects too; the checker reports an object input.
    {"join", 1, kArr, kArray, E::kFixedAfterArguments, kFromIr},
    {"first", 1, kAnyInput, "", E::kAtMostOneOutput, 0},
    {"last", 1, kAnyInput, "", E::kAtMostOneOutput, 0},
    {"limit", 1, kAnyInput, "", E::kAtMostOneOutput, 0},
    {"sort_by", 1, kArr, kArray, E::kSortedBy, 0},
    {"unique_by", 1, kArr, kArray, E::kSortedBy, 0},
    {"group_by", 1, kArr, kArray, E::kGroupBy, 0},
    {"min_by", 1, kArr, kArray, E::kExtremeBy, 0},
    {"max_by", 1, kArr, kArray, E::kExtremeBy, 0},
    {"with_entries", 1, kObj, "an object", E::kWithEntries, 0},
    {"tostring", 1, kAnyInput, "", E::kFixed, kStr},
    {"ascii_downcase", 1, kAnyInput, "", E::kFixed, kStr},
    {"sub", 2, kStr, kString, E::kSubstitute, 0},
    {"gsub", 2, kStr, kString, E::kSubstitute, 0},
    {"limit", 2, kAnyInput, "", E::kLimit, 0},
};

// Fills the kFromIr parts of a row from the IR signature of its builtin.
BuiltinSignature Derived(BuiltinSignature row) {
  if (row.accepts != kFromIr && row.kinds != kFromIr) return row;
  const ir::BuiltinInfo* builtin = ir::FindBuiltin(row.name, row.arity);
  // A kFromIr row names no native builtin: a broken table (builtin_signatures_test catches it).
  if (builtin == nullptr) std::abort();
  const ir::BuiltinSignature& ir_signature = ir::BuiltinSignatureOf(builtin->id);
  if (row.accepts == kFromIr) {
    row.accepts = ir_signature.input == ir::kTypeAny ? kAnyInput : KindsOfIrTypes(ir_signature.input);
  }
  if (row.kinds == kFromIr) row.kinds = KindsOfIrTypes(ir_signature.output);
  return row;
}

const std::vector<BuiltinSignature>& DerivedSignatures() {
  static const auto* rows = [] {
    auto* derived = new std::vector<BuiltinSignature>();
    for (const BuiltinSignature& row : kSignatures) derived->push_back(Derived(row));
    return derived;
  }();
  return *rows;
}

}  // namespace

uint8_t KindsOfIrTypes(ir::TypeSet types) {
  uint8_t kinds = 0;
  if (types & ir::kTypeNull) kinds |= kNull;
  if (types & ir::kTypeBoolean) kinds |= kBool;
  if (types & ir::kTypeNumber) kinds |= kNumeric;  // the checker tells integers from numbers
  if (types & ir::kTypeString) kinds |= kStr;
  if (types & ir::kTypeArray) kinds |= kArr;
  if (types & ir::kTypeObject) kinds |= kObj;
  return kinds;
}

const BuiltinSignature* FindBuiltinSignature(std::string_view name, size_t arity) {
  static const auto* index = [] {
    auto* map = new std::map<std::pair<std::string_view, size_t>, const BuiltinSignature*>();
    for (const BuiltinSignature& s : DerivedSignatures()) map->emplace(std::make_pair(s.name, s.arity), &s);
    return map;
  }();
  auto it = index->find({name, arity});
  return it == index->end() ? nullptr : it->second;
}

std::span<const BuiltinSignature> AllBuiltinSignatures() { return DerivedSignatures(); }

}  // namespace wm::check::internal
