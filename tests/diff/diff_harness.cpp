// Differential-test machinery: case comparison, mismatch categories, shrinking, watchdog (see
// diff_harness.h).
#include "tests/diff/diff_harness.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string_view>

#include "runtime/value/json.h"
#include "tests/diff/jq_text.h"

namespace wm::diff {

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  return (end != nullptr && *end == '\0') ? value : fallback;
}

std::string Classify(const RunOutcome& oracle, const RunOutcome& engine) {
  if (engine.limit) return "limit";
  if (oracle.truncated != engine.truncated) return "truncation";
  if (oracle.outputs != engine.outputs) return "outputs";
  if (oracle.error != engine.error) return engine.error ? "wm-error" : "wm-no-error";
  return "";
}

std::string Describe(const RunOutcome& outcome) {
  if (!outcome.compiled) return "    (rejected) " + outcome.error_message + "\n";
  std::string out;
  size_t shown = 0;
  for (const std::string& o : outcome.outputs) {
    if (++shown > 12) {
      out += "    ... " + std::to_string(outcome.outputs.size() - 12) + " more outputs\n";
      break;
    }
    out += "    " + (o.size() > 300 ? o.substr(0, 300) + "..." : o) + "\n";
  }
  if (outcome.truncated) out += "    (truncated at the output cap)\n";
  if (outcome.error) {
    out += std::string("    error") + (outcome.limit ? " (limit)" : "") + ": " + outcome.error_message + "\n";
  }
  if (out.empty()) out = "    (no output)\n";
  return out;
}

std::vector<Mismatch> RunCase(LibjqOracle& oracle, const PreparedProgram& prepared,
                              const std::string& input_json, const Value& input,
                              size_t max_outputs, CaseInfo* info) {
  std::vector<Mismatch> mismatches;
  *info = CaseInfo{};
  RunOutcome expected = oracle.Run(prepared.text, input_json);
  if (!expected.compiled) {
    info->skipped = true;
    return mismatches;
  }
  info->libjq_error = expected.error;
  auto add = [&](const char* engine, const std::string& kind, RunOutcome got) {
    mismatches.push_back({engine, kind, prepared.text, input_json, expected, std::move(got)});
  };
  if (prepared.program == nullptr) {
    RunOutcome rejected;
    rejected.compiled = false;
    rejected.error_message = prepared.front_end_error;
    add("front-end", "rejected", rejected);
    return mismatches;
  }
  struct EngineRef {
    const char* name;
    const Filter* filter;
    const std::string* failure;  // why the engine has no filter although it should
  };
  std::vector<EngineRef> engines = {{kInterp, prepared.interp.get(), nullptr}};
  if (prepared.native_supported || prepared.native_requested) {  // a refusal is a failure
    engines.push_back({kJit, prepared.jit.get(), &prepared.jit_error});
    engines.push_back({kAot, prepared.aot.get(), &prepared.aot_error});
  }
  RunOutcome interp_outcome;
  for (const EngineRef& engine : engines) {
    if (engine.filter == nullptr) {
      if (engine.failure != nullptr && !engine.failure->empty()) {
        RunOutcome failed;
        failed.compiled = false;
        failed.error_message = *engine.failure;
        add(engine.name, "compile-failure", failed);
      }
      continue;
    }
    RunOutcome got = RunFilter(*engine.filter, input, max_outputs);
    if (std::string_view(engine.name) == kInterp) interp_outcome = got;
    std::string kind = Classify(expected, got);
    if (kind.empty() && got.error && got.error_message != expected.error_message) {
      ++info->message_differences;
    }
    if (!kind.empty()) add(engine.name, kind, std::move(got));
  }
  // The view engine, with and without native code, must equal the interpreter exactly (messages
  // included), and so libjq too.
  const std::pair<const view::FusedKind*, const char*> views[] = {{prepared.view.get(), kView},
                                                                  {prepared.view_native.get(), kViewNative}};
  for (const auto& [view_kind, name] : views) {
    if (view_kind == nullptr) continue;
    RunOutcome got = RunView(*view_kind, input_json, max_outputs);
    std::string kind = Classify(expected, got);
    bool same_as_interp = got.outputs == interp_outcome.outputs && got.error == interp_outcome.error &&
                          got.error_message == interp_outcome.error_message &&
                          got.truncated == interp_outcome.truncated;
    if (kind.empty() && !same_as_interp) kind = std::string(name) + "-differs-from-interp";
    if (kind.empty() && got.error && got.error_message != expected.error_message) ++info->message_differences;
    if (!kind.empty()) add(name, kind, std::move(got));
  }
  return mismatches;
}

namespace {

// Removes digits and the contents of quotes and parentheses so that messages differing only in
// the values involved fall into one category.
std::string MessageShape(const std::string& message) {
  std::string out;
  char quote = 0;
  int paren = 0;
  for (char c : message) {
    if (paren > 0) {  // values inside parentheses: `array ([1,"a"]) ...`
      if (c == '(') ++paren;
      if (c == ')') --paren;
      continue;
    }
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"') {
      quote = c;
      out += "\"…\"";
      continue;
    }
    if (c == '(') {
      ++paren;
      out += "(…)";
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (out.empty() || out.back() != '#') out += '#';
      continue;
    }
    out += c;
    if (out.size() > 70) break;
  }
  return out;
}

