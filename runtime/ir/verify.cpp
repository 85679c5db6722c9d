// The IR verifier (verify.h). Node shapes come from the op table (OpInfoOf, ops.def) and builtin
// arities from the builtin table (builtins.def), so a new op or builtin is verified by its row.
// Every walk is iterative: programs may come from untrusted bundle files.
#include "runtime/ir/verify.h"

#include <string>
#include <vector>

namespace wm::ir {
namespace {

// Frames are allocated per call from num_slots: keep a corrupt count from requesting gigabytes.
constexpr uint32_t kMaxSlots = 1u << 20;

// Checks in order: per node (op row), per pattern, per function, then acyclicity (so later walks
// terminate), then scopes.
class Validator {
 public:
  explicit Validator(const Program& p) : p_(p) {}

  bool Run(std::string* error) {
    if (p_.functions.empty()) return Fail("program has no functions (function 0 is the entry)", error);
    for (size_t i = 0; i < p_.nodes.size(); ++i) {
      if (!CheckNode(static_cast<NodeId>(i), error)) return false;
    }
    for (size_t i = 0; i < p_.patterns.size(); ++i) {
      if (!CheckPattern(i, error)) return false;
    }
    for (size_t i = 0; i < p_.functions.size(); ++i) {
      const Function& f = p_.functions[i];
      std::string where = "function " + std::to_string(i);
      if (f.body >= p_.nodes.size()) return Fail(where + ": body is not a valid node", error);
      if (f.parent < -1 || f.parent >= static_cast<int64_t>(p_.functions.size()) ||
          f.parent == static_cast<int64_t>(i)) {
        return Fail(where + ": invalid parent function " + std::to_string(f.parent), error);
      }
      if (f.num_slots > kMaxSlots) return Fail(where + ": too many slots", error);
      for (uint32_t s : f.value_param_slots) {
        if (s >= f.num_slots) return Fail(where + ": value parameter slot out of range", error);
      }
    }
    if (!CheckAcyclic(error)) return false;
    return CheckScopes(error);
  }

 private:
  static bool Fail(const std::string& message, std::string* error) {
    *error = message;
    return false;
  }

  bool ValidKid(NodeId id, bool optional) const {
    return id < p_.nodes.size() || (optional && id == kNoNode);
  }

  bool CheckNode(NodeId id, std::string* error) {
    const Node& n = p_.nodes[id];
    const OpInfo& info = OpInfoOf(n.op);
    std::string where = "node " + std::to_string(id) + " (" + info.name + ")";
    if (static_cast<size_t>(n.op) >= kOpCount) return Fail(where + ": unknown op", error);
    if (!CheckKidCount(n, info, where, error)) return false;
    for (size_t k = 0; k < n.kids.size(); ++k) {
      bool optional = k < 32 && (info.optional_kids >> k) & 1;
      if (!ValidKid(n.kids[k], optional)) {
        return Fail(where + ": child " + std::to_string(k) + " is not a valid node", error);
      }
    }
    if (!CheckImmediate(n, info, where, error)) return false;
    switch (info.patterns) {
      case PatternRule::kNone:
        if (!n.patterns.empty()) return Fail(where + ": unexpected patterns", error);
        break;
      case PatternRule::kOneOrMore:
        if (n.patterns.empty()) return Fail(where + ": missing pattern", error);
        break;
    }
    for (uint32_t pattern : n.patterns) {
      if (pattern >= p_.patterns.size()) return Fail(where + ": pattern index out of range", error);
    }
    return true;
  }

  // The child count the op row promises; Call and CallBuiltin take theirs from the callee.
  bool CheckKidCount(const Node& n, const OpInfo& info, const std::string& where, std::string* error) {
    size_t count = n.kids.size();
    size_t expected = count;
    switch (info.kids) {
      case KidRule::kFixed:
        if (count >= info.min_kids && count <= info.max_kids) return true;
        expected = count < info.min_kids ? info.min_kids : info.max_kids;
        break;
      case KidRule::kPairs:
        if (count % 2 != 0) return Fail(where + ": odd number of key/value children", error);
        return true;
      case KidRule::kVariadic: return true;
      case KidRule::kCalleeArity:
        if (n.a >= p_.functions.size()) return Fail(where + ": function index out of range", error);
        if (count != p_.functions[n.a].num_closure_params) {
          return Fail(where + ": closure argument count does not match the callee", error);
        }
        return true;
      case KidRule::kBuiltinArity: {
        if (n.a >= kBuiltinCount) return Fail(where + ": unknown builtin " + std::to_string(n.a), error);
        expected = static_cast<size_t>(BuiltinArity(static_cast<BuiltinId>(n.a)));
        if (count == expected) return true;
        break;
      }
    }
    return Fail(where + ": expected " + std::to_string(expected) + " children, found " +
                    std::to_string(count),
                error);
  }

