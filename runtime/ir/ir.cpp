// Op names (from ops.def) and the human-readable dump of the resolver IR (ir.h). The dump is what
// `wmc --emit=ir` prints and what golden tests compare: one node per line, children indented
// under their parent, constants as compact JSON; it never depends on pointer values or hashing.
#include "runtime/ir/ir.h"

#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/json.h"

namespace wm::ir {

namespace {

constexpr OpInfo kOps[] = {
#define WM_IR_OP(Name, Kids, MinKids, MaxKids, OptionalKids, Immediate, Patterns, Labels)          \
  {#Name, KidRule::k##Kids, MinKids, MaxKids, OptionalKids, ImmediateKind::k##Immediate,         \
   PatternRule::k##Patterns, Labels},
#include "runtime/ir/ops.def"
};
static_assert(std::size(kOps) == kOpCount);

// Accepts no children, so a verifier reading it for a corrupt op number rejects the node.
constexpr OpInfo kUnknownOp = {"?op", KidRule::kFixed, 0, 0, 0, ImmediateKind::kNone,
                               PatternRule::kNone, ""};

}  // namespace

const OpInfo& OpInfoOf(Op op) {
  size_t index = static_cast<size_t>(op);
  return index < kOpCount ? kOps[index] : kUnknownOp;
}

const char* OpName(Op op) { return OpInfoOf(op).name; }

const char* BinaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
  }
  return "?binop";
}

