// libFuzzer target for the schema importer (compiler/schema): any text given as a CRD or OpenAPI
// document (`wmc schema import`, `check --crd`) imports or is refused with a message, never a
// crash or hang; every imported schema serializes (schema::ToJson) and reads back (FromJson).
// Built by tests/fuzz/build.sh. (Where WriteSchemas puts files is the CLI's check, not this one's.)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/schema/import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  wm::schema::ImportResult result;
  std::string error;
  if (!wm::schema::ImportText(text, "fuzz.yaml", &result, &error)) {
    if (error.empty()) std::abort();  // a refusal must say why
    return 0;
  }
  for (const wm::schema::ImportedSchema& s : result.schemas) {
    (void)s.RelativePath();
    if (!s.schema) continue;
    std::string read_error;
    if (!wm::schema::FromJson(wm::schema::ToJson(*s.schema), &read_error)) {
      std::fprintf(stderr, "imported schema does not read back: %s\n", read_error.c_str());
      std::abort();
    }
  }
  return 0;
}
