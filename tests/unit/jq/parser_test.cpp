// Tests of the jq front end: every construct parses to the expected AST shape (written as an
// S-expression), jq's precedence and associativity, byte ranges, syntax diagnostics with their
// positions, and hostile input (huge, deeply nested, invalid UTF-8, NUL) giving diagnostics.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "compiler/jq/parser.h"

namespace wm::jq {
namespace {

// (Kind text kids...) without ranges; null kids print as `_`.
std::string Sexp(const Node* node) {
  if (node == nullptr) return "_";
  std::string out = "(";
  out += KindName(node->kind);
  if (!node->text.empty()) out += " " + node->text;
  if (!node->format.empty()) out += " " + node->format;
  for (const auto& p : node->params) out += " " + p;
  for (const auto& kid : node->kids) out += " " + Sexp(kid.get());
  out += ")";
  return out;
}

std::string Shape(std::string_view text) {
  ParseResult r = Parse(text);
  if (!r.ok()) {
    std::string out = "ERROR";
    for (const auto& d : r.diagnostics) out += " " + d.message;
    return out;
  }
  return Sexp(r.ast.get());
}

std::string FirstError(std::string_view text, const ParseOptions& options = {}) {
  ParseResult r = Parse(text, options);
  if (r.ok() || r.diagnostics.empty()) return "OK";
  const Diagnostic& d = r.diagnostics.front();
  return d.rule + " " + std::to_string(d.location.line) + ":" + std::to_string(d.location.column) +
         " " + d.message;
}

TEST(JqParserTest, Paths) {
  EXPECT_EQ(Shape("."), "(Identity)");
  EXPECT_EQ(Shape(".."), "(RecurseDefault)");
  EXPECT_EQ(Shape(".foo"), "(Field foo _)");
  EXPECT_EQ(Shape(".\"foo bar\""), "(Field foo bar _)");
  EXPECT_EQ(Shape(".[\"foo\"]"), "(Index _ (String foo))");
  EXPECT_EQ(Shape(".[0]"), "(Index _ (Number 0))");
  EXPECT_EQ(Shape(".[1:2]"), "(Slice _ (Number 1) (Number 2))");
  EXPECT_EQ(Shape(".[:2]"), "(Slice _ _ (Number 2))");
  EXPECT_EQ(Shape(".[1:]"), "(Slice _ (Number 1) _)");
  EXPECT_EQ(Shape(".[]"), "(Iterate _)");
  EXPECT_EQ(Shape(".[]?"), "(Optional (Iterate _))");
  EXPECT_EQ(Shape(".a.b"), "(Field b (Field a _))");
  EXPECT_EQ(Shape(".a.[0]"), "(Index (Field a _) (Number 0))");
  EXPECT_EQ(Shape(".a?.b"), "(Field b (Optional (Field a _)))");
  EXPECT_EQ(Shape("$x[0]"), "(Index (Variable x) (Number 0))");
  EXPECT_EQ(Shape("(1,2)[1:]"), "(Slice (Paren (Comma (Number 1) (Number 2))) (Number 1) _)");
  EXPECT_EQ(Shape("\"abc\"[1:]"), "(Slice (String abc) (Number 1) _)");
  EXPECT_EQ(Shape(".and"), "(Field and _)");
  EXPECT_EQ(Shape(". .a"), "(Field a _)");
  EXPECT_EQ(Shape(".a.\"b\\(1)\""), "(Index (Field a _) (String (String b) (Number 1)))");
  EXPECT_EQ(Shape("..?"), "(Optional (RecurseDefault))");
}

TEST(JqParserTest, Literals) {
  EXPECT_EQ(Shape("null"), "(Null)");
  EXPECT_EQ(Shape("true, false"), "(Comma (True) (False))");
  EXPECT_EQ(Shape("1.5e3"), "(Number 1.5e3)");
  ParseResult big = Parse("100000000000000000000000");
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big.ast->text, "100000000000000000000000");
  EXPECT_DOUBLE_EQ(big.ast->number, 1e23);
  ParseResult huge = Parse("1e1000");
  ASSERT_TRUE(huge.ok());
  EXPECT_TRUE(std::isfinite(huge.ast->number));
  EXPECT_EQ(Shape("\"a\\n\\t\\\"\\\\\\/\\u00e9\""), "(String a\n\t\"\\/\xC3\xA9)");
  EXPECT_EQ(Shape("\"\\ud83d\\ude00\""), "(String \xF0\x9F\x98\x80)");
  EXPECT_EQ(Shape("\"a\\(1 + 2)b\""), "(String (String a) (Arith + (Number 1) (Number 2)) (String b))");
  EXPECT_EQ(Shape("\"\\(\"x\")\""), "(String (Paren (String x)))");
  EXPECT_EQ(Shape("\"\\(\"in\\(1)\")\""), "(String (String (String in) (Number 1)))");
  EXPECT_EQ(Shape("@base64 \"x\\(.)\""), "(String @base64 (String x) (Identity))");
  EXPECT_EQ(Shape("@base64"), "(Format base64)");
  EXPECT_EQ(Shape("[]"), "(Array)");
  EXPECT_EQ(Shape("[1, 2]"), "(Array (Comma (Number 1) (Number 2)))");
  EXPECT_EQ(Shape("$__loc__"), "(Variable __loc__)");
  EXPECT_EQ(Shape("$ENV"), "(Variable ENV)");
}

TEST(JqParserTest, Objects) {
  EXPECT_EQ(Shape("{}"), "(Object)");
  EXPECT_EQ(Shape("{a: 1}"), "(Object (ObjectEntry (String a) (Number 1)))");
  EXPECT_EQ(Shape("{a}"), "(Object (ObjectEntry (String a) _))");
  EXPECT_EQ(Shape("{if: 1}"), "(Object (ObjectEntry (String if) (Number 1)))");
  EXPECT_EQ(Shape("{\"a\"}"), "(Object (ObjectEntry (String a) _))");
  EXPECT_EQ(Shape("{\"a\\(1)\": 2}"), "(Object (ObjectEntry (String (String a) (Number 1)) (Number 2)))");
  EXPECT_EQ(Shape("{$x}"), "(Object (ObjectEntry (Variable x) _))");
  EXPECT_EQ(Shape("{$x: 1}"), "(Object (ObjectEntry (Variable x) (Number 1)))");
  EXPECT_EQ(Shape("{$__loc__}"), "(Object (ObjectEntry (Variable __loc__) _))");
  EXPECT_EQ(Shape("{(.a): 1}"), "(Object (ObjectEntry (Paren (Field a _)) (Number 1)))");
  EXPECT_EQ(Shape("{@base64 \"k\": 1}"), "(Object (ObjectEntry (String k @base64) (Number 1)))");
  EXPECT_EQ(Shape("{a: .b | .c}"), "(Object (ObjectEntry (String a) (Pipe (Field b _) (Field c _))))");
  EXPECT_EQ(Shape("{a: -1}"), "(Object (ObjectEntry (String a) (Neg (Number 1))))");
  EXPECT_EQ(Shape("{a: 1,}"), "(Object (ObjectEntry (String a) (Number 1)))");
  EXPECT_EQ(Shape("{a: 1, b}"), "(Object (ObjectEntry (String a) (Number 1)) (ObjectEntry (String b) _))");
}

TEST(JqParserTest, PrecedenceAndAssociativity) {
  EXPECT_EQ(Shape("1 | 2 | 3"), "(Pipe (Number 1) (Pipe (Number 2) (Number 3)))");
  EXPECT_EQ(Shape("1, 2 | 3"), "(Pipe (Comma (Number 1) (Number 2)) (Number 3))");
  EXPECT_EQ(Shape("1, 2, 3"), "(Comma (Comma (Number 1) (Number 2)) (Number 3))");
  EXPECT_EQ(Shape("1 // 2 // 3"), "(Alternative (Number 1) (Alternative (Number 2) (Number 3)))");
  EXPECT_EQ(Shape("1, 2 // 3"), "(Comma (Number 1) (Alternative (Number 2) (Number 3)))");
  EXPECT_EQ(Shape(".a = 1 // 2"), "(Alternative (Assign = (Field a _) (Number 1)) (Number 2))");
  EXPECT_EQ(Shape(".a |= 1 or 2"), "(Assign |= (Field a _) (Or (Number 1) (Number 2)))");
  EXPECT_EQ(Shape("1 or 2 and 3"), "(Or (Number 1) (And (Number 2) (Number 3)))");
  EXPECT_EQ(Shape("1 and 2 == 3"), "(And (Number 1) (Compare == (Number 2) (Number 3)))");
  EXPECT_EQ(Shape("1 == 2 + 3"), "(Compare == (Number 1) (Arith + (Number 2) (Number 3)))");
  EXPECT_EQ(Shape("1 + 2 * 3"), "(Arith + (Number 1) (Arith * (Number 2) (Number 3)))");
  EXPECT_EQ(Shape("1 - 2 - 3"), "(Arith - (Arith - (Number 1) (Number 2)) (Number 3))");
  EXPECT_EQ(Shape("1 / 2 % 3"), "(Arith % (Arith / (Number 1) (Number 2)) (Number 3))");
  // jq: unary minus binds like binary minus, so it takes a following `*` chain.
  EXPECT_EQ(Shape("-1 * 2"), "(Neg (Arith * (Number 1) (Number 2)))");
  EXPECT_EQ(Shape("-1 + 2"), "(Arith + (Neg (Number 1)) (Number 2))");
  EXPECT_EQ(Shape("2 * -3 * 4"), "(Arith * (Number 2) (Neg (Arith * (Number 3) (Number 4))))");
  EXPECT_EQ(Shape("1 - -1"), "(Arith - (Number 1) (Neg (Number 1)))");
  EXPECT_EQ(Shape("- -1"), "(Neg (Neg (Number 1)))");
  // Non-associative levels.
  EXPECT_NE(FirstError("1 == 2 == 3"), "OK");
  EXPECT_NE(FirstError(".a = 1 = 2"), "OK");
  EXPECT_NE(FirstError("1 < 2 > 3"), "OK");
  // Postfix `?` binds to the term.
  EXPECT_EQ(Shape("1 + .a?"), "(Arith + (Number 1) (Optional (Field a _)))");
}

TEST(JqParserTest, AssignmentOperators) {
  for (const char* op : {"=", "|=", "+=", "-=", "*=", "/=", "%=", "//="}) {
    EXPECT_EQ(Shape(std::string(".a ") + op + " 1"), std::string("(Assign ") + op + " (Field a _) (Number 1))");
  }
}

TEST(JqParserTest, BindingsExtendToTheEndOfThePipe) {
  EXPECT_EQ(Shape(".a as $x | $x | .b"),
            "(Bind (Field a _) (PatternVar x) (Pipe (Variable x) (Field b _)))");
  EXPECT_EQ(Shape("1 + 2 as $x | $x, 3"),
            "(Arith + (Number 1) (Bind (Number 2) (PatternVar x) (Comma (Variable x) (Number 3))))");
  EXPECT_EQ(Shape(".a, .b as $x | $x"),
            "(Comma (Field a _) (Bind (Field b _) (PatternVar x) (Variable x)))");
  EXPECT_EQ(Shape("(.a as $x | $x) | 1"),
            "(Pipe (Paren (Bind (Field a _) (PatternVar x) (Variable x))) (Number 1))");
  EXPECT_EQ(Shape(". as [$a, {b: $c, $d}] | $a"),
            "(Bind (Identity) (PatternArray (PatternVar a) (PatternObject (PatternEntry (String b) "
            "(PatternVar c)) (PatternEntry (Variable d) _))) (Variable a))");
  EXPECT_EQ(Shape(". as {$a: [$b], (\"x\"): $c, \"y\": $d} | 1"),
            "(Bind (Identity) (PatternObject (PatternEntry (Variable a) (PatternArray (PatternVar b))) "
            "(PatternEntry (Paren (String x)) (PatternVar c)) (PatternEntry (String y) (PatternVar d))) "
            "(Number 1))");
  EXPECT_EQ(Shape(". as [$a] ?// $a | $a"),
            "(Bind (Identity) (PatternArray (PatternVar a)) (PatternVar a) (Variable a))");
  EXPECT_EQ(Shape("label $out | 1, break $out"),
            "(Label out (Comma (Number 1) (Break out)))");
  EXPECT_EQ(Shape("try .a as $x | $x"),
            "(TryCatch (Bind (Field a _) (PatternVar x) (Variable x)) _)");
  EXPECT_EQ(FirstError(".a as $x"), "WM100 1:9 unexpected end of input; expected '|' after the pattern of 'as'");
  EXPECT_EQ(FirstError(".a as $x, 1 | 2"), "WM100 1:9 unexpected ','; expected '|' after the pattern of 'as'");
  EXPECT_EQ(FirstError("label $x"), "WM100 1:9 unexpected end of input; expected '|' after 'label $x'");
}

TEST(JqParserTest, Definitions) {
  EXPECT_EQ(Shape("def f: 1; f"), "(FuncDef f (Number 1) (Call f))");
  EXPECT_EQ(Shape("def f(a; $b): a + $b; f(1; 2)"),
            "(FuncDef f a $b (Arith + (Call a) (Variable b)) (Call f (Number 1) (Number 2)))");
  EXPECT_EQ(Shape("def f: def g: 3; g; f"), "(FuncDef f (FuncDef g (Number 3) (Call g)) (Call f))");
  EXPECT_EQ(Shape(".a | def f: 1; f | 2"),
            "(Pipe (Field a _) (FuncDef f (Number 1) (Pipe (Call f) (Number 2))))");
  EXPECT_EQ(Shape("def f: 1; def g: 2;"), "(FuncDef f (Number 1) (FuncDef g (Number 2) _))");
}

// jq's `Exp: FuncDef Exp` has the lowest precedence: a definition after any binary operator
// scopes over the whole rest of the expression, `|` segments included.
TEST(JqParserTest, DefinitionsAfterOperators) {
  EXPECT_EQ(Shape("1, def f: 2; f"), "(Comma (Number 1) (FuncDef f (Number 2) (Call f)))");
  EXPECT_EQ(Shape("1 + def f: 2; f"), "(Arith + (Number 1) (FuncDef f (Number 2) (Call f)))");
  EXPECT_EQ(Shape("1, def f: 2; f | g"),
            "(Comma (Number 1) (FuncDef f (Number 2) (Pipe (Call f) (Call g))))");
  EXPECT_EQ(Shape("1 + def f: 2; f * 3, 4"),
            "(Arith + (Number 1) (FuncDef f (Number 2) (Comma (Arith * (Call f) (Number 3)) (Number 4))))");
  EXPECT_EQ(Shape("1, 2 + def f: 3; f * 4 + 5 // 6"),
            "(Comma (Number 1) (Arith + (Number 2) (FuncDef f (Number 3) "
            "(Alternative (Arith + (Arith * (Call f) (Number 4)) (Number 5)) (Number 6)))))");
  EXPECT_EQ(Shape("a // def f: 1; f // b"),
            "(Alternative (Call a) (FuncDef f (Number 1) (Alternative (Call f) (Call b))))");
  EXPECT_EQ(Shape("1, def f: 2; def g: 3; f, g"),
            "(Comma (Number 1) (FuncDef f (Number 2) (FuncDef g (Number 3) (Comma (Call f) (Call g)))))");
  EXPECT_EQ(Shape("1, def f: 2; f + def g: 3; g * 2, 4 | 5"),
            "(Comma (Number 1) (FuncDef f (Number 2) (Arith + (Call f) (FuncDef g (Number 3) "
            "(Pipe (Comma (Arith * (Call g) (Number 2)) (Number 4)) (Number 5))))))");
  EXPECT_EQ(Shape("1 == def f: 1; f, 2"),
            "(Compare == (Number 1) (FuncDef f (Number 1) (Comma (Call f) (Number 2))))");
  EXPECT_EQ(Shape(".a |= def f: 1; f"),
            "(Assign |= (Field a _) (FuncDef f (Number 1) (Call f)))");
  EXPECT_EQ(Shape("true and def f: 1; f or 2"),
            "(And (True) (FuncDef f (Number 1) (Or (Call f) (Number 2))))");
  EXPECT_EQ(Shape("1, def f: 2; . as $x | $x"),
            "(Comma (Number 1) (FuncDef f (Number 2) (Bind (Identity) (PatternVar x) (Variable x))))");
  EXPECT_EQ(Shape("(1, def f: 2; f) | f"),
            "(Pipe (Paren (Comma (Number 1) (FuncDef f (Number 2) (Call f)))) (Call f))");
  EXPECT_EQ(Shape("-1 * def f: 2; f"),
            "(Neg (Arith * (Number 1) (FuncDef f (Number 2) (Call f))))");
  // The definition's byte range runs to the end of the expression it scopes over.
  ParseResult r = Parse("1, def f: 2; f | g");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.ast->range.end, 18u);
  EXPECT_EQ(r.ast->kids[1]->range.begin, 3u);
  EXPECT_EQ(r.ast->kids[1]->range.end, 18u);
  // A head before the definition is still not followed by its `|`.
  EXPECT_NE(FirstError(". as $x, def f: 1; f | $x"), "OK");
  EXPECT_NE(FirstError("1 + def f: 2;"), "OK");
  EXPECT_NE(FirstError("1, def f: 2"), "OK");
}

