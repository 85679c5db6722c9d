// Workload object input for `wmc inspect` and friends. JSON goes through the runtime's parser
// (exact numbers, fast); anything else is read as YAML with yaml-cpp. Plain YAML scalars are typed
// by the YAML 1.2 core schema (null, booleans, numbers); quoted scalars stay strings.
#include "tools/object_input.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <iostream>
#include <iterator>
#include <regex>

#include "compiler/source/file.h"
#include "runtime/value/json.h"

namespace wm::tools {
namespace {

constexpr int kMaxDepth = 256;

Value PlainScalar(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return Value::Null();
  if (s == "true" || s == "True" || s == "TRUE") return Value::Bool(true);
  if (s == "false" || s == "False" || s == "FALSE") return Value::Bool(false);
  static const std::regex kNumber(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  if (std::regex_match(s, kNumber)) return Value::Number(std::strtod(s.c_str(), nullptr));
  return Value::String(s);
}

bool Convert(const YAML::Node& node, int depth, Value* out, std::string* error) {
  if (depth > kMaxDepth) {
    *error = "nesting deeper than " + std::to_string(kMaxDepth);
    return false;
  }
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      *out = Value::Null();
      return true;
    case YAML::NodeType::Scalar:
      *out = node.Tag() == "?" ? PlainScalar(node.Scalar()) : Value::String(node.Scalar());
      return true;
    case YAML::NodeType::Sequence: {
      Array items;
      for (const auto& item : node) {
        Value v;
        if (!Convert(item, depth + 1, &v, error)) return false;
        items.push_back(std::move(v));
      }
      *out = Value::MakeArray(std::move(items));
      return true;
    }
    case YAML::NodeType::Map: {
      std::vector<Member> members;
      for (const auto& kv : node) {
        Value v;
        if (!Convert(kv.second, depth + 1, &v, error)) return false;
        members.push_back({Value::String(kv.first.Scalar()), std::move(v)});
      }
      *out = Value::MakeObject(std::move(members));
      return true;
    }
  }
  return false;
}

bool LooksLikeJson(const std::string& text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}

}  // namespace

bool YamlToValue(const std::string& text, const std::string& name, Value* out, std::string* error) {
  try {
    YAML::Node root = YAML::Load(text);
    std::string why;
    if (!Convert(root, 0, out, &why)) {
      *error = name + ": " + why;
      return false;
    }
    return true;
  } catch (const YAML::Exception& e) {
    *error = name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
             ": malformed YAML: " + e.msg;
    return false;
  } catch (const std::exception& e) {
    *error = name + ": cannot read YAML: " + e.what();
    return false;
  }
}

bool ReadObject(const std::string& path, Value* out, std::string* error) {
  std::string text, name = path == "-" ? "<stdin>" : path;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    if (!ReadWholeFile(path, &text, error)) return false;
  }
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
