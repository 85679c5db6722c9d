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
 * reaches it, as upstream), 10,000,000 steps, 256 MiB, 10,000 nested calls, 10 s. */
typedef struct wm_limits {
  uint64_t max_outputs;
  uint64_t fuel;
  uint64_t max_memory_bytes;
  uint32_t max_depth;
  uint32_t reserved; /* 0 */
  uint64_t timeout_ms; /* wall clock per evaluation */
} wm_limits;

typedef struct wm_open_options {
  int interpreter_only; /* nonzero: never map the bundle's native code, run the IR interpreter */
  wm_limits limits;     /* defaults for every call on the bundle */
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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WM_H_ */
