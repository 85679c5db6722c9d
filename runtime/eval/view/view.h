// The view engine ("fused"): the resolvers of one kind evaluated together straight on simdjson's
// parsed DOM of each object, without converting the document into Values. FusedKind lowers each
// resolver's IR to a view program when it uses only the supported forms (view_program.h) and
// shares the constant paths from the root between them (one trie, walked once per object);
// FusedRunner parses one object's text and evaluates every resolver. Results equal the
// interpreter's: a resolver that is not fused, raises an error or reaches a limit runs on the
// regular engine over the converted document. simdjson stays out of this header.
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/eval/eval.h"
#include "runtime/eval/view/native_view.h"
#include "runtime/ir/ir.h"
#include "runtime/value/json.h"
#include "runtime/value/value.h"

namespace wm::view {

struct FusedKindOptions {
  // true: objects are seen with their keys in bytewise order at every depth (wm::SortKeysDeep,
  // what workload resolution evaluates, Go-map order); false: document order (`wmc eval`).
  bool sort_keys = false;
  // Compiles the trie's fills to native code (codegen::MakeNativeViewCompiler); null: the fills
  // walk the trie's tables. Answers are the same either way; a plan it cannot compile keeps the
  // tables (FusedKind::native_error).
  std::shared_ptr<const NativeViewCompiler> native;
};

// The view engine's steps are not the regular engines' (a path answered from its cache costs none,
// as does a resolver that is one trie path or one trie iteration, bounded by the document and the
// output limit; a fused node one step where the interpreter takes several); it bails out to the regular engine
// when its own count reaches the budget. Its programs have no loops or recursion, so a run is
// bounded by the document's size. Callers take it only under a step budget and a time limit at
// least the defaults (or no time limit), where those limits are meant for runaway programs; a
// caller that lowered them gets the regular engines, whose counts are the documented ones.
bool LimitsAllowView(const EvalLimits& limits);
// The test behind it, for any pair of such limits (the workload layer's object budget too): the
// step budget at least `default_fuel`, and the time limit off or at least `default_timeout_ms`
// (a default of 0, no limit, makes any set limit a lower one).
bool StepsAndTimeAtLeast(uint64_t fuel, uint64_t timeout_ms, uint64_t default_fuel, uint64_t default_timeout_ms);

// An array or object the view engine built (defined in view.cpp): its members stay the
// evaluator's values, views of the document among them, until an output is converted or written.
struct ViewComposite;
// A composite output's reference count (non-atomic: a runner's outputs belong to its thread).
void RetainComposite(const ViewComposite* built) noexcept;
void ReleaseComposite(const ViewComposite* built) noexcept;

// One output: a sub-document of the parsed object (a view, no copy), a value the program built,
// or an array or object the program built whose members are outputs in turn (`{spec: .spec}`
// refers to the document's spec), kept as the evaluator built it: nothing is converted until the
// caller asks (ToValue, WriteJson). A view, or a composite holding one, is valid until its
// FusedRunner runs the next object; a composite refers to its FusedKind's constants, and is
// copied and dropped on its runner's thread (its count is not atomic). 24 bytes, one form at a time: a
// catalog kind makes a hundred outputs per object, mostly views, and a view is copied and
// dropped without a branch into a Value's or a composite's bookkeeping.
class ViewOutput {
 public:
  ViewOutput() noexcept : form_(Form::kNull) {}  // null
  explicit ViewOutput(Value value) noexcept : value_(std::move(value)) {}
  ViewOutput(const ViewOutput& other) noexcept { CopyFrom(other); }
  ViewOutput(ViewOutput&& other) noexcept { MoveFrom(std::move(other)); }
  ViewOutput& operator=(const ViewOutput& other) noexcept {
    if (this != &other) {
      Destroy();
      CopyFrom(other);
    }
    return *this;
  }
  ViewOutput& operator=(ViewOutput&& other) noexcept {
    if (this != &other) {
      Destroy();
      MoveFrom(std::move(other));
    }
    return *this;
  }
  ~ViewOutput() { Destroy(); }

