// Print: canonical jq text of an AST, parenthesised wherever jq's precedence (or a construct that
// extends to the right, like `. as $x | ...`) would otherwise regroup it, so that
// Parse(Print(ast)) has the same shape. Output avoids syntax newer than jq 1.6 except where the
// AST itself needs it (`if` without `else`, `$__loc__`, `{$x: v}`).
// DumpAst: one line per node, `Kind [begin,end) detail`, indented two spaces per level.
#include <cstdio>
#include <string>

#include "compiler/jq/internal/string_literal.h"
#include "compiler/jq/parser.h"

namespace wm::jq {
namespace {

// Binding strength, loosest first. Heads (`def`, `as`, `label`) and `|` are kPipe.
enum Level : int {
  kPipe = 0, kComma, kAlt, kAssign, kOr, kAnd, kCompare, kAdd, kMul, kUnary, kPostfix
};

// What follows a printed operand: nothing (end, or a closer), the `catch` of an enclosing try, or
// a binary operator of the given level.
constexpr int kFollowNothing = -1;
constexpr int kFollowCatch = 100;

bool IsIdentifier(const std::string& s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

void AppendEscaped(const std::string& text, std::string* out) {
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\t': *out += "\\t"; break;
      case '\r': *out += "\\r"; break;
      case '\b': *out += "\\b"; break;
      case '\f': *out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(ch);
        }
    }
  }
}

std::string Quote(const std::string& text) {
  std::string out = "\"";
  AppendEscaped(text, &out);
  out += "\"";
  return out;
}

Level LevelOf(const Node& node) {
  switch (node.kind) {
    case NodeKind::Pipe: case NodeKind::FuncDef: case NodeKind::Bind: case NodeKind::Label:
    case NodeKind::Program: case NodeKind::Module: case NodeKind::Import:
      return kPipe;
    case NodeKind::Comma: return kComma;
    case NodeKind::Alternative: return kAlt;
    case NodeKind::Assign: return kAssign;
    case NodeKind::Or: return kOr;
    case NodeKind::And: return kAnd;
    case NodeKind::Compare: return kCompare;
    case NodeKind::Arith:
      return (node.text == "+" || node.text == "-") ? kAdd : kMul;
    // jq 1.6/1.7 accept no postfix after these, so they count as unary for placement.
    case NodeKind::Neg: case NodeKind::TryCatch: case NodeKind::If: case NodeKind::Reduce:
    case NodeKind::Foreach: case NodeKind::Break:
      return kUnary;
    default:
      return kPostfix;
  }
}

// jq 1.7 reads a `?` as part of a term only right after `.a`, `."a"` or `[...]` (its
// `Term FIELD '?'` rules); any other `?` applies to a whole expression, which no postfix, `as`,
// `catch` or object-key colon may follow.
bool IsExpressionQuestion(const Node& node) {
  if (node.kind != NodeKind::Optional) return false;
  const Node* target = node.kid(0);
  if (target == nullptr) return true;  // `.?`
  switch (target->kind) {
    case NodeKind::Field: case NodeKind::Index: case NodeKind::Slice: case NodeKind::Iterate:
      return false;
    default:
      return true;
  }
}

class Printer {
 public:
  std::string out;

  // Prints `node` where the grammar wants at least `min` and `follow` comes next.
  void Expr(const Node* node, Level min, int follow) {
    if (node == nullptr) {
      out += ".";
      return;
    }
    if (NeedsParens(*node, min, follow)) {
      out += "(";
      Bare(*node, kFollowNothing);
      out += ")";
    } else {
      Bare(*node, follow);
    }
  }

 private:
  static bool NeedsParens(const Node& node, Level min, int follow) {
    if (LevelOf(node) < min) return true;
    switch (node.kind) {
      case NodeKind::FuncDef: case NodeKind::Bind: case NodeKind::Label:
        return follow != kFollowNothing;  // they would swallow what follows
      case NodeKind::Neg:
        return follow == kMul;  // `-a * b` is `-(a * b)`
      case NodeKind::TryCatch:
        if (follow == kFollowCatch && node.kids.size() == 2 && !node.kids[1]) return true;
        return false;
      case NodeKind::Optional:
        return follow == kFollowCatch && IsExpressionQuestion(node);  // `try x? catch` is `(try x)?`
      default:
        return false;
    }
  }

  // A postfix target: anything that is not a plain term gets parentheses (a `?` on an expression
  // may itself be followed by another `?`: `$x??`).
  void Target(const Node* target, bool before_question = false) {
    if (target == nullptr) return;
    if (target->kind == NodeKind::Number || target->kind == NodeKind::RecurseDefault ||
        LevelOf(*target) < kPostfix || (!before_question && IsExpressionQuestion(*target))) {
      out += "(";
      Bare(*target, kFollowNothing);
      out += ")";
      return;
    }
    Bare(*target, kFollowNothing);
  }

