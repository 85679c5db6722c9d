// See yaml_json.h. yaml-cpp builds the node tree (an alias is a second reference to its anchor's
// node, so parsing an alias bomb is cheap); the conversion walks it depth-first, counting every
// node it emits against the budget, and writes JSON text as it goes.
//
// Why this typing rule: three converters used to disagree. The definition loader typed plain
// scalars as the Kubernetes reader does (YAML 1.1: `yes`/`on` booleans, `0x1F`, `1_000`); schema
// import and `wmc inspect` used YAML 1.2's core schema (only true/false; inspect also read `.5`
// and `1.` as numbers, import kept them as text), and both let a repeated key overwrite the first.
// The loader's rule is the one kept: it is what an API server stores for a manifest applied with
// kubectl, WM004 already enforces it on definitions, every existing test passes with it, and
// re-importing every upstream CRD gives byte-identical schemas. Repeated keys are errors
// everywhere, as they were for `wmc check`.
#include "base/yaml/yaml_json.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

namespace wm::base::yaml {
namespace {

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Decimal numbers: digits (with `_` separators), at most one dot, an optional exponent.
PlainKind ClassifyDecimal(std::string_view s, size_t i) {
  bool digits = false, dot = false, exponent = false;
  for (size_t j = i; j < s.size(); ++j) {
    char c = s[j];
    if (IsDigit(c) || c == '_') {
      digits = digits || c != '_';
    } else if (c == '.' && !dot && !exponent) {
      dot = true;
    } else if ((c == 'e' || c == 'E') && digits && !exponent) {
      exponent = true;
      if (j + 1 < s.size() && (s[j + 1] == '+' || s[j + 1] == '-')) ++j;
      if (j + 1 >= s.size()) return PlainKind::kString;
    } else {
      return PlainKind::kString;
    }
  }
  if (!digits) return PlainKind::kString;
  return (dot || exponent) ? PlainKind::kFloat : PlainKind::kInt;
}

// JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  if (i >= s.size() || !IsDigit(s[i])) return false;
  if (s[i] == '0') {
    ++i;
  } else {
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (i < s.size() && s[i] == '.') {
    if (++i >= s.size() || !IsDigit(s[i])) return false;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= s.size() || !IsDigit(s[i])) return false;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  return i == s.size();
}

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
          out->append(escape);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

// A number spelt as YAML allows and JSON does not (0x1F, 1_000, +5, .5, 01): its value as a
// double, written so that it reads back as a floating-point number. A spelling strtod cannot
// read whole (0o17, 0b101) or whose value is not finite (.inf) stays a string.
void AppendYamlOnlyNumber(std::string_view s, std::string* out) {
  std::string digits;
  for (char c : s) {
    if (c != '_') digits += c;
  }
  char* end = nullptr;
  double value = std::strtod(digits.c_str(), &end);
  if (!end || *end != '\0' || !std::isfinite(value)) {
    AppendJsonString(s, out);
    return;
  }
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  std::string_view written(text);
  out->append(written);
  if (written.find_first_of(".e") == std::string_view::npos) out->append(".0");
}

void AppendScalar(const YAML::Node& node, std::string* out) {
  const std::string& s = node.Scalar();
  const std::string& tag = node.Tag();
  // "!" marks a quoted scalar, "tag:yaml.org,2002:str" an explicit `!!str`: both are strings.
  // Plain scalars ("?") and other tags take the plain typing rule.
  if (tag == "!" || tag == "tag:yaml.org,2002:str") {
    AppendJsonString(s, out);
    return;
  }
  switch (ClassifyPlain(s)) {
    case PlainKind::kNull: out->append("null"); return;
    case PlainKind::kBool: out->append(PlainBoolValue(s) ? "true" : "false"); return;
    case PlainKind::kInt:
    case PlainKind::kFloat:
      if (IsJsonNumber(s)) {
        out->append(s);  // exact: the reader of the JSON text decides the precision
      } else {
        AppendYamlOnlyNumber(s, out);
      }
      return;
    case PlainKind::kString: AppendJsonString(s, out); return;
  }
}

class Converter {
 public:
  Converter(const Limits& limits, size_t node_budget, Error* error)
      : limits_(limits), node_budget_(node_budget), error_(error) {}

  bool Convert(const YAML::Node& node, int depth, std::string* out) {
    // Aliases let a short text denote an exponentially large value ("billion laughs"): count
    // every node emitted, aliased ones included.
    if (++nodes_ > node_budget_) {
      return Fail(ErrorKind::kTooManyNodes, node,
                  "value has more than " + std::to_string(node_budget_) + " nodes");
    }
    if (depth > limits_.max_depth) {
      return Fail(ErrorKind::kTooDeep, node, "value nested deeper than " +
                                                 std::to_string(limits_.max_depth) + " levels");
    }
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined: out->append("null"); return true;
      case YAML::NodeType::Scalar: AppendScalar(node, out); return true;
      case YAML::NodeType::Sequence: return Sequence(node, depth, out);
      case YAML::NodeType::Map: return Mapping(node, depth, out);
    }
    out->append("null");
    return true;
  }

