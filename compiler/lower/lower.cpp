// Lowering: jq AST -> resolver IR (see lower.h). Resolves variables to frame slots, calls to user
// `def`s, closure parameters, prelude functions (jq source, compiled in on first use) or native
// builtins, and expands sugar (`.a`, `?`, assignment operators, `$__loc__`, formats). Unknown
// names become located diagnostics (WM110 function, WM111 variable, WM112 label).
//
// IR conventions this produces (the interpreter and native backends rely on them):
// - Var, Break and CallParam immediates are ir::ScopedIndex(levels, index): walk `levels`
//   lexical parents up from the current frame, then take slot / closure parameter `index`.
// - Function::parent is the lexically enclosing function (-1 for prelude functions, which see no
//   user variables; user `def`s at top level have parent 0, the main program).
// - A value parameter `$p` is closure parameter i plus an explicit Bind of CallParam(i) to its
//   slot at the top of the callee body, as jq defines it (`def f($a): b` = `def f(a): a as $a | b`);
//   Function::value_param_slots is left empty.
// - Label slots hold a per-activation label id (a number) written by Op::Label.
#include "compiler/lower/lower.h"

#include <map>
#include <string>
#include <vector>

#include "compiler/lower/internal/prelude.h"
#include "runtime/value/json.h"

namespace wm::lower {
namespace {

using ir::NodeId;
using ir::Op;
using jq::NodeKind;

// Slots and closure parameters must fit the index part of a scoped immediate (ir::ScopedIndex).
constexpr uint32_t kMaxSlots = ir::kMaxScopedIndex;
constexpr int kMaxLowerDepth = 6000;  // AST nesting; the parser caps it at 4096 already

struct FnCtx {
  int32_t index;
  FnCtx* parent;
  uint32_t next_slot = 0;
};

struct VarBinding {
  std::string name;
  FnCtx* fn;
  uint32_t slot;
};

struct FuncBinding {
  std::string name;
  size_t arity;
  bool is_param;
  int32_t function;  // !is_param
  FnCtx* owner;      // is_param: the function whose parameter it is
  uint32_t param_index;
};

// One lexical environment: the user program's or the prelude's.
struct Scope {
  bool prelude = false;
  std::vector<VarBinding> vars;
  std::vector<FuncBinding> funcs;
  std::vector<VarBinding> labels;
};

// Restores a scope's binding stacks when a construct's body has been lowered.
class ScopeMark {
 public:
  explicit ScopeMark(Scope& s) : s_(s), vars_(s.vars.size()), funcs_(s.funcs.size()), labels_(s.labels.size()) {}
  ~ScopeMark() {
    s_.vars.resize(vars_);
    s_.funcs.resize(funcs_);
    s_.labels.resize(labels_);
  }

 private:
  Scope& s_;
  size_t vars_, funcs_, labels_;
};

const char* const kFormats[] = {"text", "json", "html", "uri", "csv", "tsv", "sh",
                                "base64", "base64d", "base32", "base32d"};

class Lowerer {
 public:
  Lowerer(std::string_view source, const LowerOptions& options, ir::Program* program,
          std::vector<Diagnostic>* diagnostics)
      : source_(source), options_(options), program_(*program), diagnostics_(*diagnostics) {}

  bool LowerProgram(const jq::Node& ast) {
    const internal::Prelude& prelude = internal::GetPrelude();
    if (!prelude.error.empty()) {
      Report("WM110", ast.range.begin, 1, "internal error: " + prelude.error);
      return false;
    }
    program_.functions.push_back(ir::Function{"main", 0, {}, 0, ir::kNoNode, -1});
    FnCtx main{0, nullptr};
    Scope scope;
    for (const std::string& name : options_.global_vars) {
      scope.vars.push_back({name, &main, NewSlot(&main)});
    }
    const jq::Node* body = &ast;
    if (ast.kind == NodeKind::Program) {
      for (const auto& kid : ast.kids) {
        if (kid && (kid->kind == NodeKind::Import || kid->kind == NodeKind::Module)) {
          Report("WM113", kid->token.begin, kid->token.end - kid->token.begin,
                 "jq: error: modules (import/include/module) are not supported");
        }
      }
      body = ast.kids.empty() ? nullptr : ast.kids.back().get();
      if (body && (body->kind == NodeKind::Import || body->kind == NodeKind::Module)) body = nullptr;
    }
    NodeId root = body ? Lower(body, scope, &main, 0) : Add(Op::Identity, 0, {}, nullptr);
    program_.functions[0].body = root;
    program_.functions[0].num_slots = main.next_slot;
    return errors_ == 0;
  }

 private:
  // ---- diagnostics

