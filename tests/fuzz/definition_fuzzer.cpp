// libFuzzer target for the definition loader (compiler/definition): any text, read as a
// definition file, must load to definitions and/or located diagnostics, and every loaded
// definition must go through the structure rules (CheckDefinition) and the catalog-wide rules,
// without crashing, hanging, leaking or undefined behaviour. Built by tests/fuzz/build.sh.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "compiler/definition/loader.h"
#include "compiler/definition/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  wm::definition::LoadOptions options;
  options.max_depth = 32;  // small limits reach the limit paths with small inputs
  wm::DiagnosticSink sink;
  wm::definition::LoadResult loaded = wm::definition::LoadDefinitions("fuzz.yaml", text, options, sink);
  std::vector<const wm::definition::Definition*> all;
  for (const wm::definition::Definition& d : loaded.definitions) {
    wm::definition::CheckDefinition(d, sink);
    all.push_back(&d);
  }
  wm::definition::CheckDefinitionSet(all, sink);
  return 0;
}
