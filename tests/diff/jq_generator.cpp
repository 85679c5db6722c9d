// Random jq programs and JSON inputs for the differential test (see jq_generator.h).
// Termination: generated `def`s call only functions defined before them (no recursion) except
// one canned recursive form with a literal depth bound; loops (`range`, `while`, `until`,
// `recurse`, `limit`) use literal bounds or inputs that shrink; no `repeat`, `input`, `env`.
#include "tests/diff/jq_generator.h"

#include <cctype>
#include <memory>
#include <set>

#include "tests/diff/jq_text.h"

namespace wm::diff {

uint64_t Rng::Next() {
  state_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

namespace {

// Object keys used both by inputs and by programs, so that paths often hit.
const std::vector<std::string> kKeys = {"a", "b", "c", "k1", "é", ""};
// Strings of inputs and literals. Written as JSON/jq string literal bodies.
const std::vector<std::string> kStrings = {
    "a", "b", "", "é", "日本", "a b", "A,B", "12", "1.5", "true", "x\\\"y", "\\\\", "\\n",
    "😀", "ab", "aXbXc", "abc", "b,c", "\\u0001", "-3"};
// Number texts that jq 1.6 prints as written and that jq 1.7 (which preserves the literal text of
// input numbers, printing exponents in decNumber's `1E+300` style) prints identically.
const std::vector<std::string> kInputNumbers = {
    "0", "1", "2", "3", "-1", "-7", "10", "0.5", "-2.25", "1.5", "100", "1234567890123",
    "-0", "3.14159", "42", "0.001", "99999999999"};
// Number literals for programs: plain decimals (no exponent, no more digits than a double
// holds), which jq 1.6 and 1.7 print identically.
const std::vector<std::string> kProgramNumbers = {
    "0", "1", "2", "3", "-1", "5", "10", "0.5", "1.5", "-2.25", "100", "7"};
// Regular expressions for test/match/capture/scan/split/sub/gsub: none matches the empty string
// (jq 1.6's gsub loops forever on empty matches).
const std::vector<std::string> kRegexes = {"a", "b+", "[0-9]+", "X", "(?<x>a)", "é", "[ab]"};
// Needles for index/rindex/indices: no proper prefix equals a suffix (overlapping matches are a
// 1.6-vs-1.7 difference) and never empty (1.6 fails to allocate).
const std::vector<std::string> kNeedles = {"a", "b", "ab", "X", ",", "é"};

const std::set<std::string> kKeywords = {
    "def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try", "catch",
    "label", "import", "include", "and", "or", "not", "__loc__"};

bool IsIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return kKeywords.count(s) == 0;
}

std::string Quote(const std::string& body) { return "\"" + body + "\""; }

}  // namespace

// Spellings that keep 1.6-vs-1.7 differences out of generated programs (KNOWN_DIFFERENCES.md):
// a catch handler's view of the error (C1: builtin messages are worded differently; user values
// are wrapped as {"v": V} by the generator), `reverse` only on non-strings (B12), and computed
// array indexes floored before use (B11: 1.6 gives null for `.[1.5]`, 1.7 floors).
constexpr const char* kUserErrorValue = "if type == \"object\" then .v else \"builtin error\" end";
constexpr const char* kReverse = "(if type == \"string\" then explode else . end | reverse)";
constexpr const char* kFloorNumberIndex = " | if type == \"number\" then floor else . end";

// A generated expression and whether it can stand as a postfix term / binary operand without
// parentheses.
struct Gen {
  std::string text;
  bool term = false;
};

struct FunctionSig {
  std::string name;
  int filter_params = 0;
  int value_params = 0;
};

struct ProgramGenerator::Impl {
  Impl(Rng& r, const GeneratorOptions& o) : rng(r), options(o) {}
  Rng& rng;
  const GeneratorOptions& options;
  std::vector<std::string> vars;        // in-scope $variables (without '$')
  std::vector<FunctionSig> functions;   // callable user defs and filter parameters
  std::vector<std::string> labels;      // in-scope labels
  int fresh = 0;

  std::string Fresh(const char* prefix) { return prefix + std::to_string(fresh++); }

  static std::string Paren(const Gen& g) { return g.term ? g.text : "(" + g.text + ")"; }
  static Gen T(std::string s) { return {std::move(s), true}; }
  static Gen E(std::string s) { return {std::move(s), false}; }

  std::string Key() { return rng.Pick(kKeys); }
  std::string StringLiteral() { return Quote(rng.Pick(kStrings)); }
  std::string NumberLiteral() { return rng.Pick(kProgramNumbers); }

  // `.a`, `."a"`, `.["a"]` forms of a key access on `.`.
  std::string FieldAccess() {
    std::string k = Key();
    uint32_t form = rng.Below(3);
    if (form == 0 && IsIdentifier(k)) return "." + k;
    if (form == 1) return "." + Quote(k);
    return ".[" + Quote(k) + "]";
  }

