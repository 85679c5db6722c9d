// Clocks and the median shared by the plain benchmark programs (bench_engines, bench_ondemand):
// one definition of what their figures mean.
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace wm::bench {

// This thread's CPU time in nanoseconds: leaves out the time spent waiting for a core on a
// loaded machine.
inline double ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// Wall time in nanoseconds (steady_clock).
inline double WallNs() {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The median of the values (the mean of the middle two for an even count; 0 for none).
inline double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return (values[(values.size() - 1) / 2] + values[values.size() / 2]) / 2;
}

}  // namespace wm::bench
