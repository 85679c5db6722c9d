/* wm.h: the C ABI of the wmc runtime (libwm). Opens a compiled catalog bundle (.wmb) and answers
 * questions about live Kubernetes workload objects: JSON bytes in, JSON bytes out, errors as a
 * code plus a message. C99, no C++ types; every function is noexcept in practice (nothing throws
 * across this boundary). Documentation: docs/c-abi.md.
 *
 * Memory: every wm_buffer and wm_error the library hands out is owned by the caller and freed
 * with wm_buffer_free / wm_error_free. Input pointers are only read during the call.
 *
 * Threads: a wm_bundle is immutable once opened. Any number of threads may call any operation on
 * the same bundle at the same time (each call evaluates on its own data; the compiled resolvers
 * hold no per-run state). wm_bundle_close must not run concurrently with a call on that bundle.
 */
#ifndef WM_H_
#define WM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WM_API __attribute__((visibility("default")))
#else
#define WM_API
#endif

/* The ABI version this header describes. It changes whenever a declaration here changes
 * incompatibly (a struct layout, a signature); it is the SONAME of the library (libwm.so.N).
 * Added functions do not change it. Compare with wm_abi_version() at start-up. */
#define WM_ABI_VERSION 1

/* Result codes. 1..6 are the runtime's workload::ErrorCode values (runtime/workload/run.h);
 * 100 and up are the ABI's own. */
typedef enum wm_code {
  WM_OK = 0,
  WM_ERR_INVALID_INPUT = 1, /* not a Kubernetes object, malformed JSON */
  WM_ERR_NO_DEFINITION = 2, /* no definition covers the kind; "component X does not have ... definition" */
  WM_ERR_NOT_FOUND = 3,     /* unknown component, instance id or pod group */
  WM_ERR_EVALUATION = 4,    /* a resolver failed or gave results of the wrong shape */
  WM_ERR_MISMATCH = 5,      /* zip count mismatch, array length mismatch */
  WM_ERR_LIMIT = 6,         /* result cap, step budget, memory or time limit */
  WM_ERR_BAD_ARGUMENT = 100, /* a NULL pointer where one is required, a negative length */
  WM_ERR_BAD_BUNDLE = 101,   /* the bundle cannot be read, is truncated, damaged or of another version */
  WM_ERR_OUT_OF_MEMORY = 102,
  WM_ERR_INTERNAL = 103      /* an unexpected failure inside the library (a bug: please report) */
} wm_code;

/* An error: a code and a message (UTF-8, upstream's wording where the Go library has one). */
typedef struct wm_error wm_error;
WM_API wm_code wm_error_code(const wm_error* error);
WM_API const char* wm_error_message(const wm_error* error); /* valid until wm_error_free */
WM_API void wm_error_free(wm_error* error);                 /* NULL is ignored */

/* Bytes the library allocated: JSON text, NUL-terminated (the NUL is not counted in size). */
typedef struct wm_buffer {
  char* data;
  size_t size;
} wm_buffer;
WM_API void wm_buffer_free(wm_buffer* buffer); /* frees data and zeroes the struct; NULL is ignored */

/* Evaluation limits. A field left 0 takes the bundle's value (see wm_open_options), and the
 * bundle's 0 takes the runtime default: 1000 outputs per evaluation (it is an error when the count
 * reaches it, as upstream), 10,000,000 steps, 256 MiB, 10,000 nested calls, 10 s; per object
 * 50,000,000 steps and 30 s (docs/limits.md).
 * `size` says which fields the caller has: set it to sizeof(wm_limits) (WM_LIMITS_SIZE). 0 means a
 * caller written before the object limits, whose struct ends at timeout_ms (this field was
 * `reserved`, always 0): the library then reads nothing after timeout_ms, so old binaries keep
 * working. A size from 1 to 39 is WM_ERR_BAD_ARGUMENT; a size larger than this header's is read up
 * to the fields this library knows. */
typedef struct wm_limits {
  /* per evaluation (one resolver run) */
  uint64_t max_outputs;
  uint64_t fuel;
  uint64_t max_memory_bytes;
  uint32_t max_depth;
  uint32_t size;       /* sizeof(wm_limits), or 0: the layout that ends at timeout_ms */
  uint64_t timeout_ms; /* wall clock per evaluation */
  /* per workload object: shared by every resolver run on one object (a whole resolution, one
   * write, one pod's queries); read only when size >= WM_LIMITS_SIZE_OBJECT */
  uint64_t object_fuel;       /* steps of all runs (default 50,000,000) */
  uint64_t object_timeout_ms; /* wall clock of all runs (default 30,000 ms) */
} wm_limits;

#define WM_LIMITS_SIZE ((uint32_t)sizeof(wm_limits))
#define WM_LIMITS_SIZE_V1 40u     /* the layout that ends at timeout_ms */
#define WM_LIMITS_SIZE_OBJECT 56u /* with object_fuel and object_timeout_ms */

