// Lowering: jq AST -> resolver IR. Resolves names (variables to frame slots, calls to builtins,
// prelude functions written in jq, or user `def`s), expands syntactic sugar (`.a` -> Index,
// `?` -> Try, `select`, `any`, `to_entries`, ...), and reports name errors as diagnostics.
//
// IR conventions of lowered programs (the interpreter and the native backends rely on them):
// - Var, Break and CallParam immediates are ir::ScopedIndex(levels, index): walk `levels` lexical
//   parents (Function::parent) up from the current frame, then use slot / closure parameter `index`.
// - User `def`s have the enclosing function as parent (0 at top level); prelude functions (jq's
//   own jq-defined builtins, copied in only when called) have parent -1.
// - `def f($a)` is closure parameter 0 plus `Bind(CallParam 0, $a)` at the top of the body;
//   Function::value_param_slots stays empty.
// - Native builtins are resolved by name and arity in the table of runtime/ir/builtins.def; every
//   CallBuiltin has as many children as its builtin's arity (ir::Verify checks it).
// - Generator builtins: range/1 is CallBuiltin Range {Const 0, n}; range/3 is Range3; their first
//   argument is the outermost loop. Other CallBuiltin nodes loop over their last argument
//   outermost (jq's order).
// - The output passes ir::Verify (runtime/ir/verify.h).
// Diagnostics: WM110 unknown function, WM111 unknown variable, WM112 unknown label,
// WM113 modules (import/include) unsupported, WM114 program too large or too deep.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/jq/ast.h"
#include "compiler/source/diagnostic.h"
#include "runtime/ir/ir.h"

namespace wm::lower {

struct LowerOptions {
  // Names bound from outside (`--arg name v` makes "$name" available). Their slots are the first
  // slots of function 0's frame, in this order.
  std::vector<std::string> global_vars;
  SourceMap source_map;  // for locating diagnostics
};

struct LowerResult {
  std::shared_ptr<ir::Program> program;  // null on error
  std::vector<Diagnostic> diagnostics;    // e.g. "jq: error: foo/0 is not defined" (rule WM110)
};

LowerResult Lower(const jq::Node& ast, std::string_view source, const LowerOptions& options = {});

}  // namespace wm::lower
