// Tables, output-format checks and JSON/YAML printing for the kubectl-style commands
// (see cli_output.h).
#include "tools/cli_output.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "runtime/value/json.h"
#include "tools/yaml_output.h"

namespace wm::tools {
namespace {

// Width as a terminal shows it: UTF-8 continuation bytes do not count (as tabwriter counts runes).
size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

// Appends `c` escaped when it is a control character, as Go's strconv.Quote does.
void AppendEscaped(unsigned char c, std::string* out) {
  static constexpr char kShort[] = "abtnvfr";  // \a (7) .. \r (13)
  if (c >= 0x20 && c != 0x7f) {
    out->push_back(static_cast<char>(c));
  } else if (c >= 7 && c <= 13) {
    out->push_back('\\');
    out->push_back(kShort[c - 7]);
  } else {
    static constexpr char kHex[] = "0123456789abcdef";
    out->append("\\x");
    out->push_back(kHex[c >> 4]);
    out->push_back(kHex[c & 15]);
  }
}

}  // namespace

std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) AppendEscaped(c, &out);
  return out;
}

void WriteText(std::string_view text, std::FILE* stream) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c == '\n' || c == '\t') {
      out.push_back(static_cast<char>(c));
    } else {
      AppendEscaped(c, &out);
    }
  }
  std::fwrite(out.data(), 1, out.size(), stream);
}

std::string RenderTable(const std::vector<std::vector<std::string>>& raw_rows,
                        const TableStyle& style) {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(raw_rows.size());
  for (const auto& raw : raw_rows) {
    std::vector<std::string>& row = rows.emplace_back();
    for (const std::string& cell : raw) row.push_back(Printable(cell));
  }
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    // The last cell of a row is not part of a column (tabwriter: text after the last tab).
    for (size_t i = 0; i + 1 < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
    }
  }
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      out += row[i];
      if (i + 1 == row.size()) break;
      size_t width = std::max(widths[i] + style.padding, style.min_width);
      out.append(width - DisplayWidth(row[i]), ' ');
    }
    out += '\n';
  }
  return out;
}

bool CheckOutputFormat(const char* command, const std::string& format,
                       const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), format) != allowed.end()) return true;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  std::fprintf(stderr, "%s: invalid argument \"%s\" for \"-o, --output\" flag: must be one of %s\n",
               command, format.c_str(), list.c_str());
  return false;
}

void PrintStructured(const Value& value, const std::string& format) {
  if (format == "yaml") {
    WriteText(ToYaml(value));
    return;
  }
  JsonWriteOptions pretty;
  pretty.indent = 2;
  std::printf("%s\n", ToJson(value, pretty).c_str());
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

Value ListEnvelope(Array items) {
  double count = static_cast<double>(items.size());
  return Value::MakeObject({{Value::String("items"), Value::MakeArray(std::move(items))},
                            {Value::String("count"), Value::Number(count)}});
}

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::string ApiGroup(std::string_view api_version) {
  size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? "" : std::string(api_version.substr(0, slash));
}

}  // namespace wm::tools
