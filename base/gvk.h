// The Kubernetes group/version/kind of a resource type, shared by the definition model, the schema
// registry, the CLI and (later) the runtime catalog: parsing from apiVersion + kind and the two
// spellings users see ("batch/v1 Job" and Kubernetes' "batch/v1, Kind=Job").
#pragma once

#include <compare>
#include <string>
#include <string_view>

namespace wm::base {

struct GroupVersionKind {
  std::string group;  // "" for the core API group
  std::string version;
  std::string kind;

  // "batch/v1" + "Job" -> {batch, v1, Job}; "v1" + "Pod" -> {"", v1, Pod}. The core group spelt
  // "core" (as the API reference and the schemas directory name it) is the empty group.
  static GroupVersionKind FromApiVersion(std::string_view api_version, std::string_view kind);

  // The apiVersion field of objects of this kind: "jobset.x-k8s.io/v1alpha2", or "v1" for core.
  std::string ApiVersion() const;
  // apiVersion and kind as users write them: "jobset.x-k8s.io/v1alpha2 JobSet", "v1 Pod".
  std::string ToString() const;
  // As Kubernetes prints a GroupVersionKind: "batch/v1, Kind=Job", "v1, Kind=Pod".
  std::string KubernetesString() const;

  bool empty() const { return kind.empty(); }
  // Version and kind are known (the group may be the core group).
  bool full() const { return !version.empty() && !kind.empty(); }

  friend auto operator<=>(const GroupVersionKind&, const GroupVersionKind&) = default;
};

// Why `gvk` is not a well-formed Kubernetes group/version/kind, or "" when it is: the group must be
// empty or a DNS subdomain, the version a DNS label, the kind an identifier. Callers that turn a
// GVK into a file path check this first, so `../x` or `/etc` can never name a file.
std::string MalformedGvkReason(const GroupVersionKind& gvk);

// The name the schemas directory and the API reference use for the core ("") group.
inline constexpr std::string_view kCoreGroupName = "core";

}  // namespace wm::base
