// Definition-level verification of a loaded bundle (verify.h). Linear in the number of
// components: names go through hash sets, and the ownership walk marks each component once.
#include "runtime/bundle/verify.h"

#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace wm::bundle {
namespace {

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

// Every component but the root has an existing owner, and following owners always reaches the
// root: each walk stops at a component already known to reach it, so the whole check is linear.
std::string VerifyOwnership(const catalog::Definition& d) {
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < d.components.size(); ++i) index.emplace(d.components[i].name, i);
  if (!d.components[0].owner.empty()) return "the root component " + Quote(d.components[0].name) + " has an owner";
  enum class Mark : uint8_t { kUnknown, kOnPath, kReachesRoot };
  std::vector<Mark> marks(d.components.size(), Mark::kUnknown);
  marks[0] = Mark::kReachesRoot;
  for (size_t start = 1; start < d.components.size(); ++start) {
    std::vector<size_t> path;
    size_t at = start;
    while (marks[at] == Mark::kUnknown) {
      marks[at] = Mark::kOnPath;
      path.push_back(at);
      const catalog::Component& c = d.components[at];
      if (c.owner.empty()) return "component " + Quote(c.name) + " has no owner";
      auto owner = index.find(c.owner);
      if (owner == index.end()) {
        return "component " + Quote(c.name) + " names owner " + Quote(c.owner) + ", which does not exist";
      }
      at = owner->second;
    }
    if (marks[at] == Mark::kOnPath) {
      return "component " + Quote(d.components[at].name) + " is its own owner through a cycle of ownership";
    }
    for (size_t p : path) marks[p] = Mark::kReachesRoot;
  }
  return "";
}

std::string VerifyDefinition(const catalog::Definition& d) {
  std::unordered_set<std::string_view> names;
  for (const catalog::Component& c : d.components) {
    if (c.name.empty()) return "a component has no name";
    if (!names.insert(c.name).second) return "two components are named " + Quote(c.name);
  }
  if (d.root().kind.kind.empty() || d.root().kind.version.empty()) {
    return "the root component " + Quote(d.root().name) + " lacks its kind or version";
  }
  if (std::string problem = VerifyOwnership(d); !problem.empty()) return problem;
  for (const catalog::GangGroup& g : d.gang_groups) {
    for (const catalog::GangMember& m : g.members) {
      if (!names.contains(m.component)) {
        return "gang group " + Quote(g.name) + " names component " + Quote(m.component) + ", which does not exist";
      }
    }
  }
  if (d.pod_group) {
    for (const catalog::PodSubGroup& sub : d.pod_group->sub_groups) {
      if (!names.contains(sub.component)) {
        return "podGroup names component " + Quote(sub.component) + ", which does not exist";
      }
    }
  }
  return "";
}

}  // namespace

std::string VerifyDefinitions(const std::vector<catalog::Definition>& definitions) {
  std::unordered_set<std::string_view> names;
  std::unordered_map<std::string, std::string_view> kinds;
  for (const catalog::Definition& d : definitions) {
    if (d.name.empty()) return "a definition has no name";
    if (!names.insert(d.name).second) return "two definitions are named " + Quote(d.name);
    if (d.components.empty()) return "definition " + Quote(d.name) + " has no components";
    if (std::string problem = VerifyDefinition(d); !problem.empty()) {
      return "definition " + Quote(d.name) + ": " + problem;
    }
    const base::GroupVersionKind& kind = d.root().kind;
    std::string key = kind.group + "/" + kind.version + "/" + kind.kind;
    if (auto [it, inserted] = kinds.emplace(key, d.name); !inserted) {
      return "definitions " + Quote(it->second) + " and " + Quote(d.name) + " both describe " +
             kind.ApiVersion() + " " + kind.kind;
    }
  }
  return "";
}

}  // namespace wm::bundle
