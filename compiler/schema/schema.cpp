// Compact schema model: lookups, type names and the JSON codec of the schemas/ files (schema.h).
// The codec writes OpenAPI key names so a compact file is itself a (reduced) OpenAPI schema.
#include "compiler/schema/schema.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace wm::schema {
namespace {

struct TypeNameBit {
  const char* name;
  TypeBit bit;
};
constexpr TypeNameBit kTypeNames[] = {
    {"null", kNullBit},     {"boolean", kBooleanBit}, {"integer", kIntegerBit},
    {"number", kNumberBit}, {"string", kStringBit},   {"array", kArrayBit},
    {"object", kObjectBit},
};

uint8_t BitOfName(std::string_view name) {
  for (const auto& t : kTypeNames) {
    if (name == t.name) return t.bit;
  }
  return 0;
}

}  // namespace

std::vector<std::string> ListMapKeys(const nlohmann::json& node) {
  std::vector<std::string> keys;
  auto type = node.find("x-kubernetes-list-type");
  auto names = node.find("x-kubernetes-list-map-keys");
  if (type == node.end() || *type != "map" || names == node.end() || !names->is_array()) return keys;
  for (const auto& name : *names) {
    if (!name.is_string()) return {};  // a malformed key list identifies nothing
    keys.push_back(name.get<std::string>());
  }
  return keys;
}

const SchemaPtr* Schema::Property(std::string_view name) const {
  auto it = std::lower_bound(properties.begin(), properties.end(), name,
                             [](const auto& p, std::string_view n) { return p.first < n; });
  if (it == properties.end() || it->first != name) return nullptr;
  return &it->second;
}

bool Schema::IsRequired(std::string_view name) const {
  return std::binary_search(required.begin(), required.end(), name,
                            [](const auto& a, const auto& b) {
                              return std::string_view(a) < std::string_view(b);
                            });
}

bool Schema::AllowsUnknownKeys() const {
  return preserve_unknown || additional_properties || additional_properties_any ||
         properties.empty();
}

std::string TypeNames(uint8_t types) {
  if (types == 0) return "any";
  std::string out;
  for (const auto& t : kTypeNames) {
    if (!(types & t.bit)) continue;
    if (!out.empty()) out += '|';
    out += t.name;
  }
  return out;
}

nlohmann::json ToJson(const Schema& s) {
  nlohmann::json j = nlohmann::json::object();
  if (s.is_ref()) {
    j["$ref"] = s.ref;
    return j;
  }
  int bits = 0;
  for (const auto& t : kTypeNames) bits += (s.types & t.bit) ? 1 : 0;
  if (bits == 1) {
    j["type"] = TypeNames(s.types);
  } else if (bits > 1) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& t : kTypeNames) {
      if (s.types & t.bit) list.push_back(t.name);
    }
    j["type"] = std::move(list);
  }
  if (!s.format.empty()) j["format"] = s.format;
  if (!s.enum_values.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& v : s.enum_values) list.push_back(nlohmann::json::parse(v, nullptr, false));
    j["enum"] = std::move(list);
  }
  if (!s.properties.empty()) {
    nlohmann::json props = nlohmann::json::object();
    for (const auto& [name, child] : s.properties) props[name] = ToJson(*child);
    j["properties"] = std::move(props);
  }
  if (!s.required.empty()) j["required"] = s.required;
  if (s.items) j["items"] = ToJson(*s.items);
  if (s.additional_properties) {
    j["additionalProperties"] = ToJson(*s.additional_properties);
  } else if (s.additional_properties_any) {
    j["additionalProperties"] = true;
  }
  if (s.nullable) j["nullable"] = true;
  if (s.int_or_string) j["x-kubernetes-int-or-string"] = true;
  if (s.preserve_unknown) j["x-kubernetes-preserve-unknown-fields"] = true;
  if (!s.list_map_keys.empty()) {
    j["x-kubernetes-list-type"] = "map";
    j["x-kubernetes-list-map-keys"] = s.list_map_keys;
  }
  if (!s.default_json.empty()) j["default"] = nlohmann::json::parse(s.default_json, nullptr, false);
  return j;
}

