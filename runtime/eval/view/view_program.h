// The view engine's program form (internal to runtime/eval/view): a resolver's IR lowered to the
// forms the view evaluator supports, with `any(f)` / `all(f)` recognised as single nodes and every
// chain of constant keys read from the object's root (`.spec.template`) replaced by a node of the
// kind's shared path trie. LowerToView refuses anything else with the reason.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/ir/ir.h"
#include "runtime/value/value.h"

namespace wm::view {

enum class VOp : uint8_t {
  kIdentity, kEmpty, kConst,   // a: const index
  kRootPath,                   // a: trie node (a constant-key path from the object's root)
  kField,                      // kids[0] target; a: const index of the string key
  kIndex,                      // kids: target, key (any generators)
  kIterate, kPipe, kComma, kNeg,
  kBinary,                     // a: ir::BinaryOp
  kAnd, kOr, kAlternative, kIf,
  kTry,                        // kids: body [, handler]
  kCollect, kObject,           // Object kids: k1, v1, k2, v2, ...
  kVar,                        // a: slot
  kBind,                       // a: slot; kids: source, body
  kNot, kLength,
  kAny, kAll,                  // kids[0]: the condition, on each element of .[]
  kFieldCompare,               // `.key OP constant`: a = ir::BinaryOp (a comparison), b = const
                               // index of the key, c = const index of the constant
};

struct VNode {
  VOp op = VOp::kIdentity;
  uint32_t a = 0;
  std::vector<uint32_t> kids;
  uint32_t b = 0, c = 0;        // kFieldCompare only
};

struct ViewProgram {
  std::vector<VNode> nodes;
  std::vector<Value> consts;
  uint32_t root = 0;
  uint32_t num_slots = 0;
};

// Constant-key paths from the root shared by a kind's resolvers. Node 0 is the root itself.
struct PathTrie {
  struct Node {
    uint32_t parent = 0;
    std::string key;
    std::vector<uint32_t> children;
  };
  std::vector<Node> nodes{Node{}};
  // The child of `parent` named `key`, added when new.
  uint32_t Child(uint32_t parent, const std::string& key);
};

// Lowers `program` (its entry function) to a view program, adding its root paths to `trie`; null
// with *reason set when it uses a form the view engine does not support.
std::unique_ptr<ViewProgram> LowerToView(const ir::Program& program, PathTrie* trie, std::string* reason);

}  // namespace wm::view
