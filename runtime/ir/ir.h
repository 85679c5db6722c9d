// The resolver IR: one jq program as a tree of generator nodes stored in a flat pool, plus a
// function table and a constant pool. The compiler lowers jq ASTs to it (compiler/lower); the
// interpreter (runtime/eval) and the native backends (compiler/codegen) execute it; bundles carry
// it in binary form (ir_binary.h). It has no dependency on the compiler.
//
// Semantics: every node is a jq filter, a generator from one input value to zero or more outputs
// (or an error). Children are listed in `kids` in the order documented per Op below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace wm::ir {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

enum class Op : uint8_t {
  // --- paths and basic filters
  Identity,     // .
  RecurseAll,   // ..  (recurse(.[]?))
  Empty,        // empty
  Const,        // literal: consts[a]
  Index,        // T[K]: kids {target, key}; key and target both see the input. `.a` is Index(Identity, Const "a").
  Slice,        // T[F:L]: kids {target, from, to}; a missing bound is kNoNode.
  Iterate,      // T[]: kids {target}
  Pipe,         // A | B: kids {a, b}
  Comma,        // A, B: kids {a, b}
  // --- operators
  Neg,          // -A: kids {a}
  Binary,       // A op B: kids {a, b}; a = BinaryOp. Cartesian: for each b of B (outer), each a of A.
  And,          // A and B: short-circuit, kids {a, b}
  Or,           // A or B: short-circuit, kids {a, b}
  Alternative,  // A // B: kids {a, b}
  If,           // if C then T else E end: kids {cond, then, else}; a missing else is Identity.
  Try,          // try B catch H / B?: kids {body, handler}; handler kNoNode = suppress errors.
  // --- construction
  Collect,      // [A]: kids {a} (A may be Empty for [])
  Object,       // {k1: v1, ...}: kids {k1, v1, k2, v2, ...}; cartesian over all keys and values.
  Format,       // @name applied to input: str = format name ("text", "json", "base64", ...)
  StringInterp, // "..\(A)..": kids are the parts in order; a Const string part is literal text,
                // any other part is an interpolated filter formatted with format `str` ("text" default).
  // --- variables, control
  Var,          // $name: a = ScopedIndex(levels, slot): variable slot of the frame `levels` lexical
                // parents up (0 = the current frame; see Function::num_slots and ScopedIndex below)
  Bind,         // SRC as PATTERNS | BODY: kids {source, body}; patterns = indexes into Program::patterns
                // (more than one = ?// alternatives).
  Reduce,       // reduce SRC as PAT (INIT; UPDATE): kids {source, init, update}; patterns[0]
  Foreach,      // foreach SRC as PAT (INIT; UPDATE; EXTRACT): kids {source, init, update, extract|kNoNode}
  Label,        // label $name | BODY: kids {body}; a = label slot in the current frame (the slot
                // holds a per-activation label id)
  Break,        // break $name: a = ScopedIndex(levels, label slot)
  // --- functions
  Call,         // user/prelude function: a = function index; kids = closure args (filter params)
                // followed by nothing else; value params ($p) are bound inside the callee.
  CallParam,    // invoke a closure parameter (a filter argument): a = ScopedIndex(levels, index)
  CallBuiltin,  // native builtin: a = BuiltinId; kids = argument filters. Cartesian over the args.
  // --- paths (path(f), assignment, del, paths, ...)
  PathOf,       // path(A): kids {a}; yields arrays of path components
  GetPathGen,   // internal: in path mode, getpath(P) extends the current path. kids {p}
  Error,        // error(A) / error: kids {message or kNoNode}
  Loc,          // $__loc__: consts[a] holds {"file":..,"line":..}
};

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

enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge };

// Value-level builtins implemented in C++ (runtime/eval/builtins). Filters that jq defines in jq
// (map, select, to_entries, ...) are lowered to IR functions instead (compiler/lower prelude).
// Order is part of the bundle format: append only.
enum class BuiltinId : uint16_t {
  Length, Utf8ByteLength, Not, Keys, KeysUnsorted, Has, Contains, Add, Type, ToString, ToNumber,
  ToJson, FromJson, Floor, Sqrt, Pow, Log, Exp, Log10, Log2, Fabs, Round, Ceil, Trunc,
  Sort, SortBy, GroupBy, Min, Max, MinBy, MaxBy, Unique, UniqueBy, Reverse, Explode, Implode,
  Split, Join, AsciiDowncase, AsciiUpcase, LtrimStr, RtrimStr, StartsWith, EndsWith, Indices,
  Infinite, Nan, IsInfinite, IsNan, IsNormal, GetPath, SetPath, DelPaths, ToEntries, FromEntries,
  Tostream, Test, Match, Env, Builtins, Now, Mktime, Gmtime, Localtime, Strftime, Strptime,
  Strflocaltime, Significand, Abs, ToArray, Flatten, Range, Error,
  // The interpreter's owner may append more; never reorder (bundles store the numbers).
  Count,  // keep last; not a builtin
};

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

const char* OpName(Op op);
const char* BinaryOpName(BinaryOp op);  // "+", "==", ...
// Names and arities cover BuiltinId and the interpreter's extension ids (runtime/eval/builtins.h,
// from 256). Unknown ids: "?builtin" and -1.
const char* BuiltinName(BuiltinId id);  // jq name, e.g. "length"
int BuiltinArity(BuiltinId id);         // number of filter arguments
bool IsKnownBuiltin(BuiltinId id);      // BuiltinArity(id) >= 0

// Human-readable dump for `--emit=ir` and golden tests.
std::string Dump(const Program& program);

}  // namespace wm::ir
