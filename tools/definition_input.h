// Reading definition inputs for the CLI: expands files and directories (*.yaml, *.yml, *.json;
// `examples/` folders hold workload objects and are skipped), loads every definition, runs the
// structural rules and the schema type checker, and keeps each file's text so diagnostics can
// show source lines. Shared by `wmc check` and `wmc compile`, so both report the same findings.
#pragma once

#include <string>
#include <vector>

#include "compiler/definition/jq_policy.h"
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

struct CheckInputOptions {
  // Type-check every jq field against the CRD / Kubernetes schemas (default true).
  bool type_check = true;
  std::vector<std::string> schema_dirs;  // `--schemas DIR`, searched before the built-in schemas
  std::vector<std::string> crd_files;    // `--crd FILE`, user CRDs imported in memory
  definition::JqPolicyFlags jq_policy;   // `--allow`, `--policy`, `--target`
};

// Loads and checks every definition under `paths`: loader, structural rules, and (by default) the
// schema type checker. False only on I/O errors (run->io_error); findings are in run->sink.
bool LoadAndCheck(const std::vector<std::string>& paths, DefinitionRun* run,
                  const CheckInputOptions& options = {});

// Every finding of the run, files in the order they were read, each file's findings by position
// (the loader, the jq parser, the rules and the type checker report in separate passes).
std::vector<Diagnostic> SortedFindings(const DefinitionRun& run);

}  // namespace wm::tools