namespace {

// Role labels of an op's children, in `kids` order (empty: unlabeled, e.g. Pipe, Comma, Call).
std::vector<std::string> KidLabels(Op op) {
  std::vector<std::string> labels;
  std::string_view text = OpInfoOf(op).kid_labels;
  while (!text.empty()) {
    size_t space = text.find(' ');
    labels.emplace_back(text.substr(0, space));
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return labels;
}

class Dumper {
 public:
  explicit Dumper(const Program& program) : program_(program) {}

  std::string Run() {
    out_ += "program: " + std::to_string(program_.functions.size()) + " functions, " +
            std::to_string(program_.nodes.size()) + " nodes, " +
            std::to_string(program_.consts.size()) + " consts, " +
            std::to_string(program_.patterns.size()) + " patterns\n";
    for (size_t f = 0; f < program_.functions.size(); ++f) DumpFunction(f);
    return out_;
  }

 private:
  void DumpFunction(size_t index) {
    const Function& fn = program_.functions[index];
    out_ += "fn " + std::to_string(index) + " " + (fn.name.empty() ? "<anonymous>" : fn.name) +
            ": closure_params=" + std::to_string(fn.num_closure_params) + " value_params=[";
    for (size_t i = 0; i < fn.value_param_slots.size(); ++i) {
      if (i) out_ += ",";
      out_ += std::to_string(fn.value_param_slots[i]);
    }
    out_ += "] slots=" + std::to_string(fn.num_slots) + " parent=" + std::to_string(fn.parent) + "\n";
    DumpTree(fn.body, 1, "");
  }

  // Prints the subtree at `root` depth-first with an explicit stack. A depth above the node
  // count can only come from a cycle (malformed program): it is reported, not followed.
  void DumpTree(NodeId root, size_t depth, std::string label) {
    struct Item {
      NodeId id;
      size_t depth;
      std::string label;
    };
    std::vector<Item> stack;
    stack.push_back({root, depth, std::move(label)});
    while (!stack.empty()) {
      Item item = std::move(stack.back());
      stack.pop_back();
      out_.append(item.depth * 2, ' ');
      if (!item.label.empty()) out_ += item.label + ": ";
      if (item.id == kNoNode) {
        out_ += "<none>\n";
        continue;
      }
      if (item.id >= program_.nodes.size()) {
        out_ += "<invalid node " + std::to_string(item.id) + ">\n";
        continue;
      }
      if (item.depth > program_.nodes.size() + 1) {
        out_ += "<cycle at node " + std::to_string(item.id) + ">\n";
        continue;
      }
      const Node& node = program_.nodes[item.id];
      out_ += OpName(node.op);
      Details(node);
      out_ += "\n";
      // Children: pattern key filters first (they belong to the node's header), then kids;
      // pushed in reverse so they print in order.
      std::vector<Item> children;
      for (uint32_t p : node.patterns) {
        if (p >= program_.patterns.size()) continue;
        CollectPatternKeys(p, item.depth + 1, &children);
      }
      std::vector<std::string> labels = KidLabels(node.op);
      for (size_t k = 0; k < node.kids.size(); ++k) {
        std::string kid_label = k < labels.size() ? labels[k] : "";
        if (node.op == Op::Object) kid_label = (k % 2 == 0) ? "key" : "value";
        children.push_back({node.kids[k], item.depth + 1, kid_label});
      }
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(std::move(*it));
    }
  }

  void Details(const Node& node) {
    switch (node.op) {
      case Op::Const:
      case Op::Loc:
        out_ += " ";
        AppendConst(node.a);
        break;
      case Op::Binary:
        out_ += " ";
        out_ += node.a < kBinaryOpCount ? BinaryOpName(static_cast<BinaryOp>(node.a))
                                                              : "<invalid binop>";
        break;
      case Op::Label: out_ += " slot=" + std::to_string(node.a); break;
      case Op::Var:
      case Op::Break: out_ += " slot=" + Scoped(node.a); break;
      case Op::Call:
        out_ += " fn=" + std::to_string(node.a);
        if (node.a < program_.functions.size()) out_ += " " + program_.functions[node.a].name;
        break;
      case Op::CallParam: out_ += " param=" + Scoped(node.a); break;
      case Op::CallBuiltin:
        out_ += " ";
        out_ += node.a < kBuiltinCount ? BuiltinName(static_cast<BuiltinId>(node.a))
                    : "<invalid builtin>";
        out_ += "/" + std::to_string(node.kids.size());
        break;
      case Op::Format: out_ += " @" + node.str; break;
      case Op::StringInterp: out_ += " @" + (node.str.empty() ? std::string("text") : node.str); break;
      default: break;
    }
    if (!node.patterns.empty()) {
      out_ += " as ";
      for (size_t i = 0; i < node.patterns.size(); ++i) {
        if (i) out_ += " ?// ";
        AppendPattern(node.patterns[i], 0);
      }
    }
  }

  // "3" for slot 3 of the current frame, "3^2" for slot 3 two lexical parents up.
  static std::string Scoped(uint32_t immediate) {
    std::string text = std::to_string(ScopeIndex(immediate));
    if (ScopeLevels(immediate) > 0) text += "^" + std::to_string(ScopeLevels(immediate));
    return text;
  }

  void AppendConst(uint32_t index) {
    if (index >= program_.consts.size()) {
      out_ += "<invalid const " + std::to_string(index) + ">";
      return;
    }
    WriteJson(program_.consts[index], &out_);
  }

  // `$s3`, `[$s1, $s2]`, `{"a": $s1, "b" as $s2, "c" as $s3: [$s4], (key 9): $s5}` for
  // `{a: $x, $b, $c: [$d], (f): $e}`; computed keys are printed as labeled subtrees (key <node>).
  void AppendPattern(uint32_t index, size_t depth) {
    if (index >= program_.patterns.size() || depth > program_.patterns.size()) {
      out_ += "<invalid pattern " + std::to_string(index) + ">";
      return;
    }
    const Pattern& p = program_.patterns[index];
    switch (p.kind) {
      case Pattern::Kind::Var: out_ += "$s" + std::to_string(p.slot); return;
      case Pattern::Kind::Array:
        out_ += "[";
        for (size_t i = 0; i < p.elements.size(); ++i) {
          if (i) out_ += ", ";
          AppendPattern(p.elements[i], depth + 1);
        }
        out_ += "]";
        return;
      case Pattern::Kind::Object:
        out_ += "{";
        for (size_t i = 0; i < p.entries.size(); ++i) {
          const Pattern::Entry& e = p.entries[i];
          if (i) out_ += ", ";
          if (IsConstKey(e.key)) {
            AppendConst(program_.nodes[e.key].a);
          } else {
            out_ += "(key " + std::to_string(e.key) + ")";
          }
          if (e.bind_slot >= 0) out_ += " as $s" + std::to_string(e.bind_slot);
          if (e.value_pattern >= 0) {
            out_ += ": ";
            AppendPattern(static_cast<uint32_t>(e.value_pattern), depth + 1);
          }
        }
        out_ += "}";
        return;
    }
  }

  bool IsConstKey(NodeId key) const {
    return key < program_.nodes.size() && program_.nodes[key].op == Op::Const;
  }

  // Computed (non-constant) object-pattern keys, as labeled child subtrees.
  template <typename Item>
  void CollectPatternKeys(uint32_t index, size_t depth, std::vector<Item>* children) {
    std::vector<std::pair<uint32_t, size_t>> work = {{index, 0}};
    while (!work.empty()) {
      auto [p_index, level] = work.back();
      work.pop_back();
      if (p_index >= program_.patterns.size() || level > program_.patterns.size()) continue;
      const Pattern& p = program_.patterns[p_index];
      for (uint32_t e : p.elements) work.push_back({e, level + 1});
      for (const Pattern::Entry& e : p.entries) {
        if (e.key != kNoNode && !IsConstKey(e.key)) {
          children->push_back({e.key, depth, "key " + std::to_string(e.key)});
        }
        if (e.value_pattern >= 0) work.push_back({static_cast<uint32_t>(e.value_pattern), level + 1});
      }
    }
  }

  const Program& program_;
  std::string out_;
};

}  // namespace

std::string Dump(const Program& program) { return Dumper(program).Run(); }

}  // namespace wm::ir
