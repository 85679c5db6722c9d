// Input of `wmc pods` and `wmc gangs` (see gang_input.h).
#include "tools/gang_input.h"

#include <cstdio>

#include "tools/bundle_source.h"
#include "tools/cli_output.h"
#include "tools/object_input.h"

namespace wm::tools {
namespace {

using workload::ErrorCode;
using workload::Result;

}  // namespace

int LoadGangWorkload(const GangInputOptions& o, GangWorkload* out) {
  const char* cmd = o.command.c_str();
  std::string error;
  BundleLoadOptions load;
  ApplyEngine(o.engine, &load);
  load.expect_sha256 = o.expect_sha256;
  out->bundle = Bundle::Open(o.bundle, &error, load);
  if (!out->bundle) {
    std::fprintf(stderr, "wmc %s: %s\n", cmd, error.c_str());
    return 2;
  }
  if (!ReadObject(o.workload, &out->object, &error)) {
    std::fprintf(stderr, "wmc %s: %s\n", cmd, error.c_str());
    return 2;
  }
  std::string name = o.workload == "-" ? "<stdin>" : o.workload;
  out->api_version = StringField(out->object, "apiVersion");
  out->kind = StringField(out->object, "kind");
  if (out->api_version.empty() || out->kind.empty()) {
    std::fprintf(stderr, "wmc %s: %s: not a Kubernetes object: apiVersion and kind are required\n", cmd,
                 name.c_str());
    return 2;
  }
  out->definition = out->bundle->FindDefinition(out->api_version, out->kind);
  if (!out->definition) {
    std::fprintf(stderr, "wmc %s: %s: no definition in the bundle for %s %s\n", cmd, name.c_str(),
                 out->api_version.c_str(), out->kind.c_str());
    return 1;
  }
  out->identity = workload::WorkloadIdentity::Of(out->object);
  out->accessor = std::make_unique<workload::Accessor>(*out->bundle, *out->definition, out->object);
  out->summary = std::make_unique<workload::StructureSummary>(*out->definition);
  out->reader = workload::ScaleReaderOf(*out->accessor);
  return 0;
}

int LoadPods(const std::string& command, const std::string& path, std::vector<Value>* pods) {
  std::vector<Value> documents;
  std::string error;
  if (!ReadObjects(path, &documents, &error)) {
    std::fprintf(stderr, "wmc %s: %s\n", command.c_str(), error.c_str());
    return 2;
  }
  // A List (kubectl's output or a hand-written one) contributes its items.
  for (const Value& document : documents) {
    const Value* items = document.IsObject() ? document.Find("items") : nullptr;
    if (items && items->IsArray()) {
      for (const Value& item : items->AsArray()) pods->push_back(item);
    } else {
      pods->push_back(document);
    }
  }
  for (const Value& pod : *pods) {
    if (StringField(pod, "kind") != "Pod") {
      std::string kind = StringField(pod, "kind");
      std::fprintf(stderr, "wmc %s: %s: expected Pod objects, got %s\n", command.c_str(),
                   path == "-" ? "<stdin>" : path.c_str(), kind.empty() ? "an object without a kind" : kind.c_str());
      return 2;
    }
  }
  return 0;
}

}  // namespace wm::tools
