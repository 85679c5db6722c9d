// The lazy schema registry (registry.h): path-convention lookup, a cache of parsed files, $ref
// resolution, and the default-directory search relative to the executable.
#include "compiler/schema/registry.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "compiler/schema/import.h"

namespace wm::schema {
namespace fs = std::filesystem;

namespace {
constexpr int kMaxRefChain = 32;  // a ref to a ref to ... (a cycle in hand-edited files)
}

std::string RelativePath(const Gvk& gvk) {
  return (gvk.group.empty() ? std::string(kCoreGroupDir) : gvk.group) + "/" + gvk.version + "/" +
         gvk.kind;
}

std::string SchemaRegistry::LocateDefaultDir() {
  std::error_code ec;
  if (const char* env = std::getenv("WMC_SCHEMAS_DIR"); env && *env) {
    if (fs::is_directory(env, ec)) return env;
  }
  std::vector<fs::path> candidates;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / ".." / ".." / "schemas");
    candidates.push_back(exe.parent_path() / ".." / "schemas");
  }
  candidates.push_back(fs::current_path(ec) / "schemas");
  for (const fs::path& c : candidates) {
    // index.json marks a directory produced by `wmc schema import`.
    if (fs::is_regular_file(c / "index.json", ec)) return fs::weakly_canonical(c, ec).string();
  }
  return "";
}

std::unique_ptr<SchemaRegistry> SchemaRegistry::Create(const RegistryOptions& options,
                                                       std::string* error) {
  std::unique_ptr<SchemaRegistry> r(new SchemaRegistry());
  r->unknown_ = std::make_shared<Schema>([] {
    Schema s;
    s.preserve_unknown = true;
    return s;
  }());
  std::error_code ec;
  for (const std::string& dir : options.schema_dirs) {
    if (!fs::is_directory(dir, ec)) {
      *error = "schemas directory '" + dir + "' does not exist";
      return nullptr;
    }
    r->dirs_.push_back(dir);
  }
  if (options.use_default_dir) {
    std::string dir = options.default_dir.empty() ? LocateDefaultDir() : options.default_dir;
    if (!dir.empty()) r->dirs_.push_back(dir);
  }
  for (const std::string& file : options.crd_files) {
    ImportResult imported;
    if (!ImportFile(file, &imported, error)) return nullptr;
    for (const ImportedSchema& s : imported.schemas) r->memory_[s.RelativePath()] = s.schema;
  }
  return r;
}

std::unique_ptr<SchemaRegistry> SchemaRegistry::FromMemory(std::map<std::string, SchemaPtr> schemas) {
  std::unique_ptr<SchemaRegistry> r(new SchemaRegistry());
  r->unknown_ = std::make_shared<Schema>([] {
    Schema s;
    s.preserve_unknown = true;
    return s;
  }());
  for (auto& [path, schema] : schemas) r->memory_[path] = std::move(schema);
  return r;
}

const Schema* SchemaRegistry::Load(const std::string& rel) const {
  if (auto it = memory_.find(rel); it != memory_.end()) return it->second.get();
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = cache_.find(rel); it != cache_.end()) return it->second.get();
  // Relative paths come from definitions and from files: refuse anything that climbs out.
  if (rel.empty() || rel.find("..") != std::string::npos || rel[0] == '/') {
    cache_[rel] = nullptr;
    return nullptr;
  }
  for (const std::string& dir : dirs_) {
    fs::path file = fs::path(dir) / (rel + ".json");
    std::string text;
    base::ReadFileResult read = base::ReadFile(file.string(), &text);
    if (read.status == base::ReadFileStatus::kCannotOpen) continue;  // try the next directory
    ++files_loaded_;
    if (!read.ok()) {
      load_errors_.push_back(read.message);
      cache_[rel] = nullptr;
      return nullptr;
    }
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    std::string error;
    SchemaPtr s = j.is_discarded() ? nullptr : FromJson(j, &error);
    if (!s) {
      load_errors_.push_back(file.string() + ": " + (error.empty() ? "invalid JSON" : error));
      cache_[rel] = nullptr;
      return nullptr;
    }
    cache_[rel] = s;
    return s.get();
  }
  cache_[rel] = nullptr;
  return nullptr;
}

