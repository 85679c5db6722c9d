// Did-you-mean for the type checker (internal/did_you_mean.h).
#include "compiler/check/internal/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace wm::check::internal {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cur = row[j];
      size_t sub = prev + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, sub});
      prev = cur;
    }
  }
  return row[b.size()];
}

std::string Suggest(std::string_view name, const schema::Schema& s) {
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto& p : s.properties) {
    size_t d = EditDistance(name, p.first);
    if (d < best_d) {
      best_d = d;
      best = p.first;
    }
  }
  return best;
}

}  // namespace wm::check::internal
