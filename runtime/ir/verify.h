// The one structural verifier of resolver IR, driven by the op table (ops.def) and the builtin
// table (builtins.def). The binary loader (ir_binary.h) runs it on every program it reads, the
// interpreter before it runs a program, and the native backends before they compile one; the
// lowering's output must always pass it.
#pragma once

#include <string>

#include "runtime/ir/ir.h"

namespace wm::ir {

// True when `program` is sound: function 0 exists; every child, constant, pattern, function and
// builtin reference is in range; each node has the children, immediate and patterns its op row
// promises (a CallBuiltin as many children as the builtin's arity, a Call as many as the callee's
// closure parameters); nodes and patterns form DAGs; every slot and closure parameter a node
// names exists in the frame it designates. Otherwise false, with *error saying where and why
// (e.g. "node 3 (Foreach): expected 4 children, found 3").
bool Verify(const Program& program, std::string* error);

}  // namespace wm::ir
