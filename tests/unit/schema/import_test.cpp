// Tests of the schema importer and the lazy registry: CRD multi-version import, OpenAPI $ref /
// allOf resolution, oneOf type unions, int-or-string, preserve-unknown, list-map keys, ObjectMeta
// substitution, the compact JSON round trip, shared fragments on disk, and that the registry reads
// only what it is asked for.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "compiler/schema/import.h"
#include "compiler/schema/registry.h"

namespace wm::schema {
namespace {

namespace fs = std::filesystem;

const char* kCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: trainers.example.com
spec:
  group: example.com
  names: {kind: Trainer, plural: trainers}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        description: dropped
        type: object
        properties:
          metadata:
            type: object
          spec:
            type: object
            required: [roles]
            properties:
              port:
                anyOf: [{type: integer}, {type: string}]
                x-kubernetes-int-or-string: true
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              mode:
                type: string
                enum: [Fast, "Slow", "123"]
              labels:
                type: object
                additionalProperties: {type: string}
              note:
                type: string
                nullable: true
              roles:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, description: also dropped}
                    replicas: {type: integer, format: int32, default: 1}
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
)";

const char* kOpenApi = R"({
  "openapi": "3.0.0",
  "components": {"schemas": {
    "io.k8s.api.core.v1.Pod": {
      "type": "object",
      "x-kubernetes-group-version-kind": [{"group": "", "kind": "Pod", "version": "v1"}],
      "properties": {
        "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}], "default": {}},
        "spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}], "description": "x"}
      }
    },
    "io.k8s.api.core.v1.PodList": {
      "type": "object",
      "x-kubernetes-group-version-kind": [{"group": "", "kind": "PodList", "version": "v1"}],
      "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/io.k8s.api.core.v1.Pod"}}}
    },
    "io.k8s.api.core.v1.PodSpec": {
      "type": "object",
      "required": ["containers"],
      "properties": {
        "containers": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}]},
                       "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
        "tolerations": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "atomic"},
        "spread": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "map",
                   "x-kubernetes-list-map-keys": ["topologyKey", "whenUnsatisfiable"]},
        "overhead": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"}}
      }
    },
    "io.k8s.api.core.v1.Container": {
      "type": "object",
      "properties": {
        "name": {"type": "string"},
        "port": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"},
        "child": {"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}
      }
    },
    "io.k8s.apimachinery.pkg.api.resource.Quantity": {"oneOf": [{"type": "string"}, {"type": "number"}]},
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]},
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
      "type": "object",
      "properties": {"name": {"type": "string"}, "labels": {"type": "object", "additionalProperties": {"type": "string", "default": ""}}}
    }
  }}
})";

const ImportedSchema* Find(const ImportResult& r, const std::string& path) {
  for (const ImportedSchema& s : r.schemas) {
    if (s.RelativePath() == path) return &s;
  }
  return nullptr;
}

const Schema& At(const Schema& s, const std::string& name) {
  const SchemaPtr* p = s.Property(name);
  EXPECT_NE(p, nullptr) << name;
  static const Schema kEmpty;
  return p ? **p : kEmpty;
}

TEST(SchemaImport, CrdEveryVersion) {
  ImportResult r;
  std::string error;
  ASSERT_TRUE(ImportText(kCrd, "trainer.yaml", &r, &error)) << error;
  ASSERT_EQ(r.schemas.size(), 2u);
  const ImportedSchema* v1 = Find(r, "example.com/v1/Trainer");
  const ImportedSchema* beta = Find(r, "example.com/v1beta1/Trainer");
  ASSERT_TRUE(v1 && beta);
  EXPECT_TRUE(v1->is_kind);
  EXPECT_TRUE(At(At(*beta->schema, "spec"), "size").types & kIntegerBit);

  const Schema& spec = At(*v1->schema, "spec");
  EXPECT_TRUE(spec.IsRequired("roles"));
  EXPECT_FALSE(spec.IsRequired("mode"));
  const Schema& port = At(spec, "port");
  EXPECT_TRUE(port.int_or_string);
  EXPECT_EQ(port.types, kIntegerBit | kStringBit);
  EXPECT_TRUE(At(spec, "extra").preserve_unknown);
  EXPECT_TRUE(At(spec, "extra").AllowsUnknownKeys());
  EXPECT_EQ(At(spec, "mode").enum_values,
            (std::vector<std::string>{"\"Fast\"", "\"Slow\"", "\"123\""}));
  ASSERT_TRUE(At(spec, "labels").additional_properties);
  EXPECT_EQ(At(spec, "labels").additional_properties->types, kStringBit);
  EXPECT_TRUE(At(spec, "note").nullable);
  const Schema& roles = At(spec, "roles");
  ASSERT_TRUE(roles.items);
  EXPECT_TRUE(roles.items->IsRequired("name"));
  EXPECT_EQ(At(*roles.items, "replicas").format, "int32");
  EXPECT_EQ(At(*roles.items, "replicas").default_json, "1");
  // A list-map keeps its key fields: at most one element per key value (the checker uses it).
  EXPECT_EQ(roles.list_map_keys, std::vector<std::string>{"name"});
  EXPECT_TRUE(At(spec, "labels").list_map_keys.empty());
  // Descriptions are not kept anywhere.
  EXPECT_EQ(ToJson(*v1->schema).dump().find("dropped"), std::string::npos);
  // The CRD's bare `metadata: {type: object}` refers to the real ObjectMeta.
  EXPECT_EQ(At(*v1->schema, "metadata").ref, kObjectMetaPath);
}

