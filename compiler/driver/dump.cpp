// Stage dumps (see internal/dump.h): the resolver's annotated AST, the IR printer of runtime/ir,
// and the LLVM IR and assembly printers of compiler/codegen.
#include "compiler/driver/internal/dump.h"

#include "compiler/codegen/codegen.h"
#include "compiler/jq/resolve.h"

namespace wm::driver::internal {

std::string DumpResolved(const jq::Node& ast) { return jq::Dump(ast, jq::Resolve(ast)); }

Expected<std::string> DumpProgram(const std::shared_ptr<const ir::Program>& program, Stage stage,
                                  const std::string& symbol, int opt_level) {
  if (stage == Stage::kIr) return ir::Dump(*program);
  if (stage != Stage::kLlvm && stage != Stage::kAsm) {
    return Failure::WithMessage(
        stage, "no dump of stage " + std::string(StageName(stage)) + " for a lowered program");
  }
  std::string why;
  if (!codegen::Supports(*program, &why)) {
    return Failure::WithMessage(stage, "the native backends do not support " + why);
  }
  codegen::CodegenOptions options;
  options.opt_level = opt_level;
  std::vector<codegen::AotUnit> units = {{symbol, program}};
  codegen::EmitResult emitted = stage == Stage::kLlvm ? codegen::EmitLlvmIr(units, options)
                                                      : codegen::EmitAssembly(units, options);
  if (emitted.text.empty()) return Failure::WithMessage(stage, emitted.error);
  return std::move(emitted.text);
}

}  // namespace wm::driver::internal
