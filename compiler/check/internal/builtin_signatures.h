// What each jq builtin does to types, as a table keyed by the builtin's jq name and arity: the
// input it accepts (anything else is WM213), what each closure argument runs on, and the effect
// that computes its outputs, which the abstract evaluator applies (abstract_eval_builtins.cpp).
// Builtins absent from the table yield unknown values. For native IR builtins the kinds are
// derived from runtime/ir/builtins.def.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "runtime/ir/builtins.h"

namespace wm::check::internal {

enum class BuiltinEffect : uint8_t {
  kNoOutput,            // empty, error/1: no output
  kFixed,               // one output of `kinds` (an unknown value when `kinds` is 0)
  kKeys,                // keys: array of keys; iterating it iterates the input collection
  kToEntries,           // to_entries: [{key, value}] with the collection's element schema
  kElementOrNull,       // first, last, min, max: an element of the input array, or null
  kAddElements,         // add: the sum of the elements, unknown
  kSameArray,           // sort, unique, reverse, flatten: the input, no longer optional
  kSameAsInput,         // del(f), pick(f): a value of the input's type
  kKeepKinds,           // values, nulls, strings, ...: the input narrowed to `kinds`, or nothing
  kGenerator,           // recurse, paths, while, match, ...: one or more values of `kinds`
  kPerOutputOfLast,     // path(f), getpath(p): one value of `kinds` per output of the last argument
  kSelect,              // select(f): the input, when f holds
  kMap,                 // map(f): array of f's outputs on the elements
  kMapValues,           // map_values(f): the input container
  kTrimmed,             // ltrimstr, rtrimstr: the input's kinds
  kSplit,               // split(s): array of strings
  kAtMostOneOutput,     // first(f), last(f), nth(n; f): the last argument's type, at most one output
  kSortedBy,            // sort_by, unique_by: the input array, no longer optional
  kGroupBy,             // group_by: an array
  kExtremeBy,           // min_by, max_by: an element of the input array, or null
  kLimit,               // limit(n; f): f's outputs, at most n of them when n is a literal
};

// What one argument of a builtin runs on. Arguments are closures: most run on the builtin's own
// input, but some run on what another argument yields (`any(g; cond)` runs cond on each output
// of g), on the input's elements (`map(f)`) or on values the checker cannot describe
// (`walk(f)` runs f on every sub-value). Typing an argument against the wrong input reports
// fields the real input has as missing.
enum class ArgumentInput : uint8_t {
  kInput,            // the builtin's input (the default)
  kElements,         // each element (array) or value (object) of the input
  kOutputsOfFirst,   // each output of argument 0
  kOutputsOfSecond,  // each output of argument 1
  kEntries,          // each {key, value} entry of the input (with_entries)
  kMatch,            // a regex match object (the replacement of sub / gsub)
  kAnyValue,         // a value of unknown type (every sub-value, pairs built by the builtin)
  kNull,             // null (truncate_stream runs its stream on null)
};

inline constexpr size_t kMaxSignatureArguments = 4;

struct BuiltinSignature {
  std::string_view name;
  uint8_t arity;
  uint8_t accepts;         // JSON kinds the input may have (0: any input)
  std::string_view needs;  // what WM213 says the builtin needs ("an array")
  BuiltinEffect effect;
  uint8_t kinds;           // kFixed, kGenerator, kPerOutputOfLast: result kinds; kKeepKinds: kept
  // What each argument runs on, in argument order (unlisted arguments: the input). Arguments
  // are evaluated in this order, so an argument can run on the outputs of an earlier one.
  std::array<ArgumentInput, kMaxSignatureArguments> arguments{};
};

// The signature of the builtin `name`/`arity`, or null when the checker knows nothing of it.
const BuiltinSignature* FindBuiltinSignature(std::string_view name, size_t arity);
// The checker's kind bits for an IR type set (`number` is both integer and number here).
uint8_t KindsOfIrTypes(ir::TypeSet types);

// Every row, for tests that compare the table with the IR builtin table.
std::span<const BuiltinSignature> AllBuiltinSignatures();

}  // namespace wm::check::internal