  std::string Suffix() {
    switch (rng.Below(8)) {
      case 0: case 1: {
        std::string k = Key();
        return IsIdentifier(k) ? "." + k : "[" + Quote(k) + "]";
      }
      case 2: return "[" + std::to_string(static_cast<int>(rng.Below(4)) - 1) + "]";
      case 3: return "[]";
      case 4: return "[]?";
      case 5: return "[" + std::to_string(rng.Below(3)) + ":]";
      case 6: return "[:" + std::to_string(static_cast<int>(rng.Below(4)) - 1) + "]";
      default: return "." + std::string(rng.Chance(50) ? "a" : "b") + "?";
    }
  }

  Gen Literal() {
    switch (rng.Below(9)) {
      case 0: return T("null");
      case 1: return T("true");
      case 2: return T("false");
      // Numbers are not terms here: `1.a` would lex as `1.` then `a`.
      case 3: case 4: return E(NumberLiteral());
      case 5: case 6: return T(StringLiteral());
      case 7: return T("[" + NumberLiteral() + "," + StringLiteral() + "]");
      default: return T("{" + Quote(Key()) + ":" + NumberLiteral() + "}");
    }
  }

  // Zero-argument builtins that are total on every input (or raise an error jq 1.6 and 1.7 agree
  // on).
  const std::vector<std::string>& Nullary() {
    static const std::vector<std::string> list = {
        "length", "utf8bytelength", "not", "keys", "keys_unsorted", "values", "type", "tostring",
        "tojson", "add", "any", "all", "flatten", "floor", "sqrt", "fabs", "round", "ceil",
        "trunc", "sort", "unique", "min", "max", kReverse, "ascii_downcase", "ascii_upcase",
        "explode", "to_entries", "arrays", "objects", "iterables", "booleans", "numbers",
        "strings", "nulls", "scalars", "first", "last", "isinfinite", "isnan", "isnormal",
        "infinite", "nan", "empty", "paths", "leaf_paths", "tostream", "transpose",
        "@text", "@json", "@html", "@uri", "@csv", "@tsv", "@sh", "@base64", "@base64d",
        "tonumber", "recurse", "..", "log", "exp", "log2", "log10", "significand",
        "combinations", "to_entries", "getpath([\"a\"])", "$__loc__", "splits(\", \")",
        "(tojson|fromjson)", "(explode|implode)", "(to_entries|from_entries)"};
    return list;
  }

  // Generic expression of the given depth.
  Gen Expr(int depth) {
    if (depth <= 0) return Leaf();
    switch (rng.Below(30)) {
      case 0: case 1: case 2: return Postfix(depth);
      case 3: case 4: return E(Expr(depth - 1).text + " | " + Expr(depth - 1).text);
      case 5: return E(Expr(depth - 1).text + ", " + Expr(depth - 1).text);
      case 6: return E(Operand(depth) + " // " + Operand(depth));
      case 7: case 8: return Binary(depth);
      case 9: return E(Operand(depth) + (rng.Chance(50) ? " and " : " or ") + Operand(depth));
      case 10: return T("[" + Expr(depth - 1).text + "]");
      case 11: return Object(depth);
      case 12: return If(depth);
      case 13: return Try(depth);
      case 14: return Reduce(depth);
      case 15: return Foreach(depth);
      case 16: return Def(depth);
      case 17: return Bind(depth);
      case 18: return Label(depth);
      case 19: return Interpolation(depth);
      case 20: return PathBuiltins(depth);
      case 21: return Assignment(depth);
      case 22: case 23: case 24: return Builtin(depth);
      case 25: return CallUserFunction(depth);
      case 26: return E("-" + Paren(Expr(depth - 1)));  // unary minus is not a postfix term
      case 27: return Canned(depth);
      case 28: return E(Operand(depth) + " | " + rng.Pick(Nullary()));
      default: return Leaf();
    }
  }

  std::string Operand(int depth) { return Paren(Expr(depth - 1)); }

  Gen Leaf() {
    switch (rng.Below(12)) {
      case 0: return T(".");
      case 1: case 2: return T(FieldAccess());
      case 3: return T(FieldAccess() + Suffix());
      case 4: return Literal();
      case 5: return Literal();
      case 6: {
        if (!vars.empty()) return T("$" + rng.Pick(vars));
        return T(FieldAccess() + "?");
      }
      case 7: {
        if (!functions.empty()) {
          for (int tries = 0; tries < 3; ++tries) {
            // A copy: generating the arguments may define (push) more functions and move the vector.
    const FunctionSig f = rng.Pick(functions);
            if (f.filter_params == 0 && f.value_params == 0) return T(f.name);
          }
        }
        return T(".[]?");
      }
      case 8: return T(rng.Pick(Nullary()));
      case 9: return T(".[" + std::to_string(static_cast<int>(rng.Below(4)) - 1) + "]");
      case 10: return T(".[]?");
      default: return T(FieldAccess() + Suffix());
    }
  }

  Gen Postfix(int depth) {
    Gen base = Expr(depth - 1);
    std::string text = Paren(base);
    if (text == "." || text == "..") text = "(" + text + ")";  // `.` + `.a` must not fuse
    int n = 1 + rng.Below(3);
    for (int i = 0; i < n; ++i) {
      uint32_t kind = rng.Below(6);
      if (kind == 0) {
        text += "[" + Expr(depth - 1).text + kFloorNumberIndex + "]";
      } else if (kind == 1) {
        // Generic `?` lives inside an array collector: jq 1.6 lets a try catch errors raised
        // after its body produced an output (KNOWN_DIFFERENCES.md "try catches too much").
        return T("([" + text + "?] | .[])");
      } else {
        std::string s = Suffix();
        // `T.a` is fine after any term; `T[..]` too.
        text += s;
      }
    }
    return T(text);
  }

