// bench_engines: the engines side by side on real inputs (issue 17 item 6). Reads a resolver list
// (one jq expression per line, `#` comments) and an NDJSON corpus, parses every object before
// timing (timing the parse on its own), checks that every engine gives the same outputs (count
// and content), then prints one line per engine, lined up with ../shared/bench/gojq's:
//   engine=NAME objects=N exprs=M outputs=K ns_per_object=X parse_ns_per_object=Y
//          bytes_to_results_ns_per_object=Z
//          bytes_to_results_over_parse_paired=R   (fused only: the median over the rounds of its
//                                                    pass over simdjson's parse pass just before,
//                                                    each pass warm: its first objects run untimed
//                                                    and its text read just before it)
//          bytes_to_results_over_parse_paired_cold=C   (the same with the caches emptied before
//                                                    each of the two passes: the text in memory)
//          ns_per_object_paired=D   (fused only: the median over the rounds of its pass minus the
//                                    parse pass just before, per object: its evaluation, paired
//                                    in time as R is, where ns_per_object is the difference of the
//                                    two best passes, which may come from different rounds)
//   engine=simdjson-parse objects=N parse_ns_per_object=Y     (simdjson's DOM parse alone, from
//                                                              padded copies made before timing)
//   engine=dom-parse objects=N parse_ns_per_object=Y          (wm::json_dom::ParseDom: that parse
//                                                              plus its -0 scan, on the same
//                                                              padded text the fused engine reads)
//   bench_engines --exprs K.exprs --objects K.ndjson [--engines interp,jit,aot,fused,fused-native,libjq]
//                 [--repeat N] [--opt-level 0-3] [--clock wall|cpu]
// bytes to results = parse + evaluate. The fused engine (runtime/eval/view) starts from each
// object's TEXT: its bytes_to_results is measured as one pass (simdjson parse + evaluation on the
// DOM, fallbacks included), its ns_per_object is that minus simdjson's parse alone, and its
// parse_ns_per_object is simdjson's parse. Unfused resolvers fall back to the aot filters when
// aot is among the engines, else to the interpreter. The timed passes go in rounds (--repeat of
// them): simdjson's parse, then each engine once; each figure is the best of its passes.
// The two passes that read text (simdjson's parse and the view engine) each start from a stated
// cache state, not from whatever the pass before left: warm (the first objects run untimed, so
// that the code, tables and buffers of the parser or engine are cached as in a stream's steady
// state, then the pass's text read, as a consumer that has just received it) for every figure,
// and, in extra passes per round,
// cold (a buffer twice the last-level cache read first: the text, the parser's buffers and the
// engine's tables all come from memory). Without this, which engines ran in between decided it:
// a libjq pass before the parse left its text in memory and the ratio looked 15 % better.
// Exit 0 ok, 1 an engine disagrees (the expression and the object are named), 2 usage / input.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "base/file.h"
#include "bench_timing.h"
#include "compiler/codegen/codegen.h"
#include "compiler/driver/expression.h"
#include "runtime/eval/eval.h"
#include "runtime/eval/view/view.h"
#include "runtime/value/json.h"
#include "runtime/value/json_dom.h"

extern "C" {
#include <jq.h>
}

