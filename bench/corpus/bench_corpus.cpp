// bench_corpus: the seeded benchmark corpus of issue 17. For one catalog kind (a definition name
// of the compiled catalog, e.g. jobset-x-k8s-io-jobset-v1alpha2, or `all`) it writes N realistic
// workload objects as NDJSON, varied from that kind's catalog/examples (names, replicas, containers,
// resources, conditions, status counts, labels, last-applied annotation), and the kind's resolver
// list (every jq expression of the definition that runs on the workload object, one per line).
//
//   bench_corpus --bundle build/share/wmc/catalog.wmb --examples catalog/examples
//       --kind all --count 1000 --seed 1 --out-dir build/bench-corpus   (one command line)
//   bench_corpus ... --kind K -o K.ndjson --exprs-out K.exprs
// Same seed, same bytes: the generator uses its own PRNG (splitmix64), never std distributions.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/file.h"
#include "runtime/bundle/bundle.h"
#include "runtime/value/json.h"
#include "tools/object_input.h"

namespace {

namespace fs = std::filesystem;
using wm::Value;

struct CorpusOptions {
  std::string bundle_path;
  std::string examples_dir;
  std::string kind;  // definition name or "all"
  size_t count = 1000;
  uint64_t seed = 1;
  std::string output;     // NDJSON file (one kind)
  std::string exprs_out;  // resolver list file (one kind)
  std::string out_dir;    // `all`: <dir>/<kind>.ndjson and <dir>/<kind>.exprs
};

// splitmix64: tiny, portable, and identical on every platform and standard library.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  bool Chance(int percent) { return Below(100) < static_cast<uint64_t>(percent); }
  template <class T, size_t N>
  const T& Pick(const T (&items)[N]) { return items[Below(N)]; }

 private:
  uint64_t state_;
};

uint64_t HashText(std::string_view text) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

const char* const kWords[] = {"alpha", "bravo", "llama", "vision", "ranker", "embed", "train",
                              "serve", "eval", "search", "speech", "retrieval", "tuner", "batch"};
const char* const kNamespaces[] = {"default", "research", "prod", "ml-team", "inference", "kubeflow"};
const char* const kCpus[] = {"500m", "1", "2", "4", "8", "16", "32"};
const char* const kMemories[] = {"512Mi", "2Gi", "8Gi", "32Gi", "64Gi", "256Gi"};
const char* const kGpus[] = {"1", "1", "2", "4", "8", "8"};

// Keys whose integer values are desired sizes (spec side) or observed counts (status side).
bool IsScaleKey(std::string_view key) {
  static const std::set<std::string_view> keys = {
      "replicas", "parallelism", "completions", "minReplicas", "maxReplicas", "numOfHosts",
      "size", "minAvailable", "minMember", "workerReplicas", "numWorkers", "slotsPerWorker"};
  return keys.count(key) > 0;
}
bool IsStatusCountKey(std::string_view key) {
  static const std::set<std::string_view> keys = {
      "ready", "active", "succeeded", "failed", "suspended", "readyReplicas", "availableReplicas",
      "updatedReplicas", "currentReplicas", "unavailableReplicas", "running", "pending",
      "restarts", "readyWorkerReplicas", "availableWorkerReplicas", "desiredWorkerReplicas"};
  return keys.count(key) > 0;
}

// Varies one template object; `path` is the key path from the root ("spec/template/...").
class Mutator {
 public:
  Mutator(Rng& rng, size_t index) : rng_(rng), index_(index) {}

  Value Object(const wm::Value& v, const std::string& path) {
    std::vector<wm::Member> members;
    for (const wm::Member& m : v.AsObject()) {
      std::string key(m.first.AsString());
      members.emplace_back(m.first, Field(key, m.second, path + "/" + key));
    }
    return wm::Value::MakeObject(std::move(members));
  }