  void Report(const char* rule, uint32_t offset, uint32_t length, std::string message,
              std::string note = "") {
    Diagnostic d = MakeDiagnostic(rule, options_.source_map.Map(offset), std::move(message))
                       .Length(length);
    if (!note.empty()) d.notes.push_back(std::move(note));
    diagnostics_.push_back(std::move(d));
    ++errors_;
  }

  // ---- IR construction

  NodeId Add(Op op, uint32_t a, std::vector<NodeId> kids, const jq::Node* src) {
    ir::Node n;
    n.op = op;
    n.a = a;
    n.kids = std::move(kids);
    if (src != nullptr && !in_prelude_) {
      n.source_begin = src->range.begin;
      n.source_end = src->range.end;
    }
    program_.nodes.push_back(std::move(n));
    return static_cast<NodeId>(program_.nodes.size() - 1);
  }

  uint32_t Const(const Value& v) {
    std::string key = ToJson(v);
    auto it = const_index_.find(key);
    if (it != const_index_.end()) return it->second;
    program_.consts.push_back(v);
    uint32_t index = static_cast<uint32_t>(program_.consts.size() - 1);
    const_index_.emplace(std::move(key), index);
    return index;
  }
  NodeId AddConst(const Value& v, const jq::Node* src) { return Add(Op::Const, Const(v), {}, src); }

  uint32_t NewSlot(FnCtx* fn) {
    if (fn->next_slot >= kMaxSlots) {
      if (!slot_overflow_reported_) Report("WM114", 0, 1, "jq: error: too many variables in one function");
      slot_overflow_reported_ = true;
      return 0;
    }
    return fn->next_slot++;
  }

  // Number of lexical levels from `from` up to `to`; -1 if `to` is not an ancestor.
  static int Levels(FnCtx* from, FnCtx* to) {
    int levels = 0;
    for (FnCtx* f = from; f != nullptr; f = f->parent, ++levels) {
      if (f == to) return levels;
    }
    return -1;
  }

  // ---- the walk

