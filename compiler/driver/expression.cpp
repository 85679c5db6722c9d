// The single-expression pipeline (see expression.h): front end (parse, policy, lowering), then
// one engine, or a stage dump (the resolver's bindings and the type checker's result included).
// The native engines go through compiler/codegen; AOT code is loaded through runtime/bundle's
// NativeModule, exactly as a bundle's native section is.
#include "compiler/driver/expression.h"

#include "compiler/check/typecheck.h"
#include "compiler/codegen/codegen.h"
#include "compiler/driver/internal/dump.h"
#include "compiler/jq/parser.h"
#include "compiler/jq/policy.h"
#include "compiler/lower/lower.h"
#include "compiler/schema/registry.h"
#include "runtime/bundle/native_module.h"

namespace wm::driver {
namespace {

codegen::CodegenOptions NativeOptions(const ExpressionOptions& options) {
  codegen::CodegenOptions native;
  native.opt_level = options.opt_level;
  return native;
}

// Parse and policy: the AST, or a Failure at Stage::kAst.
Expected<LoweredExpression> ParseExpression(std::string_view text, const ExpressionOptions& options,
                                            const SourceMap& map) {
  jq::ParseOptions parse_options;
  parse_options.source_map = map;
  jq::ParseResult parsed = jq::Parse(text, parse_options);
  if (!parsed.ok()) return Failure::WithDiagnostics(Stage::kAst, std::move(parsed.diagnostics));
  LoweredExpression out;
  out.text = std::string(text);
  out.ast = std::move(parsed.ast);
  if (options.policy == nullptr) return out;
  std::vector<Diagnostic> findings = jq::CheckPolicy(*out.ast, *options.policy, map);
  for (const Diagnostic& d : findings) {
    if (d.severity == Severity::Error)
      return Failure::WithDiagnostics(Stage::kAst, std::move(findings));
  }
  out.diagnostics = std::move(findings);
  return out;
}

// `--emit=checked` of one expression: the type checker's result against an input of no schema
// ("unknown"), as `<expr>: TEXT => TYPE, CARDINALITY`, then its findings as `// ` lines.
std::string DumpCheckedExpression(const LoweredExpression& lowered,
                                  const ExpressionOptions& options) {
  SourceMap map = SourceMap::ForText(options.source_name, lowered.text);
  std::unique_ptr<schema::SchemaRegistry> no_schemas = schema::SchemaRegistry::FromMemory({});
  std::vector<Diagnostic> findings;
  check::CheckedField checked;
  checked.path = options.source_name;
  checked.expression = lowered.text;
  checked.checked = true;
  checked.result = check::CheckExpression(*lowered.ast, map, nullptr, "", *no_schemas, &findings);
  std::string out = check::DumpCheckedFields({checked});
  for (const Diagnostic& d : findings) out += "// " + d.rule + ": " + d.message + "\n";
  return out;
}

}  // namespace

Expected<LoweredExpression> LowerExpression(std::string_view text,
                                            const ExpressionOptions& options) {
  SourceMap map = SourceMap::ForText(options.source_name, text);
  Expected<LoweredExpression> parsed = ParseExpression(text, options, map);
  if (!parsed.ok()) return parsed;
  lower::LowerOptions lower_options;
  lower_options.global_vars = options.global_vars;
  lower_options.source_map = map;
  lower::LowerResult lowered = lower::Lower(*parsed->ast, text, lower_options);
  if (!lowered.program) return Failure::WithDiagnostics(Stage::kIr, std::move(lowered.diagnostics));
  parsed->program = std::move(lowered.program);
  return parsed;
}

std::string NativeUnsupportedReason(const ir::Program& program) {
  std::string why;
  codegen::Supports(program, &why);
  return why;
}

Engine ChooseEngine(const ir::Program& program, Engine requested) {
  if (requested != Engine::kAuto) return requested;
  return codegen::Supports(program, nullptr) ? Engine::kJit : Engine::kInterp;
}

Expected<std::unique_ptr<Filter>> BuildEngine(std::shared_ptr<const ir::Program> program,
                                              const ExpressionOptions& options) {
  Engine engine = ChooseEngine(*program, options.engine);
  if (engine == Engine::kInterp) return MakeInterpreter(std::move(program));
  std::string why;
  if (!codegen::Supports(*program, &why)) {
    return Failure::WithMessage(
        Stage::kLlvm, "the " + std::string(EngineName(engine)) + " engine does not support " + why);
  }
  if (engine == Engine::kJit) {
    codegen::JitResult jit = codegen::CompileJit(std::move(program), NativeOptions(options));
    if (!jit.filter)
      return Failure::WithMessage(Stage::kLlvm, "jit compilation failed: " + jit.error);
    return std::move(jit.filter);
  }
  Expected<std::vector<std::unique_ptr<Filter>>> batch =
      BuildAotBatch({std::move(program)}, options);
  if (!batch.ok()) return batch.failure();
  return std::move(batch->front());
}

Expected<std::vector<std::unique_ptr<Filter>>> BuildAotBatch(
    const std::vector<std::shared_ptr<const ir::Program>>& programs,
    const ExpressionOptions& options) {
  std::vector<codegen::AotUnit> units;
  units.reserve(programs.size());
  for (size_t i = 0; i < programs.size(); ++i) {
    units.push_back({"wm_expression_" + std::to_string(i), programs[i]});
  }
  std::vector<std::unique_ptr<Filter>> filters;
  if (units.empty()) return filters;
  codegen::AotResult aot = codegen::CompileAot(units, NativeOptions(options));
  if (aot.shared_object.empty())
    return Failure::WithMessage(Stage::kAsm, "aot compilation failed: " + aot.error);
  std::string error;
  std::shared_ptr<NativeModule> module = NativeModule::Create(aot.shared_object, &error);
  if (!module) return Failure::WithMessage(Stage::kAsm, "cannot load the aot module: " + error);
  for (const codegen::AotUnit& unit : units) {
    filters.push_back(module->GetFilter(unit.symbol, unit.program));
    if (!filters.back()) {
      return Failure::WithMessage(Stage::kAsm, "the aot module has no entry point " + unit.symbol);
    }
  }
  return filters;
}

Expected<Executable> CompileExpression(std::string_view text, const ExpressionOptions& options) {
  Expected<LoweredExpression> lowered = LowerExpression(text, options);
  if (!lowered.ok()) return lowered.failure();
  Executable out;
  out.engine = ChooseEngine(*lowered->program, options.engine);
  Expected<std::unique_ptr<Filter>> filter = BuildEngine(lowered->program, options);
  if (!filter.ok()) return filter.failure();
  out.text = std::move(lowered->text);
  out.program = std::move(lowered->program);
  out.filter = std::move(*filter);
  out.diagnostics = std::move(lowered->diagnostics);
  return out;
}

Expected<std::string> EmitExpression(std::string_view text, Stage stage,
                                     const ExpressionOptions& options) {
  if (stage == Stage::kAst) {
    SourceMap map = SourceMap::ForText(options.source_name, text);
    Expected<LoweredExpression> parsed = ParseExpression(text, options, map);
    if (!parsed.ok()) return parsed.failure();
    return jq::DumpAst(*parsed->ast);
  }
  // Every later stage lowers first, so an unknown name is an error here too (the resolver alone
  // would show it as a builtin).
  Expected<LoweredExpression> lowered = LowerExpression(text, options);
  if (!lowered.ok()) return lowered.failure();
  if (stage == Stage::kResolved) return internal::DumpResolved(*lowered->ast);
  if (stage == Stage::kChecked) return DumpCheckedExpression(*lowered, options);
  return internal::DumpProgram(lowered->program, stage, "wm_expression", options.opt_level);
}

}  // namespace wm::driver