namespace {

// The clock of every timing: wall (steady_clock, the default) or this thread's CPU time
// (`--clock cpu`), which leaves out the time the benchmark waits for a core on a loaded machine.
bool g_cpu_clock = false;

double NowNs() {
  return g_cpu_clock ? wm::bench::ThreadCpuNs() : wm::bench::WallNs();
}

struct BenchOptions {
  std::string exprs_path, objects_path;
  std::vector<std::string> engines = {"interp", "jit", "aot", "fused", "fused-native", "libjq"};
  int repeat = 3;  // timed passes per engine; the fastest counts (shared machines are noisy)
  int opt_level = 2;  // LLVM level of the jit and aot code
};

// The corpus in both engines' value models, parsed before timing.
struct Corpus {
  std::vector<std::string> lines;
  // Each line followed by FusedRunner::kTextPadding spaces: the view engine reads its input as
  // `wmc eval` hands it over (text in a read buffer with bytes to spare after it), and as
  // simdjson's baseline below gets it (padded), so neither pays for a copy.
  std::vector<std::string> padded_lines;
  std::string_view FusedText(size_t i) const { return std::string_view(padded_lines[i].data(), lines[i].size()); }
  std::vector<wm::Value> values;
  std::vector<jv> jvs;
  // Per object, best pass. simdjson_parse_ns is simdjson alone on padded text; dom_parse_ns is
  // what the view engine pays to get the same DOM from the same padded text (ParseDom: the -0
  // scan too).
  double wm_parse_ns = 0, jq_parse_ns = 0, simdjson_parse_ns = 0, dom_parse_ns = 0;
};

// One engine: a run function over (expression index, object index) that counts outputs.
struct Engine {
  std::string name;
  std::vector<std::shared_ptr<wm::Filter>> filters;  // wm engines; null = interpreter fallback
  std::vector<jq_state*> jq;                          // libjq
  std::unique_ptr<wm::view::FusedKind> fused;         // fused: the kind's resolvers on the DOM
  std::unique_ptr<wm::view::FusedRunner> runner;
};

double NsSince(double start) {
  return NowNs() - start;
}

// The cache states a text pass starts from (see the header). The sink keeps the reads.
// Warm: this many objects run untimed before the pass, then its whole text read.
constexpr size_t kWarmObjects = 16;
volatile uint64_t g_cache_sink = 0;

// Reads one byte of every cache line of the texts, so that a pass over them finds them cached
// as far as the caches hold them.
template <class Texts>
void WarmTexts(const Texts& texts) {
  uint64_t sum = 0;
  for (const auto& text : texts) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    for (size_t i = 0; i < text.size(); i += 64) sum += bytes[i];
  }
  g_cache_sink = g_cache_sink + sum;
}

// Reads a buffer twice the size of the last-level cache (at least 64 MB), which leaves none of
// what a pass used before in any cache. Its pages are written once, when it is made: untouched
// pages would all map the one zero page and evict nothing.
void EmptyCaches() {
  static const std::vector<unsigned char> buffer = [] {
    long last_level = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (last_level <= 0) last_level = sysconf(_SC_LEVEL2_CACHE_SIZE);
    const size_t size = std::max<size_t>(size_t{64} << 20, 2 * static_cast<size_t>(std::max(last_level, 0L)));
    return std::vector<unsigned char>(size, 1);
  }();
  uint64_t sum = 0;
  for (size_t i = 0; i < buffer.size(); i += 64) sum += buffer[i];
  g_cache_sink = g_cache_sink + sum;
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

bool ReadExpressions(const std::string& path, std::vector<std::string>* out) {
  std::string text, error;
  if (!wm::base::ReadWholeFile(path, &text, &error)) {
    std::fprintf(stderr, "bench_engines: %s\n", error.c_str());
    return false;
  }
  for (std::string& line : Split(text, '\n')) {
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '#') out->push_back(line);
  }
  return true;
}

bool ReadCorpus(const std::string& path, Corpus* corpus) {
  std::string text, error;
  if (!wm::base::ReadWholeFile(path, &text, &error)) {
    std::fprintf(stderr, "bench_engines: %s\n", error.c_str());
    return false;
  }
  for (std::string& line : Split(text, '\n')) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) corpus->lines.push_back(std::move(line));
  }
  if (corpus->lines.empty()) {
    std::fprintf(stderr, "bench_engines: %s holds no objects\n", path.c_str());
    return false;
  }
  corpus->values.resize(corpus->lines.size());
  for (size_t i = 0; i < corpus->lines.size(); ++i) {
    wm::JsonError json_error;
    if (!wm::ParseJson(corpus->lines[i], &corpus->values[i], &json_error)) {
      std::fprintf(stderr, "bench_engines: %s:%zu: invalid JSON: %s\n", path.c_str(), i + 1,
                   json_error.message.c_str());
      return false;
    }
  }
  for (const std::string& line : corpus->lines) corpus->jvs.push_back(jv_parse(line.c_str()));
  for (const std::string& line : corpus->lines) {
    corpus->padded_lines.push_back(line + std::string(wm::view::FusedRunner::kTextPadding, ' '));
  }
  return true;
}

