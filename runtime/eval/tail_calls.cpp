// The static half of the interpreter's tail calls (internal/tail_calls.h): recursive functions
// from the call graph, output counts and tail-call reachability per node. Every answer errs on the
// safe side (kMany, not recursive, no tail call): a wrong "yes" would change results, a wrong "no"
// only costs stack. Malformed IR from a bundle (cycles between nodes, very deep trees) gets "no".
#include "runtime/eval/internal/tail_calls.h"

namespace wm::eval_internal {

namespace {

using ir::NodeId;
using ir::Op;

// Deeper trees are left to the ordinary (stack-consuming) evaluation.
constexpr int kMaxAnalysisDepth = 400;

OutputCount Combine(OutputCount a, OutputCount b) {
  if (a == OutputCount::kMany || b == OutputCount::kMany) return OutputCount::kMany;
  if (a == OutputCount::kOneIfClosures || b == OutputCount::kOneIfClosures) return OutputCount::kOneIfClosures;
  return OutputCount::kAtMostOne;
}

// Object patterns with computed keys (`{(f): $x}`) bind once per key output.
bool PatternBindsOnce(const ir::Program& program, uint32_t index, int depth) {
  if (depth > 64 || index >= program.patterns.size()) return false;
  const ir::Pattern& pattern = program.patterns[index];
  for (uint32_t element : pattern.elements) {
    if (!PatternBindsOnce(program, element, depth + 1)) return false;
  }
  for (const ir::Pattern::Entry& entry : pattern.entries) {
    if (entry.key >= program.nodes.size() || program.nodes[entry.key].op != Op::Const) return false;
    if (entry.value_pattern >= 0 && !PatternBindsOnce(program, uint32_t(entry.value_pattern), depth + 1)) return false;
  }
  return true;
}

}  // namespace

TailCallAnalysis::TailCallAnalysis(const ir::Program& program)
    : program_(program),
      node_info_(program.nodes.size(), 0),
      recursive_(program.functions.size(), 0),
      function_state_(program.functions.size(), 0),
      function_count_(program.functions.size(), OutputCount::kMany) {
  FindRecursiveFunctions();
  for (NodeId id = 0; id < program.nodes.size(); ++id) ComputeCount(id, 0);
  for (NodeId id = 0; id < program.nodes.size(); ++id) {
    if (ComputeReachesTailCall(id, 0)) node_info_[id] |= kReachesTailCallBit;
  }
}

// A function is recursive when its call graph reaches it again. The edges of a function are the
// Calls among the nodes it evaluates in its own frame: its body and the closure arguments and
// pattern keys within it (nested definitions are separate functions, reached by their Calls).
void TailCallAnalysis::FindRecursiveFunctions() {
  const size_t count = program_.functions.size();
  std::vector<std::vector<uint32_t>> callees(count);
  std::vector<uint32_t> seen(program_.nodes.size(), UINT32_MAX);
  for (uint32_t f = 0; f < count; ++f) {
    std::vector<NodeId> todo{program_.functions[f].body};
    while (!todo.empty()) {
      NodeId id = todo.back();
      todo.pop_back();
      if (id >= program_.nodes.size() || seen[id] == f) continue;
      seen[id] = f;
      const ir::Node& n = program_.nodes[id];
      if (n.op == Op::Call && n.a < count) callees[f].push_back(n.a);
      for (NodeId kid : n.kids) todo.push_back(kid);
      for (uint32_t p : n.patterns) {
        std::vector<uint32_t> patterns{p};
        for (size_t i = 0; i < patterns.size() && i < 4096; ++i) {
          if (patterns[i] >= program_.patterns.size()) continue;
          const ir::Pattern& pattern = program_.patterns[patterns[i]];
          for (uint32_t e : pattern.elements) patterns.push_back(e);
          for (const auto& entry : pattern.entries) {
            todo.push_back(entry.key);
            if (entry.value_pattern >= 0) patterns.push_back(uint32_t(entry.value_pattern));
          }
        }
      }
    }
  }
  std::vector<uint32_t> reached(count, UINT32_MAX);
  for (uint32_t f = 0; f < count; ++f) {
    std::vector<uint32_t> todo(callees[f]);
    while (!todo.empty() && !recursive_[f]) {
      uint32_t g = todo.back();
      todo.pop_back();
      if (g == f) recursive_[f] = 1;
      if (reached[g] == f) continue;
      reached[g] = f;
      for (uint32_t h : callees[g]) todo.push_back(h);
    }
  }
}

OutputCount TailCallAnalysis::FunctionCount(uint32_t function, int depth) {
  if (function >= program_.functions.size()) return OutputCount::kMany;
  // A recursive function may call itself before its output: counting it would need a fixpoint,
  // and the loops worth optimising do not need it.
  if (recursive_[function]) return OutputCount::kMany;
  if (function_state_[function] == 2) return function_count_[function];
  if (function_state_[function] == 1) return OutputCount::kMany;
  function_state_[function] = 1;
  OutputCount count = ComputeCount(program_.functions[function].body, depth + 1);
  function_count_[function] = count;
  function_state_[function] = 2;
  return count;
}

OutputCount TailCallAnalysis::ComputeCount(NodeId id, int depth) {
  if (id >= program_.nodes.size()) return OutputCount::kMany;
  uint8_t& info = node_info_[id];
  if (info & kCountKnownBit) return static_cast<OutputCount>(info & kCountMask);
  if ((info & kCountInProgressBit) || depth > kMaxAnalysisDepth) return OutputCount::kMany;
  info |= kCountInProgressBit;
  const ir::Node& n = program_.nodes[id];
  OutputCount count = OutputCount::kAtMostOne;
  if (n.op == Op::CallParam) {
    count = OutputCount::kOneIfClosures;
  } else if (n.op == Op::Call) {
    count = FunctionCount(n.a, depth);
  } else if (n.op == Op::Bind && [&] {
               for (uint32_t p : n.patterns) {
                 if (!PatternBindsOnce(program_, p, 0)) return true;
               }
               return false;
             }()) {
    count = OutputCount::kMany;
  } else {
    bool bounded = ForEachCountedChild(n, [&](NodeId kid) {
      count = Combine(count, ComputeCount(kid, depth + 1));
      return count != OutputCount::kMany;
    });
    if (!bounded) count = OutputCount::kMany;
  }
  // `info` is still valid: node_info_ is sized once, in the constructor.
  info = static_cast<uint8_t>((info & ~(kCountMask | kCountInProgressBit)) | kCountKnownBit |
                              static_cast<uint8_t>(count));
  return count;
}

bool TailCallAnalysis::ComputeReachesTailCall(NodeId id, int depth) const {
  if (id >= program_.nodes.size() || depth > kMaxAnalysisDepth) return false;
  const ir::Node& n = program_.nodes[id];
  switch (n.op) {
    case Op::Call: return n.a < recursive_.size() && recursive_[n.a] != 0;
    case Op::Comma:
    case Op::Pipe: return ComputeReachesTailCall(n.kids[1], depth + 1);
    case Op::If: return ComputeReachesTailCall(n.kids[1], depth + 1) || ComputeReachesTailCall(n.kids[2], depth + 1);
    case Op::Bind:
      return n.patterns.size() == 1 && n.patterns[0] < program_.patterns.size() &&
             program_.patterns[n.patterns[0]].kind == ir::Pattern::Kind::Var &&
             ComputeReachesTailCall(n.kids[1], depth + 1);
    default: return false;
  }
}

}  // namespace wm::eval_internal