  Gen Binary(int depth) {
    static const std::vector<std::string> arith = {"+", "-", "*", "/", "%"};
    static const std::vector<std::string> compare = {"==", "!=", "<", "<=", ">", ">="};
    bool is_compare = rng.Chance(40);
    const std::string& op = is_compare ? rng.Pick(compare) : rng.Pick(arith);
    std::string lhs = Operand(depth);
    std::string rhs = Operand(depth);
    if (!is_compare && rng.Chance(40)) {
      // A chain without parentheses exercises precedence and associativity.
      rhs += " " + rng.Pick(arith) + " " + Operand(depth);
    }
    if ((op == "/" || op == "%") && IsNumberText(lhs) && IsNumberText(rhs)) {
      // jq 1.6 folds constant divisions at compile time ("Division by zero?", 0/0 = NaN).
      lhs = ".";
    }
    return E(lhs + " " + op + " " + rhs);
  }

  static bool IsNumberText(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s) {
      if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-')) return false;
    }
    return true;
  }

  Gen Object(int depth) {
    int n = rng.Below(4);
    std::string out = "{";
    for (int i = 0; i < n; ++i) {
      if (i > 0) out += ", ";
      std::string k = Key();
      switch (rng.Below(6)) {
        case 0:
          if (IsIdentifier(k)) {
            out += k;  // shorthand {a}
            break;
          }
          [[fallthrough]];
        case 1: out += Quote(k) + ": " + Paren(Expr(depth - 1)); break;
        case 2:
          if (!vars.empty()) {
            out += "$" + rng.Pick(vars);  // {$x}
            break;
          }
          [[fallthrough]];
        case 3:
          // Computed keys read the input: jq 1.6 rejects constant non-string keys at compile
          // time, where jq 1.7 and wm raise the error when the object is built.
          out += "(" + (rng.Chance(50) ? FieldAccess() : Expr(depth - 1).text + " | tostring") +
                 "): " + Paren(Expr(depth - 1));
          break;
        case 4:
          out += (IsIdentifier(k) ? k : Quote(k)) + ": " + Paren(Expr(depth - 1));
          break;
        default:
          out += "\"\\(" + Expr(depth - 1).text + ")\": " + Paren(Expr(depth - 1));
          break;
      }
    }
    return T(out + "}");
  }

  Gen If(int depth) {
    std::string out = "if " + Expr(depth - 1).text + " then " + Expr(depth - 1).text;
    int elifs = rng.Below(3) == 0 ? 1 : 0;
    for (int i = 0; i < elifs; ++i) {
      out += " elif " + Expr(depth - 1).text + " then " + Expr(depth - 1).text;
    }
    // jq 1.6 requires `else` (optional since 1.7).
    out += " else " + Expr(depth - 1).text + " end";
    // Not a term in jq 1.6's grammar (KNOWN_DIFFERENCES: reduce/foreach/if as terms).
    return E(out);
  }

  // try/catch inside an array collector (see Postfix). Handlers never look at messages of
  // builtin errors (worded differently in 1.6 and 1.7); they see user error values only.
  Gen Try(int depth) {
    std::string body;
    std::string handler;
    switch (rng.Below(4)) {
      case 0: {
        // error(V) with a non-null V: the handler sees exactly V in both versions.
        // The value is wrapped in {"v": ...} so that the handler can tell it from a builtin's
        // error (always a string message, worded differently in 1.6 and 1.7): builtin errors
        // raised by the body or by the value before error/1 runs become one fixed string.
        std::string value = rng.Chance(50) ? StringLiteral()
                                           : "{\"code\": " + NumberLiteral() + "}";
        if (rng.Chance(50)) value = Paren(Single(depth - 1)) + " | if . == null then \"n\" else . end";
        body = Expr(depth - 1).text + " | error({\"v\": (" + value + ")})";
        handler = std::string(kUserErrorValue);
        if (rng.Chance(40)) handler += " | " + Paren(Expr(depth - 1));
        break;
      }
      case 1:
        body = Expr(depth - 1).text;
        handler = rng.Chance(50) ? StringLiteral() : "type";
        break;
      case 2:
        body = Expr(depth - 1).text;
        handler.clear();
        break;
      default:
        body = Expr(depth - 1).text;
        handler = "(" + Literal().text + ")";
        break;
    }
    std::string t = "try (" + body + ")";
    if (!handler.empty()) t += " catch " + (handler == "type" ? handler : "(" + handler + ")");
    return T("([" + t + "] | .[])");
  }

  // A source term for reduce/foreach/as.
  std::string Source(int depth) {
    switch (rng.Below(4)) {
      case 0: return ".[]?";
      case 1: return "(" + Expr(depth - 1).text + ")";
      case 2: return "range(" + std::to_string(rng.Below(4)) + ")";
      default: return "(.[]?, " + Literal().text + ")";
    }
  }

