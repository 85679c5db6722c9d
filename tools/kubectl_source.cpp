// Live mode through kubectl (see kubectl_source.h): finding kubectl, running it with posix_spawn and
// two pipes read with poll (so neither can fill up and block the other), turning its failures into
// kli's wording, and reading its JSON output into Values.
#include "tools/kubectl_source.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/value/json.h"
#include "tools/cli_output.h"
#include "tools/object_input.h"

extern char** environ;

namespace wm::tools {
namespace {

// kubectl's stderr kept for the error message: enough for any message it prints.
constexpr size_t kMaxKeptStderr = 64 * 1024;

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// `name` looked up in the directories of $PATH (an empty entry is the working directory).
std::optional<std::string> SearchPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (IsExecutableFile(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

// Reads what is available on `fd` into `sink`; false at end of file.
bool Drain(int fd, std::string* sink, bool relay) {
  char buffer[65536];
  ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  if (relay) {
    std::fwrite(buffer, 1, static_cast<size_t>(n), stderr);
    std::fflush(stderr);
  }
  sink->append(buffer, static_cast<size_t>(n));
  return true;
}

// Reads both pipes until both close; false when stdout passes the bound.
bool Collect(int out_fd, int err_fd, const ProcessOptions& options, ProcessOutput* out) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  bool open[2] = {true, true};
  while (open[0] || open[1]) {
    for (int i = 0; i < 2; ++i) fds[i].fd = open[i] ? (i == 0 ? out_fd : err_fd) : -1;
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return true;
    }
    if (open[0] && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) open[0] = Drain(out_fd, &out->out, false);
    if (open[1] && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      open[1] = Drain(err_fd, &out->err, options.relay_stderr);
      if (out->err.size() > kMaxKeptStderr) out->err.erase(0, out->err.size() - kMaxKeptStderr);
    }
    if (out->out.size() > options.max_output_bytes) return false;
  }
  return true;
}

int WaitFor(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 127;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}


// kubectl failed: kli's wording for the failures it names, else the exit status.
FetchError KubectlFailure(const std::vector<std::string>& args, const ProcessOutput& run,
                          const std::optional<ResolvedType>& type, const std::optional<std::string>& name,
                          const KubectlOptions& options) {
  FetchError error;
  error.exit_code = 1;
  if (type && run.err.find("the server doesn't have a resource type") != std::string::npos) {
    error.message = type->gvk.kind + " is not installed in this cluster";
  } else if (type && name && run.err.find("(NotFound)") != std::string::npos) {
    error.message = type->gvk.kind + " \"" + *name + "\" not found" +
                    (options.namespace_.empty() ? "" : " in namespace " + options.namespace_);
  } else {
    error.message = "kubectl " + Join(args) + " failed (exit status " + std::to_string(run.exit_status) + ")";
  }
  return error;
}

// Runs kubectl with `args`; its stdout in *out. Failures (none, no start, exit status) in *error.
bool RunKubectl(const std::vector<std::string>& args, const std::optional<ResolvedType>& type,
                const std::optional<std::string>& name, const KubectlOptions& options,
                std::string* out, FetchError* error) {
  std::optional<std::string> kubectl = FindKubectl(error);
  if (!kubectl) return false;
  std::vector<std::string> argv = {*kubectl};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOutput run;
  std::string failure;
  if (!RunProcess(argv, {}, &run, &failure)) {
    *error = {"kubectl " + Join(args) + ": " + failure, 2};
    return false;
  }
  if (run.exit_status != 0) {
    *error = KubectlFailure(args, run, type, name, options);
    return false;
  }
  *out = std::move(run.out);
  return true;
}

// kubectl's -o json output as objects (a list flattened into its items).
bool ParseOutput(const std::vector<std::string>& args, const std::string& text, std::vector<Value>* out,
                 FetchError* error) {
  std::vector<Value> values;
  JsonError json_error;
  if (!ParseJsonStream(text, &values, &json_error)) {
    *error = {"kubectl " + Join(args) + ": invalid JSON at byte " + std::to_string(json_error.offset) +
                  ": " + json_error.message,
              2};
    return false;
  }
  for (Value& v : FlattenLists(values)) out->push_back(std::move(v));
  return true;
}

// The kinds of the controller owners that objects name and that are not among them; `asked`
// keeps each kind from being fetched twice.
std::vector<ResolvedType> MissingOwnerKinds(const std::vector<Value>& objects, std::set<std::string>* asked) {
  std::set<std::string> uids;
  for (const Value& o : objects) uids.insert(StringAt(o, {"metadata", "uid"}));
  std::vector<ResolvedType> kinds;
  for (const Value& o : objects) {
    const Value* metadata = o.IsObject() ? o.Find("metadata") : nullptr;
    const Value* refs = metadata && metadata->IsObject() ? metadata->Find("ownerReferences") : nullptr;
    if (!refs || !refs->IsArray()) continue;
    for (const Value& ref : refs->AsArray()) {
      const Value* controller = ref.IsObject() ? ref.Find("controller") : nullptr;
      const Value* uid = ref.IsObject() ? ref.Find("uid") : nullptr;
      if (!controller || controller->kind() != Kind::True) continue;
      if (uid && uid->IsString() && uids.count(std::string(uid->AsString()))) continue;
      const Value* api_version = ref.Find("apiVersion");
      const Value* kind = ref.Find("kind");
      if (!api_version || !api_version->IsString() || !kind || !kind->IsString()) continue;
      auto gvk = base::GroupVersionKind::FromApiVersion(std::string(api_version->AsString()),
                                                        std::string(kind->AsString()));
      if (!gvk.full() || !asked->insert(gvk.ToString()).second) continue;
      kinds.push_back({gvk, NamesOf(gvk.group, gvk.kind)});
    }
  }
  return kinds;
}

}  // namespace

void AddKubectlOptions(CLI::App* cmd, KubectlOptions* options) {
  auto* ns = cmd->add_option("-n,--namespace", options->namespace_, "Namespace to read (kubectl's -n)");
  ns->type_name("NS");
  auto* all = cmd->add_flag("-A,--all-namespaces", options->all_namespaces, "Read every namespace");
  ns->excludes(all);
  cmd->add_option("--context", options->context, "kubeconfig context kubectl uses")->type_name("CONTEXT");
  cmd->add_option("--kubeconfig", options->kubeconfig, "kubeconfig file kubectl reads")->type_name("FILE");
}

std::optional<std::string> FindKubectl(FetchError* error) {
  const char* env = std::getenv("WMC_KUBECTL");
  if (env != nullptr && *env != '\0') {
    std::string chosen = env;
    if (chosen.find('/') != std::string::npos) {
      if (IsExecutableFile(chosen)) return chosen;
      *error = {"WMC_KUBECTL=" + chosen + " is not an executable file", 2};
      return std::nullopt;
    }
    if (auto found = SearchPath(chosen)) return found;
    *error = {"WMC_KUBECTL=" + chosen + ": no such executable on PATH", 2};
    return std::nullopt;
  }
  if (auto found = SearchPath("kubectl")) return found;
  *error = {"kubectl not found on PATH: live mode runs your kubectl (install it, or set WMC_KUBECTL "
            "to its path); `wmc get -f FILE` reads objects from a file instead",
            2};
  return std::nullopt;
}

bool RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options, ProcessOutput* out,
                std::string* error) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    ::close(out_pipe[0]), ::close(out_pipe[1]);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]), ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]), ::close(err_pipe[0]);
    *error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return false;
  }
  bool within_bound = Collect(out_pipe[0], err_pipe[0], options, out);
  if (!within_bound) ::kill(pid, SIGKILL);
  ::close(out_pipe[0]), ::close(err_pipe[0]);
  out->exit_status = WaitFor(pid);
  if (!within_bound) {
    *error = "output exceeds " + std::to_string(options.max_output_bytes) + " bytes";
    return false;
  }
  return true;
}