// simdjson's DOM parse alone over the corpus, on text padded before timing (as simdjson wants
// it), so none of the view engine's own work is in it: the baseline of bytes-to-results.
class SimdjsonBaseline {
 public:
  explicit SimdjsonBaseline(const Corpus& corpus) {
    size_t largest = 1;
    for (const std::string& line : corpus.lines) {
      padded_.emplace_back(line);
      largest = std::max(largest, line.size());
    }
    ok_ = parser_.allocate(largest, wm::json_dom::kMaxDomDepth) == simdjson::SUCCESS;
  }
  bool ok() const { return ok_; }
  simdjson::dom::parser* parser() { return &parser_; }
  // Warm: the first objects parsed untimed (the parser's code, tables and buffers in cache, as
  // in a stream's steady state), then the whole text read.
  void Warm() {
    for (size_t i = 0; i < std::min(padded_.size(), kWarmObjects); ++i) {
      simdjson::dom::element root;
      if (parser_.parse(padded_[i]).get(root) != simdjson::SUCCESS) break;  // every line parsed before timing
    }
    WarmTexts(padded_);
  }
  // One pass: nanoseconds for the whole corpus.
  double Pass() {
    const double start = NowNs();
    for (const simdjson::padded_string& line : padded_) {
      simdjson::dom::element root;
      if (parser_.parse(line).get(root) != simdjson::SUCCESS) continue;  // every line parsed before timing
    }
    return NsSince(start);
  }

 private:
  std::vector<simdjson::padded_string> padded_;
  simdjson::dom::parser parser_;
  bool ok_ = false;
};

// The parse alone, per object, fastest of `repeat` passes: wmc's reader (simdjson + copy into
// Values), libjq's, and simdjson's DOM parse as the view engine runs it (json_dom::ParseDom).
// (each only when an engine that uses it is benchmarked.) simdjson's parse alone is timed
// between the engines' passes (main), in the same stretch of time as the view engine.
void TimeParsers(int repeat, const std::vector<std::string>& engines, SimdjsonBaseline* simdjson, Corpus* corpus) {
  auto wanted = [&](const char* name) { return std::find(engines.begin(), engines.end(), name) != engines.end(); };
  bool libjq = wanted("libjq");
  bool values = wanted("interp") || wanted("jit") || wanted("aot");
  auto best_of = [&](auto&& pass) {
    double best = 0;
    for (int r = 0; r < repeat; ++r) {
      double start = NowNs();
      pass();
      double ns = NsSince(start);
      if (r == 0 || ns < best) best = ns;
    }
    return best / static_cast<double>(corpus->lines.size());
  };
  if (values) corpus->wm_parse_ns = best_of([&] {
    for (const std::string& line : corpus->lines) {
      wm::Value v;
      wm::ParseJson(line, &v, nullptr);
    }
  });
  if (libjq) corpus->jq_parse_ns = best_of([&] {
    for (const std::string& line : corpus->lines) jv_free(jv_parse(line.c_str()));
  });
  if (!simdjson->ok()) return;
  corpus->dom_parse_ns = best_of([&] {
    for (size_t i = 0; i < corpus->lines.size(); ++i) {
      simdjson::dom::element root;
      wm::json_dom::ParseDom(corpus->FusedText(i), simdjson->parser(), &root, /*padded=*/true);
    }
  });
}

// What one engine printed for one expression on one object: the compact JSON outputs, then
// whether it stopped with an error and the message (libjq 1.6's wording differs from the jq 1.7
// wording wmc follows, so libjq is compared on the outputs and on whether an error happened).
struct Outputs {
  std::string text;
  size_t count = 0;
  bool error = false;
  std::string message;
};

