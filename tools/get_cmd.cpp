// `wmc get (-f FILE|- | TYPE[/NAME] [NAME] | --all-types) [-n NS|-A] [--context C] [--kubeconfig K]
// [--phase P]... [-o table|wide|json|yaml] [--bundle B | --catalog DIR]`: workloads as `kli get`
// lists them: NAME NAMESPACE [TYPE] PHASE AGE [ORIGIN], newest first, PHASE the statuses
// workload::Resolve matched. Two sources feed one renderer: a file (a `kind: List`, `kubectl get -o
// json` output, or a multi-document YAML/JSON stream), or the cluster through the user's kubectl
// (tools/kubectl_source.h; TYPE resolved by tools/type_resolver.h). `--all-types` keeps only
// top-level workloads: an object whose controller owner chain reaches an object of a covered kind
// (matched by UID; live mode also fetches the uncovered owners in between, once per kind) is
// hidden. Kinds no definition covers are reported once each on stderr. Exit 0 listed (also when
// nothing matched), 1 kubectl failed or TYPE unknown/ambiguous, 2 usage, unreadable input or bundle.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/workload/workload.h"
#include "tools/bundle_source.h"
#include "tools/cli_output.h"
#include "tools/commands.h"
#include "tools/kube_time.h"
#include "tools/kubectl_source.h"
#include "tools/object_input.h"
#include "tools/type_resolver.h"

