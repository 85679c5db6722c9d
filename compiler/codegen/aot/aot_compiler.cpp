// CompileAot: many programs -> LLVM modules (an exported entry point per unit, units with the same
// IR emitted once and aliased, plus the `wm_abi_version` constant), built on up to 2 threads, one
// module each -> PIC object code for the host triple -> `cc -shared -nostdlib`
// in a private temp dir -> the shared object's bytes. Generated code reaches the runtime only
// through the WmAbi table, so the link is checked with `-z defs` (no undefined symbols at all).
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "compiler/codegen/internal/emit.h"
#include "base/file.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalAlias.h"
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
#include "runtime/ir/ir_binary.h"

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
bool Link(const std::vector<std::string>& objects, const std::string& shared, const std::string& log,
          std::string* error) {
  std::vector<std::string> args = {"cc", "-shared", "-nostdlib", "-Wl,-z,defs", "-Wl,-z,noexecstack",
                                   "-o", shared};
  args.insert(args.end(), objects.begin(), objects.end());
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

// Reports the wall time of consecutive phases to CodegenOptions::on_phase (when set).
class PhaseClock {
 public:
  explicit PhaseClock(const CodegenOptions& options) : options_(options) {}
  void Done(const char* phase) {
    auto now = std::chrono::steady_clock::now();
    if (options_.on_phase) options_.on_phase(phase, std::chrono::duration<double>(now - start_).count());
    start_ = now;
  }

 private:
  const CodegenOptions& options_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// What BuildObject leaves in *out: the optimised LLVM IR, the object file, or its assembly.
enum class Output : uint8_t { kLlvmIr, kObject, kAssembly };

// The units of one LLVM module: programs to emit, entry points that are aliases of another
// unit's entry (the same IR: catalogs repeat `.metadata.name`-style resolvers), and whether this
// module defines `wm_abi_version`.
struct Partition {
  std::vector<internal::EmitUnit> units;
  std::vector<std::pair<std::string, std::string>> aliases;  // alias symbol -> emitted symbol
  bool abi_version = false;
  size_t weight = 0;  // IR nodes, to balance partitions
};

// Checks the units and groups them into `count` partitions (largest programs first, each to the
// lightest partition), each identical program emitted once. Returns "" or an error.
std::string Partitions(const std::vector<AotUnit>& units, size_t count, std::vector<Partition>* out) {
  if (units.empty()) return "no units to compile";
  std::set<std::string> symbols;
  std::map<std::string, size_t> first_by_ir;  // serialized IR (source text blanked) -> unit
  std::vector<internal::EmitUnit> unique;
  std::vector<std::pair<std::string, size_t>> aliases;  // symbol -> index in `unique`
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
    ir::Program code = *unit.program;
    code.source.clear();
    auto [it, inserted] = first_by_ir.emplace(ir::SerializeProgram(code), unique.size());
    if (inserted) unique.push_back({unit.symbol, unit.program.get()});
    else aliases.emplace_back(unit.symbol, it->second);
  }
  std::vector<size_t> order(unique.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return unique[a].program->nodes.size() > unique[b].program->nodes.size();
  });
  out->assign(std::min(count, unique.size()), Partition{});
  std::vector<size_t> partition_of(unique.size());
  for (size_t i : order) {
    auto lightest = std::min_element(out->begin(), out->end(), [](const Partition& a, const Partition& b) {
      return a.weight < b.weight;
    });
    partition_of[i] = static_cast<size_t>(lightest - out->begin());
    lightest->weight += unique[i].program->nodes.size() + 1;
  }
  // Units keep their given order inside a partition (the dumps print them in that order).
  for (size_t i = 0; i < unique.size(); ++i) (*out)[partition_of[i]].units.push_back(unique[i]);
  for (const auto& [symbol, target] : aliases) {
    (*out)[partition_of[target]].aliases.emplace_back(symbol, unique[target].symbol);
  }
  out->front().abi_version = true;
  return "";
}

// A PIC TargetMachine for the host triple with a generic CPU (a bundle may be loaded on another
// machine of the same architecture); one per thread.
std::unique_ptr<llvm::TargetMachine> HostMachine(const CodegenOptions& options, std::string* error) {
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string lookup_error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, lookup_error);
  if (target == nullptr) {
    *error = "no LLVM target for " + triple + ": " + lookup_error;
    return nullptr;
  }
  llvm::CodeGenOptLevel level = internal::CodegenLevel(options.opt_level);
  llvm::TargetOptions target_options;
  internal::SetCodegenOptions(options.opt_level, &target_options);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", target_options, llvm::Reloc::PIC_, std::nullopt, level));
  if (machine == nullptr) *error = "cannot create a target machine for " + triple;
  return machine;
}