  // A destructuring pattern; adds the variables it binds to *bound.
  std::string Pattern(int depth, std::vector<std::string>* bound) {
    uint32_t kind = depth <= 0 ? 0 : rng.Below(4);
    if (kind <= 1) {
      std::string v = Fresh("v");
      bound->push_back(v);
      return "$" + v;
    }
    if (kind == 2) {
      int n = 1 + rng.Below(2);
      std::string out = "[";
      for (int i = 0; i < n; ++i) out += (i ? ", " : "") + Pattern(depth - 1, bound);
      return out + "]";
    }
    int n = 1 + rng.Below(2);
    std::string out = "{";
    for (int i = 0; i < n; ++i) {
      if (i) out += ", ";
      std::string k = Key();
      if (rng.Chance(30)) {
        std::string v = Fresh("v");
        bound->push_back(v);
        out += "$" + v;  // {$v} binds .v
      } else if (IsIdentifier(k) && rng.Chance(50)) {
        out += k + ": " + Pattern(depth - 1, bound);
      } else {
        out += Quote(k) + ": " + Pattern(depth - 1, bound);
      }
    }
    return out + "}";
  }

  template <typename F>
  auto WithVars(const std::vector<std::string>& bound, F body) {
    size_t mark = vars.size();
    vars.insert(vars.end(), bound.begin(), bound.end());
    auto result = body();
    vars.resize(mark);
    return result;
  }

  Gen Reduce(int depth) {
    std::string source = Source(depth);
    std::vector<std::string> bound;
    std::string pattern = Pattern(depth - 1, &bound);
    std::string init = Single(depth - 1).text;
    // The update yields exactly one value (or an error): reduce over an update that yields
    // zero or several values behaves differently in 1.6 and 1.7.
    std::string update = WithVars(bound, [&] { return Single(depth - 1).text; });
    return E("reduce " + source + " as " + pattern + " (" + init + "; " + update + ")");
  }

  Gen Foreach(int depth) {
    std::string source = Source(depth);
    std::vector<std::string> bound;
    std::string pattern = Pattern(depth - 1, &bound);
    std::string init = Single(depth - 1).text;
    std::string update = WithVars(bound, [&] { return Single(depth - 1).text; });
    std::string out = "foreach " + source + " as " + pattern + " (" + init + "; " + update;
    if (rng.Chance(60)) out += "; " + WithVars(bound, [&] { return Expr(depth - 1).text; });
    return T("[" + out + ")]");
  }

  Gen Def(int depth) {
    std::string name = Fresh("f");
    FunctionSig sig{name, 0, 0};
    std::vector<std::string> params;
    uint32_t shape = rng.Below(5);
    if (shape == 1 || shape == 3) {
      sig.filter_params = 1;
      params.push_back(Fresh("g"));
    }
    if (shape == 2 || shape == 3) {
      sig.value_params = 1;
      params.push_back("$" + Fresh("p"));
    }
    std::string body;
    if (shape == 4) {
      // The one recursive form: recursion bounded by a literal counter.
      std::string counter = Fresh("n");
      sig.value_params = 1;
      size_t mark = vars.size();
      vars.push_back(counter);
      std::string step = Single(depth - 1).text;
      vars.resize(mark);
      body = "if $" + counter + " <= 0 then . else (" + step + ") | " + name + "($" + counter +
             " - 1) end";
      std::string def = "def " + name + "($" + counter + "): " + body + "; ";
      functions.push_back(sig);
      std::string rest = Expr(depth - 1).text + " | " + name + "(" + std::to_string(rng.Below(4)) + ")";
      functions.pop_back();
      return E(def + rest);
    }
    {
      size_t fmark = functions.size();
      size_t vmark = vars.size();
      for (const std::string& p : params) {
        if (p[0] == '$') vars.push_back(p.substr(1));
        else functions.push_back({p, 0, 0});
      }
      body = Expr(depth - 1).text;
      functions.resize(fmark);
      vars.resize(vmark);
    }
    std::string def = "def " + name;
    if (!params.empty()) {
      def += "(";
      for (size_t i = 0; i < params.size(); ++i) def += (i ? "; " : "") + params[i];
      def += ")";
    }
    def += ": " + body + "; ";
    functions.push_back(sig);
    std::string rest = Expr(depth - 1).text;
    if (rng.Chance(70)) rest = CallUserFunction(depth).text + (rng.Chance(50) ? "" : ", " + rest);
    functions.pop_back();
    return E(def + rest);
  }

  Gen CallUserFunction(int depth) {
    if (functions.empty()) return Leaf();
    // A copy: generating the arguments may define (push) more functions and move the vector.
    const FunctionSig f = rng.Pick(functions);
    if (f.filter_params == 0 && f.value_params == 0) return T(f.name);
    std::string out = f.name + "(";
    int n = 0;
    for (int i = 0; i < f.filter_params; ++i) out += (n++ ? "; " : "") + Expr(depth - 1).text;
    for (int i = 0; i < f.value_params; ++i) out += (n++ ? "; " : "") + Expr(depth - 1).text;
    return T(out + ")");
  }