Outputs RunWm(const wm::Filter& filter, const wm::Value& input) {
  Outputs out;
  wm::EvalError error;
  wm::EvalStatus status = filter.Run(input, [&](const wm::Value& v) {
    wm::WriteJson(v, &out.text);
    out.text.push_back('\n');
    ++out.count;
    return true;
  }, &error);
  if (status == wm::EvalStatus::kError) {
    out.error = true;
    out.message = error.Message();
  }
  return out;
}

Outputs RunJq(jq_state* jq, jv input) {
  Outputs out;
  jq_start(jq, jv_copy(input), 0);
  for (jv result = jq_next(jq);; result = jq_next(jq)) {
    if (!jv_is_valid(result)) {
      if (jv_invalid_has_msg(jv_copy(result))) {
        out.error = true;
        jv message = jv_invalid_get_msg(result);
        out.message = jv_get_kind(message) == JV_KIND_STRING ? jv_string_value(message) : "?";
        jv_free(message);
      } else {
        jv_free(result);
      }
      return out;
    }
    jv dumped = jv_dump_string(result, 0);
    out.text += jv_string_value(dumped);
    out.text.push_back('\n');
    ++out.count;
    jv_free(dumped);
  }
}

// The jit or aot filters: native code for every supported program (AOT: one shared object for
// all, as in a bundle), null where the program runs on the interpreter.
bool BuildNative(const std::string& name, const std::vector<std::shared_ptr<const wm::ir::Program>>& programs,
                 const std::vector<std::shared_ptr<const wm::ir::Program>>& native, int opt_level,
                 Engine* engine) {
  wm::driver::ExpressionOptions options;
  options.opt_level = opt_level;
  options.engine = name == "jit" ? wm::driver::Engine::kJit : wm::driver::Engine::kAot;
  double start = NowNs();
  std::vector<std::unique_ptr<wm::Filter>> aot;
  if (name == "aot" && !native.empty()) {
    auto batch = wm::driver::BuildAotBatch(native, options);
    if (!batch.ok()) {
      std::fprintf(stderr, "bench_engines: %s\n", batch.failure().message.c_str());
      return false;
    }
    aot = std::move(*batch);
  }
  for (size_t i = 0, next = 0; i < programs.size(); ++i) {
    if (!wm::driver::NativeUnsupportedReason(*programs[i]).empty()) {
      engine->filters.push_back(nullptr);
    } else if (name == "aot") {
      engine->filters.push_back(std::move(aot[next++]));
    } else {
      auto jit = wm::driver::BuildEngine(programs[i], options);
      if (!jit.ok()) {
        std::fprintf(stderr, "bench_engines: jit: %s\n", jit.failure().message.c_str());
        return false;
      }
      engine->filters.push_back(std::move(*jit));
    }
  }
  std::fprintf(stderr, "note: %s: %zu of %zu resolvers native, compiled in %.0f ms\n", name.c_str(),
               native.size(), programs.size(), NsSince(start) / 1e6);
  return true;
}

