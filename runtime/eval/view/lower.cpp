// IR -> view program (view_program.h). Walks the entry function once, keeping only the forms the
// view evaluator supports; tracks for each node the trie node its input is known to be (the root,
// or the element of an iteration `.a.b[] | ...`), so that constant-key chains read from there
// become shared trie paths, and other constant-key chains become one kFieldPath node.
#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

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
constexpr const char* kSelectShape = "If#0(CallParam#0(),Identity#0(),Empty#0(),)";
constexpr const char* kMapShape = "Collect#0(Pipe#0(Iterate#0(Identity#0(),),CallParam#0(),),)";
constexpr const char* kFirstOfArrayShape = "Index#0(Identity#0(),Const0(),)";
// from_entries as the prelude defines it (compiler/lower/prelude.cpp), and with_entries(f) =
// to_entries | map(f) | from_entries.
std::string FromEntriesShape() {
  return std::string(
             "Reduce#0(Iterate#0(Identity#0(),),Object#0(),Binary#0(Identity#0(),Object#0(Pipe#0(Var#0(),"
             "Alternative#0(Index#0(Identity#0(),Const\"key\"(),),Alternative#0(Index#0(Identity#0(),Const\"Key\"(),),"
             "Alternative#0(Index#0(Identity#0(),Const\"name\"(),),Index#0(Identity#0(),Const\"Name\"(),),),),),),"
             "Pipe#0(Var#0(),If#0(CallBuiltin#") +
         std::to_string(static_cast<uint32_t>(ir::BuiltinId::Has)) +
         "(Const\"value\"(),),Index#0(Identity#0(),Const\"value\"(),),Index#0(Identity#0(),Const\"Value\"(),),),),),),)";
}
std::string WithEntriesShape() {
  return "Pipe#0(CallBuiltin#" + std::to_string(static_cast<uint32_t>(ir::BuiltinId::ToEntries)) +
         "(),Pipe#0(Call<map/1:" + kMapShape + ">(CallParam#0(),),Call<from_entries/0:" + FromEntriesShape() +
         ">(),),)";
}
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

// Builtins without arguments whose output depends on their input alone (no clock, environment,
// time zone or input stream): the view engine applies them to the (converted) input as the
// interpreter does, through ops::CallBuiltin.
bool IsPureWithoutArguments(ir::BuiltinId id) {
  using B = ir::BuiltinId;
  switch (id) {
    case B::Utf8ByteLength: case B::Keys: case B::KeysUnsorted: case B::Add: case B::ToString:
    case B::ToNumber: case B::ToJson: case B::FromJson: case B::Floor: case B::Sqrt: case B::Fabs:
    case B::Round: case B::Ceil: case B::Trunc: case B::Sort: case B::Min: case B::Max: case B::Unique:
    case B::Reverse: case B::Explode: case B::Implode: case B::AsciiDowncase: case B::AsciiUpcase:
    case B::IsInfinite: case B::IsNan: case B::IsNormal: case B::ToEntries: case B::Abs: case B::ToArray:
    case B::Trim: case B::Ltrim: case B::Rtrim:
      return true;
    default:
      return false;
  }
}

// Whether node `id` is `.[0]` on its input (the prelude's `first`).
bool IsFirstElement(const ViewProgram& program, uint32_t id) {
  const VNode& index = program.nodes[id];
  if (index.op != VOp::kIndex || program.nodes[index.kids[0]].op != VOp::kIdentity) return false;
  const VNode& key = program.nodes[index.kids[1]];
  return key.op == VOp::kConst && program.consts[key.a].IsNumber() && program.consts[key.a].AsNumber() == 0;
}

class Lowerer {
 public:
  // `whole`: the program's body (a resolver's whole expression).
  Lowerer(const ir::Program& p, NodeId whole, PathTrie* trie, ViewProgram* out, std::string* reason)
      : p_(p), whole_(whole), trie_(trie), out_(out), reason_(reason) {}

