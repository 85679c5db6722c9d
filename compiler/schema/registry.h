// The schema registry: compact schemas (schema.h) by group/version/kind, loaded lazily. A kind's
// file is found by path convention (<dir>/<group|core>/<version>/<Kind>.json) and read only when
// asked for; {"$ref"} nodes (shared fragments, ObjectMeta) are read when Deref reaches them.
// Sources, searched in order: CRDs imported in memory (`--crd FILE`), extra directories
// (`--schemas DIR`), then the default directory (see RegistryOptions::default_dir).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/gvk.h"
#include "compiler/schema/schema.h"

namespace wm::schema {

// Kinds are the base GVK (base/gvk.h): FromApiVersion maps the "core" group to "".
using Gvk = base::GroupVersionKind;

// The path of a kind's schema file relative to a schemas directory, without ".json":
// "jobset.x-k8s.io/v1alpha2/JobSet", "core/v1/Pod".
std::string RelativePath(const Gvk& gvk);

struct RegistryOptions {
  std::vector<std::string> schema_dirs;  // searched first, in order (`--schemas DIR`)
  std::vector<std::string> crd_files;    // imported in memory at Create (`--crd FILE`)
  // Whether to search the default directory after schema_dirs (default true).
  bool use_default_dir = true;
  // The default directory; "" = locate it: $WMC_SCHEMAS_DIR, then <executable>/../../schemas
  // (build/bin/wmc in the source tree), <executable>/../schemas, ./schemas.
  std::string default_dir;
};

class SchemaRegistry {
 public:
  // Imports the CRD files and checks that the directories exist. Null with *error otherwise.
  static std::unique_ptr<SchemaRegistry> Create(const RegistryOptions& options,
                                                std::string* error);
  // A registry over schemas already in memory, keyed by relative path ("core/v1/Pod"); for tests.
  static std::unique_ptr<SchemaRegistry> FromMemory(std::map<std::string, SchemaPtr> schemas);

  // The root schema of a kind, loaded on first use; null when no source has it.
  const Schema* Lookup(const Gvk& gvk) const;
  // The schema at a relative path ("core/v1/PodSpec", "meta.k8s.io/v1/ObjectMeta"), or null.
  const Schema* LookupPath(std::string_view relative_path) const;
  // Follows $ref nodes, loading their files. A reference that cannot be loaded yields an
  // unconstrained node (so checking degrades to "unknown") and is recorded in load_errors().
  const Schema* Deref(const Schema* node) const;
  // Follows a simple path (.a.b, .a[], .a{*} for a map value, ["a"]) from `root`. Null with
  // *error naming the first missing step.
  const Schema* Walk(const Schema* root, std::string_view path, std::string* error) const;

  // Kinds listed by the index.json of every directory, plus in-memory ones (for did-you-mean).
  std::vector<Gvk> KnownKinds() const;
  // How many schema files were read so far (laziness is observable in tests and benchmarks).
  size_t files_loaded() const;
  std::vector<std::string> load_errors() const;
  // The directories searched, in order.
  const std::vector<std::string>& directories() const { return dirs_; }

  // The default directory as located for this process ("" when none exists).
  static std::string LocateDefaultDir();

 private:
  SchemaRegistry() = default;
  const Schema* Load(const std::string& relative_path) const;

  std::vector<std::string> dirs_;
  std::map<std::string, SchemaPtr, std::less<>> memory_;  // in-memory schemas by relative path
  mutable std::mutex mutex_;
  mutable std::map<std::string, SchemaPtr, std::less<>> cache_;  // null entry = known missing
  mutable size_t files_loaded_ = 0;
  mutable std::vector<std::string> load_errors_;
  SchemaPtr unknown_;  // returned for dangling references
};

}  // namespace wm::schema
