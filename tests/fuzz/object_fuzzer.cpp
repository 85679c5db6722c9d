// libFuzzer target for object ingest: the JSON parser (runtime/value/json.h) and the YAML -> JSON
// conversion (base/yaml) that every workload object, pod list and definition goes through. The
// first byte picks the reader. Invariants: the reader never crashes or hangs; JSON it accepts
// prints (ToJson) to text that parses back to an identical value; every document the YAML
// converter returns is JSON the JSON parser accepts. Built by tests/fuzz/build.sh.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "base/yaml/yaml_json.h"
#include "runtime/value/json.h"

namespace {

void Fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "%s\n%.*s\n", what, static_cast<int>(text.size()), text.data());
  std::abort();
}

void CheckJson(std::string_view text) {
  wm::Value value;
  wm::JsonError error;
  if (!wm::ParseJson(text, &value, &error)) return;
  std::string printed = wm::ToJson(value);
  wm::Value again;
  if (!wm::ParseJson(printed, &again, &error)) Fail("printed JSON does not parse", printed);
  if (!Identical(value, again) && wm::ToJson(again) != printed) Fail("JSON round trip differs", printed);
}

void CheckYaml(std::string_view text) {
  wm::base::yaml::TextOptions options;
  options.limits.max_depth = 32;
  options.limits.max_nodes = 20000;
  std::vector<std::string> documents;
  wm::base::yaml::Error error;
  if (!wm::base::yaml::TextToJson(text, options, &documents, &error)) return;
  for (const std::string& doc : documents) {
    wm::Value value;
    wm::JsonError json_error;
    if (!wm::ParseJson(doc, &value, &json_error)) Fail("YAML converted to invalid JSON", doc);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  // Seeds are whole files: a '{' or '[' first is JSON, anything else YAML (and odd bytes both).
  if (data[0] == '{' || data[0] == '[') {
    CheckJson(std::string_view(reinterpret_cast<const char*>(data), size));
  } else if (data[0] & 1) {
    CheckJson(text);
  } else {
    CheckYaml(std::string_view(reinterpret_cast<const char*>(data), size));
  }
  return 0;
}