  NodeId Lower(const jq::Node* n, Scope& s, FnCtx* fn, int depth) {
    if (depth > kMaxLowerDepth) {
      if (!depth_reported_) Report("WM114", n->range.begin, 1, "jq: error: expression nested too deeply");
      depth_reported_ = true;
      return Add(Op::Empty, 0, {}, n);
    }
    const int d = depth + 1;
    auto kid = [&](size_t i) -> NodeId {
      const jq::Node* k = n->kid(i);
      return k ? Lower(k, s, fn, d) : Add(Op::Identity, 0, {}, n);
    };
    switch (n->kind) {
      case NodeKind::Identity: return Add(Op::Identity, 0, {}, n);
      case NodeKind::RecurseDefault: return Add(Op::RecurseAll, 0, {}, n);
      case NodeKind::Field: {
        NodeId target = kid(0);
        return Add(Op::Index, 0, {target, AddConst(Value::String(n->text), n)}, n);
      }
      case NodeKind::Index: {
        NodeId target = kid(0);
        NodeId key = Lower(n->kid(1), s, fn, d);
        return Add(Op::Index, 0, {target, key}, n);
      }
      case NodeKind::Slice: {
        NodeId target = kid(0);
        NodeId from = n->kid(1) ? Lower(n->kid(1), s, fn, d) : ir::kNoNode;
        NodeId to = n->kid(2) ? Lower(n->kid(2), s, fn, d) : ir::kNoNode;
        return Add(Op::Slice, 0, {target, from, to}, n);
      }
      case NodeKind::Iterate: return Add(Op::Iterate, 0, {kid(0)}, n);
      case NodeKind::Optional: return LowerOptional(n, s, fn, d);
      case NodeKind::Number: return AddConst(Value::Number(n->number), n);
      case NodeKind::String: return LowerString(n, s, fn, d);
      case NodeKind::Format: {
        NodeId id = Add(Op::Format, 0, {}, n);
        program_.nodes[id].str = n->text;
        return id;
      }
      case NodeKind::Null: return AddConst(Value::Null(), n);
      case NodeKind::True: return AddConst(Value::Bool(true), n);
      case NodeKind::False: return AddConst(Value::Bool(false), n);
      case NodeKind::Array:
        return Add(Op::Collect, 0, {n->kid(0) ? Lower(n->kid(0), s, fn, d) : Add(Op::Empty, 0, {}, n)}, n);
      case NodeKind::Object: return LowerObject(n, s, fn, d);
      case NodeKind::Paren: return kid(0);
      case NodeKind::Variable: return LowerVariable(n, s, fn);
      case NodeKind::Call: return LowerCall(n, s, fn, d);
      case NodeKind::Pipe: return Add(Op::Pipe, 0, {kid(0), kid(1)}, n);
      case NodeKind::Comma: return Add(Op::Comma, 0, {kid(0), kid(1)}, n);
      case NodeKind::Alternative: return Add(Op::Alternative, 0, {kid(0), kid(1)}, n);
      case NodeKind::Or: return Add(Op::Or, 0, {kid(0), kid(1)}, n);
      case NodeKind::And: return Add(Op::And, 0, {kid(0), kid(1)}, n);
      case NodeKind::Compare:
      case NodeKind::Arith: {
        NodeId a = kid(0), b = kid(1);
        return Add(Op::Binary, static_cast<uint32_t>(BinaryOpOf(n->text)), {a, b}, n);
      }
      case NodeKind::Neg: return Add(Op::Neg, 0, {kid(0)}, n);
      case NodeKind::Assign: return LowerAssign(n, s, fn, d);
      case NodeKind::If: return LowerIf(n, 0, s, fn, d);
      case NodeKind::TryCatch: {
        NodeId body = kid(0);
        NodeId handler = n->kid(1) ? Lower(n->kid(1), s, fn, d) : ir::kNoNode;
        return Add(Op::Try, 0, {body, handler}, n);
      }
      case NodeKind::Reduce:
      case NodeKind::Foreach: return LowerFold(n, s, fn, d);
      case NodeKind::Bind: return LowerBind(n, s, fn, d);
      case NodeKind::Label: {
        ScopeMark mark(s);
        uint32_t slot = NewSlot(fn);
        s.labels.push_back({n->text, fn, slot});
        NodeId body = kid(0);
        return Add(Op::Label, slot, {body}, n);
      }
      case NodeKind::Break: {
        for (size_t i = s.labels.size(); i-- > 0;) {
          if (s.labels[i].name == n->text) {
            int levels = Levels(fn, s.labels[i].fn);
            return Add(Op::Break, ir::ScopedIndex(levels < 0 ? 0 : levels, s.labels[i].slot), {}, n);
          }
        }
        Report("WM112", n->token.begin, n->token.end - n->token.begin,
               "jq: error: $*label-" + n->text + " is not defined");
        return Add(Op::Empty, 0, {}, n);
      }
      case NodeKind::FuncDef: return LowerFuncDef(n, s, fn, d);
      case NodeKind::Program: {
        Report("WM113", n->token.begin, 1, "jq: error: modules (import/include/module) are not supported");
        return Add(Op::Empty, 0, {}, n);
      }
      case NodeKind::Import:
      case NodeKind::Module:
        Report("WM113", n->token.begin, n->token.end - n->token.begin,
               "jq: error: modules (import/include/module) are not supported");
        return Add(Op::Empty, 0, {}, n);
      default:
        Report("WM110", n->range.begin, 1, std::string("jq: error: unexpected syntax node ") + jq::KindName(n->kind));
        return Add(Op::Empty, 0, {}, n);
    }
  }

