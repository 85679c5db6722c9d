// Rendering of diagnostics for people and for CI systems: text (file:line:col: error: msg [WMnnn],
// then the source line and a caret), JSON, SARIF 2.1.0 and GitHub workflow commands.
// SourceFiles keeps the text of every file (or expression) that diagnostics may point into.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/source/diagnostic.h"

namespace wm {

class SourceFiles {
 public:
  void Add(std::string name, std::string text);
  // The text of line `line` (1-based) of `name`, without its newline; empty if unknown.
  std::string_view Line(std::string_view name, uint32_t line) const;

 private:
  std::map<std::string, std::string, std::less<>> texts_;
};

enum class DiagnosticFormat { kText, kJson, kSarif, kGithub };

// One diagnostic as text: "file:line:col: error: message [WM001]\n  <line>\n  ^~~~\n" + notes.
std::string RenderText(const Diagnostic& d, const SourceFiles& files);
// A whole run's diagnostics in the given format (text = concatenated RenderText).
std::string Render(const std::vector<Diagnostic>& diagnostics, const SourceFiles& files,
                   DiagnosticFormat format);

}  // namespace wm
