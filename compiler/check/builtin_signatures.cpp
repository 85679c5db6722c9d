// The builtin signature table (internal/builtin_signatures.h): one row per jq name/arity the
// checker knows, with the input kinds it accepts and the effect that types its outputs.
#include "compiler/check/internal/builtin_signatures.h"

#include <map>
#include <string>
#include <utility>

#include "compiler/check/internal/types.h"

namespace wm::check::internal {
namespace {

using E = BuiltinEffect;

constexpr uint8_t kAnyInput = 0;
constexpr uint8_t kAll = kNull | kBool | kNumeric | kStr | kArr | kObj;
constexpr uint8_t kMeasurable = kNull | kNumeric | kStr | kArr | kObj;  // what length accepts
constexpr uint8_t kScalars = kNull | kBool | kNumeric | kStr;
constexpr std::string_view kArray = "an array";
constexpr std::string_view kString = "a string";
constexpr std::string_view kNumber = "a number";

constexpr BuiltinSignature kSignatures[] = {
    // name, arity, accepted input, what it needs, effect, result (or kept) kinds
    {"empty", 0, kAnyInput, "", E::kNoOutput, 0},
    {"error", 1, kAnyInput, "", E::kNoOutput, 0},
    {"not", 0, kAnyInput, "", E::kFixed, kBool},
    {"length", 0, kMeasurable, "a string, array, object, number or null", E::kFixed, kNumeric},
    {"utf8bytelength", 0, kMeasurable, "a string, array, object, number or null", E::kFixed, kNumeric},
    {"keys", 0, kArr | kObj, "an object or array", E::kKeys, 0},
    {"keys_unsorted", 0, kArr | kObj, "an object or array", E::kKeys, 0},
    {"tostring", 0, kAnyInput, "", E::kFixed, kStr},
    {"tojson", 0, kAnyInput, "", E::kFixed, kStr},
    {"type", 0, kAnyInput, "", E::kFixed, kStr},
    {"@text", 0, kAnyInput, "", E::kFixed, kStr},
    {"@json", 0, kAnyInput, "", E::kFixed, kStr},
    {"ascii_downcase", 0, kStr, kString, E::kFixed, kStr},
    {"ascii_upcase", 0, kStr, kString, E::kFixed, kStr},
    {"tonumber", 0, kStr | kNumeric, "a string or number", E::kFixed, kNumeric},
    {"floor", 0, kNumeric, kNumber, E::kFixed, kNumeric},
    {"ceil", 0, kNumeric, kNumber, E::kFixed, kNumeric},
    {"round", 0, kNumeric, kNumber, E::kFixed, kNumeric},
    {"sqrt", 0, kNumeric, kNumber, E::kFixed, kNumeric},
    {"fabs", 0, kNumeric, kNumber, E::kFixed, kNumeric},
    {"to_entries", 0, kObj, "an object", E::kToEntries, 0},
    {"from_entries", 0, kArr, kArray, E::kFixed, kObj},
    {"add", 0, kArr | kNull, kArray, E::kAddElements, 0},
    {"first", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"last", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"min", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"max", 0, kArr | kNull, kArray, E::kElementOrNull, 0},
    {"sort", 0, kArr, kArray, E::kSameArray, 0},
    {"unique", 0, kArr, kArray, E::kSameArray, 0},
    {"flatten", 0, kArr, kArray, E::kSameArray, 0},
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
    {"env", 0, kAnyInput, "", E::kOneUnknown, 0},
    {"$__loc__", 0, kAnyInput, "", E::kOneUnknown, 0},
    {"now", 0, kAnyInput, "", E::kOneUnknown, 0},
    {"input_line_number", 0, kAnyInput, "", E::kOneUnknown, 0},
    {"select", 1, kAnyInput, "", E::kSelect, 0},
    {"map", 1, kArr | kObj | kNull, "an array or object", E::kMap, 0},
    {"map_values", 1, kArr | kObj | kNull, "an array or object", E::kMapValues, 0},
    {"has", 1, kObj | kArr, "an object or array", E::kFixedAfterArguments, kBool},
    {"contains", 1, kAnyInput, "", E::kFixedAfterArguments, kBool},
    {"inside", 1, kAnyInput, "", E::kFixedAfterArguments, kBool},
    {"in", 1, kAnyInput, "", E::kFixedAfterArguments, kBool},
    {"isempty", 1, kAnyInput, "", E::kFixedAfterArguments, kBool},
    {"startswith", 1, kStr, kString, E::kFixedAfterArguments, kBool},
    {"endswith", 1, kStr, kString, E::kFixedAfterArguments, kBool},
    {"test", 1, kStr, kString, E::kFixedAfterArguments, kBool},
    {"any", 1, kAnyInput, "", E::kPredicateOnElements, 0},
    {"all", 1, kAnyInput, "", E::kPredicateOnElements, 0},
    {"ltrimstr", 1, kAnyInput, "", E::kTrimmed, 0},
    {"rtrimstr", 1, kAnyInput, "", E::kTrimmed, 0},
    {"split", 1, kStr, kString, E::kSplit, 0},
    {"join", 1, kArr, kArray, E::kFixedAfterArguments, kStr},
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

}  // namespace

const BuiltinSignature* FindBuiltinSignature(std::string_view name, size_t arity) {
  static const auto* index = [] {
    auto* map = new std::map<std::pair<std::string_view, size_t>, const BuiltinSignature*>();
    for (const BuiltinSignature& s : kSignatures) map->emplace(std::make_pair(s.name, s.arity), &s);
    return map;
  }();
  auto it = index->find({name, arity});
  return it == index->end() ? nullptr : it->second;
}

}  // namespace wm::check::internal
