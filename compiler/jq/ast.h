// The jq abstract syntax tree: the project's own types (ANTLR's parse tree never leaves
// compiler/jq/). Every node carries the byte range of its text in the expression, so every later
// stage (lowering, safety policy, type checker) can point a diagnostic at the exact token.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wm::jq {

// Half-open byte range [begin, end) in the expression text.
struct Range {
  uint32_t begin = 0;
  uint32_t end = 0;
};

enum class NodeKind : uint8_t {
  Identity,        // .
  RecurseDefault,  // ..
  Field,           // .name  ."name"   (text = name; kids: {target} where target may be null = `.`)
  Index,           // T[K]   kids {target (null = .), key}
  Slice,           // T[F:L] kids {target (null = .), from|null, to|null}
  Iterate,         // T[]    kids {target (null = .)}
  Optional,        // T?     kids {term}
  Number,          // text = literal as written; number = value
  String,          // kids = parts: String nodes with `text` literal, any other node interpolated;
                   //   text holds the decoded string when there is no interpolation; format = "@x" or ""
  Format,          // @name  (text = "base64", ...)
  Null, True, False,
  Array,           // [E] kids {e} or {} for []
  Object,          // kids: ObjectEntry nodes
  ObjectEntry,     // kids {key, value|null}; key is String/Variable/Paren(expr)/Format/Ident-as-String;
                   //   value null for shorthand `{a}`, `{$x}`, `{"a"}`, `{@base64}`
  Paren,           // (E) kids {e}
  Variable,        // $name  (text = name without '$'; "__loc__" and "ENV" are plain names here)
  Call,            // name or name(a; b): text = name; kids = args
  Pipe,            // A | B
  Comma,           // A , B
  Alternative,     // A // B
  Assign,          // A op B   (text = "=", "|=", "+=", "-=", "*=", "/=", "%=", "//=")
  Or, And,         // A or B, A and B
  Compare,         // text = "==", "!=", "<", "<=", ">", ">="
  Arith,           // text = "+", "-", "*", "/", "%"
  Neg,             // -A
  If,              // kids {cond, then, [elif-cond, elif-then]..., else|null}
  TryCatch,        // kids {body, handler|null}
  Reduce,          // kids {source, pattern, init, update}
  Foreach,         // kids {source, pattern, init, update, extract|null}
  Bind,            // kids {source, pattern, [alternative patterns...], body}  (`as $x | body`, `?//`)
  Label,           // text = label name; kids {body}
  Break,           // text = label name
  FuncDef,         // text = name; params in `params`; kids {body, rest}  (`def f: body; rest`)
  PatternVar,      // $name in a pattern
  PatternArray,    // [p1, p2, ...]
  PatternObject,   // kids: PatternEntry
  PatternEntry,    // kids {key, pattern|null}: key is Variable ($name shorthand), String, Paren(expr)
                   //   or an identifier/keyword as String
  Import,          // import "path" as name; / include "path";  (text = path, params[0] = alias)
  Module,          // module {...};
  Program,         // kids {imports..., body}: top-level wrapper when directives are present
};

struct Node {
  NodeKind kind = NodeKind::Identity;
  Range range;                   // whole construct
  Range token;                   // the operator / name token, for pointing diagnostics (e.g. `del`)
  std::string text;              // see NodeKind
  std::string format;            // String: "@base64" etc.
  double number = 0;             // Number
  std::vector<std::string> params;  // FuncDef: "f" or "$x" for value params
  std::vector<std::unique_ptr<Node>> kids;  // null entries allowed where documented

  const Node* kid(size_t i) const { return i < kids.size() ? kids[i].get() : nullptr; }
};

// Structural equality ignoring ranges (for parse(print(ast)) == ast round-trip tests).
bool SameShape(const Node& a, const Node& b);

}  // namespace wm::jq
