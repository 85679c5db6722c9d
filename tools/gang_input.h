// Shared input of `wmc pods` and `wmc gangs`: the bundle, the workload object with its definition,
// Accessor, structure summary and scale reader, and the pods of a file (a Pod, a `kind: List`,
// `kubectl get pods -o json` output or a YAML stream of pods).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/gangs.h"

namespace wm::tools {

struct GangWorkload {
  std::shared_ptr<Bundle> bundle;
  Value object;
  std::string api_version;
  std::string kind;
  const catalog::Definition* definition = nullptr;
  workload::WorkloadIdentity identity;
  std::unique_ptr<workload::Accessor> accessor;  // instance ids and scales, as upstream extracts them
  std::unique_ptr<workload::StructureSummary> summary;
  workload::ScaleReader reader;
};

struct GangInputOptions {
  std::string command;  // "pods" or "gangs", for messages
  std::string bundle;
  std::string engine = "auto";  // auto | interp | jit (tools/bundle_source.h ApplyEngine)
  std::string workload = "-";
  std::string expect_sha256;    // --expect-sha256: the bundle's pinned digest, "" = none
};

// Loads bundle and workload. Returns the exit code: 0, 1 when no definition covers the object's
// kind, 2 when the bundle or the object cannot be read (the message is printed on stderr).
int LoadGangWorkload(const GangInputOptions& options, GangWorkload* out);

// Reads the pods of `path`. Returns 0, or 2 after printing why it cannot.
int LoadPods(const std::string& command, const std::string& path, std::vector<Value>* pods);

}  // namespace wm::tools