  void BinaryOp(const Node& node, Level left, Level right, const char* op, int follow) {
    Level own = LevelOf(node);
    Expr(node.kid(0), left, own);
    if (node.kind != NodeKind::Comma) out += " ";
    out += op;
    out += " ";
    Expr(node.kid(1), right, follow);
  }

  void StringLiteral(const Node& node) {
    if (!node.format.empty()) out += node.format + " ";
    out += "\"";
    if (node.kids.empty()) {
      AppendEscaped(node.text, &out);
    } else {
      for (const auto& part : node.kids) {
        if (part && part->kind == NodeKind::String && part->kids.empty() && part->format.empty()) {
          AppendEscaped(part->text, &out);
        } else {
          out += "\\(";
          const Node* inner = part.get();
          if (inner && inner->kind == NodeKind::Paren && inner->kid(0)) inner = inner->kid(0);
          Expr(inner, kPipe, kFollowNothing);
          out += ")";
        }
      }
    }
    out += "\"";
  }

  // Object keys and pattern keys: bare names where jq allows them, else the key node.
  void Key(const Node* key) {
    if (key == nullptr) return;
    if (key->kind == NodeKind::String && key->kids.empty() && key->format.empty() &&
        IsIdentifier(key->text)) {
      out += key->text;
    } else if (key->kind == NodeKind::Variable) {
      out += "$" + key->text;
    } else if (key->kind == NodeKind::String || key->kind == NodeKind::Paren) {
      Bare(*key, kFollowNothing);
    } else {
      out += "(";
      Bare(*key, kFollowNothing);
      out += ")";
    }
  }

  // An object value is jq's ExpD: terms joined by `|`, each optionally negated.
  void ObjectValue(const Node* value) {
    if (value == nullptr) return;
    if (value->kind == NodeKind::Pipe) {
      ObjectValue(value->kid(0));
      out += " | ";
      ObjectValue(value->kid(1));
      return;
    }
    if (value->kind == NodeKind::Neg) {
      out += "-";
      ObjectValue(value->kid(0));
      return;
    }
    if (LevelOf(*value) < kPostfix || IsExpressionQuestion(*value)) {
      out += "(";
      Bare(*value, kFollowNothing);
      out += ")";
      return;
    }
    Bare(*value, kFollowNothing);
  }

  void Pattern(const Node* p) {
    if (p == nullptr) return;
    switch (p->kind) {
      case NodeKind::PatternVar:
        out += "$" + p->text;
        return;
      case NodeKind::PatternArray:
        out += "[";
        for (size_t i = 0; i < p->kids.size(); ++i) {
          if (i > 0) out += ", ";
          Pattern(p->kid(i));
        }
        out += "]";
        return;
      case NodeKind::PatternObject:
        out += "{";
        for (size_t i = 0; i < p->kids.size(); ++i) {
          if (i > 0) out += ", ";
          const Node* entry = p->kid(i);
          if (entry == nullptr) continue;
          Key(entry->kid(0));
          if (entry->kid(1) != nullptr) {
            out += ": ";
            Pattern(entry->kid(1));
          }
        }
        out += "}";
        return;
      default:
        Bare(*p, kFollowNothing);
    }
  }

  void PatternList(const Node& node, size_t first, size_t alternatives_from) {
    Pattern(node.kid(first));
    for (size_t i = alternatives_from; i < node.kids.size(); ++i) {
      out += " ?// ";
      Pattern(node.kid(i));
    }
  }