std::string Line(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '\n') ? ' ' : c;
  return out;
}

std::string Report(const Mismatch& m) {
  std::string out;
  out += "  engine:  " + m.engine + " (" + m.kind + ")\n";
  out += "  program: " + m.program + "\n";
  out += "  input:   " + m.input + "\n";
  out += "  libjq 1.6:\n" + Describe(m.oracle);
  out += "  wm " + m.engine + ":\n" + Describe(m.engine_outcome);
  return out;
}

}  // namespace

std::string CategoryKey(const Mismatch& m) {
  std::string key = m.kind;
  if (!m.engine_outcome.compiled || m.engine_outcome.error) {
    key += " / wm: " + MessageShape(m.engine_outcome.error_message);
  }
  if (m.oracle.error && m.kind != "wm-error") {
    key += " / libjq: " + MessageShape(m.oracle.error_message);
  }
  return key;
}

void MismatchLog::Add(Mismatch m) {
  ++total_;
  if (total_ <= print_limit_) {
    std::fprintf(stderr, "MISMATCH #%zu\n%s", total_, Report(m).c_str());
  }
  std::string key = CategoryKey(m);
  auto found = categories_.find(key);
  if (found == categories_.end()) {
    Category category;
    category.count = 1;
    category.engines.insert(m.engine);
    category.example = std::move(m);
    categories_.emplace(key, std::move(category));
    return;
  }
  Category& category = found->second;
  ++category.count;
  category.engines.insert(m.engine);
  // Keep the shortest example (the cheapest to shrink and to read), preferring the reference
  // engine: a bug shared by every engine is usually in the front end or lowering.
  bool interp_first = m.engine == kInterp && category.example.engine != kInterp;
  if (interp_first || (m.engine == category.example.engine &&
                       m.program.size() + m.input.size() <
                           category.example.program.size() + category.example.input.size())) {
    category.example = std::move(m);
  }
}

std::string MismatchLog::Summary(LibjqOracle& oracle, const EngineOptions& options) {
  std::string out = std::to_string(total_) + " mismatches in " + std::to_string(categories_.size()) +
                    " categories (kind / message shapes), one shrunk reproducer each:\n";
  std::vector<std::pair<std::string, Category*>> ordered;
  for (auto& [key, category] : categories_) ordered.push_back({key, &category});
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.second->count > b.second->count; });
  // Shrinking costs a libjq compilation and engine compilations per attempt: bound the total
  // time (WM_DIFF_SHRINK_SECONDS, default 20) so a failing run still ends quickly.
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::seconds(EnvInt("WM_DIFF_SHRINK_SECONDS", 20));
  for (auto& [key, category] : ordered) {
    bool in_time = std::chrono::steady_clock::now() < deadline;
    Mismatch m = in_time ? Shrink(category->example, oracle, options, 40, deadline) : category->example;
    std::string engines;
    for (const std::string& e : category->engines) engines += (engines.empty() ? "" : ",") + e;
    out += "\n[" + std::to_string(category->count) + "x, engines " + engines + "] " + key + "\n";
    out += "  repro:   jq -c '" + m.program + "' <<< '" + Line(m.input) + "'\n";
    out += Report(m);
  }
  return out;
}

namespace {

// Balanced bracket groups of a jq program's code (string literal text and the parentheses of
// interpolations are not groups): (open, close) index pairs.
std::vector<std::pair<size_t, size_t>> Groups(const std::string& p) {
  std::string code = CodeOnly(p);
  std::vector<std::pair<size_t, size_t>> groups;
  std::vector<size_t> stack;
  for (size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c == '(' || c == '[' || c == '{') {
      stack.push_back(i);
    } else if (c == ')' || c == ']' || c == '}') {
      if (stack.empty()) return groups;
      groups.push_back({stack.back(), i});
      stack.pop_back();
    }
  }
  return groups;
}

// Top-level (outside every bracket and interpolation) split points of `|` and `,` in the program.
std::vector<size_t> TopLevelSeparators(const std::string& p) {
  std::string code = CodeOnly(p);
  std::vector<size_t> at;
  int depth = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c == '(' || c == '[' || c == '{' || c == kInterpolationOpen) {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}' || c == kInterpolationClose) {
      --depth;
    } else if (depth == 0 && (c == '|' || c == ',') &&
               !(c == '|' && i + 1 < code.size() && code[i + 1] == '=')) {
      if (c == '|' && i > 0 && (code[i - 1] == '|')) continue;
      at.push_back(i);
    }
  }
  return at;
}

