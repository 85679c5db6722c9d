// Name resolution (resolve.h): one walk over the AST with two binding stacks (functions by
// name/arity, variables by name), searched innermost first; each construct pushes its bindings
// for exactly the subtrees jq makes them visible in and pops them afterwards.
#include "compiler/jq/resolve.h"

#include <sstream>
#include <utility>
#include <vector>

#include "compiler/jq/parser.h"

namespace wm::jq {

const Binding* Resolution::Find(const Node& use) const {
  auto it = bindings_.find(&use);
  return it == bindings_.end() ? nullptr : &it->second;
}

void Resolution::Record(const Node& use, const Binding& binding) { bindings_[&use] = binding; }

namespace {

struct FunctionScopeEntry {
  std::string name;
  size_t arity;
  Binding binding;
};

struct VariableScopeEntry {
  std::string name;
  Binding binding;
};

class Resolver {
 public:
  Resolver(const ResolveOptions& options, Resolution* out) : options_(options), out_(*out) {}

  void Walk(const Node* n, int depth) {
    if (n == nullptr || depth > options_.max_depth) return;
    switch (n->kind) {
      case NodeKind::Call: return WalkCall(*n, depth);
      case NodeKind::Variable: return out_.Record(*n, LookupVariable(n->text));
      case NodeKind::FuncDef: return WalkFuncDef(*n, depth);
      case NodeKind::Bind: return WalkBind(*n, depth);
      case NodeKind::Reduce:
      case NodeKind::Foreach: return WalkFold(*n, depth);
      default:
        for (const auto& kid : n->kids) Walk(kid.get(), depth + 1);
        return;
    }
  }

 private:
  // Restores both stacks when a construct's bindings go out of scope.
  class ScopeMark {
   public:
    explicit ScopeMark(Resolver& r) : r_(r), functions_(r.functions_.size()), variables_(r.variables_.size()) {}
    ~ScopeMark() {
      r_.functions_.resize(functions_);
      r_.variables_.resize(variables_);
    }

   private:
    Resolver& r_;
    size_t functions_, variables_;
  };

  void WalkCall(const Node& call, int depth) {
    Binding binding;  // kBuiltin unless a def or parameter is in scope
    for (size_t i = functions_.size(); i-- > 0;) {
      if (functions_[i].name == call.text && functions_[i].arity == call.kids.size()) {
        binding = functions_[i].binding;
        break;
      }
    }
    out_.Record(call, binding);
    for (const auto& arg : call.kids) Walk(arg.get(), depth + 1);
  }

  Binding LookupVariable(const std::string& name) const {
    for (size_t i = variables_.size(); i-- > 0;) {
      if (variables_[i].name == name) return variables_[i].binding;
    }
    return Binding{BindingKind::kGlobal, nullptr, 0};
  }

  // `def f(params): body; rest`: f is visible in body and rest; parameters only in body.
  void WalkFuncDef(const Node& def, int depth) {
    ScopeMark def_scope(*this);
    functions_.push_back({def.text, def.params.size(), {BindingKind::kLocalDef, &def, 0}});
    {
      ScopeMark params_scope(*this);
      for (size_t i = 0; i < def.params.size(); ++i) {
        std::string name = def.params[i];
        bool is_value = !name.empty() && name[0] == '$';
        if (is_value) name.erase(0, 1);
        functions_.push_back({name, 0, {BindingKind::kParameter, &def, i}});
        if (is_value) variables_.push_back({name, {BindingKind::kValueParameter, &def, i}});
      }
      Walk(def.kid(0), depth + 1);
    }
    Walk(def.kid(1), depth + 1);
  }

  // kids: source, pattern, [alternative patterns...], body
  void WalkBind(const Node& bind, int depth) {
    Walk(bind.kid(0), depth + 1);
    if (bind.kids.size() < 2) return;
    ScopeMark scope(*this);
    std::vector<const Node*> patterns;
    for (size_t i = 1; i + 1 < bind.kids.size(); ++i) patterns.push_back(bind.kid(i));
    BindPatterns(bind, patterns, depth);
    Walk(bind.kids.back().get(), depth + 1);
  }

  // Reduce: source, pattern, init, update, [alternatives...]
  // Foreach: source, pattern, init, update, extract|null, [alternatives...]
  void WalkFold(const Node& fold, int depth) {
    const bool is_reduce = fold.kind == NodeKind::Reduce;
    Walk(fold.kid(0), depth + 1);
    Walk(fold.kid(2), depth + 1);  // init does not see the pattern's variables
    ScopeMark scope(*this);
    std::vector<const Node*> patterns{fold.kid(1)};
    for (size_t i = is_reduce ? 4 : 5; i < fold.kids.size(); ++i) patterns.push_back(fold.kid(i));
    BindPatterns(fold, patterns, depth);
    Walk(fold.kid(3), depth + 1);
    if (!is_reduce) Walk(fold.kid(4), depth + 1);
  }

