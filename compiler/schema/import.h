// Schema import: CustomResourceDefinition YAML/JSON (apiextensions.k8s.io/v1, every version) and
// Kubernetes OpenAPI v3 documents -> compact schemas (schema.h), references resolved, descriptions
// dropped. WriteSchemas lays them out as <dir>/<group|core>/<version>/<Kind>.json with large
// repeated subtrees shared as <dir>/_shared/<hash>.json, plus <dir>/index.json (`wmc schema
// import`); ImportFile alone serves `--crd FILE` (registry.h) without touching the disk.
#pragma once

#include <string>
#include <vector>

#include "compiler/schema/schema.h"

namespace wm::schema {

// What a group/version/kind (or a named helper type such as core/v1/PodSpec) imported to.
struct ImportedSchema {
  std::string group;    // "" for the core API group
  std::string version;
  std::string kind;     // the kind, or the type name for helper types ("PodSpec")
  bool is_kind = true;  // false for helper types (PodSpec, ObjectMeta, ...)
  std::string source;   // input file it came from
  SchemaPtr schema;
  // The path of its file relative to the schemas directory, without ".json":
  // "jobset.x-k8s.io/v1alpha2/JobSet", "core/v1/Pod", "meta.k8s.io/v1/ObjectMeta".
  std::string RelativePath() const;
};

struct ImportResult {
  std::vector<ImportedSchema> schemas;
  std::vector<std::string> warnings;  // e.g. a reference cycle cut, a duplicate kind
};

// The relative path of ObjectMeta; a CRD's top-level `.metadata` (just `type: object` upstream)
// is imported as a reference to it.
inline constexpr const char* kObjectMetaPath = "meta.k8s.io/v1/ObjectMeta";
// Directory name used for the core API group ("" group).
inline constexpr const char* kCoreGroupDir = "core";

// Reads one input file (CRD YAML or JSON, possibly several YAML documents or a List, or an
// OpenAPI v3 document) and appends what it defines to *result. False with *error when the file
// cannot be read or is neither a CRD nor an OpenAPI document. Never throws.
bool ImportFile(const std::string& path, ImportResult* result, std::string* error);
// Same for text already in memory; `source` names it in messages.
bool ImportText(const std::string& text, const std::string& source, ImportResult* result,
                std::string* error);

struct WriteOptions {
  std::string output_dir = "schemas";  // created when missing
  // Subtrees whose compact JSON is at least this long are stored once under _shared/ and
  // referenced (default 1536 bytes: PodSpec, Container, Affinity, ... are shared across kinds).
  size_t share_threshold = 1536;
};

// Writes every schema of `result` (later entries with the same path replace earlier ones) and
// merges them into <output_dir>/index.json. Appends written kind files to *written.
bool WriteSchemas(const ImportResult& result, const WriteOptions& options,
                  std::vector<std::string>* written, std::string* error);

}  // namespace wm::schema
