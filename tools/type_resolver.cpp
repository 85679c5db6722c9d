// TYPE resolution for the live verbs (see type_resolver.h). The resource names come from a table
// of facts: spec.names of the upstream CRDs in /work/shared/crds (INDEX.md lists their sources),
// and the names Kubernetes gives its built-in workload resources. The bundle does not carry CRDs,
// so a kind the table lacks gets kubectl's own guess of its plural.
#include "tools/type_resolver.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include "runtime/bundle/bundle.h"
#include "tools/cli_output.h"

namespace wm::tools {
namespace {

struct KnownNames {
  const char* group;
  const char* kind;
  ResourceNames names;
};

// group, kind -> plural, singular, short names.
const std::vector<KnownNames>& Table() {
  static const std::vector<KnownNames> table = {
      // Kubernetes built-in resources (kubectl api-resources).
      {"", "Pod", {"pods", "pod", {"po"}}},
      {"apps", "Deployment", {"deployments", "deployment", {"deploy"}}},
      {"apps", "StatefulSet", {"statefulsets", "statefulset", {"sts"}}},
      {"apps", "ReplicaSet", {"replicasets", "replicaset", {"rs"}}},
      {"apps", "DaemonSet", {"daemonsets", "daemonset", {"ds"}}},
      {"batch", "Job", {"jobs", "job", {}}},
      {"batch", "CronJob", {"cronjobs", "cronjob", {"cj"}}},
      // spec.names of the upstream CRDs.
      {"apps.nvidia.com", "NIMCache", {"nimcaches", "nimcache", {}}},
      {"apps.nvidia.com", "NIMService", {"nimservices", "nimservice", {}}},
      {"batch.volcano.sh", "Job", {"jobs", "job", {"vcjob", "vj"}}},
      {"disaggregatedset.x-k8s.io", "DisaggregatedSet", {"disaggregatedsets", "disaggregatedset", {}}},
      {"grove.io", "PodCliqueSet", {"podcliquesets", "podcliqueset", {"pcs"}}},
      {"jobset.x-k8s.io", "JobSet", {"jobsets", "jobset", {}}},
      {"kubeflow.org", "MPIJob", {"mpijobs", "mpijob", {}}},
      {"kubeflow.org", "PyTorchJob", {"pytorchjobs", "pytorchjob", {}}},
      {"kueue.x-k8s.io", "Workload", {"workloads", "workload", {"kwl", "kueueworkload", "kueueworkloads"}}},
      {"leaderworkerset.x-k8s.io", "LeaderWorkerSet", {"leaderworkersets", "leaderworkerset", {"lws"}}},
      {"milvus.io", "Milvus", {"milvuses", "milvus", {"mi"}}},
      {"nvidia.com", "DynamoGraphDeployment", {"dynamographdeployments", "dynamographdeployment", {"dgd"}}},
      {"ray.io", "RayCluster", {"rayclusters", "raycluster", {}}},
      {"ray.io", "RayCronJob", {"raycronjobs", "raycronjob", {}}},
      {"ray.io", "RayJob", {"rayjobs", "rayjob", {}}},
      {"ray.io", "RayService", {"rayservices", "rayservice", {}}},
      {"serving.knative.dev", "Service", {"services", "service", {"kservice", "ksvc"}}},
      {"serving.kserve.io", "InferenceService", {"inferenceservices", "inferenceservice", {"isvc"}}},
      {"serving.kserve.io", "LLMInferenceService", {"llminferenceservices", "llminferenceservice", {"llmisvc"}}},
      {"trainer.kubeflow.org", "TrainJob", {"trainjobs", "trainjob", {}}},
      // kubernetes-sigs/agent-sandbox (no CRD copy in /work/shared/crds): its CRD's names.
      {"agents.x-k8s.io", "Sandbox", {"sandboxes", "sandbox", {}}},
  };
  return table;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Whether `name` (a resource word, no group) names this type, as kubectl matches it.
bool NamesType(const ResolvedType& type, std::string_view name) {
  if (EqualsIgnoreCase(name, type.gvk.kind) || EqualsIgnoreCase(name, type.names.plural) ||
      EqualsIgnoreCase(name, type.names.singular)) {
    return true;
  }
  return std::any_of(type.names.short_names.begin(), type.names.short_names.end(),
                     [&](const std::string& s) { return EqualsIgnoreCase(name, s); });
}

// Built-in Kubernetes API groups have no dot ("", apps, batch) or end in .k8s.io; a CRD's group
// always has a dot and is never under k8s.io (the API server refuses it without approval).
bool IsBuiltinGroup(std::string_view group) {
  return group.find('.') == std::string_view::npos ||
         (group.size() > 7 && group.substr(group.size() - 7) == ".k8s.io");
}

// `covered` as ResolvedTypes whose name, group and version fit the token's parts.
struct TokenParts {
  std::string name;
  std::optional<std::string> version;  // only for the X.version.group reading
  std::optional<std::string> group;    // absent: any group
};

std::vector<ResolvedType> Matching(const std::vector<ResolvedType>& covered, const TokenParts& parts) {
  std::vector<ResolvedType> out;
  for (const ResolvedType& t : covered) {
    if (parts.group && !EqualsIgnoreCase(*parts.group, t.gvk.group)) continue;
    if (parts.version && *parts.version != t.gvk.version) continue;
    if (NamesType(t, parts.name)) out.push_back(t);
  }
  return out;
}

// The token's readings in kubectl's order: `X.version.group` first (two dots or more), then
// `X.group` (one dot or more), then a bare name.
std::vector<ResolvedType> Candidates(const std::vector<ResolvedType>& covered, std::string_view token) {
  size_t first = token.find('.');
  if (first == std::string_view::npos) return Matching(covered, {std::string(token), {}, {}});
  std::string name(token.substr(0, first));
  std::string rest(token.substr(first + 1));
  size_t second = rest.find('.');
  if (second != std::string::npos) {
    auto exact = Matching(covered, {name, rest.substr(0, second), rest.substr(second + 1)});
    if (!exact.empty()) return exact;
  }
  return Matching(covered, {name, {}, rest});
}

std::vector<ResolvedType> Types(const std::vector<base::GroupVersionKind>& covered) {
  std::vector<ResolvedType> out;
  std::set<base::GroupVersionKind> seen;
  for (const auto& gvk : covered) {
    if (gvk.kind.empty() || !seen.insert(gvk).second) continue;
    out.push_back({gvk, NamesOf(gvk.group, gvk.kind)});
  }
  return out;
}

// Keeps, per group and kind, the version the API server prefers.
std::vector<ResolvedType> PreferredVersions(const std::vector<ResolvedType>& types) {
  std::map<std::pair<std::string, std::string>, ResolvedType> best;
  for (const ResolvedType& t : types) {
    auto [it, inserted] = best.emplace(std::make_pair(t.gvk.group, t.gvk.kind), t);
    if (!inserted && CompareKubeVersions(t.gvk.version, it->second.gvk.version) > 0) it->second = t;
  }
  std::vector<ResolvedType> out;
  for (auto& [key, t] : best) out.push_back(std::move(t));
  return out;
}

// "v1beta2" -> {major 1, stage 1 (alpha 0, beta 1, GA 2), minor 2}; nullopt for other spellings.
std::optional<std::tuple<long, int, long>> KubeVersion(std::string_view v) {
  if (v.size() < 2 || v[0] != 'v' || !std::isdigit(static_cast<unsigned char>(v[1]))) return std::nullopt;
  size_t i = 1;
  long major = 0;
  for (; i < v.size() && std::isdigit(static_cast<unsigned char>(v[i])); ++i) major = major * 10 + (v[i] - '0');
  if (i == v.size()) return std::make_tuple(major, 2, 0L);
  int stage;
  if (v.substr(i, 5) == "alpha") stage = 0, i += 5;
  else if (v.substr(i, 4) == "beta") stage = 1, i += 4;
  else return std::nullopt;
  if (i == v.size()) return std::nullopt;
  long minor = 0;
  for (; i < v.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(v[i]))) return std::nullopt;
    minor = minor * 10 + (v[i] - '0');
  }
  return std::make_tuple(major, stage, minor);
}

}  // namespace

