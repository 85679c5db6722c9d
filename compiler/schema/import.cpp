// Schema import (import.h): parses CRD YAML/JSON and Kubernetes OpenAPI v3 documents into generic
// JSON, converts each OpenAPI schema node into the compact model (refs and allOf resolved, oneOf /
// anyOf folded into a type union), and writes the compact files with large subtrees shared by
// content hash. YAML goes through base/yaml; nlohmann exceptions are caught here and turned into
// errors.
#include "compiler/schema/import.h"

#include "base/file.h"
#include "base/gvk.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

#include "base/file.h"
#include "base/yaml/yaml_json.h"

namespace wm::schema {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr int kMaxDepth = 512;

// ---- OpenAPI node -> compact Schema

struct Converter {
  const json* components = nullptr;  // components.schemas of an OpenAPI document, or null
  std::unordered_map<std::string, SchemaPtr> by_ref;
  std::set<std::string> in_progress;
  std::vector<std::string>* warnings = nullptr;
  std::string source;

  SchemaPtr Convert(const json& node, int depth, std::string* error);
  SchemaPtr Resolve(const std::string& ref, int depth, std::string* error);
};

// Copies what `from` says into `into` where `into` says nothing (allOf members and $ref targets
// combine this way: the k8s documents wrap a $ref in allOf next to a default/description).
void MergeInto(Schema* into, const Schema& from) {
  if (into->types == 0) into->types = from.types;
  if (into->format.empty()) into->format = from.format;
  if (into->enum_values.empty()) into->enum_values = from.enum_values;
  for (const auto& p : from.properties) {
    if (!into->Property(p.first)) into->properties.push_back(p);
  }
  std::sort(into->properties.begin(), into->properties.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& r : from.required) {
    if (!into->IsRequired(r)) into->required.push_back(r);
  }
  std::sort(into->required.begin(), into->required.end());
  if (!into->items) into->items = from.items;
  if (!into->additional_properties) into->additional_properties = from.additional_properties;
  into->additional_properties_any |= from.additional_properties_any;
  into->nullable |= from.nullable;
  into->int_or_string |= from.int_or_string;
  into->preserve_unknown |= from.preserve_unknown;
  if (into->list_map_keys.empty()) into->list_map_keys = from.list_map_keys;
  if (into->default_json.empty()) into->default_json = from.default_json;
}

uint8_t TypeBitOf(const std::string& name) {
  if (name == "null") return kNullBit;
  if (name == "boolean") return kBooleanBit;
  if (name == "integer") return kIntegerBit;
  if (name == "number") return kNumberBit;
  if (name == "string") return kStringBit;
  if (name == "array") return kArrayBit;
  if (name == "object") return kObjectBit;
  return 0;
}

SchemaPtr Converter::Resolve(const std::string& ref, int depth, std::string* error) {
  static const std::string kPrefix = "#/components/schemas/";
  if (ref.rfind(kPrefix, 0) != 0 || !components) {
    *error = "unsupported $ref '" + ref + "'";
    return nullptr;
  }
  std::string name = ref.substr(kPrefix.size());
  if (auto it = by_ref.find(name); it != by_ref.end()) return it->second;
  auto target = components->find(name);
  if (target == components->end()) {
    *error = "dangling $ref '" + ref + "'";
    return nullptr;
  }
  if (in_progress.count(name)) {
    // A recursive type: the inner occurrence becomes "anything" so the tree stays finite.
    warnings->push_back(source + ": recursive type " + name + " cut at depth " +
                        std::to_string(depth) + " (treated as unknown)");
    auto unknown = std::make_shared<Schema>();
    unknown->preserve_unknown = true;
    return unknown;
  }
  in_progress.insert(name);
  SchemaPtr converted = Convert(*target, depth + 1, error);
  in_progress.erase(name);
  if (converted) by_ref.emplace(name, converted);
  return converted;
}

SchemaPtr Converter::Convert(const json& node, int depth, std::string* error) {
  if (depth > kMaxDepth) {
    *error = "schema nesting deeper than " + std::to_string(kMaxDepth);
    return nullptr;
  }
  auto out = std::make_shared<Schema>();
  if (node.is_boolean()) {
    // `true` accepts anything; `false` nothing (kept as an unconstrained node: never a finding).
    out->preserve_unknown = true;
    return out;
  }
  if (!node.is_object()) {
    *error = "schema node is not an object";
    return nullptr;
  }
  if (auto it = node.find("type"); it != node.end()) {
    if (it->is_string()) out->types |= TypeBitOf(it->get<std::string>());
    else if (it->is_array()) {
      for (const auto& t : *it) {
        if (t.is_string()) out->types |= TypeBitOf(t.get<std::string>());
      }
    }
  }
  if (auto it = node.find("format"); it != node.end() && it->is_string()) {
    out->format = it->get<std::string>();
  }
  if (auto it = node.find("enum"); it != node.end() && it->is_array()) {
    for (const auto& v : *it) out->enum_values.push_back(v.dump());
  }
  if (auto it = node.find("default"); it != node.end() && it->is_primitive() && !it->is_null()) {
    out->default_json = it->dump();
  }
  auto flag = [&](const char* key) {
    auto it = node.find(key);
    return it != node.end() && it->is_boolean() && it->get<bool>();
  };
  out->nullable = flag("nullable");
  out->preserve_unknown = flag("x-kubernetes-preserve-unknown-fields");
  out->int_or_string = flag("x-kubernetes-int-or-string") || out->format == "int-or-string";
  if (out->int_or_string) out->types |= kIntegerBit | kStringBit;
  out->list_map_keys = ListMapKeys(node);

  if (auto it = node.find("properties"); it != node.end() && it->is_object()) {
    for (auto p = it->begin(); p != it->end(); ++p) {
      SchemaPtr child = Convert(p.value(), depth + 1, error);
      if (!child) return nullptr;
      out->properties.emplace_back(p.key(), std::move(child));
    }
    std::sort(out->properties.begin(), out->properties.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    if (out->types == 0) out->types = kObjectBit;
  }
  if (auto it = node.find("required"); it != node.end() && it->is_array()) {
    for (const auto& r : *it) {
      if (r.is_string()) out->required.push_back(r.get<std::string>());
    }
    std::sort(out->required.begin(), out->required.end());
    out->required.erase(std::unique(out->required.begin(), out->required.end()),
                        out->required.end());
  }
  if (auto it = node.find("items"); it != node.end()) {
    if (it->is_object()) {
      out->items = Convert(*it, depth + 1, error);
      if (!out->items) return nullptr;
    }
  }
  if (auto it = node.find("additionalProperties"); it != node.end()) {
    if (it->is_boolean()) {
      out->additional_properties_any = it->get<bool>();
    } else if (it->is_object()) {
      out->additional_properties = Convert(*it, depth + 1, error);
      if (!out->additional_properties) return nullptr;
    }
  }
  if (auto it = node.find("$ref"); it != node.end() && it->is_string()) {
    SchemaPtr target = Resolve(it->get<std::string>(), depth, error);
    if (!target) return nullptr;
    MergeInto(out.get(), *target);
  }
  if (auto it = node.find("allOf"); it != node.end() && it->is_array()) {
    for (const auto& member : *it) {
      SchemaPtr m = Convert(member, depth + 1, error);
      if (!m) return nullptr;
      MergeInto(out.get(), *m);
    }
  }
  // oneOf/anyOf: in structural schemas they only validate; when the node names no type of its
  // own, the union of the alternatives' types is what the value can be (Quantity: string|number).
  for (const char* key : {"oneOf", "anyOf"}) {
    auto it = node.find(key);
    if (it == node.end() || !it->is_array()) continue;
    uint8_t union_types = 0;
    bool all_typed = true;
    for (const auto& member : *it) {
      SchemaPtr m = Convert(member, depth + 1, error);
      if (!m) return nullptr;
      if (m->types == 0) all_typed = false;
      union_types |= m->types;
    }
    if (out->types == 0 && all_typed) out->types = union_types;
  }
  return out;
}

// The helper types written from the Kubernetes documents beside the kinds: what role checks and
// users refer to by name.
const char* const kNamedTypes[] = {
    "io.k8s.api.core.v1.PodTemplateSpec",     "io.k8s.api.core.v1.PodSpec",
    "io.k8s.api.core.v1.Container",           "io.k8s.api.core.v1.ResourceRequirements",
    "io.k8s.api.core.v1.Affinity",            "io.k8s.api.core.v1.NodeAffinity",
    "io.k8s.api.core.v1.PodAffinity",         "io.k8s.api.core.v1.PodResourceClaim",
    "io.k8s.api.core.v1.PodStatus",           "io.k8s.api.core.v1.Toleration",
    "io.k8s.api.batch.v1.JobSpec",            "io.k8s.api.batch.v1.JobTemplateSpec",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Condition",
    "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
};

// "io.k8s.api.core.v1.PodSpec" -> group "", version "v1", name "PodSpec".
bool SplitDefinitionName(const std::string& name, std::string* group, std::string* version,
                         std::string* type) {
  static const std::string kApi = "io.k8s.api.";
  static const std::string kMeta = "io.k8s.apimachinery.pkg.apis.meta.";
  std::string rest;
  if (name.rfind(kApi, 0) == 0) {
    rest = name.substr(kApi.size());
    size_t a = rest.find('.');
    if (a == std::string::npos) return false;
    *group = rest.substr(0, a);
    if (*group == "core") group->clear();
    rest = rest.substr(a + 1);
  } else if (name.rfind(kMeta, 0) == 0) {
    *group = "meta.k8s.io";
    rest = name.substr(kMeta.size());
  } else {
    return false;
  }
  size_t b = rest.find('.');
  if (b == std::string::npos) return false;
  *version = rest.substr(0, b);
  *type = rest.substr(b + 1);
  return !type->empty() && type->find('.') == std::string::npos;
}

bool ImportOpenApi(const json& doc, const std::string& source, ImportResult* result,
                   std::string* error) {
  auto comps = doc.find("components");
  if (comps == doc.end() || !comps->is_object() || !comps->contains("schemas") ||
      !(*comps)["schemas"].is_object()) {
    *error = source + ": OpenAPI document without components.schemas";
    return false;
  }
  Converter conv;
  conv.components = &(*comps)["schemas"];
  conv.warnings = &result->warnings;
  conv.source = source;
  std::set<std::string> named(std::begin(kNamedTypes), std::end(kNamedTypes));
  for (auto it = conv.components->begin(); it != conv.components->end(); ++it) {
    const std::string& name = it.key();
    std::string group, version, type;
    if (!SplitDefinitionName(name, &group, &version, &type)) continue;
    bool is_kind = false;
    if (auto gvk = it.value().find("x-kubernetes-group-version-kind");
        gvk != it.value().end() && gvk->is_array() && !gvk->empty() &&
        name.rfind("io.k8s.api.", 0) == 0) {
      // List kinds only wrap items of the real kind: not worth a file each.
      const json& first = (*gvk)[0];
      if (first.is_object() && first.value("kind", "") == type &&
          (type.size() <= 4 || type.compare(type.size() - 4, 4, "List") != 0)) {
        is_kind = true;
        group = first.value("group", "");
        version = first.value("version", version);
      }
    }
    if (!is_kind && !named.count(name)) continue;
    SchemaPtr schema = conv.Resolve("#/components/schemas/" + name, 0, error);
    if (!schema) {
      *error = source + ": " + name + ": " + *error;
      return false;
    }
    result->schemas.push_back({group, version, type, is_kind, source, schema});
  }
  return true;
}

// A CRD's top-level metadata is `type: object` with nothing else: point it at the real ObjectMeta.
SchemaPtr WithObjectMeta(const SchemaPtr& root) {
  const SchemaPtr* meta = root->Property("metadata");
  if (!meta || !(*meta)->properties.empty() || (*meta)->is_ref()) return root;
  auto copy = std::make_shared<Schema>(*root);
  for (auto& p : copy->properties) {
    if (p.first == "metadata") {
      auto ref = std::make_shared<Schema>();
      ref->ref = kObjectMetaPath;
      p.second = ref;
    }
  }
  return copy;
}

bool ImportCrd(const json& crd, const std::string& source, ImportResult* result,
               std::string* error) {
  const json* spec = crd.contains("spec") ? &crd["spec"] : nullptr;
  if (!spec || !spec->is_object()) {
    *error = source + ": CustomResourceDefinition without spec";
    return false;
  }
  std::string group = spec->value("group", "");
  std::string kind;
  if (auto names = spec->find("names"); names != spec->end() && names->is_object()) {
    kind = names->value("kind", "");
  }
  auto versions = spec->find("versions");
  if (kind.empty() || versions == spec->end() || !versions->is_array()) {
    *error = source + ": CustomResourceDefinition without spec.names.kind or spec.versions";
    return false;
  }
  const json* shared_validation = nullptr;  // v1beta1-style top-level spec.validation
  if (auto v = spec->find("validation"); v != spec->end() && v->is_object()) {
    if (auto s = v->find("openAPIV3Schema"); s != v->end()) shared_validation = &*s;
  }
  for (const json& version : *versions) {
    if (!version.is_object() || !version.contains("name")) continue;
    const json* openapi = shared_validation;
    if (auto s = version.find("schema"); s != version.end() && s->is_object()) {
      if (auto o = s->find("openAPIV3Schema"); o != s->end()) openapi = &*o;
    }
    if (!openapi) {
      result->warnings.push_back(source + ": " + kind + " " + version.value("name", "") +
                                 " has no openAPIV3Schema; skipped");
      continue;
    }
    Converter conv;
    conv.warnings = &result->warnings;
    conv.source = source;
    SchemaPtr schema = conv.Convert(*openapi, 0, error);
    if (!schema) {
      *error = source + ": " + kind + " " + version.value("name", "") + ": " + *error;
      return false;
    }
    result->schemas.push_back(
        {group, version.value("name", ""), kind, true, source, WithObjectMeta(schema)});
  }
  return true;
}

bool ImportDocument(const json& doc, const std::string& source, ImportResult* result,
                    std::string* error) {
  if (!doc.is_object()) return true;  // empty YAML documents and stray scalars are skipped
  if (doc.contains("openapi") || doc.contains("components")) {
    return ImportOpenApi(doc, source, result, error);
  }
  std::string kind = doc.value("kind", "");
  if (kind == "CustomResourceDefinition") return ImportCrd(doc, source, result, error);
  if (kind == "List" || kind == "CustomResourceDefinitionList") {
    auto items = doc.find("items");
    if (items == doc.end() || !items->is_array()) return true;
    for (const json& item : *items) {
      if (!ImportDocument(item, source, result, error)) return false;
    }
    return true;
  }
  *error = source + ": not a CustomResourceDefinition or OpenAPI v3 document (kind '" + kind + "')";
  return false;
}

}  // namespace

std::string ImportedSchema::RelativePath() const {
  return (group.empty() ? std::string(kCoreGroupDir) : group) + "/" + version + "/" + kind;
}

bool ImportText(const std::string& text, const std::string& source, ImportResult* result,
                std::string* error) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) {
      *error = source + ": invalid JSON";
      return false;
    }
    return ImportDocument(doc, source, result, error);
  }
  // YAML through the one conversion every command uses (base/yaml: the Kubernetes reader's
  // scalar typing, and budgets that refuse an alias bomb before it expands).
  base::yaml::TextOptions options;
  options.limits.max_depth = kMaxDepth;
  bool any = false;
  auto take = [&](const std::string& document, size_t, std::string* take_error) {
    json doc = json::parse(document, nullptr, false);
    if (doc.is_discarded()) {
      *take_error = source + ": invalid UTF-8 in a YAML string";
      return false;
    }
    if (!doc.is_object()) return true;
    any = true;
    return ImportDocument(doc, source, result, take_error);
  };
  try {
    if (!base::yaml::ReadDocuments(text, source, options, take, error)) return false;
  } catch (const std::exception& e) {
    *error = source + ": " + e.what();
    return false;
  }
  if (!any) {
    *error = source + ": no YAML document";
    return false;
  }
  return true;
}

