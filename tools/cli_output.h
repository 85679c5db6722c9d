// Output helpers shared by the commands: column tables laid out as Go's text/tabwriter lays them
// out (what kli and kubectl print), the `-o` check with kli's wording, printing a Value as JSON or
// YAML, and the escaping every text output goes through (control characters never reach the
// terminal raw, and a NUL never cuts an output short).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/value.h"

namespace wm::tools {

struct TableStyle {
  size_t min_width = 0;  // narrowest a column may be, padding included
  size_t padding = 2;    // spaces after a column's widest cell
};
// kubectl's printers.GetNewTabWriter (kli get): minimum width 10, padding 3.
inline constexpr TableStyle kKubectlTable{10, 3};
// kli definitions: tabwriter.NewWriter(out, 0, 8, 2, ' ', 0).
inline constexpr TableStyle kDefinitionsTable{0, 2};

// Rows of cells, the first row the header. Every column but the last is padded to its widest
// cell (in UTF-8 characters) plus style.padding, and to at least style.min_width; the last cell
// of a row is written as it is. Cells go through Printable. Each row ends with "\n".
std::string RenderTable(const std::vector<std::vector<std::string>>& rows, const TableStyle& style);

// Whether `format` is one of `allowed`; if not, prints kli's usage error
// (`<command>: invalid argument "wide" for "-o, --output" flag: must be one of table, json, yaml`)
// to stderr and returns false.
bool CheckOutputFormat(const char* command, const std::string& format,
                       const std::vector<std::string>& allowed);

// Prints `value` to stdout as indented JSON (format "json") or YAML (format "yaml").
void PrintStructured(const Value& value, const std::string& format);

// `text` with every control character (C0, DEL) escaped as Go's %q escapes it, without the quotes:
// \a \b \f \n \r \t \v, others as \x00..\x1f and \x7f. Everything else, backslashes and UTF-8
// included, stays as it is. For values from objects and definitions (names, ids, statuses) placed
// in a line of text output.
std::string Printable(std::string_view text);

// Writes a rendered text output whole (a NUL inside does not end it), with every control character
// but the line break and the tab escaped as Printable escapes it: the last line of defence for renderers that
// did not escape a value.
void WriteText(std::string_view text, std::FILE* stream = stdout);

// ASCII case-insensitive equality (kinds and phases are matched as kubectl matches them).
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// `items` with `separator` between each two.
std::string Join(const std::vector<std::string>& items, std::string_view separator = " ");

// StringField (the string at a key, or "") is wm::StringField, runtime/value/value.h.
using wm::StringField;

// The API group of an apiVersion: "batch/v1" -> "batch", "v1" -> "" (the core group).
std::string ApiGroup(std::string_view api_version);

// {"items": items, "count": N}: the envelope kli's json and yaml outputs carry for lists.
Value ListEnvelope(Array items);

}  // namespace wm::tools
