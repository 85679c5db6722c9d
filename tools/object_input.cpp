// Workload object input for `wmc inspect` and friends. JSON goes through the runtime's parser
// (exact numbers, fast); anything else is YAML, converted to JSON text by base/yaml (plain scalars
// typed as Kubernetes reads them, quoted scalars strings, aliases within the node budget) and
// then parsed by the same JSON parser.
#include "tools/object_input.h"

#include <iostream>
#include <iterator>

#include "base/file.h"
#include "base/yaml/yaml_json.h"
#include "runtime/value/json.h"

namespace wm::tools {
namespace {

// Nesting a workload object may have (objects embed pod templates, which embed containers, ...).
constexpr int kMaxDepth = 256;

bool LooksLikeJson(const std::string& text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}

}  // namespace

bool YamlToValue(const std::string& text, const std::string& name, Value* out, std::string* error) {
  base::yaml::TextOptions options;
  options.limits.max_depth = kMaxDepth;
  options.first_document_only = true;
  std::vector<std::string> documents;
  base::yaml::Error yaml_error;
  if (!base::yaml::TextToJson(text, options, &documents, &yaml_error)) {
    *error = yaml_error.Located(name);
    return false;
  }
  JsonError json_error;
  if (!ParseJson(documents.empty() ? "null" : documents.front(), out, &json_error)) {
    // The converter writes valid JSON; only a string that is not UTF-8 gets here.
    *error = name + ": cannot read YAML: " + json_error.message;
    return false;
  }
  return true;
}

namespace {

bool ReadText(const std::string& path, std::string* text, std::string* error) {
  if (path != "-") {
    base::ReadFileOptions read_options;
    // JSON and YAML text never holds a NUL byte: binary data (or /dev/zero) is refused at once.
    read_options.check_head = [](std::string_view head) -> std::string {
      size_t nul = head.find('\0');
      if (nul == std::string_view::npos) return "";
      return "binary data (a NUL byte at offset " + std::to_string(nul) + "), not JSON or YAML";
    };
    return base::ReadWholeFile(path, text, error, read_options);
  }
  text->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

bool ReadObjects(const std::string& path, std::vector<Value>* out, std::string* error) {
  std::string text, name = path == "-" ? "<stdin>" : path;
  if (!ReadText(path, &text, error)) return false;
  if (LooksLikeJson(text)) {
    Value v;
    JsonError json_error;
    if (!ParseJson(text, &v, &json_error)) {
      *error = name + ": invalid JSON at byte " + std::to_string(json_error.offset) + ": " + json_error.message;
      return false;
    }
    out->push_back(std::move(v));
    return true;
  }
  base::yaml::TextOptions options;
  options.limits.max_depth = kMaxDepth;
  std::vector<std::string> documents;
  base::yaml::Error yaml_error;
  if (!base::yaml::TextToJson(text, options, &documents, &yaml_error)) {
    *error = yaml_error.Located(name);
    return false;
  }
  for (const std::string& document : documents) {
    Value v;
    JsonError json_error;
    if (!ParseJson(document, &v, &json_error)) {
      *error = name + ": cannot read YAML: " + json_error.message;
      return false;
    }
    if (!v.IsNull()) out->push_back(std::move(v));
  }
  return true;
}

bool ReadObject(const std::string& path, Value* out, std::string* error) {
  std::string text, name = path == "-" ? "<stdin>" : path;
  if (!ReadText(path, &text, error)) return false;
  if (LooksLikeJson(text)) {
    JsonError json_error;
    if (ParseJson(text, out, &json_error)) return true;
    *error = name + ": invalid JSON at byte " + std::to_string(json_error.offset) + ": " +
             json_error.message;
    return false;
  }
  return YamlToValue(text, name, out, error);
}

}  // namespace wm::tools
