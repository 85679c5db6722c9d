// Names of the driver's stages and engines (the `--emit=` and `--engine=` values), and the
// one-line summary of a Failure.
#include "compiler/driver/stage.h"

#include <array>

namespace wm::driver {
namespace {

constexpr std::array<std::pair<Stage, std::string_view>, 6> kStages = {{
    {Stage::kAst, "ast"},
    {Stage::kResolved, "resolved"},
    {Stage::kChecked, "checked"},
    {Stage::kIr, "ir"},
    {Stage::kLlvm, "llvm"},
    {Stage::kAsm, "asm"},
}};

constexpr std::array<std::pair<Engine, std::string_view>, 4> kEngines = {{
    {Engine::kInterp, "interp"},
    {Engine::kJit, "jit"},
    {Engine::kAot, "aot"},
    {Engine::kAuto, "auto"},
}};

// Looks `key` up in one of the tables above, in either direction.
template <class Key, class Table>
std::string_view NameOf(const Table& table, Key key) {
  for (const auto& [k, name] : table) {
    if (k == key) return name;
  }
  return "?";
}
template <class Table>
auto KeyOf(const Table& table, std::string_view name) -> std::optional<decltype(table[0].first)> {
  for (const auto& [k, n] : table) {
    if (n == name) return k;
  }
  return std::nullopt;
}

}  // namespace

std::string_view StageName(Stage stage) { return NameOf(kStages, stage); }
std::optional<Stage> StageFromName(std::string_view name) { return KeyOf(kStages, name); }

std::string StageNames() {
  std::string out;
  for (const auto& [stage, name] : kStages) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

std::string_view EngineName(Engine engine) { return NameOf(kEngines, engine); }
std::optional<Engine> EngineFromName(std::string_view name) { return KeyOf(kEngines, name); }

std::string Failure::Summary() const {
  if (diagnostics.empty()) return message;
  return diagnostics.front().rule + ": " + diagnostics.front().message;
}

Failure Failure::WithMessage(Stage stage, std::string message) {
  Failure failure;
  failure.stage = stage;
  failure.message = std::move(message);
  return failure;
}

Failure Failure::WithDiagnostics(Stage stage, std::vector<Diagnostic> diagnostics) {
  Failure failure;
  failure.stage = stage;
  failure.diagnostics = std::move(diagnostics);
  return failure;
}

}  // namespace wm::driver
