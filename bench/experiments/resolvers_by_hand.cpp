// An experiment, not part of the product or its build: the catalog resolvers of two kinds
// (bench-corpus/batch-cronjob-v1.exprs and trainer-kubeflow-org-trainjob-v1alpha1.exprs) written
// by hand over simdjson's tape, in the shape native code for a fused kind would take: keys as
// constants, one scan per object on the trie, the conditions' `any` tests folded into one pass
// over the array, no dispatch or step per instruction. It measures how few instructions such
// code needs per object against the view engine's interpreter (bench/instructions.sh), to size
// issue 17's item 1 before that code generator is written (bench/RESULTS.md 0t). Build, count,
// and check the answers against `wmc eval`:
//   g++ -O2 -std=c++20 bench/experiments/resolvers_by_hand.cpp -o /tmp/by_hand -lsimdjson
//   head -200 build/bench-corpus/batch-cronjob-v1.ndjson > /tmp/cj200.ndjson
//   valgrind --tool=callgrind --toggle-collect='*Eval*' /tmp/by_hand cronjob /tmp/cj200.ndjson [--skip-zero-check]
//   f=build/bench-corpus/batch-cronjob-v1.ndjson   # (trainjob: trainer-kubeflow-org-trainjob-v1alpha1)
//   diff <(/tmp/by_hand cronjob $f --print) <(build/bin/wmc eval "$(/tmp/by_hand cronjob --program)" $f | tr -d '"')
// (instructions per object: callgrind's "Collected" / 200). Like the view engine it scans every
// member (a repeated key keeps its last value). It leaves out what the engine must also do:
// errors (a non-object parent, a condition that is no object), the output buffer, and the text
// scan for -0 when an output holds an integer 0; of the -0 check it does only the search for an
// integer 0 in the outputs, word by word (the engine's AVX scan costs about a fifth of that),
// which --skip-zero-check leaves out.
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

