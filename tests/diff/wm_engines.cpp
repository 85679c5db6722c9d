// wm engines behind the differential tests' RunOutcome interface (see wm_engines.h).
#include "tests/diff/wm_engines.h"

#include "compiler/codegen/codegen.h"
#include "compiler/driver/expression.h"
#include "runtime/value/json.h"

namespace wm::diff {

std::unique_ptr<PreparedProgram> Prepare(const std::string& text, const EngineOptions& options) {
  auto prepared = std::make_unique<PreparedProgram>();
  prepared->text = text;
  driver::Expected<driver::LoweredExpression> lowered = driver::LowerExpression(text);
  if (!lowered.ok()) {
    const char* stage = lowered.failure().stage == driver::Stage::kAst ? "parse: " : "lower: ";
    prepared->front_end_error = stage + lowered.failure().Summary();
    return prepared;
  }
  prepared->program = lowered->program;
  prepared->interp = std::move(*driver::BuildEngine(prepared->program));
  prepared->native_unsupported_reason = driver::NativeUnsupportedReason(*prepared->program);
  prepared->native_supported = prepared->native_unsupported_reason.empty();
  prepared->native_requested = options.enable_jit || options.enable_aot;
  if (!prepared->native_supported) {
    std::string refused = "refused by the native backends: " + prepared->native_unsupported_reason;
    if (options.enable_jit) prepared->jit_error = refused;
    if (options.enable_aot) prepared->aot_error = refused;
  }
  if (options.enable_view) {
    auto kind = std::make_unique<view::FusedKind>(std::vector<std::shared_ptr<const ir::Program>>{prepared->program});
    if (kind->fused(0)) prepared->view = std::move(kind);
  }
  if (prepared->view != nullptr && options.enable_view_native) {
    static const std::shared_ptr<const view::NativeViewCompiler> compiler = codegen::MakeNativeViewCompiler();
    view::FusedKindOptions native;
    native.native = compiler;
    prepared->view_native =
        std::make_unique<view::FusedKind>(std::vector<std::shared_ptr<const ir::Program>>{prepared->program}, native);
  }
  if (prepared->native_supported && options.enable_jit) {
    driver::ExpressionOptions jit;
    jit.engine = driver::Engine::kJit;
    jit.opt_level = options.opt_level;
    driver::Expected<std::unique_ptr<Filter>> filter = driver::BuildEngine(prepared->program, jit);
    if (filter.ok()) prepared->jit = std::move(*filter);
    else prepared->jit_error = filter.failure().message;
  }
  return prepared;
}

void AotBatch::Add(PreparedProgram* prepared) { members_.push_back(prepared); }

bool AotBatch::Build(std::string* error, int opt_level) {
  std::vector<std::shared_ptr<const ir::Program>> programs;
  programs.reserve(members_.size());
  for (PreparedProgram* member : members_) programs.push_back(member->program);
  driver::ExpressionOptions options;
  options.opt_level = opt_level;
  driver::Expected<std::vector<std::unique_ptr<Filter>>> filters = driver::BuildAotBatch(programs, options);
  if (!filters.ok()) {
    *error = filters.failure().message;
    for (PreparedProgram* member : members_) member->aot_error = *error;
    return false;
  }
  for (size_t i = 0; i < members_.size(); ++i) members_[i]->aot = std::move((*filters)[i]);
  return true;
}

RunOutcome RunFilter(const Filter& filter, const Value& input, size_t max_outputs) {
  RunOutcome outcome;
  RunOptions options;
  // The harness caps outputs itself (as the oracle does), so the engine's own output limit must
  // not fire first and turn a long but finite output into an error (it fires when the count
  // reaches it, so one above the output the harness stops at).
  options.limits.max_outputs = max_outputs + 2;
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

RunOutcome RunView(const view::FusedKind& kind, const std::string& input_json, size_t max_outputs) {
  RunOutcome outcome;
  RunOptions options;
  options.limits.max_outputs = max_outputs + 2;  // as RunFilter: the harness's cap fires first
  view::FusedRunner runner(kind);
  JsonError json_error;
  if (!runner.Run(input_json, options, &json_error)) {
    outcome.compiled = false;
    outcome.error_message = "invalid JSON: " + json_error.message;
    return outcome;
  }
  const view::ResolverResult& result = runner.result(0);
  for (const view::ViewOutput& v : result.outputs) {
    if (outcome.outputs.size() >= max_outputs) {
      outcome.truncated = true;
      return outcome;  // RunFilter stops here too: what came after the cap is not reported
    }
    std::string text;
    v.WriteJson(&text);
    outcome.outputs.push_back(std::move(text));
  }
  if (result.status == EvalStatus::kError) {
    outcome.error = true;
    outcome.limit = result.error.limit;
    outcome.error_message = result.error.Message();
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
