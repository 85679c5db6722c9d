// The jq 1.7 language (as the jq manual documents it) for ANTLR 4.7.2; compiler/jq/parser.cpp
// turns the parse tree into the AST of compiler/jq/ast.h. Generated with
// `antlr4 -Dlanguage=Cpp -package wm::jq::gen -no-visitor -no-listener` (CMakeLists.txt; only the
// parser is compiled: compiler/jq/lexer.cpp is the lexer).
//
// Shape of the grammar, and why:
// - Every binary operator is parsed in one flat loop (`pipeTail`): operands (`unaryExpr`, with the
//   definitions written in front of each) joined by infix tokens. The AST builder gives the chain
//   jq 1.7's precedence with an explicit-stack operator-precedence pass (compiler/jq/ast_builder.cpp,
//   `Chain`). jq's levels, lowest first: definitions < `|` (right) < `,` < `//` (right) <
//   assignments (non-associative) < `or` < `and` < comparisons (non-associative) < `+ -` <
//   `* / %` < `?` < `try` < `catch`. Doing precedence there rather than in one rule per level:
//   - what jq's yacc precedences decide is not context free in LL terms: a definition or a
//     `Term as $x |` head takes the rest of the expression as its scope (`1 + def f: 2; f * 3, 4`
//     is `1 + (def f: 2; f * 3, 4)`), unary minus takes the rest of a `* / %` chain (`-a * b` is
//     `-(a * b)`), and `catch` closes the innermost `try` whose body is still open
//     (`try . as $x | f catch g`, `try -a * b catch c`). A rule per level would need look-ahead to
//     the end of the input for each of these;
//   - one context per operand instead of nine makes parsing about a third faster;
//   - a long `a | b | c ...` chain costs no parser stack, and the builder's stack is explicit.
// - `unaryExpr`, `suffix` and `primary` have no labelled alternatives: the generated parser would
//   dynamic_cast every such context it creates; the builder tells the alternative by its tokens.
// - A string literal, interpolations included, is one STRING token; the builder parses each
//   interpolation with the `embeddedPipe` rule.
// - Constructs that extend "as far as possible" in jq (`Term as $x | body`, `label $x | body`) are
//   parsed as heads (`Term as $x`, `label $x`) followed by a `|` in the chain; the builder makes the
//   rest of the chain their body.
// - `reduce`, `foreach`, `if` and `break` are primaries here, but in jq 1.7 only `break` is a Term:
//   the others are whole expressions, so jq 1.7 refuses a postfix index after them, `as` after
//   them, and them as an object value or as the source of `reduce`/`foreach`. The builder reports
//   those uses (with the parentheses to add), and likewise a postfix after a `?` that applies to an
//   expression (`$x?[0]`; only `?` right after `.a`, `."a"`, `[...]` is part of a term). Keeping
//   them primaries keeps every decision LL(1) and gives those messages instead of "unexpected '['".
grammar Jq;

// ------------------------------------------------------------------------------------- parser

program
  : moduleDirective? importDirective* funcDef* pipeTail? EOF
  ;

// The expression inside a string interpolation `\(...)`, parsed on its own (see STRING).
embeddedPipe
  : pipe EOF
  ;

moduleDirective
  : MODULE object SEMI
  ;

importDirective
  : IMPORT string AS (IDENT | BINDING) object? SEMI   # importAs
  | INCLUDE string object? SEMI                        # include
  ;

funcDef
  : DEF IDENT (LPAREN param (SEMI param)* RPAREN)? COLON pipe SEMI
  ;

param
  : IDENT
  | BINDING
  ;

// Definitions may open any pipe. A pipe is one flat chain of operands and infix tokens, with the
// definitions written in front of each operand; the AST builder gives the chain jq's precedence.
pipe
  : funcDef* pipeTail
  ;

// The infix tokens are every binary operator and `catch`, which closes the innermost `try` whose
// body is still open (`try . as $x | f catch g`; the builder pairs them). A token set, not a
// rule: no parse-tree context per operator.
pipeTail
  : unaryExpr (
      ( PIPE | COMMA | DEFINEDOR
      | ASSIGN | SETPIPE | SETPLUS | SETMINUS | SETMULT | SETDIV | SETMOD | SETDEFINEDOR
      | OR | AND | EQ | NEQ | LT | LE | GT | GE | PLUS | MINUS | STAR | SLASH | PERCENT
      | CATCH
      ) funcDef* unaryExpr
    )*
  ;

unaryExpr
  : MINUS funcDef* unaryExpr
  | TRY funcDef* unaryExpr
  | LABEL BINDING
  | postfixTerm (AS patterns)?
  ;

postfixTerm
  : primary suffix*
  ;

suffix
  : FIELD
  | DOT string
  | DOT? LBRACKET bracketBody? RBRACKET
  | QUESTION
  ;

// `[e]`, `[e:e]`, `[e:]`, `[:e]` (empty brackets: iteration).
bracketBody
  : pipe (COLON pipe?)?
  | COLON pipe
  ;

