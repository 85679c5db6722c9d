// See gvk.h.
#include "base/gvk.h"

namespace wm::base {

GroupVersionKind GroupVersionKind::FromApiVersion(std::string_view api_version,
                                                  std::string_view kind) {
  GroupVersionKind gvk;
  size_t slash = api_version.rfind('/');
  if (slash == std::string_view::npos) {
    gvk.version = std::string(api_version);
  } else {
    gvk.group = std::string(api_version.substr(0, slash));
    gvk.version = std::string(api_version.substr(slash + 1));
  }
  if (gvk.group == kCoreGroupName) gvk.group.clear();
  gvk.kind = std::string(kind);
  return gvk;
}

std::string GroupVersionKind::ApiVersion() const {
  return group.empty() ? version : group + "/" + version;
}

std::string GroupVersionKind::ToString() const { return ApiVersion() + " " + kind; }

std::string GroupVersionKind::KubernetesString() const { return ApiVersion() + ", Kind=" + kind; }

}  // namespace wm::base
