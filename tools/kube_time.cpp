// RFC 3339 parsing and kubectl's HumanDuration (see kube_time.h).
#include "tools/kube_time.h"

#include <string>

namespace wm::tools {
namespace {

// Days from 1970-01-01 to year-month-day in the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Reads `width` digits at *pos; nullopt when they are not all digits.
std::optional<int64_t> Digits(std::string_view s, size_t* pos, size_t width) {
  if (*pos + width > s.size()) return std::nullopt;
  int64_t v = 0;
  for (size_t i = 0; i < width; ++i) {
    char c = s[*pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  *pos += width;
  return v;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos >= s.size() || (s[*pos] != c && !(c == 'T' && s[*pos] == 't'))) return false;
  ++*pos;
  return true;
}

}  // namespace

std::optional<int64_t> ParseRfc3339(std::string_view s) {
  size_t p = 0;
  auto year = Digits(s, &p, 4);
  if (!year || !Expect(s, &p, '-')) return std::nullopt;
  auto month = Digits(s, &p, 2);
  if (!month || !Expect(s, &p, '-')) return std::nullopt;
  auto day = Digits(s, &p, 2);
  if (!day || !Expect(s, &p, 'T')) return std::nullopt;
  auto hour = Digits(s, &p, 2);
  if (!hour || !Expect(s, &p, ':')) return std::nullopt;
  auto minute = Digits(s, &p, 2);
  if (!minute || !Expect(s, &p, ':')) return std::nullopt;
  auto second = Digits(s, &p, 2);
  if (!second || *month < 1 || *month > 12 || *day < 1 || *day > 31 || *hour > 23 ||
      *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  if (p < s.size() && s[p] == '.') {
    size_t start = ++p;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') ++p;
    if (p == start) return std::nullopt;
  }
  int64_t offset = 0;
  if (p < s.size() && (s[p] == 'Z' || s[p] == 'z')) {
    ++p;
  } else if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    int sign = s[p++] == '-' ? -1 : 1;
    auto oh = Digits(s, &p, 2);
    if (!oh || !Expect(s, &p, ':')) return std::nullopt;
    auto om = Digits(s, &p, 2);
    if (!om) return std::nullopt;
    offset = sign * (*oh * 3600 + *om * 60);
  } else {
    return std::nullopt;
  }
  if (p != s.size()) return std::nullopt;
  return DaysFromCivil(*year, *month, *day) * 86400 + *hour * 3600 + *minute * 60 + *second - offset;
}

std::string HumanDuration(int64_t seconds) {
  auto n = [](int64_t v) { return std::to_string(v); };
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return n(seconds) + "s";
  int64_t minutes = seconds / 60;
  if (minutes < 10) return seconds % 60 == 0 ? n(minutes) + "m" : n(minutes) + "m" + n(seconds % 60) + "s";
  if (minutes < 180) return n(minutes) + "m";
  int64_t hours = seconds / 3600;
  if (hours < 8) return minutes % 60 == 0 ? n(hours) + "h" : n(hours) + "h" + n(minutes % 60) + "m";
  if (hours < 48) return n(hours) + "h";
  if (hours < 24 * 8) return hours % 24 == 0 ? n(hours / 24) + "d" : n(hours / 24) + "d" + n(hours % 24) + "h";
  if (hours < 24 * 365 * 2) return n(hours / 24) + "d";
  if (hours < 24 * 365 * 8) {
    int64_t days = (hours / 24) % 365;
    return days == 0 ? n(hours / 24 / 365) + "y" : n(hours / 24 / 365) + "y" + n(days) + "d";
  }
  return n(hours / 24 / 365) + "y";
}

}  // namespace wm::tools