  // Immediates that index a table of the program or of the IR. Scoped slots and parameters are
  // resolved against their frames in CheckScopes.
  bool CheckImmediate(const Node& n, const OpInfo& info, const std::string& where, std::string* error) {
    switch (info.immediate) {
      case ImmediateKind::kConst:
        if (n.a >= p_.consts.size()) return Fail(where + ": constant index out of range", error);
        break;
      case ImmediateKind::kBinaryOp:
        if (n.a >= kBinaryOpCount) return Fail(where + ": unknown binary operator", error);
        break;
      case ImmediateKind::kFunction:
        if (n.a >= p_.functions.size()) return Fail(where + ": function index out of range", error);
        break;
      case ImmediateKind::kBuiltin:
        if (n.a >= kBuiltinCount) return Fail(where + ": unknown builtin " + std::to_string(n.a), error);
        break;
      case ImmediateKind::kNone:
      case ImmediateKind::kScopedSlot:
      case ImmediateKind::kScopedParam:
      case ImmediateKind::kFrameSlot:
        break;
    }
    return true;
  }

  bool CheckPattern(size_t index, std::string* error) {
    const Pattern& p = p_.patterns[index];
    std::string where = "pattern " + std::to_string(index);
    switch (p.kind) {
      case Pattern::Kind::Var:
        if (p.slot >= kMaxSlots) return Fail(where + ": slot out of range", error);
        break;
      case Pattern::Kind::Array: break;
      case Pattern::Kind::Object: break;
      default: return Fail(where + ": unknown kind", error);
    }
    for (uint32_t e : p.elements) {
      if (e >= p_.patterns.size()) return Fail(where + ": element pattern out of range", error);
    }
    for (const Pattern::Entry& e : p.entries) {
      if (e.key >= p_.nodes.size()) return Fail(where + ": key is not a valid node", error);
      if (e.bind_slot < -1 || e.bind_slot >= static_cast<int32_t>(kMaxSlots)) {
        return Fail(where + ": bind slot out of range", error);
      }
      if (e.value_pattern < -1 || e.value_pattern >= static_cast<int64_t>(p_.patterns.size())) {
        return Fail(where + ": value pattern out of range", error);
      }
      if (e.bind_slot < 0 && e.value_pattern < 0) return Fail(where + ": entry binds nothing", error);
    }
    return true;
  }

  // Nodes must form a DAG (kids plus pattern key filters), and so must patterns: engines walk
  // them recursively. Iterative three-color depth-first search over each graph.
  bool CheckAcyclic(std::string* error) {
    auto node_successors = [this](uint32_t id, std::vector<uint32_t>* out) {
      const Node& n = p_.nodes[id];
      for (NodeId k : n.kids) {
        if (k != kNoNode) out->push_back(k);
      }
      std::vector<uint32_t> pattern_work(n.patterns.begin(), n.patterns.end());
      // Keys of patterns used by this node (pattern cycles are rejected separately, and the
      // visited set keeps this walk finite even before that check).
      std::vector<bool> seen(p_.patterns.size(), false);
      while (!pattern_work.empty()) {
        uint32_t pi = pattern_work.back();
        pattern_work.pop_back();
        if (seen[pi]) continue;
        seen[pi] = true;
        const Pattern& p = p_.patterns[pi];
        for (uint32_t e : p.elements) pattern_work.push_back(e);
        for (const Pattern::Entry& e : p.entries) {
          out->push_back(e.key);
          if (e.value_pattern >= 0) pattern_work.push_back(static_cast<uint32_t>(e.value_pattern));
        }
      }
    };
    auto pattern_successors = [this](uint32_t id, std::vector<uint32_t>* out) {
      const Pattern& p = p_.patterns[id];
      for (uint32_t e : p.elements) out->push_back(e);
      for (const Pattern::Entry& e : p.entries) {
        if (e.value_pattern >= 0) out->push_back(static_cast<uint32_t>(e.value_pattern));
      }
    };
    if (HasCycle(p_.patterns.size(), pattern_successors)) return Fail("patterns form a cycle", error);
    if (HasCycle(p_.nodes.size(), node_successors)) return Fail("nodes form a cycle", error);
    return true;
  }