  // Lowers node `id` whose input is the value of trie node `ctx` (kNoContext: not known); false
  // when unsupported.
  bool Lower(NodeId id, int64_t ctx, uint32_t* result) {
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
      case Op::Index: return LowerIndex(id, n, ctx, result);
      case Op::Iterate:
        if (id == whole_ && IsCollectOfSomething(n.kids[0])) return Lower(p_.nodes[n.kids[0]].kids[0], ctx, result);
        return LowerIterate(n, ctx, result);
      case Op::Pipe: return LowerPipe(n, ctx, result);
      case Op::Comma: v.op = VOp::kComma; break;
      case Op::Neg: v.op = VOp::kNeg; break;
      case Op::Binary:
        if (LowerFieldCompare(n, ctx, result)) return true;
        v.op = VOp::kBinary;
        v.a = n.a;
        break;
      case Op::And: v.op = VOp::kAnd; break;
      case Op::Or: v.op = VOp::kOr; break;
      case Op::Alternative: v.op = VOp::kAlternative; break;
      case Op::If: v.op = VOp::kIf; break;
      case Op::Try:
        if (n.kids.size() > 1 && n.kids[1] != ir::kNoNode) return Refuse("try with a catch handler");
        return Emit(VNode{VOp::kTry, 0, {}}, {n.kids[0]}, ctx, result);
      case Op::Collect:
        // `[]` and `{}` are constants, so that `P // []` and `P // {}` are read in line as `P // 0`
        // is (VForm::kPathOrConst), and `x == {}` compares with the constant.
        if (n.kids.size() == 1 && n.kids[0] < p_.nodes.size() && p_.nodes[n.kids[0]].op == Op::Empty) {
          return EmitConst(Value::EmptyArray(), result);
        }
        v.op = VOp::kCollect;
        break;
      case Op::Object:
        if (n.kids.empty()) return EmitConst(Value::EmptyObject(), result);
        v.op = VOp::kObject;
        break;
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
        else if (builtin == ir::BuiltinId::Type) v.op = VOp::kType;
        else if (IsPureWithoutArguments(builtin) && n.kids.empty()) {
          v.op = VOp::kBuiltin;
          v.a = n.a;
        } else {
          return Refuse(std::string("builtin ") + ir::BuiltinName(builtin));
        }
        break;
      }
      case Op::Call: return LowerCall(n, ctx, result);
      default: return Refuse(std::string("op ") + ir::OpName(n.op));
    }
    return Emit(std::move(v), n.kids, ctx, result);
  }

  static constexpr int64_t kNoContext = -1;

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
  bool Emit(VNode v, const std::vector<NodeId>& kids, int64_t ctx, uint32_t* result) {
    for (NodeId kid : kids) {
      uint32_t lowered;
      if (!Lower(kid, ctx, &lowered)) return false;
      v.kids.push_back(lowered);
    }
    out_->nodes.push_back(std::move(v));
    *result = static_cast<uint32_t>(out_->nodes.size() - 1);
    return true;
  }

  bool EmitConst(const Value& constant, uint32_t* result) {
    *result = Push(VNode{VOp::kConst, AddConst(constant), {}});
    return true;
  }

  uint32_t Push(VNode v) {
    out_->nodes.push_back(std::move(v));
    return static_cast<uint32_t>(out_->nodes.size() - 1);
  }

  // `f | g`: g's input is known when f is an iteration of the trie (`.a.b[] | g`). While g is
  // lowered that iteration is active: g may not share it again (the evaluator keeps one current
  // element per iteration node).
  bool LowerPipe(const ir::Node& n, int64_t ctx, uint32_t* result) {
    if (LowerEntryValues(n, ctx, result)) return true;
    const int64_t optional = OptionalIterationOf(n, ctx);
    if (optional != kNoContext) {
      *result = PushOptionalIteration(static_cast<uint32_t>(optional));
      return true;
    }
    uint32_t first, second;
    if (!Lower(n.kids[0], ctx, &first)) return false;
    int64_t second_ctx = kNoContext;
    // After a trie path g's input is that path's value (`.spec.services | .[]` shares the
    // iteration as `.spec.services[]` does); after an iteration, its element.
    // Copies: lowering the second part grows out_->nodes.
    const VOp first_op = out_->nodes[first].op;
    const uint32_t first_operand = out_->nodes[first].a;
    if (first_op == VOp::kIterEach || first_op == VOp::kPath) second_ctx = first_operand;
    // After `P // {}` (P a trie path) g's keys are read below P: where P is null or absent, so
    // are they, as on `{}`; where P is false, the trie raises an error that sends the resolver to
    // the regular engine, which answers on `{}`. Iterating that input itself is not lowered onto
    // P's iteration, which raises an error on null where `{} | .[]` gives nothing.
    const int64_t defaulted = PathOrEmptyObject(n.kids[0], ctx);
    if (defaulted >= 0) second_ctx = defaulted;
    bool iteration = first_op == VOp::kIterEach;
    if (iteration) active_.push_back(static_cast<uint32_t>(second_ctx));
    if (defaulted >= 0) not_iterated_.push_back(static_cast<uint32_t>(defaulted));
    bool ok = Lower(n.kids[1], second_ctx, &second);
    if (defaulted >= 0) not_iterated_.pop_back();
    if (iteration) active_.pop_back();
    if (!ok) return false;
    // `P | .[] ...` lowered to the trie's iteration of P reads P from the trie, not from its
    // input, and raises P's error itself: the pipe is its second part alone (a resolver that is
    // then one iteration is emitted without the evaluator).
    if (first_op == VOp::kPath && IteratesTriePath(second, first_operand)) {
      *result = second;
      return true;
    }
    // `[f] | .[0] | g` is regrouped as `([f] | .[0]) | g` (pipes associate), so that
    // `map(select(c)) | first` is one node (VNode::first_selected) whatever follows it, and
    // resolvers that go on differently from there (`first`, `first.image`) share it.
    uint32_t index, rest;
    if (out_->nodes[first].op == VOp::kCollect && SplitAfterFirstElement(second, &index, &rest)) {
      const uint32_t head = Push(VNode{VOp::kPipe, 0, {first, index}});
      *result = Push(VNode{VOp::kPipe, 0, {head, rest}});
      return true;
    }
    *result = Push(VNode{VOp::kPipe, 0, {first, second}});
    return true;
  }

  // Whether lowered node `id` is `.[0] | g` or `.[0].k...`: then *index is its `.[0]` and *rest
  // g (or `.k...` on its input, added), and `id` is left unreferenced (emptied).
  bool SplitAfterFirstElement(uint32_t id, uint32_t* index, uint32_t* rest) {
    const VNode after = out_->nodes[id];
    if ((after.op != VOp::kPipe && after.op != VOp::kFieldPath) || !IsFirstElement(*out_, after.kids[0])) return false;
    *index = after.kids[0];
    if (after.op == VOp::kPipe) {
      *rest = after.kids[1];
    } else {
      VNode keys{VOp::kFieldPath, 0, {Push(VNode{VOp::kIdentity, 0, {}})}};
      keys.keys = after.keys;
      *rest = Push(std::move(keys));
    }
    out_->nodes[id] = VNode{VOp::kEmpty, 0, {}};
    return true;
  }

  // Whether lowered node `id` is `select(.value OP constant)` (kIf of a kFieldCompare on "value",
  // then `.`, else `empty`): with_entries(f) then keeps each member whose value passes, as it was.
  bool KeepsMembersByValue(uint32_t id) const {
    const VNode& n = out_->nodes[id];
    if (n.op != VOp::kIf) return false;
    const VNode& test = out_->nodes[n.kids[0]];
    return test.op == VOp::kFieldCompare && test.keys.size() == 1 && test.keys[0] == "value" &&
           out_->nodes[n.kids[1]].op == VOp::kIdentity && out_->nodes[n.kids[2]].op == VOp::kEmpty;
  }

  // Whether lowered node `id` starts with the trie's iteration of `path` (`.[]`, or `.[] | f`).
  bool IteratesTriePath(uint32_t id, uint32_t path) const {
    const VNode& n = out_->nodes[id];
    const VNode& head = n.op == VOp::kPipe ? out_->nodes[n.kids[0]] : n;
    return head.op == VOp::kIterEach && trie_->nodes[head.a].parent == path;
  }

  // `to_entries[] | .key [| g]` likewise: each element's key, which the iteration lists with it.
  // `to_entries[] | .value.k1...kn [| g]` on a trie path: the entries' values are the elements
  // of `.[]` on it (keys_unsorted order, which is the iteration's: document order, or bytewise in
  // sort-keys mode; an array's entries hold its elements in order), so it is lowered as
  // `.[] .k1...kn [| g]` on the trie's shared iteration, read once per object for every resolver
  // of the kind (dynamo's `.spec.services | to_entries[] | .value.x`). Inputs that are neither
  // arrays nor objects raise an error either way, which sends the resolver to the regular engine
  // and its wording. false (nothing added) when the pipe has another shape.
  bool LowerEntryValues(const ir::Node& n, int64_t ctx, uint32_t* result) {
    const ir::Node& first = p_.nodes.at(n.kids[0]);
    if (first.op != Op::Iterate || first.kids.size() != 1) return false;
    const ir::Node& entries = p_.nodes.at(first.kids[0]);
    if (entries.op != Op::CallBuiltin || static_cast<ir::BuiltinId>(entries.a) != ir::BuiltinId::ToEntries ||
        !entries.kids.empty()) {
      return false;
    }
    const ir::Node& second = p_.nodes.at(n.kids[1]);
    bool then_more = second.op == Op::Pipe;
    std::vector<std::string> keys;
    if (!ConstantKeyChain(then_more ? second.kids[0] : n.kids[1], &keys) || keys.empty()) return false;
    const bool entry_key = keys.size() == 1 && keys[0] == "key";  // `to_entries[] | .key`
    if (keys[0] != "value" && !entry_key) return false;
    int64_t iteration = IterationOf(ctx);
    if (iteration == kNoContext) return false;
    // What each element gives (its key, or the value's path below the iteration), and what the
    // rest then sees: a key is no trie node's value.
    uint32_t each = Push(VNode{VOp::kIterEach, static_cast<uint32_t>(iteration), {}});
    uint32_t read = each;
    int64_t rest_ctx = kNoContext;
    if (entry_key) {
      read = Push(VNode{VOp::kPipe, 0, {each, Push(VNode{VOp::kEntryKey, static_cast<uint32_t>(iteration), {}})}});
    } else {
      int64_t below = iteration;
      for (size_t i = 1; i < keys.size(); ++i) below = trie_->Child(static_cast<uint32_t>(below), keys[i]);
      if (below != iteration) read = Push(VNode{VOp::kPipe, 0, {each, Push(VNode{VOp::kPath, static_cast<uint32_t>(below), {}})}});
      rest_ctx = below;
    }
    if (!then_more) {
      *result = read;
      return true;
    }
    active_.push_back(static_cast<uint32_t>(iteration));
    uint32_t rest;
    bool ok = Lower(second.kids[1], rest_ctx, &rest);
    active_.pop_back();
    if (!ok) return false;
    *result = Push(VNode{VOp::kPipe, 0, {read, rest}});
    return true;
  }

  // The trie node of P when node `id` is `P // {}` with P a constant-key path from trie node
  // `ctx` (`.resources // {}`), else -1.
  int64_t PathOrEmptyObject(NodeId id, int64_t ctx) {
    const ir::Node& n = p_.nodes.at(id);
    if (ctx < 0 || n.op != Op::Alternative) return -1;
    const ir::Node& fallback = p_.nodes.at(n.kids[1]);
    const bool empty_object = (fallback.op == Op::Object && fallback.kids.empty()) ||
                              (fallback.op == Op::Const && p_.consts.at(fallback.a).IsObject() &&
                               p_.consts[fallback.a].AsObject().empty());
    if (!empty_object) return -1;
    const int64_t path = PathOf(n.kids[0], ctx);
    return path > 0 ? path : -1;
  }

  // The keys of `.k1.k2...kn` (constant string keys down to Identity), outermost last.
  bool ConstantKeyChain(NodeId id, std::vector<std::string>* keys) const {
    const ir::Node& n = p_.nodes.at(id);
    if (n.op == Op::Identity) return true;
    const Value* key = n.op == Op::Index ? ConstStringKey(n) : nullptr;
    if (key == nullptr || !ConstantKeyChain(n.kids[0], keys)) return false;
    keys->emplace_back(key->AsString());
    return true;
  }

  // `P[]?` (`P | try .[]`, as the front end writes it) with P a trie path: the iteration node of
  // P that it shares with `P[]`, or kNoContext. Only the iteration's own error is caught there
  // (P not iterable: no elements); P's error and those after it are not.
  int64_t OptionalIterationOf(const ir::Node& pipe, int64_t ctx) {
    if (pipe.op != Op::Pipe || pipe.kids.size() != 2) return kNoContext;
    const ir::Node& attempt = p_.nodes.at(pipe.kids[1]);
    if (attempt.op != Op::Try || attempt.kids.empty() || (attempt.kids.size() > 1 && attempt.kids[1] != ir::kNoNode)) {
      return kNoContext;
    }
    const ir::Node& each = p_.nodes.at(attempt.kids[0]);
    if (each.op != Op::Iterate || each.kids.size() != 1 || p_.nodes.at(each.kids[0]).op != Op::Identity) {
      return kNoContext;
    }
    return IterationOf(PathOf(pipe.kids[0], ctx));
  }
  uint32_t PushOptionalIteration(uint32_t iteration) {
    VNode each{VOp::kIterEach, iteration, {}};
    each.c = 1;
    return Push(std::move(each));
  }

  // Whether IR node `id` is `[f]` with f not `empty`. As a whole resolver, `[f][]` is lowered as
  // f: both output f's values in order, and they differ only where f fails after some outputs
  // (`[f][]` outputs none of them). A failing resolver goes to the regular engine, which drops
  // what the view engine output and answers as jq does. Below the whole, `//`, `?` or `first`
  // would keep f's outputs before the error, where `[f][]` has none: there it stays a collect.
  bool IsCollectOfSomething(NodeId id) const {
    if (id >= p_.nodes.size() || p_.nodes[id].op != Op::Collect || p_.nodes[id].kids.size() != 1) return false;
    const NodeId body = p_.nodes[id].kids[0];
    return body < p_.nodes.size() && p_.nodes[body].op != Op::Empty;
  }

  // The iteration node of `.[]` over the value at trie node `path`, or kNoContext when it cannot
  // be shared (below another iteration, or that iteration is active around this node).
  int64_t IterationOf(int64_t path) {
    if (path < 0 || trie_->nodes[path].owner != 0 || trie_->nodes[path].iteration) return kNoContext;
    if (std::find(not_iterated_.begin(), not_iterated_.end(), path) != not_iterated_.end()) return kNoContext;
    uint32_t iteration = trie_->IterationChild(static_cast<uint32_t>(path));
    if (std::find(active_.begin(), active_.end(), iteration) != active_.end()) return kNoContext;
    return iteration;
  }

  bool LowerIterate(const ir::Node& n, int64_t ctx, uint32_t* result) {
    int64_t iteration = IterationOf(PathOf(n.kids[0], ctx));
    if (iteration != kNoContext) {
      *result = Push(VNode{VOp::kIterEach, static_cast<uint32_t>(iteration), {}});
      return true;
    }
    return Emit(VNode{VOp::kIterate, 0, {}}, n.kids, ctx, result);
  }

  // `.key OP constant` on a value that is not the root (inside `any`, after `.[]`): one node
  // instead of five, the most common condition of the catalog's status resolvers.
  bool LowerFieldCompare(const ir::Node& n, int64_t ctx, uint32_t* result) {
    if (ctx != kNoContext || static_cast<ir::BinaryOp>(n.a) < ir::BinaryOp::Eq) return false;
    const ir::Node& lhs = p_.nodes.at(n.kids[0]);
    const ir::Node& rhs = p_.nodes.at(n.kids[1]);
    if (lhs.op != Op::Index || rhs.op != Op::Const || p_.nodes.at(lhs.kids[0]).op != Op::Identity) return false;
    const Value* key = ConstStringKey(lhs);
    if (key == nullptr) return false;
    VNode v{VOp::kFieldCompare, n.a, {}};
    v.keys.emplace_back(key->AsString());
    v.c = AddConst(p_.consts.at(rhs.a));
    *result = Push(std::move(v));
    return true;
  }

  const Value* ConstStringKey(const ir::Node& index) const {
    const ir::Node& key = p_.nodes.at(index.kids[1]);
    if (key.op != Op::Const || !p_.consts.at(key.a).IsString()) return nullptr;
    return &p_.consts[key.a];
  }

  // The trie node of a chain of constant string keys down from Identity whose input is trie node
  // `ctx`, or -1.
  int64_t PathOf(NodeId id, int64_t ctx) {
    if (ctx < 0) return -1;
    const ir::Node& n = p_.nodes.at(id);
    if (n.op == Op::Identity) return ctx;
    if (n.op != Op::Index) return -1;
    const Value* key = ConstStringKey(n);
    if (key == nullptr) return -1;
    int64_t parent = PathOf(n.kids[0], ctx);
    if (parent < 0) return -1;
    return trie_->Child(static_cast<uint32_t>(parent), std::string(key->AsString()));
  }

  // `.k1.k2...kn` with constant keys on a base: a trie path when the base is the known input
  // (`.a.b`) or an iteration of the trie (`.a.b[].c.d`), else one kFieldPath node.
  bool LowerIndex(NodeId id, const ir::Node& n, int64_t ctx, uint32_t* result) {
    if (ConstStringKey(n) == nullptr) return Emit(VNode{VOp::kIndex, 0, {}}, n.kids, ctx, result);
    int64_t path = PathOf(id, ctx);
    if (path > 0) {
      *result = Push(VNode{VOp::kPath, static_cast<uint32_t>(path), {}});
      return true;
    }
    std::vector<std::string> keys;
    NodeId base = id;
    for (const Value* key; p_.nodes.at(base).op == Op::Index && (key = ConstStringKey(p_.nodes[base])) != nullptr;
         base = p_.nodes[base].kids[0]) {
      keys.emplace_back(key->AsString());
    }
    std::reverse(keys.begin(), keys.end());
    const ir::Node& base_node = p_.nodes.at(base);
    // `P[].k1...kn` and `P[]?.k1...kn`: each element's path below P's iteration.
    const bool optional = base_node.op == Op::Pipe;
    const int64_t iteration = base_node.op == Op::Iterate ? IterationOf(PathOf(base_node.kids[0], ctx))
                              : optional                  ? OptionalIterationOf(base_node, ctx)
                                                          : kNoContext;
    if (iteration != kNoContext) {
      int64_t below = iteration;
      for (const std::string& key : keys) below = trie_->Child(static_cast<uint32_t>(below), key);
      uint32_t each = optional ? PushOptionalIteration(static_cast<uint32_t>(iteration))
                               : Push(VNode{VOp::kIterEach, static_cast<uint32_t>(iteration), {}});
      uint32_t read = Push(VNode{VOp::kPath, static_cast<uint32_t>(below), {}});
      *result = Push(VNode{VOp::kPipe, 0, {each, read}});
      return true;
    }
    VNode v{VOp::kFieldPath, 0, {}};
    v.keys = std::move(keys);
    return Emit(std::move(v), {base}, ctx, result);
  }

  bool LowerCall(const ir::Node& n, int64_t ctx, uint32_t* result) {
    if (n.a >= p_.functions.size()) return Refuse("function call");
    const ir::Function& callee = p_.functions[n.a];
    std::string shape;
    RenderShape(p_, callee.body, 0, &shape);
    // The prelude's select, map, first, from_entries and with_entries, inlined (their argument is
    // lowered where the call is: it is a closure of this function, so its variables are this frame's).
    if (callee.name == "first/0" && shape == kFirstOfArrayShape && n.kids.empty()) {
      uint32_t target = Push(VNode{VOp::kIdentity, 0, {}});
      uint32_t zero = Push(VNode{VOp::kConst, AddConst(Value::Number(0)), {}});
      *result = Push(VNode{VOp::kIndex, 0, {target, zero}});
      return true;
    }
    if (callee.name == "from_entries/0" && n.kids.empty() && shape == FromEntriesShape()) {
      *result = Push(VNode{VOp::kFromEntries, 0, {}});
      return true;
    }
    if (n.kids.size() != 1) return Refuse("call of " + callee.name);
    if (callee.name == "with_entries/1" && shape == WithEntriesShape()) {
      // f is lowered twice: once on each entry of an object (the evaluator's direct form), once
      // inside the prelude's pipeline for any other input.
      uint32_t f_on_entry, f;
      if (!Lower(n.kids[0], kNoContext, &f_on_entry) || !Lower(n.kids[0], kNoContext, &f)) return false;
      VNode entries{VOp::kBuiltin, static_cast<uint32_t>(ir::BuiltinId::ToEntries), {}};
      uint32_t to_entries = Push(std::move(entries));
      uint32_t each = Push(VNode{VOp::kIterate, 0, {Push(VNode{VOp::kIdentity, 0, {}})}});
      uint32_t mapped = Push(VNode{VOp::kCollect, 0, {Push(VNode{VOp::kPipe, 0, {each, f}})}});
      uint32_t rebuilt = Push(VNode{VOp::kPipe, 0, {mapped, Push(VNode{VOp::kFromEntries, 0, {}})}});
      uint32_t pipeline = Push(VNode{VOp::kPipe, 0, {to_entries, rebuilt}});
      *result = Push(VNode{VOp::kWithEntries, KeepsMembersByValue(f_on_entry) ? kKeepMembersWhere : 0,
                           {f_on_entry, pipeline}});
      return true;
    }
    if (callee.name == "select/1" && shape == kSelectShape) {
      uint32_t condition;
      if (!Lower(n.kids[0], ctx, &condition)) return false;
      uint32_t keep = Push(VNode{VOp::kIdentity, 0, {}});
      uint32_t drop = Push(VNode{VOp::kEmpty, 0, {}});
      *result = Push(VNode{VOp::kIf, 0, {condition, keep, drop}});
      return true;
    }
    if (callee.name == "map/1" && shape == kMapShape) {
      uint32_t each = Push(VNode{VOp::kIterate, 0, {Push(VNode{VOp::kIdentity, 0, {}})}});
      uint32_t f;
      if (!Lower(n.kids[0], kNoContext, &f)) return false;
      *result = Push(VNode{VOp::kCollect, 0, {Push(VNode{VOp::kPipe, 0, {each, f}})}});
      return true;
    }
    VOp op;
    if (callee.name == "any/1" && shape == AnyShape()) op = VOp::kAny;
    else if (callee.name == "all/1" && shape == AllShape()) op = VOp::kAll;
    else return Refuse("call of " + callee.name);
    uint32_t condition;
    if (!Lower(n.kids[0], kNoContext, &condition)) return false;
    *result = Push(VNode{op, 0, {condition}});
    return true;
  }

  const ir::Program& p_;
  const NodeId whole_;  // the program's body
  PathTrie* trie_;
  ViewProgram* out_;
  std::string* reason_;
  std::vector<uint32_t> active_;  // iteration nodes whose element is the input of an enclosing pipe
  std::vector<uint32_t> not_iterated_;  // trie nodes standing for `P // {}`: not iterated as P
};

}  // namespace