typedef struct wm_open_options {
  int interpreter_only; /* nonzero: never map the bundle's native code, run the IR interpreter */
  wm_limits limits;     /* defaults for every call on the bundle; last, so that it may grow */
} wm_open_options;

typedef struct wm_bundle wm_bundle;

/* Every operation returns WM_OK or an error code; on error, when `error` is not NULL, *error
 * receives a wm_error the caller frees (on success *error is set to NULL). Output buffers are
 * filled only on success. `options` and `limits` may be NULL (defaults). */

WM_API int wm_abi_version(void);     /* WM_ABI_VERSION of the library */
WM_API const char* wm_version(void); /* the wmc version, e.g. "0.1.0"; static storage */

/* Opens a bundle file. */
WM_API wm_code wm_bundle_open(const char* path, const wm_open_options* options,
                              wm_bundle** bundle, wm_error** error);
/* Opens a bundle from bytes in memory. The bytes are copied: the caller may free them as soon as
 * this returns. */
WM_API wm_code wm_bundle_open_bytes(const void* data, size_t size, const wm_open_options* options,
                                    wm_bundle** bundle, wm_error** error);
/* The same, refusing (WM_ERR_BAD_BUNDLE, "SHA-256 mismatch: ...") a bundle whose SHA-256 is not
 * `expected_sha256` (64 hex digits, either case, as `wmc compile` and `wmc bundle info` print it)
 * before anything else is read from it: for bundles loaded from storage others can write. A
 * bundle is trusted code (its native section is mapped and run); pin the digest you built.
 * `expected_sha256` NULL or not 64 hex digits: WM_ERR_BAD_ARGUMENT. */
WM_API wm_code wm_bundle_open_pinned(const char* path, const char* expected_sha256,
                                     const wm_open_options* options, wm_bundle** bundle,
                                     wm_error** error);
WM_API wm_code wm_bundle_open_bytes_pinned(const void* data, size_t size,
                                           const char* expected_sha256,
                                           const wm_open_options* options, wm_bundle** bundle,
                                           wm_error** error);
WM_API void wm_bundle_close(wm_bundle* bundle); /* NULL is ignored */

/* The definitions in the bundle, as a JSON array in bundle order:
 *   [{"name", "apiVersion", "kind", "group", "version",
 *     "components": [{"name", "apiVersion", "kind", "owner" (null for the root),
 *                     "hasPodDefinition", "hasInstanceIdPath", "hasScaleDefinition",
 *                     "hasStatusDefinition"}],
 *     "podGroups": ["<legacy podGroups names>"]}] */
WM_API wm_code wm_bundle_definitions(const wm_bundle* bundle, wm_buffer* out, wm_error** error);

/* The compiled resolvers (one per distinct jq expression and role), as a JSON array:
 *   [{"id", "definition", "component" ("" for definition-level ones), "role" ("replicas",
 *     "pod-template-spec", "status-expression", "instance-selector-id", ...), "source" (the jq
 *     text), "native" (runs as native code in this process)}]
 * For tools and benchmarks that want the expressions a definition evaluates. */
WM_API wm_code wm_bundle_resolvers(const wm_bundle* bundle, wm_buffer* out, wm_error** error);

/* Resolves one workload object (JSON bytes) through the definition of its apiVersion/kind: the
 * JSON object `wmc inspect -o json` prints (runtime/workload/view.h: apiVersion, kind, name,
 * namespace, definition, status, phase, conditions, resources, components with their instances,
 * replicas, GPUs and extracted pod shapes, problems). A resolver that fails is a problem of its
 * component in that document, not an error of the call. Errors:
 * WM_ERR_INVALID_INPUT (malformed JSON, not an object, no apiVersion/kind), WM_ERR_NO_DEFINITION. */
WM_API wm_code wm_resolve(const wm_bundle* bundle, const char* object_json, size_t object_size,
                          const wm_limits* limits, wm_buffer* out, wm_error** error);

/* Maps one Pod (JSON bytes) to the workload it belongs to, as upstream's pkg/instructions and the
 * KAI scheduler's Karta pod grouper answer it; the object `wmc pods -o json` prints per pod:
 *   {"name", "component" (InferPodComponent), "instance" (InferPodComponentInstance),
 *    "replicaKey", "podGroupName" (KAI's PodGroup for the pod, null when that failed),
 *    "podGroups"?: {"group", "effectiveComponent", "instance", "groupKeys", "name", "minMember"}
 *                  or {"error"} (legacy podGroups, when the definition has them),
 *    "podGroup"?: {"name", "subGroup", "kaiSubGroups"} or {"error"} (when it has a podGroup),
 *    "errors"?: {"component" | "instance" | "replicaKey": upstream's message}}
 * A failed answer is null in the object and its message is under "errors": per-pod failures are
 * part of the answer, not an error of the call. Errors: WM_ERR_INVALID_INPUT (malformed JSON, a
 * workload without apiVersion/kind, a pod that is not an object), WM_ERR_NO_DEFINITION. */
