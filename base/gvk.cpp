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

namespace {

bool LowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// RFC 1123 label: lowercase alphanumerics and '-', starting and ending alphanumeric.
bool IsDnsLabel(std::string_view s) {
  if (s.empty() || s.size() > 63 || !LowerAlnum(s.front()) || !LowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!LowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool IsDnsSubdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  while (true) {
    size_t dot = s.find('.');
    if (!IsDnsLabel(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// Kinds and OpenAPI type names: a letter or '_', then letters, digits, '_' or '-'.
bool IsTypeName(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(s.front())) return false;
  for (char c : s) {
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '-') return false;
  }
  return true;
}

}  // namespace

std::string MalformedGvkReason(const GroupVersionKind& gvk) {
  if (!gvk.group.empty() && !IsDnsSubdomain(gvk.group)) {
    return "group '" + gvk.group + "' is not a DNS subdomain (lowercase letters, digits, '-', '.')";
  }
  if (!IsDnsLabel(gvk.version)) {
    return "version '" + gvk.version + "' is not a DNS label (lowercase letters, digits, '-')";
  }
  if (!IsTypeName(gvk.kind)) {
    return "kind '" + gvk.kind + "' is not a type name (letters, digits, '_', '-')";
  }
  return "";
}

}  // namespace wm::base
