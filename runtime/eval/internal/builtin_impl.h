// Internal entry points of the native builtins, split by topic across builtins*.cpp. Each follows
// the ops convention: true + *out on success, false + *error (the jq error value) on failure.
#pragma once

#include <string>
#include <utility>

#include "runtime/value/value.h"

namespace wm::eval_internal {

// The failure half of that convention: *error becomes the jq error value `message`.
inline bool Fail(Value* error, std::string message) {
  *error = Value::String(std::move(message));
  return false;
}

// builtins_regex.cpp (Oniguruma, jq's flag letters "gimnpslx")
bool RegexMatch(const Value& input, const Value& regex, const Value& flags, bool test_only,
                Value* out, Value* error);

// builtins_time.cpp
bool TimeGmtime(const Value& input, bool local, Value* out, Value* error);
bool TimeMktime(const Value& input, Value* out, Value* error);
bool TimeStrftime(const Value& input, const Value& format, bool local, Value* out, Value* error);
bool TimeStrptime(const Value& input, const Value& format, Value* out, Value* error);
double TimeNow();

// builtins_paths.cpp
bool PathGet(const Value& input, const Value& path, Value* out, Value* error);
bool PathSet(const Value& input, const Value& path, const Value& value, Value* out, Value* error);
bool PathDelete(const Value& input, const Value& paths, Value* out, Value* error);
bool ToStreamEvents(const Value& input, Value* out, Value* error);

}  // namespace wm::eval_internal
