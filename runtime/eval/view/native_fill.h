// The contract between the view engine's path cache and native code for its fills (internal to
// the view engine and the code generator that implements it): the runtime describes the fills of
// one kind (FillPlan: each fill root's keyed trie nodes, where each one's state and value go, and
// the layout of those places), a NativeFillCompiler turns the plan into one function per fill
// root, and the runner calls that function where it would walk the trie's tables (PathCache's
// FillObject). The runtime declares the interface and compiler/codegen implements it
// (codegen::MakeNativeFillCompiler), so the runtime does not depend on LLVM. LLVM-free, simdjson-free.
//
// A native fill does exactly what the table-driven fill does on the same tape: it scans each
// object on the trie once, in document order (a repeated key's last value wins), writes kKnown
// and the member's value (a view of its tape index) at each child found, descends into the inner
// children found to be objects, and writes kError at every node below a child whose value is
// neither an object nor null. The caller has marked every place kMissing before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
};

// One fill root's native fill, on the object at tape index `index` (any element: a non-object
// marks as described above): `tape` and `strings` are the parsed document's tape and string
// buffer, `document` its address as the values hold it.
using NativeFillFn = void (*)(const uint64_t* tape, const uint8_t* strings, uint64_t index, uint8_t* states,
                              unsigned char* values, const void* document);

// The compiled fills of one plan, per root in the plan's order; owns their code.
class NativeFills {
 public:
  virtual ~NativeFills() = default;
  virtual NativeFillFn Fill(size_t root) const = 0;
};

class NativeFillCompiler {
 public:
  virtual ~NativeFillCompiler() = default;
  // Null with *error when the plan cannot be compiled (the caller then keeps its table-driven
  // fill). Thread-safe.
  virtual std::shared_ptr<const NativeFills> Compile(const FillPlan& plan, std::string* error) const = 0;
};

}  // namespace wm::view