uint32_t PathTrie::Child(uint32_t parent, const std::string& key) {
  for (uint32_t child : nodes[parent].children) {
    if (!nodes[child].iteration && nodes[child].key == key) return child;
  }
  uint32_t owner = nodes[parent].iteration ? parent : nodes[parent].owner;
  nodes.push_back(Node{parent, key, false, owner, {}});
  auto id = static_cast<uint32_t>(nodes.size() - 1);
  nodes[parent].children.push_back(id);
  return id;
}

uint32_t PathTrie::IterationChild(uint32_t parent) {
  for (uint32_t child : nodes[parent].children) {
    if (nodes[child].iteration) return child;
  }
  auto id = static_cast<uint32_t>(nodes.size());
  nodes.push_back(Node{parent, "", true, id, {}});
  nodes[parent].children.push_back(id);
  return id;
}

namespace {

// Whether node `id` is `.[] | select(c)` with c a condition (VNode::condition): the body of a
// kCollect that VNode::select_each runs as a loop.
bool SelectsEachElement(const ViewProgram& program, uint32_t id) {
  const VNode& pipe = program.nodes[id];
  if (pipe.op != VOp::kPipe) return false;
  const VNode& each = program.nodes[pipe.kids[0]];
  const VNode& select = program.nodes[pipe.kids[1]];
  if (each.op != VOp::kIterate || program.nodes[each.kids[0]].op != VOp::kIdentity) return false;
  if (select.op != VOp::kIf || program.nodes[select.kids[1]].op != VOp::kIdentity ||
      program.nodes[select.kids[2]].op != VOp::kEmpty) {
    return false;
  }
  return program.nodes[select.kids[0]].condition;
}

}  // namespace