// A definition may open the operand of every binary operator (and of a prefix `-`, `try`,
// `catch`); as in jq its scope is the rest of the expression, which for the non-associative
// comparisons and assignments may hold the same operator again (`1 == def f: 1; f == 2`).
TEST(JqParserTest, DefinitionAfterEveryOperatorKind) {
  struct Case {
    const char* op;
    const char* node;  // how the S-expression names the operator's node
  };
  const Case cases[] = {
      {"|", "Pipe"},          {",", "Comma"},         {"//", "Alternative"},  {"=", "Assign ="},
      {"|=", "Assign |="},    {"+=", "Assign +="},    {"-=", "Assign -="},    {"*=", "Assign *="},
      {"/=", "Assign /="},    {"%=", "Assign %="},    {"//=", "Assign //="},  {"or", "Or"},
      {"and", "And"},         {"==", "Compare =="},   {"!=", "Compare !="},   {"<", "Compare <"},
      {"<=", "Compare <="},   {">", "Compare >"},     {">=", "Compare >="},   {"+", "Arith +"},
      {"-", "Arith -"},       {"*", "Arith *"},       {"/", "Arith /"},       {"%", "Arith %"},
  };
  for (const Case& c : cases) {
    std::string op = c.op;
    std::string node = c.node;
    EXPECT_EQ(Shape("1 " + op + " def f: 2; f"),
              "(" + node + " (Number 1) (FuncDef f (Number 2) (Call f)))")
        << op;
    // The same operator again belongs to the definition's scope.
    EXPECT_EQ(Shape("1 " + op + " def f: 2; f " + op + " 3"),
              "(" + node + " (Number 1) (FuncDef f (Number 2) (" + node + " (Call f) (Number 3))))")
        << op;
    // So does everything after it, `|` included.
    if (op != "|") {
      EXPECT_EQ(Shape("1 " + op + " def f: 2; f | 4"),
                "(" + node + " (Number 1) (FuncDef f (Number 2) (Pipe (Call f) (Number 4))))")
          << op;
    }
  }
  // The same inside brackets, parentheses and arguments (a pipe of one segment).
  EXPECT_EQ(Shape("[1, def f: 2; f * 3, 4]"),
            "(Array (Comma (Number 1) (FuncDef f (Number 2) (Comma (Arith * (Call f) (Number 3)) "
            "(Number 4)))))");
  EXPECT_EQ(Shape("g(1 == def f: 2; f == 3)"),
            "(Call g (Compare == (Number 1) (FuncDef f (Number 2) (Compare == (Call f) (Number 3)))))");
  // ... where a head still needs its `|` body.
  EXPECT_EQ(FirstError("def f: . as $x; f"),
            "WM100 1:15 unexpected ';'; expected '|' after the pattern of 'as'");
  EXPECT_EQ(FirstError("[label $out]"), "WM100 1:12 unexpected ']'; expected '|' after 'label $out'");
  // Inside the scope the operators keep their own rules: a third `==` is still an error.
  EXPECT_EQ(FirstError("1 == def f: 1; f == 2 == 3"),
            "WM100 1:23 unexpected '==': jq's comparisons do not chain; parenthesise one side "
            "(`(a == b) == c`)");
  // Prefix operators take a whole expression in jq 1.7, so a definition may follow them too.
  EXPECT_EQ(Shape("-def f: 1; f, 2"), "(Neg (FuncDef f (Number 1) (Comma (Call f) (Number 2))))");
  EXPECT_EQ(Shape("try def f: 1; f + 1"),
            "(TryCatch (FuncDef f (Number 1) (Arith + (Call f) (Number 1))) _)");
  EXPECT_EQ(Shape("try 1 catch def f: 2; f, 3"),
            "(TryCatch (Number 1) (FuncDef f (Number 2) (Comma (Call f) (Number 3))))");
  // ... but a definition in a `try` body ends at `catch`.
  EXPECT_EQ(Shape("try def f: 1; f catch 2 | 3"),
            "(Pipe (TryCatch (FuncDef f (Number 1) (Call f)) (Number 2)) (Number 3))");
}

