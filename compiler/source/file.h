// Reading whole input files (definitions, jq programs, workload objects, build artifacts) with
// one error wording, so every command reports an unreadable file the same way.
#pragma once

#include <string>

namespace wm {

// Reads the whole file at `path` (bytes as they are). False with "cannot open PATH" or
// "cannot read PATH" in *error when it cannot be read.
bool ReadWholeFile(const std::string& path, std::string* contents, std::string* error);

}  // namespace wm
