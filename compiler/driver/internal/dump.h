// Stage dumps shared by expressions and definitions: a parsed AST with its name resolution, and
// one lowered program printed at a stage after the front end (IR, LLVM IR, assembly). Included
// only by compiler/driver/*.cpp.
#pragma once

#include <memory>
#include <string>

#include "compiler/driver/stage.h"
#include "compiler/jq/ast.h"
#include "runtime/ir/ir.h"

namespace wm::driver::internal {

// `program` at `stage` (kIr, kLlvm or kAsm; the native stages name the entry point `symbol`).
// A Failure with a message when the native backends do not support the program or emission fails.
Expected<std::string> DumpProgram(const std::shared_ptr<const ir::Program>& program, Stage stage,
                                  const std::string& symbol, int opt_level);

// `ast` annotated with the binding of every call and $variable (Stage::kResolved).
std::string DumpResolved(const jq::Node& ast);

}  // namespace wm::driver::internal
