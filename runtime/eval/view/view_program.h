// The view engine's program form (internal to runtime/eval/view): a resolver's IR lowered to the
// forms the view evaluator supports, with `any(f)` / `all(f)` recognised as single nodes, chains
// of constant keys as one node, and every constant path the kind reads from the object's root, or
// from each element of an array the root reaches (`.spec.cliques[] | .spec.x`), replaced by a
// node of the kind's shared path trie. LowerToView refuses anything else with the reason.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/ir/ir.h"
#include "runtime/value/value.h"

namespace wm::view {

enum class VOp : uint8_t {
  kIdentity, kEmpty, kConst,   // a: const index
  kPath,                       // a: trie node (a constant-key path from the root, or from the
                               // element of an iteration node the input is known to be)
  kIterEach,                   // a: iteration trie node: each element of its parent (`.a.b[]`);
                               // c = 1: `.a.b[]?`, nothing where the parent is not iterable
  kFieldPath,                  // kids[0] target; keys: the constant keys, in order (`.a.b.c`)
  kIndex,                      // kids: target, key (any generators)
  kIterate, kPipe, kComma, kNeg,
  kBinary,                     // a: ir::BinaryOp
  kAnd, kOr, kAlternative, kIf,
  kTry,                        // kids: body [, handler]
  kCollect, kObject,           // Object kids: k1, v1, k2, v2, ...
  kVar,                        // a: slot
  kBind,                       // a: slot; kids: source, body
  kNot, kLength, kType,
  kBuiltin,                    // a: ir::BuiltinId of a pure builtin without arguments, on the input
  kAny, kAll,                  // kids[0]: the condition, on each element of .[]
  kFromEntries,                // the prelude's from_entries, on the input
  kWithEntries,                // the prelude's with_entries(f): kids[0] f on each entry of an
                               // object, kids[1] the whole `to_entries | map(f) | from_entries`
                               // for other inputs; a = kKeepMembersWhere when f is
                               // `select(.value OP constant)` (kids[0] the kIf of that select)
  kFieldCompare,               // `.key OP constant`: a = ir::BinaryOp (a comparison), keys[0] the
                               // key, c = const index of the constant
  kEntryKey,                   // a: iteration trie node: the key `to_entries` gives its current
                               // element (an object member's name, an array element's index)
};

// kWithEntries' `a` when f keeps or drops each entry by its value alone (`select(.value != null)`):
// the members are tested where they are, without building entries.
constexpr uint32_t kKeepMembersWhere = 1;

// How the evaluator reads a single node's one value without walking it as a tree (set by
// MarkSingle): the operands of the catalog's status comparisons, `(.status.readyReplicas // 0) ==
// (.spec.replicas // 1)`, read in line by the comparison.
enum class VForm : uint8_t {
  kTree,         // evaluated as a tree
  kConst,        // a kConst
  kPath,         // a kPath
  kPathOrConst,  // `P // c`: a kAlternative of a kPath and a kConst
  kField,        // `.k1.k2` on the node's input: a kFieldPath of a kIdentity (an element's `.ready`)
  kFieldOrConst, // `.k // c`: a kAlternative of a kField and a kConst (`(.ready // 0) > 0`)
  kVar,          // a kVar
  kInput,        // a kIdentity (the node's input)
};

struct VNode {
  VNode() = default;
  VNode(VOp node_op, uint32_t operand, std::vector<uint32_t> children)
      : op(node_op), a(operand), kids(std::move(children)) {}

