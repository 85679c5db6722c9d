// An experiment, not part of the product or its build: CronJob's five catalog resolvers
// (bench-corpus/batch-cronjob-v1.exprs) written by hand over simdjson's tape, the shape of code
// that native code for a fused kind would be (keys as constants, one pass per object on the
// trie, no dispatch or step per instruction). It measures how few instructions such code needs
// per object against the view engine's interpreter (bench/instructions.sh), to size issue 17's
// item 1 before that code generator is written (bench/RESULTS.md 0t). Build and count:
//   g++ -O2 -std=c++20 bench/experiments/cronjob_by_hand.cpp -o /tmp/cronjob_by_hand -lsimdjson
//   head -200 build/bench-corpus/batch-cronjob-v1.ndjson > /tmp/cj200.ndjson
//   valgrind --tool=callgrind --toggle-collect='Eval*' /tmp/cronjob_by_hand /tmp/cj200.ndjson [--skip-zero-check]
// (instructions per object: callgrind's "Collected" / 200). It answers what the view engine
// answers on these objects (a repeated key keeps its last value: every member is scanned), but
// leaves out what the engine must also do: errors below a non-object, the output buffer, and
// the text scan for -0 when the template holds an integer 0 (here only that check, done
// scalar, word by word; --skip-zero-check leaves it out).
#include <simdjson.h>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>
#include <cstdint>

struct Out {  // one output per resolver: the template's tape index (a view; 0: null), or a scalar
  uint64_t template_index;  // the top bit set: the template holds an integer 0 (the -0 check's text scan)
  double parallelism;
  bool suspended, active, waiting;
};

static inline const uint8_t* KeyAt(const simdjson::dom::document& d, uint64_t word, uint32_t* size) {
  const uint8_t* at = d.string_buf.get() + (word & 0x00FFFFFFFFFFFFFFull);
  std::memcpy(size, at, 4);
  return at + 4;
}
static inline uint64_t Head(const uint8_t* k, uint32_t size) {
  uint64_t w; std::memcpy(&w, k, 8);
  return size >= 8 ? w : w & ((uint64_t{1} << (8 * size)) - 1);
}
static inline size_t Next(const uint64_t* tape, size_t value_index) {
  const uint64_t v = tape[value_index];
  const uint8_t t = v >> 56;
  if (t == '{' || t == '[') return static_cast<uint32_t>(v);
  return value_index + ((t == 'l' || t == 'u' || t == 'd') ? 2 : 1);
}
constexpr uint64_t H(const char* s, int n) {
  uint64_t w = 0; for (int i = 0; i < n && i < 8; ++i) w |= uint64_t(uint8_t(s[i])) << (8 * i); return w;
}
// Whether the subtree at [begin, end) holds an int64 zero (the -0 check's trigger).
static inline bool HoldsIntZero(const uint64_t* tape, size_t begin, size_t end) {
  for (size_t i = begin; i + 1 < end; ++i) if (tape[i + 1] == 0 && (tape[i] >> 56) == 'l') return true;
  return false;
}

static bool g_zero_check = true;

__attribute__((noinline)) void Eval(const simdjson::dom::document& d, Out* out) {
  const uint64_t* tape = d.tape.get();
  size_t root = 1;
  size_t spec = 0, status = 0;
  size_t end = static_cast<uint32_t>(tape[root]) - 1;
  for (size_t i = root + 1; i < end; i = Next(tape, i + 1)) {
    uint32_t n; const uint8_t* k = KeyAt(d, tape[i], &n);
    if (n == 4 && Head(k, n) == H("spec", 4)) spec = i + 1;
    else if (n == 6 && Head(k, n) == H("status", 6)) status = i + 1;
  }
  size_t suspend = 0, job_template = 0, jspec = 0, tmpl = 0, par = 0, last = 0;
  if (spec && (tape[spec] >> 56) == '{') {
    end = static_cast<uint32_t>(tape[spec]) - 1;
    for (size_t i = spec + 1; i < end; i = Next(tape, i + 1)) {
      uint32_t n; const uint8_t* k = KeyAt(d, tape[i], &n);
      if (n == 7 && Head(k, n) == H("suspend", 7)) suspend = i + 1;
      else if (n == 11 && Head(k, n) == H("jobTemplate", 8) && std::memcmp(k + 8, "ate", 3) == 0) job_template = i + 1;
    }
  }
  if (job_template && (tape[job_template] >> 56) == '{') {
    end = static_cast<uint32_t>(tape[job_template]) - 1;
    for (size_t i = job_template + 1; i < end; i = Next(tape, i + 1)) {
      uint32_t n; const uint8_t* k = KeyAt(d, tape[i], &n);
      if (n == 4 && Head(k, n) == H("spec", 4)) jspec = i + 1;
    }
  }
  if (jspec && (tape[jspec] >> 56) == '{') {
    end = static_cast<uint32_t>(tape[jspec]) - 1;
    for (size_t i = jspec + 1; i < end; i = Next(tape, i + 1)) {
      uint32_t n; const uint8_t* k = KeyAt(d, tape[i], &n);
      if (n == 8 && Head(k, n) == H("template", 8)) tmpl = i + 1;
      else if (n == 11 && Head(k, n) == H("parallelism", 8) && std::memcmp(k + 8, "ism", 3) == 0) par = i + 1;
    }
  }
  if (status && (tape[status] >> 56) == '{') {
    end = static_cast<uint32_t>(tape[status]) - 1;
    for (size_t i = status + 1; i < end; i = Next(tape, i + 1)) {
      uint32_t n; const uint8_t* k = KeyAt(d, tape[i], &n);
      if (n == 16 && Head(k, n) == H("lastScheduleTime", 8) && std::memcmp(k + 8, "duleTime", 8) == 0) last = i + 1;
    }
  }
  out->template_index = tmpl;
  if (g_zero_check && tmpl && (tape[tmpl] >> 56) == '{' && HoldsIntZero(tape, tmpl, static_cast<uint32_t>(tape[tmpl]))) out->template_index |= 1ull << 63;
  out->parallelism = 1;
  if (par) {
    const uint8_t t = tape[par] >> 56;
    if (t == 'l') out->parallelism = double(int64_t(tape[par + 1]));
    else if (t == 'd') { double x; std::memcpy(&x, &tape[par + 1], 8); out->parallelism = x; }
  }
  const uint8_t st = suspend ? uint8_t(tape[suspend] >> 56) : 'n';
  const bool susp_true = st == 't';                 // (.spec.suspend // false) == true
  out->suspended = susp_true;
  const bool has_last = last && (tape[last] >> 56) != 'n';
  out->active = !susp_true && has_last;
  out->waiting = !susp_true && !has_last;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cronjob_by_hand OBJECTS.ndjson [--skip-zero-check]\n");
    return 2;
  }
  g_zero_check = !(argc > 2 && std::strcmp(argv[2], "--skip-zero-check") == 0);
  std::ifstream in(argv[1]);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  simdjson::dom::parser parser;
  Out out{};
  size_t sum = 0;
  for (auto& l : lines) {
    simdjson::dom::element e;
    if (parser.parse(l).get(e)) return 1;
    Eval(parser.doc, &out);
    sum += out.suspended + out.active * 2 + (out.template_index != 0) * 4;
  }
  std::printf("%zu\n", sum);
}
