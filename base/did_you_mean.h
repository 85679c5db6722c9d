// Did-you-mean suggestions for every stage: one Levenshtein distance and one rule for when a
// candidate is close enough to be a typo (unknown fields, component names, schema fields, enums).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace wm::base {

struct EditDistanceOptions {
  // Compare ASCII letters without case: `Replicas` is then 0 edits from `replicas`
  // (default false: every differing byte costs one edit).
  bool ignore_ascii_case = false;
};

// Insertions, deletions and substitutions that turn `a` into `b` (bytes).
size_t EditDistance(std::string_view a, std::string_view b, const EditDistanceOptions& options = {});

// The most edits a suggestion for `word` may be away: about one per three characters, at least two.
size_t SuggestionLimit(std::string_view word);

// The candidate closest to `word` within SuggestionLimit, "" when none is. A candidate that differs
// only in case counts as 0 edits (the likeliest typo of all); ties go to the earlier candidate.
std::string ClosestMatch(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace wm::base
