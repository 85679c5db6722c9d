// The C ABI (wm.h) over the C++ runtime: opaque handles around wm::Bundle, JSON in and out, and
// the one place where C++ failures (exceptions included) become wm_code + message. Every exported
// function runs its body through Guarded(), so nothing throws across the boundary.
// Adding an operation: parse the input with ParseObject, call the runtime, Emit the JSON.
#include "runtime/c/wm.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "base/sha256.h"
#include "runtime/bundle/bundle.h"
#include "runtime/catalog/definition.h"
#include "runtime/value/json.h"
#include "runtime/workload/accessor.h"
#include "runtime/workload/gangs.h"
#include "runtime/workload/pods.h"
#include "runtime/workload/run.h"
#include "runtime/workload/status.h"
#include "runtime/workload/view.h"
#include "runtime/workload/writes.h"
#include "runtime/workload/workload.h"

#ifndef WM_VERSION
#define WM_VERSION "unknown"
#endif

struct wm_error {
  wm_code code;
  std::string message;
};

struct wm_bundle {
  std::shared_ptr<const wm::Bundle> bundle;
  wm_limits limits{};  // the bundle's defaults; zero fields mean the runtime's defaults
  // The definitions lowered to the view engine on first use, for objects resolved from their text
  // (wm_resolve); thread-safe as the handle is.
  std::unique_ptr<wm::workload::FusedDefinitions> fused;
};

