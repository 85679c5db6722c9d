// See did_you_mean.h. One row of the dynamic-programming table at a time: O(|a|*|b|) time,
// O(|b|) memory.
#include "base/did_you_mean.h"

#include <algorithm>

namespace wm::base {
namespace {

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualIgnoringAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (LowerAscii(a[i]) != LowerAscii(b[i])) return false;
  }
  return true;
}

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b, const EditDistanceOptions& options) {
  auto same = [&](char x, char y) {
    return options.ignore_ascii_case ? LowerAscii(x) == LowerAscii(y) : x == y;
  };
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      size_t substitution = diagonal + (same(a[i - 1], b[j - 1]) ? 0 : 1);
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

size_t SuggestionLimit(std::string_view word) { return std::max<size_t>(2, word.size() / 3); }

std::string ClosestMatch(std::string_view word, const std::vector<std::string_view>& candidates) {
  size_t limit = SuggestionLimit(word);
  size_t best = limit + 1;
  std::string_view best_word;
  for (std::string_view candidate : candidates) {
    size_t d = EqualIgnoringAsciiCase(word, candidate) ? 0 : EditDistance(word, candidate);
    if (d < best) {
      best = d;
      best_word = candidate;
    }
  }
  return best <= limit ? std::string(best_word) : std::string();
}

}  // namespace wm::base