TEST(SchemaImport, OpenApiRefsAllOfAndUnions) {
  ImportResult r;
  std::string error;
  ASSERT_TRUE(ImportText(kOpenApi, "api.json", &r, &error)) << error;
  const ImportedSchema* pod = Find(r, "core/v1/Pod");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(Find(r, "core/v1/PodList"), nullptr);  // List kinds are not written
  ASSERT_NE(Find(r, "core/v1/PodSpec"), nullptr);
  ASSERT_NE(Find(r, "meta.k8s.io/v1/ObjectMeta"), nullptr);
  EXPECT_FALSE(Find(r, "core/v1/PodSpec")->is_kind);

  const Schema& spec = At(*pod->schema, "spec");  // allOf: [{$ref}] resolved in place
  EXPECT_TRUE(spec.IsRequired("containers"));
  const Schema& container = *At(spec, "containers").items;
  EXPECT_EQ(At(container, "name").types, kStringBit);
  EXPECT_EQ(At(spec, "containers").list_map_keys, std::vector<std::string>{"name"});
  EXPECT_TRUE(At(spec, "tolerations").list_map_keys.empty());  // atomic: no keys
  EXPECT_EQ(At(spec, "spread").list_map_keys,
            (std::vector<std::string>{"topologyKey", "whenUnsatisfiable"}));
  EXPECT_TRUE(At(container, "port").int_or_string);
  EXPECT_EQ(At(spec, "overhead").additional_properties->types, kStringBit | kNumberBit);
  EXPECT_EQ(At(At(*pod->schema, "metadata"), "labels").additional_properties->types, kStringBit);
  // The recursive Container.child is cut to an unconstrained node, with a warning.
  EXPECT_TRUE(At(container, "child").AllowsUnknownKeys());
  EXPECT_FALSE(r.warnings.empty());
}

TEST(SchemaImport, RefusesOtherDocuments) {
  ImportResult r;
  std::string error;
  EXPECT_FALSE(ImportText("apiVersion: v1\nkind: ConfigMap\n", "cm.yaml", &r, &error));
  EXPECT_NE(error.find("ConfigMap"), std::string::npos);
  EXPECT_FALSE(ImportText("{\"openapi\": \"3.0.0\"}", "x.json", &r, &error));
  EXPECT_FALSE(ImportText("a: [unclosed", "bad.yaml", &r, &error));
  EXPECT_FALSE(ImportFile("/nonexistent/file.yaml", &r, &error));
}