  Gen Bind(int depth) {
    std::string source = rng.Chance(50) ? Paren(Expr(depth - 1)) : Paren(Leaf());
    std::vector<std::string> bound;
    std::string pattern = Pattern(depth - 1, &bound);
    if (rng.Chance(15)) {
      // Destructuring alternatives: every alternative binds the same variables. Kept inside an
      // array collector for the same reason as try.
      std::string v = Fresh("v");
      std::string alt = ". as [$" + v + "] ?// $" + v;
      std::string body = WithVars({v}, [&] { return Expr(depth - 1).text; });
      return T("([" + source + " | " + alt + " | " + body + "] | .[])");
    }
    std::string body = WithVars(bound, [&] { return Expr(depth - 1).text; });
    return E(source + " as " + pattern + " | " + body);
  }

  Gen Label(int depth) {
    std::string name = Fresh("l");
    labels.push_back(name);
    std::string body;
    switch (rng.Below(3)) {
      case 0: body = Expr(depth - 1).text + ", break $" + name; break;
      case 1: body = Expr(depth - 1).text + " | if " + Expr(depth - 1).text + " then ., break $" + name + " else . end"; break;
      default: body = Expr(depth - 1).text; break;
    }
    labels.pop_back();
    return E("label $" + name + " | " + body);
  }

  Gen Interpolation(int depth) {
    static const std::vector<std::string> formats = {"", "", "", "@base64 ", "@json ", "@html ",
                                                     "@uri ", "@sh ", "@text ", "@csv ", "@tsv "};
    const std::string& format = rng.Pick(formats);
    std::string out = format + "\"" + rng.Pick(kStrings);
    int n = 1 + rng.Below(2);
    for (int i = 0; i < n; ++i) out += "\\(" + Expr(depth - 1).text + ")" + (rng.Chance(50) ? "-" : "");
    return T(out + "\"");
  }

  // Path expressions (valid arguments of path(), del(), paths(f), assignment left-hand sides).
  std::string PathExpr(int depth) {
    if (depth <= 0) {
      switch (rng.Below(8)) {
        case 0: return ".";
        case 1: case 2: return FieldAccess();
        case 3: return ".[" + std::to_string(static_cast<int>(rng.Below(4)) - 1) + "]";
        case 4: return ".[]?";
        case 5: return FieldAccess() + Suffix();
        case 6: return "..";
        default: return ".[" + std::to_string(rng.Below(2)) + ":" + std::to_string(1 + rng.Below(3)) + "]";
      }
    }
    switch (rng.Below(9)) {
      case 0: return PathExpr(depth - 1) + " | " + PathExpr(depth - 1);
      case 1: return PathExpr(depth - 1) + ", " + PathExpr(depth - 1);
      case 2: return "(" + PathExpr(depth - 1) + ")" + Suffix();
      case 3: return PathExpr(depth - 1) + " | select(" + Expr(depth - 1).text + ")";
      case 4: return "if " + Expr(depth - 1).text + " then " + PathExpr(depth - 1) + " else " + PathExpr(depth - 1) + " end";
      case 5: return "first(" + PathExpr(depth - 1) + ")";
      case 6: return "getpath([" + Quote(Key()) + "])";
      case 7: return "(" + PathExpr(depth - 1) + ") // " + "(" + PathExpr(depth - 1) + ")";
      default: return PathExpr(0);
    }
  }

  Gen PathBuiltins(int depth) {
    std::string p = PathExpr(depth - 1);
    switch (rng.Below(9)) {
      case 0: return T("[path(" + p + ")]");
      case 1: return T("del(" + p + ")");
      case 2: return T("[paths(" + Expr(depth - 1).text + ")]");
      case 3: return T("getpath(" + PathLiteral() + ")");
      case 4: return T("setpath(" + PathLiteral() + "; " + Expr(depth - 1).text + ")");
      case 5: return T("delpaths([" + PathLiteral() + (rng.Chance(50) ? ", " + PathLiteral() : "") + "])");
      case 6: return T("to_entries");
      case 7: return T("with_entries(" + std::string(rng.Chance(50) ? ".value |= " + Paren(Single(depth - 1))
                                                                   : "select(" + Expr(depth - 1).text + ")") + ")");
      default: return T("[paths]");
    }
  }

  std::string PathLiteral() {
    int n = rng.Below(3);
    std::string out = "[";
    for (int i = 0; i < n; ++i) {
      if (i) out += ", ";
      out += rng.Chance(60) ? Quote(Key()) : std::to_string(static_cast<int>(rng.Below(4)) - 1);
    }
    return out + "]";
  }

  Gen Assignment(int depth) {
    std::string lhs = PathExpr(depth - 1);
    if (lhs.find('|') != std::string::npos || lhs.find(',') != std::string::npos ||
        lhs.find("//") != std::string::npos) {
      lhs = "(" + lhs + ")";
    }
    switch (rng.Below(8)) {
      // `|=` takes the first output of its right side in 1.7 and 1.6, but they differ when it
      // is empty (1.7 deletes the path): keep it single-valued.
      case 0: case 1: return E(lhs + " |= " + Paren(Single(depth - 1)));
      case 2: return E(lhs + " = " + Paren(Expr(depth - 1)));
      case 3: return E(lhs + " += " + Paren(Expr(depth - 1)));
      case 4: return E(lhs + " -= " + Paren(Expr(depth - 1)));
      case 5: return E(lhs + " *= " + Paren(Expr(depth - 1)));
      case 6: return E(lhs + " //= " + Paren(Expr(depth - 1)));
      default: return E(lhs + (rng.Chance(50) ? " /= " : " %= ") + Paren(Expr(depth - 1)));
    }
  }

