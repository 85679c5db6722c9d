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
  Field,           // .name  ."name"   (text = name; kids: {target} where target may be null = `.`;
                   //   an interpolated `."a\(x)"` becomes Index with a String key)
  Index,           // T[K]   kids {target (null = .), key}
  Slice,           // T[F:L] kids {target (null = .), from|null, to|null}
  Iterate,         // T[]    kids {target (null = .)}
  Optional,        // T?     kids {term}
  Number,          // text = literal as written; number = value (out of range: +-DBL_MAX or 0)
  String,          // kids = parts: String nodes with `text` literal, any other node interpolated;
                   //   text holds the decoded string when there is no interpolation (kids empty then);
                   //   format = "@x" or ""; an interpolated plain string literal `\("x")` is kept in
                   //   a Paren so it cannot be mistaken for a literal part
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
  Reduce,          // kids {source, pattern, init, update, [?// alternative patterns...]}
  Foreach,         // kids {source, pattern, init, update, extract|null, [?// alternatives...]}
  Bind,            // kids {source, pattern, [alternative patterns...], body}  (`as $x | body`, `?//`)
  Label,           // text = label name; kids {body}
  Break,           // text = label name
  FuncDef,         // text = name; params in `params`; kids {body, rest}  (`def f: body; rest`;
                   //   rest null for the last definition of a library without a main expression)
  PatternVar,      // $name in a pattern
  PatternArray,    // [p1, p2, ...]
  PatternObject,   // kids: PatternEntry
  PatternEntry,    // kids {key, pattern|null}: key is Variable ($name shorthand), String, Paren(expr)
                   //   or an identifier/keyword as String
  Import,          // import "path" as name; / include "path";  (text = path, params[0] = alias,
                   //   "$name" for data imports, no params for include; kids {metadata object} if any)
  Module,          // module {...};  kids {metadata object}
  Program,         // kids {module?, imports..., body}: top-level wrapper when directives are present;
                   //   body null when the file holds only directives
};

struct Node {
  Node() = default;
  Node(NodeKind k, Range r) : kind(k), range(r), token(r) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  Node(Node&&) = default;
  Node& operator=(Node&&) = default;
  // Tears the subtree down iteratively: a long operator chain must not overflow the stack.
  ~Node();

  NodeKind kind = NodeKind::Identity;
  Range range;                   // whole construct
  Range token;                   // the operator / name / keyword token, for pointing diagnostics
                                 // (e.g. `del`, `|=`, `$ENV`, `..`, `import`); = range for literals
  std::string text;              // see NodeKind
  std::string format;            // String: "@base64" etc.
  double number = 0;             // Number
  std::vector<std::string> params;  // FuncDef: "f" or "$x" for value params
  std::vector<std::unique_ptr<Node>> kids;  // null entries allowed where documented

  const Node* kid(size_t i) const { return i < kids.size() ? kids[i].get() : nullptr; }
};

// Structural equality ignoring ranges and Paren nodes (parentheses only group; the printer adds
// them where precedence needs them), for parse(print(ast)) round-trip tests.
bool SameShape(const Node& a, const Node& b);

// Stable name of a kind ("Field", "Pipe", ...), as DumpAst prints it.
const char* KindName(NodeKind kind);

}  // namespace wm::jq