int CompareKubeVersions(std::string_view a, std::string_view b) {
  auto ka = KubeVersion(a), kb = KubeVersion(b);
  if (ka && kb) {
    auto [ma, sa, na] = *ka;
    auto [mb, sb, nb] = *kb;
    if (sa != sb) return sa > sb ? 1 : -1;  // GA before beta before alpha
    if (ma != mb) return ma > mb ? 1 : -1;
    if (na != nb) return na > nb ? 1 : -1;
    return 0;
  }
  if (ka) return 1;  // Kubernetes-style versions before any other spelling
  if (kb) return -1;
  return a == b ? 0 : (a < b ? 1 : -1);  // others in lexical order
}

ResourceNames NamesOf(std::string_view group, std::string_view kind) {
  for (const auto& known : Table()) {
    if (group == known.group && kind == known.kind) return known.names;
  }
  ResourceNames guess;
  guess.singular = Lower(kind);
  if (guess.singular.empty()) return guess;
  char last = guess.singular.back();
  if (last == 's') guess.plural = guess.singular + "es";
  else if (last == 'y') guess.plural = guess.singular.substr(0, guess.singular.size() - 1) + "ies";
  else guess.plural = guess.singular + "s";
  return guess;
}

std::string ResolvedType::KubectlResource() const {
  if (gvk.group.empty()) return names.plural;
  return names.plural + "." + gvk.version + "." + gvk.group;
}

std::string ResolvedType::QualifiedKind() const {
  return gvk.kind + "." + gvk.version + (gvk.group.empty() ? "" : "." + gvk.group);
}

std::vector<base::GroupVersionKind> CoveredKinds(const Bundle& bundle) {
  std::vector<base::GroupVersionKind> out;
  for (const auto& d : bundle.definitions()) out.push_back(d.root().kind);
  return out;
}

std::optional<ResolvedType> ResolveType(const std::vector<base::GroupVersionKind>& covered,
                                        std::string_view token, TypeError* error) {
  std::vector<ResolvedType> all = Types(covered);
  std::vector<ResolvedType> matched = Candidates(all, token);
  std::vector<ResolvedType> preferred = PreferredVersions(matched);
  if (preferred.size() > 1) {
    std::vector<ResolvedType> builtin;
    std::copy_if(preferred.begin(), preferred.end(), std::back_inserter(builtin),
                 [](const ResolvedType& t) { return IsBuiltinGroup(t.gvk.group); });
    if (builtin.size() == 1) preferred = builtin;
  }
  if (preferred.size() == 1) return preferred.front();
  if (preferred.empty()) {
    error->message = "no Karta definition covers \"" + std::string(token) + "\"";
    return std::nullopt;
  }
  std::vector<std::string> options;
  for (const ResolvedType& t : matched) options.push_back(t.QualifiedKind());
  std::sort(options.begin(), options.end());
  std::string list;
  for (const auto& o : options) list += (list.empty() ? "" : ", ") + o;
  error->message = "\"" + std::string(token) + "\" matches more than one Karta definition, retry with one of: " + list;
  return std::nullopt;
}

std::vector<ResolvedType> AllCoveredTypes(const std::vector<base::GroupVersionKind>& covered) {
  return PreferredVersions(Types(covered));
}

}  // namespace wm::tools