namespace {

// Returned when even the error cannot be allocated; wm_error_free never frees it.
wm_error g_out_of_memory{WM_ERR_OUT_OF_MEMORY, "out of memory"};

// A failure on its way out: the code and message the caller sees.
struct Failure {
  wm_code code;
  std::string message;
};

wm_code Report(wm_error** error, wm_code code, std::string message) {
  if (error) {
    *error = new (std::nothrow) wm_error{code, {}};
    if (*error) {
      try {
        (*error)->message = std::move(message);
      } catch (...) {
        delete *error;
        *error = &g_out_of_memory;
      }
    } else {
      *error = &g_out_of_memory;
    }
  }
  return code;
}

// Runs `body` (returning WM_OK or throwing Failure) and turns every way it can fail into a code.
template <class Body>
wm_code Guarded(wm_error** error, Body&& body) noexcept {
  if (error) *error = nullptr;
  try {
    body();
    return WM_OK;
  } catch (Failure& f) {
    return Report(error, f.code, std::move(f.message));
  } catch (const std::bad_alloc&) {
    if (error) *error = &g_out_of_memory;
    return WM_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    return Report(error, WM_ERR_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return Report(error, WM_ERR_INTERNAL, "internal error: unknown exception");
  }
}

void Require(bool condition, const char* what) {
  if (!condition) throw Failure{WM_ERR_BAD_ARGUMENT, what};
}

// wm_code 1..6 are workload::ErrorCode, so a runtime error passes through unchanged.
using wm::workload::ErrorCode;
static_assert(WM_ERR_INVALID_INPUT == static_cast<int>(ErrorCode::kInvalidInput) &&
              WM_ERR_NO_DEFINITION == static_cast<int>(ErrorCode::kNoDefinition) &&
              WM_ERR_NOT_FOUND == static_cast<int>(ErrorCode::kNotFound) &&
              WM_ERR_EVALUATION == static_cast<int>(ErrorCode::kEvaluation) &&
              WM_ERR_MISMATCH == static_cast<int>(ErrorCode::kMismatch) &&
              WM_ERR_LIMIT == static_cast<int>(ErrorCode::kLimit));
wm_code CodeOf(ErrorCode code) { return static_cast<wm_code>(code); }

// Copies JSON text into a caller-owned buffer.
void Emit(const wm::Value& value, wm_buffer* out) {
  std::string text = wm::ToJson(value);
  char* data = static_cast<char*>(std::malloc(text.size() + 1));
  if (!data) throw std::bad_alloc();
  std::memcpy(data, text.data(), text.size() + 1);
  out->data = data;
  out->size = text.size();
}

wm::Value ParseObject(const char* json, size_t size) {
  Require(json != nullptr || size == 0, "object_json is NULL");
  wm::Value value;
  wm::JsonError parse_error;
  if (!wm::ParseJson(std::string_view(json ? json : "", size), &value, &parse_error)) {
    throw Failure{WM_ERR_INVALID_INPUT, "invalid JSON at byte " +
                                            std::to_string(parse_error.offset) + ": " +
                                            parse_error.message};
  }
  return value;
}

// A call's limit, else the bundle's, else the runtime default.
template <class T>
T Pick(T call, T bundle, T fallback) {
  return call ? call : bundle ? bundle : fallback;
}

static_assert(offsetof(wm_limits, timeout_ms) + sizeof(uint64_t) == WM_LIMITS_SIZE_V1 &&
                  offsetof(wm_limits, object_timeout_ms) + sizeof(uint64_t) == WM_LIMITS_SIZE_OBJECT,
              "wm_limits: the sizes of its layouts are part of the ABI");

// The limits a caller passed, as this library's struct: only the bytes the caller's `size` says it
// has are read (an ABI-1 caller's struct, size 0, ends at timeout_ms: reading further would read
// past it); the fields it does not have are 0, i.e. inherited.
wm_limits LimitsOf(const wm_limits* given) {
  wm_limits limits{};
  if (!given) return limits;
  uint32_t size = given->size == 0 ? WM_LIMITS_SIZE_V1 : given->size;
  if (size < WM_LIMITS_SIZE_V1) {
    throw Failure{WM_ERR_BAD_ARGUMENT,
                  "wm_limits.size is " + std::to_string(size) + "; set it to sizeof(wm_limits)"};
  }
  std::memcpy(&limits, given, std::min<size_t>(size, sizeof limits));
  limits.size = WM_LIMITS_SIZE;
  return limits;
}

// What one call runs with: each evaluation's limits and the object budget of its workload.
struct CallLimits {
  wm::RunOptions run;
  wm::workload::ObjectLimits object;
};

CallLimits LimitsFor(const wm_bundle* b, const wm_limits* call) {
  const wm_limits c = LimitsOf(call);
  const wm_limits& d = b->limits;
  CallLimits out;
  wm::EvalLimits& l = out.run.limits;
  l.max_outputs = Pick(c.max_outputs, d.max_outputs, l.max_outputs);
  l.fuel = Pick(c.fuel, d.fuel, l.fuel);
  l.max_memory_bytes = Pick(c.max_memory_bytes, d.max_memory_bytes, l.max_memory_bytes);
  l.max_depth = Pick(c.max_depth, d.max_depth, l.max_depth);
  l.timeout_ms = Pick(c.timeout_ms, d.timeout_ms, l.timeout_ms);
  out.object.fuel = Pick(c.object_fuel, d.object_fuel, out.object.fuel);
  out.object.timeout_ms = Pick(c.object_timeout_ms, d.object_timeout_ms, out.object.timeout_ms);
  return out;
}

wm_code Open(std::shared_ptr<wm::Bundle> (*load)(const void*, size_t, const std::string&,
                                                 std::string*, const wm::BundleLoadOptions&),
             const void* data, size_t size, const std::string& name,
             const wm_open_options* options, const char* expected_sha256, wm_bundle** bundle,
             wm_error** error) {
  if (bundle) *bundle = nullptr;
  return Guarded(error, [&] {
    Require(bundle != nullptr, "bundle is NULL");
    wm::BundleLoadOptions load_options;
    if (options) load_options.use_native = options->interpreter_only == 0;
    if (expected_sha256) load_options.expect_sha256 = expected_sha256;
    std::string message;
    std::shared_ptr<wm::Bundle> loaded = load(data, size, name, &message, load_options);
    if (!loaded) throw Failure{WM_ERR_BAD_BUNDLE, message};
    auto handle = std::make_unique<wm_bundle>();
    handle->bundle = std::move(loaded);
    handle->fused = std::make_unique<wm::workload::FusedDefinitions>(*handle->bundle);
    if (options) handle->limits = LimitsOf(&options->limits);
    *bundle = handle.release();
  });
}

std::shared_ptr<wm::Bundle> LoadFile(const void* path, size_t, const std::string&,
                                     std::string* error, const wm::BundleLoadOptions& options) {
  return wm::Bundle::Open(static_cast<const char*>(path), error, options);
}

std::shared_ptr<wm::Bundle> LoadBytes(const void* data, size_t size, const std::string& name,
                                      std::string* error, const wm::BundleLoadOptions& options) {
  return wm::Bundle::FromBytes(std::string(static_cast<const char*>(data), size), name, error,
                               options);
}

wm::Value String(std::string_view s) { return wm::Value::String(s); }

wm::Value ComponentJson(const wm::catalog::Component& c) {
  return wm::Value::MakeObject({
      {String("name"), String(c.name)},
      {String("apiVersion"), String(c.kind.ApiVersion())},
      {String("kind"), String(c.kind.kind)},
      {String("owner"), c.owner.empty() ? wm::Value::Null() : String(c.owner)},
      {String("hasPodDefinition"), wm::Value::Bool(c.HasPods())},
      {String("hasInstanceIdPath"), wm::Value::Bool(c.instance_id >= 0)},
      {String("hasScaleDefinition"),
       wm::Value::Bool(c.replicas >= 0 || c.min_replicas >= 0 || c.max_replicas >= 0)},
      {String("hasStatusDefinition"), wm::Value::Bool(!c.status.empty())},
  });
}

wm::Value DefinitionJson(const wm::catalog::Definition& d) {
  wm::Array components, groups;
  for (const auto& c : d.components) components.push_back(ComponentJson(c));
  for (const auto& g : d.gang_groups) groups.push_back(String(g.name));
  const auto& gvk = d.root().kind;
  return wm::Value::MakeObject({
      {String("name"), String(d.name)},
      {String("apiVersion"), String(gvk.ApiVersion())},
      {String("kind"), String(gvk.kind)},
      {String("group"), String(gvk.group)},
      {String("version"), String(gvk.version)},
      {String("components"), wm::Value::MakeArray(std::move(components))},
      {String("podGroups"), wm::Value::MakeArray(std::move(groups))},
  });
}

// The resolution of one workload as JSON (the runtime's view, as `wmc inspect -o json` prints it).
// workload::Resolve says only why it failed; the object's shape tells which code that is.
wm::Value ResolvedJson(const wm::Bundle& bundle, const wm::Value& object,
                       const wm::workload::ResolveOptions& options) {
  wm::workload::ResolvedWorkload resolved;
  std::string message;
  if (!wm::workload::Resolve(bundle, object, &resolved, &message, options)) {
    auto is_string = [&](const char* key) {
      const wm::Value* v = object.IsObject() ? object.Find(key) : nullptr;
      return v && v->IsString() && !v->AsString().empty();
    };
    bool typed = is_string("apiVersion") && is_string("kind");
    throw Failure{typed ? WM_ERR_NO_DEFINITION : WM_ERR_INVALID_INPUT, message};
  }
  return wm::workload::WorkloadJson(resolved);
}

void RequireCall(const wm_bundle* bundle, wm_buffer* out) {
  Require(bundle != nullptr && bundle->bundle != nullptr, "bundle is NULL");
  Require(out != nullptr, "out is NULL");
  out->data = nullptr;
  out->size = 0;
}

// The definition of a workload object's apiVersion/kind, or the failure wm_resolve would give.
const wm::catalog::Definition& DefinitionOf(const wm_bundle* b, const wm::Value& object,
                                            std::string* api_version, std::string* kind) {
  auto text = [&](const char* key) {
    const wm::Value* v = object.IsObject() ? object.Find(key) : nullptr;
    return v && v->IsString() ? std::string(v->AsString()) : std::string();
  };
  *api_version = text("apiVersion");
  *kind = text("kind");
  if (api_version->empty() || kind->empty()) {
    throw Failure{WM_ERR_INVALID_INPUT, "not a Kubernetes object: apiVersion and kind are required"};
  }
  const wm::catalog::Definition* definition = b->bundle->FindDefinition(*api_version, *kind);
  if (!definition) {
    throw Failure{WM_ERR_NO_DEFINITION, "no definition in the bundle for " + *api_version + " " + *kind};
  }
  return *definition;
}

// A component by name, or the root for NULL.
const wm::catalog::Component& ComponentOf(const wm::catalog::Definition& definition, const char* name) {
  if (!name) return definition.root();
  const wm::catalog::Component* c = definition.Find(name);
  if (!c) throw Failure{WM_ERR_NOT_FOUND, std::string("component ") + name + " not found"};
  return *c;
}

// One workload object read through its definition: what the pod and gang operations share (the
// tools' GangWorkload, without the file handling). Not movable: the reader points at the accessor.
struct WorkloadContext {
  WorkloadContext(const wm_bundle* b, const char* json, size_t size, const wm_limits* call)
      : object(ParseObject(json, size)),
        limits(LimitsFor(b, call)),
        run(limits.run),
        definition(&DefinitionOf(b, object, &gang.api_version, &gang.kind)) {
    wm::workload::AccessorOptions options;
    options.run = run;
    options.object = limits.object;
    accessor = std::make_unique<wm::workload::Accessor>(*b->bundle, *definition, object, options);
    summary = std::make_unique<wm::workload::StructureSummary>(*definition);
    reader = wm::workload::ScaleReaderOf(*accessor);
    gang.bundle = b->bundle.get();
    gang.definition = definition;
    gang.summary = summary.get();
    gang.reader = &reader;
    gang.identity = wm::workload::WorkloadIdentity::Of(object);
    gang.run = run;
  }
  WorkloadContext(const WorkloadContext&) = delete;
  WorkloadContext& operator=(const WorkloadContext&) = delete;

  // wm_pod_map's answer for one pod of this workload; the pod's queries share one object budget.
  wm::Value PodAnswerJson(const wm_bundle* b, const wm::Value& pod) const {
    wm::workload::PodQueryOptions options;
    options.run = run;
    options.object = limits.object;
    wm::workload::PodQuerier querier(*b->bundle, pod, options);
    return wm::workload::PodAnswersJson(wm::workload::AnswerPod(querier, *summary, reader, gang.identity));
  }

  wm::Value object;
  CallLimits limits;
  wm::RunOptions run;
  wm::workload::GangContext gang;  // declared before `definition`: DefinitionOf fills its names
  const wm::catalog::Definition* definition;
  std::unique_ptr<wm::workload::Accessor> accessor;
  std::unique_ptr<wm::workload::StructureSummary> summary;
  wm::workload::ScaleReader reader;
};

// Returns a write's updated object, or throws its error.
void EmitWrite(const wm::workload::Result<wm::Value>& written, wm_buffer* out) {
  if (!written.ok()) throw Failure{CodeOf(written.error.code), written.error.message};
  Emit(written.value, out);
}

// The suspend or resume actions of a component on a workload object.
using SuspendOrResume = wm::workload::Result<wm::Value> (*)(const wm::Bundle&, const wm::Value&,
                                                            const wm::catalog::Component&,
                                                            const wm::workload::WriteOptions&);
wm_code RunActions(SuspendOrResume apply, const wm_bundle* bundle, const char* json, size_t size,
                   const char* component, const wm_limits* limits, wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    wm::Value object = ParseObject(json, size);
    std::string api_version, kind;
    const wm::catalog::Definition& definition = DefinitionOf(bundle, object, &api_version, &kind);
    const CallLimits call = LimitsFor(bundle, limits);
    wm::workload::WriteOptions options;
    options.run = call.run;
    options.object = call.object;
    EmitWrite(apply(*bundle->bundle, object, ComponentOf(definition, component), options), out);
  });
}

}  // namespace

