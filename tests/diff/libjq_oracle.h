// The oracle of the differential tests: libjq 1.6 behind a small C++ interface. Compile a jq
// program once (jq_init + jq_compile costs ~35 ms, so compiled states are cached per program
// text), run it on JSON input text, and collect outputs as compact JSON plus error-or-not.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

struct jq_state;  // libjq's opaque state (jq.h is included only by libjq_oracle.cpp)

namespace wm::diff {

// What one evaluation produced, in the same shape for libjq and for every wm engine.
struct RunOutcome {
  bool compiled = true;              // false: the program did not compile/lower (see error_message)
  std::vector<std::string> outputs;  // compact JSON (`jq -c`) of each output, in order
  bool error = false;                // the evaluation ended with an error after `outputs`
  std::string error_message;         // text of the error; non-string error values as JSON + " (not a string)"
  bool truncated = false;            // stopped after the output cap; the outcome is incomplete
  bool limit = false;                // wm only: an EvalLimits limit (fuel, depth, memory) ended it
};

struct OracleOptions {
  size_t max_outputs = 1000;        // outputs collected before the run is cut off (truncated = true)
  size_t max_cached_programs = 256;  // compiled states kept (each holds all of jq's builtins); cleared when full
};

class LibjqOracle {
 public:
  explicit LibjqOracle(OracleOptions options = {});
  ~LibjqOracle();
  LibjqOracle(const LibjqOracle&) = delete;
  LibjqOracle& operator=(const LibjqOracle&) = delete;

  // Runs `program` on the single JSON value `input_json`. An unparsable input or program yields
  // compiled = false with the reason in error_message.
  RunOutcome Run(const std::string& program, const std::string& input_json);

  // True when libjq 1.6 accepts `program` (compiles it and keeps the state cached).
  bool Compiles(const std::string& program);

 private:
  jq_state* StateFor(const std::string& program, std::string* compile_error);
  void ClearCache();

  OracleOptions options_;
  // Program text -> compiled state; a null state remembers that compilation failed.
  std::map<std::string, jq_state*> cache_;
};

}  // namespace wm::diff