// The fused engine: the view engine over all resolvers at once (document key order, as the other
// engines see the corpus), falling back to the aot filters when aot was built before it.
// fused-native: the same with the trie's fills and the programs' flat code compiled to native code
// (FusedKindOptions::native, codegen::MakeNativeViewCompiler at --opt-level).
void BuildFused(const std::vector<std::shared_ptr<const wm::ir::Program>>& programs,
                const std::vector<Engine>& built, int opt_level, Engine* engine) {
  std::vector<std::shared_ptr<const wm::Filter>> fallbacks;
  for (const Engine& other : built) {
    if (other.name == "aot") fallbacks.assign(other.filters.begin(), other.filters.end());
  }
  // Split resolvers' tails get the fallbacks' engine: AOT code when aot is built.
  wm::view::FusedKind::TailEngine aot_tail;
  if (!fallbacks.empty()) {
    aot_tail = [](std::shared_ptr<const wm::ir::Program> tail) -> std::shared_ptr<const wm::Filter> {
      if (!wm::driver::NativeUnsupportedReason(*tail).empty()) return nullptr;
      wm::driver::ExpressionOptions options;
      options.engine = wm::driver::Engine::kAot;
      auto batch = wm::driver::BuildAotBatch({tail}, options);
      if (!batch.ok() || batch->empty()) return nullptr;
      return std::shared_ptr<const wm::Filter>(std::move(batch->front()));
    };
  }
  wm::view::FusedKindOptions options;
  const double start = NowNs();
  if (engine->name == "fused-native") {
    wm::codegen::CodegenOptions codegen;
    codegen.opt_level = opt_level;
    options.native = wm::codegen::MakeNativeViewCompiler(codegen);
  }
  engine->fused = std::make_unique<wm::view::FusedKind>(programs, options, fallbacks, aot_tail);
  engine->runner = std::make_unique<wm::view::FusedRunner>(*engine->fused);
  std::fprintf(stderr, "note: %s: %zu of %zu resolvers fused (falling back to %s)\n", engine->name.c_str(),
               engine->fused->fused_count(), programs.size(), fallbacks.empty() ? "interp" : "aot");
  if (options.native != nullptr) {
    std::fprintf(stderr, "note: %s: native code (fills, programs) %s in %.1f ms%s%s\n", engine->name.c_str(),
                 engine->fused->native_code() ? "compiled" : "NOT compiled", NsSince(start) / 1e6,
                 engine->fused->native_error().empty() ? "" : ": ", engine->fused->native_error().c_str());
  }
  for (size_t i = 0; i < programs.size(); ++i) {
    if (!engine->fused->fused(i)) {
      std::fprintf(stderr, "note: fused: not fused (%s): %s\n", engine->fused->unsupported_reason(i).c_str(),
                   programs[i]->source.c_str());
    }
  }
}

// Compiles the expressions every requested engine accepts (an expression libjq or wmc refuses is
// dropped for all engines, with a note, so every line counts the same work). A resolver the native
// backends do not support runs on the interpreter in the jit/aot lines, as in a bundle.
bool BuildEngines(std::vector<std::string>* expressions, const std::vector<std::string>& names,
                  int opt_level, std::vector<Engine>* engines) {
  std::vector<std::string> kept;
  std::vector<std::shared_ptr<const wm::ir::Program>> programs;
  std::vector<jq_state*> jqs;
  for (const std::string& text : *expressions) {
    auto lowered = wm::driver::LowerExpression(text);
    jq_state* jq = jq_init();
    if (!lowered.ok() || jq == nullptr || !jq_compile(jq, text.c_str())) {
      std::fprintf(stderr, "note: skipping (%s does not compile it): %s\n",
                   lowered.ok() ? "libjq" : "wmc", text.c_str());
      if (jq != nullptr) jq_teardown(&jq);
      continue;
    }
    kept.push_back(text);
    programs.push_back(lowered->program);
    jqs.push_back(jq);
  }
  *expressions = kept;
  std::vector<std::shared_ptr<const wm::ir::Program>> native;
  for (const auto& program : programs) {
    std::string why = wm::driver::NativeUnsupportedReason(*program);
    if (why.empty()) native.push_back(program);
  }
  for (const std::string& name : names) {
    Engine engine;
    engine.name = name;
    if (name == "libjq") {
      engine.jq = jqs;
    } else if (name == "interp") {
      for (const auto& program : programs) engine.filters.push_back(std::move(*wm::driver::BuildEngine(program)));
    } else if (name == "jit" || name == "aot") {
      if (!BuildNative(name, programs, native, opt_level, &engine)) return false;
    } else if (name == "fused" || name == "fused-native") {
      BuildFused(programs, *engines, opt_level, &engine);
    } else {
      std::fprintf(stderr, "bench_engines: unknown engine %s (interp, jit, aot, fused, fused-native, libjq)\n",
                   name.c_str());
      return false;
    }
    engines->push_back(std::move(engine));
  }
  return true;
}

