// Diagnostic rendering: text with the source line and a caret (for people), JSON (for scripts),
// SARIF 2.1.0 (for code-scanning UIs) and GitHub workflow commands (annotations in CI logs).
// SourceFiles holds the text that the caret lines quote.
#include "compiler/source/render.h"

#include <nlohmann/json.hpp>

#include <set>

namespace wm {
namespace {

// "error", "warning", "note": the registry's spelling (base/rules.h).
std::string SeverityText(Severity s) { return std::string(base::SeverityName(s)); }

// "file:line:col" with the unknown parts left out.
std::string Position(const Location& loc) {
  std::string out = loc.file.empty() ? "<unknown>" : loc.file;
  if (loc.line > 0) {
    out += ":" + std::to_string(loc.line);
    if (loc.column > 0) out += ":" + std::to_string(loc.column);
  }
  return out;
}

bool IsUtf8Continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The caret line under `line`: padding keeps tabs so the caret stays aligned in a terminal, and
// both padding and underline count code points (one column each) rather than bytes.
std::string CaretLine(std::string_view line, uint32_t column, uint32_t length) {
  size_t start = column > 0 ? column - 1 : 0;
  if (start > line.size()) start = line.size();
  std::string caret;
  for (size_t i = 0; i < start; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if (IsUtf8Continuation(c)) continue;
    caret += c == '\t' ? '\t' : ' ';
  }
  caret += '^';
  // Underline the rest of the range, stopping at the end of the line.
  size_t end = start + (length > 0 ? length : 1);
  if (end > line.size()) end = line.size();
  bool first = true;
  for (size_t i = start; i < end; ++i) {
    if (IsUtf8Continuation(static_cast<unsigned char>(line[i]))) continue;
    if (first) {
      first = false;  // the '^' already stands for the first character
      continue;
    }
    caret += '~';
  }
  return caret;
}

nlohmann::json JsonOf(const Diagnostic& d) {
  nlohmann::json j = {
      {"file", d.location.file},
      {"line", d.location.line},
      {"column", d.location.column},
      {"severity", SeverityText(d.severity)},
      {"rule", d.rule},
      {"message", d.message},
      {"notes", d.notes},
  };
  if (!d.fixit.empty()) j["fixit"] = d.fixit;
  return j;
}

std::string RenderJson(const std::vector<Diagnostic>& diagnostics) {
  nlohmann::json arr = nlohmann::json::array();
  for (const Diagnostic& d : diagnostics) arr.push_back(JsonOf(d));
  // Invalid UTF-8 in a message (quoted from hostile input) must not throw: replace it.
  return arr.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RenderSarif(const std::vector<Diagnostic>& diagnostics) {
  // Rules are listed once each, in id order; results refer to them by id and index.
  std::set<std::string> rule_ids;
  for (const Diagnostic& d : diagnostics) rule_ids.insert(d.rule);
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, size_t> rule_index;
  for (const std::string& id : rule_ids) {
    rule_index[id] = rules.size();
    rules.push_back({{"id", id}});
  }
  nlohmann::json results = nlohmann::json::array();
  for (const Diagnostic& d : diagnostics) {
    nlohmann::json physical = {{"artifactLocation", {{"uri", d.location.file}}}};
    if (d.location.line > 0) {
      nlohmann::json region = {{"startLine", d.location.line}};
      if (d.location.column > 0) {
        region["startColumn"] = d.location.column;
        region["endColumn"] = d.location.column + (d.length > 0 ? d.length : 1);
      }
      physical["region"] = region;
    }
    nlohmann::json result = {
        {"ruleId", d.rule},
        {"ruleIndex", rule_index[d.rule]},
        {"level", SeverityText(d.severity)},
        {"message", {{"text", d.message}}},
        {"locations", nlohmann::json::array({{{"physicalLocation", physical}}})},
    };
    if (!d.notes.empty()) result["properties"] = {{"notes", d.notes}};
    if (!d.fixit.empty()) {
      if (!result.contains("properties")) result["properties"] = nlohmann::json::object();
      result["properties"]["fixit"] = d.fixit;
    }
    results.push_back(result);
  }
  nlohmann::json sarif = {
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs", nlohmann::json::array({{
                   {"tool", {{"driver", {{"name", "wmc"}, {"rules", rules}}}}},
                   {"results", results},
               }})},
  };
  return sarif.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// GitHub workflow-command escaping: the message ("data") escapes %, CR, LF; property values also
// escape ':' and ','.
std::string GithubEscape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

std::string RenderGithub(const Diagnostic& d) {
  const char* command = d.severity == Severity::Error     ? "error"
                        : d.severity == Severity::Warning ? "warning"
                                                          : "notice";
  std::string out = "::";
  out += command;
  out += " file=" + GithubEscape(d.location.file, true);
  if (d.location.line > 0) {
    out += ",line=" + std::to_string(d.location.line);
    if (d.location.column > 0) out += ",col=" + std::to_string(d.location.column);
  }
  out += ",title=" + GithubEscape(d.rule, true) + "::";
  std::string message = d.message;
  for (const std::string& note : d.notes) message += "\nnote: " + note;
  // The annotation has no field for a suggested edit: the fix-it is its last line.
  if (!d.fixit.empty()) message += "\nfix: replace with `" + d.fixit + "`";
  out += GithubEscape(message, false);
  out += "\n";
  return out;
}

}  // namespace

void SourceFiles::Add(std::string name, std::string text) {
  texts_[std::move(name)] = std::move(text);
}

std::string_view SourceFiles::Line(std::string_view name, uint32_t line) const {
  if (line == 0) return {};
  auto it = texts_.find(name);
  if (it == texts_.end()) return {};
  std::string_view text = it->second;
  size_t pos = 0;
  for (uint32_t current = 1; current < line; ++current) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return {};
    pos = nl + 1;
  }
  size_t end = text.find('\n', pos);
  std::string_view result = text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

std::string RenderText(const Diagnostic& d, const SourceFiles& files) {
  std::string out = Position(d.location) + ": " + SeverityText(d.severity) + ": " + d.message;
  if (!d.rule.empty()) out += " [" + d.rule + "]";
  out += "\n";
  if (d.location.line > 0 && d.location.column > 0) {
    std::string_view line = files.Line(d.location.file, d.location.line);
    // A caret may sit one past the end of the line (unexpected end of input), not further.
    if (!line.empty() && d.location.column <= line.size() + 1) {
      out += "  ";
      out += line;
      out += "\n  " + CaretLine(line, d.location.column, d.length) + "\n";
    }
  }
  for (const std::string& note : d.notes) out += "note: " + note + "\n";
  if (!d.fixit.empty()) out += "fix-it: " + d.fixit + "\n";
  return out;
}

std::string Render(const std::vector<Diagnostic>& diagnostics, const SourceFiles& files,
                   DiagnosticFormat format) {
  std::string out;
  switch (format) {
    case DiagnosticFormat::kText:
      for (const Diagnostic& d : diagnostics) out += RenderText(d, files);
      return out;
    case DiagnosticFormat::kJson:
      return RenderJson(diagnostics);
    case DiagnosticFormat::kSarif:
      return RenderSarif(diagnostics);
    case DiagnosticFormat::kGithub:
      for (const Diagnostic& d : diagnostics) out += RenderGithub(d);
      return out;
  }
  return out;
}

}  // namespace wm
