// IR -> view program (view_program.h). Walks the entry function once, keeping only the forms the
// view evaluator supports; records for each node whether its input is the object's root, so that
// constant-key chains read from the root become shared trie paths.
#include <string>

#include "runtime/eval/view/view_program.h"
#include "runtime/value/json.h"

namespace wm::view {
namespace {

using ir::NodeId;
using ir::Op;

// A canonical rendering of a function and everything it calls (callees inline, by name), used to
// recognise the prelude's any/1 and all/1: a user function of the same name renders differently.
void RenderShape(const ir::Program& p, NodeId id, int depth, std::string* out) {
  if (id == ir::kNoNode || id >= p.nodes.size() || depth > 12) {
    out->append("?");
    return;
  }
  const ir::Node& n = p.nodes[id];
  out->append(ir::OpName(n.op));
  if (n.op == Op::Const && n.a < p.consts.size()) out->append(ToJson(p.consts[n.a]));
  if (n.op == Op::Call && n.a < p.functions.size()) {
    out->append("<" + p.functions[n.a].name + ":");
    RenderShape(p, p.functions[n.a].body, depth + 1, out);
    out->append(">");
  } else if (n.op != Op::Const) {
    out->append("#" + std::to_string(n.a));
  }
  out->append("(");
  for (NodeId kid : n.kids) {
    RenderShape(p, kid, depth + 1, out);
    out->append(",");
  }
  out->append(")");
}

// The shapes of the prelude's definitions (jq 1.7: any(f) = any(.[]; f) = isempty(first(.[] |
// f or empty)) | not; all likewise with `and`), as the lowering emits them.
constexpr const char* kFirstShape =
    "first/1:Label#0(Pipe#0(CallParam#0(),Comma#0(Identity#0(),Break#0(),),),)";
std::string IsEmptyShape() {
  return std::string("isempty/1:Call<") + kFirstShape +
         ">(Comma#0(Pipe#0(CallParam#0(),Constfalse(),),Consttrue(),),)";
}
std::string AnyShape() {
  return std::string("Call<any/2:Pipe#0(Call<") + IsEmptyShape() + ">(Call<" + kFirstShape +
         ">(Pipe#0(CallParam#0(),Or#0(CallParam#1(),Empty#0(),),),),),CallBuiltin#" +
         std::to_string(static_cast<uint32_t>(ir::BuiltinId::Not)) + "(),)>(Iterate#0(Identity#0(),),CallParam#0(),)";
}
std::string AllShape() {
  return std::string("Call<all/2:Call<") + IsEmptyShape() + ">(Call<" + kFirstShape +
         ">(Pipe#0(CallParam#0(),And#0(CallParam#1(),Empty#0(),),),),)>(Iterate#0(Identity#0(),),CallParam#0(),)";
}

class Lowerer {
 public:
  Lowerer(const ir::Program& p, PathTrie* trie, ViewProgram* out, std::string* reason)
      : p_(p), trie_(trie), out_(out), reason_(reason) {}

  // Lowers node `id` whose input is the object's root when `at_root`; false when unsupported.
  bool Lower(NodeId id, bool at_root, uint32_t* result) {
    if (id >= p_.nodes.size()) return Refuse("invalid node");
    const ir::Node& n = p_.nodes[id];
    VNode v;
    switch (n.op) {
      case Op::Identity: v.op = VOp::kIdentity; break;
      case Op::Empty: v.op = VOp::kEmpty; break;
      case Op::Const:
        v.op = VOp::kConst;
        v.a = AddConst(p_.consts.at(n.a));
        break;
      case Op::Index: return LowerIndex(id, n, at_root, result);
      case Op::Iterate: v.op = VOp::kIterate; break;
      case Op::Pipe: return LowerPipe(n, at_root, result);
      case Op::Comma: v.op = VOp::kComma; break;
      case Op::Neg: v.op = VOp::kNeg; break;
      case Op::Binary:
        if (LowerFieldCompare(n, at_root, result)) return true;
        v.op = VOp::kBinary;
        v.a = n.a;
        break;
      case Op::And: v.op = VOp::kAnd; break;
      case Op::Or: v.op = VOp::kOr; break;
      case Op::Alternative: v.op = VOp::kAlternative; break;
      case Op::If: v.op = VOp::kIf; break;
      case Op::Try:
        if (n.kids.size() > 1 && n.kids[1] != ir::kNoNode) return Refuse("try with a catch handler");
        return Emit(VNode{VOp::kTry, 0, {}}, {n.kids[0]}, at_root, result);
      case Op::Collect: v.op = VOp::kCollect; break;
      case Op::Object: v.op = VOp::kObject; break;
      case Op::Var:
        if (ir::ScopeLevels(n.a) != 0) return Refuse("variable of an enclosing function");
        v.op = VOp::kVar;
        v.a = ir::ScopeIndex(n.a);
        break;
      case Op::Bind: {
        if (n.patterns.size() != 1 || p_.patterns.at(n.patterns[0]).kind != ir::Pattern::Kind::Var) {
          return Refuse("destructuring pattern");
        }
        v.op = VOp::kBind;
        v.a = p_.patterns[n.patterns[0]].slot;
        break;
      }
      case Op::CallBuiltin: {
        auto builtin = static_cast<ir::BuiltinId>(n.a);
        if (builtin == ir::BuiltinId::Not) v.op = VOp::kNot;
        else if (builtin == ir::BuiltinId::Length) v.op = VOp::kLength;
        else return Refuse(std::string("builtin ") + ir::BuiltinName(builtin));
        break;
      }
      case Op::Call: return LowerCall(n, result);
      default: return Refuse(std::string("op ") + ir::OpName(n.op));
    }
    return Emit(std::move(v), n.kids, at_root, result);
  }

