// Re-scans YAML scalars in the raw file text to map each decoded byte to its source offset
// (see internal/scalar_map.h). The scan follows the YAML 1.2 folding and escaping rules and is
// verified against yaml-cpp's decoded value, so a rule it does not model degrades to a coarser map
// instead of a wrong one.
#include "compiler/definition/internal/scalar_map.h"

#include <algorithm>
#include <string>

#include "runtime/value/utf8.h"

namespace wm::definition::internal {

LineIndex::LineIndex(std::string_view text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

std::pair<uint32_t, uint32_t> LineIndex::LineCol(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  size_t line = static_cast<size_t>(it - starts_.begin());  // 1-based
  size_t column = offset - starts_[line - 1] + 1;
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(column)};
}

namespace {

bool IsBreakOrBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Accumulates decoded bytes with their source offsets.
struct Output {
  std::string text;
  std::vector<size_t> offsets;
  void Emit(char c, size_t at) {
    text += c;
    offsets.push_back(at);
  }
  void EmitAll(const std::string& bytes, size_t at) {
    for (char c : bytes) Emit(c, at);
  }
};

enum class FlowStyle { kPlain, kSingle, kDouble };

// Decodes one double-quoted escape at source[p] == '\\'; returns the offset after it, or npos.
size_t DecodeEscape(std::string_view source, size_t p, Output& out) {
  if (p + 1 >= source.size()) return std::string_view::npos;
  char e = source[p + 1];
  auto hex = [&](int digits) -> size_t {
    if (p + 2 + digits > source.size()) return std::string_view::npos;
    uint32_t cp = 0;
    for (int i = 0; i < digits; ++i) {
      char h = source[p + 2 + i];
      int v = (h >= '0' && h <= '9') ? h - '0'
              : (h >= 'a' && h <= 'f') ? h - 'a' + 10
              : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                       : -1;
      if (v < 0) return std::string_view::npos;
      cp = cp * 16 + static_cast<uint32_t>(v);
    }
    std::string bytes;
    utf8::Append(cp, &bytes);
    out.EmitAll(bytes, p);
    return p + 2 + digits;
  };
  std::string simple;
  switch (e) {
    case '0': simple = std::string(1, '\0'); break;
    case 'a': simple = "\a"; break;
    case 'b': simple = "\b"; break;
    case 't': case '\t': simple = "\t"; break;
    case 'n': simple = "\n"; break;
    case 'v': simple = "\v"; break;
    case 'f': simple = "\f"; break;
    case 'r': simple = "\r"; break;
    case 'e': simple = "\x1b"; break;
    case ' ': simple = " "; break;
    case '"': simple = "\""; break;
    case '/': simple = "/"; break;
    case '\\': simple = "\\"; break;
    case 'N': utf8::Append(0x85, &simple); break;
    case '_': utf8::Append(0xA0, &simple); break;
    case 'L': utf8::Append(0x2028, &simple); break;
    case 'P': utf8::Append(0x2029, &simple); break;
    case 'x': return hex(2);
    case 'u': return hex(4);
    case 'U': return hex(8);
    default: return std::string_view::npos;
  }
  out.EmitAll(simple, p);
  return p + 2;
}

// Plain and quoted (flow) scalars: runs of whitespace containing line breaks fold to one space, or
// to n-1 newlines for n breaks; other whitespace is content.
bool ScanFlow(std::string_view source, size_t p, FlowStyle style, size_t want, Output& out) {
  while (out.text.size() < want && p < source.size()) {
    char c = source[p];
    if (style == FlowStyle::kDouble && c == '"') break;
    if (style == FlowStyle::kSingle && c == '\'') {
      if (p + 1 < source.size() && source[p + 1] == '\'') {
        out.Emit('\'', p);
        p += 2;
        continue;
      }
      break;
    }
    if (style == FlowStyle::kDouble && c == '\\') {
      if (p + 1 < source.size() && (source[p + 1] == '\n' || source[p + 1] == '\r')) {
        // Escaped line break: the break and the next line's indentation vanish.
        p += 1;
        while (p < source.size() && IsBreakOrBlank(source[p])) ++p;
        continue;
      }
      size_t next = DecodeEscape(source, p, out);
      if (next == std::string_view::npos) return false;
      p = next;
      continue;
    }
    if (IsBreakOrBlank(c)) {
      size_t end = p;
      std::vector<size_t> breaks;
      while (end < source.size() && IsBreakOrBlank(source[end])) {
        if (source[end] == '\n') breaks.push_back(end);
        ++end;
      }
      if (breaks.empty()) {
        for (size_t i = p; i < end; ++i) out.Emit(source[i], i);
      } else if (breaks.size() == 1) {
        out.Emit(' ', breaks[0]);
      } else {
        for (size_t i = 1; i < breaks.size(); ++i) out.Emit('\n', breaks[i]);
      }
      p = end;
      continue;
    }
    out.Emit(c, p);
    ++p;
  }
  out.offsets.push_back(p);
  return true;
}

// Indentation of the line containing `offset`.
size_t LineIndent(std::string_view source, size_t offset) {
  size_t line_start = source.rfind('\n', offset == 0 ? 0 : offset - 1);
  line_start = (line_start == std::string_view::npos || offset == 0) ? 0 : line_start + 1;
  size_t i = line_start;
  while (i < source.size() && source[i] == ' ') ++i;
  return i - line_start;
}

// Block scalars: content lines lose `indent` leading spaces; each line break maps to its '\n'.
// Folding (`>`) differences are absorbed by matching breaks against the expected text: a break the
// decoded text does not contain at that point is skipped.
bool ScanBlock(std::string_view source, size_t p, std::string_view want, Output& out) {
  char indicator = source[p];
  size_t header = p + 1;
  int explicit_indent = 0;
  while (header < source.size() && (source[header] == '+' || source[header] == '-' ||
                                    (source[header] >= '1' && source[header] <= '9'))) {
    if (source[header] >= '1' && source[header] <= '9') explicit_indent = source[header] - '0';
    ++header;
  }
  size_t eol = source.find('\n', header);
  if (eol == std::string_view::npos) {
    out.offsets.push_back(source.size());
    return want.empty();
  }
  size_t line = eol + 1;
  size_t indent = 0;
  if (explicit_indent > 0) {
    indent = LineIndent(source, p) + static_cast<size_t>(explicit_indent);
  } else {
    // The first non-empty line decides the indentation.
    size_t scan = line;
    while (scan < source.size()) {
      size_t spaces = 0;
      while (scan + spaces < source.size() && source[scan + spaces] == ' ') ++spaces;
      size_t after = scan + spaces;
      if (after < source.size() && source[after] != '\n' && source[after] != '\r') {
        indent = spaces;
        break;
      }
      size_t next = source.find('\n', scan);
      if (next == std::string_view::npos) break;
      scan = next + 1;
    }
  }
  (void)indicator;
  while (out.text.size() < want.size() && line < source.size()) {
    size_t line_end = source.find('\n', line);
    if (line_end == std::string_view::npos) line_end = source.size();
    size_t content = line;
    size_t stripped = 0;
    while (content < line_end && stripped < indent && source[content] == ' ') {
      ++content;
      ++stripped;
    }
    size_t content_end = line_end;
    if (content_end > content && source[content_end - 1] == '\r') --content_end;
    for (size_t i = content; i < content_end && out.text.size() < want.size(); ++i) {
      if (source[i] != want[out.text.size()]) return false;
      out.Emit(source[i], i);
    }
    if (out.text.size() < want.size() && line_end < source.size()) {
      char expected = want[out.text.size()];
      if (expected == '\n' || expected == ' ') out.Emit(expected, line_end);
    }
    line = line_end + 1;
  }
  out.offsets.push_back(std::min(line, source.size()));
  return true;
}

// Skips a tag (`!x`, `!!str`) or anchor (`&a`) and the blanks after it.
size_t SkipProperties(std::string_view source, size_t p) {
  while (p < source.size() && (source[p] == '!' || source[p] == '&')) {
    while (p < source.size() && !IsBreakOrBlank(source[p])) ++p;
    while (p < source.size() && IsBreakOrBlank(source[p])) ++p;
  }
  return p;
}

}  // namespace

std::optional<std::vector<size_t>> MapScalarBytes(std::string_view source, size_t start,
                                                  std::string_view decoded) {
  if (start >= source.size()) return std::nullopt;
  size_t p = SkipProperties(source, start);
  if (p >= source.size()) return std::nullopt;
  Output out;
  bool ok = false;
  switch (source[p]) {
    case '"': ok = ScanFlow(source, p + 1, FlowStyle::kDouble, decoded.size(), out); break;
    case '\'': ok = ScanFlow(source, p + 1, FlowStyle::kSingle, decoded.size(), out); break;
    case '|':
    case '>': ok = ScanBlock(source, p, decoded, out); break;
    default: ok = ScanFlow(source, p, FlowStyle::kPlain, decoded.size(), out); break;
  }
  if (!ok || out.text != decoded || out.offsets.size() != decoded.size() + 1) return std::nullopt;
  return std::move(out.offsets);
}

SourceMap BuildScalarSourceMap(const std::string& file, std::string_view source,
                               const LineIndex& lines, size_t start, std::string_view decoded) {
  auto offsets = MapScalarBytes(source, start, decoded);
  if (!offsets) {
    // Unmodelled layout: point every byte at the scalar itself rather than guess.
    auto [line, column] = lines.LineCol(std::min(start, source.size()));
    std::vector<std::pair<uint32_t, uint32_t>> same(decoded.size() + 1, {line, column});
    return SourceMap::PerByte(file, std::move(same));
  }
  bool contiguous = true;
  for (size_t i = 1; i < offsets->size(); ++i) {
    if ((*offsets)[i] != (*offsets)[i - 1] + 1 || source[(*offsets)[i - 1]] == '\n') {
      contiguous = false;
      break;
    }
  }
  if (contiguous) {
    auto [line, column] = lines.LineCol((*offsets)[0]);
    return SourceMap::Contiguous(Location{file, line, column},
                                 static_cast<uint32_t>(decoded.size()));
  }
  std::vector<std::pair<uint32_t, uint32_t>> per_byte;
  per_byte.reserve(offsets->size());
  for (size_t offset : *offsets) per_byte.push_back(lines.LineCol(offset));
  return SourceMap::PerByte(file, std::move(per_byte));
}

}  // namespace wm::definition::internal