extern "C" {

int wm_abi_version(void) { return WM_ABI_VERSION; }
const char* wm_version(void) { return WM_VERSION; }

wm_code wm_error_code(const wm_error* error) { return error ? error->code : WM_OK; }
const char* wm_error_message(const wm_error* error) { return error ? error->message.c_str() : ""; }
void wm_error_free(wm_error* error) {
  if (error != &g_out_of_memory) delete error;
}

void wm_buffer_free(wm_buffer* buffer) {
  if (!buffer) return;
  std::free(buffer->data);
  buffer->data = nullptr;
  buffer->size = 0;
}

wm_code wm_bundle_open(const char* path, const wm_open_options* options, wm_bundle** bundle,
                       wm_error** error) {
  if (!path) {
    if (bundle) *bundle = nullptr;
    return Report(error, WM_ERR_BAD_ARGUMENT, "path is NULL");
  }
  return Open(LoadFile, path, 0, path, options, nullptr, bundle, error);
}

wm_code wm_bundle_open_bytes(const void* data, size_t size, const wm_open_options* options,
                             wm_bundle** bundle, wm_error** error) {
  if (!data && size) {
    if (bundle) *bundle = nullptr;
    return Report(error, WM_ERR_BAD_ARGUMENT, "data is NULL");
  }
  return Open(LoadBytes, data ? data : "", size, "<bytes>", options, nullptr, bundle, error);
}

wm_code wm_bundle_open_pinned(const char* path, const char* expected_sha256,
                              const wm_open_options* options, wm_bundle** bundle, wm_error** error) {
  if (!path || !expected_sha256 || !wm::base::IsSha256Hex(expected_sha256)) {
    if (bundle) *bundle = nullptr;
    return Report(error, WM_ERR_BAD_ARGUMENT,
                  !path ? "path is NULL" : "expected_sha256 is not 64 hex digits");
  }
  return Open(LoadFile, path, 0, path, options, expected_sha256, bundle, error);
}

wm_code wm_bundle_open_bytes_pinned(const void* data, size_t size, const char* expected_sha256,
                                    const wm_open_options* options, wm_bundle** bundle,
                                    wm_error** error) {
  if ((!data && size) || !expected_sha256 || !wm::base::IsSha256Hex(expected_sha256)) {
    if (bundle) *bundle = nullptr;
    return Report(error, WM_ERR_BAD_ARGUMENT,
                  !data && size ? "data is NULL" : "expected_sha256 is not 64 hex digits");
  }
  return Open(LoadBytes, data ? data : "", size, "<bytes>", options, expected_sha256, bundle, error);
}

void wm_bundle_close(wm_bundle* bundle) { delete bundle; }

wm_code wm_bundle_definitions(const wm_bundle* bundle, wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    wm::Array definitions;
    for (const auto& d : bundle->bundle->definitions()) definitions.push_back(DefinitionJson(d));
    Emit(wm::Value::MakeArray(std::move(definitions)), out);
  });
}

