// Resolving a live workload object through its definition: the components, their instances with
// everything upstream's Accessor extracts (accessor.h), the GPUs of each, and the workload's status
// (status.h). This is what `wmc inspect` prints (view.h gives its JSON) and what schedulers and
// platforms call through the C++ API. An extraction that fails is reported as a problem of that
// component, with upstream's error text, and the rest of the workload is still resolved.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/value.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/fused.h"
#include "runtime/workload/status.h"

namespace wm::workload {

struct Instance {
  ExtractedInstance extracted;  // id, pod template / pod spec / fragmented / metadata, scale
  double gpus_per_pod = 0;      // nvidia.com/gpu of one pod
  double gpus = 0;              // gpus_per_pod * pods (replicas; 1 for a pod-bearing component without)

  const std::string& id() const { return extracted.id; }  // "" for a single-instance component
};

struct ResolvedComponent {
  const catalog::Component* definition = nullptr;
  std::vector<Instance> instances;    // in instance-id order; ids only when extraction failed
  double gpus = 0;                    // sum over instances
  // Extraction errors (upstream's wording), then what kept GPUs from being counted (a quantity
  // Kubernetes refuses, a negative replicas count), for display.
  std::vector<std::string> problems;
};

struct ResolvedWorkload {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_;
  const catalog::Definition* definition = nullptr;
  // The root's status; when its extraction fails, the error is in `problems` and the matched
  // statuses are {"Undefined"}.
  Status status;
  std::vector<ResolvedComponent> components;  // in definition order, [0] the root
  double gpus = 0;
  std::vector<std::string> problems;  // workload-level problems (status extraction)
};

struct ResolveOptions {
  RunOptions run;  // limits for every resolver evaluation
  ObjectLimits object;  // limits of all of them together (run.h)
};

// Finds the object's definition by apiVersion/kind and resolves it. Returns false with *error when
// the object is not a Kubernetes object or no definition covers its kind.
bool Resolve(const Bundle& bundle, const Value& object, ResolvedWorkload* out, std::string* error,
             const ResolveOptions& options = {});

// Resolve for an object given as JSON text, on the view engine (fused.h) where that pays: when the
// text is a Kubernetes object whose definition's object-side resolvers the view engine all fuses
// (FusedDefinition::complete), the resolvers read the parsed text in place and the object is
// never converted into Values (unless a resolver fails or reaches a limit). True with *out equal
// to Resolve's on the parsed object; false = not taken (not an object, no apiVersion/kind, no
// definition, a resolver the view engine does not fuse, text simdjson cannot represent exactly, an
// object budget below the defaults: ObjectBudgetAllowsView):
// the caller parses the text and calls Resolve, which also words every error.
bool ResolveOnView(const Bundle& bundle, std::string_view json, const FusedDefinitions& fused,
                   ResolvedWorkload* out, const ResolveOptions& options = {});

// nvidia.com/gpu of one pod: requests, else limits, summed over containers; an init container
// counts when it asks for more than the containers together (Kubernetes' effective request). A
// quantity that is not a non-negative Kubernetes quantity counts 0 and, when `problems` is given,
// adds `container "c": resources.limits["nvidia.com/gpu"] "NaN" is not a Kubernetes quantity;
// its GPUs are not counted` (or `... -1 is negative; ...`).
double PodGpus(const Value& pod_spec, std::vector<std::string>* problems = nullptr);

// A Kubernetes quantity ("4", 4, "500m", "1Ki", "1e3") as a number; nullopt when it does not
// follow the Kubernetes grammar or does not fit a double ("NaN", "inf", "0x10", "1e400").
std::optional<double> ParseQuantity(const Value& quantity);

}  // namespace wm::workload
