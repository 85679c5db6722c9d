// PhaseTimes (see phase_times.h): accumulation by name and the `--time-passes` table.
#include "compiler/driver/phase_times.h"

#include <cstdio>

namespace wm::driver {

void PhaseTimes::Add(std::string_view phase, double seconds) {
  for (auto& [name, total] : phases_) {
    if (name == phase) {
      total += seconds;
      return;
    }
  }
  phases_.emplace_back(std::string(phase), seconds);
}

double PhaseTimes::Total() const {
  double total = 0;
  for (const auto& [name, seconds] : phases_) total += seconds;
  return total;
}

std::string PhaseTimes::Report() const {
  std::string out;
  double total = Total();
  char line[128];
  for (const auto& [name, seconds] : phases_) {
    std::snprintf(line, sizeof line, "  %-22s %9.1f ms %5.1f%%\n", name.c_str(), seconds * 1e3,
                  total > 0 ? 100.0 * seconds / total : 0.0);
    out += line;
  }
  std::snprintf(line, sizeof line, "  %-22s %9.1f ms\n", "total", total * 1e3);
  out += line;
  return out;
}

}  // namespace wm::driver