// jq 1.7's grammar: `reduce`, `foreach` and `if` are whole expressions, not terms, and so is `x?`
// unless the `?` follows `.a`, `."a"` or `[...]`. Such an expression takes no postfix, no `as`, and
// is no object value or `reduce`/`foreach` source without parentheses; `try x? catch` is
// `(try x)? catch`. (1.8 made them terms; the front end follows 1.7.)
TEST(JqParserTest, OnlyJq17TermsTakePostfixes) {
  EXPECT_EQ(Shape(".a?[0]"), "(Index (Optional (Field a _)) (Number 0))");
  EXPECT_EQ(Shape(".[0]?.b"), "(Field b (Optional (Index _ (Number 0))))");
  EXPECT_EQ(Shape(".a[]?[1:]"), "(Slice (Optional (Iterate (Field a _))) (Number 1) _)");
  EXPECT_EQ(Shape("if . then 1 end?"), "(Optional (If (Identity) (Number 1) _))");
  EXPECT_EQ(Shape("reduce .[] as $x (0; 1)?"),
            "(Optional (Reduce (Iterate _) (PatternVar x) (Number 0) (Number 1)))");
  EXPECT_EQ(Shape("(if . then 1 end)[0]"), "(Index (Paren (If (Identity) (Number 1) _)) (Number 0))");
  EXPECT_EQ(Shape("-reduce .[] as $x (0; 1)"),
            "(Neg (Reduce (Iterate _) (PatternVar x) (Number 0) (Number 1)))");
  EXPECT_EQ(Shape("break $out[0]"), "(Index (Break out) (Number 0))");
  EXPECT_EQ(Shape("{a: .b?}"), "(Object (ObjectEntry (String a) (Optional (Field b _))))");
  EXPECT_EQ(Shape("try .a? catch 1"), "(TryCatch (Optional (Field a _)) (Number 1))");
  EXPECT_EQ(Shape("try -$x? catch 1"), "(TryCatch (Neg (Optional (Variable x))) (Number 1))");
  EXPECT_EQ(Shape(".a??"), "(Optional (Optional (Field a _)))");

  EXPECT_EQ(FirstError("if . then 1 else 2 end[0]"),
            "WM100 1:23 postfix index after `if ... end` needs parentheses: write `(if ... end)[0]`");
  EXPECT_EQ(FirstError("reduce .[] as $x (0; . + $x)[0]"),
            "WM100 1:29 postfix index after `reduce` needs parentheses: write `(reduce ...)[0]`");
  EXPECT_EQ(FirstError("foreach .[] as $x (0; 1)?.a"),
            "WM100 1:26 postfix field after `foreach` needs parentheses: write `(foreach ...?).a`");
  EXPECT_EQ(FirstError("if . then [1] end[]"),
            "WM100 1:18 postfix iteration after `if ... end` needs parentheses: write `(if ... end)[]`");
  EXPECT_EQ(FirstError("$x?[0]"),
            "WM100 1:4 postfix index after `?` needs parentheses: write `($x?)[0]`");
  EXPECT_EQ(FirstError(".a??.b"), "WM100 1:5 postfix field after `?` needs parentheses: write `(.a?" "?).b`");
  EXPECT_EQ(FirstError("f?[1:]"), "WM100 1:3 postfix slice after `?` needs parentheses: write `(f?)[1:]`");
  EXPECT_EQ(FirstError("if . then 1 end as $x | $x"),
            "WM100 1:17 `if ... end` needs parentheses before `as`: write `(if ... end) as ...`");
  EXPECT_EQ(FirstError("$x? as $y | $y"),
            "WM100 1:5 `?` needs parentheses before `as`: write `($x?) as ...`");
  EXPECT_EQ(FirstError("reduce $x? as $y (0; 1)"),
            "WM100 1:10 `?` needs parentheses as the source of `reduce`: write `reduce ($x?) as ...`");
  EXPECT_EQ(FirstError("foreach if . then 1 end as $y (0; 1)"),
            "WM100 1:9 `if ... end` needs parentheses as the source of `foreach`: write "
            "`foreach (if ... end) as ...`");
  EXPECT_EQ(FirstError("{a: 1?}"),
            "WM100 1:6 `?` needs parentheses in an object value: write `(1?)`");
  EXPECT_EQ(FirstError("{a: .b | reduce .[] as $x (0; 1)}"),
            "WM100 1:10 `reduce` needs parentheses in an object value: write `(reduce ...)`");
  EXPECT_EQ(FirstError("try $x? catch 1"),
            "WM100 1:9 `catch` after `try x?`: jq reads `try x?` as `(try x)?`, which leaves `catch` "
            "without its `try`: write `try ($x?) catch ...`");
  // `try` binds one term, as in jq: `try a + b catch c` is `(try a) + b catch c`, an error.
  EXPECT_EQ(FirstError("try .a + .b catch 0"),
            "WM100 1:13 unexpected keyword 'catch': there is no open `try` for it (`try` binds only "
            "the term after it: `try a + b` is `(try a) + b`; write `try (a + b) catch ...`)");
  EXPECT_EQ(FirstError(".a catch 0"),
            "WM100 1:4 unexpected keyword 'catch': there is no open `try` for it");
  EXPECT_EQ(FirstError("try (.a | .b catch 0)"),
            "WM100 1:14 unexpected keyword 'catch': there is no open `try` for it");
  // A long term is shortened in the suggestion.
  EXPECT_EQ(FirstError("[.items[] | select(.ready)]?[0]"),
            "WM100 1:29 postfix index after `?` needs parentheses: write `([.items[] | select(....?)[0]`");
}

