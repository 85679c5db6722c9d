// Reading definition inputs for the CLI: expands files and directories (*.yaml, *.yml, *.json;
// `examples/` folders hold workload objects and are skipped), loads every definition, runs the
// structural rules, and keeps each file's text so diagnostics can show source lines.
#pragma once

#include <string>
#include <vector>

#include "compiler/definition/model.h"
#include "compiler/source/diagnostic.h"
#include "compiler/source/render.h"

namespace wm::tools {

struct LoadedFile {
  std::string path;
  std::vector<definition::Definition> definitions;
};

struct DefinitionRun {
  std::vector<LoadedFile> files;
  DiagnosticSink sink;
  SourceFiles sources;
  std::string io_error;  // set when a path is missing or unreadable
};

// Expands `paths` to definition files in a stable (sorted) order. False with *error when a path
// does not exist or a directory cannot be read.
bool ExpandDefinitionPaths(const std::vector<std::string>& paths, std::vector<std::string>* files,
                           std::string* error);

// Loads and checks every definition under `paths`. False only on I/O errors (run->io_error);
// findings are in run->sink.
bool LoadAndCheck(const std::vector<std::string>& paths, DefinitionRun* run);

}  // namespace wm::tools
