// Text, DOT and SVG rendering of a DescribeView (see describe_render.h). The text follows kli's
// generator/describe.go: rows go through the tabwriter layout kubectl uses (minimum width 10,
// padding 3) so component and pod rows share columns, and trailing blanks are trimmed.
#include "tools/describe_render.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tools/cli_output.h"
#include "tools/kube_time.h"

extern char** environ;

namespace wm::tools {
namespace {

using workload::DescribeComponent;
using workload::DescribePod;
using workload::DescribeResources;
using workload::DescribeView;
using Rows = std::vector<std::vector<std::string>>;

std::string Branch(bool last) { return last ? "`-- " : "|-- "; }
std::string Indent(bool last) { return last ? "    " : "|   "; }
std::string OrNone(const std::string& s) { return s.empty() ? "<none>" : s; }
std::string GpuCell(const DescribeResources& r) { return r.gpus == 0 ? "" : "gpu: " + std::to_string(r.gpus); }

// File mode has no pods: "0/9 ready" would read as nine that failed, so it shows the count alone.
std::string ScaleCell(const DescribeComponent& c, bool file_mode) {
  if (file_mode) return "replicas: " + std::to_string(c.replicas.desired);
  return std::to_string(c.replicas.ready) + "/" + std::to_string(c.replicas.desired) + " ready";
}

// The urgency --component-limit keeps components by: an unhealthy pod anywhere under it, then
// fewer pods than desired, then the rest. A manifest in file mode has no live status: all OK.
enum class Health { kUnhealthy = 0, kMissingPods = 1, kOk = 2 };

Health HealthOf(const DescribeComponent& c, bool file_mode) {
  if (file_mode) return Health::kOk;
  for (const DescribePod& p : c.pods) {
    if (p.Unhealthy()) return Health::kUnhealthy;
  }
  Health health = c.replicas.current < c.replicas.desired ? Health::kMissingPods : Health::kOk;
  for (const DescribeComponent& child : c.children) health = std::min(health, HealthOf(child, false));
  return health;
}

struct Limited {
  std::vector<const DescribeComponent*> shown;  // in declared order
  int hidden = 0, hidden_unhealthy = 0, hidden_missing = 0;
};

// Shown rows go to components in health order, but keep the tree's declared order.
Limited LimitComponents(const std::vector<DescribeComponent>& components, int limit, bool file_mode) {
  Limited out;
  if (limit <= 0 || components.size() <= static_cast<size_t>(limit)) {
    for (const auto& c : components) out.shown.push_back(&c);
    return out;
  }
  std::vector<Health> health;
  for (const auto& c : components) health.push_back(HealthOf(c, file_mode));
  std::vector<bool> keep(components.size(), false);
  int kept = 0;
  for (Health want : {Health::kUnhealthy, Health::kMissingPods, Health::kOk}) {
    for (size_t i = 0; i < components.size(); ++i) {
      if (kept < limit && health[i] == want) keep[i] = true, ++kept;
    }
  }
  for (size_t i = 0; i < components.size(); ++i) {
    if (keep[i]) out.shown.push_back(&components[i]);
    else if (health[i] == Health::kUnhealthy) ++out.hidden_unhealthy;
    else if (health[i] == Health::kMissingPods) ++out.hidden_missing;
  }
  out.hidden = static_cast<int>(components.size()) - limit;
  return out;
}

// A component's pod rows; `components_follow`: component rows come after at this depth, so the
// last pod row does not close the branch.
void PodRows(const std::vector<DescribePod>& pods, const std::string& prefix, int limit, bool components_follow,
             Rows* rows) {
  int all_unhealthy = 0;
  for (const auto& p : pods) all_unhealthy += p.Unhealthy() ? 1 : 0;
  std::vector<DescribePod> shown = pods;
  int hidden = 0, shown_unhealthy = all_unhealthy;
  if (limit > 0 && pods.size() > static_cast<size_t>(limit)) {
    std::stable_sort(shown.begin(), shown.end(),
                     [](const DescribePod& a, const DescribePod& b) { return a.Unhealthy() && !b.Unhealthy(); });
    hidden = static_cast<int>(shown.size()) - limit;
    shown.resize(limit);
    shown_unhealthy = 0;
    for (const auto& p : shown) shown_unhealthy += p.Unhealthy() ? 1 : 0;
  }
  for (size_t i = 0; i < shown.size(); ++i) {
    const DescribePod& p = shown[i];
    bool last = i + 1 == shown.size() && hidden == 0 && !components_follow;
    rows->push_back({prefix + Branch(last) + p.name, p.reason.empty() ? p.phase : p.phase + " (" + p.reason + ")",
                     GpuCell(p.resources), OrNone(p.node.value_or(""))});
  }
  if (hidden > 0) {
    // Naming the unhealthy total keeps the note from implying every failing pod survived the cut.
    std::string coverage = std::to_string(shown_unhealthy) + " unhealthy shown";
    if (shown_unhealthy < all_unhealthy) {
      coverage = std::to_string(shown_unhealthy) + " of " + std::to_string(all_unhealthy) + " unhealthy shown";
    }
    rows->push_back({prefix + Branch(!components_follow) + "...",
                     "and " + std::to_string(hidden) + " more (" + coverage + ")", "", ""});
  }
}

void ComponentRows(const std::vector<DescribeComponent>& components, const std::string& prefix,
                   const DescribeTextOptions& o, bool file_mode, Rows* rows) {
  Limited limited = LimitComponents(components, o.component_limit, file_mode);
  for (size_t i = 0; i < limited.shown.size(); ++i) {
    const DescribeComponent& c = *limited.shown[i];
    bool last = i + 1 == limited.shown.size() && limited.hidden == 0;
    rows->push_back({prefix + Branch(last) + c.name, ScaleCell(c, file_mode), GpuCell(c.resources), Join(c.nodes, ",")});
    std::string child_prefix = prefix + Indent(last);
    PodRows(c.pods, child_prefix, o.pod_limit, !c.children.empty(), rows);
    ComponentRows(c.children, child_prefix, o, file_mode, rows);
  }
  if (limited.hidden > 0) {
    std::string note = "and " + std::to_string(limited.hidden) + " more components";
    std::vector<std::string> counts;
    if (limited.hidden_unhealthy > 0) counts.push_back(std::to_string(limited.hidden_unhealthy) + " unhealthy");
    if (limited.hidden_missing > 0) counts.push_back(std::to_string(limited.hidden_missing) + " with missing pods");
    if (!counts.empty()) note += " (" + Join(counts, ", ") + ")";
    rows->push_back({prefix + Branch(true) + "...", note, "", ""});
  }
}

std::string TrimLines(const std::string& text) {
  std::string out, line;
  for (char ch : text) {
    if (ch != '\n') {
      line += ch;
      continue;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    line.clear();
  }
  return out;
}

// A component is charged only what it requests beyond its children (whose totals roll up into it),
// so the rows sum to TOTAL; a grouping component that only repeats its children has no row.
DescribeResources OwnRequest(const DescribeComponent& c) {
  DescribeResources own = c.resources;
  for (const auto& child : c.children) {
    own.gpus -= child.resources.gpus;
    own.cpu_millis -= child.resources.cpu_millis;
    own.memory_bytes -= child.resources.memory_bytes;
  }
  return own;
}

bool IsGrouping(const DescribeComponent& c) {
  if (c.children.empty() || !c.pods.empty()) return false;
  int32_t replicas = 0;
  for (const auto& child : c.children) replicas += child.replicas.desired;
  return OwnRequest(c).Empty() && c.replicas.desired == replicas;
}

void ResourceRows(const std::vector<DescribeComponent>& components, Rows* rows, int32_t* replicas) {
  for (const auto& c : components) {
    if (!IsGrouping(c)) {
      DescribeResources own = OwnRequest(c);
      *replicas += c.replicas.desired;
      rows->push_back({c.name, std::to_string(c.replicas.desired), std::to_string(own.gpus),
                       workload::FormatCpuMillis(own.cpu_millis), workload::FormatMemoryBytes(own.memory_bytes)});
    }
    ResourceRows(c.children, rows, replicas);
  }
}

std::string Header(const DescribeView& view, int64_t now) {
  std::vector<std::string> fields = {view.kind + "/" + view.name, "namespace: " + OrNone(view.namespace_),
                                     "definition: " + view.definition + " (" + view.origin + ")"};
  if (!view.file_mode) {
    std::optional<int64_t> created = ParseRfc3339(view.created_at);
    fields.push_back("age: " + (created ? HumanDuration(now - *created) : std::string("<unknown>")));
  }
  std::string out = Join(fields, "   ") + "\n";
  if (view.file_mode) out += "(file mode: no live status)\n";
  return out;
}

// A DOT label of several lines: each line escaped, joined by DOT's "\n" line break.
std::string DotLabel(const std::vector<std::string>& lines) {
  std::string out = "\"";
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += "\\n";
    for (char ch : lines[i]) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
  }
  return out + "\"";
}

void DotComponents(const std::vector<DescribeComponent>& components, const std::string& parent, bool file_mode,
                   int* next_id, std::string* out) {
  for (const auto& c : components) {
    std::string id = "n" + std::to_string((*next_id)++);
    std::vector<std::string> lines = {c.name + (c.kind.empty() ? "" : " (" + c.kind + ")"), ScaleCell(c, file_mode)};
    if (c.resources.gpus != 0) lines.push_back("gpu: " + std::to_string(c.resources.gpus));
    *out += "  " + id + " [label=" + DotLabel(lines) + "];\n";
    *out += "  " + parent + " -> " + id + ";\n";
    DotComponents(c.children, id, file_mode, next_id, out);
  }
}

// The directory entry of PATH holding an executable `dot`, or "".
std::string FindOnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

}  // namespace

std::string RenderDescribeText(const DescribeView& view, const DescribeTextOptions& options) {
  std::string out = Header(view, options.now);
  if (!view.components.empty()) {
    Rows tree;
    ComponentRows(view.components, "", options, view.file_mode, &tree);
    out += "\n" + TrimLines(RenderTable(tree, kKubectlTable));
  }
  // Several status mappings can match at once; every matched phase is named.
  if (!view.file_mode) out += "\nPhase: " + Join(view.phases, ",") + "\n";
  Rows resources = {{"COMPONENT", "REPLICAS", "GPU", "CPU", "MEMORY"}};
  int32_t replicas = 0;
  ResourceRows(view.components, &resources, &replicas);
  const DescribeResources& total = view.resources;
  resources.push_back({"TOTAL", std::to_string(replicas), std::to_string(total.gpus),
                       workload::FormatCpuMillis(total.cpu_millis), workload::FormatMemoryBytes(total.memory_bytes)});
  out += "\nResources:\n" + RenderTable(resources, kKubectlTable);
  return out;
}

std::string RenderDescribeDot(const DescribeView& view) {
  std::vector<std::string> lines = {view.kind + "/" + view.name};
  if (!view.file_mode) lines.push_back("Phase: " + Join(view.phases, ","));
  if (view.resources.gpus != 0) lines.push_back("gpu: " + std::to_string(view.resources.gpus));
  std::string out = "digraph workload {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n";
  out += "  n0 [label=" + DotLabel(lines) + ", style=bold];\n";
  int next_id = 1;
  DotComponents(view.components, "n0", view.file_mode, &next_id, &out);
  return out + "}\n";
}

int RenderSvgWithDot(const std::string& dot_text) {
  std::string dot = FindOnPath("dot");
  if (dot.empty()) {
    std::fputs("error: graphviz 'dot' not found on PATH; use -o dot and render it elsewhere\n", stderr);
    return 2;
  }
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) {
    std::fprintf(stderr, "error: cannot run dot: %s\n", std::strerror(errno));
    return 1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  std::fflush(stdout);  // dot writes to our stdout directly
  char arg0[] = "dot", arg1[] = "-Tsvg";
  char* argv[] = {arg0, arg1, nullptr};
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, dot.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[0]);
  if (spawned != 0) {
    close(pipe_fds[1]);
    std::fprintf(stderr, "error: cannot run %s: %s\n", dot.c_str(), std::strerror(spawned));
    return 1;
  }
  // A dot that exits early must not kill wmc with SIGPIPE: its exit status tells what happened.
  struct sigaction ignore = {}, previous = {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous);
  for (size_t written = 0; written < dot_text.size();) {
    ssize_t n = write(pipe_fds[1], dot_text.data() + written, dot_text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  close(pipe_fds[1]);
  sigaction(SIGPIPE, &previous, nullptr);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  std::fprintf(stderr, "error: dot -Tsvg failed (%s %d)\n", WIFEXITED(status) ? "exit" : "signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
  return 1;
}

}  // namespace wm::tools
