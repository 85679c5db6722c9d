// The contract between the view engine and native code for it (internal to the view engine and
// the code generator that implements it): the runtime describes one kind (NativeViewPlan: the
// trie's fills, and the flat code of the programs native code can run), a NativeViewCompiler
// turns the plan into functions, and the runner calls them where it would walk the trie's tables
// (PathCache's FillObject) or interpret the flat code (Evaluator::Exec). The runtime declares the
// interface and compiler/codegen implements it (codegen::MakeNativeViewCompiler), so the runtime
// does not depend on LLVM. LLVM-free, simdjson-free.
//
// A native fill does exactly what the table-driven fill does on the same tape: it scans each
// object on the trie once, in document order (a repeated key's last value wins), writes kKnown
// and the member's value (a view of its tape index) at each child found, descends into the inner
// children found to be objects, and writes kError at every node below a child whose value is
// neither an object nor null. The caller has marked every place kMissing before.
//
// A native program does what Exec does with the same flat code, for the instructions
// NativeProgramSupported allows (reads of absolute trie nodes, constants, comparisons, tests,
// jumps, the kind's memo, `any`/`all` over an array of the document with `.key OP constant`
// tests, objects with constant keys through the runtime's helper), without charging steps: it
// runs only where the most steps Exec could take (FlatCode::straight_steps, plus each `any`'s
// elements times its block's length) fit in the first slice of the step budget, where Exec
// cannot run out either, and declines otherwise. An error or a bail ends
// it with that status, as Exec's (an error of `try`'s body: kNativeCaught, a run without output);
// the runner then does what it does after Exec's. It declines
// (kNativeDecline) where Exec would take a path it does not cover (an `any` over a value that is
// not an array of the document, a field of a value that is not an object of it): the runner then
// runs the program's Exec from its start (native code writes nothing but memo slots, whose values
// Exec would compute the same, and its registers' places, which Exec writes before it reads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/eval/view/view_program.h"

namespace wm::view {

struct FillPlan {
  // A keyed trie node below a fill root. Node 0 of a root's list is the root itself (its place
  // and key unused).
  struct Node {
    std::string key;                // the member name that leads to it from its parent
    uint32_t place = 0;             // index of its state byte and value in the caller's arrays
    std::vector<uint32_t> children; // its keyed children, as indices into the root's list
  };
  struct Root {
    uint32_t trie_node = 0;  // 0: the document's root; else an iteration node (each element)
    std::vector<Node> nodes;
  };
  std::vector<Root> roots;