TEST(SchemaImport, CompactJsonRoundTrip) {
  ImportResult r;
  std::string error;
  ASSERT_TRUE(ImportText(kCrd, "trainer.yaml", &r, &error)) << error;
  nlohmann::json j = ToJson(*r.schemas[0].schema);
  SchemaPtr back = FromJson(j, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(ToJson(*back), j);
  EXPECT_EQ(At(At(*back, "spec"), "roles").list_map_keys, std::vector<std::string>{"name"});
  // Depth limit and malformed nodes are errors, not crashes.
  nlohmann::json deep = nlohmann::json::object();
  for (int i = 0; i < 50; ++i) deep = nlohmann::json{{"items", deep}};
  EXPECT_EQ(FromJson(deep, &error, 10), nullptr);
  EXPECT_EQ(FromJson(nlohmann::json{{"type", "banana"}}, &error), nullptr);
  EXPECT_EQ(FromJson(nlohmann::json::array(), &error), nullptr);
}

class SchemaDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wm_schema_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    ImportResult r;
    std::string error;
    ASSERT_TRUE(ImportText(kCrd, "trainer.yaml", &r, &error)) << error;
    ASSERT_TRUE(ImportText(kOpenApi, "api.json", &r, &error)) << error;
    WriteOptions options;
    options.output_dir = dir_.string();
    options.share_threshold = 120;  // small, so the test schemas have shared fragments
    std::vector<std::string> written;
    ASSERT_TRUE(WriteSchemas(r, options, &written, &error)) << error;
    EXPECT_FALSE(written.empty());
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(SchemaDir, LayoutAndIndex) {
  EXPECT_TRUE(fs::exists(dir_ / "example.com/v1/Trainer.json"));
  EXPECT_TRUE(fs::exists(dir_ / "example.com/v1beta1/Trainer.json"));
  EXPECT_TRUE(fs::exists(dir_ / "core/v1/Pod.json"));
  EXPECT_TRUE(fs::exists(dir_ / "meta.k8s.io/v1/ObjectMeta.json"));
  EXPECT_FALSE(fs::is_empty(dir_ / "_shared"));
  std::ifstream in(dir_ / "index.json");
  nlohmann::json index = nlohmann::json::parse(in);
  EXPECT_EQ(index["kinds"]["example.com/v1, Kind=Trainer"], "example.com/v1/Trainer");
  EXPECT_EQ(index["types"]["v1, Kind=PodSpec"], "core/v1/PodSpec");
}

TEST_F(SchemaDir, RegistryLoadsLazily) {
  RegistryOptions options;
  options.schema_dirs = {dir_.string()};
  options.use_default_dir = false;
  std::string error;
  auto reg = SchemaRegistry::Create(options, &error);
  ASSERT_TRUE(reg) << error;
  EXPECT_EQ(reg->files_loaded(), 0u);

  const Schema* trainer = reg->Lookup(Gvk::FromApiVersion("example.com/v1", "Trainer"));
  ASSERT_NE(trainer, nullptr);
  EXPECT_EQ(reg->files_loaded(), 1u);
  EXPECT_EQ(reg->Lookup(Gvk::FromApiVersion("example.com/v1", "Trainer")), trainer);  // cached
  EXPECT_EQ(reg->files_loaded(), 1u);

  // Walking into shared fragments and ObjectMeta loads exactly those files.
  const Schema* replicas = reg->Walk(trainer, ".spec.roles[].replicas", &error);
  ASSERT_NE(replicas, nullptr) << error;
  EXPECT_TRUE(replicas->types & kIntegerBit);
  size_t after_walk = reg->files_loaded();
  EXPECT_GT(after_walk, 1u);
  const Schema* labels = reg->Walk(trainer, ".metadata.labels", &error);
  ASSERT_NE(labels, nullptr) << error;
  EXPECT_EQ(reg->files_loaded(), after_walk + 1);  // meta.k8s.io/v1/ObjectMeta

  EXPECT_EQ(reg->Lookup(Gvk::FromApiVersion("example.com/v2", "Trainer")), nullptr);
  EXPECT_EQ(reg->Walk(trainer, ".spec.nope", &error), nullptr);
  EXPECT_NE(error.find(".spec.nope"), std::string::npos);
  EXPECT_NE(reg->Lookup(Gvk::FromApiVersion("v1", "Pod")), nullptr);
  EXPECT_EQ(reg->LookupPath("../../etc/passwd"), nullptr);

  auto kinds = reg->KnownKinds();
  EXPECT_GE(kinds.size(), 3u);
  EXPECT_TRUE(reg->load_errors().empty());
}

TEST_F(SchemaDir, DanglingReferenceDegradesToUnknown) {
  std::ofstream(dir_ / "example.com/v1/Broken.json") << R"({"properties":{"a":{"$ref":"_shared/missing"}}})";
  RegistryOptions options;
  options.schema_dirs = {dir_.string()};
  options.use_default_dir = false;
  std::string error;
  auto reg = SchemaRegistry::Create(options, &error);
  ASSERT_TRUE(reg);
  const Schema* broken = reg->Lookup(Gvk::FromApiVersion("example.com/v1", "Broken"));
  ASSERT_NE(broken, nullptr);
  const Schema* a = reg->Deref(broken->Property("a")->get());
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(a->AllowsUnknownKeys());
  EXPECT_EQ(reg->load_errors().size(), 1u);
}

TEST(SchemaRegistry, CrdFilesInMemoryAndMissingDirectory) {
  fs::path crd = fs::temp_directory_path() / ("wm_crd_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(crd) << kCrd;
  RegistryOptions options;
  options.crd_files = {crd.string()};
  options.use_default_dir = false;
  std::string error;
  auto reg = SchemaRegistry::Create(options, &error);
  ASSERT_TRUE(reg) << error;
  EXPECT_NE(reg->Lookup(Gvk::FromApiVersion("example.com/v1beta1", "Trainer")), nullptr);
  EXPECT_EQ(reg->files_loaded(), 0u);
  fs::remove(crd);

  options.crd_files.clear();
  options.schema_dirs = {"/nonexistent/schemas"};
  EXPECT_EQ(SchemaRegistry::Create(options, &error), nullptr);
  EXPECT_NE(error.find("/nonexistent/schemas"), std::string::npos);
}

TEST(SchemaRegistry, GvkNames) {
  Gvk core = Gvk::FromApiVersion("v1", "Pod");
  EXPECT_EQ(core.group, "");
  EXPECT_EQ(core.ToString(), "v1 Pod");
  EXPECT_EQ(RelativePath(core), "core/v1/Pod");
  Gvk js = Gvk::FromApiVersion("jobset.x-k8s.io/v1alpha2", "JobSet");
  EXPECT_EQ(js.ToString(), "jobset.x-k8s.io/v1alpha2 JobSet");
  EXPECT_EQ(RelativePath(js), "jobset.x-k8s.io/v1alpha2/JobSet");
}

}  // namespace
}  // namespace wm::schema