 private:
  bool Sequence(const YAML::Node& node, int depth, std::string* out) {
    out->push_back('[');
    bool first = true;
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!first) out->push_back(',');
      first = false;
      if (!Convert(*it, depth + 1, out)) return false;
    }
    out->push_back(']');
    return true;
  }

  bool Mapping(const YAML::Node& node, int depth, std::string* out) {
    out->push_back('{');
    std::set<std::string, std::less<>> seen;
    bool first = true;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key = it->first;  // a copy: the iterator's pair is a temporary
      if (!key.IsScalar()) {
        return Fail(ErrorKind::kNonStringKey, key, "keys of a JSON value must be strings");
      }
      if (!seen.insert(key.Scalar()).second) {
        return Fail(ErrorKind::kDuplicateKey, key, "duplicate key '" + key.Scalar() + "' in value");
      }
      if (!first) out->push_back(',');
      first = false;
      AppendJsonString(key.Scalar(), out);
      out->push_back(':');
      if (!Convert(it->second, depth + 1, out)) return false;
    }
    out->push_back('}');
    return true;
  }

  bool Fail(ErrorKind kind, const YAML::Node& at, std::string message) {
    error_->kind = kind;
    error_->message = std::move(message);
    YAML::Mark mark = at.Mark();
    if (!mark.is_null()) {
      error_->offset = static_cast<size_t>(mark.pos);
      error_->line = static_cast<uint32_t>(mark.line + 1);
      error_->column = static_cast<uint32_t>(mark.column + 1);
    }
    return false;
  }

  const Limits& limits_;
  size_t node_budget_;
  size_t nodes_ = 0;
  Error* error_;
};

void SetSyntaxError(const YAML::Mark& mark, std::string message, Error* error) {
  error->kind = ErrorKind::kSyntax;
  error->message = std::move(message);
  if (!mark.is_null() && mark.line >= 0) {
    error->offset = mark.pos > 0 ? static_cast<size_t>(mark.pos) : 0;
    error->line = static_cast<uint32_t>(mark.line + 1);
    error->column = static_cast<uint32_t>(mark.column + 1);
  }
}

// Thrown out of yaml-cpp's parser by ProgressWatch (caught in CheckYamlCppTerminates).
struct StuckAt {
  YAML::Mark mark;
};

// Watches the events of a parse for the two signs of yaml-cpp's unconsumed ',' (see
// CheckYamlCppTerminates in the header): an empty node in block context that yaml-cpp read at a
// ',' (so YAML::Load alone would return it as null), and a document starting where the previous
// one did (so YAML::LoadAll would never end).
class ProgressWatch : public YAML::EventHandler {
 public:
  explicit ProgressWatch(std::string_view text) : text_(text) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (documents_ > 0 && mark.pos == last_start_) throw StuckAt{mark};
    ++documents_;
    last_start_ = mark.pos;
    collections_.clear();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    bool in_flow = !collections_.empty() && collections_.back();
    if (!in_flow && mark.pos >= 0 && static_cast<size_t>(mark.pos) < text_.size() &&
        text_[mark.pos] == ',') {
      throw StuckAt{mark};
    }
  }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value style) override {
    Open(style);
  }
  void OnSequenceEnd() override { Close(); }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value style) override {
    Open(style);
  }
  void OnMapEnd() override { Close(); }

 private:
  // A collection inside a flow collection is in flow context whatever its own style.
  void Open(YAML::EmitterStyle::value style) {
    bool in_flow = !collections_.empty() && collections_.back();
    collections_.push_back(in_flow || style == YAML::EmitterStyle::Flow);
  }
  void Close() {
    if (!collections_.empty()) collections_.pop_back();
  }

  std::string_view text_;
  size_t documents_ = 0;
  int last_start_ = 0;
  std::vector<bool> collections_;  // open collections, innermost last: whether in flow context
};

}  // namespace

bool CheckYamlCppTerminates(std::string_view text, const TextOptions& options, Error* error) {
  std::istringstream stream{std::string(text)};
  ProgressWatch watch(text);
  try {
    YAML::Parser parser(stream);
    while (parser.HandleNextDocument(watch)) {
      if (options.first_document_only) break;
    }
  } catch (const StuckAt& stuck) {
    bool comma = stuck.mark.pos >= 0 && static_cast<size_t>(stuck.mark.pos) < text.size() &&
                 text[stuck.mark.pos] == ',';
    SetSyntaxError(stuck.mark,
                   comma ? "malformed YAML: ',' outside a flow collection"
                         : "malformed YAML: the YAML reader cannot get past this token",
                   error);
    return false;
  } catch (const std::exception&) {
    return true;  // a syntax error: the load that follows reports it
  }
  return true;
}

