// wm engines behind the differential tests' RunOutcome interface (see wm_engines.h).
#include "tests/diff/wm_engines.h"

#include "compiler/codegen/codegen.h"
#include "compiler/jq/parser.h"
#include "compiler/lower/lower.h"
#include "runtime/bundle/native_module.h"
#include "runtime/value/json.h"

namespace wm::diff {
namespace {

std::string FirstDiagnostic(const std::vector<Diagnostic>& diagnostics, const char* fallback) {
  if (diagnostics.empty()) return fallback;
  return diagnostics.front().rule + ": " + diagnostics.front().message;
}

}  // namespace

std::unique_ptr<PreparedProgram> Prepare(const std::string& text, const EngineOptions& options) {
  auto prepared = std::make_unique<PreparedProgram>();
  prepared->text = text;
  jq::ParseResult parsed = jq::Parse(text);
  if (!parsed.ok()) {
    prepared->front_end_error = "parse: " + FirstDiagnostic(parsed.diagnostics, "no AST");
    return prepared;
  }
  lower::LowerResult lowered = lower::Lower(*parsed.ast, text);
  if (lowered.program == nullptr) {
    prepared->front_end_error = "lower: " + FirstDiagnostic(lowered.diagnostics, "no program");
    return prepared;
  }
  prepared->program = lowered.program;
  prepared->interp = MakeInterpreter(prepared->program);
  prepared->native_supported =
      codegen::Supports(*prepared->program, &prepared->native_unsupported_reason);
  if (prepared->native_supported && options.enable_jit) {
    codegen::JitResult jit = codegen::CompileJit(prepared->program);
    prepared->jit = std::move(jit.filter);
    if (prepared->jit == nullptr) prepared->jit_error = jit.error.empty() ? "no filter" : jit.error;
  }
  return prepared;
}

void AotBatch::Add(PreparedProgram* prepared) { members_.push_back(prepared); }

bool AotBatch::Build(std::string* error) {
  std::vector<codegen::AotUnit> units;
  units.reserve(members_.size());
  for (size_t i = 0; i < members_.size(); ++i) {
    units.push_back({"wm_diff_unit_" + std::to_string(i), members_[i]->program});
  }
  auto fail = [&](const std::string& why) {
    *error = why;
    for (PreparedProgram* member : members_) member->aot_error = why;
    return false;
  };
  if (units.empty()) return true;
  codegen::AotResult compiled = codegen::CompileAot(units);
  if (compiled.shared_object.empty()) return fail("CompileAot: " + compiled.error);
  std::string load_error;
  module_ = NativeModule::Create(compiled.shared_object, &load_error);
  if (module_ == nullptr) return fail("NativeModule::Create: " + load_error);
  for (size_t i = 0; i < members_.size(); ++i) {
    members_[i]->aot = module_->GetFilter(units[i].symbol, members_[i]->program);
    if (members_[i]->aot == nullptr) members_[i]->aot_error = "symbol missing: " + units[i].symbol;
  }
  return true;
}

RunOutcome RunFilter(const Filter& filter, const Value& input, size_t max_outputs) {
  RunOutcome outcome;
  RunOptions options;
  // The harness caps outputs itself (as the oracle does), so the engine's own output limit must
  // not fire first and turn a long but finite output into an error.
  options.limits.max_outputs = max_outputs + 1;
  EvalError error;
  EvalStatus status = filter.Run(
      input,
      [&](const Value& v) {
        if (outcome.outputs.size() >= max_outputs) {
          outcome.truncated = true;
          return false;
        }
        outcome.outputs.push_back(ToJson(v));
        return true;
      },
      &error, options);
  if (status == EvalStatus::kError) {
    outcome.error = true;
    outcome.limit = error.limit;
    outcome.error_message = error.Message();
  }
  return outcome;
}

bool ParseInput(const std::string& json, Value* out, std::string* error) {
  JsonError parse_error;
  if (ParseJson(json, out, &parse_error)) return true;
  *error = parse_error.message + " at offset " + std::to_string(parse_error.offset);
  return false;
}

}  // namespace wm::diff