  // jq's postfix `?` on `T.name`, `T[K]`, `T[F:L]` and `T[]` guards only that final index,
  // slice or iterate (jq's INDEX_OPT / EACH_OPT): errors raised while evaluating T, K, F or L
  // still propagate. Any other term (`(E)?`, `f?`) is `try E`. The operands are therefore
  // evaluated outside the Try (keys first, as the outer loops, like Op::Index/Op::Slice do) and
  // the guarded operation sees them as constants or hidden variables, with `.` as its target.
  NodeId LowerOptional(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    const jq::Node* term = n->kid(0);
    // `.?` comes with no term (null = `.`): it guards `.`, which cannot fail.
    if (term == nullptr) return Add(Op::Try, 0, {Add(Op::Identity, 0, {}, n), ir::kNoNode}, n);
    const NodeKind kind = term->kind;
    if (kind != NodeKind::Field && kind != NodeKind::Index && kind != NodeKind::Slice &&
        kind != NodeKind::Iterate) {
      return Add(Op::Try, 0, {Lower(term, s, fn, d), ir::kNoNode}, n);
    }
    // Operands in evaluation order (outermost loop first); kNoNode for a missing slice bound.
    std::vector<NodeId> operands;
    if (kind == NodeKind::Field) {
      operands.push_back(AddConst(Value::String(term->text), term));
    } else if (kind == NodeKind::Index) {
      operands.push_back(Lower(term->kid(1), s, fn, d));
    } else if (kind == NodeKind::Slice) {
      for (size_t i = 1; i <= 2; ++i) operands.push_back(term->kid(i) ? Lower(term->kid(i), s, fn, d) : ir::kNoNode);
    }
    // An operand whose value cannot depend on the input is used in place; any other one is bound
    // to a fresh slot first, so that it is evaluated once per output against the original input.
    struct Binding {
      NodeId source;
      uint32_t pattern;
    };
    std::vector<Binding> bindings;
    std::vector<NodeId> refs;
    for (NodeId operand : operands) {
      const Op op = operand == ir::kNoNode ? Op::Const : program_.nodes[operand].op;
      if (operand == ir::kNoNode || op == Op::Const || op == Op::Var || op == Op::Loc) {
        refs.push_back(operand);
        continue;
      }
      ir::Pattern pat;
      pat.kind = ir::Pattern::Kind::Var;
      pat.slot = NewSlot(fn);
      program_.patterns.push_back(pat);
      bindings.push_back({operand, static_cast<uint32_t>(program_.patterns.size() - 1)});
      refs.push_back(Add(Op::Var, ir::ScopedIndex(0, pat.slot), {}, term));
    }
    NodeId here = Add(Op::Identity, 0, {}, term);
    NodeId guarded_op;
    if (kind == NodeKind::Iterate) {
      guarded_op = Add(Op::Iterate, 0, {here}, term);
    } else if (kind == NodeKind::Slice) {
      guarded_op = Add(Op::Slice, 0, {here, refs[0], refs[1]}, term);
    } else {
      guarded_op = Add(Op::Index, 0, {here, refs[0]}, term);
    }
    NodeId result = Add(Op::Try, 0, {guarded_op, ir::kNoNode}, n);
    if (term->kid(0) != nullptr) result = Add(Op::Pipe, 0, {Lower(term->kid(0), s, fn, d), result}, n);
    for (size_t i = bindings.size(); i-- > 0;) {
      NodeId bind = Add(Op::Bind, 0, {bindings[i].source, result}, n);
      program_.nodes[bind].patterns = {bindings[i].pattern};
      result = bind;
    }
    return result;
  }

  static ir::BinaryOp BinaryOpOf(const std::string& op) {
    if (op == "+") return ir::BinaryOp::Add;
    if (op == "-") return ir::BinaryOp::Sub;
    if (op == "*") return ir::BinaryOp::Mul;
    if (op == "/") return ir::BinaryOp::Div;
    if (op == "%") return ir::BinaryOp::Mod;
    if (op == "==") return ir::BinaryOp::Eq;
    if (op == "!=") return ir::BinaryOp::Ne;
    if (op == "<") return ir::BinaryOp::Lt;
    if (op == "<=") return ir::BinaryOp::Le;
    if (op == ">") return ir::BinaryOp::Gt;
    return ir::BinaryOp::Ge;
  }

  NodeId LowerString(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    if (n->kids.empty()) return AddConst(Value::String(n->text), n);
    std::vector<NodeId> parts;
    for (const auto& part : n->kids) {
      if (part && part->kind == NodeKind::String && part->kids.empty()) {
        parts.push_back(AddConst(Value::String(part->text), part.get()));
      } else if (part) {
        NodeId piece = Lower(part.get(), s, fn, d);
        // A Const string part means literal text in Op::StringInterp; an interpolated constant
        // (`\("x")`) must still go through the format, so it is wrapped as `. | "x"`.
        if (program_.nodes[piece].op == Op::Const) piece = Add(Op::Pipe, 0, {Add(Op::Identity, 0, {}, part.get()), piece}, part.get());
        parts.push_back(piece);
      }
    }
    NodeId id = Add(Op::StringInterp, 0, std::move(parts), n);
    std::string format = n->format;
    if (!format.empty() && format[0] == '@') format.erase(0, 1);
    program_.nodes[id].str = format.empty() ? "text" : format;
    return id;
  }

  NodeId LowerObject(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    std::vector<NodeId> kids;
    for (const auto& entry : n->kids) {
      const jq::Node* key = entry->kid(0);
      const jq::Node* value = entry->kid(1);
      NodeId key_id, value_id;
      if (key->kind == NodeKind::Variable) {
        // {$x} is {x: $x}; {$__loc__} is {"__loc__": $__loc__}; jq 1.7's {$x: v} takes the
        // key from the variable's value.
        if (value) {
          key_id = LowerVariable(key, s, fn);
          value_id = Lower(value, s, fn, d);
        } else {
          key_id = AddConst(Value::String(key->text), key);
          value_id = LowerVariable(key, s, fn);
        }
      } else {
        key_id = Lower(key, s, fn, d);
        if (value) {
          value_id = Lower(value, s, fn, d);
        } else {
          // {a} / {"a"} / {"\(x)"}: the value is .[key]
          NodeId key_again = Lower(key, s, fn, d);
          value_id = Add(Op::Index, 0, {Add(Op::Identity, 0, {}, key), key_again}, key);
        }
      }
      kids.push_back(key_id);
      kids.push_back(value_id);
    }
    return Add(Op::Object, 0, std::move(kids), n);
  }