void MarkSingle(ViewProgram* program) {
  for (VNode& n : program->nodes) {
    auto kids_single = [&] {
      for (uint32_t kid : n.kids) {
        if (!program->nodes[kid].single) return false;
      }
      return true;
    };
    switch (n.op) {
      case VOp::kIdentity:
      case VOp::kConst:
      case VOp::kPath:
      case VOp::kEntryKey:
      case VOp::kVar:
      case VOp::kWithEntries:  // one object (or an error)
      case VOp::kAny:          // one boolean (or an error), whatever the condition outputs
      case VOp::kAll:
      case VOp::kCollect:      // one array (or an error), whatever its body outputs
      case VOp::kLength:       // the builtins on the input: one value or an error (ops::CallBuiltin)
      case VOp::kBuiltin:
        n.single = true;
        break;
      case VOp::kFieldPath:
      case VOp::kPipe:
      case VOp::kIf:
      case VOp::kObject:
      case VOp::kAlternative:
      case VOp::kAnd:
      case VOp::kOr:
      case VOp::kNot:
      case VOp::kType:
      case VOp::kIndex:
      case VOp::kNeg: n.single = kids_single(); break;
      case VOp::kBinary: n.single = n.a >= static_cast<uint32_t>(ir::BinaryOp::Eq) ||
                                    n.a <= static_cast<uint32_t>(ir::BinaryOp::Mul) ? kids_single() : false;
        break;
      default: n.single = false; break;
    }
    const auto form_of = [&](uint32_t kid) { return program->nodes[kid].form; };
    if (n.op == VOp::kConst) n.form = VForm::kConst;
    else if (n.op == VOp::kPath) n.form = VForm::kPath;
    else if (n.op == VOp::kVar) n.form = VForm::kVar;
    else if (n.op == VOp::kIdentity) n.form = VForm::kInput;
    else if (n.op == VOp::kFieldPath && program->nodes[n.kids[0]].op == VOp::kIdentity) n.form = VForm::kField;
    else if (n.op == VOp::kAlternative && form_of(n.kids[1]) == VForm::kConst) {
      if (form_of(n.kids[0]) == VForm::kPath) n.form = VForm::kPathOrConst;
      else if (form_of(n.kids[0]) == VForm::kField) n.form = VForm::kFieldOrConst;
    }
    n.direct_operands = n.op == VOp::kBinary && n.single && form_of(n.kids[0]) != VForm::kTree &&
                        form_of(n.kids[1]) != VForm::kTree;
    n.condition = n.single || n.op == VOp::kFieldCompare ||
                  ((n.op == VOp::kAnd || n.op == VOp::kOr) && program->nodes[n.kids[0]].condition &&
                   program->nodes[n.kids[1]].condition);
    if (n.op == VOp::kCollect) n.select_each = SelectsEachElement(*program, n.kids[0]);
    if (n.op == VOp::kBinary && (static_cast<ir::BinaryOp>(n.a) == ir::BinaryOp::Eq ||
                                 static_cast<ir::BinaryOp>(n.a) == ir::BinaryOp::Ne)) {
      const VNode& left = program->nodes[n.kids[0]];
      const VNode& right = program->nodes[n.kids[1]];
      n.type_test = left.op == VOp::kType && left.memo == 0 && right.op == VOp::kConst && right.memo == 0 &&
                    program->consts[right.a].IsString();
    }
    n.first_selected = n.op == VOp::kPipe && program->nodes[n.kids[0]].select_each &&
                       IsFirstElement(*program, n.kids[1]);
    if (n.op == VOp::kObject) {
      std::vector<std::string_view> keys;
      for (size_t i = 0; i < n.kids.size(); i += 2) {
        const VNode& key = program->nodes[n.kids[i]];
        if (key.op != VOp::kConst || !program->consts[key.a].IsString()) break;
        keys.push_back(program->consts[key.a].AsString());
      }
      std::sort(keys.begin(), keys.end());
      n.distinct_constant_keys = keys.size() * 2 == n.kids.size() &&
                                 std::adjacent_find(keys.begin(), keys.end()) == keys.end();
    }
  }
}