wm_code wm_bundle_resolvers(const wm_bundle* bundle, wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    const wm::Bundle& b = *bundle->bundle;
    wm::Array resolvers;
    for (size_t id = 0; id < b.resolver_count(); ++id) {
      const wm::ResolverInfo& info = b.resolver_info(static_cast<int32_t>(id));
      resolvers.push_back(wm::Value::MakeObject({
          {String("id"), wm::Value::Number(static_cast<double>(id))},
          {String("definition"), String(info.definition)},
          {String("component"), String(info.component)},
          {String("role"), String(info.role)},
          {String("source"), String(info.source)},
          {String("native"), wm::Value::Bool(!info.native_symbol.empty() && b.native_loaded())},
      }));
    }
    Emit(wm::Value::MakeArray(std::move(resolvers)), out);
  });
}

wm_code wm_resolve(const wm_bundle* bundle, const char* object_json, size_t object_size,
                   const wm_limits* limits, wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    const CallLimits call = LimitsFor(bundle, limits);
    wm::workload::ResolveOptions options;
    options.run = call.run;
    options.object = call.object;
    // The text read in place where the view engine takes the definition; else parsed, which also
    // words every error.
    wm::workload::ResolvedWorkload resolved;
    if (object_json != nullptr &&
        wm::workload::ResolveOnView(*bundle->bundle, std::string_view(object_json, object_size), *bundle->fused,
                                    &resolved, options)) {
      Emit(wm::workload::WorkloadJson(resolved), out);
      return;
    }
    wm::Value object = ParseObject(object_json, object_size);
    Emit(ResolvedJson(*bundle->bundle, object, options), out);
  });
}

