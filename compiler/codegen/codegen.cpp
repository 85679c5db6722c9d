// Shared parts of the native backends: which programs they compile (Supports, UnsupportedReason),
// the LLVM optimisation pipeline, and one-time target initialisation. CompileJit lives in
// jit/jit_compiler.cpp, CompileAot in aot/aot_compiler.cpp, IR emission in emit.cpp.
#include "compiler/codegen/codegen.h"

#include <mutex>
#include <vector>

#include "compiler/codegen/internal/emit.h"
#include "runtime/ir/verify.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

namespace wm::codegen {
namespace internal {
namespace {

// Checks the nodes of one function body (closure arguments of calls included, callee bodies not)
// and collects the functions it calls. Iterative: bodies can be deep.
std::string CheckBody(const ir::Program& program, ir::NodeId body, std::vector<uint32_t>* callees) {
  std::vector<ir::NodeId> stack{body};
  std::vector<bool> seen(program.nodes.size(), false);
  // Patterns: indexes in range, and object-pattern key filters are part of the body.
  auto check_pattern = [&](uint32_t index) -> std::string {
    std::vector<uint32_t> pending{index};
    for (size_t visited = 0; !pending.empty(); ++visited) {
      uint32_t p = pending.back();
      pending.pop_back();
      if (p >= program.patterns.size() || visited > program.patterns.size()) {
        return "pattern index out of range";
      }
      const ir::Pattern& pattern = program.patterns[p];
      for (uint32_t element : pattern.elements) pending.push_back(element);
      for (const ir::Pattern::Entry& entry : pattern.entries) {
        stack.push_back(entry.key);
        if (entry.value_pattern >= 0) pending.push_back(static_cast<uint32_t>(entry.value_pattern));
      }
    }
    return "";
  };
  while (!stack.empty()) {
    ir::NodeId n = stack.back();
    stack.pop_back();
    if (n == ir::kNoNode) continue;
    if (n >= program.nodes.size()) return "node index out of range";
    if (seen[n]) continue;
    seen[n] = true;
    const ir::Node& node = program.nodes[n];
    switch (node.op) {
      case ir::Op::Bind:
      case ir::Op::Reduce:
      case ir::Op::Foreach:
        if (node.patterns.empty()) return std::string(ir::OpName(node.op)) + " without patterns";
        for (uint32_t p : node.patterns) {
          std::string why = check_pattern(p);
          if (!why.empty()) return std::string(ir::OpName(node.op)) + ": " + why;
        }
        break;
      case ir::Op::CallBuiltin: {
        auto id = static_cast<ir::BuiltinId>(node.a);
        bool range = id == ir::BuiltinId::Range || id == ir::BuiltinId::Range3;
        // Generators other than range would need the interpreter's calling convention.
        if (ir::IsGeneratorBuiltin(id) && !range) {
          return std::string("generator builtin ") + ir::BuiltinName(id);
        }
        break;
      }
      case ir::Op::Call: {
        if (node.a >= program.functions.size()) return "function index out of range";
        callees->push_back(node.a);
        break;
      }
      default:
        break;
    }
    for (ir::NodeId kid : node.kids) stack.push_back(kid);
  }
  return "";
}

}  // namespace

std::string UnsupportedReason(const ir::Program& program) {
  // The walks below and the emitter index the program freely: only verified IR gets that far.
  if (std::string why; !ir::Verify(program, &why)) return "invalid IR: " + why;
  // Depth-first over the call graph from function 0, checking each reachable body once
  // (functions on a cycle are emitted as LLVM functions, the others inlined).
  size_t count = program.functions.size();
  std::vector<std::vector<uint32_t>> callees(count);
  std::vector<uint8_t> state(count, 0);  // 0 unvisited, 1 on the stack, 2 done
  struct Frame {
    uint32_t function;
    size_t next;
  };
  std::vector<Frame> stack;
  auto enter = [&](uint32_t f) -> std::string {
    state[f] = 1;
    std::string why = CheckBody(program, program.functions[f].body, &callees[f]);
    if (!why.empty()) return why;
    stack.push_back({f, 0});
    return "";
  };
  if (std::string why = enter(0); !why.empty()) return why;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == callees[top.function].size()) {
      state[top.function] = 2;
      stack.pop_back();
      continue;
    }
    uint32_t callee = callees[top.function][top.next++];
    if (state[callee] == 0) {
      if (std::string why = enter(callee); !why.empty()) return why;
    }
  }
  return "";
}

void InitializeNativeTargetOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

