// Running one compiled resolver of a bundle and collecting its outputs: the single place where the
// workload layer (extraction, status, pods, gangs, writes) calls into the engines, so limits and
// error wording are the same for every caller.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/value/value.h"

namespace wm::workload {

// All outputs of one resolver run, or the error that stopped it.
struct Outputs {
  std::vector<Value> values;
  std::string error;  // "<role> `<jq source>`: <message>", empty on success
  bool limit = false; // the error is a limit of EvalLimits (outputs, fuel, memory, time)
  bool ok() const { return error.empty(); }
};

// Runs resolver `id` of `bundle` on `input` and collects every output.
Outputs RunResolver(const Bundle& bundle, int32_t id, const Value& input, const RunOptions& run);

// A value as upstream's Go library turns a jq result into a string: strings as they are, anything
// else as compact JSON (jq's `tostring`).
std::string StringOf(const Value& value);

}  // namespace wm::workload
