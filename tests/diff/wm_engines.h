// The wm side of the differential tests: jq text -> the driver's front end -> every engine
// (interpreter always; JIT and AOT when enabled; a program they refuse counts as their failure;
// the view engine, runtime/eval/view, on programs it fuses, from the input's text), all built by
// compiler/driver. AOT units are compiled in batches into ONE shared object (a link costs
// ~16 ms), so callers register many programs first and build them together. Outcomes use the
// oracle's RunOutcome shape for direct comparison.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "runtime/eval/eval.h"
#include "runtime/eval/view/view.h"
#include "runtime/ir/ir.h"
#include "runtime/value/value.h"
#include "tests/diff/libjq_oracle.h"

namespace wm::diff {

// Names of the engines in reports.
inline constexpr const char* kInterp = "interp";
inline constexpr const char* kJit = "jit";
inline constexpr const char* kAot = "aot";
inline constexpr const char* kView = "view";
inline constexpr const char* kViewNative = "view-native";

// One jq program prepared for every engine that accepts it.
struct PreparedProgram {
  std::string text;
  std::shared_ptr<const ir::Program> program;  // null when parse or lowering failed
  std::string front_end_error;                  // first diagnostic when program is null
  bool native_supported = false;                // codegen::Supports said yes
  std::string native_unsupported_reason;
  // The JIT or AOT engine was asked for: a program the backends refuse is then a failure (the
  // native engines compile the whole language), reported through jit_error/aot_error.
  bool native_requested = false;
  std::unique_ptr<Filter> interp;
  std::unique_ptr<Filter> jit;  // null when unsupported or JIT compilation failed
  std::string jit_error;
  std::unique_ptr<Filter> aot;  // set by AotBatch::Build
  std::string aot_error;
  // The view engine when it fuses the program (null otherwise: the program then only runs on the
  // engines above, as in a FusedKind's fallback).
  std::unique_ptr<view::FusedKind> view;
  // The same with its fills and programs as native code (FusedKindOptions::native), when enabled.
  std::unique_ptr<view::FusedKind> view_native;
};

struct EngineOptions {
  bool enable_jit = true;
  bool enable_aot = true;
  size_t max_outputs = 1000;  // outputs collected per run, as the oracle's cap
  int opt_level = 2;          // LLVM optimisation level of the JIT code
  bool enable_view = true;    // run fusable programs on the view engine too
  bool enable_view_native = true;  // and on the view engine with native code (a JIT session each)
};

// Parses and lowers `text` and creates the interpreter and (if enabled and supported) JIT
// filters. Never throws.
std::unique_ptr<PreparedProgram> Prepare(const std::string& text, const EngineOptions& options);

// Collects programs and compiles them into one shared object; then fills PreparedProgram::aot
// for each (or aot_error for all of them if the batch fails to compile or load).
class AotBatch {
 public:
  void Add(PreparedProgram* prepared);
  size_t size() const { return members_.size(); }
  // Compiles, links and loads the batch at LLVM level `opt_level`. Returns false when the whole
  // batch failed. Each member's filter keeps the shared object loaded.
  bool Build(std::string* error, int opt_level = 2);

 private:
  std::vector<PreparedProgram*> members_;
};

// Runs one filter on a parsed input; outputs as compact JSON (runtime/value/json.h ToJson).
RunOutcome RunFilter(const Filter& filter, const Value& input, size_t max_outputs);

// Runs the view engine on the input's text (document key order), capped like RunFilter.
RunOutcome RunView(const view::FusedKind& kind, const std::string& input_json, size_t max_outputs);

// Parses JSON input text with the project's parser; false with *error on failure.
bool ParseInput(const std::string& json, Value* out, std::string* error);

}  // namespace wm::diff