  // Internal: a DOM element (raw bytes of a simdjson::dom::element) seen in the given key order;
  // a constructor, so that a runner builds it in place in its output buffer (emplace_back).
  ViewOutput(const void* element_bytes, bool sort_keys) noexcept : form_(Form::kView), sort_keys_(sort_keys) {
    std::memcpy(element_, element_bytes, sizeof(element_));
  }
  // Internal: this output made the view of a DOM element, or null, in place (the runner sets its
  // path resolvers' outputs where the last object's were).
  void SetView(const void* element_bytes, bool sort_keys) noexcept {
    Destroy();
    form_ = Form::kView;
    sort_keys_ = sort_keys;
    std::memcpy(element_, element_bytes, sizeof(element_));
  }
  void SetNull() noexcept {
    Destroy();
    form_ = Form::kNull;
  }
  // Internal: SetView and SetNull for an output that holds a view or null (nothing to release).
  void ResetView(const void* element_bytes, bool sort_keys) noexcept {
    form_ = Form::kView;
    sort_keys_ = sort_keys;
    std::memcpy(element_, element_bytes, sizeof(element_));
  }
  void ResetNull() noexcept { form_ = Form::kNull; }
  // Internal: a built array or object (an object's keys unique), seen in the given key order;
  // takes one reference.
  static ViewOutput OfComposite(const ViewComposite* built, bool sort_keys) noexcept;

  bool is_view() const { return form_ == Form::kView; }
  // Internal: the built array or object this output holds a reference to, or null.
  const ViewComposite* composite() const { return form_ == Form::kComposite ? composite_ : nullptr; }
  // Internal: the DOM element's raw bytes (precondition: is_view()).
  const void* element_bytes() const { return element_; }
  // True for a string output, read from the DOM without converting the output (`wmc eval -r`).
  bool IsString() const;
  // The output as a Value (converts only this sub-tree; key-sorted in sort_keys mode).
  Value ToValue() const;
  // Appends exactly what wm::WriteJson(ToValue(), out, options) appends, from the DOM.
  void WriteJson(std::string* out, const JsonWriteOptions& options = {}) const;

 private:
  // kNull holds nothing: the null output (an absent path's, most of a kind's outputs after views)
  // is built and dropped without a Value's construction and destruction.
  enum class Form : uint8_t { kNull, kValue, kView, kComposite };
  explicit ViewOutput(Form form) noexcept : form_(form) {}

  void Destroy() noexcept {
    if (form_ == Form::kValue) {
      value_.~Value();
    } else if (form_ == Form::kComposite) {
      ReleaseComposite(composite_);
    }
  }
  void CopyFrom(const ViewOutput& other) noexcept {
    form_ = other.form_;
    sort_keys_ = other.sort_keys_;
    if (form_ == Form::kView) {
      std::memcpy(element_, other.element_, sizeof(element_));
    } else if (form_ == Form::kValue) {
      new (&value_) Value(other.value_);
    } else if (form_ == Form::kComposite) {
      composite_ = other.composite_;
      RetainComposite(composite_);
    }
  }
  void MoveFrom(ViewOutput&& other) noexcept {
    form_ = other.form_;
    sort_keys_ = other.sort_keys_;
    if (form_ == Form::kView) {
      std::memcpy(element_, other.element_, sizeof(element_));
    } else if (form_ == Form::kValue) {
      new (&value_) Value(std::move(other.value_));
    } else if (form_ == Form::kComposite) {
      composite_ = other.composite_;  // the reference moves
      other.form_ = Form::kNull;
    }
  }

  Form form_ = Form::kValue;
  bool sort_keys_ = false;
  union {
    alignas(8) unsigned char element_[16];
    Value value_;
    const ViewComposite* composite_;
  };
};

// The outputs of one resolver on one object, in order: a range of its runner's output buffer (the
// outputs of every resolver of the object, one after the other), valid until the runner's next
// Run. One buffer, its capacity kept across objects, instead of a vector per resolver.
class ViewOutputs {
 public:
  const ViewOutput* begin() const { return all_->data() + begin_; }
  const ViewOutput* end() const { return all_->data() + end_; }
  size_t size() const { return end_ - begin_; }
  bool empty() const { return end_ == begin_; }
  const ViewOutput& operator[](size_t i) const { return (*all_)[begin_ + i]; }

