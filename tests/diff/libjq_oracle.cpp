// libjq 1.6 wrapper for the differential tests (see libjq_oracle.h). libjq's headers have no
// extern "C" guards, so they are wrapped here; no other file of the tests includes them.
#include "tests/diff/libjq_oracle.h"

extern "C" {
#include <jq.h>
#include <jv.h>
}

namespace wm::diff {
namespace {

// libjq reports compile errors (and nothing else, for programs without debug/stderr) through
// this callback. The default prints to stderr; the oracle keeps the first message instead (the
// last one is only the "N compile errors" summary).
void CaptureError(void* data, jv message) {
  auto* sink = static_cast<std::string*>(data);
  if (sink->empty()) {
    if (jv_get_kind(message) == JV_KIND_STRING) {
      *sink = jv_string_value(message);
    } else {
      jv text = jv_dump_string(jv_copy(message), 0);
      *sink = jv_string_value(text);
      jv_free(text);
    }
  }
  jv_free(message);
}

// Consumes `v` and returns its compact JSON text (jq -c).
std::string DumpCompact(jv v) {
  jv text = jv_dump_string(v, 0);
  std::string out = jv_string_value(text);
  jv_free(text);
  return out;
}

// Consumes the error value of an invalid jv and formats it as jq prints it.
std::string ErrorMessage(jv message) {
  if (jv_get_kind(message) == JV_KIND_STRING) {
    std::string out = jv_string_value(message);
    jv_free(message);
    return out;
  }
  return DumpCompact(message) + " (not a string)";
}

// The callback's sink must outlive every state that points at it.
thread_local std::string g_last_compile_error;

}  // namespace

LibjqOracle::LibjqOracle(OracleOptions options) : options_(options) {}

LibjqOracle::~LibjqOracle() { ClearCache(); }

void LibjqOracle::ClearCache() {
  for (auto& [text, state] : cache_) {
    if (state != nullptr) jq_teardown(&state);
  }
  cache_.clear();
}

jq_state* LibjqOracle::StateFor(const std::string& program, std::string* compile_error) {
  auto found = cache_.find(program);
  if (found != cache_.end()) {
    if (found->second == nullptr) *compile_error = "libjq rejected the program";
    return found->second;
  }
  if (cache_.size() >= options_.max_cached_programs) ClearCache();
  jq_state* state = jq_init();
  if (state == nullptr) {
    *compile_error = "jq_init failed";
    return nullptr;
  }
  g_last_compile_error.clear();
  jq_set_error_cb(state, CaptureError, &g_last_compile_error);
  if (!jq_compile(state, program.c_str())) {
    *compile_error = g_last_compile_error.empty() ? "libjq rejected the program"
                                                  : g_last_compile_error;
    jq_teardown(&state);
    cache_.emplace(program, nullptr);
    return nullptr;
  }
  cache_.emplace(program, state);
  return state;
}

bool LibjqOracle::Compiles(const std::string& program) {
  std::string ignored;
  return StateFor(program, &ignored) != nullptr;
}

RunOutcome LibjqOracle::Run(const std::string& program, const std::string& input_json) {
  RunOutcome outcome;
  jq_state* state = StateFor(program, &outcome.error_message);
  if (state == nullptr) {
    outcome.compiled = false;
    return outcome;
  }
  jv input = jv_parse_sized(input_json.data(), static_cast<int>(input_json.size()));
  if (!jv_is_valid(input)) {
    outcome.compiled = false;
    outcome.error_message = "invalid input JSON: " +
        (jv_invalid_has_msg(jv_copy(input)) ? ErrorMessage(jv_invalid_get_msg(input)) : "");
    return outcome;
  }
  jq_start(state, input, 0);  // takes ownership of input
  while (true) {
    jv result = jq_next(state);
    if (jv_is_valid(result)) {
      if (outcome.outputs.size() >= options_.max_outputs) {
        jv_free(result);
        outcome.truncated = true;
        break;
      }
      outcome.outputs.push_back(DumpCompact(result));
      continue;
    }
    // An invalid value ends the run: with a message it is an error, without one the end of
    // output. (libjq 1.6 also treats `error(null)` as the end: the generator never emits it.)
    if (jv_invalid_has_msg(jv_copy(result))) {
      outcome.error = true;
      outcome.error_message = ErrorMessage(jv_invalid_get_msg(result));
    } else {
      jv_free(result);
    }
    break;
  }
  // Leaves the state reusable: the next jq_start resets its stack.
  return outcome;
}

}  // namespace wm::diff