std::vector<std::string> KubectlGetArgs(const KubectlOptions& options, const std::string& resources,
                                        const std::optional<std::string>& name) {
  std::vector<std::string> args = {"get", resources};
  if (name) args.push_back(*name);
  if (options.all_namespaces) args.push_back("--all-namespaces");
  else if (!options.namespace_.empty()) args.insert(args.end(), {"--namespace", options.namespace_});
  if (!options.context.empty()) args.insert(args.end(), {"--context", options.context});
  if (!options.kubeconfig.empty()) args.insert(args.end(), {"--kubeconfig", options.kubeconfig});
  args.insert(args.end(), {"-o", "json"});
  return args;
}

bool FetchObjects(const KubectlOptions& options, const ResolvedType& type, const std::optional<std::string>& name,
                  std::vector<Value>* out, FetchError* error) {
  std::vector<std::string> args = KubectlGetArgs(options, type.KubectlResource(), name);
  std::string text;
  return RunKubectl(args, type, name, options, &text, error) && ParseOutput(args, text, out, error);
}

bool FetchObjectsOfTypes(const KubectlOptions& options, const std::vector<ResolvedType>& types,
                         std::vector<Value>* out, FetchError* error) {
  if (types.empty()) return true;
  std::string resources;
  for (const auto& t : types) resources += (resources.empty() ? "" : ",") + t.KubectlResource();
  std::vector<std::string> args = KubectlGetArgs(options, resources, std::nullopt);
  std::optional<ResolvedType> one = types.size() == 1 ? std::optional(types.front()) : std::nullopt;
  std::string text;
  return RunKubectl(args, one, std::nullopt, options, &text, error) && ParseOutput(args, text, out, error);
}