 private:
  friend class FusedRunner;
  static const std::vector<ViewOutput> kNone;
  const std::vector<ViewOutput>* all_ = &kNone;
  size_t begin_ = 0;
  size_t end_ = 0;
};

// The result of one resolver on one object.
struct ResolverResult {
  EvalStatus status = EvalStatus::kOk;
  EvalError error;      // when status == kError
  ViewOutputs outputs;  // in order
  bool fused = false;   // true when the view engine produced it (no fallback)
};

struct ViewProgram;  // view_program.h
struct PathTrie;
struct FlatCode;

// The lowered resolvers of one kind. Immutable; one FusedKind may serve many runners (threads).
class FusedKind {
 public:
  // Makes the engine of a split resolver's tail (see split_heads_); null: the interpreter.
  using TailEngine = std::function<std::shared_ptr<const Filter>(std::shared_ptr<const ir::Program>)>;

  // `fallbacks[i]` runs resolver i when the view engine cannot (any engine: interp, JIT, AOT);
  // empty or null entries get the interpreter. `tail_engine` compiles the tails of split resolvers
  // (a caller whose fallbacks are native code gives tails the same engine).
  FusedKind(std::vector<std::shared_ptr<const ir::Program>> programs, FusedKindOptions options = {},
            std::vector<std::shared_ptr<const Filter>> fallbacks = {}, const TailEngine& tail_engine = nullptr);
  ~FusedKind();

  size_t size() const { return programs_.size(); }
  bool fused(size_t i) const;
  // Not fused, but split: a head of its pipe chain runs on the DOM, the rest on the interpreter.
  bool split(size_t i) const { return split_heads_[i] != nullptr; }
  size_t fused_count() const;
  // Why resolver i is not fused ("" when it is): the first unsupported form.
  const std::string& unsupported_reason(size_t i) const { return reasons_[i]; }
  const FusedKindOptions& options() const { return options_; }
  // Whether the trie's fills run as native code (options().native compiled them), and why
  // not when a compiler was given and failed.
  bool native_code() const { return native_code_ != nullptr; }
  // Whether resolver i's flat code runs as native code (NativeProgramSupported, and compiled).
  bool native_program(size_t i) const;
  const std::string& native_error() const { return native_error_; }

 private:
  friend class FusedRunner;
  void SplitAtPipe(size_t i, const TailEngine& tail_engine);
  void CompileNative();

  std::vector<std::shared_ptr<const ir::Program>> programs_;
  FusedKindOptions options_;
  std::vector<std::shared_ptr<const Filter>> fallbacks_;
  std::vector<std::unique_ptr<ViewProgram>> views_;  // null = not fused
  std::vector<std::string> reasons_;
  // A resolver that is not fused but is `HEAD | TAIL` with a HEAD the view engine takes (the
  // longest such prefix of its pipe chain): HEAD runs on the DOM and TAIL on the interpreter over
  // each of HEAD's outputs converted alone, so only the sub-documents TAIL reads are copied.
  // Null entries: no split (the whole program falls back).
  std::vector<std::unique_ptr<ViewProgram>> split_heads_;
  std::vector<std::shared_ptr<const Filter>> split_tails_;
  std::unique_ptr<PathTrie> trie_;
  // Per memo slot (subexpressions shared by the programs, ShareRepeatedSubexpressions): the
  // iteration node whose element its value depends on, 0 for none.
  std::vector<uint32_t> memo_iterations_;
  // Per resolver: its view program (or split head) flattened (Flatten), null where it has no
  // flat code (its root is not single, or the code would be the tree's own run).
  std::vector<std::unique_ptr<FlatCode>> flat_;
  // The parts of each object the view programs read whole (MarkObservedNodes): the absolute trie
  // nodes marked, without those below another marked one. Only they are checked for the integer
  // -0 (whose sign simdjson drops), unless the programs read the whole document
  // (observes_whole_document_) or a resolver falls back (which converts it all).
  std::vector<uint32_t> observed_nodes_;
  bool observes_whole_document_ = false;
  // Per iteration, its nodes marked so (and no ancestor of theirs): where the iteration's array
  // holds an integer 0, each is checked at every element, so that a pod template per replicated
  // job is checked, not the jobs' other fields (a backoffLimit of 0 sent every JobSet's text to
  // the scan for "-0").
  struct ObservedBelow {
    uint32_t iteration;
    std::vector<uint32_t> nodes;
  };
  std::vector<ObservedBelow> observed_below_;
  // The trie's fills as native code (FusedKindOptions::native), and per trie node the fill
  // of the objects at that node (the root, 0, and the iteration nodes), null where the tables
  // fill it. Empty without native fills.
  std::shared_ptr<const NativeViewCode> native_code_;
  std::vector<NativeFillFn> native_fill_by_node_;
  std::string native_error_;
  // The native programs, per resolver (null where Exec runs its flat code), and their tables
  // (native_view.h), defined in view.cpp.
  struct NativePrograms;
  std::unique_ptr<NativePrograms> native_programs_;
};

// Counters of one runner, for benchmarks and tests.
struct FusedStats {
  uint64_t objects = 0;
  uint64_t fused_runs = 0;          // resolver runs answered on the DOM
  uint64_t flat_runs = 0;           // of those, programs run as flat code (Flatten)
  uint64_t native_runs = 0;         // of those, flat code run as native code (FusedKindOptions::native)
  uint64_t tree_runs = 0;           // of those, programs run by the tree evaluator (no flat code)
  uint64_t object_runs = 0;         // of those, objects of root paths built without the evaluator
  uint64_t fallback_runs = 0;       // resolver runs on the regular engine
  uint64_t document_fallbacks = 0;  // objects simdjson could not represent exactly (ParseJson)
  uint64_t split_runs = 0;          // resolver runs answered as HEAD on the DOM, TAIL on the interpreter
  uint64_t split_conversions = 0;   // sub-documents converted for split tails and builtins (once per object each)
};

// Per-thread state: the simdjson parser, the per-object path cache and the results.
class FusedRunner {
 public:
  explicit FusedRunner(const FusedKind& kind);
  ~FusedRunner();

