// Reading workload objects for the CLI: a file path or "-" (stdin), JSON (one value or a stream of
// values, as `kubectl get -o json` or `jq -c` print them) or YAML (every document of a stream),
// converted to Values by base/yaml's conversion (the Kubernetes reader's scalar typing and the
// alias and size budgets every command applies). A malformed document anywhere in a stream is a
// located error, never dropped.
#pragma once

#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace wm::tools {

// Reads every document of the input, in order; empty YAML documents (`---` with nothing after
// it) are skipped. False with *error ("FILE:LINE:COL: ..." for YAML, "FILE: invalid JSON at byte
// N: ..." for JSON, "cannot open FILE" ...) when any document is malformed or unreadable.
bool ReadObjects(const std::string& path, std::vector<Value>* out, std::string* error);

// Reads the one object of the input (null for an empty input). False with *error on malformed
// input, and when the input holds more than one document ("FILE holds more than one document;
// ... reads one workload").
bool ReadObject(const std::string& path, Value* out, std::string* error);

// Replaces each `kind: List` (or `kind: <Anything>List` with an `items` array, as kubectl prints
// lists) by its items, recursively, keeping the order.
std::vector<Value> FlattenLists(const std::vector<Value>& objects);

// Converts YAML text (first document) to a Value; false with *error ("NAME:LINE:COL: ...") on
// malformed YAML or when a budget is exceeded.
bool YamlToValue(const std::string& text, const std::string& name, Value* out, std::string* error);

// How the CLI names an input path in messages: "<stdin>" for "-".
std::string InputName(const std::string& path);

}  // namespace wm::tools
