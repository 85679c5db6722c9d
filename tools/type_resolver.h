// TYPE arguments of the live verbs (`wmc get TYPE`, `wmc describe TYPE/NAME`) resolved against the
// covered kinds as kli resolves them: kind (any case), plural, singular, short names,
// `X.version.group` and `X.group`; and the fully qualified resource argument given to kubectl.
//   ResolveType(CoveredKinds(bundle), "jobsets") -> JobSet, kubectl "jobsets.v1alpha2.jobset.x-k8s.io"
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/gvk.h"

namespace wm {
class Bundle;
}

namespace wm::tools {

// How the API server names a kind: spec.names of its CRD (or the built-in resource's names).
struct ResourceNames {
  std::string plural;    // "jobsets"
  std::string singular;  // "jobset"
  std::vector<std::string> short_names;  // "lws", "isvc", ...
};

// The names of `group`/`kind`: from the table built from the upstream CRDs and the Kubernetes
// built-in resources, else kubectl's guess (lower-case kind + "s"; "es" after s; "ies" for y).
ResourceNames NamesOf(std::string_view group, std::string_view kind);

// One covered type a TYPE argument selected.
struct ResolvedType {
  base::GroupVersionKind gvk;
  ResourceNames names;
  // What kubectl is given: "plural.version.group" for a named group, so kubectl cannot pick the
  // resource of another group or a version no definition covers; the bare plural for the core
  // group (kubectl ranks the core group first, and "pods.v1." reads like a typo in logs).
  std::string KubectlResource() const;
  // "Kind.version.group" ("Pod.v1" for core): how error messages name a candidate.
  std::string QualifiedKind() const;
};

// Why a TYPE did not resolve, with kli's wording.
struct TypeError {
  std::string message;  // `no Karta definition covers "foo"`, `"job" matches more than one ...`
};

// The root kinds of every definition of `bundle`, in bundle order.
std::vector<base::GroupVersionKind> CoveredKinds(const Bundle& bundle);

// Resolves `token` (no "/NAME") against `covered`. Several versions of one group and kind: the one
// the API server prefers (Kubernetes version priority: v1 > v1beta2 > v1beta1 > v1alpha1). Several
// groups: a built-in Kubernetes group wins over CRD groups (kubectl's discovery order: `job` is
// batch/v1 Job, not Volcano's); else the token is ambiguous.
std::optional<ResolvedType> ResolveType(const std::vector<base::GroupVersionKind>& covered,
                                        std::string_view token, TypeError* error);

// One entry per covered group and kind (its preferred version), for `--all-types`, sorted by
// group then kind.
std::vector<ResolvedType> AllCoveredTypes(const std::vector<base::GroupVersionKind>& covered);

// Kubernetes' version priority order (k8s.io/apimachinery version.CompareKubeAwareVersionStrings):
// > 0 when `a` is preferred over `b`.
int CompareKubeVersions(std::string_view a, std::string_view b);

}  // namespace wm::tools