  // Bytes after a text that let Run parse it where it is (simdjson's padding): a caller whose
  // text is followed by that many readable bytes (the rest of a read buffer, a padded copy) says
  // so with `readable_after`, and saves a copy of the text per object.
  static constexpr size_t kTextPadding = 64;

  // Parses one JSON document and evaluates every resolver of the kind on it. false (with *error)
  // when the text is not valid JSON. Results stay valid until the next Run. `readable_after`:
  // how many bytes after the text may be read (they are never used as part of it).
  bool Run(std::string_view json, const RunOptions& options, JsonError* error, size_t readable_after = 0);
  const ResolverResult& result(size_t i) const { return results_[i]; }
  const FusedStats& stats() const { return stats_; }

 private:
  struct State;
  // Resolver i's result reads all[begin, end): the per-object buffer outputs_, or a buffer the
  // runner keeps across objects (the literals' outputs, the objects of root paths).
  void SetOutputs(size_t i, const std::vector<ViewOutput>& all, size_t begin, size_t end);
  void SetOutputs(size_t i, size_t begin, size_t end) { SetOutputs(i, outputs_, begin, end); }
  // Resolver i answered on the DOM: its outputs are all[begin, end).
  void AnsweredOnDom(size_t i, const std::vector<ViewOutput>& all, size_t begin, size_t end);
  void AnsweredOnDom(size_t i, size_t begin, size_t end) { AnsweredOnDom(i, outputs_, begin, end); }
  // The each-path resolvers (State::each_path_groups); the ones left to the regular engine are
  // listed in State::each_path_failed.
  void AnswerEachPathGroups(const RunOptions& options);
  // Whether a part of this object the programs read whole (FusedKind's observed nodes, below
  // iterations at each element) holds an integer 0, which the text may have written as "-0".
  bool ObservedPartsHoldIntegerZero();
  // The object through the regular reader and engine (a document simdjson cannot represent
  // exactly, or text that is not JSON): every result set, false with *error when it is not JSON.
  bool RunOnRegularReader(std::string_view json, const RunOptions& options, JsonError* error);
  const FusedKind& kind_;
  std::unique_ptr<State> state_;
  std::vector<ResolverResult> results_;
  std::vector<ViewOutput> outputs_;  // every resolver's outputs on the current object (ViewOutputs)
  FusedStats stats_;
};

}  // namespace wm::view