namespace {

// One node of the compact form; children are parsed by the explicit-stack driver below.
bool ParseScalars(const nlohmann::json& j, Schema* s, std::string* error) {
  if (auto it = j.find("$ref"); it != j.end()) {
    if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
      *error = "$ref must be a non-empty string";
      return false;
    }
    s->ref = it->get<std::string>();
    return true;
  }
  if (auto it = j.find("type"); it != j.end()) {
    auto add = [&](const nlohmann::json& n) {
      if (!n.is_string()) return false;
      uint8_t bit = BitOfName(n.get_ref<const std::string&>());
      s->types |= bit;
      return bit != 0;
    };
    bool ok = true;
    if (it->is_array()) {
      for (const auto& n : *it) ok = ok && add(n);
    } else {
      ok = add(*it);
    }
    if (!ok) {
      *error = "unknown type " + it->dump();
      return false;
    }
  }
  if (auto it = j.find("format"); it != j.end() && it->is_string()) s->format = it->get<std::string>();
  if (auto it = j.find("enum"); it != j.end() && it->is_array()) {
    for (const auto& v : *it) s->enum_values.push_back(v.dump());
  }
  if (auto it = j.find("required"); it != j.end() && it->is_array()) {
    for (const auto& v : *it) {
      if (v.is_string()) s->required.push_back(v.get<std::string>());
    }
    std::sort(s->required.begin(), s->required.end());
  }
  auto flag = [&](const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
  };
  s->nullable = flag("nullable");
  s->int_or_string = flag("x-kubernetes-int-or-string");
  s->preserve_unknown = flag("x-kubernetes-preserve-unknown-fields");
  if (auto it = j.find("additionalProperties"); it != j.end() && it->is_boolean()) {
    s->additional_properties_any = it->get<bool>();
  }
  if (auto it = j.find("default"); it != j.end() && it->is_primitive()) s->default_json = it->dump();
  s->list_map_keys = ListMapKeys(j);
  return true;
}

}  // namespace

SchemaPtr FromJson(const nlohmann::json& json, std::string* error, int max_depth) {
  // Explicit stack: each frame owns the node being built; children are attached when finished.
  struct Frame {
    const nlohmann::json* json;
    std::shared_ptr<Schema> node;
    enum Slot { kRoot, kProperty, kItems, kAdditional } slot;
    std::string property;  // for kProperty
    size_t parent;
  };
  std::vector<Frame> frames;
  if (!json.is_object()) {
    *error = "schema node is not an object";
    return nullptr;
  }
  frames.push_back({&json, std::make_shared<Schema>(), Frame::kRoot, {}, 0});
  std::vector<int> depth{0};
  for (size_t i = 0; i < frames.size(); ++i) {
    if (depth[i] > max_depth) {
      *error = "schema nesting deeper than " + std::to_string(max_depth);
      return nullptr;
    }
    const nlohmann::json& j = *frames[i].json;
    if (!ParseScalars(j, frames[i].node.get(), error)) return nullptr;
    if (frames[i].node->is_ref()) continue;
    auto push = [&](const nlohmann::json& child, Frame::Slot slot, std::string property) {
      if (!child.is_object()) {
        *error = "schema node is not an object";
        return false;
      }
      frames.push_back({&child, std::make_shared<Schema>(), slot, std::move(property), i});
      depth.push_back(depth[i] + 1);
      return true;
    };
    if (auto it = j.find("properties"); it != j.end() && it->is_object()) {
      for (auto p = it->begin(); p != it->end(); ++p) {
        if (!push(p.value(), Frame::kProperty, p.key())) return nullptr;
      }
    }
    if (auto it = j.find("items"); it != j.end() && it->is_object()) {
      if (!push(*it, Frame::kItems, {})) return nullptr;
    }
    if (auto it = j.find("additionalProperties"); it != j.end() && it->is_object()) {
      if (!push(*it, Frame::kAdditional, {})) return nullptr;
    }
  }
  // Attach children to parents (breadth-first order keeps property order = json order, which
  // nlohmann keeps sorted, matching the sorted-properties invariant).
  for (size_t i = 1; i < frames.size(); ++i) {
    Schema& parent = *frames[frames[i].parent].node;
    switch (frames[i].slot) {
      case Frame::kProperty:
        parent.properties.emplace_back(std::move(frames[i].property), frames[i].node);
        break;
      case Frame::kItems: parent.items = frames[i].node; break;
      case Frame::kAdditional: parent.additional_properties = frames[i].node; break;
      case Frame::kRoot: break;
    }
  }
  for (Frame& f : frames) {
    auto& props = f.node->properties;
    if (!std::is_sorted(props.begin(), props.end(),
                        [](const auto& a, const auto& b) { return a.first < b.first; })) {
      std::sort(props.begin(), props.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
    }
  }
  return frames[0].node;
}

}  // namespace wm::schema
