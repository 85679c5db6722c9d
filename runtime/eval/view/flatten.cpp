// View program -> flat code (view_program.h, FlatCode). A single program's tree becomes
// straight-line code over registers: constants, trie paths, field reads, comparisons,
// arithmetic, `(a + b) == {}`, `tonumber`, `length`, `and`, `or`, `not`, `if`, `//`, pipes, `any` / `all`
// and `map(select(c)) | first` (their condition a block run per element), objects with constant
// keys (and `with_entries(select(.value OP c))` of them) and the kind's shared subexpressions
// (memo slots of the object) are instructions;
// any other node is one kTree instruction that the tree evaluator computes. `.a[] | f` with f
// single becomes f's code, run on each element; `E as $x | body` with E single becomes body's
// code after E's, which sets the variable once. The order of evaluation is the tree evaluator's
// (a comparison's right side first, as jq), so an error or a bail surfaces at the same node and
// sends the resolver to the regular engine as before.
#include <algorithm>
#include <memory>
#include <vector>

#include "runtime/eval/view/view_program.h"

namespace wm::view {
namespace {

class Flattener {
 public:
  // `iteration`: the trie iteration whose elements the code runs on (FlatCode::each_iteration),
  // or 0.
  Flattener(const ViewProgram& program, const PathTrie& trie, const std::vector<uint32_t>& memo_iterations,
            uint32_t iteration, FlatCode* out)
      : p_(program), trie_(trie), memo_iterations_(memo_iterations), iteration_(iteration), out_(out) {}

  // Code for single node `id` on the value in register `in`; *result is the register holding its
  // value (a new one, or `in` itself for `.`). false when a node is not a condition
  // (VNode::condition: single, or a field comparison or `and` / `or` of conditions, such as
  // `.type == "A" and .status == "True"` in an any's block, where only its truthiness is read).
  bool Compile(uint32_t id, uint32_t in, uint32_t* result) {
    const VNode& n = p_.nodes[id];
    if (!n.condition) return false;
    // A shared constant or trie path is read again rather than kept: the read costs less than
    // the slot's test and store.
    if (n.memo == 0 || IsDirectRead(n)) return CompileComputed(id, in, result);
    const uint32_t slot = n.memo - 1;
    // A slot per element of an iteration is the tree evaluator's (it knows the current element).
    // A search that is code of its own is run again instead: its loop costs less than the
    // tree's run that would keep it (dynamo's two resolvers of each component's main container).
    if (slot >= memo_iterations_.size() || memo_iterations_[slot] != 0) {
      if (FirstWhereFlattens(n)) return CompileComputed(id, in, result);
      return Tree(id, in, result, kThroughMemo);
    }
    const uint32_t r = NewRegister();
    const size_t load = Add({FlatOp::kMemoLoad, 0, r, slot, 0});
    uint32_t computed;
    if (!CompileComputed(id, in, &computed)) return false;
    Add({FlatOp::kMove, 0, r, computed, 0});
    Add({FlatOp::kMemoStore, 0, r, slot, 0});
    Patch(load);
    *result = r;
    return true;
  }