int64_t TrieValueOf(const ViewProgram& program, const PathTrie& trie, uint32_t id) {
  const VNode& v = program.nodes[id];
  if (v.op == VOp::kPath || v.op == VOp::kIterEach) return v.a;
  if (v.op == VOp::kPipe && program.nodes[v.kids[0]].op == VOp::kIterEach &&
      program.nodes[v.kids[1]].op == VOp::kPath &&
      trie.nodes[program.nodes[v.kids[1]].a].owner == program.nodes[v.kids[0]].a) {
    return program.nodes[v.kids[1]].a;
  }
  return -1;
}

namespace {

constexpr int64_t kDerived = -1;  // an input the program computed: what it holds was marked where read
constexpr int64_t kElement = -2;  // in an any/all's condition: the element it tests

// MarkObservedNodes' walk of the subexpression at `root`, whose input is `input` (a trie node,
// kDerived or kElement) and whose value is read as `blind` says: `mark` is called with each
// input some part reads whole.
//
// `through`: the node's value goes on as the input of a pipe's second part (`P | f` with P a
// trie value), which marks it where it reads it whole. `blind`: the node's value is only
// compared, tested for truth, or fed to arithmetic whose result is in turn (`(.status.ready //
// 0) > 0`): jq compares -0 equal to 0, both are true, and arithmetic on either gives the same
// magnitude (a division by either zero is an error), so the sign simdjson drops cannot show,
// and the node is not marked.
void MarkReadsWhole(const ViewProgram& program, const PathTrie& trie, uint32_t root, int64_t input, bool blind,
                    const std::function<void(int64_t)>& mark) {
  // Whether an any/all's condition reads the element it tests whole (else it only compares its
  // members or tests them, and the array's zeros cannot show in its one boolean).
  auto condition_reads_element = [&](const VNode& any) {
    bool element = false;
    MarkReadsWhole(program, trie, any.kids[0], kElement, true, [&](int64_t node) {
      if (node == kElement) element = true;
      else mark(node);
    });
    return element;
  };
  // Whether node `id` reads its input only for its truth, type or a test (a pipe's first part
  // then is blind: `(.status.list // []) | any(.ready > 0)`).
  auto reads_input_blind = [&](uint32_t id) {
    const VNode& n = program.nodes[id];
    switch (n.op) {
      case VOp::kNot: case VOp::kType: case VOp::kFieldCompare: return true;
      case VOp::kAny: case VOp::kAll: return !condition_reads_element(n);
      default: return false;
    }
  };
  struct Visit {
    uint32_t id;
    int64_t input;  // the trie node the input is, kDerived or kElement
    bool through;
    bool blind;
  };
  std::vector<Visit> stack{{root, input, false, blind}};
  while (!stack.empty()) {
    const Visit visit = stack.back();
    stack.pop_back();
    const VNode& v = program.nodes[visit.id];
    // Whether kid `i` of this node is read only as `blind` says; forms not named read it whole.
    auto kid_blind = [&](size_t i) {
      switch (v.op) {
        case VOp::kBinary:
          return static_cast<ir::BinaryOp>(v.a) >= ir::BinaryOp::Eq || visit.blind;  // a comparison, or arithmetic
        case VOp::kAnd: case VOp::kOr: return true;  // their kids' truth only
        case VOp::kIf: return i == 0 || visit.blind;  // the condition's truth; the branches are the value
        case VOp::kIndex: return i == 0 && visit.blind;  // the target's part is the value; the key is read whole
        case VOp::kBind: return i == 1 && visit.blind;  // the bound value may be read anywhere
        case VOp::kAlternative: case VOp::kComma: case VOp::kNeg: case VOp::kTry: case VOp::kCollect:
        case VOp::kObject: case VOp::kFieldPath: case VOp::kIterate:
          return visit.blind;  // the kids' values are (parts of) the node's value
        default: return false;
      }
    };
    switch (v.op) {
      case VOp::kConst: case VOp::kEmpty: case VOp::kVar:
      case VOp::kEntryKey:  // a member's key (a string) or an element's index: no number of the document
        break;
      // Forms that read their input's type, truth or one member's comparison: no sign shows.
      case VOp::kNot: case VOp::kType: case VOp::kFieldCompare:
        break;
      case VOp::kPath: case VOp::kIterEach:
        if (!visit.through && !visit.blind) mark(v.a);
        break;
      case VOp::kIdentity:
        if (!visit.blind) mark(visit.input);
        break;
      case VOp::kPipe: {
        const int64_t value = TrieValueOf(program, trie, v.kids[0]);
        stack.push_back({v.kids[0], visit.input, value >= 0, value < 0 && reads_input_blind(v.kids[1])});
        // A pipe that is itself a trie value (`.a[] | .b`) passes its second part's value on.
        stack.push_back({v.kids[1], value >= 0 ? value : kDerived,
                         visit.through && TrieValueOf(program, trie, visit.id) >= 0, visit.blind});
        continue;
      }
      // The forms that pass their input to their kids and read it no further themselves.
      case VOp::kComma: case VOp::kNeg: case VOp::kBinary: case VOp::kAnd: case VOp::kOr:
      case VOp::kAlternative: case VOp::kIf: case VOp::kTry: case VOp::kCollect: case VOp::kObject:
      case VOp::kBind: case VOp::kIndex: case VOp::kFieldPath: case VOp::kIterate:
        break;
      case VOp::kAny: case VOp::kAll:  // the condition walked on its own, with the element as its input
        if (condition_reads_element(v)) mark(visit.input);
        continue;
      default:  // builtins, entries, and any form added later
        mark(visit.input);
        break;
    }
    for (size_t i = 0; i < v.kids.size(); ++i) stack.push_back({v.kids[i], visit.input, false, kid_blind(i)});
  }
}

}  // namespace