// The fused engine's outputs for one resolver, from its runner's last object.
Outputs FusedOutputs(const wm::view::ResolverResult& result) {
  Outputs out;
  for (const wm::view::ViewOutput& v : result.outputs) {
    v.WriteJson(&out.text);
    out.text.push_back('\n');
    ++out.count;
  }
  if (result.status == wm::EvalStatus::kError) {
    out.error = true;
    out.message = result.error.Message();
  }
  return out;
}

// Precondition for the fused engine: its runner has run `object`.
Outputs RunOne(const Engine& engine, const Engine& interp, size_t expr, const Corpus& corpus,
               size_t object) {
  if (!engine.jq.empty()) return RunJq(engine.jq[expr], corpus.jvs[object]);
  if (engine.runner) return FusedOutputs(engine.runner->result(expr));
  const wm::Filter* f = engine.filters[expr] ? engine.filters[expr].get() : interp.filters[expr].get();
  return RunWm(*f, corpus.values[object]);
}

// Every engine against the first (the reference, normally the interpreter): same outputs in the
// same order, and an error in the same place.
bool CheckAgreement(const std::vector<Engine>& engines, const Engine& interp,
                    const std::vector<std::string>& expressions, const Corpus& corpus) {
  for (size_t o = 0; o < corpus.values.size(); ++o) {
    for (const Engine& engine : engines) {
      wm::JsonError error;
      if (engine.runner && !engine.runner->Run(corpus.FusedText(o), {}, &error, wm::view::FusedRunner::kTextPadding)) {
        std::fprintf(stderr, "MISMATCH engine=fused rejects object %zu: %s\n", o, error.message.c_str());
        return false;
      }
    }
    for (size_t e = 0; e < expressions.size(); ++e) {
      Outputs reference = RunOne(interp, interp, e, corpus, o);
      for (const Engine& engine : engines) {
        Outputs got = RunOne(engine, interp, e, corpus, o);
        bool same = got.text == reference.text && got.error == reference.error &&
                    (!engine.jq.empty() || got.message == reference.message);
        if (same) continue;
        std::fprintf(stderr,
                     "MISMATCH engine=%s on object %zu (line %zu) expression: %s\n"
                     "  %s: %zu outputs%s%s\n%s  interp: %zu outputs%s%s\n%s",
                     engine.name.c_str(), o, o + 1, expressions[e].c_str(), engine.name.c_str(),
                     got.count, got.error ? ", error: " : "", got.message.c_str(), got.text.c_str(),
                     reference.count, reference.error ? ", error: " : "", reference.message.c_str(),
                     reference.text.c_str());
        return false;
      }
    }
  }
  return true;
}

// One timed pass of `engine` over the corpus: nanoseconds and the number of outputs.
double TimePass(const Engine& engine, const Engine& interp, const Corpus& corpus, size_t* outputs) {
  size_t count = 0;
  wm::OutputFn counter = [&](const wm::Value&) {
    ++count;
    return true;
  };
  wm::EvalError error;
  double start = NowNs();
  if (engine.runner) {
    wm::JsonError json_error;
    for (size_t o = 0; o < corpus.lines.size(); ++o) {
      engine.runner->Run(corpus.FusedText(o), {}, &json_error, wm::view::FusedRunner::kTextPadding);
      for (size_t e = 0; e < engine.fused->size(); ++e) count += engine.runner->result(e).outputs.size();
    }
    *outputs = count;
    return NsSince(start);
  }
  for (size_t o = 0; o < corpus.values.size(); ++o) {
    if (!engine.jq.empty()) {
      for (jq_state* jq : engine.jq) {
        jq_start(jq, jv_copy(corpus.jvs[o]), 0);
        for (jv result = jq_next(jq);; result = jq_next(jq)) {
          bool valid = jv_is_valid(result);
          jv_free(result);
          if (!valid) break;
          ++count;
        }
      }
      continue;
    }
    for (size_t e = 0; e < engine.filters.size(); ++e) {
      const wm::Filter* f = engine.filters[e] ? engine.filters[e].get() : interp.filters[e].get();
      f->Run(corpus.values[o], counter, &error);
    }
  }
  double ns = NsSince(start);
  *outputs = count;
  return ns;
}

