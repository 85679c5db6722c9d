// Static facts the interpreter needs to run calls in tail position as loops (runtime/eval
// interpreter.cpp): which functions can recurse, which nodes yield at most one output, and which
// nodes lead, through tail positions, to a call of a recursive function. Computed once per program
// when an interpreter is built; read-only afterwards, so one analysis serves every thread.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/ir/ir.h"

namespace wm::eval_internal {

// How many outputs a node yields per input, as far as the IR alone tells.
enum class OutputCount : uint8_t {
  kMany,          // possibly more than one (or unknown)
  kAtMostOne,     // never more than one, and nothing observable happens after that one
  kOneIfClosures, // at most one provided every closure parameter it invokes (directly or through
                  // the functions it calls) yields at most one: only the run-time frame can tell
};

class TailCallAnalysis {
 public:
  // `program` must have passed the interpreter's structural validation (children in range).
  explicit TailCallAnalysis(const ir::Program& program);

  OutputCount Count(ir::NodeId id) const { return static_cast<OutputCount>(node_info_[id] & kCountMask); }
  // True when evaluating the node in tail position may reach a Call of a recursive function in
  // tail position (through the right side of `|` and `,`, the branches of `if`, the body of a
  // single-variable `as`), i.e. when the interpreter's tail-call path is worth taking.
  bool ReachesTailCall(ir::NodeId id) const { return (node_info_[id] & kReachesTailCallBit) != 0; }
  bool IsRecursive(uint32_t function) const { return recursive_[function] != 0; }

  // The children whose output counts multiply into the node's own (Reduce: only its init; Collect,
  // Error and leaves: none). Shared with the interpreter's run-time check of kOneIfClosures nodes.
  // Returns false when the node is kMany whatever its children are.
  template <class Visit>
  static bool ForEachCountedChild(const ir::Node& n, Visit&& visit);

 private:
  static constexpr uint8_t kCountMask = 0x3;
  static constexpr uint8_t kReachesTailCallBit = 0x4;
  static constexpr uint8_t kCountKnownBit = 0x8;
  static constexpr uint8_t kCountInProgressBit = 0x10;

  void FindRecursiveFunctions();
  OutputCount ComputeCount(ir::NodeId id, int depth);
  OutputCount FunctionCount(uint32_t function, int depth);
  bool ComputeReachesTailCall(ir::NodeId id, int depth) const;

  const ir::Program& program_;
  std::vector<uint8_t> node_info_;
  std::vector<uint8_t> recursive_;
  std::vector<uint8_t> function_state_;  // 0 unknown, 1 in progress, 2 done
  std::vector<OutputCount> function_count_;
};

template <class Visit>
bool TailCallAnalysis::ForEachCountedChild(const ir::Node& n, Visit&& visit) {
  using ir::Op;
  switch (n.op) {
    case Op::Identity: case Op::Empty: case Op::Const: case Op::Loc: case Op::Var: case Op::Break:
    case Op::Format: case Op::Collect: case Op::Error:
      return true;
    case Op::RecurseAll: case Op::Iterate: case Op::Comma: case Op::Foreach:
    case Op::Call: case Op::CallParam:  // handled by the callers, which know the callee
      return false;
    case Op::Reduce:
      return visit(n.kids[1]);
    case Op::CallBuiltin:
      if (ir::IsGeneratorBuiltin(static_cast<ir::BuiltinId>(n.a))) return false;
      break;
    default:
      break;
  }
  for (ir::NodeId kid : n.kids) {
    if (kid != ir::kNoNode && !visit(kid)) return false;
  }
  return true;
}

}  // namespace wm::eval_internal