  VOp op = VOp::kIdentity;
  uint32_t a = 0;
  std::vector<uint32_t> kids;
  uint32_t c = 0;                 // kFieldCompare, kIterEach
  std::vector<std::string> keys;  // kFieldPath, kFieldCompare
  // Exactly one output or an error, with no generator inside (`.a // 0`, `.a == .b`, `$x`): the
  // evaluator computes it directly instead of through continuations. Set by MarkSingle.
  bool single = false;
  VForm form = VForm::kTree;
  // A single kBinary (a comparison, `+`, `-`, `*`) whose two operands have a direct form: they
  // are read in line, one step.
  bool direct_operands = false;
  // A kObject whose keys are string constants that differ from each other (`{cpu: .a, memory:
  // .b}`): the object it builds never repeats a key, so the evaluator does not look. Set by MarkSingle.
  bool distinct_constant_keys = false;
  // One boolean-like output or an error, tested without continuations (Evaluator::Holds): a
  // single node, a kFieldCompare, or `and` / `or` of such conditions. Set by MarkSingle.
  bool condition = false;
  // A kCollect of `.[] | select(c)` (`map(select(c))`) with c a condition: on an array of the
  // document the evaluator tests each element in one loop. Set by MarkSingle.
  bool select_each = false;
  // A kPipe of such a kCollect into `.[0]` (`map(select(c)) | first`): on an array of the
  // document the evaluator tests every element in one loop and keeps the first that passes,
  // without building the array. Set by MarkSingle.
  bool first_selected = false;
  // A kBinary `type == "name"` or `type != "name"` on its input (a constant string name): the
  // evaluator compares the input's kind with the name's, without the name's string. Set by
  // MarkSingle.
  bool type_test = false;
  // 1 + the kind's memo slot of this subexpression, 0 for none: set by ShareRepeatedSubexpressions
  // on a subexpression the kind computes more than once per object (or per element).
  uint32_t memo = 0;
};

struct ViewProgram {
  std::vector<VNode> nodes;
  std::vector<Value> consts;
  uint32_t root = 0;
  uint32_t num_slots = 0;
};

// Constant-key paths shared by a kind's resolvers. Node 0 is the root object. An iteration node
// stands for each element of its parent (`.[]`); the nodes below it (its `owner`) are read from
// the element the evaluator is at. Iterations do not nest (an iteration's owner is the root).
struct PathTrie {
  struct Node {
    uint32_t parent = 0;
    std::string key;       // empty for an iteration node
    bool iteration = false;
    uint32_t owner = 0;    // the nearest iteration node above (this one for an iteration), or 0
    std::vector<uint32_t> children;
  };
  std::vector<Node> nodes{Node{}};
  // The child of `parent` named `key`, added when new.
  uint32_t Child(uint32_t parent, const std::string& key);
  // The iteration node below `parent`, added when new. Precondition: nodes[parent].owner == 0.
  uint32_t IterationChild(uint32_t parent);
};

// Sets VNode::single, form, direct_operands, condition, select_each, first_selected and
// distinct_constant_keys on every node of `program` (kids precede their parents in `nodes`).
void MarkSingle(ViewProgram* program);

// The trie node whose value node `id` outputs: a kPath's, a kIterEach's (each element), or that
// of `.[] | P` with P a path below that iteration; -1 for any other node.
int64_t TrieValueOf(const ViewProgram& program, const PathTrie& trie, uint32_t id);

// The parts of the document `program` may read beyond the trie's keys and types: marks in
// *observed (sized to the trie) every trie node whose whole value the program may use (an output,
// an operand, a builtin's input, an `any`'s or `all`'s whose condition reads its element whole),
// as opposed to the nodes it only reads through to their children (`.spec` in `.spec.replicas`).
// The iteration itself marks its parent (each element is in that array); a node below an
// iteration marks itself, to be checked at each element; node 0 (the root) stands for the whole
// document. Conservative: a node of any other form reads its input whole. The view engine checks
// only these parts for the integer -0 (ParseDom's kDeferred).
void MarkObservedNodes(const ViewProgram& program, const PathTrie& trie, std::vector<bool>* observed);

// Common subexpressions across the resolvers of one kind: gives a memo slot (VNode::memo) to each
// single subexpression whose input is a known value (the document's root, a trie node's value:
// a constant path, an iteration's element or a path below it; or a shared subexpression before
// it in a pipe), that reads nothing else (no variable, no other iteration's element), and that
// the programs compute more than once per object: the same
// status test in several resolvers (`(.spec.replicas // 1)`, `(.status.conditions // []) |
// any(...)`), the same per-element test in several resolvers over one iteration. Outermost
// first (the parts of a shared subexpression get no slot of their own there). The evaluator
// computes such a node once per object, or once per element of the iteration it is below, and
// reads it back after that, as the trie does for paths.
struct SharedSubexpressions {
  // Per slot: the iteration node whose current element the value depends on, 0 for none.
  std::vector<uint32_t> iteration;
  uint32_t slots() const { return static_cast<uint32_t>(iteration.size()); }
};
SharedSubexpressions ShareRepeatedSubexpressions(const std::vector<ViewProgram*>& programs, const PathTrie& trie);

// A single-output program (its root VNode::single) flattened into straight-line code over
// registers: the evaluator runs it as one loop over an array, without a call, a memo test and a
// form switch per node, and without copying the values it reads (a register points at the trie's
// value, the memo slot's, a constant's). Every node the code does not cover is one kTree
// instruction, which the tree evaluator computes as before. Register 0 is the program's input
// (the document's root, or the element for code run on each element). The condition of an `any` / `all` is a block of its own after the main
// code, run once per element; jumps only go forward, so a block's run takes at most its length
// in steps.
enum class FlatOp : uint8_t {
  kConst,          // r = consts[a]
  kPath,           // r = the value at absolute trie node a (an error or a bail ends the run)
  kPathOrConst,    // r = trie node a's value unless null or false, else consts[b]
  kPathBelow,      // kPath and kPathOrConst (b != kNoConst) for node a below each_iteration,
                   // at its current element
  kCompare,        // r = (reg a OP reg b), OP = cmp (an ir::BinaryOp comparison)
  kCompareConst,   // r = (reg a OP consts[b])
  kArith,          // r = reg a OP reg b, OP = cmp (+ - * / %: numbers inline, the rest as the tree)
  kNot,            // r = !truthy(reg a)
  kTruthy,         // r = truthy(reg a), a boolean
  kSetBool,        // r = cmp != 0
  kMove,           // r = reg a
  kJump,           // go to b
  kJumpIfFalsy,    // go to b when reg a is null or false
  kJumpIfTruthy,   // go to b when reg a is neither
  kMemoLoad,       // r = memo slot a's value and go to b, when it is known on this object
  kMemoStore,      // memo slot a = reg r
  kTree,           // r = node a on input reg b, through the tree evaluator (cmp = 1: through its
                   // memo slot, one per element of an iteration, which the code does not keep)
  kField,          // r = reg a's .k1.k2... (node n's keys), or consts[b] where that is null or
                   // false when b != kNoConst
  kFieldCompare,   // r = node n (`.k OP constant`) on reg a
  kAnyAll,         // r = node n (any/all, cmp = 1 for any) on reg a: on an array of the document,
                   // the block at b run on each element (in register `element`), else the tree's
  kObject,         // r = an object built from n members: operands[a + 2j] the const index of
                   // member j's key, operands[a + 2j + 1] its value's register (`{cpu: .a, memory:
                   // .b}`, the keys distinct string constants); with b != kNoConst only the members
                   // whose value passes `value OP consts[b]`, OP = cmp (`{...} |
                   // with_entries(select(.value != null))`)
  kVar,            // r = variable slot a's value (the register points at the slot)
  kSumIsEmpty,     // r = ((reg a + reg b) OP {}), OP = cmp (== or !=): for objects and null
                   // whether they have no member between them, without the merged object
                   // (dynamo's `(.limits // {}) + (.requests // {}) != {}`); other operands
                   // through the sum, as kArith and kCompareConst
  kFirstWhere,     // r = node n (`map(select(c)) | first`) on reg a: on an array of the document,
                   // the block at b (c, in register `element`) run on every element in order and
                   // the first it holds for, null when none; on anything else the tree's
  kToNumber,       // r = reg a | tonumber: a number is kept, a string that is a plain JSON number
                   // read where it is, another string through the builtin; any other kind an error
                   // (the catalog's `.annotations["..."] // 1 | tonumber`)
  kLength,         // r = reg a | length (a DOM object that repeats a key bails)
  kReturn,         // the code's (or the block's) value is reg a
};

struct FlatInstr {
  FlatOp op;
  uint8_t cmp = 0;
  uint32_t r = 0, a = 0, b = 0;
  uint32_t n = 0;        // kField, kFieldCompare, kAnyAll, kFirstWhere: the program node; kObject: the members
  uint32_t element = 0;  // kAnyAll, kFirstWhere: the block's input register
};
constexpr uint32_t kNoConst = UINT32_MAX;

struct FlatCode {
  std::vector<FlatInstr> code;
  // The operand lists of the instructions that take more than two (kObject's members).
  std::vector<uint32_t> operands;
  uint32_t registers = 1;
  // How many program nodes run through kTree (a node and all below it count as one).
  uint32_t tree_nodes = 0;
  // Whether the code has a kObject: native code that runs it leaves built objects in the
  // registers' places, which the runner lets go after the run as Exec's runs do.
  bool builds_objects = false;
  // The most steps Exec takes running the code once from its start, without its `any`/`all`
  // loops: one per instruction, and for each kObject one for its member test and one per member
  // (the bound native code runs under: native_view.h).
  uint64_t straight_steps = 0;
  // The registers kTree and kField write: those that may hold a built array or object, let go
  // at the end of each run.
  std::vector<uint32_t> built_registers;
  // Not 0: the program is `.a[] | f` (`.a[]?` when each_optional) and the code is f's, run on
  // each element of this trie iteration (register 0 the element, kPathBelow reading the nodes
  // below it at that element), each run's value one output.
  uint32_t each_iteration = 0;
  bool each_optional = false;
  // Not kNoSlot: the program is `E as $x | body` with E single, and the code is body's (per
  // element when body is `.a[] | f`). Before it, once per run, the code from `bind_entry` (to
  // its kReturn, register 0 the program's input) computes E into variable slot `bind_slot`,
  // which body's variables read.
  static constexpr uint32_t kNoSlot = ~uint32_t{0};
  uint32_t bind_slot = kNoSlot;
  uint32_t bind_entry = 0;
  // Not kNoCatch: the program is `try B` or `P | try B` (no handler; P and B single), and the
  // main code is P's from 0 and B's from this instruction on: an error raised by an instruction
  // at or after it is caught, and the run has no output (a bail is not caught). The catalog's
  // `.annotations["..."] | tonumber?`, whose absent annotation is an error caught.
  static constexpr uint32_t kNoCatch = ~uint32_t{0};
  uint32_t catch_from = kNoCatch;
};

// `program` flattened (its memo slots, VNode::memo, already given: `memo_iterations[slot]` is
// the slot's iteration node, 0 for a value of the object): a single root's code, or for
// `.a[] | f` with f single, f's code per element (FlatCode::each_iteration), either of them
// also as the body of `E as $x | ...` with E single (FlatCode::bind_slot), or the code of
// `try B` or `P | try B` with P and B single (FlatCode::catch_from). Null for other
// programs, and for a single root whose code would be one kTree of the root (nothing gained).
std::unique_ptr<FlatCode> Flatten(const ViewProgram& program, const PathTrie& trie,
                                  const std::vector<uint32_t>& memo_iterations);

// Lowers `program` (its entry function) to a view program, adding its paths to `trie`; null with
// *reason set when it uses a form the view engine does not support.
std::unique_ptr<ViewProgram> LowerToView(const ir::Program& program, PathTrie* trie, std::string* reason);

}  // namespace wm::view