  // Pushes every variable of every alternative pattern, then resolves the key expressions of
  // object patterns (which, as in jq, already see the pattern's own variables).
  void BindPatterns(const Node& binder, const std::vector<const Node*>& patterns, int depth) {
    std::vector<const Node*> key_expressions;
    for (const Node* p : patterns) CollectPattern(binder, p, &key_expressions, depth + 1);
    for (const Node* key : key_expressions) Walk(key, depth + 1);
  }

  void CollectPattern(const Node& binder, const Node* p, std::vector<const Node*>* key_expressions,
                      int depth) {
    if (p == nullptr || depth > options_.max_depth) return;
    auto bind = [&](const std::string& name) {
      variables_.push_back({name, {BindingKind::kVariable, &binder, 0}});
    };
    switch (p->kind) {
      case NodeKind::PatternVar: bind(p->text); return;
      case NodeKind::PatternArray:
        for (const auto& element : p->kids) CollectPattern(binder, element.get(), key_expressions, depth + 1);
        return;
      case NodeKind::PatternObject:
        for (const auto& entry : p->kids) {
          if (!entry) continue;
          const Node* key = entry->kid(0);
          if (key && key->kind == NodeKind::Variable) bind(key->text);  // `{$name}` binds $name
          else if (key) key_expressions->push_back(key);
          CollectPattern(binder, entry->kid(1), key_expressions, depth + 1);
        }
        return;
      default: return;
    }
  }

  const ResolveOptions& options_;
  Resolution& out_;
  std::vector<FunctionScopeEntry> functions_;
  std::vector<VariableScopeEntry> variables_;
};

// Where a binding construct is: a def by its name token (its range also spans the rest of the
// program after it), any other construct by its whole range.
std::string RangeText(const Node* n) {
  if (n == nullptr) return "";
  Range r = n->kind == NodeKind::FuncDef && n->token.end > n->token.begin ? n->token : n->range;
  return " [" + std::to_string(r.begin) + "," + std::to_string(r.end) + ")";
}

std::string Signature(const Node& def) {
  return def.text + "/" + std::to_string(def.params.size());
}

// The nodes in DumpAst's line order (pre-order, null kids as their own `<none>` line).
std::vector<const Node*> DumpOrder(const Node& ast) {
  std::vector<const Node*> order;
  std::vector<const Node*> pending{&ast};
  while (!pending.empty()) {
    const Node* n = pending.back();
    pending.pop_back();
    order.push_back(n);
    if (n == nullptr) continue;
    for (size_t i = n->kids.size(); i-- > 0;) pending.push_back(n->kids[i].get());
  }
  return order;
}

}  // namespace

Resolution Resolve(const Node& ast, const ResolveOptions& options) {
  Resolution resolution;
  Resolver(options, &resolution).Walk(&ast, 0);
  return resolution;
}

std::string DescribeBinding(const Node& use, const Binding& binding) {
  const Node* site = binding.site;
  switch (binding.kind) {
    case BindingKind::kLocalDef: return "def " + Signature(*site) + RangeText(site);
    case BindingKind::kParameter:
      return "param " + use.text + " of " + Signature(*site) + RangeText(site);
    case BindingKind::kBuiltin: return "builtin " + use.text + "/" + std::to_string(use.kids.size());
    case BindingKind::kVariable:
      return "var $" + use.text + " of " + KindName(site->kind) + RangeText(site);
    case BindingKind::kValueParameter:
      return "param $" + use.text + " of " + Signature(*site) + RangeText(site);
    case BindingKind::kGlobal: return "global $" + use.text;
  }
  return "?";
}

std::string Dump(const Node& ast, const Resolution& resolution) {
  std::vector<const Node*> order = DumpOrder(ast);
  std::istringstream lines(DumpAst(ast));
  std::string out, line;
  for (size_t i = 0; std::getline(lines, line); ++i) {
    out += line;
    const Node* n = i < order.size() ? order[i] : nullptr;
    const Binding* binding = n ? resolution.Find(*n) : nullptr;
    if (binding != nullptr) out += " -> " + DescribeBinding(*n, *binding);
    out += "\n";
  }
  return out;
}

}  // namespace wm::jq