std::vector<std::string> ProgramCandidates(const std::string& p) {
  std::vector<std::string> out;
  for (auto [open, close] : Groups(p)) {
    std::string inner = p.substr(open + 1, close - open - 1);
    if (p[open] != '{') out.push_back(inner);
    out.push_back(p.substr(0, open) + (p[open] == '(' ? "(.)" : p[open] == '[' ? "[]" : "{}") +
                  p.substr(close + 1));
    out.push_back(p.substr(0, open) + p.substr(close + 1));
  }
  std::vector<size_t> seps = TopLevelSeparators(p);
  size_t begin = 0;
  for (size_t i = 0; i <= seps.size(); ++i) {
    size_t end = i < seps.size() ? seps[i] : p.size();
    out.push_back(p.substr(begin, end - begin));
    if (i < seps.size()) out.push_back(p.substr(0, begin) + p.substr(end + 1));
    begin = end + 1;
  }
  for (std::string& s : out) {
    size_t a = s.find_first_not_of(' ');
    size_t b = s.find_last_not_of(' ');
    s = a == std::string::npos ? "" : s.substr(a, b - a + 1);
  }
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return a.size() < b.size();
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const std::string& s) { return s.empty() || s.size() >= p.size(); }),
            out.end());
  return out;
}

std::vector<std::string> InputCandidates(const std::string& json) {
  std::vector<std::string> out;
  Value v;
  JsonError error;
  if (!ParseJson(json, &v, &error)) return out;
  if (v.IsArray()) {
    for (const Value& e : v.AsArray()) out.push_back(ToJson(e));
    Array fewer = v.AsArray();
    for (size_t i = 0; i < fewer.size(); ++i) {
      Array copy = fewer;
      copy.erase(copy.begin() + static_cast<long>(i));
      out.push_back(ToJson(Value::MakeArray(copy)));
    }
  } else if (v.IsObject()) {
    for (const Member& m : v.AsObject()) out.push_back(ToJson(m.second));
    for (size_t i = 0; i < v.AsObject().size(); ++i) {
      Value copy = v;
      copy.Erase(v.AsObject()[i].first.AsString());
      out.push_back(ToJson(copy));
    }
  }
  out.push_back("null");
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return a.size() < b.size();
  });
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const std::string& s) { return s.size() >= json.size(); }),
            out.end());
  return out;
}

// True when `candidate` still shows the same disagreement as `m` (same engine, same kind).
bool StillMismatches(const Mismatch& m, const std::string& program, const std::string& input,
                     LibjqOracle& oracle, const EngineOptions& options, Mismatch* out) {
  if (!oracle.Compiles(program)) return false;
  EngineOptions opts = options;
  opts.enable_jit = m.engine == kJit;
  std::unique_ptr<PreparedProgram> prepared = Prepare(program, opts);
  if (m.engine == kAot && prepared->program != nullptr && prepared->native_supported) {
    AotBatch batch;
    batch.Add(prepared.get());
    std::string error;
    batch.Build(&error);
  }
  Value parsed;
  std::string error;
  if (!ParseInput(input, &parsed, &error)) return false;
  CaseInfo info;
  for (Mismatch& found : RunCase(oracle, *prepared, input, parsed, options.max_outputs, &info)) {
    if (found.engine == m.engine && CategoryKey(found) == CategoryKey(m)) {
      *out = std::move(found);
      return true;
    }
  }
  return false;
}

}  // namespace

Mismatch Shrink(const Mismatch& m, LibjqOracle& oracle, const EngineOptions& options, int budget,
                std::chrono::steady_clock::time_point deadline) {
  Mismatch best = m;
  bool progress = true;
  while (progress && budget > 0 && std::chrono::steady_clock::now() < deadline) {
    progress = false;
    for (const std::string& candidate : ProgramCandidates(best.program)) {
      if (budget-- <= 0 || std::chrono::steady_clock::now() >= deadline) break;
      Mismatch found;
      if (StillMismatches(best, candidate, best.input, oracle, options, &found)) {
        best = std::move(found);
        progress = true;
        break;
      }
    }
    for (const std::string& candidate : InputCandidates(best.input)) {
      if (budget-- <= 0 || std::chrono::steady_clock::now() >= deadline) break;
      Mismatch found;
      if (StillMismatches(best, best.program, candidate, oracle, options, &found)) {
        best = std::move(found);
        progress = true;
        break;
      }
    }
  }
  return best;
}

namespace {
std::mutex g_watchdog_mutex;
int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Watchdog::Watchdog(std::chrono::seconds limit) : limit_(limit), thread_([this] { Loop(); }) {}

Watchdog::~Watchdog() {
  stop_ = true;
  thread_.join();
}

void Watchdog::Begin(const std::string& program, const std::string& input) {
  std::lock_guard<std::mutex> lock(g_watchdog_mutex);
  program_ = program;
  input_ = input;
  started_ms_ = NowMs();
}

void Watchdog::End() { started_ms_ = 0; }

void Watchdog::Loop() {
  while (!stop_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    int64_t started = started_ms_;
    if (started != 0 && NowMs() - started > limit_.count() * 1000) {
      std::lock_guard<std::mutex> lock(g_watchdog_mutex);
      std::fprintf(stderr, "WATCHDOG: a case ran longer than %llds; aborting.\n  program: %s\n  input:   %s\n",
                   static_cast<long long>(limit_.count()), program_.c_str(), input_.c_str());
      std::fflush(stderr);
      std::abort();
    }
  }
}

}  // namespace wm::diff
