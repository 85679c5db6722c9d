// Input of `wmc pods` and `wmc gangs` (see gang_input.h).
#include "tools/gang_input.h"

#include <cstdio>
#include <cstdlib>

#include "tools/object_input.h"

namespace wm::tools {
namespace {

using workload::ErrorCode;
using workload::Result;

std::string Text(const Value& object, const char* key) {
  const Value* v = object.IsObject() ? object.Find(key) : nullptr;
  return v && v->IsString() ? std::string(v->AsString()) : "";
}

// Interim reader of instance ids and scales over RunResolver, with upstream's zip rule, until the
// Accessor (runtime/workload/accessor.h, branch wp-access) is merged: then the lead replaces it
// with the Accessor's InstanceIds and Scales (ScaleReader's contract is theirs).
std::optional<int32_t> CountOf(const Value& v) {
  if (v.IsNumber()) return static_cast<int32_t>(v.AsNumber());
  if (!v.IsString()) return std::nullopt;
  std::string s(v.AsString());
  char* end = nullptr;
  long n = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0' ? std::optional<int32_t>(static_cast<int32_t>(n)) : std::nullopt;
}

workload::ScaleReader InterimReader(const Bundle& bundle, const Value& object) {
  workload::ScaleReader reader;
  reader.instance_ids = [&bundle, &object](const catalog::Component& c) -> Result<std::vector<std::string>> {
    if (c.instance_id < 0) return {{""}, {}};
    workload::Outputs o = workload::RunResolver(bundle, c.instance_id, object, {});
    if (!o.ok()) return {{}, {ErrorCode::kEvaluation, o.error}};
    std::vector<std::string> ids;
    for (const Value& v : o.values) ids.push_back(workload::StringOf(v));
    return {std::move(ids), {}};
  };
  reader.scales = [&bundle, &object, ids_of = reader.instance_ids](
                      const catalog::Component& c) -> Result<std::vector<workload::ScaleCounts>> {
    if (c.replicas < 0 && c.min_replicas < 0) return {{}, {}};
    Result<std::vector<std::string>> ids = ids_of(c);
    if (!ids.ok()) return {{}, ids.error};
    std::vector<workload::ScaleCounts> scales(ids.value.size());
    for (auto [resolver, field] : {std::pair{c.replicas, &workload::ScaleCounts::replicas},
                                   std::pair{c.min_replicas, &workload::ScaleCounts::min_replicas}}) {
      if (resolver < 0) continue;
      workload::Outputs o = workload::RunResolver(bundle, resolver, object, {});
      if (!o.ok()) return {{}, {ErrorCode::kEvaluation, o.error}};
      if (o.values.size() != ids.value.size()) {
        return {{}, {ErrorCode::kMismatch, "instance ids count (" + std::to_string(ids.value.size()) +
                                               ") does not match results count (" + std::to_string(o.values.size()) + ")"}};
      }
      for (size_t i = 0; i < o.values.size(); ++i) scales[i].*field = CountOf(o.values[i]);
    }
    return {std::move(scales), {}};
  };
  return reader;
}

}  // namespace

int LoadGangWorkload(const GangInputOptions& o, GangWorkload* out) {
  const char* cmd = o.command.c_str();
  std::string error;
  BundleLoadOptions load;
  load.use_native = o.engine != "interp";
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
  out->api_version = Text(out->object, "apiVersion");
  out->kind = Text(out->object, "kind");
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
  out->summary = std::make_unique<workload::StructureSummary>(*out->definition);
  out->reader = InterimReader(*out->bundle, out->object);
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
    if (Text(pod, "kind") != "Pod") {
      std::string kind = Text(pod, "kind");
      std::fprintf(stderr, "wmc %s: %s: expected Pod objects, got %s\n", command.c_str(),
                   path == "-" ? "<stdin>" : path.c_str(), kind.empty() ? "an object without a kind" : kind.c_str());
      return 2;
    }
  }
  return 0;
}

}  // namespace wm::tools