  // The layout of the caller's places: `states[place]` is one byte; `values + place *
  // value_size` is the value, whose byte at `tag_offset` says what it holds; a view of the
  // document is tag `view_tag` with, from `view_offset`, the document's address (8 bytes) and the
  // element's tape index (8 bytes).
  uint32_t value_size = 0;
  uint32_t tag_offset = 0;
  uint32_t view_offset = 0;
  uint8_t view_tag = 0;
  uint8_t known_state = 0;
  uint8_t error_state = 0;
  uint8_t missing_state = 0;
  // The tags below view_tag: [0, falsy_tags) are null and false, [falsy_tags, view_tag) true and
  // numbers (truthy). Tags above view_tag are the runtime's to test (NativeViewHelpers::truthy).
  uint8_t falsy_tags = 0;
  uint8_t null_tag = 0;    // null (a missing path's, a search's that found nothing)
  uint8_t number_tag = 0;  // a number the program computed: its double at view_offset
  uint8_t constant_tag = 0;  // a constant: the address of its wm::Value at view_offset (laid out
                             // as native_abi.h's WmValue: kind byte, then the number at 8)
};

// A program's table (NativeProgramArgs::table), built by the runtime: the values the code refers
// to, by index.
constexpr uint32_t kNativeNullValue = 0;   // the null value (what a missing path reads)
constexpr uint32_t kNativeTrueValue = 1;
constexpr uint32_t kNativeFalseValue = 2;
constexpr uint32_t kNativeConstants = 3;   // then constant c's value at kNativeConstants + c, and its
                                           // wm::Value at kNativeConstants + constant count + c

struct ProgramPlan {
  uint32_t resolver = 0;
  const FlatCode* code = nullptr;        // valid during Compile; NativeProgramSupported(*code, *program)
  const ViewProgram* program = nullptr;  // the code's program (kFieldCompare's node), valid during Compile
  uint32_t constants = 0;                // the program's constant count (its table's layout)
};

struct NativeViewPlan {
  FillPlan fills;
  std::vector<ProgramPlan> programs;
  // Per trie node below an iteration: its place in each element's states and values (kPathBelow).
  std::vector<uint32_t> below_index;
};

// Whether native code runs `code` (of `program`): a single program's code, or each element's of
// `.a[] | f` (FlatCode::each_iteration: the runner calls it per element), either of them also as
// the body of `E as $x | ...` with E's code (FlatCode::bind_slot; kVar of that slot only), or a
// single program's `try` (FlatCode::catch_from), of at most kNativeProgramMaxLength
// instructions, each one of kConst, kPath, kPathBelow, kArith (+ - * of numbers; other operands
// decline), kPathOrConst, kCompare, kCompareConst, kNot, kTruthy, kSetBool, kMove, the jumps, kMemoLoad,
// kMemoStore, kAnyAll, kFirstWhere, kFieldCompare and kField of one key, kObject, kSumIsEmpty,
// kToNumber and kLength (through the helpers) and kReturn, each block (an `any`'s or a search's
// condition) ending at its first kReturn with its jumps inside it.
constexpr size_t kNativeProgramMaxLength = 4096;  // eval_internal::StepBudget::kSlice
bool NativeProgramSupported(const FlatCode& code, const ViewProgram& program);
// Whether the value of the kField at `pc` may be read after native code returns (the program's
// output, directly or through a move, kToNumber or the bound variable): native code keeps such a
// value in its register's place (NativeProgramArgs::scratch), any other on its own stack.
bool NativeFieldEscapes(const FlatCode& code, size_t pc);

// What a native program's value tests and memo reads call back into (the runtime's own
// functions, as Exec calls them). Values are the runtime's (FillPlan's layout); `constant` a wm::Value.
struct NativeViewHelpers {
  int32_t (*holds_against_constant)(uint32_t op, const void* value, const void* constant);  // ir::BinaryOp
  int32_t (*compare)(const void* a, const void* b);  // jq's order: <0, 0, >0
  int32_t (*truthy)(const void* value);
  const void* (*memo_load)(void* evaluator, uint32_t slot);  // null: not known on this object
  const void* (*memo_store)(void* evaluator, uint32_t slot, const void* value);  // where it is kept
  int32_t (*empty_array)(const void* value);  // not a view, and an empty array (`// []`)
  void (*set_number)(void* place, double number);  // a computed number into a register's place
  // kObject: the object of `count` members (keys[m] a string constant's wm::Value, values[m] its
  // value) into `place`, a register's place; with `against` (a constant's wm::Value, or null for
  // none) only the members whose value passes `value OP against`. A status (kNative*).
  int32_t (*build_object)(void* evaluator, uint32_t count, const void* const* keys, const void* const* values,
                          uint32_t op, const void* against, void* place);
  // kSumIsEmpty: 1 when a + b is the empty object, 0 when it is another object, kNativeDecline for
  // operands that are not two objects or an object and null (Exec computes their sum).
  int32_t (*sum_is_empty)(const void* a, const void* b);
  // kToNumber: `tonumber` of `value` into *result (`value` itself when it is a number, else
  // `place`, a register's place, holding the number read); kNativeContinue or kNativeError.
  int32_t (*to_number)(const void* value, void* place, const void** result);
  // kLength: `length` of `value`, a number into `place` (a register's place); a status.
  int32_t (*length)(const void* value, void* place);
};

struct NativeProgramArgs {
  const uint8_t* states;        // the absolute trie nodes' states and values (FillPlan's places);
  const unsigned char* values;  // node 0's value is the document's root, the program's input
  const uint64_t* tape;         // the object's tape: a view's type word is tape[its index]
  const uint8_t* strings;       // and its string buffer (a key's size, then its bytes)
  const void* const* table;     // the program's table (kNative*)
  const NativeViewHelpers* helpers;
  void* evaluator;              // the memo helpers' first argument
  const void* document;         // the object's document, as its views hold it
  uint64_t step_limit;          // the steps Exec may take without reaching the budget's end
  const void* input;            // register 0: the document's root, or the element (per element)
  const uint8_t* below_states;  // per element: the element's nodes (NativeViewPlan::below_index)
  const unsigned char* below_values;
  unsigned char* scratch;       // one value place per register (FillPlan's layout), for numbers
};

// A native program's statuses.
constexpr int32_t kNativeContinue = 0;  // *result is the program's value
constexpr int32_t kNativeError = 1;
constexpr int32_t kNativeBail = 2;
constexpr int32_t kNativeDecline = 3;  // run the program's Exec instead
constexpr int32_t kNativeCaught = 4;   // `try B`'s body (FlatCode::catch_from on) raised an error:
                                       // the run has no output
using NativeProgramFn = int32_t (*)(const NativeProgramArgs* args, const void** result);

// One fill root's native fill, on the object at tape index `index` (any element: a non-object
// marks as described above): `tape` and `strings` are the parsed document's tape and string
// buffer, `document` its address as the values hold it.
using NativeFillFn = void (*)(const uint64_t* tape, const uint8_t* strings, uint64_t index, uint8_t* states,
                              unsigned char* values, const void* document);

// The compiled code of one plan: the fills per root and the programs, in the plan's orders; owns
// their code.
class NativeViewCode {
 public:
  virtual ~NativeViewCode() = default;
  virtual NativeFillFn Fill(size_t root) const = 0;
  virtual NativeProgramFn Program(size_t program) const = 0;
};

class NativeViewCompiler {
 public:
  virtual ~NativeViewCompiler() = default;
  // Null with *error when the plan cannot be compiled (the caller then keeps its table-driven
  // fill). Thread-safe.
  virtual std::shared_ptr<const NativeViewCode> Compile(const NativeViewPlan& plan, std::string* error) const = 0;
};

}  // namespace wm::view