TEST(JqParserTest, ControlFlow) {
  EXPECT_EQ(Shape("reduce .[] as $x (0; . + $x)"),
            "(Reduce (Iterate _) (PatternVar x) (Number 0) (Arith + (Identity) (Variable x)))");
  EXPECT_EQ(Shape("foreach .[] as $x (0; 1)"), "(Foreach (Iterate _) (PatternVar x) (Number 0) (Number 1) _)");
  EXPECT_EQ(Shape("foreach .[] as $x (0; 1; 2)"),
            "(Foreach (Iterate _) (PatternVar x) (Number 0) (Number 1) (Number 2))");
  EXPECT_EQ(Shape("if 1 then 2 else 3 end"), "(If (Number 1) (Number 2) (Number 3))");
  EXPECT_EQ(Shape("if 1 then 2 end"), "(If (Number 1) (Number 2) _)");
  EXPECT_EQ(Shape("if 1 then 2 elif 3 then 4 else 5 end"),
            "(If (Number 1) (Number 2) (Number 3) (Number 4) (Number 5))");
  EXPECT_EQ(Shape("try error(\"x\") catch ."), "(TryCatch (Call error (String x)) (Identity))");
  EXPECT_EQ(Shape("try 1 + 2"), "(Arith + (TryCatch (Number 1) _) (Number 2))");
  EXPECT_EQ(Shape("try 1 catch 2 + 3"), "(Arith + (TryCatch (Number 1) (Number 2)) (Number 3))");
  // The minus in a `try` operand takes a following `*` chain, as in jq.
  EXPECT_EQ(Shape("try -1 * 2"), "(TryCatch (Neg (Arith * (Number 1) (Number 2))) _)");
  EXPECT_EQ(Shape("try 1 catch -2 * 3"), "(TryCatch (Number 1) (Neg (Arith * (Number 2) (Number 3))))");
  EXPECT_EQ(Shape("try 1 * 2"), "(Arith * (TryCatch (Number 1) _) (Number 2))");
  EXPECT_EQ(Shape("try try 1 catch 2"), "(TryCatch (TryCatch (Number 1) (Number 2)) _)");
  EXPECT_EQ(Shape("reduce .[] as $x (0; .) | 1"),
            "(Pipe (Reduce (Iterate _) (PatternVar x) (Number 0) (Identity)) (Number 1))");
}