namespace {

// The clean-ups every level from 1 up runs on each function: allocas into registers, redundant
// loads and ABI-table lookups shared, local folds, and the status chains' blocks merged.
llvm::FunctionPassManager LocalCleanups() {
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  passes.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
  passes.addPass(llvm::InstCombinePass());
  passes.addPass(llvm::SimplifyCFGPass());
  return passes;
}

// -O2, the default, inlines what this marks: the continuations with a single call site (inlining
// moves them, no code grows) and small ones. Deciding here, from the emitter's CPS shape, instead
// of running LLVM's inliner with its cost model and a clean-up after every SCC, makes -O2 ~3x
// faster to compile with code as fast (bench/RESULTS.md section 2). Only internal functions
// called directly: the entry points and code reached through a call record's pointers stay calls.
void MarkInlinableContinuations(llvm::Module& module) {
  constexpr size_t kSmallFunction = 40;  // instructions
  for (llvm::Function& fn : module) {
    if (fn.isDeclaration() || !fn.hasLocalLinkage() || fn.hasFnAttribute(llvm::Attribute::NoInline)) continue;
    size_t calls = 0;
    bool only_direct_calls = true;
    for (const llvm::Use& use : fn.uses()) {
      const auto* call = llvm::dyn_cast<llvm::CallBase>(use.getUser());
      if (call == nullptr || !call->isCallee(&use) || call->getFunction() == &fn) {
        only_direct_calls = false;
        break;
      }
      ++calls;
    }
    if (!only_direct_calls || calls == 0) continue;
    if (calls == 1 || fn.getInstructionCount() <= kSmallFunction) {
      fn.addFnAttr(llvm::Attribute::AlwaysInline);
    }
  }
}

}  // namespace

void OptimizeModule(llvm::Module& module, llvm::TargetMachine& machine, int opt_level) {
  if (opt_level <= 0) return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  switch (opt_level) {
    case 1:
      // Fastest compiles: no inliner, so every continuation stays a call (code 1.5-3x slower).
      passes.addPass(llvm::AlwaysInlinerPass());
      passes.addPass(llvm::createModuleToFunctionPassAdaptor(LocalCleanups()));
      break;
    case 2:
      // The continuations inlined, then the local clean-ups once over each resulting function.
      // LLVM's O2 adds GVN, jump threading, loop passes, vectorisers, IPSCCP and more on top,
      // for ~4x the time and no measurable speed on resolver code.
      MarkInlinableContinuations(module);
      passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
      passes.addPass(llvm::createModuleToFunctionPassAdaptor(LocalCleanups()));
      break;
    default:
      // -O3: LLVM's own full O3 pipeline (what -O2 was before the inlining pipeline).
      passes = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
      break;
  }
  passes.run(module, mam);
}

llvm::CodeGenOptLevel CodegenLevel(int opt_level) {
  switch (opt_level) {
    case 0:
    case 1: return llvm::CodeGenOptLevel::None;  // fast register allocation, no machine passes
    // The greedy allocator and light machine passes; AddCodegenPasses (the AOT objects, also
    // loaded by CompileJitBatch) builds None's pipeline with the greedy allocator instead.
    case 2: return llvm::CodeGenOptLevel::Less;
    default: return llvm::CodeGenOptLevel::Aggressive;
  }
}

void SetCodegenOptions(int opt_level, llvm::TargetOptions* options) {
  // At -O2 FastISel selects instructions about 3x faster than SelectionDAG, and the code is as
  // fast on the benchmark corpora: resolver code is calls and branches that both select alike.
  options->EnableFastISel = opt_level <= 2;
}

namespace {

// LLVM picks the register allocator from the codegen level: the fast one at None, which spills
// every value live across a call (resolver code is mostly calls: 1.3-2.4x slower code), the
// greedy one with the rest of the machine optimisations at Less (4x the codegen time of None,
// most of it in the other machine passes). -O2 wants None's light pipeline with the greedy
// allocator, which only the `-optimize-regalloc` option selects, and which LLVM reads while
// building the pipeline: set it for that moment under a lock, so that other levels and other
// threads' pipelines keep their defaults.
class OptimizedRegAllocScope {
 public:
  explicit OptimizedRegAllocScope(bool enable) : lock_(Mutex()) {
    if (!enable) return;
    auto& registered = llvm::cl::getRegisteredOptions();
    auto found = registered.find("optimize-regalloc");
    if (found == registered.end()) return;  // an LLVM without it: None's default allocator
    option_ = static_cast<llvm::cl::opt<llvm::cl::boolOrDefault>*>(found->second);
    saved_ = option_->getValue();
    option_->setValue(llvm::cl::BOU_TRUE);
  }
  ~OptimizedRegAllocScope() {
    if (option_ != nullptr) option_->setValue(saved_);
  }

 private:
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  std::lock_guard<std::mutex> lock_;
  llvm::cl::opt<llvm::cl::boolOrDefault>* option_ = nullptr;
  llvm::cl::boolOrDefault saved_ = llvm::cl::BOU_UNSET;
};

}  // namespace

bool AddCodegenPasses(llvm::TargetMachine& machine, int opt_level, llvm::legacy::PassManager& passes,
                      llvm::raw_pwrite_stream& os, llvm::CodeGenFileType file_type) {
  bool light_with_greedy = opt_level == 2;
  if (light_with_greedy) machine.setOptLevel(llvm::CodeGenOptLevel::None);
  OptimizedRegAllocScope regalloc(light_with_greedy);
  return machine.addPassesToEmitFile(passes, os, nullptr, file_type, /*DisableVerify=*/true);
}

}  // namespace internal

bool Supports(const ir::Program& program, std::string* why) {
  std::string reason = internal::UnsupportedReason(program);
  if (why != nullptr) *why = reason;
  return reason.empty();
}

}  // namespace wm::codegen