primary
  : FIELD
  | DOT string
  | DOT
  | REC
  | NUMBER
  | string
  | FORMAT
  | LPAREN pipe RPAREN
  | LBRACKET pipe? RBRACKET
  | object
  | BINDING
  | IDENT (LPAREN pipe (SEMI pipe)* RPAREN)?
  | REDUCE postfixTerm AS patterns LPAREN pipe SEMI pipe RPAREN
  | FOREACH postfixTerm AS patterns
      LPAREN pipe SEMI pipe (SEMI pipe)? RPAREN
  | IF pipe THEN pipe (ELIF pipe THEN pipe)* (ELSE pipe)? END
  | BREAK BINDING
  ;

object
  : LBRACE (objectEntry (COMMA objectEntry)* COMMA?)? RBRACE
  ;

// `{a}`, `{a: v}`, `{"a"}`, `{"a\(x)": v}`, `{@base64 "a": v}`, `{$x}`, `{$x: v}`, `{(e): v}`.
objectEntry
  : objectKey (COLON objectValue)?
  ;

objectKey
  : IDENT
  | keyword
  | BINDING
  | string
  | LPAREN pipe RPAREN
  ;

// jq's ExpD: terms joined by `|`, each optionally negated; anything else needs parentheses.
objectValue
  : objectValueTerm (PIPE objectValueTerm)*
  ;

objectValueTerm
  : MINUS objectValueTerm
  | postfixTerm
  ;

patterns
  : pattern (ALTERNATION pattern)*
  ;

pattern
  : BINDING                                                # variablePattern
  | LBRACKET pattern (COMMA pattern)* RBRACKET             # arrayPattern
  | LBRACE patternEntry (COMMA patternEntry)* RBRACE       # objectPattern
  ;

patternEntry
  : BINDING (COLON pattern)?
  | (IDENT | keyword | string | LPAREN pipe RPAREN) COLON pattern
  ;

string
  : FORMAT? STRING
  ;

keyword
  : AS | DEF | MODULE | IMPORT | INCLUDE | IF | THEN | ELSE | ELIF | REDUCE | FOREACH | END
  | AND | OR | TRY | CATCH | LABEL | BREAK
  ;

// -------------------------------------------------------------------------------------- lexer

AS : 'as' ;
DEF : 'def' ;
MODULE : 'module' ;
IMPORT : 'import' ;
INCLUDE : 'include' ;
IF : 'if' ;
THEN : 'then' ;
ELSE : 'else' ;
ELIF : 'elif' ;
REDUCE : 'reduce' ;
FOREACH : 'foreach' ;
END : 'end' ;
AND : 'and' ;
OR : 'or' ;
TRY : 'try' ;
CATCH : 'catch' ;
LABEL : 'label' ;
BREAK : 'break' ;

SETDEFINEDOR : '//=' ;
ALTERNATION : '?//' ;
DEFINEDOR : '//' ;
SETPIPE : '|=' ;
SETPLUS : '+=' ;
SETMINUS : '-=' ;
SETMULT : '*=' ;
SETDIV : '/=' ;
SETMOD : '%=' ;
EQ : '==' ;
NEQ : '!=' ;
LE : '<=' ;
GE : '>=' ;
REC : '..' ;

PIPE : '|' ;
COMMA : ',' ;
ASSIGN : '=' ;
LT : '<' ;
GT : '>' ;
PLUS : '+' ;
MINUS : '-' ;
STAR : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
QUESTION : '?' ;
SEMI : ';' ;
COLON : ':' ;
LPAREN : '(' ;
RPAREN : ')' ;
LBRACKET : '[' ;
RBRACKET : ']' ;
LBRACE : '{' ;
RBRACE : '}' ;

NUMBER
  : ([0-9]+ ('.' [0-9]*)? | '.' [0-9]+) ([eE] [+-]? [0-9]+)?
  ;

// `.name` is one token (as in jq), so `.and`, `.if` are fields, and `. name` is not.
FIELD : '.' NAME ;
DOT : '.' ;

IDENT : (NAME '::')* NAME ;
BINDING : '$' (NAME '::')* NAME ;
FORMAT : '@' [a-zA-Z0-9_]+ ;

// A whole string literal is one token, interpolations included (a combined grammar cannot use
// lexer modes): the AST builder splits it into literal parts and parses each `\(...)` on its own.
// The fragments below only need to find where the literal ends, so they track nested strings,
// parentheses and comments inside interpolations.
STRING : '"' STRING_CHAR* '"' ;

// As jq 1.7's lexer: a comment runs to the newline (a carriage return is part of it), and only
// space, tab and newline are whitespace (a stray carriage return or form feed is an error).
COMMENT : '#' ~[\n]* -> skip ;
WS : [ \t\n]+ -> skip ;

// Anything else becomes a token that no rule accepts, so it is reported as a syntax error.
INVALID : . ;

fragment NAME : [a-zA-Z_] [a-zA-Z_0-9]* ;

fragment STRING_CHAR : ~["\\] | '\\' ~[(] | INTERPOLATION ;
fragment INTERPOLATION : '\\(' INTERPOLATION_CHAR* ')' ;
fragment INTERPOLATION_CHAR : STRING | '(' INTERPOLATION_CHAR* ')' | '#' ~[\n]* | ~[()"#] ;