  NodeId LowerVariable(const jq::Node* n, Scope& s, FnCtx* fn) {
    for (size_t i = s.vars.size(); i-- > 0;) {
      if (s.vars[i].name != n->text) continue;
      int levels = Levels(fn, s.vars[i].fn);
      if (levels < 0) break;
      return Add(Op::Var, ir::ScopedIndex(levels, s.vars[i].slot), {}, n);
    }
    if (n->text == "__loc__") {
      uint32_t line = 1;
      for (uint32_t i = 0; i < n->range.begin && i < source_.size(); ++i) line += source_[i] == '\n';
      Value loc = Value::MakeObject({{Value::String("file"), Value::String("<top-level>")},
                                     {Value::String("line"), Value::Number(line)}});
      return Add(Op::Loc, Const(loc), {}, n);
    }
    if (n->text == "ENV") return Add(Op::CallBuiltin, uint32_t(ir::BuiltinId::Env), {}, n);
    // The 1.7 manual leaves its format to the build; wmc has one configuration.
    if (n->text == "JQ_BUILD_CONFIGURATION") return AddConst(Value::String("wmc"), n);
    Report("WM111", n->token.begin, n->token.end - n->token.begin, "jq: error: $" + n->text + " is not defined");
    return Add(Op::Empty, 0, {}, n);
  }

  NodeId LowerIf(const jq::Node* n, size_t at, Scope& s, FnCtx* fn, int d) {
    // kids: cond, then, [elif-cond, elif-then]..., else|null
    size_t count = n->kids.size();
    NodeId cond = Lower(n->kid(at), s, fn, d);
    NodeId then = Lower(n->kid(at + 1), s, fn, d);
    NodeId otherwise;
    if (at + 3 < count) {
      otherwise = LowerIf(n, at + 2, s, fn, d + 1);
    } else {
      const jq::Node* e = at + 2 < count ? n->kid(at + 2) : nullptr;
      otherwise = e ? Lower(e, s, fn, d) : Add(Op::Identity, 0, {}, n);
    }
    return Add(Op::If, 0, {cond, then, otherwise}, n);
  }

  // ---- patterns

  void CollectPatternNames(const jq::Node* p, std::vector<std::string>* names, int depth) {
    if (p == nullptr || depth > kMaxLowerDepth) return;
    auto add = [&](const std::string& name) {
      for (const auto& existing : *names) {
        if (existing == name) return;
      }
      names->push_back(name);
    };
    switch (p->kind) {
      case NodeKind::PatternVar: add(p->text); break;
      case NodeKind::PatternArray:
        for (const auto& k : p->kids) CollectPatternNames(k.get(), names, depth + 1);
        break;
      case NodeKind::PatternObject:
        for (const auto& entry : p->kids) {
          const jq::Node* key = entry->kid(0);
          if (key && key->kind == NodeKind::Variable) add(key->text);
          CollectPatternNames(entry->kid(1), names, depth + 1);
        }
        break;
      default: break;
    }
  }

  uint32_t SlotOf(const std::map<std::string, uint32_t>& slots, const std::string& name) {
    auto it = slots.find(name);
    return it == slots.end() ? 0 : it->second;
  }

  // Key expressions of object patterns see the variables bound by the enclosing scope (and, as
  // in jq, those of the pattern itself, already pushed by the caller).
  uint32_t LowerPattern(const jq::Node* p, const std::map<std::string, uint32_t>& slots, Scope& s,
                        FnCtx* fn, int d) {
    ir::Pattern pat;
    switch (p->kind) {
      case NodeKind::PatternVar:
        pat.kind = ir::Pattern::Kind::Var;
        pat.slot = SlotOf(slots, p->text);
        break;
      case NodeKind::PatternArray:
        pat.kind = ir::Pattern::Kind::Array;
        for (const auto& k : p->kids) pat.elements.push_back(LowerPattern(k.get(), slots, s, fn, d + 1));
        break;
      case NodeKind::PatternObject:
        pat.kind = ir::Pattern::Kind::Object;
        for (const auto& entry : p->kids) {
          const jq::Node* key = entry->kid(0);
          const jq::Node* sub = entry->kid(1);
          ir::Pattern::Entry e;
          if (key->kind == NodeKind::Variable) {
            e.key = AddConst(Value::String(key->text), key);
            e.bind_slot = static_cast<int32_t>(SlotOf(slots, key->text));
          } else {
            e.key = Lower(key, s, fn, d + 1);
          }
          if (sub) e.value_pattern = static_cast<int32_t>(LowerPattern(sub, slots, s, fn, d + 1));
          pat.entries.push_back(e);
        }
        break;
      default:
        Report("WM110", p->range.begin, 1, "jq: error: invalid pattern");
        break;
    }
    program_.patterns.push_back(std::move(pat));
    return static_cast<uint32_t>(program_.patterns.size() - 1);
  }