 private:
  // Compile without the memo slot.
  bool CompileComputed(uint32_t id, uint32_t in, uint32_t* result) {
    const VNode& n = p_.nodes[id];
    switch (n.form) {
      case VForm::kConst:
        *result = NewRegister();
        Add({FlatOp::kConst, 0, *result, n.a, 0});
        return true;
      case VForm::kInput:
        *result = in;
        return true;
      case VForm::kPath:
        if (!Readable(n.a)) return Tree(id, in, result);
        *result = NewRegister();
        Add(Absolute(n.a) ? FlatInstr{FlatOp::kPath, 0, *result, n.a, 0}
                          : FlatInstr{FlatOp::kPathBelow, 0, *result, n.a, kNoConst});
        return true;
      case VForm::kPathOrConst: {
        const uint32_t path = p_.nodes[n.kids[0]].a;
        if (!Readable(path)) return Tree(id, in, result);
        *result = NewRegister();
        Add({Absolute(path) ? FlatOp::kPathOrConst : FlatOp::kPathBelow, 0, *result, path, p_.nodes[n.kids[1]].a});
        return true;
      }
      case VForm::kField:
      case VForm::kFieldOrConst: {
        const bool or_const = n.form == VForm::kFieldOrConst;
        *result = NewRegister();
        out_->built_registers.push_back(*result);
        FlatInstr field{FlatOp::kField, 0, *result, in, or_const ? p_.nodes[n.kids[1]].a : kNoConst};
        field.n = or_const ? n.kids[0] : id;
        Add(field);
        return true;
      }
      case VForm::kVar:
        *result = NewRegister();
        Add({FlatOp::kVar, 0, *result, n.a, 0});
        return true;
      case VForm::kTree: break;
      default: return Tree(id, in, result);
    }
    switch (n.op) {
      case VOp::kIdentity:
        *result = in;
        return true;
      case VOp::kBinary: return CompileBinary(id, in, result);
      case VOp::kAnd:
      case VOp::kOr: return CompileAndOr(n, in, result);
      case VOp::kNot:
        *result = NewRegister();
        Add({FlatOp::kNot, 0, *result, in, 0});
        return true;
      case VOp::kIf: return CompileBranches(n.kids[0], n.kids[1], n.kids[2], in, result);
      case VOp::kAlternative: return CompileBranches(n.kids[0], n.kids[0], n.kids[1], in, result);
      case VOp::kObject:
        if (!n.distinct_constant_keys) return Tree(id, in, result);
        return CompileObject(n, in, nullptr, result);
      case VOp::kPipe: {
        if (n.first_selected) return CompileFirstWhere(id, in, result);
        const VNode& second = p_.nodes[n.kids[1]];
        if (second.op == VOp::kWithEntries && second.a == kKeepMembersWhere) {
          // `{cpu: .a, memory: .b} | with_entries(select(.value != null))`: the object built with
          // only the members that pass. Any other object: the tree filters it in place.
          const VNode& first = p_.nodes[n.kids[0]];
          if (first.op != VOp::kObject || !first.distinct_constant_keys || first.memo != 0 || second.memo != 0) {
            return Tree(id, in, result);
          }
          return CompileObject(first, in, &p_.nodes[p_.nodes[second.kids[0]].kids[0]], result);
        }
        uint32_t middle;
        return Compile(n.kids[0], in, &middle) && Compile(n.kids[1], middle, result);
      }
      case VOp::kFieldPath: {
        // `E.k1.k2` of a single E other than the input (`(.ngc // .hf).modelPuller`): E's code,
        // then a field read of its value.
        uint32_t target;
        if (!p_.nodes[n.kids[0]].single) return Tree(id, in, result);
        if (!Compile(n.kids[0], in, &target)) return false;
        *result = NewRegister();
        out_->built_registers.push_back(*result);
        FlatInstr field{FlatOp::kField, 0, *result, target, kNoConst};
        field.n = id;
        Add(field);
        return true;
      }
      case VOp::kLength:
        *result = NewRegister();
        Add({FlatOp::kLength, 0, *result, in, 0});
        return true;
      case VOp::kBuiltin:
        if (static_cast<ir::BuiltinId>(n.a) != ir::BuiltinId::ToNumber) return Tree(id, in, result);
        *result = NewRegister();
        Add({FlatOp::kToNumber, 0, *result, in, 0});
        return true;
      case VOp::kFieldCompare: {
        *result = NewRegister();
        FlatInstr compare{FlatOp::kFieldCompare, 0, *result, in, 0};
        compare.n = id;
        Add(compare);
        return true;
      }
      case VOp::kAny:
      case VOp::kAll: {
        if (!p_.nodes[n.kids[0]].condition) return Tree(id, in, result);
        *result = NewRegister();
        FlatInstr each{FlatOp::kAnyAll, static_cast<uint8_t>(n.op == VOp::kAny), *result, in, 0};
        each.n = id;
        each.element = NewRegister();
        blocks_.push_back({Add(each), n.kids[0], each.element});
        return true;
      }
      default: return Tree(id, in, result);
    }
  }

