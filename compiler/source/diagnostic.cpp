// MakeDiagnostic, the one diagnostic builder, and SourceMap: turns a byte offset inside a jq
// expression into the file position of the character it came from (a plain shift for expressions
// laid out verbatim on one line, a per-byte table for YAML scalars with escapes or folding). An
// empty map stands for a bare expression: "<expr>", 1:offset+1.
#include "compiler/source/diagnostic.h"

#include <utility>

namespace wm {

DiagnosticBuilder::DiagnosticBuilder(std::string_view rule, Location at, std::string message) {
  diagnostic_.severity = base::DefaultSeverity(rule);
  diagnostic_.rule = std::string(rule);
  diagnostic_.location = std::move(at);
  diagnostic_.message = std::move(message);
}

DiagnosticBuilder&& DiagnosticBuilder::WithSeverity(Severity severity) && {
  diagnostic_.severity = severity;
  return std::move(*this);
}

DiagnosticBuilder&& DiagnosticBuilder::Length(uint32_t bytes) && {
  diagnostic_.length = bytes == 0 ? 1 : bytes;
  return std::move(*this);
}

DiagnosticBuilder&& DiagnosticBuilder::Note(std::string note) && {
  diagnostic_.notes.push_back(std::move(note));
  return std::move(*this);
}

DiagnosticBuilder&& DiagnosticBuilder::Notes(std::vector<std::string> notes) && {
  for (std::string& note : notes) diagnostic_.notes.push_back(std::move(note));
  return std::move(*this);
}

DiagnosticBuilder&& DiagnosticBuilder::Fixit(std::string replacement) && {
  diagnostic_.fixit = std::move(replacement);
  return std::move(*this);
}

DiagnosticBuilder MakeDiagnostic(std::string_view rule, Location at, std::string message) {
  return DiagnosticBuilder(rule, std::move(at), std::move(message));
}

SourceMap SourceMap::Contiguous(const Location& start, uint32_t length) {
  SourceMap map;
  map.file_ = start.file;
  map.start_ = start;
  map.length_ = length;
  return map;
}

SourceMap SourceMap::ForText(std::string file, std::string_view text) {
  std::vector<std::pair<uint32_t, uint32_t>> positions;
  positions.reserve(text.size() + 1);
  uint32_t line = 1;
  uint32_t column = 1;
  for (char c : text) {
    positions.emplace_back(line, column);
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  positions.emplace_back(line, column);
  return PerByte(std::move(file), std::move(positions));
}

SourceMap SourceMap::PerByte(std::string file,
                             std::vector<std::pair<uint32_t, uint32_t>> line_col) {
  SourceMap map;
  map.file_ = std::move(file);
  map.start_.file = map.file_;
  if (!line_col.empty()) {
    map.start_.line = line_col.front().first;
    map.start_.column = line_col.front().second;
  }
  map.length_ = line_col.empty() ? 0 : static_cast<uint32_t>(line_col.size() - 1);
  map.per_byte_ = std::move(line_col);
  return map;
}

Location SourceMap::Map(uint32_t offset) const {
  if (file_.empty()) {
    // No origin recorded: the expression itself is the file (`wmc parse`, `wmc eval`).
    return Location{"<expr>", 1, offset + 1};
  }
  if (!per_byte_.empty()) {
    // Offsets past the table (the end-of-input position of a truncated table) clamp to its end.
    const auto& [line, column] = per_byte_[offset < per_byte_.size() ? offset : per_byte_.size() - 1];
    return Location{file_, line, column};
  }
  if (start_.line == 0) return Location{file_, 0, 0};  // whole-file origin: no finer position
  // A caret just past the last byte is legitimate (unexpected end of input); clamp beyond that.
  // A length of 0 means the caller did not know it: no clamping then.
  uint32_t clamped = (length_ == 0 || offset <= length_) ? offset : length_;
  return Location{file_, start_.line, start_.column + clamped};
}

}  // namespace wm
