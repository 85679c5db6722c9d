// `--emit=STAGE` for the commands that take definitions (`wmc check`, `wmc compile`): runs the
// driver's checks, refuses to dump definitions with errors, and prints every jq field's dump at
// the stage to stdout or to an output file. Exit 0 dumped, 1 findings with errors, 2 usage, I/O
// or backend failure.
#pragma once

#include <string>
#include <vector>

#include "compiler/driver/definitions.h"
#include "compiler/source/render.h"

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

}  // namespace wm::tools