  void Bare(const Node& node, int follow) {
    switch (node.kind) {
      case NodeKind::Identity: out += "."; return;
      case NodeKind::RecurseDefault: out += ".."; return;
      case NodeKind::Field: {
        const Node* target = node.kid(0);
        Target(target);
        if (IsIdentifier(node.text)) {
          out += "." + node.text;
        } else {
          out += "." + Quote(node.text);
        }
        return;
      }
      case NodeKind::Index: case NodeKind::Slice: case NodeKind::Iterate: {
        const Node* target = node.kid(0);
        if (target == nullptr) {
          out += ".";
        } else {
          Target(target);
        }
        out += "[";
        if (node.kind == NodeKind::Index) {
          Expr(node.kid(1), kPipe, kFollowNothing);
        } else if (node.kind == NodeKind::Slice) {
          if (node.kid(1) != nullptr) Expr(node.kid(1), kPipe, kFollowNothing);
          out += ":";
          if (node.kid(2) != nullptr) Expr(node.kid(2), kPipe, kFollowNothing);
        }
        out += "]";
        return;
      }
      case NodeKind::Optional:
        if (node.kid(0) == nullptr) {
          out += ".";
        } else {
          Target(node.kid(0), /*before_question=*/true);
        }
        out += "?";
        return;
      case NodeKind::Number: out += node.text; return;
      case NodeKind::String: StringLiteral(node); return;
      case NodeKind::Format: out += "@" + node.text; return;
      case NodeKind::Null: out += "null"; return;
      case NodeKind::True: out += "true"; return;
      case NodeKind::False: out += "false"; return;
      case NodeKind::Array:
        out += "[";
        if (node.kid(0) != nullptr) Expr(node.kid(0), kPipe, kFollowNothing);
        out += "]";
        return;
      case NodeKind::Object:
        out += "{";
        for (size_t i = 0; i < node.kids.size(); ++i) {
          if (i > 0) out += ", ";
          const Node* entry = node.kid(i);
          if (entry == nullptr) continue;
          Key(entry->kid(0));
          if (entry->kid(1) != nullptr) {
            out += ": ";
            ObjectValue(entry->kid(1));
          }
        }
        out += "}";
        return;
      case NodeKind::ObjectEntry:
        Key(node.kid(0));
        if (node.kid(1) != nullptr) {
          out += ": ";
          ObjectValue(node.kid(1));
        }
        return;
      case NodeKind::Paren:
        out += "(";
        Expr(node.kid(0), kPipe, kFollowNothing);
        out += ")";
        return;
      case NodeKind::Variable: out += "$" + node.text; return;
      case NodeKind::Call:
        out += node.text;
        if (!node.kids.empty()) {
          out += "(";
          for (size_t i = 0; i < node.kids.size(); ++i) {
            if (i > 0) out += "; ";
            Expr(node.kid(i), kPipe, kFollowNothing);
          }
          out += ")";
        }
        return;
      case NodeKind::Pipe: BinaryOp(node, kComma, kPipe, "|", follow); return;
      case NodeKind::Comma: BinaryOp(node, kComma, kAlt, ",", follow); return;
      case NodeKind::Alternative: BinaryOp(node, kAssign, kAlt, "//", follow); return;
      case NodeKind::Assign: BinaryOp(node, kOr, kOr, node.text.c_str(), follow); return;
      case NodeKind::Or: BinaryOp(node, kOr, kAnd, "or", follow); return;
      case NodeKind::And: BinaryOp(node, kAnd, kCompare, "and", follow); return;
      case NodeKind::Compare: BinaryOp(node, kAdd, kAdd, node.text.c_str(), follow); return;
      case NodeKind::Arith:
        if (LevelOf(node) == kAdd) {
          BinaryOp(node, kAdd, kMul, node.text.c_str(), follow);
        } else {
          BinaryOp(node, kMul, kUnary, node.text.c_str(), follow);
        }
        return;
      case NodeKind::Neg: {
        out += "-";
        size_t at = out.size();
        Expr(node.kid(0), kUnary, follow);
        if (out.size() > at && out[at] == '-') out.insert(at, " ");
        return;
      }
      case NodeKind::If: {
        out += "if ";
        Expr(node.kid(0), kPipe, kFollowNothing);
        out += " then ";
        Expr(node.kid(1), kPipe, kFollowNothing);
        size_t i = 2;
        for (; i + 1 < node.kids.size(); i += 2) {
          out += " elif ";
          Expr(node.kid(i), kPipe, kFollowNothing);
          out += " then ";
          Expr(node.kid(i + 1), kPipe, kFollowNothing);
        }
        if (i < node.kids.size() && node.kid(i) != nullptr) {
          out += " else ";
          Expr(node.kid(i), kPipe, kFollowNothing);
        }
        out += " end";
        return;
      }
      case NodeKind::TryCatch: {
        bool has_handler = node.kid(1) != nullptr;
        out += "try ";
        Expr(node.kid(0), kUnary, has_handler ? kFollowCatch : follow);
        if (has_handler) {
          out += " catch ";
          Expr(node.kid(1), kUnary, follow);
        }
        return;
      }
      case NodeKind::Reduce:
        out += "reduce ";
        Target(node.kid(0));
        out += " as ";
        PatternList(node, 1, 4);
        out += " (";
        Expr(node.kid(2), kPipe, kFollowNothing);
        out += "; ";
        Expr(node.kid(3), kPipe, kFollowNothing);
        out += ")";
        return;
      case NodeKind::Foreach:
        out += "foreach ";
        Target(node.kid(0));
        out += " as ";
        PatternList(node, 1, 5);
        out += " (";
        Expr(node.kid(2), kPipe, kFollowNothing);
        out += "; ";
        Expr(node.kid(3), kPipe, kFollowNothing);
        if (node.kid(4) != nullptr) {
          out += "; ";
          Expr(node.kid(4), kPipe, kFollowNothing);
        }
        out += ")";
        return;
      case NodeKind::Bind: {
        Target(node.kid(0));
        out += " as ";
        // kids: source, patterns..., body (the last kid).
        size_t body = node.kids.size() - 1;
        for (size_t i = 1; i < body; ++i) {
          if (i > 1) out += " ?// ";
          Pattern(node.kid(i));
        }
        out += " | ";
        Expr(node.kid(body), kPipe, follow);
        return;
      }
      case NodeKind::Label:
        out += "label $" + node.text + " | ";
        Expr(node.kid(0), kPipe, follow);
        return;
      case NodeKind::Break: out += "break $" + node.text; return;
      case NodeKind::FuncDef: {
        out += "def " + node.text;
        if (!node.params.empty()) {
          out += "(";
          for (size_t i = 0; i < node.params.size(); ++i) {
            if (i > 0) out += "; ";
            out += node.params[i];
          }
          out += ")";
        }
        out += ": ";
        Expr(node.kid(0), kPipe, kFollowNothing);
        out += ";";
        if (node.kid(1) != nullptr) {
          out += " ";
          Expr(node.kid(1), kPipe, follow);
        }
        return;
      }
      case NodeKind::PatternVar: case NodeKind::PatternArray: case NodeKind::PatternObject:
        Pattern(&node);
        return;
      case NodeKind::PatternEntry:
        Key(node.kid(0));
        if (node.kid(1) != nullptr) {
          out += ": ";
          Pattern(node.kid(1));
        }
        return;
      case NodeKind::Import:
        if (node.params.empty()) {
          out += "include " + Quote(node.text);
        } else {
          out += "import " + Quote(node.text) + " as " + node.params[0];
        }
        if (node.kid(0) != nullptr) {
          out += " ";
          Bare(*node.kid(0), kFollowNothing);
        }
        out += ";";
        return;
      case NodeKind::Module:
        out += "module ";
        if (node.kid(0) != nullptr) Bare(*node.kid(0), kFollowNothing);
        out += ";";
        return;
      case NodeKind::Program:
        for (size_t i = 0; i < node.kids.size(); ++i) {
          const Node* kid = node.kid(i);
          if (kid == nullptr) continue;
          if (i > 0) out += " ";
          if (i + 1 == node.kids.size()) {
            Expr(kid, kPipe, kFollowNothing);
          } else {
            Bare(*kid, kFollowNothing);
          }
        }
        return;
    }
  }
};