bool ImportFile(const std::string& path, ImportResult* result, std::string* error) {
  std::string text;
  if (!base::ReadFile(path, &text).ok()) {
    *error = "cannot read '" + path + "'";
    return false;
  }
  return ImportText(text, path, result, error);
}

// ---- writing

namespace {

uint64_t Fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

struct Writer {
  fs::path root;
  size_t threshold;
  std::unordered_map<const Schema*, SchemaPtr> memo;  // node -> node with shared subtrees
  std::set<std::string> written_shared;
  std::string* error;

  bool WriteFile(const fs::path& path, const std::string& text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    return base::WriteFileAtomically(path.string(), text + "\n", error);
  }

  // Rebuilds `node` with its large subtrees replaced by references; bottom-up so a shared
  // fragment itself refers to the smaller shared fragments inside it.
  SchemaPtr Share(const SchemaPtr& node, bool is_root, int depth) {
    if (!node || node->is_ref()) return node;
    if (depth > kMaxDepth) return node;
    if (!is_root) {
      if (auto it = memo.find(node.get()); it != memo.end()) return it->second;
    }
    auto copy = std::make_shared<Schema>(*node);
    for (auto& p : copy->properties) p.second = Share(p.second, false, depth + 1);
    copy->items = Share(copy->items, false, depth + 1);
    copy->additional_properties = Share(copy->additional_properties, false, depth + 1);
    if (is_root) return copy;
    std::string text = ToJson(*copy).dump();
    SchemaPtr result = copy;
    if (text.size() >= threshold) {
      char name[32];
      std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(Fnv1a(text)));
      std::string rel = std::string("_shared/") + name;
      if (!written_shared.count(rel)) {
        if (!WriteFile(root / (rel + ".json"), text)) return nullptr;
        written_shared.insert(rel);
      }
      auto ref = std::make_shared<Schema>();
      ref->ref = rel;
      result = ref;
    }
    memo.emplace(node.get(), result);
    return result;
  }
};

}  // namespace

