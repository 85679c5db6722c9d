/* 8 threads calling the C ABI on one shared bundle (wm.h promises this is safe): each thread
 * resolves workloads, lists definitions and takes the error path many times, and every answer must
 * equal the one computed on the main thread first. Built normally (CTest capi-threads) and with
 * -fsanitize=thread (CTest label tsan, tests/capi/tsan.sh), which reports any data race.
 *   wm_capi_threads BUNDLE... */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/c/wm.h"

enum { kThreads = 8, kRounds = 40 };

static const char kJobSet[] =
    "{\"apiVersion\":\"jobset.x-k8s.io/v1alpha2\",\"kind\":\"JobSet\","
    "\"metadata\":{\"name\":\"train\",\"namespace\":\"ml\"},"
    "\"spec\":{\"replicatedJobs\":["
    "{\"name\":\"leader\",\"replicas\":1,\"template\":{\"spec\":{\"parallelism\":1,\"template\":"
    "{\"spec\":{\"containers\":[{\"name\":\"t\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":4}}}]}}}}},"
    "{\"name\":\"worker\",\"replicas\":3,\"template\":{\"spec\":{\"parallelism\":2,\"template\":"
    "{\"spec\":{\"containers\":[{\"name\":\"t\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":8}}}]}}}}}]},"
    "\"status\":{\"conditions\":[{\"type\":\"Completed\",\"status\":\"True\"}],"
    "\"replicatedJobsStatus\":[{\"name\":\"leader\",\"ready\":1},{\"name\":\"worker\",\"ready\":3}]}}";
static const char kUnknown[] = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\"}";

struct Shared {
  const wm_bundle* bundle;
  char* resolved;    /* expected answers, from the main thread */
  char* definitions;
  int failures;      /* per thread */
};

static char* Take(wm_buffer* b) {
  char* copy = malloc(b->size + 1);
  memcpy(copy, b->data, b->size + 1);
  wm_buffer_free(b);
  return copy;
}

static int Same(wm_buffer* b, const char* expected) {
  int same = b->data != NULL && strcmp(b->data, expected) == 0;
  wm_buffer_free(b);
  return same;
}

static void* Worker(void* arg) {
  struct Shared* s = arg;
  for (int round = 0; round < kRounds; ++round) {
    wm_buffer out = {0};
    wm_error* error = NULL;
    if (wm_resolve(s->bundle, kJobSet, sizeof kJobSet - 1, NULL, &out, &error) != WM_OK ||
        !Same(&out, s->resolved)) {
      ++s->failures;
    }
    wm_error_free(error);
    if (wm_bundle_definitions(s->bundle, &out, NULL) != WM_OK || !Same(&out, s->definitions)) {
      ++s->failures;
    }
    error = NULL;
    if (wm_resolve(s->bundle, kUnknown, sizeof kUnknown - 1, NULL, &out, &error) !=
            WM_ERR_NO_DEFINITION ||
        wm_error_code(error) != WM_ERR_NO_DEFINITION) {
      ++s->failures;
    }
    wm_error_free(error);
  }
  return NULL;
}

static int RunOn(const char* path) {
  wm_bundle* bundle = NULL;
  wm_error* error = NULL;
  if (wm_bundle_open(path, NULL, &bundle, &error) != WM_OK) {
    fprintf(stderr, "%s: %s\n", path, wm_error_message(error));
    wm_error_free(error);
    return 1;
  }
  wm_buffer out = {0};
  if (wm_resolve(bundle, kJobSet, sizeof kJobSet - 1, NULL, &out, &error) != WM_OK) {
    fprintf(stderr, "%s: resolve: %s\n", path, wm_error_message(error));
    wm_error_free(error);
    wm_bundle_close(bundle);
    return 1;
  }
  char* resolved = Take(&out);
  wm_bundle_definitions(bundle, &out, NULL);
  char* definitions = Take(&out);

  struct Shared shared[kThreads];
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    shared[i] = (struct Shared){bundle, resolved, definitions, 0};
    pthread_create(&threads[i], NULL, Worker, &shared[i]);
  }
  int failures = 0;
  for (int i = 0; i < kThreads; ++i) {
    pthread_join(threads[i], NULL);
    failures += shared[i].failures;
  }
  free(resolved);
  free(definitions);
  wm_bundle_close(bundle);
  printf("%s: %d threads x %d rounds, %d wrong answers\n", path, kThreads, kRounds, failures);
  return failures != 0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s BUNDLE...\n", argv[0]);
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) status |= RunOn(argv[i]);
  return status;
}
