// Reading workload objects for the CLI: a file path or "-" (stdin), JSON or YAML (the first
// document), converted to a Value by base/yaml's conversion (the Kubernetes reader's scalar typing
// and the alias and size budgets every command applies).
#pragma once

#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace wm::tools {

// Reads and converts one object. False with *error ("FILE:LINE:COL: ...") on failure.
bool ReadObject(const std::string& path, Value* out, std::string* error);

// Reads every object of a file: one JSON value, or each document of a YAML stream (empty
// documents skipped). False with *error on failure.
bool ReadObjects(const std::string& path, std::vector<Value>* out, std::string* error);

// Converts YAML text (first document) to a Value; false with *error ("NAME:LINE:COL: ...") on
// malformed YAML or when a budget is exceeded.
bool YamlToValue(const std::string& text, const std::string& name, Value* out, std::string* error);

}  // namespace wm::tools
