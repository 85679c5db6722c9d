// Vocabulary of the compilation driver: the stages a compilation goes through (each one can be
// dumped with `--emit=STAGE`), the engines an expression can run on, and Expected<T>, the
// status-or-value every driver entry point returns (a value, or the Failure that stopped it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "compiler/source/diagnostic.h"

namespace wm::driver {

// Compilation stages in pipeline order; each is a `--emit=` value.
enum class Stage : uint8_t {
  kAst,       // jq AST with source ranges (after parse and the safety policy)
  kResolved,  // the AST with each call and $variable annotated by its binding (jq/resolve.h)
  kChecked,   // the type checker's result type and cardinality of each expression
  kIr,        // resolver IR, what the interpreter runs
  kLlvm,      // optimised LLVM IR of the native backends
  kAsm,       // native assembly of the AOT object
};

// "ast", "resolved", "checked", "ir", "llvm", "asm".
std::string_view StageName(Stage stage);
std::optional<Stage> StageFromName(std::string_view name);
// The names of every stage, comma separated (for usage messages).
std::string StageNames();

enum class Engine : uint8_t {
  kInterp,  // the reference interpreter (runs every program)
  kJit,     // LLVM ORC JIT, in process
  kAot,     // AOT shared object, loaded as a bundle would load it
  kAuto,    // the JIT when the native backends support the program, else the interpreter
};

// "interp", "jit", "aot", "auto".
std::string_view EngineName(Engine engine);
std::optional<Engine> EngineFromName(std::string_view name);

// Why a compilation stopped. User mistakes (syntax, policy, unknown names) are diagnostics;
// what the native backends refuse or fail at (unsupported construct, LLVM, linker, loader) is a
// message, worded to follow "wmc eval: " ("jit compilation failed: ...").
struct Failure {
  Stage stage = Stage::kAst;            // the stage that failed
  std::vector<Diagnostic> diagnostics;  // user mistakes, in the order the stage reported them
  std::string message;                  // set when diagnostics are empty
  // The first diagnostic ("WM110: jq: error: f/0 is not defined") or the message.
  std::string Summary() const;

  static Failure WithMessage(Stage stage, std::string message);
  static Failure WithDiagnostics(Stage stage, std::vector<Diagnostic> diagnostics);
};

// A value, or the Failure that kept the driver from producing it.
template <class T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}            // NOLINT: implicit by design
  Expected(Failure failure) : state_(std::move(failure)) {}  // NOLINT: implicit by design

  bool ok() const { return state_.index() == 0; }
  T& value() { return std::get<0>(state_); }
  const T& value() const { return std::get<0>(state_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const Failure& failure() const { return std::get<1>(state_); }

 private:
  std::variant<T, Failure> state_;
};

}  // namespace wm::driver