 private:
  bool Refuse(std::string why) {
    if (reason_->empty()) *reason_ = std::move(why);
    return false;
  }

  uint32_t AddConst(const Value& v) {
    out_->consts.push_back(v);
    return static_cast<uint32_t>(out_->consts.size() - 1);
  }

  // Adds `v` with `kids` lowered (each seeing the same input as the node).
  bool Emit(VNode v, const std::vector<NodeId>& kids, bool at_root, uint32_t* result) {
    for (NodeId kid : kids) {
      uint32_t lowered;
      if (!Lower(kid, at_root, &lowered)) return false;
      v.kids.push_back(lowered);
    }
    out_->nodes.push_back(std::move(v));
    *result = static_cast<uint32_t>(out_->nodes.size() - 1);
    return true;
  }

  bool LowerPipe(const ir::Node& n, bool at_root, uint32_t* result) {
    uint32_t first, second;
    if (!Lower(n.kids[0], at_root, &first) || !Lower(n.kids[1], false, &second)) return false;
    out_->nodes.push_back(VNode{VOp::kPipe, 0, {first, second}});
    *result = static_cast<uint32_t>(out_->nodes.size() - 1);
    return true;
  }

  // `.key OP constant` on a value that is not the root (inside `any`, after `.[]`): one node
  // instead of five, the most common condition of the catalog's status resolvers.
  bool LowerFieldCompare(const ir::Node& n, bool at_root, uint32_t* result) {
    if (at_root || static_cast<ir::BinaryOp>(n.a) < ir::BinaryOp::Eq) return false;
    const ir::Node& lhs = p_.nodes.at(n.kids[0]);
    const ir::Node& rhs = p_.nodes.at(n.kids[1]);
    if (lhs.op != Op::Index || rhs.op != Op::Const || p_.nodes.at(lhs.kids[0]).op != Op::Identity) return false;
    const Value* key = ConstStringKey(lhs);
    if (key == nullptr) return false;
    VNode v{VOp::kFieldCompare, n.a, {}};
    v.b = AddConst(*key);
    v.c = AddConst(p_.consts.at(rhs.a));
    out_->nodes.push_back(std::move(v));
    *result = static_cast<uint32_t>(out_->nodes.size() - 1);
    return true;
  }

  const Value* ConstStringKey(const ir::Node& index) const {
    const ir::Node& key = p_.nodes.at(index.kids[1]);
    if (key.op != Op::Const || !p_.consts.at(key.a).IsString()) return nullptr;
    return &p_.consts[key.a];
  }

  // The trie node of a chain of constant string keys down from Identity, or -1.
  int64_t RootPathOf(NodeId id) {
    const ir::Node& n = p_.nodes.at(id);
    if (n.op == Op::Identity) return 0;
    if (n.op != Op::Index) return -1;
    const Value* key = ConstStringKey(n);
    if (key == nullptr) return -1;
    int64_t parent = RootPathOf(n.kids[0]);
    if (parent < 0) return -1;
    return trie_->Child(static_cast<uint32_t>(parent), std::string(key->AsString()));
  }

  bool LowerIndex(NodeId id, const ir::Node& n, bool at_root, uint32_t* result) {
    const Value* key = ConstStringKey(n);
    if (key != nullptr && at_root) {
      int64_t path = RootPathOf(id);
      if (path > 0) {
        out_->nodes.push_back(VNode{VOp::kRootPath, static_cast<uint32_t>(path), {}});
        *result = static_cast<uint32_t>(out_->nodes.size() - 1);
        return true;
      }
    }
    if (key != nullptr) {
      return Emit(VNode{VOp::kField, AddConst(*key), {}}, {n.kids[0]}, at_root, result);
    }
    return Emit(VNode{VOp::kIndex, 0, {}}, n.kids, at_root, result);
  }

  bool LowerCall(const ir::Node& n, uint32_t* result) {
    if (n.a >= p_.functions.size() || n.kids.size() != 1) return Refuse("function call");
    const ir::Function& callee = p_.functions[n.a];
    std::string shape;
    RenderShape(p_, callee.body, 0, &shape);
    VOp op;
    if (callee.name == "any/1" && shape == AnyShape()) op = VOp::kAny;
    else if (callee.name == "all/1" && shape == AllShape()) op = VOp::kAll;
    else return Refuse("call of " + callee.name);
    uint32_t condition;
    if (!Lower(n.kids[0], false, &condition)) return false;
    out_->nodes.push_back(VNode{op, 0, {condition}});
    *result = static_cast<uint32_t>(out_->nodes.size() - 1);
    return true;
  }

  const ir::Program& p_;
  PathTrie* trie_;
  ViewProgram* out_;
  std::string* reason_;
};

}  // namespace

uint32_t PathTrie::Child(uint32_t parent, const std::string& key) {
  for (uint32_t child : nodes[parent].children) {
    if (nodes[child].key == key) return child;
  }
  nodes.push_back(Node{parent, key, {}});
  auto id = static_cast<uint32_t>(nodes.size() - 1);
  nodes[parent].children.push_back(id);
  return id;
}

std::unique_ptr<ViewProgram> LowerToView(const ir::Program& program, PathTrie* trie, std::string* reason) {
  if (program.functions.empty() || program.functions[0].body == ir::kNoNode) {
    *reason = "empty program";
    return nullptr;
  }
  // Lower into a scratch trie first so a refused program leaves no paths behind.
  PathTrie scratch = *trie;
  auto view = std::make_unique<ViewProgram>();
  view->num_slots = program.functions[0].num_slots;
  Lowerer lowerer(program, &scratch, view.get(), reason);
  if (!lowerer.Lower(program.functions[0].body, true, &view->root)) return nullptr;
  *trie = std::move(scratch);
  return view;
}

}  // namespace wm::view