void MarkObservedNodes(const ViewProgram& program, const PathTrie& trie, std::vector<bool>* observed) {
  observed->resize(trie.nodes.size(), false);
  MarkReadsWhole(program, trie, program.root, 0, false, [&](int64_t node) {
    if (node < 0) return;  // kDerived: marked where read; kElement is the condition's own
    // An iteration's value is each element in turn: its array is read whole. A node below it is
    // read at each element (checked there: the rest of the elements is not read).
    const uint32_t owner = trie.nodes[node].owner;
    (*observed)[owner == static_cast<uint32_t>(node) ? trie.nodes[owner].parent : static_cast<uint32_t>(node)] = true;
  });
}


namespace {

// Whether the kids of a node see the node's own input (so that a node whose input is the root
// passes the root on): kid `i` of `n`.
bool KidSeesInput(const VNode& n, size_t i) {
  switch (n.op) {
    case VOp::kPipe: return i == 0;
    case VOp::kFieldPath: case VOp::kIndex: case VOp::kComma: case VOp::kNeg: case VOp::kBinary:
    case VOp::kAnd: case VOp::kOr: case VOp::kAlternative: case VOp::kIf: case VOp::kCollect:
    case VOp::kObject: case VOp::kBind: return true;  // a binding's body: its variable makes it not closed
    default: return false;  // iterations, any/all, with_entries, try: other inputs
  }
}

// What a subexpression reads besides its input: kNone, one iteration's current element (the
// iteration node), or kOpen (a variable, or the elements of several iterations).
constexpr int64_t kReadsNone = 0, kReadsOpen = -1;

// A canonical text of node `id`'s subexpression (constants by value, paths by trie node, which
// the kind's programs share), built kids first, and what it reads besides its input.
void RenderSubexpressions(const ViewProgram& program, const PathTrie& trie, std::vector<std::string>* text,
                          std::vector<int64_t>* reads) {
  const size_t n = program.nodes.size();
  text->assign(n, "");
  reads->assign(n, kReadsNone);
  auto add = [](int64_t* into, int64_t what) {
    if (what == kReadsNone || *into == what) return;
    *into = *into == kReadsNone ? what : kReadsOpen;
  };
  for (size_t id = 0; id < n; ++id) {  // kids precede their parents
    const VNode& v = program.nodes[id];
    std::string& out = (*text)[id];
    out = std::to_string(static_cast<int>(v.op)) + ":";
    if (v.op == VOp::kConst) out += ToJson(program.consts[v.a]);
    else out += std::to_string(v.a);
    if (v.op == VOp::kFieldCompare) out += "," + ToJson(program.consts[v.c]);
    if (v.op == VOp::kIterEach && v.c != 0) out += "?";
    for (const std::string& key : v.keys) out += "," + ToJson(Value::String(key));
    int64_t& r = (*reads)[id];
    if (v.op == VOp::kVar || v.op == VOp::kBind) r = kReadsOpen;
    if (v.op == VOp::kIterEach) r = kReadsOpen;  // lists an iteration: its current element moves
    if (v.op == VOp::kPath && trie.nodes[v.a].owner != 0) add(&r, trie.nodes[v.a].owner);
    if (v.op == VOp::kEntryKey) add(&r, v.a);  // the iteration's current element
    out += "(";
    for (uint32_t kid : v.kids) {
      out += (*text)[kid] + ";";
      add(&r, (*reads)[kid]);
    }
    out += ")";
  }
}

// What a node's input is known to be: a key naming the value (equal keys, equal values on one
// object, and on one element of `iteration` when it is not 0), or nothing (`known` false).
struct InputKey {
  bool known = false;
  std::string key;
  uint32_t iteration = 0;
};

// Per node of `program`, its input (InputKey), and per node the key of its own value when it is
// a candidate (single, known input, reading nothing but its input and that input's iteration
// element), with the iteration it depends on. The program's root sees the document (key "0");
// kids that see their parent's input (KidSeesInput) inherit it; the second part of `P | f` sees
// the value at P when P is a trie path or an iteration's element (`.a[] | f`, `.a[] | .b | f`:
// the trie node's number is its key), or P's own value when P is a candidate (`(.c // []) | map(g)`:
// P's key), so a chain of such steps is numbered as a whole.
void NumberValues(const ViewProgram& program, const PathTrie& trie, const std::vector<std::string>& texts,
                  const std::vector<int64_t>& reads, std::vector<InputKey>* values) {
  const size_t n = program.nodes.size();
  std::vector<InputKey> inputs(n);
  values->assign(n, InputKey{});
  // A node's own value key, from its input (call once the input is set).
  auto number = [&](uint32_t id) {
    const VNode& v = program.nodes[id];
    const InputKey& in = inputs[id];
    if (!v.single || !in.known || reads[id] == kReadsOpen) return;
    uint32_t iteration = in.iteration;
    if (reads[id] != kReadsNone) {
      if (iteration != 0 && static_cast<int64_t>(iteration) != reads[id]) return;  // two iterations
      iteration = static_cast<uint32_t>(reads[id]);
    }
    (*values)[id] = InputKey{true, in.key + "|" + texts[id], iteration};
  };
  // Depth first, kids in order (the second part of a pipe after the first has its key).
  std::vector<std::pair<uint32_t, size_t>> stack{{program.root, 0}};
  inputs[program.root] = InputKey{true, "0", 0};
  number(program.root);
  while (!stack.empty()) {
    auto& [id, next] = stack.back();
    const VNode& v = program.nodes[id];
    if (next == v.kids.size()) {
      stack.pop_back();
      continue;
    }
    const size_t i = next++;
    const uint32_t kid = v.kids[i];
    InputKey in;
    if (KidSeesInput(v, i)) {
      in = inputs[id];
    } else if (v.op == VOp::kPipe && i == 1) {
      int64_t node = TrieValueOf(program, trie, v.kids[0]);
      if (node >= 0) in = InputKey{true, std::to_string(node), trie.nodes[node].owner};
      else in = (*values)[v.kids[0]];
    }
    inputs[kid] = in;
    number(kid);
    stack.emplace_back(kid, 0);
  }
}

}  // namespace