  // Builtins with arguments.
  Gen Builtin(int depth) {
    auto arg = [&] { return Expr(depth - 1).text; };
    switch (rng.Below(40)) {
      case 0: return T("select(" + arg() + ")");
      case 1: return T("map(" + arg() + ")");
      case 2: return T("map_values(" + Single(depth - 1).text + ")");
      case 3: return T("has(" + (rng.Chance(50) ? Quote(Key()) : std::to_string(rng.Below(3))) + ")");
      case 4: return T("contains(" + Paren(Literal()) + ")");
      case 5: return T("inside(" + Paren(Literal()) + ")");
      case 6: return T(std::string(rng.Chance(50) ? "startswith(" : "endswith(") + StringLiteral() + ")");
      case 7: return T(std::string(rng.Chance(50) ? "ltrimstr(" : "rtrimstr(") + StringLiteral() + ")");
      case 8: return T("split(" + Quote(rng.Pick(kNeedles)) + ")");
      case 9: return T("join(" + StringLiteral() + ")");
      case 10: {
        std::string args = Quote(rng.Pick(kRegexes)) + (rng.Chance(30) ? "; \"g\"" : "");
        return T(rng.Chance(50) ? "test(" + args + ")" : "[match(" + args + ")]");
      }
      case 11: return T("[capture(" + Quote("(?<x>[a-z])") + ")]");
      case 12: return T("[scan(" + Quote(rng.Pick(kRegexes)) + ")]");
      case 13: return T(std::string(rng.Chance(50) ? "sub(" : "gsub(") + Quote(rng.Pick(kRegexes)) + "; " + StringLiteral() + ")");
      case 14: return T(std::string(rng.Pick(std::vector<std::string>{"sort_by(", "group_by(", "unique_by(", "min_by(", "max_by("})) + arg() + ")");
      // any/all with arguments and IN: jq 1.6 answers wrongly (KNOWN_DIFFERENCES.md B10);
      // `[f] | any` and `[f] | all` keep the same coverage of truthiness.
      case 15: return E("[" + arg() + "] | any");
      case 16: return E("[" + arg() + "] | all");
      case 17: return E("[" + arg() + "] | all | not");
      case 18: return T("flatten(" + std::to_string(rng.Below(3)) + ")");
      case 19: return T("[range(" + std::to_string(rng.Below(5)) + ")]");
      case 20: return T("[range(" + std::to_string(static_cast<int>(rng.Below(4)) - 1) + "; " +
                        std::to_string(rng.Below(6)) + (rng.Chance(40) ? "; " + std::string(rng.Chance(50) ? "2" : "-1") : "") + ")]");
      case 21: return T("pow(" + arg() + "; " + Paren(Literal()) + ")");
      case 22: return T("[limit(" + rng.Pick(std::vector<std::string>{"1", "2", "3", "-1"}) + "; " + arg() + ")]");
      case 23: return T(std::string(rng.Chance(50) ? "first(" : "last(") + arg() + ")");
      case 24: return T("[nth(0; " + arg() + ")]");
      case 25: return T("nth(" + std::to_string(rng.Below(3)) + ")");
      case 26: return T(std::string(rng.Pick(std::vector<std::string>{"indices(", "index(", "rindex("})) +
                        (rng.Chance(70) ? Quote(rng.Pick(kNeedles)) : std::string("1")) + ")");
      case 27: return T("[splits(" + Quote(rng.Pick(kRegexes)) + ")]");
      case 28: return T("tostream");
      case 29: return T("fromstream(tostream)");
      case 30: return E("[.[]?] | walk(" + Single(depth - 1).text + ")");
      case 31: return T("isempty(" + ArgWithoutTry(depth) + ")");
      case 32: return T("isempty(" + ArgWithoutTry(depth) + ") | not");
      case 33: return T("error(" + StringLiteral() + ")");
      case 34: return E("[.[]?] | combinations(" + std::to_string(rng.Below(3)) + ")");
      case 35: return T("in(" + Paren(Literal()) + ")");
      case 36: return T("ascii_downcase");
      case 37: return E("[" + arg() + "] | add");
      case 38: return T("getpath(" + PathLiteral() + ")");
      default: return E("tojson | fromjson");
    }
  }

