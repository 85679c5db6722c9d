// Lowering: jq AST -> resolver IR. Resolves names (variables to frame slots, calls to builtins,
// prelude functions written in jq, or user `def`s), expands syntactic sugar (`.a` -> Index,
// `?` -> Try, `select`, `any`, `to_entries`, ...), and reports name errors as diagnostics.
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
