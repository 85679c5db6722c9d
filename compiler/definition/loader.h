// Loads workload map definitions (Karta / ResourceInterface) from YAML or JSON text into the model
// of model.h, strictly: unknown fields (with a did-you-mean), duplicate keys, wrong scalar types and
// malformed YAML become located diagnostics (WM001-WM009); no exception escapes. Every jq field gets
// a SourceMap back to the file (plain, quoted and block scalars) and is parsed with jq::Parse.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/definition/model.h"
#include "compiler/source/diagnostic.h"

namespace wm::definition {

struct LoadOptions {
  size_t max_file_bytes = 16u << 20;  // larger inputs are refused with WM007 (default 16 MiB)
  int max_depth = 64;                 // deepest nesting accepted inside free-form values (WM007)
  bool parse_jq = true;               // parse every jq field (syntax errors WM100-WM109)
  // Documents whose apiVersion/kind is not a definition: report them (WM005) or skip silently.
  bool report_foreign_documents = true;
};

struct LoadResult {
  std::vector<Definition> definitions;  // every definition document, even ones with errors
  int documents = 0;                    // YAML documents (List items count individually)
};

// Parses `text` (the contents of `file_name`; YAML with any number of documents, JSON, or a
// `kind: List` whose items are definitions). Diagnostics go to `sink`.
LoadResult LoadDefinitions(std::string_view file_name, std::string_view text,
                           const LoadOptions& options, DiagnosticSink& sink);

}  // namespace wm::definition