// jq pairs `catch` with the innermost `try` whose body is still open: a body that starts with a
// definition, a `Term as $x |` head or `label $x |` takes everything up to the `catch`, and a
// leading minus takes a `* / %` chain. After the handler the expression goes on around the whole
// `try ... catch`. (All checked against jq 1.6.)
TEST(JqParserTest, CatchClosesTheInnermostOpenTryBody) {
  EXPECT_EQ(Shape("try . as $x | error(1) catch 2"),
            "(TryCatch (Bind (Identity) (PatternVar x) (Call error (Number 1))) (Number 2))");
  EXPECT_EQ(Shape("try . as $x | 1, 2 | 3 catch 4, 5"),
            "(Comma (TryCatch (Bind (Identity) (PatternVar x) (Pipe (Comma (Number 1) (Number 2)) "
            "(Number 3))) (Number 4)) (Number 5))");
  EXPECT_EQ(Shape("try label $out | 1, break $out catch 2 | 3"),
            "(Pipe (TryCatch (Label out (Comma (Number 1) (Break out))) (Number 2)) (Number 3))");
  EXPECT_EQ(Shape("try def f: 1; f + 2 catch 3 * 4"),
            "(Arith * (TryCatch (FuncDef f (Number 1) (Arith + (Call f) (Number 2))) (Number 3)) "
            "(Number 4))");
  EXPECT_EQ(Shape("try -1 * 2 catch 3"),
            "(TryCatch (Neg (Arith * (Number 1) (Number 2))) (Number 3))");
  EXPECT_EQ(Shape("1 + try -2 * 3 catch 4 * 5"),
            "(Arith + (Number 1) (Arith * (TryCatch (Neg (Arith * (Number 2) (Number 3))) "
            "(Number 4)) (Number 5)))");
  // The innermost open `try` wins; one that already has its handler is closed.
  EXPECT_EQ(Shape("try . as $x | try 1 catch 2"),
            "(TryCatch (Bind (Identity) (PatternVar x) (TryCatch (Number 1) (Number 2))) _)");
  EXPECT_EQ(Shape("try . as $x | try 1 catch 2 catch 3"),
            "(TryCatch (Bind (Identity) (PatternVar x) (TryCatch (Number 1) (Number 2))) (Number 3))");
  EXPECT_EQ(Shape("try def f: try 1; f catch 2"),
            "(TryCatch (FuncDef f (TryCatch (Number 1) _) (Call f)) (Number 2))");
  // A handler opened by a definition or head takes the rest, as jq's `catch Exp` does.
  EXPECT_EQ(Shape("try . as $x | 1 catch . as $y | $y, 2"),
            "(TryCatch (Bind (Identity) (PatternVar x) (Number 1)) (Bind (Identity) (PatternVar y) "
            "(Comma (Variable y) (Number 2))))");
  // An expression-level `?` binds looser than `try` and `catch`: it closes the `try`s whose body
  // or handler it ends (`try a catch b?` is `(try a catch b)?`), but not one opened further out.
  EXPECT_EQ(FirstError("try try (1, 2) catch empty? catch null"),
            "WM100 1:29 unexpected keyword 'catch': there is no open `try` for it");
  EXPECT_EQ(Shape("try . as $x | try 1? catch 2"),
            "(TryCatch (Bind (Identity) (PatternVar x) (TryCatch (Optional (Number 1)) _)) (Number 2))");
  EXPECT_EQ(Shape("try -1? catch 2"), "(TryCatch (Neg (Optional (Number 1))) (Number 2))");
  // Brackets close everything opened inside them.
  EXPECT_EQ(FirstError("try (. as $x | 1) | 2 catch 3"),
            "WM100 1:23 unexpected keyword 'catch': there is no open `try` for it (`try` binds only "
            "the term after it: `try a + b` is `(try a) + b`; write `try (a + b) catch ...`)");
  EXPECT_EQ(FirstError("try 1 catch 2 catch 3"),
            "WM100 1:15 unexpected keyword 'catch': there is no open `try` for it");
  EXPECT_EQ(FirstError("try . as $x catch 1"),
            "WM100 1:13 unexpected keyword 'catch'; expected '|' after the pattern of 'as'");
}