  // Every slot and closure parameter a node names must exist in the frame it designates: walk
  // each function's body (not into callees) and resolve Var/Break/CallParam immediates through
  // the lexical parent chain; Label and pattern slots belong to the current frame. Runs after
  // CheckAcyclic, so the walks terminate.
  bool CheckScopes(std::string* error) {
    std::vector<uint32_t> owner(p_.nodes.size(), UINT32_MAX);
    for (uint32_t f = 0; f < p_.functions.size(); ++f) {
      std::vector<NodeId> work = {p_.functions[f].body};
      while (!work.empty()) {
        NodeId id = work.back();
        work.pop_back();
        if (owner[id] == f) continue;
        owner[id] = f;
        const Node& n = p_.nodes[id];
        auto where = [&]() {
          return "node " + std::to_string(id) + " (" + OpName(n.op) + ") in function " + std::to_string(f);
        };
        ImmediateKind immediate = OpInfoOf(n.op).immediate;
        if (immediate == ImmediateKind::kScopedSlot || immediate == ImmediateKind::kScopedParam) {
          int64_t target = f;
          for (uint32_t up = ScopeLevels(n.a); up > 0 && target >= 0; --up) target = p_.functions[target].parent;
          if (target < 0) return Fail(where() + ": refers to a scope outside any function", error);
          const Function& scope = p_.functions[target];
          uint32_t limit = immediate == ImmediateKind::kScopedParam ? scope.num_closure_params : scope.num_slots;
          if (ScopeIndex(n.a) >= limit) return Fail(where() + ": index out of range of its scope", error);
        }
        if (immediate == ImmediateKind::kFrameSlot && n.a >= p_.functions[f].num_slots) {
          return Fail(where() + ": label slot out of range", error);
        }
        std::vector<uint32_t> patterns(n.patterns.begin(), n.patterns.end());
        std::vector<bool> seen(patterns.empty() ? 0 : p_.patterns.size(), false);
        while (!patterns.empty()) {
          uint32_t pi = patterns.back();
          patterns.pop_back();
          if (seen[pi]) continue;
          seen[pi] = true;
          const Pattern& pat = p_.patterns[pi];
          if (pat.kind == Pattern::Kind::Var && pat.slot >= p_.functions[f].num_slots) {
            return Fail(where() + ": pattern slot out of range", error);
          }
          for (uint32_t e : pat.elements) patterns.push_back(e);
          for (const Pattern::Entry& e : pat.entries) {
            if (e.bind_slot >= 0 && static_cast<uint32_t>(e.bind_slot) >= p_.functions[f].num_slots) {
              return Fail(where() + ": pattern slot out of range", error);
            }
            work.push_back(e.key);
            if (e.value_pattern >= 0) patterns.push_back(static_cast<uint32_t>(e.value_pattern));
          }
        }
        for (NodeId k : n.kids) {
          if (k != kNoNode) work.push_back(k);
        }
      }
    }
    return true;
  }

  template <typename Successors>
  static bool HasCycle(size_t count, const Successors& successors) {
    enum : uint8_t { kWhite, kGray, kBlack };
    std::vector<uint8_t> color(count, kWhite);
    struct Frame {
      uint32_t id;
      std::vector<uint32_t> next;
      size_t i = 0;
    };
    for (size_t start = 0; start < count; ++start) {
      if (color[start] != kWhite) continue;
      std::vector<Frame> stack;
      stack.push_back({static_cast<uint32_t>(start), {}});
      successors(static_cast<uint32_t>(start), &stack.back().next);
      color[start] = kGray;
      while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.i == top.next.size()) {
          color[top.id] = kBlack;
          stack.pop_back();
          continue;
        }
        uint32_t s = top.next[top.i++];
        if (color[s] == kGray) return true;
        if (color[s] == kBlack) continue;
        color[s] = kGray;
        Frame frame{s, {}};
        successors(s, &frame.next);
        stack.push_back(std::move(frame));  // invalidates `top`, not used again
      }
    }
    return false;
  }

  const Program& p_;
};

}  // namespace

bool Verify(const Program& program, std::string* error) { return Validator(program).Run(error); }

}  // namespace wm::ir
