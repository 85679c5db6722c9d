// Value -> block-style YAML (see yaml_output.h). Mappings indent by two; a sequence under a key
// starts at the key's column (`key:\n- a`), as kubectl writes; empty containers are `{}` and `[]`.
// Strings are plain when safe, else double-quoted with YAML escapes.
#include "tools/yaml_output.h"

#include <cmath>
#include <cstdio>

#include "base/yaml/yaml_json.h"
#include "runtime/value/json.h"

namespace wm::tools {
namespace {

// Characters that give a scalar's first character a syntactic meaning (indicators), or that make
// the scalar look like a document marker.
bool IsIndicator(char c) {
  switch (c) {
    case '-': case '?': case ':': case ',': case '[': case ']': case '{': case '}': case '#':
    case '&': case '*': case '!': case '|': case '>': case '\'': case '"': case '%': case '@':
    case '`': case '.': case '<': case '=': case '~': case ' ':
      return true;
    default:
      return false;
  }
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

void AppendScalar(const Value& v, std::string* out) {
  switch (v.kind()) {
    case Kind::Null: out->append("null"); return;
    case Kind::False: out->append("false"); return;
    case Kind::True: out->append("true"); return;
    case Kind::Number: {
      double d = v.AsNumber();
      if (std::isnan(d)) out->append(".nan");
      else if (std::isinf(d)) out->append(d > 0 ? ".inf" : "-.inf");
      else FormatNumber(d, out);
      return;
    }
    case Kind::String: {
      std::string_view s = v.AsString();
      if (IsPlainSafe(s)) out->append(s);
      else out->append(DoubleQuoted(s));
      return;
    }
    case Kind::Array: out->append("[]"); return;   // only reached for empty containers
    case Kind::Object: out->append("{}"); return;
  }
}

bool IsBlock(const Value& v) {
  return (v.IsArray() && !v.AsArray().empty()) || (v.IsObject() && !v.AsObject().empty());
}

// Writes a block node at column `indent`. `inline_start`: the cursor already stands at that
// column (after "- "), so the first line gets no indentation. Values come from the bounded JSON
// and YAML readers (nesting at most a few hundred levels), so recursion depth is bounded.
void WriteBlock(const Value& v, size_t indent, bool inline_start, std::string* out) {
  std::string pad(indent, ' ');
  if (v.IsObject()) {
    bool first = true;
    for (const Member& m : v.AsObject()) {
      if (!first || !inline_start) out->append(pad);
      first = false;
      AppendScalar(m.first, out);
      out->push_back(':');
      if (!IsBlock(m.second)) {
        out->push_back(' ');
        AppendScalar(m.second, out);
        out->push_back('\n');
      } else {
        out->push_back('\n');
        WriteBlock(m.second, m.second.IsObject() ? indent + 2 : indent, false, out);
      }
    }
    return;
  }
  bool first = true;
  for (const Value& item : v.AsArray()) {
    if (!first || !inline_start) out->append(pad);
    first = false;
    out->append("- ");
    if (IsBlock(item)) {
      WriteBlock(item, indent + 2, true, out);
    } else {
      AppendScalar(item, out);
      out->push_back('\n');
    }
  }
}

}  // namespace

bool IsPlainSafe(std::string_view s) {
  if (s.empty() || IsIndicator(s.front()) || s.back() == ' ' || s.back() == ':') return false;
  if (base::yaml::ClassifyPlain(s) != base::yaml::PlainKind::kString) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7f) return false;  // control characters; non-ASCII is quoted too
    if (c == ':' && i + 1 < s.size() && s[i + 1] == ' ') return false;
    if (c == '#' && s[i - 1] == ' ') return false;  // i > 0: '#' first is an indicator
    if (c == '{' || c == '}' || c == '[' || c == ']' || c == ',') return false;
  }
  // Dates, times and sexagesimal numbers: YAML 1.1 readers (go-yaml, PyYAML) retype them.
  if (IsDigit(s.front()) && s.find_first_of(":-") != std::string_view::npos) return false;
  return true;
}

std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  char buf[8];
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out.append("\\\""); continue;
      case '\\': out.append("\\\\"); continue;
      case '\n': out.append("\\n"); continue;
      case '\t': out.append("\\t"); continue;
      case '\r': out.append("\\r"); continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7f) {
      std::snprintf(buf, sizeof buf, "\\u%04X", c);
      out.append(buf);
      continue;
    }
    // C1 controls (U+0080-U+009F), NEL's and the line/paragraph separators' UTF-8 forms, and the
    // BOM are not printable in YAML: escape them.
    unsigned char next = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
    unsigned char third = i + 2 < s.size() ? static_cast<unsigned char>(s[i + 2]) : 0;
    if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {
      std::snprintf(buf, sizeof buf, "\\u%04X", next);
      out.append(buf);
      ++i;
      continue;
    }
    if (c == 0xE2 && next == 0x80 && (third == 0xA8 || third == 0xA9)) {
      out.append(third == 0xA8 ? "\\u2028" : "\\u2029");
      i += 2;
      continue;
    }
    if (c == 0xEF && next == 0xBB && third == 0xBF) {
      out.append("\\uFEFF");
      i += 2;
      continue;
    }
    out.push_back(static_cast<char>(c));
  }
  out.push_back('"');
  return out;
}

std::string ToYaml(const Value& value) {
  std::string out;
  if (IsBlock(value)) {
    WriteBlock(value, 0, false, &out);
  } else {
    AppendScalar(value, &out);
    out.push_back('\n');
  }
  return out;
}

}  // namespace wm::tools