TEST(JqParserTest, Directives) {
  EXPECT_EQ(Shape("import \"a\" as a; a::f"), "(Program (Import a a) (Call a::f))");
  EXPECT_EQ(Shape("import \"d\" as $d; $d"), "(Program (Import d $d) (Variable d))");
  EXPECT_EQ(Shape("include \"b\"; 1"), "(Program (Import b) (Number 1))");
  EXPECT_EQ(Shape("module {a: 1}; 1"), "(Program (Module (Object (ObjectEntry (String a) (Number 1)))) (Number 1))");
  EXPECT_EQ(Shape("# only a comment\n"), "(Identity)");
  EXPECT_EQ(Shape(""), "(Identity)");
  EXPECT_EQ(Shape("1 # comment\n+ 2"), "(Arith + (Number 1) (Number 2))");
}

TEST(JqParserTest, RangesAreBytes) {
  // "é" is two bytes: the field after it starts at byte 7, not at code point 6.
  ParseResult r = Parse("\"\xC3\xA9\" | .ab");
  ASSERT_TRUE(r.ok());
  const Node& pipe = *r.ast;
  EXPECT_EQ(pipe.range.begin, 0u);
  EXPECT_EQ(pipe.range.end, 10u);
  EXPECT_EQ(pipe.token.begin, 5u);
  EXPECT_EQ(pipe.token.end, 6u);
  EXPECT_EQ(pipe.kid(1)->range.begin, 7u);
  EXPECT_EQ(pipe.kid(1)->range.end, 10u);
  ParseResult call = Parse("[del(.a)]");
  ASSERT_TRUE(call.ok());
  const Node* del = call.ast->kid(0);
  EXPECT_EQ(del->kind, NodeKind::Call);
  EXPECT_EQ(del->token.begin, 1u);
  EXPECT_EQ(del->token.end, 4u);
  EXPECT_EQ(del->range.end, 8u);
  ParseResult assign = Parse(".a |= 1");
  ASSERT_TRUE(assign.ok());
  EXPECT_EQ(assign.ast->token.begin, 3u);
  EXPECT_EQ(assign.ast->token.end, 5u);
  ParseResult interp = Parse("\"x\\(.ab)\"");
  ASSERT_TRUE(interp.ok());
  EXPECT_EQ(interp.ast->kid(1)->range.begin, 4u);
  EXPECT_EQ(interp.ast->kid(1)->range.end, 7u);
}

