// Resolving a live workload object through its definition: the components, their instances, the
// replicas and GPUs of each, and the workload's status. This is what `wmc inspect` prints and what
// schedulers and platforms call through the C++ API. Resolvers run through the bundle's engines
// (native code or the interpreter); a resolver that fails is reported as a problem of that
// component, and the rest of the workload is still resolved.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/value.h"

namespace wm::workload {

struct Instance {
  std::string id;               // from instanceIdPath; "" for a single-instance component
  std::optional<int64_t> replicas;      // pods of this instance (absent when not defined)
  std::optional<int64_t> min_replicas;
  std::optional<int64_t> max_replicas;
  double gpus_per_pod = 0;      // nvidia.com/gpu of one pod
  double gpus = 0;              // gpus_per_pod * replicas
  Value pod_template;           // the resolved PodTemplateSpec (or {spec: PodSpec}), null if none
};

struct ResolvedComponent {
  const catalog::Component* definition = nullptr;
  std::vector<Instance> instances;
  double gpus = 0;              // sum over instances
  std::vector<std::string> problems;  // resolver errors or inconsistent results, for display
};

struct ResolvedWorkload {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_;
  const catalog::Definition* definition = nullptr;
  std::vector<std::string> statuses;  // matched status names; {"Undefined"} when none matched
  std::vector<ResolvedComponent> components;  // in definition order, [0] the root
  double gpus = 0;
  std::vector<std::string> problems;  // workload-level problems (status resolution)
};

struct ResolveOptions {
  RunOptions run;  // limits for every resolver evaluation
};

// Finds the object's definition by apiVersion/kind and resolves it. Returns false with *error when
// the object is not a Kubernetes object or no definition covers its kind.
bool Resolve(const Bundle& bundle, const Value& object, ResolvedWorkload* out, std::string* error,
             const ResolveOptions& options = {});

// nvidia.com/gpu of one pod: requests, else limits, summed over containers; an init container
// counts when it asks for more than the containers together (Kubernetes' effective request).
double PodGpus(const Value& pod_spec);

// A Kubernetes quantity ("4", 4, "500m", "1Ki") as a number; nullopt when it is not one.
std::optional<double> ParseQuantity(const Value& quantity);

}  // namespace wm::workload