const Schema* SchemaRegistry::Lookup(const Gvk& gvk) const {
  // A definition's kind names a file here: a malformed one (`../../x`) has no schema.
  if (!base::MalformedGvkReason(gvk).empty()) return nullptr;
  return Load(RelativePath(gvk));
}

const Schema* SchemaRegistry::LookupPath(std::string_view relative_path) const {
  return Load(std::string(relative_path));
}

const Schema* SchemaRegistry::Deref(const Schema* node) const {
  for (int i = 0; node && node->is_ref(); ++i) {
    const Schema* target = i < kMaxRefChain ? Load(node->ref) : nullptr;
    if (!target) {
      std::lock_guard<std::mutex> lock(mutex_);
      load_errors_.push_back("unresolved schema reference '" + node->ref + "'");
      return unknown_.get();
    }
    node = target;
  }
  return node;
}

const Schema* SchemaRegistry::Walk(const Schema* root, std::string_view path,
                                   std::string* error) const {
  const Schema* node = Deref(root);
  size_t i = 0;
  std::string walked;
  while (node && i < path.size()) {
    if (path[i] == '.' && (i + 1 >= path.size() || path[i + 1] == '[')) {
      ++i;  // "." alone or ".[" : identity before a bracket
      continue;
    }
    std::string step;
    enum { kField, kItems, kMapValue } kind = kField;
    if (path[i] == '.') {
      size_t end = path.find_first_of(".[{", i + 1);
      if (end == std::string_view::npos) end = path.size();
      step = std::string(path.substr(i + 1, end - i - 1));
      i = end;
    } else if (path.substr(i, 2) == "[]") {
      kind = kItems;
      i += 2;
    } else if (path.substr(i, 3) == "{*}") {
      kind = kMapValue;
      i += 3;
    } else if (path.substr(i, 2) == "[\"") {
      size_t end = path.find("\"]", i + 2);
      if (end == std::string_view::npos) {
        *error = "malformed path '" + std::string(path) + "'";
        return nullptr;
      }
      step = std::string(path.substr(i + 2, end - i - 2));
      i = end + 2;
    } else {
      *error = "malformed path '" + std::string(path) + "' at offset " + std::to_string(i);
      return nullptr;
    }
    const Schema* next = nullptr;
    if (kind == kField) {
      if (const SchemaPtr* p = node->Property(step)) next = p->get();
      else if (node->additional_properties) next = node->additional_properties.get();
      walked += "." + step;
    } else if (kind == kItems) {
      next = node->items.get();
      walked += "[]";
    } else {
      next = node->additional_properties.get();
      walked += "{*}";
    }
    if (!next) {
      *error = "no schema at " + walked;
      return nullptr;
    }
    node = Deref(next);
  }
  return node;
}

std::vector<Gvk> SchemaRegistry::KnownKinds() const {
  std::vector<Gvk> out;
  auto add_path = [&](const std::string& rel) {
    size_t a = rel.find('/');
    size_t b = rel.rfind('/');
    if (a == std::string::npos || a == b) return;
    Gvk g{rel.substr(0, a), rel.substr(a + 1, b - a - 1), rel.substr(b + 1)};
    if (g.group == kCoreGroupDir) g.group.clear();
    out.push_back(std::move(g));
  };
  for (const auto& [rel, schema] : memory_) add_path(rel);
  for (const std::string& dir : dirs_) {
    std::ifstream in(fs::path(dir) / "index.json");
    if (!in) continue;
    nlohmann::json index = nlohmann::json::parse(in, nullptr, false);
    if (!index.is_object() || !index.contains("kinds") || !index["kinds"].is_object()) continue;
    for (const auto& item : index["kinds"].items()) {
      if (item.value().is_string()) add_path(item.value().get<std::string>());
    }
  }
  return out;
}

size_t SchemaRegistry::files_loaded() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return files_loaded_;
}

std::vector<std::string> SchemaRegistry::load_errors() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return load_errors_;
}

}  // namespace wm::schema