// Emits, optimises and prints or compiles one partition in its own LLVMContext (so partitions
// can run on separate threads). Phase times go to *times as (name, seconds).
std::string BuildPartition(const Partition& partition, const CodegenOptions& options, Output output,
                           std::string* out, std::vector<std::pair<const char*, double>>* times) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine = HostMachine(options, &error);
  if (machine == nullptr) return error;
  CodegenOptions timing;
  timing.on_phase = [times](const char* phase, double seconds) { times->emplace_back(phase, seconds); };
  PhaseClock clock(timing);
  llvm::LLVMContext context;
  // Value names only matter in the IR dump; without them LLVM allocates and renames far less.
  context.setDiscardValueNames(output != Output::kLlvmIr);
  llvm::Module module("wm_aot", context);
  module.setDataLayout(machine->createDataLayout());
  module.setTargetTriple(machine->getTargetTriple().str());
  error = internal::EmitUnits(module, partition.units);
  if (!error.empty()) return error;
  for (const auto& [alias, target] : partition.aliases) {
    llvm::Function* function = module.getFunction(target);
    if (function == nullptr) return "no entry point " + target + " for alias " + alias;
    llvm::GlobalAlias::create(llvm::GlobalValue::ExternalLinkage, alias, function);
  }
  if (partition.abi_version) {
    auto* i32 = llvm::Type::getInt32Ty(context);
    new llvm::GlobalVariable(module, i32, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
                             llvm::ConstantInt::get(i32, WM_NATIVE_ABI_VERSION),
                             WM_NATIVE_ABI_VERSION_SYMBOL);
  }
  clock.Done("llvm emit");
  internal::OptimizeModule(module, *machine, options.opt_level);
  clock.Done("llvm optimize");
  if (output == Output::kLlvmIr) {
    llvm::raw_string_ostream os(*out);
    module.print(os, nullptr);
    return "";
  }
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  llvm::CodeGenFileType file_type = output == Output::kAssembly ? llvm::CodeGenFileType::AssemblyFile
                                                                : llvm::CodeGenFileType::ObjectFile;
  if (internal::AddCodegenPasses(*machine, options.opt_level, codegen, os, file_type)) {
    return "the LLVM target cannot emit machine code";
  }
  codegen.run(module);
  clock.Done("llvm codegen");
  out->assign(object.data(), object.size());
  return "";
}

// Builds `units` into one text or object per partition: 1 for the dumps (one deterministic
// text), up to kCodegenThreads objects built in parallel for a shared object. Each phase is
// reported with the slowest partition's time (the partitions overlap).
constexpr size_t kCodegenThreads = 2;
constexpr size_t kMinUnitsPerThread = 8;  // below this a thread costs more than it saves

std::string BuildObjects(const std::vector<AotUnit>& units, const CodegenOptions& options,
                         Output output, std::vector<std::string>* outs) {
  size_t count = output == Output::kObject ? std::min(kCodegenThreads, std::max<size_t>(1, units.size() / kMinUnitsPerThread)) : 1;
  std::vector<Partition> partitions;
  std::string error = Partitions(units, count, &partitions);
  if (!error.empty()) return error;
  internal::InitializeNativeTargetOnce();
  outs->assign(partitions.size(), "");
  std::vector<std::string> errors(partitions.size());
  std::vector<std::vector<std::pair<const char*, double>>> times(partitions.size());
  auto build = [&](size_t i) {
    try {
      errors[i] = BuildPartition(partitions[i], options, output, &(*outs)[i], &times[i]);
    } catch (const std::exception& e) {
      errors[i] = e.what();
    }
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < partitions.size(); ++i) threads.emplace_back(build, i);
  build(0);
  for (std::thread& t : threads) t.join();
  for (const std::string& e : errors) {
    if (!e.empty()) return e;
  }
  for (size_t phase = 0; options.on_phase && phase < times[0].size(); ++phase) {
    double slowest = 0;
    for (const auto& t : times) slowest = std::max(slowest, phase < t.size() ? t[phase].second : 0.0);
    options.on_phase(times[0][phase].first, slowest);
  }
  return "";
}

}  // namespace

namespace internal {
std::string BuildObjectFiles(const std::vector<AotUnit>& units, const CodegenOptions& options,
                             std::vector<std::string>* objects) {
  return BuildObjects(units, options, Output::kObject, objects);
}
}  // namespace internal

namespace {

// One text (IR or assembly) or object for the dumps.
std::string BuildObject(const std::vector<AotUnit>& units, const CodegenOptions& options,
                        Output output, std::string* out) {
  std::vector<std::string> outs;
  std::string error = BuildObjects(units, options, output, &outs);
  if (error.empty()) *out = std::move(outs.front());
  return error;
}

AotResult Compile(const std::vector<AotUnit>& units, const CodegenOptions& options) {
  AotResult result;
  std::vector<std::string> objects;
  result.error = BuildObjects(units, options, Output::kObject, &objects);
  if (!result.error.empty()) return result;

  TempDir dir;
  if (!dir.Create(&result.error)) return result;
  std::vector<std::string> object_paths;
  for (size_t i = 0; i < objects.size(); ++i) {
    object_paths.push_back(dir.File("resolvers" + std::to_string(i) + ".o"));
    if (!WriteFile(object_paths.back(), objects[i].data(), objects[i].size())) {
      result.error = "cannot write " + object_paths.back();
      return result;
    }
  }
  std::string shared_path = dir.File("resolvers.so");
  std::string log_path = dir.File("link.log");
  PhaseClock clock(options);
  if (!Link(object_paths, shared_path, log_path, &result.error)) return result;
  clock.Done("link");
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
