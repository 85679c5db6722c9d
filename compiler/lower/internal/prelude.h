// The jq-defined builtins (map, select, paths, sub, limit, ...), as jq source parsed once per
// process. The lowering copies into each program only the prelude functions it calls.
#pragma once

#include <map>
#include <string>

#include "compiler/jq/ast.h"

namespace wm::lower::internal {

struct Prelude {
  std::unique_ptr<jq::Node> ast;                        // the parsed definitions
  std::map<std::string, const jq::Node*> definitions;  // "name/arity" -> FuncDef node
  std::string error;                                    // non-empty if the prelude failed to parse
};

// Parsed on first use (thread-safe).
const Prelude& GetPrelude();
// The jq text itself (for tests and `builtins`).
const char* PreludeSource();

}  // namespace wm::lower::internal