// The `wmc eval` programs whose outputs --print reproduces, one line per object (--program).
constexpr const char* kCronJobCheck =
    R"([(.spec.jobTemplate.spec.parallelism // 1), ((.spec.suspend // false) == true),
        ((.spec.suspend // false) != true and .status.lastScheduleTime != null),
        ((.spec.suspend // false) != true and .status.lastScheduleTime == null),
        (.spec.jobTemplate.spec.template != null)]
       | map(if . == true then 1 elif . == false then 0 else . end | tostring) | join(" "))";
constexpr const char* kTrainJobCheck =
    R"([(((.spec.suspend // false) | not) and ((.status.conditions // []) | any(.type == "Suspended" and .status == "True"))),
        ((.spec.suspend // false) and ((.status.conditions // []) | any(.type == "Suspended" and .status == "True") | not)),
        (((.status.conditions // []) | any((.type == "Complete" or .type == "Failed") and .status == "True") | not) and ((.status.jobsStatus // []) | any((.ready // 0) > 0))),
        (((.status.conditions // []) | any((.type == "Complete" or .type == "Failed" or .type == "Suspended") and .status == "True") | not) and ((.status.jobsStatus // []) | all((.ready // 0) == 0))),
        (.spec.trainer.numNodes // 1), (.status.conditions != null), (.spec.trainer.image != null),
        (.spec.trainer.resourcesPerNode != null)]
       | map(if . == true then 1 elif . == false then 0 else . end | tostring) | join(" "))";

using Doc = simdjson::dom::document;

// A string word's bytes in the string buffer (its size first, 4 bytes).
const uint8_t* StringAt(const Doc& d, uint64_t word, uint32_t* size) {
  const uint8_t* at = d.string_buf.get() + (word & 0x00FFFFFFFFFFFFFFull);
  std::memcpy(size, at, 4);
  return at + 4;
}
uint64_t Word(const char* s, uint32_t size) {  // the first min(size, 8) bytes, the rest zero
  uint64_t w = 0;
  std::memcpy(&w, s, size < 8 ? size : 8);
  return w;
}
// Key `k` of `n` bytes (readable 8 past its end: simdjson's padding) is the literal `s`: its
// size, its first 8 bytes and its last 8 (overlapping), as the engine's SamePaddedKey. The
// literal folds into immediates.
template <size_t N>
inline bool Is(const uint8_t* k, uint32_t n, const char (&s)[N]) {
  constexpr uint32_t size = N - 1;
  if (n != size) return false;
  uint64_t head;
  std::memcpy(&head, k, 8);
  if constexpr (size < 8) head &= (uint64_t{1} << (8 * size)) - 1;
  if (head != Word(s, size)) return false;
  if constexpr (size <= 8) {
    return true;
  } else if constexpr (size <= 16) {
    uint64_t tail;
    std::memcpy(&tail, k + size - 8, 8);
    return tail == Word(s + size - 8, 8);
  } else {
    return std::memcmp(k, s, size) == 0;
  }
}
// The tape index after the value at `index`.
inline size_t After(const uint64_t* tape, size_t index) {
  const uint64_t v = tape[index];
  const uint8_t t = v >> 56;
  if (t == '{' || t == '[') return static_cast<uint32_t>(v);
  return index + ((t == 'l' || t == 'u' || t == 'd') ? 2 : 1);
}
inline uint8_t TypeAt(const uint64_t* tape, size_t index) { return index == 0 ? 'n' : tape[index] >> 56; }
// f(key, size, value index) for each member of the object at `object` (none when it is absent
// or no object).
template <class F>
inline void Members(const Doc& d, size_t object, F f) {
  const uint64_t* tape = d.tape.get();
  if (TypeAt(tape, object) != '{') return;
  const size_t end = static_cast<uint32_t>(tape[object]) - 1;
  for (size_t i = object + 1; i < end; i = After(tape, i + 1)) {
    uint32_t n;
    const uint8_t* k = StringAt(d, tape[i], &n);
    f(k, n, i + 1);
  }
}
// f(element index) for each element of the array at `array` (none when it is no array).
template <class F>
inline void Elements(const uint64_t* tape, size_t array, F f) {
  if (TypeAt(tape, array) != '[') return;
  const size_t end = static_cast<uint32_t>(tape[array]) - 1;
  for (size_t i = array + 1; i < end; i = After(tape, i)) f(i);
}
template <size_t N>
inline bool StringIs(const Doc& d, size_t index, const char (&s)[N]) {
  if (TypeAt(d.tape.get(), index) != '"') return false;
  uint32_t n;
  const uint8_t* at = StringAt(d, d.tape[index], &n);
  return n == N - 1 && std::memcmp(at, s, N - 1) == 0;
}
inline bool Truthy(const uint64_t* tape, size_t index) {
  const uint8_t t = TypeAt(tape, index);
  return t != 'n' && t != 'f';
}
// The number at `index`, or `otherwise` where it is absent, null or false (`x // otherwise`);
// NaN for any other value (not a number: the experiment's corpora have none).
inline double NumberOr(const uint64_t* tape, size_t index, double otherwise) {
  switch (TypeAt(tape, index)) {
    case 'n': case 'f': return otherwise;
    case 'l': return static_cast<double>(static_cast<int64_t>(tape[index + 1]));
    case 'u': return static_cast<double>(tape[index + 1]);
    case 'd': { double x; std::memcpy(&x, &tape[index + 1], 8); return x; }
    default: return __builtin_nan("");
  }
}
bool g_zero_check = true;
// Whether the value at `index` holds an int64 zero (what sends the engine to its text scan for -0).
inline bool HoldsIntZero(const uint64_t* tape, size_t index) {
  if (!g_zero_check || index == 0) return false;
  const size_t end = After(tape, index);
  for (size_t i = index; i + 1 < end; ++i) {
    if (tape[i + 1] == 0 && (tape[i] >> 56) == 'l') return true;
  }
  return false;
}

// The tape indexes of the root's `spec` and `status` (0: absent), where every kind starts.
inline void RootSpecAndStatus(const Doc& d, size_t* spec, size_t* status) {
  Members(d, 1, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "spec")) *spec = v;
    else if (Is(k, n, "status")) *status = v;
  });
}

struct CronJobOut {
  size_t template_index;  // a view (0: null)
  double parallelism;
  bool suspended, active, waiting, zero;
};

__attribute__((noinline)) void EvalCronJob(const Doc& d, CronJobOut* out) {
  const uint64_t* tape = d.tape.get();
  size_t spec = 0, status = 0, suspend = 0, job_template = 0, job_spec = 0, pod_template = 0, parallelism = 0,
         last_schedule = 0;
  RootSpecAndStatus(d, &spec, &status);
  Members(d, spec, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "suspend")) suspend = v;
    else if (Is(k, n, "jobTemplate")) job_template = v;
  });
  Members(d, job_template, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "spec")) job_spec = v;
  });
  Members(d, job_spec, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "template")) pod_template = v;
    else if (Is(k, n, "parallelism")) parallelism = v;
  });
  Members(d, status, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "lastScheduleTime")) last_schedule = v;
  });
  out->template_index = pod_template;
  out->zero = HoldsIntZero(tape, pod_template);
  out->parallelism = NumberOr(tape, parallelism, 1);
  const bool suspended = TypeAt(tape, suspend) == 't';  // (.spec.suspend // false) == true
  const bool scheduled = TypeAt(tape, last_schedule) != 'n';
  out->suspended = suspended;
  out->active = !suspended && scheduled;
  out->waiting = !suspended && !scheduled;
}

struct TrainJobOut {
  size_t conditions, image, resources;  // views (0: null)
  double nodes;
  bool suspended, resuming, running, idle, zero;
};

