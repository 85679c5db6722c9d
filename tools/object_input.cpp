// Workload object input for `wmc inspect`, `wmc get` and friends. JSON goes through the runtime's
// parser (exact numbers, fast; a stream of values is read whole); anything else is YAML, every
// document converted to JSON text by base/yaml (plain scalars typed as Kubernetes reads them,
// quoted scalars strings, aliases within the node budget) and then parsed by the same JSON parser.
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
// `kind: List` inside `kind: List`: deeper than any tool writes; the rest is kept as it is.
constexpr int kMaxListNesting = 16;

bool LooksLikeJson(const std::string& text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}

bool ReadText(const std::string& path, std::string* text, std::string* error) {
  if (path == "-") {
    text->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  base::ReadFileOptions read_options;
  // JSON and YAML text never holds a NUL byte: binary data (or /dev/zero) is refused at once.
  read_options.check_head = [](std::string_view head) -> std::string {
    size_t nul = head.find('\0');
    if (nul == std::string_view::npos) return "";
    return "binary data (a NUL byte at offset " + std::to_string(nul) + "), not JSON or YAML";
  };
  return base::ReadWholeFile(path, text, error, read_options);
}

bool YamlDocuments(const std::string& text, const std::string& name, std::vector<Value>* out,
                   std::string* error) {
  base::yaml::TextOptions options;
  options.limits.max_depth = kMaxDepth;
  std::vector<std::string> documents;
  base::yaml::Error yaml_error;
  if (!base::yaml::TextToJson(text, options, &documents, &yaml_error)) {
    *error = yaml_error.Located(name);
    return false;
  }
  for (size_t i = 0; i < documents.size(); ++i) {
    Value value;
    JsonError json_error;
    if (!ParseJson(documents[i], &value, &json_error)) {
      // The converter writes valid JSON; only a string that is not UTF-8 gets here.
      *error = name + ": document " + std::to_string(i + 1) + ": cannot read YAML: " +
               json_error.message;
      return false;
    }
    if (!value.IsNull()) out->push_back(std::move(value));
  }
  return true;
}

void Flatten(const Value& v, int depth, std::vector<Value>* out) {
  const Value* kind = v.IsObject() ? v.Find("kind") : nullptr;
  const Value* items = v.IsObject() ? v.Find("items") : nullptr;
  bool is_list = kind && kind->IsString() && kind->AsString().size() >= 4 &&
                 kind->AsString().substr(kind->AsString().size() - 4) == "List" && items &&
                 items->IsArray();
  if (!is_list || depth >= kMaxListNesting) {
    out->push_back(v);
    return;
  }
  for (const Value& item : items->AsArray()) Flatten(item, depth + 1, out);
}

}  // namespace

std::string InputName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

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
    *error = name + ": cannot read YAML: " + json_error.message;
    return false;
  }
  return true;
}

bool ReadObjects(const std::string& path, std::vector<Value>* out, std::string* error) {
  std::string text, name = InputName(path);
  if (!ReadText(path, &text, error)) return false;
  if (!LooksLikeJson(text)) return YamlDocuments(text, name, out, error);
  JsonError json_error;
  std::vector<Value> values;
  if (!ParseJsonStream(text, &values, &json_error)) {
    *error = name + ": invalid JSON at byte " + std::to_string(json_error.offset) + ": " +
             json_error.message;
    return false;
  }
  for (Value& v : values) out->push_back(std::move(v));
  return true;
}

bool ReadObject(const std::string& path, Value* out, std::string* error) {
  std::vector<Value> documents;
  if (!ReadObjects(path, &documents, error)) return false;
  if (documents.size() > 1) {
    *error = InputName(path) +
             " holds more than one document; this command reads one workload (`wmc get -f` "
             "lists many)";
    return false;
  }
  *out = documents.empty() ? Value::Null() : documents.front();
  return true;
}

std::vector<Value> FlattenLists(const std::vector<Value>& objects) {
  std::vector<Value> out;
  for (const Value& v : objects) Flatten(v, 0, &out);
  return out;
}

}  // namespace wm::tools