// The view engine warm, as SimdjsonBaseline::Warm leaves simdjson: its first objects run
// untimed, then the whole text read.
void WarmFused(const Engine& engine, const Corpus& corpus) {
  wm::JsonError ignored;
  for (size_t o = 0; o < std::min(corpus.lines.size(), kWarmObjects); ++o) {
    engine.runner->Run(corpus.FusedText(o), {}, &ignored, wm::view::FusedRunner::kTextPadding);
  }
  WarmTexts(corpus.padded_lines);
}

bool ParseArgs(int argc, char** argv, BenchOptions* options) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string arg = argv[i], value = argv[i + 1];
    if (arg == "--exprs") options->exprs_path = value;
    else if (arg == "--objects") options->objects_path = value;
    else if (arg == "--engines") options->engines = Split(value, ',');
    else if (arg == "--repeat") options->repeat = std::max(1, std::atoi(value.c_str()));
    else if (arg == "--clock" && (value == "cpu" || value == "wall")) g_cpu_clock = value == "cpu";
    else if (arg == "--opt-level") options->opt_level = std::clamp(std::atoi(value.c_str()), 0, 3);
    else return false;
  }
  return argc % 2 == 1 && !options->exprs_path.empty() && !options->objects_path.empty() &&
         !options->engines.empty();
}

}  // namespace