 public:
  // The blocks of the conditions met so far, each after the code before it: their kAnyAll
  // instructions point at them. A block may add blocks of its own (nested any/all).
  bool CompileBlocks() {
    for (size_t i = blocks_done_; i < blocks_.size(); blocks_done_ = ++i) {
      const Block block = blocks_[i];
      out_->code[block.instr].b = static_cast<uint32_t>(out_->code.size());
      uint32_t value;
      if (!Compile(block.condition, block.element, &value)) return false;
      Add({FlatOp::kReturn, 0, 0, value, 0});
    }
    return true;
  }

 private:
  // A constant, the input, or an absolute trie path (`// c` or not): one instruction, no work.
  bool IsDirectRead(const VNode& n) const {
    switch (n.form) {
      case VForm::kConst:
      case VForm::kInput: return true;
      case VForm::kPath: return Readable(n.a);
      case VForm::kPathOrConst: return Readable(p_.nodes[n.kids[0]].a);
      default: return false;
    }
  }

  // `a OP b`, the right side first (jq's order); a constant right side of a comparison is an
  // operand of the instruction. Arithmetic may build a value (`+` of objects): its register is
  // let go after each run.
  bool CompileBinary(uint32_t id, uint32_t in, uint32_t* result) {
    const VNode& n = p_.nodes[id];
    const auto cmp = static_cast<uint8_t>(n.a);
    if (n.a < static_cast<uint32_t>(ir::BinaryOp::Eq)) {
      uint32_t a, b;
      if (!Compile(n.kids[1], in, &b) || !Compile(n.kids[0], in, &a)) return false;
      *result = NewRegister();
      out_->built_registers.push_back(*result);
      Add({FlatOp::kArith, cmp, *result, a, b});
      return true;
    }
    const VNode& right = p_.nodes[n.kids[1]];
    if (right.op == VOp::kConst && right.memo == 0) {
      // `(a + b) == {}` or `!= {}`: whether the sum has members, without building it.
      const VNode& sum = p_.nodes[n.kids[0]];
      const Value& constant = p_.consts[right.a];
      if ((n.a == static_cast<uint32_t>(ir::BinaryOp::Eq) || n.a == static_cast<uint32_t>(ir::BinaryOp::Ne)) &&
          constant.IsObject() && constant.AsObject().empty() && sum.op == VOp::kBinary &&
          sum.a == static_cast<uint32_t>(ir::BinaryOp::Add) && sum.memo == 0) {
        uint32_t a, b;
        if (!Compile(sum.kids[1], in, &b) || !Compile(sum.kids[0], in, &a)) return false;
        *result = NewRegister();
        Add({FlatOp::kSumIsEmpty, cmp, *result, a, b});
        return true;
      }
      uint32_t left;
      if (!Compile(n.kids[0], in, &left)) return false;
      *result = NewRegister();
      Add({FlatOp::kCompareConst, cmp, *result, left, right.a});
      return true;
    }
    uint32_t a, b;
    if (!Compile(n.kids[1], in, &b) || !Compile(n.kids[0], in, &a)) return false;
    *result = NewRegister();
    Add({FlatOp::kCompare, cmp, *result, a, b});
    return true;
  }

  // `{k1: v1, ...}` (keys distinct string constants; VNode::distinct_constant_keys): the values
  // in order, then one kObject of them. `keep`, when not null, is the kFieldCompare of
  // `select(.value OP c)` that a member's value must pass to be kept.
  bool CompileObject(const VNode& n, uint32_t in, const VNode* keep, uint32_t* result) {
    std::vector<uint32_t> members;
    for (size_t i = 0; i + 1 < n.kids.size(); i += 2) {
      uint32_t value;
      if (!Compile(n.kids[i + 1], in, &value)) return false;
      members.push_back(p_.nodes[n.kids[i]].a);
      members.push_back(value);
    }
    FlatInstr build{FlatOp::kObject, 0, NewRegister(), static_cast<uint32_t>(out_->operands.size()), kNoConst};
    build.n = static_cast<uint32_t>(members.size() / 2);
    if (keep != nullptr) {
      build.cmp = static_cast<uint8_t>(keep->a);
      build.b = keep->c;
    }
    out_->operands.insert(out_->operands.end(), members.begin(), members.end());
    out_->built_registers.push_back(build.r);
    *result = build.r;
    Add(build);
    return true;
  }

