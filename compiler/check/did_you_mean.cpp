// Did-you-mean for the type checker (internal/did_you_mean.h).
#include "compiler/check/internal/did_you_mean.h"

#include <algorithm>

#include "base/did_you_mean.h"

namespace wm::check::internal {

// Schema field names and enum values: a difference in case alone is the likeliest typo.
size_t EditDistance(std::string_view a, std::string_view b) {
  return base::EditDistance(a, b, {.ignore_ascii_case = true});
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
