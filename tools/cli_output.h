// Output helpers shared by the kubectl-style commands (definitions, get): column tables laid out
// as Go's text/tabwriter lays them out (what kli and kubectl print), the `-o` check with kli's
// wording, and printing a Value as JSON or YAML.
#pragma once

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
// of a row is written as it is. Each row ends with "\n".
std::string RenderTable(const std::vector<std::vector<std::string>>& rows, const TableStyle& style);

// Whether `format` is one of `allowed`; if not, prints kli's usage error
// (`<command>: invalid argument "wide" for "-o, --output" flag: must be one of table, json, yaml`)
// to stderr and returns false.
bool CheckOutputFormat(const char* command, const std::string& format,
                       const std::vector<std::string>& allowed);

// Prints `value` to stdout as indented JSON (format "json") or YAML (format "yaml").
void PrintStructured(const Value& value, const std::string& format);

// ASCII case-insensitive equality (kinds and phases are matched as kubectl matches them).
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// {"items": items, "count": N}: the envelope kli's json and yaml outputs carry for lists.
Value ListEnvelope(Array items);

}  // namespace wm::tools