// The lexer (compiler/jq/lexer.cpp) follows grammar/Jq.g4's lexer rules: longest match, keywords
// only as whole words, `.name` one token, numbers as jq 1.7 lexes them.
TEST(JqParserTest, LexerEdgeCases) {
  EXPECT_EQ(Shape("1.e5"), "(Number 1.e5)");
  EXPECT_EQ(Shape(".5"), "(Number .5)");
  EXPECT_EQ(Shape("1."), "(Number 1.)");
  EXPECT_EQ(Shape("...a"), "(Field a (RecurseDefault))");
  EXPECT_EQ(Shape("a::b"), "(Call a::b)");
  EXPECT_EQ(Shape("$a::b"), "(Variable a::b)");
  EXPECT_EQ(Shape(".and"), "(Field and _)");
  EXPECT_EQ(Shape(".e3"), "(Field e3 _)");
  EXPECT_EQ(Shape("iffy"), "(Call iffy)");
  EXPECT_EQ(Shape("1 # comment \\("), "(Number 1)");
  // A `)` inside a string inside an interpolation does not end the interpolation.
  EXPECT_EQ(Shape("\"\\(\")\")\""), "(String (Paren (String ))))");
  EXPECT_EQ(FirstError("1?//2"), "WM100 1:2 unexpected '?//'; expected end of input");
  EXPECT_EQ(FirstError("$"), "WM100 1:1 unexpected character '$'; expected a term");
  EXPECT_EQ(FirstError("x::"), "WM100 1:2 unexpected ':'; expected end of input");
  // An unknown character is one code point: the caret covers both bytes of "é".
  ParseResult r = Parse("\xC3\xA9");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, "unexpected character '\xC3\xA9'; expected a term");
  EXPECT_EQ(r.diagnostics[0].length, 2u);
}

// jq 1.7's lexer: whitespace is space, tab and newline only; a comment runs to the newline; and
// `$__loc__` is a token of its own, the source-location constant, which names nothing.
TEST(JqParserTest, Jq17LexerRestrictions) {
  EXPECT_EQ(FirstError(".a\r\n"), "WM100 1:3 unexpected character U+000D; expected end of input");
  EXPECT_EQ(FirstError(".a\f"), "WM100 1:3 unexpected character U+000C; expected end of input");
  EXPECT_EQ(Shape("1 # comment\r\n+ 2"), "(Arith + (Number 1) (Number 2))");
  EXPECT_EQ(Shape("{$__loc__}"), "(Object (ObjectEntry (Variable __loc__) _))");
  const std::string loc_message =
      " `$__loc__` is jq's source location: it cannot name a variable, parameter or label";
  EXPECT_EQ(FirstError(". as $__loc__ | 1"), "WM100 1:6" + loc_message);
  EXPECT_EQ(FirstError(". as {$__loc__} | 1"), "WM100 1:7" + loc_message);
  EXPECT_EQ(FirstError("def f($__loc__): 1; f(2)"), "WM100 1:7" + loc_message);
  EXPECT_EQ(FirstError("label $__loc__ | 1"), "WM100 1:7" + loc_message);
  EXPECT_EQ(FirstError("{$__loc__: 1}"),
            "WM100 1:2 `$__loc__` takes no value in an object: write `{$__loc__}` for "
            "{\"__loc__\": ...} or `{\"__loc__\": value}`");
}

// Size limits point at the token where the limit is crossed, not at the start of the expression.
TEST(JqParserTest, LimitDiagnosticsPointAtTheCrossingToken) {
  ParseOptions few_tokens;
  few_tokens.max_tokens = 5;
  // The first five tokens `1 + 2 + 3` fit; the sixth, the `+` at offset 10, is one too many.
  EXPECT_EQ(FirstError("1 + 2 + 3 + 4", few_tokens), "WM102 1:11 expression too large: more than 5 tokens");
  ParseOptions shallow;
  shallow.max_ast_depth = 2;
  // `1 + 2 + 3` is ((1 + 2) + 3): the operands of the inner `+` are the third level.
  EXPECT_EQ(FirstError("1 + 2 + 3", shallow),
            "WM102 1:5 expression too large: its syntax tree is more than 2 levels deep");
}

// `break $name`'s token is the label name, so an unknown label (WM112, reported when lowering)
// points at the name.
TEST(JqParserTest, BreakTokenIsTheLabel) {
  ParseResult r = Parse("label $out | break $out");
  ASSERT_TRUE(r.ok());
  const Node* brk = r.ast->kid(0);
  ASSERT_NE(brk, nullptr);
  EXPECT_EQ(brk->kind, NodeKind::Break);
  EXPECT_EQ(brk->token.begin, 19u);
  EXPECT_EQ(brk->token.end, 23u);
  EXPECT_EQ(brk->range.begin, 13u);
}

TEST(JqParserTest, SyntaxErrorsSayWhatWasFoundAndExpected) {
  EXPECT_EQ(FirstError(")"), "WM100 1:1 unexpected ')'; expected a term");
  EXPECT_EQ(FirstError(".a |"), "WM100 1:5 unexpected end of input; expected a term");
  EXPECT_EQ(FirstError("(1"), "WM100 1:3 unexpected end of input; expected ')'");
  EXPECT_EQ(FirstError("[1, 2"), "WM100 1:6 unexpected end of input; expected ']'");
  EXPECT_EQ(FirstError("if . then 1"), "WM100 1:12 unexpected end of input; expected 'else', 'elif' or 'end'");
  EXPECT_EQ(FirstError("{a: 1 + 2}"), "WM100 1:7 unexpected '+'; expected '}'");
  EXPECT_EQ(FirstError("reduce .[] $x (0; .)"), "WM100 1:12 unexpected variable '$x'; expected 'as'");
  EXPECT_EQ(FirstError(".a ~ 1"), "WM100 1:4 unexpected character '~'; expected end of input");
  EXPECT_EQ(FirstError("\"abc"), "WM100 1:1 unterminated string literal");
  EXPECT_EQ(FirstError("\"\\q\""), "WM100 1:2 invalid escape '\\q' in string");
  EXPECT_EQ(FirstError("\"\\u12\""), "WM100 1:2 invalid \\u escape: expected four hex digits");
  EXPECT_EQ(FirstError("\"\\(1 +)\""), "WM100 1:7 unexpected ')'; expected a term");
  EXPECT_EQ(FirstError("{(1)}"), "WM100 1:2 an object key in parentheses needs a value: write `(key): value`");
  EXPECT_EQ(FirstError("1 2"), "WM100 1:3 unexpected number 2; expected end of input");
}