WM_API wm_code wm_pod_map(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                          const char* pod_json, size_t pod_size, const wm_limits* limits,
                          wm_buffer* out, wm_error** error);

/* wm_pod_map for many pods of one workload: the workload is parsed and resolved once, then each
 * pod is answered against it. `pods_json` is a JSON array of Pod objects, or a List (an object
 * with "items", e.g. `kubectl get pods -o json` output). The result is a JSON array with one
 * wm_pod_map answer per pod, in input order. Errors: as wm_pod_map; WM_ERR_INVALID_INPUT when
 * pods_json is neither an array nor an object with an "items" array, or an item is not an
 * object (the message names its index). */
WM_API wm_code wm_pod_map_batch(const wm_bundle* bundle, const char* workload_json,
                                size_t workload_size, const char* pods_json, size_t pods_size,
                                const wm_limits* limits, wm_buffer* out, wm_error** error);

/* The gang scheduling of one workload as the KAI scheduler's Karta grouper builds it; the object
 * `wmc gangs -o json` prints (without --pods):
 *   {"apiVersion", "kind", "name", "namespace", "definition",
 *    "gangSource": "podGroup" | "podGroups" | "default" (the form KAI follows),
 *    "podGroup"?: {"name", "topology", "minMember", "minSubGroups",
 *                  "subGroups": [{"name", "minMember", "topology"?}]} or {"error"},
 *    "podGroups"?: [{"name", "members": [{"component", "filters", "groupByKeyPaths",
 *                   "minMember" (CalculateSubtreeScale, or {"error"}),
 *                   "instances"?: [{"id", "minMember"}]}]}],
 *    "default"?: {"name", "minMember": 1}}
 * Errors: WM_ERR_INVALID_INPUT (malformed JSON, no apiVersion/kind), WM_ERR_NO_DEFINITION. */
WM_API wm_code wm_gangs(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                        const wm_limits* limits, wm_buffer* out, wm_error** error);

/* Writes (upstream's Component update and suspend/resume calls). Each returns the updated workload
 * object as JSON (keys sorted, as upstream evaluates on an object that went through a Go map); the
 * input bytes are not changed. `component` is a component name, or NULL for the root;
 * WM_ERR_NOT_FOUND "component <name> not found" for an unknown one. Errors otherwise as upstream's:
 * WM_ERR_NO_DEFINITION "component <name> does not have suspendDefinition", WM_ERR_MISMATCH
 * "array length mismatch: expected N values but got M", WM_ERR_NOT_FOUND "value not found for
 * instance id: X", WM_ERR_EVALUATION for a failing path ("suspendActions[i]: ..."). */
WM_API wm_code wm_suspend(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                          const char* component, const wm_limits* limits, wm_buffer* out,
                          wm_error** error);
WM_API wm_code wm_resume(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                         const char* component, const wm_limits* limits, wm_buffer* out,
                         wm_error** error);
/* Writes one pod field of every instance of `component`: `field` is "podTemplateSpec", "podSpec",
 * "metadata" or "fragmentedPodSpec"; `values_json` is a JSON object instance id -> value ("" for
 * the single instance of a component without instanceIdPath), the values being a
 * FragmentedPodSpec object ({"schedulerName", "labels", ...}) for "fragmentedPodSpec".
 * WM_ERR_BAD_ARGUMENT for another field, WM_ERR_INVALID_INPUT when values_json is not an object. */
WM_API wm_code wm_update(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                         const char* component, const char* field, const char* values_json,
                         size_t values_size, const wm_limits* limits, wm_buffer* out,
                         wm_error** error);

/* Upstream's Component.GetExtractedInstances for `component` (NULL: the root), in instance-id
 * order: [{"id" ("" for a single-instance component), "podTemplateSpec"?, "podSpec"?,
 * "fragmentedPodSpec"?, "metadata"?, "scale"?: {"replicas"?, "minReplicas"?, "maxReplicas"?}}]
 * (a key is absent when the component has no such definition). Unlike wm_resolve, a failing
 * resolver is an error of the call, with upstream's message and code (WM_ERR_EVALUATION,
 * WM_ERR_MISMATCH "instance ids count (N) does not match results count (M)", WM_ERR_LIMIT), and
 * WM_ERR_NOT_FOUND for an unknown component. */
WM_API wm_code wm_component_extract(const wm_bundle* bundle, const char* workload_json,
                                    size_t workload_size, const char* component,
                                    const wm_limits* limits, wm_buffer* out, wm_error** error);
/* Upstream's Accessor.ExtractStatus for `component` (NULL: the root): {"phase"?, "conditions"?,
 * "matchedStatuses"} or upstream's error: WM_ERR_NO_DEFINITION "component <name> does not have
 * status definition", WM_ERR_EVALUATION "failed to extract phase: ...", "failed to extract
 * conditions: ...", "failed to match status: ...". */
WM_API wm_code wm_status(const wm_bundle* bundle, const char* workload_json, size_t workload_size,
                         const char* component, const wm_limits* limits, wm_buffer* out,
                         wm_error** error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WM_H_ */