int main(int argc, char** argv) {
  BenchOptions options;
  if (!ParseArgs(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: bench_engines --exprs FILE --objects FILE.ndjson "
                 "[--engines interp,jit,aot,fused,fused-native,libjq] [--repeat N] [--opt-level 0-3] [--clock wall|cpu]\n");
    return 2;
  }
  std::vector<std::string> expressions;
  Corpus corpus;
  if (!ReadExpressions(options.exprs_path, &expressions) || !ReadCorpus(options.objects_path, &corpus))
    return 2;
  // The interpreter is always built: it is the reference and the native engines' fallback.
  std::vector<Engine> engines;
  std::vector<std::string> names = {"interp"};
  for (const std::string& name : options.engines) {
    if (name != "interp") names.push_back(name);
  }
  if (!BuildEngines(&expressions, names, options.opt_level, &engines)) return 2;
  SimdjsonBaseline simdjson(corpus);
  TimeParsers(options.repeat, options.engines, &simdjson, &corpus);
  const Engine& interp = engines.front();
  if (!CheckAgreement(engines, interp, expressions, corpus)) return 1;
  // The passes interleaved: each round times simdjson's parse alone, then one pass of every
  // requested engine, so that each engine's best pass and the baseline's come from the same
  // stretch of time (a busy spell on a shared machine slows one round of all of them, not all
  // the passes of one). The view engine's bytes to results is also given paired: the median
  // over the rounds of its pass divided by the parse pass just before it.
  std::vector<bool> requested(engines.size());  // the interpreter is built even when not asked for
  for (size_t e = 0; e < engines.size(); ++e) {
    requested[e] = std::find(options.engines.begin(), options.engines.end(), engines[e].name) != options.engines.end();
  }
  std::vector<double> best(engines.size(), 0);
  std::vector<size_t> outputs(engines.size(), 0);
  // Per view engine (fused, fused-native) and round: its pass over simdjson's, both warm, and both cold.
  std::vector<std::vector<double>> paired(engines.size()), paired_cold(engines.size());
  std::vector<std::vector<double>> paired_difference(engines.size());  // ns per pass
  bool any_view_engine = false;
  double simdjson_best = 0;
  for (int round = 0; round < options.repeat; ++round) {
    double parse_ns = 0;
    if (simdjson.ok()) {
      simdjson.Warm();
      parse_ns = simdjson.Pass();
    }
    if (round == 0 || parse_ns < simdjson_best) simdjson_best = parse_ns;
    for (size_t e = 0; e < engines.size(); ++e) {
      if (!requested[e]) continue;
      if (engines[e].runner) WarmFused(engines[e], corpus);
      const double ns = TimePass(engines[e], interp, corpus, &outputs[e]);
      if (round == 0 || ns < best[e]) best[e] = ns;
      if (engines[e].runner && parse_ns > 0) {
        paired[e].push_back(ns / parse_ns);
        paired_difference[e].push_back(ns - parse_ns);
      }
      any_view_engine = any_view_engine || engines[e].runner != nullptr;
    }
    if (!any_view_engine || !simdjson.ok()) continue;  // no view engine: no cold passes
    EmptyCaches();
    const double cold_parse_ns = simdjson.Pass();
    for (size_t e = 0; e < engines.size(); ++e) {
      if (!requested[e] || !engines[e].runner) continue;
      EmptyCaches();
      size_t ignored;
      paired_cold[e].push_back(TimePass(engines[e], interp, corpus, &ignored) / cold_parse_ns);
    }
  }
  const double objects = static_cast<double>(corpus.values.size());
  corpus.simdjson_parse_ns = simdjson_best / objects;
  for (size_t e = 0; e < engines.size(); ++e) {
    if (!requested[e]) continue;
    const Engine& engine = engines[e];
    double per_object = best[e] / objects;
    double parse = engine.jq.empty() ? corpus.wm_parse_ns : corpus.jq_parse_ns;
    double bytes_to_results = per_object + parse;
    std::string paired_field;
    if (engine.runner) {  // one pass from the text: parse is simdjson's, evaluation the rest
      parse = corpus.simdjson_parse_ns;
      bytes_to_results = per_object;
      per_object = std::max(0.0, bytes_to_results - parse);
      char text[192];
      std::snprintf(text, sizeof(text),
                    " bytes_to_results_over_parse_paired=%.2f bytes_to_results_over_parse_paired_cold=%.2f"
                    " ns_per_object_paired=%.0f",
                    wm::bench::Median(paired[e]), wm::bench::Median(paired_cold[e]),
                    std::max(0.0, wm::bench::Median(paired_difference[e]) / objects));
      paired_field = text;
    }
    std::printf("engine=%s objects=%zu exprs=%zu outputs=%zu ns_per_object=%.0f parse_ns_per_object=%.0f "
                "bytes_to_results_ns_per_object=%.0f%s\n",
                engine.name.c_str(), corpus.values.size(), expressions.size(), outputs[e], per_object, parse,
                bytes_to_results, paired_field.c_str());
    std::fflush(stdout);
  }
  for (const Engine& engine : engines) {
    if (!engine.runner) continue;
    const wm::view::FusedStats& stats = engine.runner->stats();
    std::fprintf(stderr,
                 "note: %s: %llu resolver runs on the DOM (programs: %llu as flat code, %llu of them native, %llu "
                 "on the tree evaluator), %llu split (head on the DOM, tail on the fallback engine), %llu fallbacks, "
                 "%llu objects through ParseJson\n",
                 engine.name.c_str(), static_cast<unsigned long long>(stats.fused_runs),
                 static_cast<unsigned long long>(stats.flat_runs), static_cast<unsigned long long>(stats.native_runs),
                 static_cast<unsigned long long>(stats.tree_runs), static_cast<unsigned long long>(stats.split_runs),
                 static_cast<unsigned long long>(stats.fallback_runs),
                 static_cast<unsigned long long>(stats.document_fallbacks));
  }
  std::printf("engine=simdjson-parse objects=%zu parse_ns_per_object=%.0f\n", corpus.values.size(),
              corpus.simdjson_parse_ns);
  std::printf("engine=dom-parse objects=%zu parse_ns_per_object=%.0f\n", corpus.values.size(), corpus.dom_parse_ns);
  return 0;
}
