// The resolver IR: one jq program as a tree of generator nodes stored in a flat pool, plus a
// function table and a constant pool. The compiler lowers jq ASTs to it (compiler/lower); the
// interpreter (runtime/eval) and the native backends (compiler/codegen) execute it; bundles carry
// it in binary form (ir_binary.h). It has no dependency on the compiler.
//
// Semantics: every node is a jq filter, a generator from one input value to zero or more outputs
// (or an error). ops.def lists the ops with their children, immediates and patterns; builtins.def
// the native builtins (builtins.h); verify.h checks a program against both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/ir/builtins.h"
#include "runtime/value/value.h"

namespace wm::ir {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

// The ops, numbered in the order of ops.def (which documents each op's children and immediate).
enum class Op : uint8_t {
#define WM_IR_OP(Name, Kids, MinKids, MaxKids, OptionalKids, Immediate, Patterns, Labels) Name,
#include "runtime/ir/ops.def"
};
inline constexpr size_t kOpCount = 0
#define WM_IR_OP(Name, Kids, MinKids, MaxKids, OptionalKids, Immediate, Patterns, Labels) +1
#include "runtime/ir/ops.def"
    ;

// The shape of each op, from ops.def: what the verifier (verify.h) checks and the dump prints.
enum class KidRule : uint8_t { kFixed, kPairs, kVariadic, kCalleeArity, kBuiltinArity };
enum class ImmediateKind : uint8_t {
  kNone, kConst, kBinaryOp, kScopedSlot, kScopedParam, kFrameSlot, kFunction, kBuiltin,
};
enum class PatternRule : uint8_t { kNone, kOneOrMore };

struct OpInfo {
  const char* name;          // "Index"
  KidRule kids;
  uint8_t min_kids;          // kFixed only
  uint8_t max_kids;          // kFixed only
  uint32_t optional_kids;    // bit i: child i may be kNoNode
  ImmediateKind immediate;   // what Node::a holds
  PatternRule patterns;      // what Node::patterns holds
  const char* kid_labels;    // space-separated child roles for the dump, "" = unlabeled
};

// The row of `op`; an op outside the table (corrupt input) gets a row named "?op" that
// accepts nothing.
const OpInfo& OpInfoOf(Op op);

// Var, Break and CallParam reach into enclosing functions' frames: their immediate packs how many
// lexical parents (Function::parent) to walk up and the slot / closure parameter index there.
// Patterns and Label always bind in the current frame (plain slot numbers).
inline constexpr uint32_t kScopeLevelShift = 16;
inline constexpr uint32_t kScopeIndexMask = (1u << kScopeLevelShift) - 1;
constexpr uint32_t ScopedIndex(uint32_t levels, uint32_t index) {
  return (levels << kScopeLevelShift) | index;
}
constexpr uint32_t ScopeLevels(uint32_t immediate) { return immediate >> kScopeLevelShift; }
constexpr uint32_t ScopeIndex(uint32_t immediate) { return immediate & kScopeIndexMask; }
// The largest slot or closure parameter index a scoped immediate can name.
inline constexpr uint32_t kMaxScopedIndex = kScopeIndexMask;

enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge };
inline constexpr uint32_t kBinaryOpCount = static_cast<uint32_t>(BinaryOp::Ge) + 1;

// A destructuring pattern: `$x`, `[$a, $b]`, `{key: $v, $w, (expr): pat}`.
struct Pattern {
  enum class Kind : uint8_t { Var, Array, Object } kind = Kind::Var;
  uint32_t slot = 0;                // Var: variable slot
  std::vector<uint32_t> elements;   // Array: sub-pattern indexes (into Program::patterns)
  struct Entry {
    NodeId key = kNoNode;           // key filter (Const string for `name:`), evaluated on the input
    int32_t bind_slot = -1;         // `$name` shorthand / `$name: pat` binds the whole value here
    int32_t value_pattern = -1;     // sub-pattern index or -1
  };
  std::vector<Entry> entries;       // Object
};

struct Node {
  Op op = Op::Identity;
  uint32_t a = 0;                   // op-specific immediate (see Op)
  std::vector<NodeId> kids;
  std::vector<uint32_t> patterns;   // Bind/Reduce/Foreach
  std::string str;                  // Format / StringInterp format name
  uint32_t source_begin = 0;        // byte range in the jq source text, for runtime error messages
  uint32_t source_end = 0;
};

struct Function {
  std::string name;                 // for dumps and errors, e.g. "map/1"
  uint32_t num_closure_params = 0;  // filter parameters (f)
  std::vector<uint32_t> value_param_slots;  // `$p` parameters: slot each binds (the lowering
                                            // leaves it empty and binds `$p` with an explicit Bind)
  uint32_t num_slots = 0;           // variable + label slots of one activation frame
  NodeId body = kNoNode;
  // Lexical parent function (for closures over outer variables), or -1 for top level.
  int32_t parent = -1;
};

// One compiled jq expression. Function 0 is the entry point (no parameters).
struct Program {
  std::vector<Node> nodes;
  std::vector<Value> consts;
  std::vector<Pattern> patterns;
  std::vector<Function> functions;
  std::string source;               // the jq text it came from
};

const char* OpName(Op op);              // OpInfoOf(op).name
const char* BinaryOpName(BinaryOp op);  // "+", "==", ...

// Human-readable dump for `--emit=ir` and golden tests.
std::string Dump(const Program& program);

}  // namespace wm::ir