namespace wm::tools {
namespace {

// Every status a row can show, in the order `--phase` lists them.
const std::vector<std::string> kPhases = {"Initializing", "Running",   "Completed", "Failed",  "Suspended",
                                          "Suspending",   "Resuming",  "Degraded",  "Undefined"};

struct GetOptions {
  std::string file;
  std::vector<std::string> args;  // TYPE[/NAME] [NAME]: live mode
  KubectlOptions kubectl;
  std::vector<std::string> phases;
  bool all_types = false;
  std::string output = "table";
  std::string now;  // hidden --now RFC3339: the clock AGE is measured against (tests)
  BundleSourceOptions source;
};

// One resolved workload: kli's View plus what sorting and the owner walk need.
struct Row {
  std::string name, namespace_, kind, api_version, created_at, definition;
  std::optional<int64_t> created;  // seconds since the epoch; absent: unknown (sorts last)
  std::vector<std::string> phases;
  size_t object = 0;  // index in the input
};

const Value& Metadata(const Value& object) {
  static const Value kNull;
  const Value* m = object.IsObject() ? object.Find("metadata") : nullptr;
  return m && m->IsObject() ? *m : kNull;
}

// The UID of the controller ownerReference of `object`, or "".
std::string ControllerUid(const Value& object) {
  const Value& meta = Metadata(object);
  const Value* refs = meta.IsObject() ? meta.Find("ownerReferences") : nullptr;
  if (!refs || !refs->IsArray()) return "";
  for (const Value& ref : refs->AsArray()) {
    const Value* controller = ref.IsObject() ? ref.Find("controller") : nullptr;
    if (controller && controller->kind() == Kind::True) return StringField(ref, "uid");
  }
  return "";
}

// Whether the controller chain of objects[i] reaches an object of a covered kind in the input.
// Owners missing from the input end the walk (not claimed); a cycle ends it too.
bool OwnedByCoveredObject(const std::vector<Value>& objects, size_t i, const Bundle& bundle,
                          const std::unordered_map<std::string, size_t>& by_uid) {
  std::set<size_t> seen = {i};
  for (size_t current = i;;) {
    auto owner = by_uid.find(ControllerUid(objects[current]));
    if (owner == by_uid.end() || !seen.insert(owner->second).second) return false;
    const Value& o = objects[owner->second];
    if (bundle.FindDefinition(StringField(o, "apiVersion"), StringField(o, "kind"))) return true;
    current = owner->second;
  }
}

// Canonical spelling of each --phase value; false (after kli's usage error) for an unknown one.
bool NormalizePhases(std::vector<std::string>* phases) {
  for (std::string& p : *phases) {
    auto it = std::find_if(kPhases.begin(), kPhases.end(), [&](const std::string& k) { return EqualsIgnoreCase(k, p); });
    if (it == kPhases.end()) {
      std::string list;
      for (const auto& k : kPhases) list += (list.empty() ? "" : ", ") + k;
      std::fprintf(stderr, "error: invalid argument \"%s\" for \"--phase\" flag: must be one of %s\n", p.c_str(),
                   list.c_str());
      return false;
    }
    p = *it;
  }
  return true;
}

bool PassesPhaseFilter(const Row& row, const std::vector<std::string>& phases) {
  if (phases.empty()) return true;
  for (const auto& p : row.phases) {
    for (const auto& wanted : phases) {
      if (EqualsIgnoreCase(p, wanted)) return true;
    }
  }
  return false;
}

// The rows of every covered object (before filters), and the warnings for the others.
struct Collected {
  std::vector<Row> rows;
  std::vector<std::string> warnings;
};

Collected Collect(const std::vector<Value>& objects, size_t listed, const Bundle& bundle) {
  Collected out;
  std::map<std::string, size_t> uncovered;  // "apiVersion Kind" -> objects, reported once each
  std::vector<std::string> uncovered_order;
  for (size_t i = 0; i < listed; ++i) {
    const Value& o = objects[i];
    std::string api_version = StringField(o, "apiVersion"), kind = StringField(o, "kind");
    if (api_version.empty() || kind.empty()) {
      out.warnings.push_back("skipping object " + std::to_string(i + 1) +
                             " of the input: not a Kubernetes object (apiVersion and kind are required)");
      continue;
    }
    if (!bundle.FindDefinition(api_version, kind)) {
      std::string gvk = api_version + " " + kind;
      if (uncovered[gvk]++ == 0) uncovered_order.push_back(gvk);
      continue;
    }
    workload::ResolvedWorkload w;
    std::string error;
    if (!workload::Resolve(bundle, o, &w, &error)) {
      out.warnings.push_back("could not resolve " + kind + "/" + StringField(Metadata(o), "name") + ": " + error);
      continue;
    }
    Row row{w.name, w.namespace_, w.kind, w.api_version, StringField(Metadata(o), "creationTimestamp"),
            w.definition->name, std::nullopt, w.status.matched_statuses, i};
    row.created = ParseRfc3339(row.created_at);
    out.rows.push_back(std::move(row));
  }
  for (const auto& gvk : uncovered_order) {
    size_t n = uncovered[gvk];
    out.warnings.push_back("no Karta definition covers " + gvk + "; skipped " + std::to_string(n) +
                           (n == 1 ? " object" : " objects"));
  }
  return out;
}

void SortNewestFirst(std::vector<Row>* rows) {
  std::stable_sort(rows->begin(), rows->end(), [](const Row& a, const Row& b) {
    int64_t ta = a.created.value_or(INT64_MIN), tb = b.created.value_or(INT64_MIN);
    if (ta != tb) return ta > tb;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.name < b.name;
  });
}

// TYPE cell: the Kind, qualified as Kind.group when covered definitions of several groups share it.
std::string TypeOf(const Row& row, const Bundle& bundle) {
  std::set<std::string> groups;
  for (const auto& d : bundle.definitions()) {
    if (d.root().kind.kind == row.kind) groups.insert(d.root().kind.group);
  }
  std::string group = ApiGroup(row.api_version);
  return groups.size() < 2 || group.empty() ? row.kind : row.kind + "." + group;
}

void PrintTable(const std::vector<Row>& rows, bool type_column, const GetOptions& o, int64_t now,
                const LoadedBundle& loaded) {
  std::vector<std::string> header = {"NAME", "NAMESPACE"};
  if (type_column) header.push_back("TYPE");
  header.insert(header.end(), {"PHASE", "AGE"});
  if (o.output == "wide") header.push_back("ORIGIN");
  std::vector<std::vector<std::string>> table = {header};
  for (const Row& r : rows) {
    std::vector<std::string> cells = {r.name, r.namespace_};
    if (type_column) cells.push_back(TypeOf(r, *loaded.bundle));
    std::string phases;
    for (const auto& p : r.phases) phases += (phases.empty() ? "" : ",") + p;
    cells.push_back(phases);
    cells.push_back(r.created ? HumanDuration(now - *r.created) : "<unknown>");
    if (o.output == "wide") cells.push_back(loaded.origin);
    table.push_back(std::move(cells));
  }
  std::fputs(RenderTable(table, kKubectlTable).c_str(), stdout);
}

// kli's View: name, namespace, kind, apiVersion, createdAt, definition, origin, phases.
Value RowView(const Row& r, const std::string& origin) {
  auto S = [](std::string_view s) { return Value::String(s); };
  Array phases;
  for (const auto& p : r.phases) phases.push_back(S(p));
  return Value::MakeObject({{S("name"), S(r.name)},
                            {S("namespace"), S(r.namespace_)},
                            {S("kind"), S(r.kind)},
                            {S("apiVersion"), S(r.api_version)},
                            // Go's zero time, as kli marshals an unset creationTimestamp.
                            {S("createdAt"), S(r.created ? r.created_at : "0001-01-01T00:00:00Z")},
                            {S("definition"), S(r.definition)},
                            {S("origin"), S(origin)},
                            {S("phases"), Value::MakeArray(std::move(phases))}});
}

// What the renderer lists: objects[0, listed) are candidates for rows; the others are only there
// for the --all-types owner walk (live mode's owners of uncovered kinds).
struct GetInput {
  std::vector<Value> objects;
  size_t listed = 0;
  bool by_name = false;    // TYPE NAME: json/yaml print the one View, not a list
  std::string empty_note = "No workloads found.";
};

bool ReadFileInput(const GetOptions& o, GetInput* input, std::string* error) {
  std::vector<Value> documents;
  if (!ReadObjects(o.file, &documents, error)) return false;
  input->objects = FlattenLists(documents);
  input->listed = input->objects.size();
  return true;
}

// The cluster's objects of TYPE (or of every covered type the cluster serves, for --all-types).
int ReadLiveInput(const GetOptions& o, const Bundle& bundle, GetInput* input) {
  std::vector<base::GroupVersionKind> covered = CoveredKinds(bundle);
  FetchError error;
  bool ok = true;
  if (o.all_types) {
    std::vector<ResolvedType> installed;
    ok = InstalledTypes(o.kubectl, AllCoveredTypes(covered), &installed, &error) &&
         FetchObjectsOfTypes(o.kubectl, installed, &input->objects, &error);
  } else {
    std::string token;
    std::optional<std::string> name;
    if (!SplitTypeArgs(o.args, "get", &token, &name)) return 2;
    TypeError type_error;
    std::optional<ResolvedType> type = ResolveType(covered, token, &type_error);
    if (!type) {
      std::fprintf(stderr, "error: %s\n", type_error.message.c_str());
      return 1;
    }
    input->by_name = name.has_value();
    ok = FetchObjects(o.kubectl, *type, name, &input->objects, &error);
  }
  if (!ok) {
    std::fprintf(stderr, "error: %s\n", error.message.c_str());
    return error.exit_code;
  }
  input->listed = input->objects.size();
  if (o.all_types) FetchMissingOwners(o.kubectl, &input->objects);
  if (o.kubectl.all_namespaces) input->empty_note = "No workloads found in any namespace.";
  else if (!o.kubectl.namespace_.empty()) input->empty_note = "No workloads found in namespace " + o.kubectl.namespace_ + ".";
  return 0;
}

// Which source the options select; false after a usage error.
bool CheckSource(const GetOptions& o) {
  bool live_flags = !o.kubectl.namespace_.empty() || o.kubectl.all_namespaces || !o.kubectl.context.empty() ||
                    !o.kubectl.kubeconfig.empty();
  if (!o.file.empty() && (!o.args.empty() || live_flags)) {
    std::fprintf(stderr, "error: -f reads a file: TYPE, -n, -A, --context and --kubeconfig read the cluster\n");
    return false;
  }
  if (o.file.empty() && o.all_types != o.args.empty()) {
    std::fprintf(stderr, o.all_types ? "error: give a TYPE or --all-types, not both\n"
                                     : "error: a TYPE, --all-types or -f FILE is required\n");
    return false;
  }
  return true;
}

// Rows of the input after the filters, newest first.
std::vector<Row> FilteredRows(const GetOptions& o, const GetInput& input, const Bundle& bundle,
                              Collected* collected) {
  std::unordered_map<std::string, size_t> by_uid;
  for (size_t i = 0; i < input.objects.size(); ++i) {
    std::string uid = StringField(Metadata(input.objects[i]), "uid");
    if (!uid.empty()) by_uid.emplace(uid, i);
  }
  std::vector<Row> rows;
  for (Row& r : collected->rows) {
    if (!PassesPhaseFilter(r, o.phases)) continue;
    if (o.all_types && OwnedByCoveredObject(input.objects, r.object, bundle, by_uid)) continue;
    rows.push_back(std::move(r));
  }
  SortNewestFirst(&rows);
  return rows;
}

void Render(const GetOptions& o, const GetInput& input, const LoadedBundle& loaded, int64_t now) {
  Collected collected = Collect(input.objects, input.listed, *loaded.bundle);
  std::set<std::string> kinds;
  for (const Row& r : collected.rows) kinds.insert(r.api_version + " " + r.kind);
  bool type_column = o.all_types || kinds.size() > 1;
  std::vector<Row> rows = FilteredRows(o, input, *loaded.bundle, &collected);

  if ((o.output == "json" || o.output == "yaml") && input.by_name && rows.size() == 1) {
    PrintStructured(RowView(rows.front(), loaded.origin), o.output);
  } else if (o.output == "json" || o.output == "yaml") {
    Array items;
    for (const Row& r : rows) items.push_back(RowView(r, loaded.origin));
    PrintStructured(ListEnvelope(std::move(items)), o.output);
  } else if (rows.empty()) {
    std::fprintf(stderr, "%s\n", input.empty_note.c_str());
  } else {
    PrintTable(rows, type_column, o, now, loaded);
  }
  // Warnings go out last, after the rows, so a long table cannot scroll them out of view.
  std::fflush(stdout);
  for (const auto& w : collected.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
}

int RunGet(const GetOptions& opts) {
  GetOptions o = opts;
  if (!CheckSource(o)) return 2;
  if (!CheckOutputFormat("error", o.output, {"table", "wide", "json", "yaml"})) return 2;
  if (!NormalizePhases(&o.phases)) return 2;
  int64_t now = static_cast<int64_t>(std::time(nullptr));
  if (!o.now.empty()) {
    auto parsed = ParseRfc3339(o.now);
    if (!parsed) {
      std::fprintf(stderr, "error: --now: \"%s\" is not an RFC 3339 time\n", o.now.c_str());
      return 2;
    }
    now = *parsed;
  }
  LoadedBundle loaded;
  std::string error;
  if (!LoadBundle(o.source, &loaded, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 2;
  }
  GetInput input;
  if (!o.file.empty()) {
    if (!ReadFileInput(o, &input, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
  } else if (int code = ReadLiveInput(o, *loaded.bundle, &input); code != 0) {
    return code;
  }
  Render(o, input, loaded, now);
  return 0;
}

}  // namespace

void AddGetCommand(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<GetOptions>();
  auto* cmd = app.add_subcommand("get", "List workloads with their phase, from a file or the cluster (kli get)");
  // KIND: the completion scripts offer the catalog's kinds (plurals and short names work too).
  cmd->add_option("type", o->args, "TYPE[/NAME] [NAME]: read the cluster through kubectl")
      ->type_name("KIND");
  cmd->add_option("-f,--filename", o->file,
                  "Objects to list: a kind: List, kubectl get -o json output or a multi-document "
                  "YAML/JSON stream; - for stdin")
      ->type_name("FILE");
  std::string phases;
  for (const auto& p : kPhases) phases += (phases.empty() ? "" : ",") + p;
  cmd->add_option("--phase", o->phases, "Keep workloads in this phase; repeatable")
      ->type_name("{" + phases + "}")
      ->allow_extra_args(false);
  cmd->add_flag("--all-types", o->all_types,
                "Every covered type (from the cluster without -f); only top-level workloads: hide "
                "objects whose controller owner chain reaches a covered object");
  cmd->add_option("-o,--output", o->output, "Output format")->type_name("{table,wide,json,yaml}");
  cmd->add_option("--now", o->now, "Time AGE is measured against (RFC 3339; for tests)")->group("");
  AddKubectlOptions(cmd, &o->kubectl);
  AddBundleOptions(cmd, &o->source);
  cmd->callback([o, exit_code] { *exit_code = RunGet(*o); });
}

}  // namespace wm::tools