wm_code wm_pod_map(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                   const char* pod_json, size_t pod_size, const wm_limits* limits, wm_buffer* out,
                   wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    WorkloadContext w(bundle, workload_json, workload_size, limits);
    wm::Value pod = ParseObject(pod_json, pod_size);
    if (!pod.IsObject()) throw Failure{WM_ERR_INVALID_INPUT, "the pod is not a JSON object"};
    Emit(w.PodAnswerJson(bundle, pod), out);
  });
}

wm_code wm_pod_map_batch(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                         const char* pods_json, size_t pods_size, const wm_limits* limits,
                         wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    WorkloadContext w(bundle, workload_json, workload_size, limits);
    wm::Value pods = ParseObject(pods_json, pods_size);
    const wm::Value* items = &pods;
    if (pods.IsObject()) items = pods.Find("items");
    if (items == nullptr || !items->IsArray()) {
      throw Failure{WM_ERR_INVALID_INPUT, "pods must be a JSON array of Pods or a List with \"items\""};
    }
    wm::Array answers;
    answers.reserve(items->AsArray().size());
    for (size_t i = 0; i < items->AsArray().size(); ++i) {
      const wm::Value& pod = items->AsArray()[i];
      if (!pod.IsObject()) {
        throw Failure{WM_ERR_INVALID_INPUT, "pods[" + std::to_string(i) + "] is not a JSON object"};
      }
      answers.push_back(w.PodAnswerJson(bundle, pod));
    }
    Emit(wm::Value::MakeArray(std::move(answers)), out);
  });
}