  // Arguments of isempty, which jq 1.6 implements with label/break: kept free of `?` and `try`
  // (KNOWN_DIFFERENCES.md L5: a 1.6 try can catch what is raised after its output).
  std::string ArgWithoutTry(int depth) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      std::string text = Expr(depth - 1).text;
      if (text.find('?') == std::string::npos && text.find("try") == std::string::npos) return text;
    }
    return FieldAccess();
  }

  // Loops with guaranteed termination.
  Gen Canned(int depth) {
    switch (rng.Below(6)) {
      case 0: return T("[recurse]");
      case 1: return T("[recurse(.[]?; " + Expr(depth - 1).text + ")]");
      case 2: return T("[while(length > 0; .[1:])]");
      case 3: return T("until(length < 2; .[1:])");
      case 4: return T("[recurse(if . == null then 0 elif type == \"number\" and . < 3 then . + 1 else empty end)]");
      default: return T("[..]");
    }
  }

  // Expressions that yield exactly one value or raise an error.
  Gen Single(int depth) {
    if (depth <= 0) {
      switch (rng.Below(7)) {
        case 0: return T(".");
        case 1: case 2: return T(FieldAccess());
        case 3: return Literal();
        case 4:
          if (!vars.empty()) return T("$" + rng.Pick(vars));
          return T(".[0]");
        case 5: return T(rng.Pick(std::vector<std::string>{"length", "type", "tostring", "keys", "not", "tojson", "add", "sort", kReverse, "floor", "ascii_downcase", "to_entries"}));
        default: return T(".[" + std::to_string(static_cast<int>(rng.Below(3)) - 1) + "]");
      }
    }
    switch (rng.Below(9)) {
      case 0: return E(Paren(Single(depth - 1)) + " " + rng.Pick(std::vector<std::string>{"+", "-", "*", "/", "%", "==", "<", ">="}) + " " + Paren(Single(depth - 1)));
      case 1: return T("[" + Expr(depth - 1).text + "]");
      case 2: return T("{" + Quote(Key()) + ": " + Paren(Single(depth - 1)) + "}");
      case 3: return E("if " + Single(depth - 1).text + " then " + Single(depth - 1).text + " else " + Single(depth - 1).text + " end");
      case 4: return E(Single(depth - 1).text + " | " + Single(depth - 1).text);
      case 5: return E(Paren(Single(depth - 1)) + " // " + Paren(Single(depth - 1)));
      case 6: {
        std::string base = Paren(Single(depth - 1));
        if (base == "." || base == "..") base = "(" + base + ")";
        return T(base + "." + (rng.Chance(50) ? "a" : "b"));
      }
      case 7: return E("[" + Expr(depth - 1).text + "] | length");
      default: return Single(0);
    }
  }
};

ProgramGenerator::ProgramGenerator(uint64_t seed, GeneratorOptions options)
    : rng_(seed), options_(options) {}

std::string ProgramGenerator::Next() {
  Impl impl(rng_, options_);
  int depth = 1 + static_cast<int>(rng_.Below(static_cast<uint32_t>(options_.max_depth)));
  return impl.Expr(depth).text;
}

JsonGenerator::JsonGenerator(uint64_t seed, GeneratorOptions options)
    : rng_(seed), options_(options) {}

std::string JsonGenerator::Next() {
  std::string out;
  // Generated programs mostly navigate objects: a top-level object keeps more cases out of
  // type errors, so more of them compare actual outputs.
  uint32_t top = rng_.Below(100);
  if (top < 55) {
    EmitContainer(false, options_.max_json_depth, &out);
  } else if (top < 80) {
    EmitContainer(true, options_.max_json_depth, &out);
  } else {
    Emit(options_.max_json_depth, &out);
  }
  return out;
}

void JsonGenerator::Emit(int depth, std::string* out) {
  uint32_t kind = depth <= 0 ? rng_.Below(6) : rng_.Below(10);
  switch (kind) {
    case 0: *out += "null"; return;
    case 1: *out += rng_.Chance(50) ? "true" : "false"; return;
    case 2: case 3: *out += rng_.Pick(kInputNumbers); return;
    case 4: case 5: *out += Quote(rng_.Pick(kStrings)); return;
    case 6: case 7: EmitContainer(true, depth, out); return;
    default: EmitContainer(false, depth, out); return;
  }
}

void JsonGenerator::EmitContainer(bool array, int depth, std::string* out) {
  int n = rng_.Below(5);
  if (array) {
    *out += "[";
    for (int i = 0; i < n; ++i) {
      if (i) *out += ",";
      Emit(depth - 1, out);
    }
    *out += "]";
    return;
  }
  std::set<std::string> used;
  *out += "{";
  bool first = true;
  for (int i = 0; i < n; ++i) {
    std::string k = rng_.Pick(kKeys);
    if (!used.insert(k).second) continue;
    if (!first) *out += ",";
    first = false;
    *out += Quote(k) + ":";
    Emit(depth - 1, out);
  }
  *out += "}";
}