 private:
  Value Field(const std::string& key, const wm::Value& v, const std::string& path) {
    bool in_status = path.rfind("/status", 0) == 0;
    if (v.IsNumber() && IsScaleKey(key) && !in_status) return Number(1 + rng_.Below(8));
    if (v.IsNumber() && (IsStatusCountKey(key) || (in_status && IsScaleKey(key))))
      return Number(rng_.Below(9));
    if (v.IsString()) return String(key, v, path);
    if (v.IsArray()) return List(key, v, path);
    if (v.IsObject()) {
      wm::Value out = Object(v, path);
      if (key == "resources") return Resources(out);
      if (key == "metadata") return Metadata(out, path == "/metadata");
      return out;
    }
    return v;
  }

  Value String(const std::string& key, const wm::Value& v, const std::string& path) {
    if (path == "/metadata/name") return wm::Value::String(Name());
    if (path == "/metadata/namespace") return wm::Value::String(rng_.Pick(kNamespaces));
    if (path == "/metadata/uid") return wm::Value::String(Uid());
    if (path == "/metadata/resourceVersion")
      return wm::Value::String(std::to_string(100000 + rng_.Below(900000)));
    // Condition status flips: the corpus covers running, failed, suspended and pending shapes.
    if (key == "status" && (v.AsString() == "True" || v.AsString() == "False") && rng_.Chance(25))
      return wm::Value::String(v.AsString() == "True" ? "False" : "True");
    if (key == "image") return wm::Value::String(std::string(v.AsString()) + "-" + std::to_string(rng_.Below(5)));
    return v;
  }

  Value List(const std::string& key, const wm::Value& v, const std::string& path) {
    wm::Array items;
    for (const wm::Value& item : v.AsArray()) items.push_back(Field(key, item, path));
    // Pods with sidecars and definitions with more roles: copy a named element under a new name.
    bool named_spec_list = path.rfind("/spec", 0) == 0 && !items.empty() &&
                           items.front().IsObject() && items.front().Find("name") != nullptr;
    if (named_spec_list && (key == "containers" || rng_.Chance(20))) {
      wm::Value extra = items[rng_.Below(items.size())];
      extra.Set("name", wm::Value::String(std::string(extra.Find("name")->IsString()
                                                          ? extra.Find("name")->AsString()
                                                          : "item") + "-" + rng_.Pick(kWords)));
      items.push_back(std::move(extra));
    }
    return wm::Value::MakeArray(std::move(items));
  }

  Value Resources(wm::Value resources) {
    for (const char* side : {"limits", "requests"}) {
      const wm::Value* quantities = resources.Find(side);
      wm::Value q = quantities != nullptr && quantities->IsObject() ? *quantities : wm::Value::EmptyObject();
      q.Set("cpu", wm::Value::String(rng_.Pick(kCpus)));
      q.Set("memory", wm::Value::String(rng_.Pick(kMemories)));
      if (q.Find("nvidia.com/gpu") != nullptr || rng_.Chance(40))
        q.Set("nvidia.com/gpu", wm::Value::String(rng_.Pick(kGpus)));
      resources.Set(side, std::move(q));
    }
    return resources;
  }

  // Labels and annotations as controllers and kubectl leave them (about 1 KB per object).
  Value Metadata(wm::Value metadata, bool top) {
    const wm::Value* labels = metadata.Find("labels");
    wm::Value l = labels != nullptr && labels->IsObject() ? *labels : wm::Value::EmptyObject();
    l.Set("team", wm::Value::String(rng_.Pick(kWords)));
    l.Set("app.kubernetes.io/part-of", wm::Value::String(rng_.Pick(kWords)));
    metadata.Set("labels", std::move(l));
    if (top) {
      metadata.Set("generation", Number(1 + rng_.Below(6)));
      metadata.Set("creationTimestamp", wm::Value::String(Timestamp()));
      const wm::Value* annotations = metadata.Find("annotations");
      wm::Value a = annotations != nullptr && annotations->IsObject() ? *annotations : wm::Value::EmptyObject();
      a.Set("kubectl.kubernetes.io/last-applied-configuration",
            wm::Value::String("{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"" + Name() +
                              "\",\"labels\":{\"team\":\"" + rng_.Pick(kWords) +
                              "\"}},\"spec\":" + std::string(200 + rng_.Below(600), ' ') + "{}}"));
      metadata.Set("annotations", std::move(a));
    }
    return metadata;
  }

