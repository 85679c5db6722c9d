// Seeded generators for the random differential test: well-formed jq programs over the whole
// language and builtin set that always terminate (bounded recursion, literal loop bounds, no I/O
// builtins), and random JSON inputs. The 1.6-vs-1.7 exclusions of KNOWN_DIFFERENCES.md are
// encoded here: the generator never emits the constructs listed there (see kExcludedConstructs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wm::diff {

// A tiny deterministic PRNG (splitmix64) so that a seed reproduces the same cases on every
// standard library (std:: distributions are implementation-defined).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  // Uniform integer in [0, n); n > 0.
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(Next() % n); }
  bool Chance(uint32_t percent) { return Below(100) < percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& items) { return items[Below(static_cast<uint32_t>(items.size()))]; }

 private:
  uint64_t state_;
};

struct GeneratorOptions {
  int max_depth = 4;        // nesting depth of generated expressions
  int max_json_depth = 3;   // nesting depth of generated inputs
};

// Random jq programs. Each call returns one complete program.
class ProgramGenerator {
 public:
  ProgramGenerator(uint64_t seed, GeneratorOptions options = {});
  std::string Next();

 private:
  struct Impl;
  Rng rng_;
  GeneratorOptions options_;
};

// Random JSON texts in jq 1.6's canonical output form (so that jq 1.7's literal-preserving
// number output cannot differ, see KNOWN_DIFFERENCES.md "Number literals").
class JsonGenerator {
 public:
  JsonGenerator(uint64_t seed, GeneratorOptions options = {});
  std::string Next();

 private:
  void Emit(int depth, std::string* out);
  void EmitContainer(bool array, int depth, std::string* out);
  Rng rng_;
  GeneratorOptions options_;
};

// Returns why `program` must not be generated (a construct of a KNOWN_DIFFERENCES.md entry, a
// nondeterministic or unbounded builtin, or a `try`/`?` outside an array collector), or "" when
// it is fine. The random test asserts this on every generated program, so the exclusions stay
// exactly the documented ones.
std::string FindExcludedConstruct(const std::string& program);

}  // namespace wm::diff
