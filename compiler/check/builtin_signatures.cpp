// The builtin signature table (internal/builtin_signatures.h): one row per jq name/arity the
// checker knows. For a native IR builtin the input and result kinds come from its signature in
// runtime/ir/builtins.def (kFromIr); the rows keep only the WM213 wording, the effect, what each
// closure argument runs on, and the kinds of jq-defined prelude functions (map, select, ...).
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
using A = ArgumentInput;

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

// Every jq builtin that takes a closure argument, and what each argument runs on, is a row here
// (builtin_signatures_test checks the prelude's list against this table): an argument typed
// against the wrong input would report the fields of its real input as missing.
//   on the input:          select, first/1, last/1, isempty, limit, nth/2, until, while, repeat,
//                          recurse/1, add/1, path, getpath, del, pick, paths/0, IN, in, inside,
//                          has, contains, error, test, match, capture, scan, split/2, splits,
//                          ltrimstr, rtrimstr, startswith, endswith, join, fromstream, combinations,
//                          dateadd, datesub
//   on the elements:       map, map_values, any/1, all/1, sort_by, group_by, unique_by, min_by,
//                          max_by, INDEX/1, JOIN/2's key
//   on another argument:   any/2, all/2 (cond on each output of the generator), INDEX/2 (key on
//                          each row), recurse/2 (cond on each output of f), JOIN/3,4 (key on each
//                          row of the stream)
//   on {key, value}:       with_entries
//   on a match object:     sub, gsub (the replacement)
//   on unknown values:     walk (every sub-value), paths/1 (every sub-value), JOIN/4's join
//   on null:               truncate_stream
// Native rows take the IR's kinds, which are jq 1.7's (what wmc's runtime implements): to_entries
// accepts arrays (the keys are the indexes), add and join objects (their values), reverse null,
// strings and objects (`{}` gives []), has null (false); utf8bytelength only strings, min and max
// only arrays (null is an error). A row overriding the IR would refuse what runs, or pass what
// always fails; none does.
constexpr BuiltinSignature kSignatures[] = {
    // name, arity, accepted input, what it needs, effect, result (or kept) kinds, argument inputs
    {"empty", 0, kAnyInput, "", E::kNoOutput, 0},
    {"error", 0, kAnyInput, "", E::kNoOutput, 0},
    {"error", 1, kFromIr, "", E::kNoOutput, 0},
    {"not", 0, kFromIr, "", E::kFixed, kFromIr},
    {"length", 0, kFromIr, "a string, array, object, number or null", E::kFixed, kFromIr},
    {"utf8bytelength", 0, kFromIr, kString, E::kFixed, kFromIr},
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
    {"to_entries", 0, kFromIr, "an object or array", E::kToEntries, 0},
    // jq-defined: `reduce .[] as $e ({}; ...)`, so an object of entries works too.
    {"from_entries", 0, kArr | kObj, "an array or object", E::kFixed, kObj},
    {"add", 0, kFromIr, "an array or object", E::kAddElements, 0},
    {"add", 1, kAnyInput, "", E::kFixed, 0},
    // jq-defined as `.[0]` / `.[-1]`: null gives null.
    {"first", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"last", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"min", 0, kFromIr, kArray, E::kElementOrNull, 0},
    {"max", 0, kFromIr, kArray, E::kElementOrNull, 0},
    {"sort", 0, kFromIr, kArray, E::kSameArray, 0},
    {"unique", 0, kFromIr, kArray, E::kSameArray, 0},
    {"flatten", 0, kArr, kArray, E::kSameArray, 0},
    {"reverse", 0, kFromIr, "an array, string or null", E::kSameArray, 0},
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
    {"paths", 0, kAnyInput, "", E::kGenerator, kArr},
    {"leaf_paths", 0, kAnyInput, "", E::kGenerator, kArr},
    {"recurse", 1, kAnyInput, "", E::kGenerator, 0},
    {"recurse", 2, kAnyInput, "", E::kGenerator, 0, {A::kInput, A::kOutputsOfFirst}},
    {"paths", 1, kAnyInput, "", E::kGenerator, kArr, {A::kAnyValue}},
    {"walk", 1, kAnyInput, "", E::kFixed, 0, {A::kAnyValue}},
    {"repeat", 1, kAnyInput, "", E::kGenerator, 0},
    {"while", 2, kAnyInput, "", E::kGenerator, 0},
    {"until", 2, kAnyInput, "", E::kFixed, 0},
    {"env", 0, kFromIr, "", E::kFixed, 0},
    {"$__loc__", 0, kAnyInput, "", E::kFixed, 0},
    {"now", 0, kFromIr, "", E::kFixed, kFromIr},
    {"input_line_number", 0, kAnyInput, "", E::kFixed, 0},
    {"select", 1, kAnyInput, "", E::kSelect, 0},
    {"map", 1, kArr | kObj | kNull, "an array or object", E::kMap, 0, {A::kElements}},
    {"map_values", 1, kArr | kObj | kNull, "an array or object", E::kMapValues, 0, {A::kElements}},
    {"has", 1, kFromIr, "an object or array", E::kFixed, kFromIr},
    {"contains", 1, kFromIr, "", E::kFixed, kFromIr},
    {"inside", 1, kAnyInput, "", E::kFixed, kBool},
    {"in", 1, kAnyInput, "", E::kFixed, kBool},
    {"IN", 1, kAnyInput, "", E::kFixed, kBool},
    {"IN", 2, kAnyInput, "", E::kFixed, kBool},
    {"isempty", 1, kAnyInput, "", E::kFixed, kBool},
    {"startswith", 1, kFromIr, kString, E::kFixed, kFromIr},
    {"endswith", 1, kFromIr, kString, E::kFixed, kFromIr},
    {"test", 1, kStr, kString, E::kFixed, kBool},
    {"test", 2, kStr, kString, E::kFixed, kBool},
    {"match", 1, kStr, kString, E::kGenerator, kObj},
    {"match", 2, kStr, kString, E::kGenerator, kObj},
    {"capture", 1, kStr, kString, E::kGenerator, kObj},
    {"capture", 2, kStr, kString, E::kGenerator, kObj},
    {"scan", 1, kStr, kString, E::kGenerator, kStr | kArr},
    {"scan", 2, kStr, kString, E::kGenerator, kStr | kArr},
    {"splits", 1, kStr, kString, E::kGenerator, kStr},
    {"splits", 2, kStr, kString, E::kGenerator, kStr},
    {"split", 2, kStr, kString, E::kSplit, 0},
    {"any", 1, kAnyInput, "", E::kFixed, kBool, {A::kElements}},
    {"all", 1, kAnyInput, "", E::kFixed, kBool, {A::kElements}},
    {"any", 2, kAnyInput, "", E::kFixed, kBool, {A::kInput, A::kOutputsOfFirst}},
    {"all", 2, kAnyInput, "", E::kFixed, kBool, {A::kInput, A::kOutputsOfFirst}},
    {"ltrimstr", 1, kFromIr, "", E::kTrimmed, 0},
    {"rtrimstr", 1, kFromIr, "", E::kTrimmed, 0},
    {"split", 1, kFromIr, kString, E::kSplit, 0},
    {"join", 1, kFromIr, "an array or object", E::kFixed, kFromIr},
    {"first", 1, kAnyInput, "", E::kAtMostOneOutput, 0},
    {"last", 1, kAnyInput, "", E::kAtMostOneOutput, 0},
    {"nth", 2, kAnyInput, "", E::kAtMostOneOutput, 0},
    {"limit", 1, kAnyInput, "", E::kAtMostOneOutput, 0},
    {"limit", 2, kAnyInput, "", E::kLimit, 0},
    {"sort_by", 1, kArr, kArray, E::kSortedBy, 0, {A::kElements}},
    {"unique_by", 1, kArr, kArray, E::kSortedBy, 0, {A::kElements}},
    {"group_by", 1, kArr, kArray, E::kGroupBy, 0, {A::kElements}},
    {"min_by", 1, kArr, kArray, E::kExtremeBy, 0, {A::kElements}},
    {"max_by", 1, kArr, kArray, E::kExtremeBy, 0, {A::kElements}},
    // to_entries | map(f) | from_entries: arrays pass when f turns the index keys into strings.
    {"with_entries", 1, kObj | kArr, "an object or array", E::kFixed, kObj, {A::kEntries}},
    {"INDEX", 1, kArr | kObj, "an array or object", E::kFixed, kObj, {A::kElements}},
    {"INDEX", 2, kAnyInput, "", E::kFixed, kObj, {A::kInput, A::kOutputsOfFirst}},
    {"JOIN", 2, kArr | kObj, "an array or object", E::kFixed, kArr, {A::kInput, A::kElements}},
    {"JOIN", 3, kAnyInput, "", E::kGenerator, kArr,
     {A::kInput, A::kInput, A::kOutputsOfSecond}},
    {"JOIN", 4, kAnyInput, "", E::kGenerator, 0,
     {A::kInput, A::kInput, A::kOutputsOfSecond, A::kAnyValue}},
    {"path", 1, kAnyInput, "", E::kPerOutputOfLast, kArr},
    {"getpath", 1, kAnyInput, "", E::kPerOutputOfLast, 0},
    {"del", 1, kAnyInput, "", E::kSameAsInput, 0},
    {"pick", 1, kAnyInput, "", E::kSameAsInput, 0},
    {"fromstream", 1, kAnyInput, "", E::kGenerator, 0},
    {"truncate_stream", 1, kAnyInput, "", E::kGenerator, kArr, {A::kNull}},
    {"combinations", 1, kAnyInput, "", E::kGenerator, kArr},
    {"dateadd", 2, kAnyInput, "", E::kFixed, 0},
    {"datesub", 2, kAnyInput, "", E::kFixed, 0},
    {"tostring", 1, kAnyInput, "", E::kFixed, kStr},
    {"ascii_downcase", 1, kAnyInput, "", E::kFixed, kStr},
    {"sub", 2, kStr, kString, E::kFixed, kStr, {A::kInput, A::kMatch}},
    {"sub", 3, kStr, kString, E::kFixed, kStr, {A::kInput, A::kMatch}},
    {"gsub", 2, kStr, kString, E::kFixed, kStr, {A::kInput, A::kMatch}},
    {"gsub", 3, kStr, kString, E::kFixed, kStr, {A::kInput, A::kMatch}},
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
