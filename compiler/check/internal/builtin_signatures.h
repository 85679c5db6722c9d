// What each jq builtin does to types, as a table keyed by the builtin's jq name and arity: the
// input it accepts (anything else is WM213), and the effect that computes its outputs, which the
// abstract evaluator applies (abstract_eval_builtins.cpp). Builtins absent from the table yield
// unknown values. For native IR builtins the kinds are derived from runtime/ir/builtins.def.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "runtime/ir/builtins.h"

namespace wm::check::internal {

enum class BuiltinEffect : uint8_t {
  kNoOutput,            // empty, error/1: no output (arguments still checked on the input)
  kFixed,               // one output of `kinds`; arguments not evaluated
  kFixedAfterArguments, // arguments evaluated on the input, then one output of `kinds`
  kOneUnknown,          // env, now, $__loc__: one output of unknown type
  kKeys,                // keys: array of keys; iterating it iterates the input collection
  kToEntries,           // to_entries: [{key, value}] with the map's value schema
  kElementOrNull,       // first, last, min, max: an element of the input array, or null
  kAddElements,         // add: the sum of the elements, unknown
  kSameArray,           // sort, unique, reverse, flatten: the input, no longer optional
  kKeepKinds,           // values, nulls, strings, ...: the input narrowed to `kinds`, or nothing
  kGenerator,           // recurse, paths: one or more unknown values
  kSelect,              // select(f): the input, when f holds
  kMap,                 // map(f): array of f's outputs on the elements
  kMapValues,           // map_values(f): the input container
  kPredicateOnElements, // any(f), all(f): f on every element, boolean result
  kTrimmed,             // ltrimstr, rtrimstr: the input's kinds
  kSplit,               // split(s): array of strings
  kAtMostOneOutput,     // first(f), last(f), limit(f): f's type, at most one output
  kSortedBy,            // sort_by, unique_by: the input array, no longer optional
  kGroupBy,             // group_by: an array
  kExtremeBy,           // min_by, max_by: an element of the input array, or null
  kWithEntries,         // with_entries(f): an object
  kSubstitute,          // sub, gsub: a string; the replacement sees the match object
  kLimit,               // limit(n; f): f's outputs, at most n of them when n is a literal
};

struct BuiltinSignature {
  std::string_view name;
  uint8_t arity;
  uint8_t accepts;         // JSON kinds the input may have (0: any input)
  std::string_view needs;  // what WM213 says the builtin needs ("an array")
  BuiltinEffect effect;
  uint8_t kinds;           // kFixed*: result kinds; kKeepKinds: the kinds kept
};

// The signature of the builtin `name`/`arity`, or null when the checker knows nothing of it.
const BuiltinSignature* FindBuiltinSignature(std::string_view name, size_t arity);
// The checker's kind bits for an IR type set (`number` is both integer and number here).
uint8_t KindsOfIrTypes(ir::TypeSet types);

// Every row, for tests that compare the table with the IR builtin table.
std::span<const BuiltinSignature> AllBuiltinSignatures();

}  // namespace wm::check::internal
