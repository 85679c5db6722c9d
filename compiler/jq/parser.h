// Entry point of the jq front end: text -> AST, or located syntax diagnostics. The ANTLR lexer and
// parser are used only inside compiler/jq/*.cpp. Never throws; hostile input (huge, deeply nested,
// invalid UTF-8, NUL bytes) yields diagnostics, bounded by the limits below.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "compiler/jq/ast.h"
#include "compiler/source/diagnostic.h"

namespace wm::jq {

struct ParseOptions {
  size_t max_bytes = 1 << 20;   // longer expressions are refused (default 1 MiB)
  int max_depth = 256;          // deepest nesting of parentheses/brackets/constructs (WM101)
  int max_ast_depth = 4096;     // deepest AST, e.g. a chain of 4096 `|` or `+` (WM102)
  size_t max_tokens = 100000;   // longer token streams are refused before parsing (WM102): the
                                // parse tree costs ~1 KB per token
  int max_errors = 10;          // syntax errors reported per expression before giving up
  // Where the expression came from; used to fill Diagnostic::location. Empty = "<expr>", 1:offset+1.
  SourceMap source_map;
};

struct ParseResult {
  std::unique_ptr<Node> ast;            // null when there were errors
  // Syntax errors: WM100 syntax error, WM101 nesting too deep, WM102 expression too large,
  // WM103 invalid UTF-8 or NUL byte; each with a location and a caret length.
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return ast != nullptr; }
};

ParseResult Parse(std::string_view text, const ParseOptions& options = {});

// Canonical jq text of an AST (`wmc parse --emit=jq`); Parse(Print(ast)) has the same shape.
std::string Print(const Node& node);

// Tree dump with ranges (`wmc parse --emit=ast`), one node per line, indented.
std::string DumpAst(const Node& node);

}  // namespace wm::jq
