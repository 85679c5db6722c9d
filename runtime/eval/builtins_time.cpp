// Date builtins over the C library: gmtime/localtime produce jq's "broken down time" arrays
// [year, month0, mday, hours, minutes, seconds(with fraction), wday, yday]; mktime, strftime,
// strflocaltime and strptime convert back and forth; now reads the wall clock.
#include <sys/time.h>

#include <cmath>
#include <cstring>
#include <ctime>
#include <string>

#include "runtime/eval/internal/builtin_impl.h"
#include "runtime/eval/internal/text.h"

namespace wm::eval_internal {
namespace {

Value FromTm(const struct tm& tm, double seconds) {
  return Value::MakeArray({Value::Number(tm.tm_year + 1900.0), Value::Number(tm.tm_mon),
                           Value::Number(tm.tm_mday), Value::Number(tm.tm_hour),
                           Value::Number(tm.tm_min), Value::Number(seconds),
                           Value::Number(tm.tm_wday), Value::Number(tm.tm_yday)});
}

// jq requires all eight numeric fields.
bool ToTm(const Value& v, struct tm* tm) {
  if (!v.IsArray() || v.AsArray().size() < 8) return false;
  const Array& a = v.AsArray();
  for (size_t i = 0; i < 8; ++i) {
    if (!a[i].IsNumber()) return false;
  }
  std::memset(tm, 0, sizeof(*tm));
  tm->tm_year = static_cast<int>(a[0].AsNumber() - 1900);
  tm->tm_mon = static_cast<int>(a[1].AsNumber());
  tm->tm_mday = static_cast<int>(a[2].AsNumber());
  tm->tm_hour = static_cast<int>(a[3].AsNumber());
  tm->tm_min = static_cast<int>(a[4].AsNumber());
  tm->tm_sec = static_cast<int>(a[5].AsNumber());
  tm->tm_wday = static_cast<int>(a[6].AsNumber());
  tm->tm_yday = static_cast<int>(a[7].AsNumber());
  return true;
}

}  // namespace

bool TimeGmtime(const Value& input, bool local, Value* out, Value* error) {
  if (!input.IsNumber()) {
    return Fail(error, local ? "localtime() requires a number" : "gmtime() requires a number");
  }
  double t = input.AsNumber();
  if (!std::isfinite(t) || std::fabs(t) > 1e17) {
    return Fail(error, local ? "localtime() argument out of range" : "gmtime() argument out of range");
  }
  time_t secs = static_cast<time_t>(std::floor(t));
  struct tm tm;
  if ((local ? localtime_r(&secs, &tm) : gmtime_r(&secs, &tm)) == nullptr) {
    return Fail(error, local ? "error converting number of seconds since epoch to datetime"
                             : "error converting number of seconds since epoch to datetime");
  }
  *out = FromTm(tm, tm.tm_sec + (t - std::floor(t)));
  return true;
}

bool TimeMktime(const Value& input, Value* out, Value* error) {
  if (!input.IsArray()) return Fail(error, "mktime requires array inputs");
  struct tm tm;
  if (!ToTm(input, &tm)) return Fail(error, "mktime requires parsed datetime inputs");
  time_t t = timegm(&tm);
  if (t == static_cast<time_t>(-1) && !(tm.tm_year == 69 && tm.tm_yday == 364)) {
    return Fail(error, "invalid gmtime representation");
  }
  *out = Value::Number(static_cast<double>(t));
  return true;
}

bool TimeStrftime(const Value& input, const Value& format, bool local, Value* out, Value* error) {
  const char* name = local ? "strflocaltime/1" : "strftime/1";
  Value broken = input;
  if (input.IsNumber()) {
    if (!TimeGmtime(input, local, &broken, error)) return false;
  } else if (!input.IsArray()) {
    return Fail(error, std::string(name) + " requires parsed datetime inputs");
  }
  if (!format.IsString()) return Fail(error, std::string(name) + " requires a string format");
  struct tm tm;
  if (!ToTm(broken, &tm)) return Fail(error, std::string(name) + " requires parsed datetime inputs");
  if (local) {
    // Fill in the zone fields (%Z, %z) for the local time zone.
    time_t t = mktime(&tm);
    localtime_r(&t, &tm);
  }
  std::string fmt(format.AsString());
  if (fmt.empty()) {
    *out = Value::String("");
    return true;
  }
  std::string buffer(256, '\0');
  for (int attempt = 0; attempt < 8; ++attempt) {
    size_t n = std::strftime(buffer.data(), buffer.size(), fmt.c_str(), &tm);
    if (n > 0) {
      buffer.resize(n);
      *out = Value::String(buffer);
      return true;
    }
    buffer.assign(buffer.size() * 4, '\0');
  }
  return Fail(error, std::string(name) + ": unknown system failure");
}

bool TimeStrptime(const Value& input, const Value& format, Value* out, Value* error) {
  if (!input.IsString() || !format.IsString()) {
    return Fail(error, "strptime/1 requires string inputs and arguments");
  }
  std::string text(input.AsString());
  std::string fmt(format.AsString());
  struct tm tm;
  std::memset(&tm, 0, sizeof(tm));
  const char* end = strptime(text.c_str(), fmt.c_str(), &tm);
  if (end == nullptr || *end != '\0') {
    return Fail(error, "date \"" + text + "\" does not match format \"" + fmt + "\"");
  }
  // Normalise and fill wday/yday the way jq does (through timegm).
  struct tm copy = tm;
  time_t t = timegm(&copy);
  struct tm filled;
  if (gmtime_r(&t, &filled) != nullptr) {
    tm.tm_wday = filled.tm_wday;
    tm.tm_yday = filled.tm_yday;
  }
  *out = FromTm(tm, tm.tm_sec);
  return true;
}

double TimeNow() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec + tv.tv_usec / 1e6;
}

}  // namespace wm::eval_internal