TEST(JqParserTest, DiagnosticsGoThroughTheSourceMap) {
  ParseOptions options;
  options.source_map = SourceMap::Contiguous(Location{"defs.yaml", 12, 20}, 8);
  ParseResult r = Parse(".a | )", options);
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].location.file, "defs.yaml");
  EXPECT_EQ(r.diagnostics[0].location.line, 12u);
  EXPECT_EQ(r.diagnostics[0].location.column, 25u);
  EXPECT_EQ(r.diagnostics[0].length, 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
}

TEST(JqParserTest, MaxErrorsCapsDiagnostics) {
  ParseOptions options;
  options.max_errors = 2;
  ParseResult r = Parse("\"\\q\\w\\e\\r\\t\\y\"", options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.size(), 2u);
  options.max_errors = 10;
  r = Parse("\"\\q\\w\\e\\y\"", options);
  EXPECT_EQ(r.diagnostics.size(), 4u);
}

// ----------------------------------------------------------------------------- hostile input
// (No timing assertions: a hang shows as the test run's timeout, not as a flaky threshold.)

TEST(JqParserHostileTest, DeepParenthesesAndBrackets) {
  for (char open : {'(', '['}) {
    std::string text(100000, open);
    std::string error = FirstError(text);
    EXPECT_EQ(error.substr(0, 11), "WM101 1:257") << error;
  }
  std::string balanced = std::string(100000, '(') + "1" + std::string(100000, ')');
  EXPECT_EQ(FirstError(balanced).substr(0, 5), "WM101");
  std::string interpolations;
  for (int i = 0; i < 300; ++i) interpolations += "\"\\(";
  EXPECT_EQ(FirstError(interpolations).substr(0, 5), "WM101");
  // At the limit, it parses.
  std::string ok = std::string(200, '[') + std::string(200, ']');
  EXPECT_EQ(FirstError(ok), "OK");
}

// The rule-depth guard follows ParseOptions::max_depth for small limits too.
TEST(JqParserHostileTest, SmallDepthLimitBoundsKeywordNesting) {
  ParseOptions shallow;
  shallow.max_depth = 2;
  std::string ifs;
  for (int i = 0; i < 50; ++i) ifs += "if ";
  EXPECT_EQ(FirstError(ifs + ". then 1 end", shallow).substr(0, 5), "WM101");
  EXPECT_EQ(FirstError(".a + 1", shallow), "OK");
}

TEST(JqParserHostileTest, DeepKeywordNestingIsBounded) {
  std::string ifs;
  for (int i = 0; i < 5000; ++i) ifs += "if ";
  EXPECT_EQ(FirstError(ifs).substr(0, 5), "WM101");
  std::string minus(20000, '-');
  EXPECT_EQ(FirstError(minus + "1").substr(0, 5), "WM101");
  std::string tries;
  for (int i = 0; i < 20000; ++i) tries += "try ";
  EXPECT_EQ(FirstError(tries + "1").substr(0, 5), "WM101");
}

TEST(JqParserHostileTest, OneMegabyteExpression) {
  std::string chain = "1";
  while (chain.size() < (1u << 20) - 2) chain += "+1";
  std::string error = FirstError(chain);
  EXPECT_EQ(error.substr(0, 5), "WM102") << error;
  EXPECT_EQ(FirstError(std::string((1u << 20) + 1, ' ')).substr(0, 5), "WM102");
}

TEST(JqParserHostileTest, LongButShallowChainsAreTooLargeNotCrashes) {
  std::string pipes;
  for (int i = 0; i < 20000; ++i) pipes += ".a|";
  EXPECT_EQ(FirstError(pipes + ".").substr(0, 5), "WM102");
  std::string negs = "1";
  for (int i = 0; i < 20000; ++i) negs += "*-1";
  EXPECT_EQ(FirstError(negs).substr(0, 5), "WM102");
  // Moderate chains parse.
  std::string moderate;
  for (int i = 0; i < 1000; ++i) moderate += ".a|";
  EXPECT_EQ(FirstError(moderate + "."), "OK");
}

TEST(JqParserHostileTest, InvalidUtf8AndNul) {
  EXPECT_EQ(FirstError(std::string("\"a\xFF\"")), "WM103 1:3 invalid UTF-8 byte 0xFF in expression");
  EXPECT_EQ(FirstError(std::string(".a | \xC3")).substr(0, 9), "WM103 1:6");
  EXPECT_EQ(FirstError(std::string("\xED\xA0\x80")).substr(0, 5), "WM103");  // a surrogate
  EXPECT_EQ(FirstError(std::string("\xC0\xAF")).substr(0, 5), "WM103");      // overlong
  EXPECT_EQ(FirstError(std::string(".a\0.b", 5)), "WM103 1:3 NUL byte in expression");
  // Valid UTF-8 outside strings is a syntax error, not a crash.
  EXPECT_EQ(FirstError("\xC3\xA9"), "WM100 1:1 unexpected character '\xC3\xA9'; expected a term");
}

TEST(JqParserHostileTest, GarbageNeverCrashes) {
  const char* inputs[] = {
      "\"\\(", "\"\\(\"", "((((", "))))", "[[[]]]]]", "{{{", "}}}", "\"\\u", "\\", "$", "@", ".[",
      ".[:]", "reduce", "foreach . as", "if", "try", "label", "def", "def f", "def f:", "import",
      "..a", "?//", "{a:}", "{(1):}", ". as [$a", ". as {a}", "\"\\(1)\\(2", ".a[1:2:3]", "@@",
      "1e", "1e+", "-", "--", "- -", "$__loc__.", "{$__loc__:", "\"\\(\"\\(\"\\(\"",
  };
  for (const char* text : inputs) {
    ParseResult r = Parse(text);
    if (!r.ok()) {
      EXPECT_FALSE(r.diagnostics.empty()) << text;
      for (const Diagnostic& d : r.diagnostics) EXPECT_FALSE(d.message.empty()) << text;
    }
  }
}

}  // namespace
}  // namespace wm::jq