  std::string Name() {
    return std::string(rng_.Pick(kWords)) + "-" + rng_.Pick(kWords) + "-" + std::to_string(index_);
  }
  std::string Uid() {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%08llx-%04llx-4%03llx-a%03llx-%012llx",
                  static_cast<unsigned long long>(rng_.Below(1ULL << 32)),
                  static_cast<unsigned long long>(rng_.Below(1 << 16)),
                  static_cast<unsigned long long>(rng_.Below(1 << 12)),
                  static_cast<unsigned long long>(rng_.Below(1 << 12)),
                  static_cast<unsigned long long>(rng_.Below(1ULL << 48)));
    return buffer;
  }
  std::string Timestamp() {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "2026-%02d-%02dT%02d:%02d:%02dZ", 1 + static_cast<int>(rng_.Below(12)),
                  1 + static_cast<int>(rng_.Below(28)), static_cast<int>(rng_.Below(24)),
                  static_cast<int>(rng_.Below(60)), static_cast<int>(rng_.Below(60)));
    return buffer;
  }
  static wm::Value Number(uint64_t n) { return wm::Value::Number(static_cast<double>(n)); }

  Rng& rng_;
  size_t index_;
};

// Every example object of catalog/examples (not pods/) whose apiVersion and kind match.
std::vector<wm::Value> ExamplesOf(const std::string& dir, const wm::base::GroupVersionKind& gvk) {
  std::string api_version = gvk.group.empty() ? gvk.version : gvk.group + "/" + gvk.version;
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<wm::Value> matching;
  for (const std::string& file : files) {
    std::vector<wm::Value> objects;
    std::string error;
    if (!wm::tools::ReadObjects(file, &objects, &error)) {
      std::fprintf(stderr, "bench_corpus: %s\n", error.c_str());
      continue;
    }
    for (wm::Value& object : objects) {
      const wm::Value* av = object.IsObject() ? object.Find("apiVersion") : nullptr;
      const wm::Value* k = object.IsObject() ? object.Find("kind") : nullptr;
      if (av && k && av->IsString() && k->IsString() && av->AsString() == api_version &&
          k->AsString() == gvk.kind) {
        matching.push_back(std::move(object));
      }
    }
  }
  return matching;
}

// The resolvers of `def` that run on the workload object while resolving it: instance ids, pod
// shapes, scales and statuses of every component. Pod-side selectors and gang filters run on Pod
// objects and write paths are path programs, so neither is listed. Resolvers are shared across
// definitions (one per distinct role and text), hence the walk over the definition itself.
std::vector<int32_t> WorkloadResolvers(const wm::catalog::Definition& def) {
  std::vector<int32_t> ids;
  for (const wm::catalog::Component& c : def.components) {
    for (int32_t id : {c.instance_id, c.pod_template_spec, c.pod_spec, c.pod_metadata, c.replicas,
                       c.min_replicas, c.max_replicas, c.status.phase_path, c.status.conditions_path}) {
      ids.push_back(id);
    }
    for (const auto& [name, id] : c.fragmented) ids.push_back(id);
    for (const auto& [status, matchers] : c.status.mappings) {
      for (const wm::catalog::StatusMatcher& m : matchers) ids.push_back(m.by_expression);
    }
  }
  return ids;
}