  // Allocates one slot per variable name over all alternative patterns and pushes the bindings.
  std::vector<uint32_t> BindPatterns(const std::vector<const jq::Node*>& patterns, Scope& s, FnCtx* fn, int d) {
    std::vector<std::string> names;
    for (const jq::Node* p : patterns) CollectPatternNames(p, &names, 0);
    std::map<std::string, uint32_t> slots;
    for (const std::string& name : names) slots[name] = NewSlot(fn);
    for (const std::string& name : names) s.vars.push_back({name, fn, slots[name]});
    std::vector<uint32_t> lowered;
    for (const jq::Node* p : patterns) lowered.push_back(LowerPattern(p, slots, s, fn, d));
    return lowered;
  }

  NodeId LowerBind(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    // kids: source, pattern, [alternative patterns...], body
    NodeId source = Lower(n->kid(0), s, fn, d);
    std::vector<const jq::Node*> patterns;
    for (size_t i = 1; i + 1 < n->kids.size(); ++i) patterns.push_back(n->kid(i));
    ScopeMark mark(s);
    std::vector<uint32_t> lowered = BindPatterns(patterns, s, fn, d);
    NodeId body = Lower(n->kids.back().get(), s, fn, d);
    NodeId id = Add(Op::Bind, 0, {source, body}, n);
    program_.nodes[id].patterns = std::move(lowered);
    return id;
  }

  NodeId LowerFold(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    // Reduce: source, pattern, init, update, [alternatives...]
    // Foreach: source, pattern, init, update, extract|null, [alternatives...]
    const bool is_reduce = n->kind == NodeKind::Reduce;
    NodeId source = Lower(n->kid(0), s, fn, d);
    NodeId init = Lower(n->kid(2), s, fn, d);
    std::vector<const jq::Node*> patterns{n->kid(1)};
    for (size_t i = is_reduce ? 4 : 5; i < n->kids.size(); ++i) patterns.push_back(n->kid(i));
    ScopeMark mark(s);
    std::vector<uint32_t> lowered = BindPatterns(patterns, s, fn, d);
    NodeId update = Lower(n->kid(3), s, fn, d);
    std::vector<NodeId> kids{source, init, update};
    if (!is_reduce) kids.push_back(n->kid(4) ? Lower(n->kid(4), s, fn, d) : ir::kNoNode);
    NodeId id = Add(is_reduce ? Op::Reduce : Op::Foreach, 0, std::move(kids), n);
    program_.nodes[id].patterns = std::move(lowered);
    return id;
  }

  // ---- functions

  NodeId LowerFuncDef(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    ScopeMark mark(s);
    int32_t index = DefineFunction(n, s, fn, d);
    (void)index;
    const jq::Node* rest = n->kid(1);
    return rest ? Lower(rest, s, fn, d) : Add(Op::Identity, 0, {}, n);
  }

  // Lowers `def name(params): body;` as a new function whose lexical parent is `fn` (null for
  // prelude top-level definitions), and leaves its binding pushed on `s` for the rest.
  int32_t DefineFunction(const jq::Node* def, Scope& s, FnCtx* fn, int d, int32_t reserved = -1) {
    int32_t index = reserved;
    if (index < 0) {
      program_.functions.push_back(ir::Function{});
      index = static_cast<int32_t>(program_.functions.size() - 1);
    }
    {
      ir::Function& f = program_.functions[index];
      f.name = def->text + "/" + std::to_string(def->params.size());
      f.num_closure_params = static_cast<uint32_t>(def->params.size());
      f.parent = fn ? fn->index : -1;
    }
    s.funcs.push_back({def->text, def->params.size(), false, index, nullptr, 0});
    FnCtx ctx{index, fn};
    NodeId body;
    {
      ScopeMark mark(s);
      std::vector<std::pair<uint32_t, uint32_t>> value_params;  // (param index, slot)
      for (size_t i = 0; i < def->params.size(); ++i) {
        std::string name = def->params[i];
        bool is_value = !name.empty() && name[0] == '$';
        if (is_value) name.erase(0, 1);
        s.funcs.push_back({name, 0, true, -1, &ctx, static_cast<uint32_t>(i)});
        if (is_value) {
          uint32_t slot = NewSlot(&ctx);
          s.vars.push_back({name, &ctx, slot});
          value_params.emplace_back(static_cast<uint32_t>(i), slot);
        }
      }
      body = def->kid(0) ? Lower(def->kid(0), s, &ctx, d) : Add(Op::Identity, 0, {}, def);
      for (size_t i = value_params.size(); i-- > 0;) {
        ir::Pattern pat;
        pat.kind = ir::Pattern::Kind::Var;
        pat.slot = value_params[i].second;
        program_.patterns.push_back(pat);
        NodeId arg = Add(Op::CallParam, ir::ScopedIndex(0, value_params[i].first), {}, def);
        body = Add(Op::Bind, 0, {arg, body}, def);
        program_.nodes[body].patterns = {static_cast<uint32_t>(program_.patterns.size() - 1)};
      }
    }
    program_.functions[index].body = body;
    program_.functions[index].num_slots = ctx.next_slot;
    return index;
  }