bool InstalledTypes(const KubectlOptions& options, const std::vector<ResolvedType>& types,
                    std::vector<ResolvedType>* installed, FetchError* error) {
  std::vector<std::string> args = {"api-resources", "-o", "name"};
  if (!options.context.empty()) args.insert(args.end(), {"--context", options.context});
  if (!options.kubeconfig.empty()) args.insert(args.end(), {"--kubeconfig", options.kubeconfig});
  std::string text;
  if (!RunKubectl(args, std::nullopt, std::nullopt, options, &text, error)) return false;
  std::set<std::string> served;  // "jobsets.jobset.x-k8s.io", "pods"
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) served.insert(text.substr(start, end - start));
    start = end + 1;
  }
  for (const auto& t : types) {
    std::string name = t.names.plural + (t.gvk.group.empty() ? "" : "." + t.gvk.group);
    if (served.count(name)) installed->push_back(t);
  }
  return true;
}

bool FetchPodsOf(const KubectlOptions& options, const Value& workload, std::vector<Value>* pods,
                 FetchError* error) {
  KubectlOptions scope = options;
  scope.namespace_ = StringAt(workload, {"metadata", "namespace"});
  scope.all_namespaces = scope.namespace_.empty();
  ResolvedType pod{{"", "v1", "Pod"}, NamesOf("", "Pod")};
  return FetchObjects(scope, pod, std::nullopt, pods, error);
}

bool SplitTypeArgs(const std::vector<std::string>& args, const char* verb, std::string* type,
                   std::optional<std::string>* name) {
  *type = args.front();
  size_t slash = type->find('/');
  if (slash != std::string::npos) {
    *name = type->substr(slash + 1);
    *type = type->substr(0, slash);
    if (args.size() > 1 || name->value().empty() || type->empty()) {
      std::fprintf(stderr, "error: give the name as TYPE/NAME or as TYPE NAME, once\n");
      return false;
    }
  } else if (args.size() == 2) {
    *name = args[1];
  } else if (args.size() > 2) {
    std::fprintf(stderr, "error: too many arguments: wmc %s TYPE[/NAME] [NAME]\n", verb);
    return false;
  }
  return true;
}

void FetchMissingOwners(const KubectlOptions& options, std::vector<Value>* objects) {
  std::set<std::string> asked;
  for (int level = 0; level < 4; ++level) {
    std::vector<ResolvedType> kinds = MissingOwnerKinds(*objects, &asked);
    if (kinds.empty()) return;
    for (const ResolvedType& kind : kinds) {
      std::vector<Value> owners;
      FetchError ignored;
      if (FetchObjects(options, kind, std::nullopt, &owners, &ignored)) {
        for (Value& owner : owners) objects->push_back(std::move(owner));
      }
    }
  }
}

bool FetchDescribeInput(const KubectlOptions& options, const ResolvedType& type, const std::string& name,
                        DescribeInput* out, FetchError* error) {
  std::vector<Value> objects;
  if (!FetchObjects(options, type, name, &objects, error)) return false;
  if (objects.size() != 1 || !objects.front().IsObject()) {
    *error = {"kubectl get " + type.KubectlResource() + " " + name + " returned " +
                  std::to_string(objects.size()) + " objects, expected one",
              2};
    return false;
  }
  std::vector<Value> pods;
  if (!FetchPodsOf(options, objects.front(), &pods, error)) return false;
  // The owners between the pods and the workload live in the workload's namespace.
  KubectlOptions scope = options;
  scope.namespace_ = StringAt(objects.front(), {"metadata", "namespace"});
  scope.all_namespaces = scope.namespace_.empty();
  size_t workload_at = pods.size();
  pods.push_back(objects.front());  // so the owner walk stops at the workload
  FetchMissingOwners(scope, &pods);
  pods.erase(pods.begin() + static_cast<std::ptrdiff_t>(workload_at));
  out->workload = std::move(objects.front());
  out->pods = std::move(pods);
  out->from_file = false;
  out->source = type.gvk.kind + " \"" + name + "\"";
  return true;
}

}  // namespace wm::tools
