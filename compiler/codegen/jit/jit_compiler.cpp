// CompileJit: resolver IR -> LLVM IR (internal/emit.h) -> optimised -> ORC LLJIT in this process;
// CompileJitBatch: many programs -> the AOT backend's objects -> one LLJIT. The returned Filters
// share their LLJIT session and run the entry point through the native ABI table
// (runtime/eval/native_abi.h), exactly as AOT code does.
#include <memory>
#include <string>
#include <utility>

#include "compiler/codegen/codegen.h"
#include "compiler/codegen/internal/emit.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"
#include "runtime/eval/native_abi.h"

namespace wm::codegen {
namespace {

constexpr const char* kJitEntry = "wm_jit_entry";

class JitFilter : public Filter {
 public:
  JitFilter(std::shared_ptr<llvm::orc::LLJIT> jit, WmEntry entry,
            std::shared_ptr<const ir::Program> program)
      : Filter("jit"), jit_(std::move(jit)), entry_(entry), program_(std::move(program)) {}

  EvalStatus Run(const Value& input, const OutputFn& emit, EvalError* error,
                 const RunOptions& options) const override {
    return native::RunEntry(entry_, *program_, input, emit, error, options);
  }

 private:
  std::shared_ptr<llvm::orc::LLJIT> jit_;  // owns the code entry_ points into
  WmEntry entry_;
  std::shared_ptr<const ir::Program> program_;
};

JitResult Compile(std::shared_ptr<const ir::Program> program, const CodegenOptions& options) {
  JitResult result;
  if (program == nullptr) {
    result.error = "no program";
    return result;
  }
  std::string why;
  if (!Supports(*program, &why)) {
    result.error = "not supported by the native backends: " + why;
    return result;
  }
  internal::InitializeNativeTargetOnce();
  auto fail = [&](llvm::Error error) {
    result.error = "LLVM JIT: " + llvm::toString(std::move(error));
    return std::move(result);
  };

  auto machine_builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machine_builder) return fail(machine_builder.takeError());
  machine_builder->setCodeGenOptLevel(internal::CodegenLevel(options.opt_level));
  internal::SetCodegenOptions(options.opt_level, &machine_builder->getOptions());
  auto machine = machine_builder->createTargetMachine();
  if (!machine) return fail(machine.takeError());

  auto context = std::make_unique<llvm::LLVMContext>();
  context->setDiscardValueNames(true);  // names cost time and nobody reads JIT IR
  auto module = std::make_unique<llvm::Module>("wm_jit", *context);
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple().str());
  std::string error = internal::EmitUnits(*module, {{kJitEntry, program.get()}});
  if (!error.empty()) {
    result.error = error;
    return result;
  }
  internal::OptimizeModule(*module, **machine, options.opt_level);

  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machine_builder)).create();
  if (!jit) return fail(jit.takeError());
  if (llvm::Error e = (*jit)->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
    return fail(std::move(e));
  }
  auto address = (*jit)->lookup(kJitEntry);
  if (!address) return fail(address.takeError());
  auto entry = address->toPtr<WmEntry>();
  result.filter = std::make_unique<JitFilter>(std::move(*jit), entry, std::move(program));
  return result;
}

// The batch's symbols: wm_jit_<index of the program>.
std::string BatchSymbol(size_t index) { return "wm_jit_" + std::to_string(index); }

JitBatchResult CompileBatch(const std::vector<std::shared_ptr<const ir::Program>>& programs,
                            const CodegenOptions& options) {
  JitBatchResult result;
  result.filters.resize(programs.size());
  result.errors.resize(programs.size());
  std::vector<AotUnit> units;
  std::vector<size_t> unit_program;  // units[i] compiles programs[unit_program[i]]
  for (size_t i = 0; i < programs.size(); ++i) {
    std::string why = programs[i] == nullptr ? "no program" : "";
    if (why.empty() && !Supports(*programs[i], &why)) why = "not supported by the native backends: " + why;
    if (!why.empty()) {
      result.errors[i] = why;
      continue;
    }
    units.push_back({BatchSymbol(i), programs[i]});
    unit_program.push_back(i);
  }
  if (units.empty()) return result;
  std::vector<std::string> objects;
  if (std::string error = internal::BuildObjectFiles(units, options, &objects); !error.empty()) {
    result.error = error;
    return result;
  }
  auto fail = [&](llvm::Error error) {
    result.error = "LLVM JIT: " + llvm::toString(std::move(error));
    result.filters.clear();
    result.filters.resize(programs.size());
    return std::move(result);
  };
  auto created = llvm::orc::LLJITBuilder().create();
  if (!created) return fail(created.takeError());
  std::shared_ptr<llvm::orc::LLJIT> jit = std::move(*created);
  for (size_t i = 0; i < objects.size(); ++i) {
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(objects[i], "wm_jit_batch" + std::to_string(i));
    if (llvm::Error e = jit->addObjectFile(std::move(buffer))) return fail(std::move(e));
  }
  for (size_t u = 0; u < units.size(); ++u) {
    auto address = jit->lookup(units[u].symbol);
    if (!address) return fail(address.takeError());
    size_t i = unit_program[u];
    result.filters[i] = std::make_unique<JitFilter>(jit, address->toPtr<WmEntry>(), programs[i]);
  }
  return result;
}

}  // namespace

JitBatchResult CompileJitBatch(const std::vector<std::shared_ptr<const ir::Program>>& programs,
                               const CodegenOptions& options) {
  try {
    return CompileBatch(programs, options);
  } catch (const std::exception& e) {
    JitBatchResult result;
    result.filters.resize(programs.size());
    result.errors.resize(programs.size());
    result.error = std::string("JIT compilation failed: ") + e.what();
    return result;
  }
}

JitResult CompileJit(std::shared_ptr<const ir::Program> program, const CodegenOptions& options) {
  try {
    return Compile(std::move(program), options);
  } catch (const std::exception& e) {
    JitResult result;
    result.error = std::string("JIT compilation failed: ") + e.what();
    return result;
  }
}

}  // namespace wm::codegen
