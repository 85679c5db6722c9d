// `--emit=STAGE` for the commands that take definitions (`wmc check`, `wmc compile`): runs the
// driver's checks, refuses to dump definitions with errors, and prints every jq field's dump at
// the stage to stdout or to an output file. Exit 0 dumped, 1 findings with errors, 2 usage, I/O
// or backend failure.
// Also declares the input options both commands share (schemas, CRDs, the jq policy flags).
#pragma once

#include <string>
#include <vector>

#include "compiler/driver/definitions.h"
#include "compiler/source/render.h"

namespace CLI {
class App;
}

namespace wm::tools {

struct EmitRequest {
  const char* command = "wmc check";  // prefix of messages
  std::string stage;                  // the --emit value
  std::vector<std::string> inputs;
  driver::DefinitionOptions options;
  std::string output;                                 // "" = stdout
  DiagnosticFormat format = DiagnosticFormat::kText;  // of findings (stderr)
};

int EmitDefinitionStage(const EmitRequest& request);

// `--schemas DIR`, `--crd FILE`, `--allow ITEM`, `--policy FILE` and `--target=gojq|jq`, filling
// `options` (which must outlive the command's callback): what `wmc check` and `wmc compile` read
// definitions with.
void AddDefinitionInputOptions(CLI::App* cmd, driver::DefinitionOptions* options);

// Every file a run over `inputs` with `options` reads (definitions, also inside directories, CRDs,
// the policy file): what an output file must never be written over.
std::vector<std::string> FilesReadBy(const std::vector<std::string>& inputs,
                                     const driver::DefinitionOptions& options);

}  // namespace wm::tools