  // Lowers a prelude function on first use; returns its index.
  int32_t PreludeFunction(const std::string& key, const jq::Node* def) {
    auto it = prelude_functions_.find(key);
    if (it != prelude_functions_.end()) return it->second;
    program_.functions.push_back(ir::Function{});
    int32_t index = static_cast<int32_t>(program_.functions.size() - 1);
    prelude_functions_[key] = index;
    Scope scope;
    scope.prelude = true;
    bool saved = in_prelude_;
    in_prelude_ = true;
    DefineFunction(def, scope, nullptr, 0, index);
    in_prelude_ = saved;
    return index;
  }

  NodeId LowerArgs(const jq::Node* n, Scope& s, FnCtx* fn, int d, std::vector<NodeId>* args) {
    for (const auto& a : n->kids) args->push_back(Lower(a.get(), s, fn, d));
    return 0;
  }

  NodeId LowerCall(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    const std::string& name = n->text;
    const size_t arity = n->kids.size();
    // 1. user definitions and closure parameters, innermost first
    for (size_t i = s.funcs.size(); i-- > 0;) {
      const FuncBinding& b = s.funcs[i];
      if (b.name != name || b.arity != arity) continue;
      if (b.is_param) {
        int levels = Levels(fn, b.owner);
        return Add(Op::CallParam, ir::ScopedIndex(levels < 0 ? 0 : levels, b.param_index), {}, n);
      }
      // Read before lowering the arguments: a definition inside one grows s.funcs, which may
      // move the vector that `b` points into.
      const auto function = static_cast<uint32_t>(b.function);
      std::vector<NodeId> args;
      LowerArgs(n, s, fn, d, &args);
      return Add(Op::Call, function, std::move(args), n);
    }
    // 2. forms with their own IR
    std::vector<NodeId> args;
    if (name == "empty" && arity == 0) return Add(Op::Empty, 0, {}, n);
    if (name == "error" && arity <= 1) {
      LowerArgs(n, s, fn, d, &args);
      if (args.empty()) args.push_back(ir::kNoNode);
      return Add(Op::Error, 0, std::move(args), n);
    }
    if (name == "path" && arity == 1) {
      LowerArgs(n, s, fn, d, &args);
      return Add(Op::PathOf, 0, std::move(args), n);
    }
    if (name == "getpath" && arity == 1) {
      LowerArgs(n, s, fn, d, &args);
      return Add(Op::GetPathGen, 0, std::move(args), n);
    }
    if (name == "range" && arity == 1) {
      LowerArgs(n, s, fn, d, &args);
      return Add(Op::CallBuiltin, uint32_t(ir::BuiltinId::Range), {AddConst(Value::Number(0), n), args[0]}, n);
    }
    if (name == "recurse" && arity == 0) return Add(Op::RecurseAll, 0, {}, n);
    if (name == "builtins" && arity == 0) return AddConst(BuiltinsList(), n);
    if (name == "input_line_number" || name == "input" || name == "inputs" || name == "debug" ||
        name == "stderr" || name == "input_filename" || name == "halt" || name == "halt_error" ||
        name == "get_search_list" || name == "get_prog_origin" || name == "get_jq_origin" ||
        name == "modulemeta" || name == "$__prog_args") {
      NotDefined(n, "I/O and module builtins are not available in workload map expressions");
      return Add(Op::Empty, 0, {}, n);
    }
    // 3. the prelude
    const internal::Prelude& prelude = internal::GetPrelude();
    std::string key = name + "/" + std::to_string(arity);
    auto def = prelude.definitions.find(key);
    if (def != prelude.definitions.end()) {
      LowerArgs(n, s, fn, d, &args);
      int32_t index = PreludeFunction(key, def->second);
      return Add(Op::Call, static_cast<uint32_t>(index), std::move(args), n);
    }
    // 4. native builtins
    if (const ir::BuiltinInfo* builtin = ir::FindBuiltin(name, arity)) {
      LowerArgs(n, s, fn, d, &args);
      return Add(Op::CallBuiltin, static_cast<uint32_t>(builtin->id), std::move(args), n);
    }
    NotDefined(n, "");
    return Add(Op::Empty, 0, {}, n);
  }