wm_code wm_gangs(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                 const wm_limits* limits, wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    WorkloadContext w(bundle, workload_json, workload_size, limits);
    Emit(wm::workload::GangsJson(w.gang, wm::workload::ViewGangs(w.gang, nullptr)), out);
  });
}

wm_code wm_suspend(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                   const char* component, const wm_limits* limits, wm_buffer* out, wm_error** error) {
  return RunActions(wm::workload::Suspend, bundle, workload_json, workload_size, component, limits,
                    out, error);
}

wm_code wm_resume(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                  const char* component, const wm_limits* limits, wm_buffer* out, wm_error** error) {
  return RunActions(wm::workload::Resume, bundle, workload_json, workload_size, component, limits,
                    out, error);
}

wm_code wm_update(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                  const char* component, const char* field, const char* values_json,
                  size_t values_size, const wm_limits* limits, wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    Require(field != nullptr, "field is NULL");
    wm::Value object = ParseObject(workload_json, workload_size);
    std::string api_version, kind;
    const wm::catalog::Definition& definition = DefinitionOf(bundle, object, &api_version, &kind);
    const wm::catalog::Component& c = ComponentOf(definition, component);
    wm::Value values = ParseObject(values_json, values_size);
    if (!values.IsObject()) throw Failure{WM_ERR_INVALID_INPUT, "values must be a JSON object of instance id -> value"};
    wm::workload::InstanceValues by_instance;
    for (const auto& [id, value] : values.AsObject()) by_instance[std::string(id.AsString())] = value;
    const CallLimits call = LimitsFor(bundle, limits);
    wm::workload::WriteOptions options;
    options.run = call.run;
    options.object = call.object;
    const wm::Bundle& b = *bundle->bundle;
    std::string_view f = field;
    if (f == "podTemplateSpec") return EmitWrite(wm::workload::UpdatePodTemplateSpec(b, object, c, by_instance, options), out);
    if (f == "podSpec") return EmitWrite(wm::workload::UpdatePodSpec(b, object, c, by_instance, options), out);
    if (f == "metadata") return EmitWrite(wm::workload::UpdatePodMetadata(b, object, c, by_instance, options), out);
    if (f == "fragmentedPodSpec") {
      return EmitWrite(wm::workload::UpdateFragmentedPodSpec(b, object, c, by_instance, options), out);
    }
    throw Failure{WM_ERR_BAD_ARGUMENT, "unknown field '" + std::string(f) +
                                           "' (podTemplateSpec, podSpec, metadata or fragmentedPodSpec)"};
  });
}

wm_code wm_component_extract(const wm_bundle* bundle, const char* workload_json,
                             size_t workload_size, const char* component, const wm_limits* limits,
                             wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    WorkloadContext w(bundle, workload_json, workload_size, limits);
    auto instances = w.accessor->ExtractedInstances(ComponentOf(*w.definition, component));
    if (!instances.ok()) throw Failure{CodeOf(instances.error.code), instances.error.message};
    wm::Array list;
    for (const auto& instance : instances.value) {
      wm::Value json = wm::workload::ExtractedInstanceJson(instance);
      std::vector<wm::Member> members = {{String("id"), String(instance.id)}};
      for (const auto& member : json.AsObject()) members.push_back(member);
      list.push_back(wm::Value::MakeObject(std::move(members)));
    }
    Emit(wm::Value::MakeArray(std::move(list)), out);
  });
}

wm_code wm_status(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                  const char* component, const wm_limits* limits, wm_buffer* out, wm_error** error) {
  return Guarded(error, [&] {
    RequireCall(bundle, out);
    WorkloadContext w(bundle, workload_json, workload_size, limits);
    auto status = wm::workload::ExtractStatus(*w.accessor, ComponentOf(*w.definition, component));
    if (!status.ok()) throw Failure{CodeOf(status.error.code), status.error.message};
    Emit(wm::workload::StatusJson(status.value), out);
  });
}

}  // extern "C"