  // `map(select(c)) | first` (VNode::first_selected): c a block run on each element (kFirstWhere),
  // where neither the map nor `first` is a shared subexpression of their own; else the tree's.
  // The condition node of such a pipe: collect(pipe(.[], if c then . else empty end)).
  uint32_t FirstWhereCondition(const VNode& pipe) const {
    return p_.nodes[p_.nodes[p_.nodes[pipe.kids[0]].kids[0]].kids[1]].kids[0];
  }
  bool FirstWhereFlattens(const VNode& n) const {
    return n.op == VOp::kPipe && n.first_selected && p_.nodes[n.kids[0]].memo == 0 && p_.nodes[n.kids[1]].memo == 0 &&
           p_.nodes[FirstWhereCondition(n)].condition;
  }
  bool CompileFirstWhere(uint32_t id, uint32_t in, uint32_t* result) {
    const VNode& n = p_.nodes[id];
    if (!FirstWhereFlattens(n)) return Tree(id, in, result);
    *result = NewRegister();
    out_->built_registers.push_back(*result);  // the tree's value, on what is no array of the document
    FlatInstr search{FlatOp::kFirstWhere, 0, *result, in, 0};
    search.n = id;
    search.element = NewRegister();
    blocks_.push_back({Add(search), FirstWhereCondition(n), search.element});
    return true;
  }

  // `a and b`, `a or b`: b only when a does not decide; a boolean either way.
  bool CompileAndOr(const VNode& n, uint32_t in, uint32_t* result) {
    const bool is_and = n.op == VOp::kAnd;
    const uint32_t r = NewRegister();
    uint32_t left, right;
    if (!Compile(n.kids[0], in, &left)) return false;
    // `and`: a falsy left side decides (false); `or`: a truthy one (true).
    const size_t decided = Add({is_and ? FlatOp::kJumpIfFalsy : FlatOp::kJumpIfTruthy, 0, 0, left, 0});
    if (!Compile(n.kids[1], in, &right)) return false;
    Add({FlatOp::kTruthy, 0, r, right, 0});
    const size_t done = Add({FlatOp::kJump, 0, 0, 0, 0});
    Patch(decided);
    Add({FlatOp::kSetBool, static_cast<uint8_t>(is_and ? 0 : 1), r, 0, 0});
    Patch(done);
    *result = r;
    return true;
  }

  // `if c then t else e end`, and `a // b` as `if a then a else b end` (`a` computed once: its
  // register is both the test and the value).
  bool CompileBranches(uint32_t test, uint32_t then, uint32_t otherwise, uint32_t in, uint32_t* result) {
    const uint32_t r = NewRegister();
    uint32_t condition, value;
    if (!Compile(test, in, &condition)) return false;
    if (then == test && TakeLastWrite(condition, r)) condition = r;  // `a // b`: a computed into r
    const size_t to_else = Add({FlatOp::kJumpIfFalsy, 0, 0, condition, 0});
    if (then == test) {
      value = condition;
    } else if (!Compile(then, in, &value)) {
      return false;
    }
    MoveInto(r, value);
    const size_t done = Add({FlatOp::kJump, 0, 0, 0, 0});
    Patch(to_else);
    if (!Compile(otherwise, in, &value)) return false;
    MoveInto(r, value);
    Patch(done);
    joined_.push_back(r);  // written by each branch: not one instruction's to give away
    *result = r;
    return true;
  }