std::string ResolverList(const wm::Bundle& bundle, const wm::catalog::Definition& def) {
  std::string out = "# resolvers of " + def.name + " that run on the workload object\n";
  std::set<std::string> seen;
  for (int32_t id : WorkloadResolvers(def)) {
    if (id == wm::catalog::kNoResolver) continue;
    std::string one_line = bundle.resolver_info(id).source;
    for (char& c : one_line) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    if (seen.insert(one_line).second) out += one_line + "\n";
  }
  return out;
}

bool GenerateKind(const wm::Bundle& bundle, const wm::catalog::Definition& def,
                  const CorpusOptions& options, const std::string& ndjson_path,
                  const std::string& exprs_path) {
  std::vector<wm::Value> examples = ExamplesOf(options.examples_dir, def.root().kind);
  if (examples.empty()) {
    std::fprintf(stderr, "bench_corpus: no example of %s in %s\n", def.name.c_str(),
                 options.examples_dir.c_str());
    return false;
  }
  Rng rng(options.seed ^ HashText(def.name));
  std::string text;
  for (size_t i = 0; i < options.count; ++i) {
    const wm::Value& templ = examples[rng.Below(examples.size())];
    Mutator mutator(rng, i);
    wm::WriteJson(mutator.Object(templ, ""), &text);
    text.push_back('\n');
  }
  std::string error;
  if (!wm::base::WriteFileAtomically(ndjson_path, text, &error) ||
      (!exprs_path.empty() && !wm::base::WriteFileAtomically(exprs_path, ResolverList(bundle, def), &error))) {
    std::fprintf(stderr, "bench_corpus: %s\n", error.c_str());
    return false;
  }
  std::fprintf(stderr, "%s: %zu objects, %zu bytes\n", def.name.c_str(), options.count, text.size());
  return true;
}

int Usage() {
  std::fprintf(stderr,
               "usage: bench_corpus --bundle FILE.wmb --examples DIR --kind NAME|all [--count N] "
               "[--seed S] (-o FILE.ndjson [--exprs-out FILE] | --out-dir DIR)\n");
  return 2;
}

bool ParseArgs(int argc, char** argv, CorpusOptions* options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    std::string value = argv[++i];
    if (arg == "--bundle") options->bundle_path = value;
    else if (arg == "--examples") options->examples_dir = value;
    else if (arg == "--kind") options->kind = value;
    else if (arg == "--count") options->count = std::stoul(value);
    else if (arg == "--seed") options->seed = std::stoull(value);
    else if (arg == "-o") options->output = value;
    else if (arg == "--exprs-out") options->exprs_out = value;
    else if (arg == "--out-dir") options->out_dir = value;
    else return false;
  }
  bool one = options->kind != "all" && !options->output.empty();
  bool all = !options->out_dir.empty();
  return !options->bundle_path.empty() && !options->examples_dir.empty() && !options->kind.empty() &&
         (one || all);
}

}  // namespace

int main(int argc, char** argv) {
  CorpusOptions options;
  try {
    if (!ParseArgs(argc, argv, &options)) return Usage();
  } catch (const std::exception&) {
    return Usage();
  }
  std::string error;
  wm::BundleLoadOptions load;
  load.use_native = false;
  std::shared_ptr<wm::Bundle> bundle = wm::Bundle::Open(options.bundle_path, &error, load);
  if (!bundle) {
    std::fprintf(stderr, "bench_corpus: %s\n", error.c_str());
    return 2;
  }
  if (!options.out_dir.empty()) fs::create_directories(options.out_dir);
  bool ok = true, found = false;
  for (const wm::catalog::Definition& def : bundle->definitions()) {
    if (options.kind != "all" && def.name != options.kind) continue;
    found = true;
    std::string base = options.out_dir.empty() ? "" : options.out_dir + "/" + def.name;
    ok &= GenerateKind(*bundle, def, options, base.empty() ? options.output : base + ".ndjson",
                       base.empty() ? options.exprs_out : base + ".exprs");
  }
  if (!found) std::fprintf(stderr, "bench_corpus: no definition named %s\n", options.kind.c_str());
  return ok && found ? 0 : 1;
}
