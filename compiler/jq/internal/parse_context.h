// State shared by the jq parser driver (parser.cpp) and the AST builder (ast_builder.cpp) while
// one expression is parsed: options, the collected diagnostics with their cap, and the entry point
// that parses a string interpolation as its own fragment. No ANTLR types here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/jq/ast.h"
#include "compiler/jq/parser.h"

namespace wm::jq::internal {

// Thrown when max_errors diagnostics have been reported: parsing stops there.
struct TooManyErrors {};

class ParseContext {
 public:
  ParseContext(std::string_view text, const ParseOptions& options) : text_(text), options_(options) {}

  std::string_view text() const { return text_; }
  const ParseOptions& options() const { return options_; }

  // Records an error at [offset, offset+length) of the expression; throws TooManyErrors once the
  // cap is reached. Errors at an offset already reported are dropped (recovery cascades).
  void Error(uint32_t offset, uint32_t length, const char* rule, std::string message);
  bool failed() const { return !diagnostics_.empty(); }
  size_t error_count() const { return diagnostics_.size(); }
  std::vector<Diagnostic> TakeDiagnostics() { return std::move(diagnostics_); }

 private:
  std::string_view text_;
  const ParseOptions& options_;
  std::vector<Diagnostic> diagnostics_;
};

// Parses text()[begin, end) with the `embeddedPipe` rule (an interpolation body). Returns null
// after reporting errors.
std::unique_ptr<Node> ParseEmbedded(ParseContext& context, uint32_t begin, uint32_t end);

}  // namespace wm::jq::internal
