.
..
.foo
.foo.bar
.foo?
.foo.bar?
."foo"
."foo-bar"
."foo"."bar"
.["foo"]
.["foo"]?
.foo["bar"]
.[0]
.[-1]
.[2]
.[1:3]
.[:3]
.[-2:]
.[2:]
.[]
.[]?
.foo[]
.foo[]?
.[].name
.[]?.name?
.foo[1:]
.a.b.c.d
.a[0].b[1].c
.a?.b?.c?
.[0][1][2]
.["a"]["b"]
.a."b".c
."$foo"
.["$foo"]
.a.[0] # 1.7
.a.["b"] # 1.7
.[].[0] # 1.7
.a.[] # 1.7
.a.[1:2] # 1.7
..?
..|.a?
.. | numbers
.and
.if
.then
.reduce
.foreach
.def
.not
.a, .b
.a | .b
.a, .b | .c
(.a, .b) | .c
.a | (.b, .c)
[.a, .b]
[.[] | .name]
[.[]]
[]
[1, 2, 3]
[[1, 2], [3, 4]]
[.a, .b, [.c]]
{}
{a: 1}
{a: 1, b: 2}
{"a": 1}
{"a b": 1}
{a}
{a, b}
{"a"}
{a: .b}
{a: .b, c: .d}
{(.a): 1}
{(.a, .b): 1}
{(.a | tostring): .b}
{"x\(.a)": 1}
{"\(.key)": .value}
{a: 1,} # 1.7
{if: 1}
{then: 1, else: 2, end: 3}
{and: 1, or: 2, not: 3}
{reduce: 1, foreach: 2}
{def: 1, import: 2, include: 3, module: 4}
{try: 1, catch: 2, label: 3, break: 4}
{as: 1, elif: 2}
{a: .b | .c}
{a: -1}
{a: - .b}
{a: (1 + 2)}
{a: [1, 2]}
{a: {b: {c: 1}}}
{user, title: .titles[]}
{(.user): .titles}
{"a": 1} | .a
{a: 1} | keys
{@base64 "x": 1}
{"a": (1, 2)}
{a: .[]}
1 as $x | {$x}
1 as $x | {$x, b: 2}
{$__loc__} # 1.7
"a" as $k | {$k: 1} # 1.7
{a: .b?}
{a: $__loc__}
null
true
false
1
-1
0
1.5
-1.5
.5
1.
1e3
1E3
1e-3
1.5e+10
100000000000000000000000
3.141592653589793
"hello"
""
"with \"quotes\""
"tab\there"
"newline\n"
"backslash\\"
"slash\/"
"\b\f\r"
"\u00e9"
"\u0041\u0042"
"\ud83d\ude00"
"unicode: é ü 日本"
"\(.)"
"a\(1)b"
"\(.a) and \(.b)"
"nested \("inner \(1 + 2)")"
"\(1, 2)"
"\([1, 2] | length)"
"x" + "y"
"abc" | length
"abc"[1:]
"abc"[:1]
"abc" | .[1:2]
@base64
@base64d
@text
@json
@html
@uri
@csv
@tsv
@sh
@base32
@base32d
@base64 "x\(.)y"
@json "value: \(.)"
@html "<b>\(.)</b>"
@uri "https://example.com/?q=\(.)"
@sh "echo \(.)"
@text "\(.)"
@csv "\([1, 2])"
@tsv "\(["a", "b"])"
[1, 2] | @csv
[1, 2] | @tsv
"x" | @base64
"eA==" | @base64d
1 + 2
1 - 2
2 * 3
6 / 2
7 % 3
1 + 2 * 3
(1 + 2) * 3
1 - 2 - 3
1 / 2 / 3
2 * 3 % 4
-1 + 2
-(1 + 2)
-.a
- .a
1 - -1
1 + -1
-1 * 2
2 * -3
2 * -3 * 4
(-1) * 2
- - 1
-(-1)
.a + .b
.a - .b
.a * .b
.a / .b
.a % .b
{} + {a: 1}
[1] + [2]
[1, 2, 3] - [2]
{a: {b: 1}} * {a: {c: 2}}
"a,b" / ","
"abc" * 2
null + 1
1 == 1
1 != 2
1 < 2
1 <= 2
1 > 2
1 >= 2
.a == .b
.a == 1 and .b == 2
.a == 1 or .b == 2
true and false
true or false
true and false or true
true or false and false
(true or false) and false
.a and .b
not
.a | not
(.a == 1) | not
1 + 2 == 3
(1 < 2) == true
.a // .b
.a // .b // .c
.a // 1
(.a // .b) // .c
.a // (.b // .c)
empty // 1
.a // error("missing")
[.[] // 0]
.a = 1
.a |= . + 1
.a += 1
.a -= 1
.a *= 2
.a /= 2
.a %= 2
.a //= 1
.a.b = 1
.a[0] = 1
.[] += 1
.[] |= . * 2
.a = .b
.a |= empty
.a = (1, 2)
.a += .b
.a.b.c |= . + 1
.[0] = null
.a = 1 | .b = 2
(.a, .b) = 1
(.a, .b) |= . + 1
.a |= (. // 0) + 1
.a = 1 // 2
to_entries
from_entries
with_entries(.value += 1)
keys
keys_unsorted
length
utf8bytelength
has("a")
has(0)
in({"a": 1})
map(. + 1)
map_values(. + 1)
path(.a)
path(.a[0].b)
[paths]
[paths(type == "number")]
[leaf_paths]
del(.a)
del(.a, .b)
del(.[1, 2])
del(.[] | select(. == 1))
getpath(["a", "b"])
setpath(["a", "b"]; 1)
delpaths([["a", "b"]])
to_entries | map(select(.value > 1)) | from_entries
add
any
all
any(. > 1)
all(. > 1)
any(.[]; . > 1)
all(.[]; . > 1)
flatten
flatten(1)
range(5)
range(1; 5)
range(0; 10; 2)
[range(5)]
floor
sqrt
pow(2; 3)
log(2)
infinite
nan
isinfinite
isnan
isnormal
isvalid(1)
sort
sort_by(.a)
sort_by(.a, .b)
group_by(.a)
min
max
min_by(.a)
max_by(.a)
unique
unique_by(.a)
reverse
contains("a")
contains({a: 1})
inside("abc")
indices(", ")
indices(1)
index(",")
rindex(",")
startswith("a")
endswith("a")
combinations
combinations(2)
ltrimstr("a")
rtrimstr("a")
explode
implode
split(", ")
join(", ")
ascii_downcase
ascii_upcase
ascii
while(. < 100; . * 2)
[while(. < 100; . * 2)]
until(. > 100; . * 2)
repeat(. * 2; . < 100)
recurse(.children[])
recurse
recurse(.a; . != null)
recurse_down
env
env.PAGER
$ENV
$ENV.PAGER
$ENV | .HOME
transpose
bsearch(1)
tojson
fromjson
tostring
tonumber
type
arrays
objects
iterables
booleans
numbers
normals
finites
strings
nulls
values
scalars
error
error("message")
error({a: 1})
builtins
input_line_number
splits(", ")
sub("a"; "b")
gsub("a"; "b")
sub("a"; "b"; "g")
test("a")
test("a"; "x")
match("a")
match("a"; "g")
capture("(?<x>a)")
scan("c")
split("a"; "g")
ascii(65)
@text "a"
todate
fromdate
now
mktime
gmtime
localtime
strftime("%Y-%m-%dT%H:%M:%SZ")
strptime("%Y-%m-%d")
dateadd("seconds"; 1)
datesub("seconds"; 1)
date
todateiso8601
fromdateiso8601
tostream
fromstream(tostream)
truncate_stream(1; tostream)
[1 | truncate_stream([[0], 1], [[1, 0], 2], [[1, 0]], [[1]])]
input
inputs
[inputs]
debug
stderr
input_filename
$__loc__
splits("a"; "g")
ltrimstr("x") | rtrimstr("y")
tojson | fromjson
getpath(["a"]) as $x | $x
limit(3; .[])
[limit(3; .[])]
first(.[])
last(.[])
nth(1; .[])
first
last
nth(1)
[first(range(10))]
until(. >= 10; . + 1)
[.[] | numbers]
indices([1, 2])
input | .a
@json "x"
halt
halt_error
halt_error(1)
getpath(["a", 0])
[splits("a")]
test("a"; null)
ascii_downcase | ascii_upcase
if . then 1 else 2 end
if . then 1 elif . then 2 else 3 end
if . then 1 elif . then 2 elif . then 3 else 4 end
if . == 0 then "zero" elif . == 1 then "one" else "many" end
if . then 1 end # 1.7
if . then 1 elif . then 2 end # 1.7
if (.a, .b) then 1 else 2 end
if .a then .b else .c end | .d
[if . then 1 else 2 end]
if if . then 1 else 2 end then 3 else 4 end
if . then if . then 1 else 2 end else 3 end
try error("x") catch .
try error("x")
try .a
try .a catch .
try error("x") catch . + "y"
(try error("x") catch .) + "y"
try error catch .
try try error("x") catch error("y") catch .
try .a catch "default"
[.[] | try tonumber catch null]
try -1
try .a?
[.[] | (try . catch "e")]
.a?
.a?.b
.[]?
(.a)?
(1, error("x"))?
[.[] | tonumber?]
label $out | 1, break $out
label $out | foreach .[] as $item (0; . + 1; if . > 2 then ., break $out else . end)
label $f | range(10) | ., (select(. == 2) | break $f)
[label $x | 1, 2, break $x, 3]
label $a | label $b | 1, break $b
1 as $x | $x
. as $x | $x
.a as $x | $x + 1
.a as $x | .b as $y | $x + $y
. as [$a, $b] | $a + $b
. as [$a, [$b]] | $b
. as {a: $x} | $x
. as {a: $x, b: $y} | $x + $y
. as {$a} | $a
. as {$a, $b} | $a
. as {"a": $x} | $x
. as {("a" + "b"): $x} | $x
. as {$a: [$b]} | $b
. as [$a, {b: $c, $d}] | [$a, $c, $d]
. as {a: [$first]} | $first
. as {if: $x} | $x
. as {"a\(1)": $x} | $x
.[] as [$a, $b] | {a: $a, b: $b}
.[] as {a: $x} | $x
. as [$a] ?// $a | $a
. as [$a] ?// {a: $a} ?// $a | $a
.[] as [$a] ?// $a | if ($a | type) == "array" then $a[0] else $a end
. as {$a, b: [$c, {$d}]} | [$a, $c, $d]
1 + 2 as $x | $x
.a, .b as $x | $x
[.[] as $x | $x * 2]
. as $all | .[] | . / ($all | length)
$__loc__ as $l | $l.line
reduce .[] as $x (0; . + $x)
reduce .[] as [$k, $v] ({}; .[$k] = $v)
reduce range(5) as $i ([]; . + [$i])
reduce .[] as $x (null; . + $x) | . * 2
reduce .[] as {a: $a} (0; . + $a)
reduce (.[] | select(. > 1)) as $x (0; . + $x)
reduce .[] as $x (0; . + $x) / length
foreach .[] as $x (0; . + $x)
foreach .[] as $x (0; . + $x; [$x, .])
foreach .[] as [$a, $b] (0; . + $a; . * $b)
foreach range(5) as $i (null; $i; .)
[foreach .[] as $item (0; . + $item)]
[foreach .[] as $item ([]; . + [$item]; length)]
reduce .[] as [$a] ?// $a (0; . + $a)
def f: 1; f
def f: .a; f
def f(g): g | g; f(.a)
def f($a): $a + 1; f(2)
def f(a; $b): a + $b; f(1; 2)
def f(a; b): [a, b]; f(1; 2)
def f: def g: 3; g; f
def f: 1; def g: f + 1; g
def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 5 | fac
def addvalue(f): f as $x | map(. + $x); addvalue(.[0])
def addvalue($f): map(. + $f); addvalue(1)
def f: reduce .[] as $x (0; . + $x); f
def f(x): x * 2; f(.a)
def empty_def: empty; [empty_def]
def f: .; def g: f; g
.a | def f: . + 1; f
[.[] | def inc: . + 1; inc]
def f($a; $b): $a - $b; f(5; 3)
def map2(f): [.[] | f]; map2(. + 1)
def f: 1; def f(x): x; f, f(2)
def recurse2(f): def r: ., (f | r); r; recurse2(.[]?)
def f: $__loc__; f
path(..)
[paths(..)]
paths(numbers)
leaf_paths
any(.[]; .)
isempty(empty)
error(null)
[.[] | select(.a == 1)]
map(select(. > 1))
.[] | select(.id == "second")
select(.a) | .b
[.[] | select(type == "object")]
.a | length
.[] | .name
.a as $x | [.b[] | select(. == $x)]
[.[] | {name, age}]
[.[] | {(.name): .age}]
{user: .user, titles: [.titles[]]}
.a[1:3] = ["x"]
.[2:4] |= map(. * 2)
to_entries[]
with_entries(select(.value != null))
[.[] | tostring]
[.[] | tojson]
[.[] | ascii_downcase]
[splits(", *"; null)]
sub("(?<x>.)"; "\(.x)")
gsub("\\s+"; " ")
gsub("(?<c>[a-z])"; "\(.c|ascii_upcase)")
[match("a"; "g").offset]
capture("(?<year>\\d+)-(?<month>\\d+)")
[scan("\\d+")]
test("\\d")
ascii_downcase | test("abc")
split(",") | map(tonumber)
join(",")
@csv "\(.)"
input_line_number
getpath(["a"]) // 0
[getpath(["a"], ["b"])]
paths as $p | getpath($p)
[paths as $p | {path: $p, value: getpath($p)}]
reduce paths(scalars) as $p ({}; setpath([$p | map(tostring) | join(".")]; 1))
tostream | select(length == 2)
fromstream(inputs)
[tostream] | fromstream(.[])
limit(1; repeat(1))
first(range(1; infinite))
[range(0; 10)] | .[2:4]
[range(5)] | map(. * 2) | add
[.[] | numbers] | add / length
(map(.a) | add) as $total | map(.a / $total)
def sum: reduce .[] as $x (0; . + $x); sum
walk(if type == "number" then . + 1 else . end)
env | keys
$ENV | has("HOME")
splits("a") | length
ltrimstr("a") | length
tojson | length
infinite | isinfinite
nan | isnan
[1, 2] | min_by(.)
[limit(5; repeat("x"))] | join("")
getpath(["a", "b"]) |= . + 1
to_entries | map("\(.key)=\(.value)") | join("&")
@uri "\(.a)=\(.b)"
@sh "rm \(.files[])"
.[] |= (.a = 1)
map(.a) | unique | length
group_by(.a) | map({key: .[0].a, count: length})
input as $x | $x
[inputs | .a]
reduce inputs as $x (0; . + $x)
[.[] | if . > 0 then "pos" elif . < 0 then "neg" else "zero" end]
if type == "array" then map(. + 1) elif type == "object" then map_values(. + 1) else . end
.a as [$x, $y] | $x + $y
. as {a: {b: $c}} | $c
[.[] | . as {name: $n} | $n]
.a | tostring | ascii_downcase
"\(.a)-\(.b)" | ascii_upcase
[.[] | "item: \(.)"]
{"a": 1, "b": 2} | to_entries
{a: 1} | has("a")
[1, 2, 3] | IN(2)
IN(.[]; 1, 2)
INDEX(.id)
INDEX(.[]; .id)
[.[] | tostring] | join(", ")
ascii_downcase | split(" ") | map(select(length > 0))
(.a | length) as $n | [range($n)]
.[] as $x | $x | tostring
[.[] | [.a, .b]] | transpose
getpath(["x"]) as $v | if $v then $v else "none" end
. as [$head] | $head
{"k": [1, 2]} | .k[0]
.a.b.c? // "default"
(.a | select(. != null)) // "none"
[.[] | (.a // .b)]
.a | if . == null then empty else . end
try (.a | tonumber) catch 0
[.[] | try error catch .]
error("x") ? // 1
try error("\(.)") catch .
.a[] |= . + 1
.a |= map(. + 1)
.a += [1]
.a *= {b: 1}
. += {c: 3}
.[0] //= 1
.a.b //= "x"
del(.[0])
del(.a[])
to_entries | map(.value) | add
[.[] | .a] | add
[.[] | {(.k): .v}] | add
$__loc__.file
$__loc__ | .line
splits("\n")
[.[] | ascii]
@html "\(.)" | length
@text | length
@json | fromjson
[1, [2, [3]]] | flatten
[1, [2, [3]]] | flatten(1)
{"a": {"b": 1}} | paths
{"a": {"b": 1}} | [leaf_paths]
[3, 1, 2] | sort
[3, 1, 2] | sort | reverse
[{a: 2}, {a: 1}] | sort_by(.a)
[{a: 1}, {a: 1}] | unique
"a-b-c" | split("-")
"a-b-c" | [splits("-")]
"abc" | explode | implode
"abc" | ascii_upcase
"  abc  " | ltrimstr(" ")
"x" * 3
"abc" | test("b")
"abc" | [match("b").offset]
"abc" | sub("b"; "x")
"abc" | gsub("[ac]"; "x")
"2015-03-05T23:51:47Z" | fromdate
1425599507 | todate
1425599507 | gmtime | mktime
now | type
"1" | tonumber
1 | tostring
[1, "a", null] | map(type)
{} | length
[] | length
null | length
"abc" | utf8bytelength
[1, 2, 3] | any(. > 2)
[1, 2, 3] | all(. > 0)
[[1, 2], [3]] | add
[1, 2, 3] | indices(2)
"a,b, cd, efg" | index(", ")
[1, 2, 3] | contains([1])
"foobar" | contains("bar")
{a: 1, b: 2} | del(.a)
{a: 1} | to_entries | from_entries
[1, 2] | combinations
[[1, 2], [3, 4]] | combinations
[1, 2, 3] | min, max
[1, 2, 3] | add / length
{} | .a.b.c = 1
null | .a += 1
[] | .[3] = 1
{} | .["a"] = 1
{"a": [1, 2]} | .a[1:] = [3]
[1, 2, 3] | .[1:] |= map(. * 10)
.a["b"].c
.a[.b]
.[.a]
.[.a:.b]
.[1 + 1]
.[length - 1]
.[(.a | length):]
.["a", "b"]
.[.[]]
$x # 1.7 (a free variable: parse-only)
f(1; 2) # 1.7 (an undefined function: parse-only)
import "a" as a; a::f # 1.7 (modules: parse-only)
import "a" as $d; $d # 1.7 (modules: parse-only)
include "b"; 1 # 1.7 (modules: parse-only)
module {name: "x"}; def f: 1; f # 1.7 (modules: parse-only)
import "a" as a {search: "./lib"}; 1 # 1.7 (modules: parse-only)
def f: 1; # 1.7 (a library without main expression: parse-only)
def f: 1; def g: 2; # 1.7 (a library: parse-only)
try -1 * error("x")
try 1 catch -1 * 2
4 * try -1 * 2 * 3
1, def f: 2; f
1 + def f: 2; f
1, def f: 2; f | . + 1
[1, def f: 2; f * 3, 4]
.a // def f: 1; f // 2
1, def f: 2; f + def g: 3; g * 2, 4 | . + 5
.a?[0]
.[]?[0]
.a[]?.b?[1:]
if . then 1 else 2 end?
reduce .[] as $x (0; . + $x)?
foreach .[] as $x (0; . + $x)?
(if . then [1] else [2] end)[0]
(reduce .[] as $x (0; . + $x)) as $sum | $sum
(foreach .[] as $x (0; . + $x))[0:1]
try .a? catch 1
1 as $x | try -$x? catch 1
1 as $x | ($x?)[0]
. as $x | [$x??]
{a: (if . then 1 else 2 end), b: .c?, c: (1?)}
reduce (.[]?) as $x (0; . + $x)
-def f: 1; f, 2
try def f: 1; f + 1
try error("x") catch def f: 2; f, 3
1 == def f: 1; f == 2
.a = def f: 1; f |= 2
[1 - def f: 2; f - 3]
-label $out | 1, break $out
-if . then 1 else 2 end
-reduce .[] as $x (0; . + $x)
label $out | break $out[0]
try . as $x | error("e") catch 1
[1 | try . as $x | error("a"), 2 catch ., 3]
try . as [$a, $b] | $a + $b catch "bad"
try label $out | 1, break $out catch 2 | 3
try def f: 1; f + 2 catch 3 * 4
1 + try -2 * 3 catch 4 * 5
try . as $x | try error("in") catch . catch "out"
try . as $x | 1 catch . as $y | $y, 2
[.[] | try . as $v | $v | tonumber catch "nan"]