std::string Detail(const Node& node) {
  switch (node.kind) {
    case NodeKind::String: {
      std::string s = node.format.empty() ? "" : node.format + " ";
      if (node.kids.empty()) s += Quote(node.text);
      return s;
    }
    case NodeKind::Variable: case NodeKind::PatternVar: case NodeKind::Label: case NodeKind::Break:
      return "$" + node.text;
    case NodeKind::Format: return "@" + node.text;
    case NodeKind::Field: return IsIdentifier(node.text) ? node.text : Quote(node.text);
    case NodeKind::Import: {
      std::string s = Quote(node.text);
      if (!node.params.empty()) s += " as " + node.params[0];
      return s;
    }
    case NodeKind::FuncDef: {
      std::string s = node.text;
      if (!node.params.empty()) {
        s += "(";
        for (size_t i = 0; i < node.params.size(); ++i) s += (i ? "; " : "") + node.params[i];
        s += ")";
      }
      return s;
    }
    case NodeKind::Pipe: return "|";
    case NodeKind::Comma: return ",";
    case NodeKind::Alternative: return "//";
    case NodeKind::Or: return "or";
    case NodeKind::And: return "and";
    default: return node.text;
  }
}

}  // namespace

std::string Print(const Node& node) {
  Printer printer;
  printer.Expr(&node, kPipe, kFollowNothing);
  return printer.out;
}

std::string DumpAst(const Node& node) {
  std::string out;
  // Explicit stack: (node or null placeholder, depth).
  std::vector<std::pair<const Node*, size_t>> pending{{&node, 0}};
  while (!pending.empty()) {
    auto [n, depth] = pending.back();
    pending.pop_back();
    out.append(depth * 2, ' ');
    if (n == nullptr) {
      out += "<none>\n";
      continue;
    }
    out += KindName(n->kind);
    out += " [" + std::to_string(n->range.begin) + "," + std::to_string(n->range.end) + ")";
    std::string detail = Detail(*n);
    if (!detail.empty()) out += " " + detail;
    out += "\n";
    for (size_t i = n->kids.size(); i-- > 0;) pending.emplace_back(n->kids[i].get(), depth + 1);
  }
  return out;
}

}  // namespace wm::jq