bool WriteSchemas(const ImportResult& result, const WriteOptions& options,
                  std::vector<std::string>* written, std::string* error) {
  try {
    Writer w{fs::path(options.output_dir), options.share_threshold, {}, {}, error};
    json index = json::object();
    fs::path index_path = w.root / "index.json";
    if (std::ifstream in(index_path); in) {
      index = json::parse(in, nullptr, false);
      if (!index.is_object()) index = json::object();
    }
    if (!index.contains("kinds") || !index["kinds"].is_object()) index["kinds"] = json::object();
    if (!index.contains("types") || !index["types"].is_object()) index["types"] = json::object();
    for (const ImportedSchema& s : result.schemas) {
      // The GVK becomes a path under the output directory: `../x` or `/etc` must not escape it.
      if (std::string why = base::MalformedGvkReason({s.group, s.version, s.kind}); !why.empty()) {
        *error = s.source + ": refusing to write the schema of " + s.group + "/" + s.version +
                 " " + s.kind + ": " + why;
        return false;
      }
    }
    for (const ImportedSchema& s : result.schemas) {
      SchemaPtr shared = w.Share(s.schema, true, 0);
      if (!shared) return false;
      std::string rel = s.RelativePath();
      if (!w.WriteFile(w.root / (rel + ".json"), ToJson(*shared).dump())) return false;
      std::string key = (s.group.empty() ? "" : s.group + "/") + s.version + ", Kind=" + s.kind;
      index[s.is_kind ? "kinds" : "types"][key] = rel;
      if (written) written->push_back(rel + ".json");
    }
    return w.WriteFile(index_path, index.dump(1));
  } catch (const std::exception& e) {
    *error = std::string("writing schemas: ") + e.what();
    return false;
  }
}

}  // namespace wm::schema