  // A branch's value into the result register r: the branch's last instruction writes r itself
  // when it is the one that computed `value` inside the branch, else a kMove.
  void MoveInto(uint32_t r, uint32_t value) {
    if (value != r && !TakeLastWrite(value, r)) Add({FlatOp::kMove, 0, r, value, 0});
  }
  // Whether the last instruction wrote register `value` and now writes `r` instead. Only a
  // register the construct made (allocated after r: not its input, which other instructions read,
  // as in `(.a + 1) | ((. // 0) + .)`), written by an instruction that writes its own register
  // once (a read, a test, a build; not a move, a memo load or store, `and` / `or`'s two writes,
  // nor a nested `if`'s result), so nothing else reads or writes `value`.
  bool TakeLastWrite(uint32_t value, uint32_t r) {
    if (value <= r || out_->code.empty()) return false;
    FlatInstr& last = out_->code.back();
    if (last.r != value || !WritesOneRegister(last.op)) return false;
    if (std::find(joined_.begin(), joined_.end(), value) != joined_.end()) return false;
    last.r = r;
    for (uint32_t& built : out_->built_registers) {
      if (built == value) built = r;
    }
    return true;
  }
  static bool WritesOneRegister(FlatOp op) {
    switch (op) {
      case FlatOp::kConst:
      case FlatOp::kPath:
      case FlatOp::kPathOrConst:
      case FlatOp::kPathBelow:
      case FlatOp::kCompare:
      case FlatOp::kCompareConst:
      case FlatOp::kArith:
      case FlatOp::kNot:
      case FlatOp::kField:
      case FlatOp::kFieldCompare:
      case FlatOp::kSumIsEmpty:
      case FlatOp::kToNumber:
      case FlatOp::kLength:
      case FlatOp::kFirstWhere:
      case FlatOp::kTree:
      case FlatOp::kObject: return true;
      default: return false;
    }
  }

  // kTree's cmp: the node's memo slot is the tree evaluator's (else the code's, or none).
  static constexpr uint8_t kThroughMemo = 1;

  bool Tree(uint32_t id, uint32_t in, uint32_t* result, uint8_t memo = 0) {
    *result = NewRegister();
    out_->built_registers.push_back(*result);
    Add({FlatOp::kTree, memo, *result, id, in});
    ++out_->tree_nodes;
    return true;
  }

  // Whether trie node `id` is read from the root (not per element of an iteration).
  bool Absolute(uint32_t id) const { return id < trie_.nodes.size() && trie_.nodes[id].owner == 0; }
  // Whether the code reads trie node `id`: absolute (kPath), or below the iteration the code runs
  // on, at its current element (kPathBelow).
  bool Readable(uint32_t id) const {
    if (id >= trie_.nodes.size()) return false;
    const uint32_t owner = trie_.nodes[id].owner;
    return owner == 0 || (iteration_ != 0 && owner == iteration_ && id != iteration_);
  }

  uint32_t NewRegister() { return out_->registers++; }
  size_t Add(FlatInstr instr) {
    out_->code.push_back(instr);
    return out_->code.size() - 1;
  }
  // Points jump (or memo load) `at` to the next instruction.
  void Patch(size_t at) { out_->code[at].b = static_cast<uint32_t>(out_->code.size()); }

  struct Block {
    size_t instr;        // the kAnyAll instruction
    uint32_t condition;  // the node run on each element
    uint32_t element;    // its input register
  };

