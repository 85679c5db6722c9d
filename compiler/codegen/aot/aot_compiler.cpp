// CompileAot: many programs -> one LLVM module (an exported entry point per unit plus the
// `wm_abi_version` constant) -> PIC object code for the host triple -> `cc -shared -nostdlib`
// in a private temp dir -> the shared object's bytes. Generated code reaches the runtime only
// through the WmAbi table, so the link is checked with `-z defs` (no undefined symbols at all).
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>

#include "compiler/codegen/codegen.h"
#include "compiler/codegen/internal/emit.h"
#include "base/file.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "runtime/eval/native_abi.h"

extern char** environ;

namespace wm::codegen {
namespace {

// A mkdtemp directory removed (with the files we put in it) on scope exit.
class TempDir {
 public:
  bool Create(std::string* error) {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                          "/wmc-aot-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      *error = "cannot create a temporary directory: " + std::string(std::strerror(errno));
      return false;
    }
    path_ = pattern;
    return true;
  }
  std::string File(const std::string& name) {
    files_.insert(name);
    return path_ + "/" + name;
  }
  ~TempDir() {
    if (path_.empty()) return;
    for (const std::string& name : files_) unlink((path_ + "/" + name).c_str());
    rmdir(path_.c_str());
  }

 private:
  std::string path_;
  std::set<std::string> files_;
};

bool WriteFile(const std::string& path, const char* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  return static_cast<bool>(out);
}


// Links object -> shared object with the system compiler driver; stderr goes to `log`.
bool Link(const std::string& object, const std::string& shared, const std::string& log,
          std::string* error) {
  std::vector<std::string> args = {"cc",      "-shared", "-nostdlib", "-Wl,-z,defs",
                                   "-Wl,-z,noexecstack", "-o", shared,      object};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, "cc", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *error = "cannot run the linker (cc): " + std::string(std::strerror(rc));
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      *error = "waiting for the linker failed: " + std::string(std::strerror(errno));
      return false;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  std::string output;
  std::string unread;
  base::ReadWholeFile(log, &output, &unread);
  *error = "linking the shared object failed: " + output;
  return false;
}

// What BuildObject leaves in *out: the optimised LLVM IR, the object file, or its assembly.
enum class Output : uint8_t { kLlvmIr, kObject, kAssembly };

// Builds the optimised module for `units` with a PIC TargetMachine for the host, then prints it
// or emits machine code into *out, as `output` asks. Returns "" or an error.
std::string BuildObject(const std::vector<AotUnit>& units, const CodegenOptions& options,
                        Output output, std::string* out) {
  if (units.empty()) return "no units to compile";
  std::set<std::string> symbols;
  std::vector<internal::EmitUnit> emit_units;
  for (const AotUnit& unit : units) {
    if (unit.program == nullptr) return "unit " + unit.symbol + " has no program";
    if (unit.symbol.empty() || unit.symbol == WM_NATIVE_ABI_VERSION_SYMBOL ||
        !symbols.insert(unit.symbol).second) {
      return "invalid or duplicate entry symbol '" + unit.symbol + "'";
    }
    std::string why;
    if (!Supports(*unit.program, &why)) {
      return unit.symbol + ": not supported by the native backends: " + why;
    }
    emit_units.push_back({unit.symbol, unit.program.get()});
  }

  internal::InitializeNativeTargetOnce();
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string lookup_error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, lookup_error);
  if (target == nullptr) return "no LLVM target for " + triple + ": " + lookup_error;
  llvm::TargetOptions target_options;
  llvm::CodeGenOptLevel level = options.opt_level <= 0   ? llvm::CodeGenOptLevel::None
                                : options.opt_level == 1 ? llvm::CodeGenOptLevel::Less
                                : options.opt_level == 2 ? llvm::CodeGenOptLevel::Default
                                                         : llvm::CodeGenOptLevel::Aggressive;
  // Generic CPU: a bundle may be loaded on another machine of the same architecture.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", target_options, llvm::Reloc::PIC_, std::nullopt, level));
  if (machine == nullptr) return "cannot create a target machine for " + triple;

  llvm::LLVMContext context;
  llvm::Module module("wm_aot", context);
  module.setDataLayout(machine->createDataLayout());
  module.setTargetTriple(triple);
  std::string error = internal::EmitUnits(module, emit_units);
  if (!error.empty()) return error;
  auto* i32 = llvm::Type::getInt32Ty(context);
  new llvm::GlobalVariable(module, i32, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantInt::get(i32, WM_NATIVE_ABI_VERSION),
                           WM_NATIVE_ABI_VERSION_SYMBOL);
  internal::OptimizeModule(module, *machine, options.opt_level);

  if (output == Output::kLlvmIr) {
    llvm::raw_string_ostream os(*out);
    module.print(os, nullptr);
    return "";
  }
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  llvm::CodeGenFileType file_type = output == Output::kAssembly
                                        ? llvm::CodeGenFileType::AssemblyFile
                                        : llvm::CodeGenFileType::ObjectFile;
  if (machine->addPassesToEmitFile(codegen, os, nullptr, file_type)) {
    return "the LLVM target cannot emit machine code";
  }
  codegen.run(module);
  out->assign(object.data(), object.size());
  return "";
}

AotResult Compile(const std::vector<AotUnit>& units, const CodegenOptions& options) {
  AotResult result;
  std::string object;
  result.error = BuildObject(units, options, Output::kObject, &object);
  if (!result.error.empty()) return result;

  TempDir dir;
  if (!dir.Create(&result.error)) return result;
  std::string object_path = dir.File("resolvers.o");
  std::string shared_path = dir.File("resolvers.so");
  std::string log_path = dir.File("link.log");
  if (!WriteFile(object_path, object.data(), object.size())) {
    result.error = "cannot write " + object_path;
    return result;
  }
  if (!Link(object_path, shared_path, log_path, &result.error)) return result;
  std::string unread_object;
  if (!base::ReadWholeFile(shared_path, &result.shared_object, &unread_object) || result.shared_object.empty()) {
    result.shared_object.clear();
    result.error = "cannot read the linked shared object";
  }
  return result;
}

// One stage dump: BuildObject with exceptions turned into EmitResult::error.
EmitResult Emit(const std::vector<AotUnit>& units, const CodegenOptions& options, Output output,
                const char* what) {
  EmitResult result;
  try {
    result.error = BuildObject(units, options, output, &result.text);
  } catch (const std::exception& e) {
    result.error = std::string(what) + " emission failed: " + e.what();
  }
  if (!result.error.empty()) result.text.clear();
  return result;
}

}  // namespace

EmitResult EmitLlvmIr(const std::vector<AotUnit>& units, const CodegenOptions& options) {
  return Emit(units, options, Output::kLlvmIr, "LLVM IR");
}

EmitResult EmitObject(const std::vector<AotUnit>& units, const CodegenOptions& options) {
  return Emit(units, options, Output::kObject, "object");
}

EmitResult EmitAssembly(const std::vector<AotUnit>& units, const CodegenOptions& options) {
  return Emit(units, options, Output::kAssembly, "assembly");
}

AotResult CompileAot(const std::vector<AotUnit>& units, const CodegenOptions& options) {
  try {
    return Compile(units, options);
  } catch (const std::exception& e) {
    AotResult result;
    result.error = std::string("AOT compilation failed: ") + e.what();
    return result;
  }
}

}  // namespace wm::codegen
