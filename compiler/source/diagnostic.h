// The one diagnostic type for user mistakes (definition files, jq expressions, schemas), and the
// source map that turns a byte offset inside a jq expression embedded in a YAML scalar into
// file:line:col of the definition file. MakeDiagnostic is the one way stages build a diagnostic
// (default severity from the rule registry, base/rules.def). Rendering (text with caret, json,
// sarif, github) lives in render.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/rules.h"

namespace wm {

// Note < Warning < Error; the registry (base/rules.h) owns the type.
using Severity = base::Severity;

// A point in a file; line and column are 1-based, column counts bytes.
struct Location {
  std::string file;   // as given on the command line, or "<expr>" for `wmc eval`/`wmc parse`
  uint32_t line = 0;  // 0 = unknown (whole file)
  uint32_t column = 0;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string rule;          // stable id "WM001" ...; documented in docs/rules.md
  Location location;
  uint32_t length = 1;       // how many bytes the caret underlines on that line
  std::string message;
  std::vector<std::string> notes;
  std::string fixit;         // optional replacement suggestion
};

// Builds a Diagnostic; each optional part is one chained call on the temporary, and the result
// converts to a Diagnostic:
//   sink.Report(MakeDiagnostic("WM016", loc, "ownerRef names ...").Length(5).Fixit("leader"));
class DiagnosticBuilder {
 public:
  DiagnosticBuilder(std::string_view rule, Location at, std::string message);
  // Overrides the rule's registered severity (a configurable policy or option).
  DiagnosticBuilder&& WithSeverity(Severity severity) &&;
  // Bytes the caret underlines; 0 counts as 1.
  DiagnosticBuilder&& Length(uint32_t bytes) &&;
  DiagnosticBuilder&& Note(std::string note) &&;
  DiagnosticBuilder&& Notes(std::vector<std::string> notes) &&;  // appended in order
  DiagnosticBuilder&& Fixit(std::string replacement) &&;         // "" leaves none
  Diagnostic Build() && { return std::move(diagnostic_); }
  operator Diagnostic() && { return std::move(diagnostic_); }

 private:
  Diagnostic diagnostic_;
};

// A finding of `rule` at `at`, with the rule's registered severity (base/rules.def) and a caret of
// one byte until the chained calls say otherwise.
DiagnosticBuilder MakeDiagnostic(std::string_view rule, Location at, std::string message);

// Maps offsets of a jq expression's text to the file positions of the characters it came from.
// For a plain scalar the mapping is a shift; for quoted scalars with escapes and block scalars
// (`|`, `>`) each expression byte has its own position, so the map stores one per byte.
class SourceMap {
 public:
  SourceMap() = default;
  // Expression text that starts at `start` and is laid out verbatim on one line.
  static SourceMap Contiguous(const Location& start, uint32_t length);
  // One position per expression byte (plus one for the end).
  static SourceMap PerByte(std::string file, std::vector<std::pair<uint32_t, uint32_t>> line_col);
  // A whole text (a jq file, an expression given on the command line) starting at line 1,
  // column 1: every byte gets its own line and column, so multi-line programs map exactly.
  static SourceMap ForText(std::string file, std::string_view text);

  Location Map(uint32_t offset) const;
  bool empty() const { return file_.empty(); }

 private:
  std::string file_;
  Location start_;
  uint32_t length_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> per_byte_;
};

// Collects diagnostics with a cap; reports whether any error was seen.
class DiagnosticSink {
 public:
  void Report(Diagnostic d) {
    if (d.severity == Severity::Error) ++errors_;
    if (d.severity == Severity::Warning) ++warnings_;
    items_.push_back(std::move(d));
  }
  const std::vector<Diagnostic>& items() const { return items_; }
  int errors() const { return errors_; }
  int warnings() const { return warnings_; }

 private:
  std::vector<Diagnostic> items_;
  int errors_ = 0;
  int warnings_ = 0;
};

}  // namespace wm