  const ViewProgram& p_;
  const PathTrie& trie_;
  const std::vector<uint32_t>& memo_iterations_;
  const uint32_t iteration_;
  FlatCode* out_;
  std::vector<Block> blocks_;
  size_t blocks_done_ = 0;  // the blocks CompileBlocks has compiled (it may be called again)
  // The result registers of `if` and `//`, which both branches write (TakeLastWrite leaves them).
  std::vector<uint32_t> joined_;
};

// Code for single node `root`, run on each element of trie iteration `iteration` when it is not 0.
// Null when a node cannot be compiled, or when the code would be one kTree of the root and the
// tree's own run does the same (`one_tree_gains` false). `bind`, when not null, is a kBind
// whose body the code is: its source's code follows (FlatCode::bind_entry).
std::unique_ptr<FlatCode> FlattenFrom(const ViewProgram& program, const PathTrie& trie,
                                      const std::vector<uint32_t>& memo_iterations, uint32_t root,
                                      uint32_t iteration, bool one_tree_gains, const VNode* bind = nullptr) {
  if (!program.nodes[root].single) return nullptr;
  auto code = std::make_unique<FlatCode>();
  Flattener flattener(program, trie, memo_iterations, iteration, code.get());
  uint32_t value;
  if (!flattener.Compile(root, 0, &value)) return nullptr;
  if (!one_tree_gains && bind == nullptr && code->code.size() == 1 && code->code[0].op == FlatOp::kTree) {
    return nullptr;
  }
  code->code.push_back({FlatOp::kReturn, 0, 0, value, 0});
  if (!flattener.CompileBlocks()) return nullptr;
  if (bind != nullptr) {
    code->bind_slot = bind->a;
    code->bind_entry = static_cast<uint32_t>(code->code.size());
    uint32_t bound;
    if (!flattener.Compile(bind->kids[0], 0, &bound)) return nullptr;
    code->code.push_back({FlatOp::kReturn, 0, 0, bound, 0});
    if (!flattener.CompileBlocks()) return nullptr;
  }
  return code;
}

// `try B` or `P | try B` (no handler, P and B single): P's code, then B's on P's value, which
// errors from FlatCode::catch_from on are caught. Null for any other root.
std::unique_ptr<FlatCode> FlattenTry(const ViewProgram& program, const PathTrie& trie,
                                     const std::vector<uint32_t>& memo_iterations) {
  const VNode& root = program.nodes[program.root];
  const bool piped = root.op == VOp::kPipe;
  const uint32_t head = piped ? root.kids[0] : 0;
  const VNode& attempt = program.nodes[piped ? root.kids[1] : program.root];
  if (attempt.op != VOp::kTry || attempt.kids.size() != 1 || attempt.memo != 0) return nullptr;
  if ((piped && !program.nodes[head].single) || !program.nodes[attempt.kids[0]].single) return nullptr;
  auto code = std::make_unique<FlatCode>();
  Flattener flattener(program, trie, memo_iterations, 0, code.get());
  uint32_t input = 0;
  if (piped && !flattener.Compile(head, 0, &input)) return nullptr;
  code->catch_from = static_cast<uint32_t>(code->code.size());
  uint32_t value;
  if (!flattener.Compile(attempt.kids[0], input, &value)) return nullptr;
  code->code.push_back({FlatOp::kReturn, 0, 0, value, 0});
  if (!flattener.CompileBlocks()) return nullptr;
  return code;
}

// Flatten's code, before FlatCode::straight_steps and builds_objects are read off it.
std::unique_ptr<FlatCode> FlattenCode(const ViewProgram& program, const PathTrie& trie,
                                      const std::vector<uint32_t>& memo_iterations) {
  if (program.nodes.empty()) return nullptr;
  if (program.nodes[program.root].single) {
    return FlattenFrom(program, trie, memo_iterations, program.root, 0, false);
  }
  if (auto code = FlattenTry(program, trie, memo_iterations)) return code;
  // `E as $x | body` with E single (one value, or an error before body runs): E's code sets the
  // variable, then body's (a single body, or `.a[] | f`), whose reads of $x are the tree's. An
  // inner binding of the same variable is never single: it runs in a kTree, whose evaluation
  // restores the variable after it, as the tree's own run does.
  const VNode* bind = nullptr;
  uint32_t body = program.root;
  if (const VNode& top = program.nodes[program.root];
      top.op == VOp::kBind && top.memo == 0 && program.nodes[top.kids[0]].single) {
    bind = &top;
    body = top.kids[1];
    if (program.nodes[body].single) return FlattenFrom(program, trie, memo_iterations, body, 0, true, bind);
  }
  // `.a[] | f` with f single: f's code on each element. Even when f is one kTree, the loop saves
  // the tree's generator frames (the pipe's and the iteration's continuations) per element.
  const VNode& pipe = program.nodes[body];
  if (pipe.op != VOp::kPipe) return nullptr;
  const VNode& each = program.nodes[pipe.kids[0]];
  if (each.op != VOp::kIterEach || each.memo != 0) return nullptr;
  auto code = FlattenFrom(program, trie, memo_iterations, pipe.kids[1], each.a, true, bind);
  if (code == nullptr) return nullptr;
  code->each_iteration = each.a;
  code->each_optional = each.c != 0;
  return code;
}

}  // namespace

std::unique_ptr<FlatCode> Flatten(const ViewProgram& program, const PathTrie& trie,
                                  const std::vector<uint32_t>& memo_iterations) {
  std::unique_ptr<FlatCode> code = FlattenCode(program, trie, memo_iterations);
  if (code == nullptr) return nullptr;
  code->straight_steps = code->code.size();
  for (const FlatInstr& in : code->code) {
    if (in.op != FlatOp::kObject) continue;
    code->straight_steps += 1 + uint64_t{in.n};
    code->builds_objects = true;
  }
  return code;
}

}  // namespace wm::view