PlainKind ClassifyPlain(std::string_view s) {
  static const std::set<std::string_view> kNulls = {"", "~", "null", "Null", "NULL"};
  static const std::set<std::string_view> kBools = {
      "y",    "Y",    "yes",  "Yes",  "YES",   "n",     "N",     "no",  "No",  "NO",  "true",
      "True", "TRUE", "false", "False", "FALSE", "on",  "On",    "ON",  "off", "Off", "OFF"};
  static const std::set<std::string_view> kSpecialFloats = {
      ".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", "+.inf", ".nan", ".NaN", ".NAN"};
  if (kNulls.count(s)) return PlainKind::kNull;
  if (kBools.count(s)) return PlainKind::kBool;
  if (kSpecialFloats.count(s)) return PlainKind::kFloat;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i >= s.size()) return PlainKind::kString;
  std::string_view prefix = s.substr(i, 2);
  if (prefix == "0x" || prefix == "0o" || prefix == "0b") {
    if (i + 2 == s.size()) return PlainKind::kString;
    for (size_t j = i + 2; j < s.size(); ++j) {
      if (!IsHexDigit(s[j]) && s[j] != '_') return PlainKind::kString;
    }
    return PlainKind::kInt;
  }
  return ClassifyDecimal(s, i);
}

bool PlainBoolValue(std::string_view s) {
  static const std::set<std::string_view> kTrue = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                                   "True", "TRUE", "on",  "On",  "ON"};
  return kTrue.count(s) > 0;
}

std::string Error::Located(std::string_view name) const {
  std::string out(name);
  if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  return out + ": " + message;
}

bool NodeToJson(const YAML::Node& node, const Limits& limits, std::string* json, Error* error) {
  std::string out;
  Converter converter(limits, limits.max_nodes, error);
  try {
    if (!converter.Convert(node, 0, &out)) return false;
  } catch (const YAML::Exception& e) {
    SetSyntaxError(e.mark, "malformed YAML: " + e.msg, error);
    return false;
  }
  *json = std::move(out);
  return true;
}

bool TextToJson(std::string_view text, const TextOptions& options,
                std::vector<std::string>* documents, Error* error) {
  if (text.size() > options.limits.max_bytes) {
    error->kind = ErrorKind::kTooLarge;
    error->message = "input is " + std::to_string(text.size()) + " bytes; the limit is " +
                     std::to_string(options.limits.max_bytes);
    error->line = 1;
    error->column = 1;
    return false;
  }
  // YAML streams cannot contain NUL (YAML 1.2 c-printable), and yaml-cpp 0.7 loops without end
  // on some texts that do (fuzz finding: "\0" then commas and a quote): refused before parsing.
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    error->kind = ErrorKind::kSyntax;
    error->message = "malformed YAML: NUL byte (YAML text cannot contain it)";
    error->offset = nul;
    error->line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < nul; ++i) {
      if (text[i] == '\n') {
        ++error->line;
        line_start = i + 1;
      }
    }
    error->column = static_cast<uint32_t>(nul - line_start + 1);
    return false;
  }
  if (!CheckYamlCppTerminates(text, options, error)) return false;
  std::vector<YAML::Node> nodes;
  try {
    std::string owned(text);
    if (options.first_document_only) {
      nodes.push_back(YAML::Load(owned));
    } else {
      nodes = YAML::LoadAll(owned);
    }
  } catch (const YAML::Exception& e) {
    SetSyntaxError(e.mark, "malformed YAML: " + e.msg, error);
    return false;
  } catch (const std::exception& e) {
    SetSyntaxError(YAML::Mark::null_mark(), std::string("cannot read YAML: ") + e.what(), error);
    return false;
  }
  Limits limits = options.limits;
  limits.max_nodes += text.size();
  std::vector<std::string> converted;
  for (const YAML::Node& node : nodes) {
    std::string json;
    if (!NodeToJson(node, limits, &json, error)) return false;
    converted.push_back(std::move(json));
  }
  *documents = std::move(converted);
  return true;
}

bool ReadDocuments(std::string_view text, std::string_view name, const TextOptions& options,
                   const TakeDocument& take, std::string* error) {
  std::vector<std::string> documents;
  Error yaml_error;
  if (!TextToJson(text, options, &documents, &yaml_error)) {
    *error = yaml_error.Located(name);
    return false;
  }
  for (size_t i = 0; i < documents.size(); ++i) {
    if (!take(documents[i], i, error)) return false;
  }
  return true;
}

}  // namespace wm::base::yaml