__attribute__((noinline)) void EvalTrainJob(const Doc& d, TrainJobOut* out) {
  const uint64_t* tape = d.tape.get();
  size_t spec = 0, status = 0, suspend = 0, trainer = 0, nodes = 0, image = 0, resources = 0, conditions = 0,
         jobs = 0;
  RootSpecAndStatus(d, &spec, &status);
  Members(d, spec, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "suspend")) suspend = v;
    else if (Is(k, n, "trainer")) trainer = v;
  });
  Members(d, trainer, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "numNodes")) nodes = v;
    else if (Is(k, n, "image")) image = v;
    else if (Is(k, n, "resourcesPerNode")) resources = v;
  });
  Members(d, status, [&](const uint8_t* k, uint32_t n, size_t v) {
    if (Is(k, n, "conditions")) conditions = v;
    else if (Is(k, n, "jobsStatus")) jobs = v;
  });
  // The three `any` tests over the conditions in one pass.
  bool suspended_true = false, ended_true = false, ended_or_suspended_true = false;
  Elements(tape, conditions, [&](size_t c) {
    size_t type = 0, state = 0;
    Members(d, c, [&](const uint8_t* k, uint32_t n, size_t v) {
      if (Is(k, n, "type")) type = v;
      else if (Is(k, n, "status")) state = v;
    });
    if (!StringIs(d, state, "True")) return;
    const bool suspended = StringIs(d, type, "Suspended");
    const bool ended = StringIs(d, type, "Complete") || StringIs(d, type, "Failed");
    suspended_true |= suspended;
    ended_true |= ended;
    ended_or_suspended_true |= ended || suspended;
  });
  bool any_ready = false, all_idle = true;
  Elements(tape, jobs, [&](size_t j) {
    size_t ready = 0;
    Members(d, j, [&](const uint8_t* k, uint32_t n, size_t v) {
      if (Is(k, n, "ready")) ready = v;
    });
    const double count = NumberOr(tape, ready, 0);
    any_ready |= count > 0;
    all_idle &= count == 0;
  });
  const bool suspend_set = Truthy(tape, suspend);
  out->suspended = !suspend_set && suspended_true;
  out->resuming = suspend_set && !suspended_true;
  out->running = !ended_true && any_ready;
  out->idle = !ended_or_suspended_true && all_idle;
  out->nodes = NumberOr(tape, nodes, 1);
  out->conditions = conditions;
  out->image = image;
  out->resources = resources;
  out->zero = HoldsIntZero(tape, conditions) || HoldsIntZero(tape, resources) || HoldsIntZero(tape, nodes);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: resolvers_by_hand cronjob|trainjob OBJECTS.ndjson [--skip-zero-check] [--print]\n"
                 "       resolvers_by_hand cronjob|trainjob --program   (the wmc eval program --print matches)\n");
    return 2;
  }
  const std::string_view kind = argv[1];
  if (std::strcmp(argv[2], "--program") == 0) {
    std::printf("%s\n", kind == "cronjob" ? kCronJobCheck : kTrainJobCheck);
    return 0;
  }
  bool print = false;
  for (int a = 3; a < argc; ++a) {
    if (std::strcmp(argv[a], "--skip-zero-check") == 0) g_zero_check = false;
    if (std::strcmp(argv[a], "--print") == 0) print = true;
  }
  std::ifstream in(argv[2]);
  simdjson::dom::parser parser;
  size_t objects = 0;
  for (std::string line; std::getline(in, line); ++objects) {
    simdjson::dom::element root;
    if (parser.parse(line).get(root)) return 1;
    if (kind == "cronjob") {
      CronJobOut o{};
      EvalCronJob(parser.doc, &o);
      if (print) {
        std::printf("%g %d %d %d %d\n", o.parallelism, o.suspended, o.active, o.waiting,
                    o.template_index != 0 && TypeAt(parser.doc.tape.get(), o.template_index) != 'n');
      }
    } else if (kind == "trainjob") {
      TrainJobOut o{};
      EvalTrainJob(parser.doc, &o);
      if (print) {
        std::printf("%d %d %d %d %g %d %d %d\n", o.suspended, o.resuming, o.running, o.idle, o.nodes,
                    o.conditions != 0 && TypeAt(parser.doc.tape.get(), o.conditions) != 'n',
                    o.image != 0 && TypeAt(parser.doc.tape.get(), o.image) != 'n',
                    o.resources != 0 && TypeAt(parser.doc.tape.get(), o.resources) != 'n');
      }
    } else {
      std::fprintf(stderr, "resolvers_by_hand: unknown kind %s (cronjob, trainjob)\n", argv[1]);
      return 2;
    }
  }
  if (!print) std::printf("%zu objects\n", objects);
  return 0;
}