SharedSubexpressions ShareRepeatedSubexpressions(const std::vector<ViewProgram*>& programs, const PathTrie& trie) {
  // Candidates: their value keys (NumberValues); more than a read the trie already caches.
  std::vector<std::vector<InputKey>> values(programs.size());
  std::unordered_map<std::string, uint32_t> uses;
  for (size_t p = 0; p < programs.size(); ++p) {
    const ViewProgram& program = *programs[p];
    std::vector<std::string> texts;
    std::vector<int64_t> reads;
    RenderSubexpressions(program, trie, &texts, &reads);
    NumberValues(program, trie, texts, reads, &values[p]);
    for (size_t id = 0; id < program.nodes.size(); ++id) {
      const VOp op = program.nodes[id].op;
      if (op == VOp::kConst || op == VOp::kIdentity || op == VOp::kPath || op == VOp::kEmpty) values[p][id].known = false;
      if (values[p][id].known) ++uses[values[p][id].key];
    }
  }
  // From each root down, the outermost repeated candidates: the parts of a shared subexpression
  // are computed once with it, so they get no slot of their own there.
  SharedSubexpressions shared;
  std::unordered_map<std::string, uint32_t> slots;
  for (size_t p = 0; p < programs.size(); ++p) {
    ViewProgram& program = *programs[p];
    std::vector<uint32_t> work{program.root};
    while (!work.empty()) {
      uint32_t id = work.back();
      work.pop_back();
      const InputKey& value = values[p][id];
      if (value.known && uses[value.key] >= 2) {
        auto [it, inserted] = slots.try_emplace(value.key, static_cast<uint32_t>(slots.size()));
        if (inserted) shared.iteration.push_back(value.iteration);
        program.nodes[id].memo = it->second + 1;
        continue;
      }
      for (uint32_t kid : program.nodes[id].kids) work.push_back(kid);
    }
  }
  return shared;
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
  Lowerer lowerer(program, program.functions[0].body, &scratch, view.get(), reason);
  if (!lowerer.Lower(program.functions[0].body, 0, &view->root)) return nullptr;
  *trie = std::move(scratch);
  MarkSingle(view.get());
  return view;
}

}  // namespace wm::view
