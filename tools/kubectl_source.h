// Live mode: workload objects and pods read from the cluster through the user's own `kubectl`
// (so kubeconfig, contexts and auth plugins work unchanged). kubectl is $WMC_KUBECTL or the first
// `kubectl` on PATH, run with posix_spawn (no shell; argv exactly as built here), its stdout read
// as JSON (bounded), its stderr passed through to ours as it comes and kept for the error message.
//   FetchObjects(options, type, "llama-pretrain", &objects, &error)
//     runs: kubectl get jobsets.v1alpha2.jobset.x-k8s.io llama-pretrain [--namespace NS |
//           --all-namespaces] [--context C] [--kubeconfig K] -o json
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "runtime/value/value.h"
#include "tools/describe_cmd.h"
#include "tools/type_resolver.h"

namespace CLI {
class App;
}

namespace wm::tools {

// The kubectl flags the live verbs pass through.
struct KubectlOptions {
  std::string namespace_;       // -n/--namespace ("" = kubectl's current namespace)
  bool all_namespaces = false;  // -A/--all-namespaces
  std::string context;          // --context
  std::string kubeconfig;       // --kubeconfig
};

// Declares -n/--namespace, -A/--all-namespaces (exclusive), --context and --kubeconfig on `cmd`;
// `options` must outlive the command's callback.
void AddKubectlOptions(CLI::App* cmd, KubectlOptions* options);

// Why a fetch failed. kubectl's own stderr has already been relayed when this is returned.
struct FetchError {
  std::string message;  // without the "error: " prefix
  int exit_code = 1;    // 1: kubectl failed (not found, no such type); 2: no kubectl, bad output
};

// The kubectl to run: $WMC_KUBECTL (a path, or a name looked up on PATH) when set and not empty,
// else `kubectl` on PATH. nullopt with *error when there is none.
std::optional<std::string> FindKubectl(FetchError* error);

// What the process runner returns.
struct ProcessOutput {
  int exit_status = 0;       // the exit code, or 128 + signal when killed by a signal
  std::string out;           // stdout
  std::string err;           // stderr (its last kMaxKeptStderr bytes)
};

struct ProcessOptions {
  size_t max_output_bytes = size_t{1} << 30;  // more stdout than this kills the process
  bool relay_stderr = true;                   // copy stderr to ours as it arrives
};

// Runs argv[0] (a path) with argv, stdin inherited, stdout and stderr read through pipes. False
// with *error when it cannot be started or its stdout exceeds the bound (it is then killed).
bool RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options,
                ProcessOutput* out, std::string* error);

// The argv (after the kubectl path) of `kubectl get RESOURCES [NAME] <scope> -o json`:
// namespace flags, then --context and --kubeconfig, in that order.
std::vector<std::string> KubectlGetArgs(const KubectlOptions& options, const std::string& resources,
                                        const std::optional<std::string>& name);

// The objects of `type` in the options' scope (one object when `name` is given; a list is
// flattened into its items).
bool FetchObjects(const KubectlOptions& options, const ResolvedType& type,
                  const std::optional<std::string>& name, std::vector<Value>* out, FetchError* error);

// The objects of several types in one kubectl call (`kubectl get a,b,c ...`), flattened.
bool FetchObjectsOfTypes(const KubectlOptions& options, const std::vector<ResolvedType>& types,
                         std::vector<Value>* out, FetchError* error);

// Which of `types` the cluster serves (`kubectl api-resources -o name`, matched by plural.group).
bool InstalledTypes(const KubectlOptions& options, const std::vector<ResolvedType>& types,
                    std::vector<ResolvedType>* installed, FetchError* error);

// Every pod of the workload's namespace (upstream lists them all and attributes them by owner
// references later; no label selector): `kubectl get pods --namespace NS -o json`, with the
// options' --context and --kubeconfig; --all-namespaces when the workload has no namespace.
bool FetchPodsOf(const KubectlOptions& options, const Value& workload, std::vector<Value>* pods,
                 FetchError* error);

// What `wmc describe TYPE/NAME` renders: the same fields as describe's DescribeInput.
// TYPE[/NAME] [NAME] split into the type token and the optional name; false after printing kli's
// usage error (`verb` names the command in it).
bool SplitTypeArgs(const std::vector<std::string>& args, const char* verb, std::string* type,
                   std::optional<std::string>* name);

// Adds to `objects` the controller owners they name that are not among them (a ReplicaSet between
// a Deployment and its pods, the Jobs of a JobSet), fetched once per kind with `options`' scope,
// up to four levels up. An owner kind kubectl cannot list ends that chain (kubectl's stderr shows).
void FetchMissingOwners(const KubectlOptions& options, std::vector<Value>* objects);

// The workload `type`/`name`, the pods of its namespace and the owners between them and the
// workload, as `wmc describe` reads them (from_file = false; source = `Kind "name"`).
bool FetchDescribeInput(const KubectlOptions& options, const ResolvedType& type, const std::string& name,
                        DescribeInput* out, FetchError* error);

}  // namespace wm::tools