std::string FindExcludedConstruct(const std::string& program) {
  // Identifiers (outside string literals and not `$variables`) the generator never emits.
  static const std::vector<std::pair<std::string, const char*>> kIdentifiers = {
      {"abs", "abs: not defined in 1.6 (KNOWN_DIFFERENCES: new builtins)"},
      {"toarray", "toarray: not defined in 1.6 (KNOWN_DIFFERENCES: new builtins)"},
      {"pick", "pick: not defined in 1.6 (KNOWN_DIFFERENCES: new builtins)"},
      {"have_literal_numbers", "not defined in 1.6 (KNOWN_DIFFERENCES: new builtins)"},
      {"have_decnum", "not defined in 1.6 (KNOWN_DIFFERENCES: new builtins)"},
      {"ascii", "ascii: not defined in 1.6 (KNOWN_DIFFERENCES: new builtins)"},
      {"input", "input: no input stream"}, {"inputs", "inputs: no input stream"},
      {"debug", "debug: side effect"}, {"stderr", "stderr: side effect"},
      {"input_filename", "input_filename: host-dependent"},
      {"input_line_number", "input_line_number: host-dependent"},
      {"halt", "halt: ends the process"}, {"halt_error", "halt_error: ends the process"},
      {"env", "env: nondeterministic"}, {"now", "now: nondeterministic"},
      {"repeat", "repeat: unbounded"}, {"builtins", "builtins: lists differ by version"},
  };
  static const std::vector<std::pair<std::string, const char*>> kSubstrings = {
      {"limit(0", "limit(0; f) (KNOWN_DIFFERENCES: limit(0))"},
      {"error(null)", "error(null) (KNOWN_DIFFERENCES: error(null))"},
      {"@base32", "@base32 and @base32d (KNOWN_DIFFERENCES: B7)"},
      {"indices(\"\")", "indices of \"\" (KNOWN_DIFFERENCES: indices of an empty string)"},
      {"index(\"\")", "index of \"\" (KNOWN_DIFFERENCES: indices of an empty string)"},
      {"|= empty", "|= empty (KNOWN_DIFFERENCES: update with empty)"},
      {"$ENV", "$ENV: nondeterministic"},
  };
  // Identifiers, numbers and `?` placement are read from the code only (string literal text
  // blanked, interpolations kept).
  const std::string code = CodeOnly(program);
  for (size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    // A generic `?` must end an array element: `[(E)?]` (KNOWN_DIFFERENCES: try catches too much).
    if (c == ')' && i + 1 < code.size() && code[i + 1] == '?' &&
        !(i + 2 < code.size() && (code[i + 2] == ']' || code[i + 2] == '/'))) {
      return "`(...)?` outside an array collector (KNOWN_DIFFERENCES: try catches too much)";
    }
    if (std::isdigit(static_cast<unsigned char>(c)) &&
        !(i > 0 && (std::isalnum(static_cast<unsigned char>(code[i - 1])) || code[i - 1] == '_'))) {
      size_t start = i;
      int digits = 0;
      while (i < code.size() && (std::isdigit(static_cast<unsigned char>(code[i])) || code[i] == '.')) {
        digits += code[i] != '.';
        ++i;
      }
      if (i < code.size() && (code[i] == 'e' || code[i] == 'E')) {
        return "number literal with an exponent (KNOWN_DIFFERENCES: L6)";
      }
      if (digits > 15) return "number literal beyond double precision (KNOWN_DIFFERENCES: L6)";
      size_t next = code.find_first_not_of(' ', i);
      if (next != std::string::npos && code[next] == '/' && next + 1 < code.size() &&
          code[next + 1] != '/' && code[next + 1] != '=') {
        size_t operand = code.find_first_not_of(" -", next + 1);
        if (operand != std::string::npos && std::isdigit(static_cast<unsigned char>(code[operand]))) {
          return "division of two number literals (KNOWN_DIFFERENCES: L7)";
        }
      }
      (void)start;
      --i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = i;
      while (i + 1 < code.size() &&
             (std::isalnum(static_cast<unsigned char>(code[i + 1])) || code[i + 1] == '_')) {
        ++i;
      }
      bool is_variable_or_field = start > 0 && (code[start - 1] == '$' || code[start - 1] == '.' ||
                                                code[start - 1] == '@');
      if (is_variable_or_field) continue;
      std::string word = code.substr(start, i - start + 1);
      for (const auto& [name, reason] : kIdentifiers) {
        if (word == name) return reason;
      }
      if (word == "try" && !(start >= 1 && code[start - 1] == '[')) {
        return "`try` outside an array collector (KNOWN_DIFFERENCES: try catches too much)";
      }
      if ((word == "any" || word == "all" || word == "IN") && i + 1 < code.size() &&
          code[i + 1] == '(') {
        return "any/all/IN with arguments (KNOWN_DIFFERENCES: B10)";
      }
      static const std::string kReverseGuard = "explode else . end | ";
      if (word == "reverse" &&
          !(start >= kReverseGuard.size() &&
            code.compare(start - kReverseGuard.size(), kReverseGuard.size(), kReverseGuard) == 0)) {
        return "reverse of a possible string (KNOWN_DIFFERENCES: B12)";
      }
      if (word == "implode" && !(start >= 8 && code.compare(start - 8, 8, "explode|") == 0)) {
        return "implode of arbitrary code points (KNOWN_DIFFERENCES: implode)";
      }
      if (word == "nth" && code.compare(i + 1, 3, "(0;") != 0 &&
          code.find(';', i + 1) < code.find(')', i + 1)) {
        return "nth(n; f) with n > 0 (KNOWN_DIFFERENCES: nth past the end)";
      }
    }
  }
  for (const auto& [needle, reason] : kSubstrings) {
    if (*reason != '\0' && program.find(needle) != std::string::npos) return reason;
  }
  return "";
}

}  // namespace wm::diff
