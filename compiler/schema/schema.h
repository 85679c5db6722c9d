// The compact schema model: the subset of OpenAPI v3 / CRD structural schemas the type checker
// needs (types, properties, required, enum, format, items, additionalProperties, nullable, the
// int-or-string / preserve-unknown-fields markers and list-map keys), and its on-disk form: one JSON object per node using the OpenAPI
// key names, where {"$ref": "<path>"} names another file of the schemas directory (a shared
// fragment "_shared/<hash>" or a named type "core/v1/PodSpec"), resolved lazily by registry.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace wm::schema {

// JSON types a node admits, as bits. An empty set means "no type given" (any value).
enum TypeBit : uint8_t {
  kNullBit = 1 << 0,
  kBooleanBit = 1 << 1,
  kIntegerBit = 1 << 2,  // integers only (OpenAPI "integer")
  kNumberBit = 1 << 3,   // any number (includes integers)
  kStringBit = 1 << 4,
  kArrayBit = 1 << 5,
  kObjectBit = 1 << 6,
};

struct Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

struct Schema {
  uint8_t types = 0;                     // TypeBit set; 0 = unconstrained
  std::string format;                    // "int32", "date-time", ... ("" = none)
  std::vector<std::string> enum_values;  // each as compact JSON text ("\"Running\"", "1")
  // Sorted by name (binary search in Property()).
  std::vector<std::pair<std::string, SchemaPtr>> properties;
  std::vector<std::string> required;      // sorted
  SchemaPtr items;                        // array element schema
  SchemaPtr additional_properties;        // map value schema
  bool additional_properties_any = false; // additionalProperties: true
  bool nullable = false;
  bool int_or_string = false;             // x-kubernetes-int-or-string (also format int-or-string)
  bool preserve_unknown = false;          // x-kubernetes-preserve-unknown-fields
  // x-kubernetes-list-type: map on an array: the x-kubernetes-list-map-keys that identify an
  // element (at most one element per combination of key values; empty = not a list-map).
  std::vector<std::string> list_map_keys;
  std::string default_json;               // a scalar default as JSON text ("" = none)
  std::string ref;                        // non-empty: this node is a reference to another file

  bool is_ref() const { return !ref.empty(); }
  // The property schema, or null when the object lists no such property.
  const SchemaPtr* Property(std::string_view name) const;
  bool IsRequired(std::string_view name) const;
  // True when keys beyond `properties` are allowed (a map, preserve-unknown, or no properties
  // declared at all on an object without additionalProperties: false semantics).
  bool AllowsUnknownKeys() const;
};

// Lower-case OpenAPI names of the bits set in `types`, joined with '|' ("string|integer"), or
// "any" for an empty set.
std::string TypeNames(uint8_t types);

// The key fields of a node marked `x-kubernetes-list-type: map` (its `x-kubernetes-list-map-keys`),
// or none. Shared by the importer (OpenAPI / CRD nodes) and the compact codec, which use the same
// key names.
std::vector<std::string> ListMapKeys(const nlohmann::json& node);

// Compact JSON form (descriptions never stored). ToJson sorts keys, so equal schemas serialize to
// equal text (the importer hashes that text to share fragments).
nlohmann::json ToJson(const Schema& schema);
// Parses a compact node. Refuses nesting deeper than `max_depth`; on failure returns null with
// *error set. Never throws.
SchemaPtr FromJson(const nlohmann::json& json, std::string* error, int max_depth = 256);

}  // namespace wm::schema
