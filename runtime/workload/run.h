// Running one compiled resolver of a bundle and collecting its outputs: the single place where the
// workload layer (extraction, status, pods, gangs, writes) calls into the engines, so limits and
// error wording are the same for every caller.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/value/value.h"

namespace wm::workload {

// What went wrong, as a code a C or Go caller can branch on; the message carries upstream's wording
// (UPSTREAM.md section 4) so that a consumer switching from the Go library sees the same text.
enum class ErrorCode : int {
  kNone = 0,
  kInvalidInput = 1,       // not a Kubernetes object, malformed JSON, bad argument
  kNoDefinition = 2,       // no definition for the kind; or upstream's DefinitionNotFoundError
                           // ("component X does not have pod spec definition")
  kNotFound = 3,           // unknown component, instance id or pod group
  kEvaluation = 4,         // a resolver failed (jq error), or its results have the wrong shape
  kMismatch = 5,           // zip count mismatch, array length mismatch
  kLimit = 6,              // result cap, step budget, memory or time limit
};

struct Error {
  ErrorCode code = ErrorCode::kNone;
  std::string message;
  explicit operator bool() const { return code != ErrorCode::kNone; }
};

// An Error with that code and message (the workload layer's way to fail).
inline Error Fail(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

// A value or the error that prevented it (the workload layer's return type; no exceptions).
template <class T>
struct Result {
  T value{};
  Error error;
  bool ok() const { return !error; }
};

// All outputs of one resolver run, or the error that stopped it.
struct Outputs {
  std::vector<Value> values;
  std::string error;       // "<role> `<jq source>`: <message>", empty on success (wmc's own views)
  std::string message;     // the engine's message alone
  std::string expression;  // the resolver's jq source, for upstream's wording of the error
  bool limit = false;      // the error is a limit of EvalLimits (outputs, fuel, memory, time)
  bool ok() const { return error.empty(); }
};

// Limits of all resolver runs on one workload object together (docs/limits.md).
struct ObjectLimits {
  uint64_t fuel = 50'000'000;      // steps of all runs
  uint64_t timeout_ms = 30'000;    // wall clock of all runs; 0 = none
};

// The budget all resolver runs on one workload object share: RunResolver gives each run at most
// what is left and takes back the steps it used. The Accessor of an object creates one; its const
// calls may run concurrently, hence the atomic.
struct ObjectBudget {
  explicit ObjectBudget(const ObjectLimits& limits)
      : fuel_left(limits.fuel),
        limits(limits),
        deadline(std::chrono::steady_clock::now() + std::chrono::milliseconds(limits.timeout_ms)) {}
  std::atomic<uint64_t> fuel_left;
  ObjectLimits limits;
  std::chrono::steady_clock::time_point deadline;
};

// Runs resolver `id` of `bundle` on `input` and collects every output; with `object`, inside
// (and charged to) that object's budget.
Outputs RunResolver(const Bundle& bundle, int32_t id, const Value& input, const RunOptions& run,
                    ObjectBudget* object = nullptr);

// A value as upstream's Go library turns a jq result into a string: strings as they are, anything
// else as compact JSON (jq's `tostring`).
std::string StringOf(const Value& value);

}  // namespace wm::workload