  void NotDefined(const jq::Node* n, const std::string& note) {
    uint32_t length = static_cast<uint32_t>(n->text.size());
    Report("WM110", n->token.begin, length ? length : n->token.end - n->token.begin,
           "jq: error: " + n->text + "/" + std::to_string(n->kids.size()) + " is not defined", note);
  }

  Value BuiltinsList() {
    std::vector<std::string> names = {"empty/0", "error/0", "error/1", "path/1", "getpath/1",
                                      "range/1", "recurse/0", "not/0", "builtins/0", "abs/0"};
    for (const auto& [key, def] : internal::GetPrelude().definitions) {
      if (key[0] != '_') names.push_back(key);
    }
    for (const ir::BuiltinInfo& b : ir::AllBuiltins()) {
      if (b.name[0] != '_') names.push_back(std::string(b.name) + "/" + std::to_string(b.arity));
    }
    Array list;
    for (const std::string& nm : names) {
      bool dup = false;
      for (const Value& v : list) dup = dup || v.AsString() == nm;
      if (!dup) list.push_back(Value::String(nm));
    }
    return Value::MakeArray(std::move(list));
  }

  // ---- assignment operators (jq 1.7 semantics)

  NodeId LowerAssign(const jq::Node* n, Scope& s, FnCtx* fn, int d) {
    const std::string& op = n->text;
    const internal::Prelude& prelude = internal::GetPrelude();
    NodeId lhs = Lower(n->kid(0), s, fn, d);
    if (op == "=") {
      NodeId rhs = Lower(n->kid(1), s, fn, d);
      int32_t assign = PreludeFunction("_assign/2", prelude.definitions.at("_assign/2"));
      return Add(Op::Call, static_cast<uint32_t>(assign), {lhs, rhs}, n);
    }
    int32_t modify = PreludeFunction("_modify/2", prelude.definitions.at("_modify/2"));
    if (op == "|=") {
      NodeId update = Lower(n->kid(1), s, fn, d);
      return Add(Op::Call, static_cast<uint32_t>(modify), {lhs, update}, n);
    }
    // `lhs op= rhs` is `rhs as $v | lhs |= . op $v`, and `lhs //= rhs` is
    // `rhs as $v | lhs |= . // $v`: the right side sees the original input.
    NodeId rhs = Lower(n->kid(1), s, fn, d);
    uint32_t slot = NewSlot(fn);
    ir::Pattern pat;
    pat.kind = ir::Pattern::Kind::Var;
    pat.slot = slot;
    program_.patterns.push_back(pat);
    uint32_t pattern_index = static_cast<uint32_t>(program_.patterns.size() - 1);
    NodeId self = Add(Op::Identity, 0, {}, n);
    NodeId value = Add(Op::Var, ir::ScopedIndex(0, slot), {}, n);
    NodeId update;
    if (op == "//=") {
      update = Add(Op::Alternative, 0, {self, value}, n);
    } else {
      std::string arith = op.substr(0, op.size() - 1);
      update = Add(Op::Binary, static_cast<uint32_t>(BinaryOpOf(arith)), {self, value}, n);
    }
    NodeId call = Add(Op::Call, static_cast<uint32_t>(modify), {lhs, update}, n);
    NodeId bind = Add(Op::Bind, 0, {rhs, call}, n);
    program_.nodes[bind].patterns = {pattern_index};
    return bind;
  }

  std::string_view source_;
  const LowerOptions& options_;
  ir::Program& program_;
  std::vector<Diagnostic>& diagnostics_;
  std::map<std::string, uint32_t> const_index_;
  std::map<std::string, int32_t> prelude_functions_;
  bool in_prelude_ = false;
  bool depth_reported_ = false;
  bool slot_overflow_reported_ = false;
  int errors_ = 0;
};

}  // namespace

LowerResult Lower(const jq::Node& ast, std::string_view source, const LowerOptions& options) {
  LowerResult result;
  auto program = std::make_shared<ir::Program>();
  program->source = std::string(source);
  Lowerer lowerer(source, options, program.get(), &result.diagnostics);
  if (lowerer.LowerProgram(ast)) result.program = std::move(program);
  return result;
}

}  // namespace wm::lower
