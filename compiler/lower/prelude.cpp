// The prelude: builtins that jq itself defines in jq, written here in jq and parsed once. Names
// starting with '_' are internal. Native helpers (_sort_by_impl, _match_impl, ...) are rows of
// runtime/ir/builtins.def; path(f), getpath, error, empty and range are lowered specially.
#include "compiler/lower/internal/prelude.h"

#include "compiler/jq/parser.h"

namespace wm::lower::internal {

const char* PreludeSource() {
  return R"JQ(
def select(f): if f then . else empty end;
def map(f): [.[] | f];
def map_values(f): .[] |= f;
def recurse(f): def _recurse: ., (f | _recurse); _recurse;
def recurse(f; cond): def _recurse: ., (f | select(cond) | _recurse); _recurse;
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type | . == "array" or . == "object");
def scalars: select(type | . != "array" and . != "object");
def isfinite: type == "number" and (isinfinite | not);
def finites: select(isfinite);
def normals: select(isnormal);
def add(f): reduce f as $x (null; . + $x);
def first(f): label $out | (f | ., break $out);
def last(f): reduce f as $x (null; $x);
def isempty(g): first((g | false), true);
def any(g; cond): isempty(first(g | cond or empty)) | not;
def all(g; cond): isempty(first(g | cond and empty));
def any(cond): any(.[]; cond);
def all(cond): all(.[]; cond);
def any: any(.);
def all: all(.);
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def limit($n; f):
  if $n > 0 then label $out | foreach f as $item (0; . + 1; $item, if . >= $n then break $out else empty end)
  elif $n == 0 then empty
  else f end;
# jq 1.7: past the end of f, nth is empty (1.6 repeated the last output).
def nth($n; f): if $n < 0 then error("Out of bounds negative array index")
  else label $out | foreach f as $item ($n + 1; . - 1; if . <= 0 then $item, break $out else empty end) end;
def until(cond; update): def _until: if cond then . else (update | _until) end; _until;
def while(cond; update): def _while: if cond then ., (update | _while) else empty end; _while;
# As jq defines it: f applied to the same input again and again (`repeat(input)` reads inputs).
def repeat(f): def _repeat: f, _repeat; _repeat;
# Binary search of a sorted array: the index of $target, or (-1 - insertion point) when absent.
def bsearch($target): . as $in
  | {low: 0, high: (length - 1), at: null}
  | until(.at != null or .low > .high;
      ((.low + .high) / 2 | floor) as $mid
      | if $in[$mid] == $target then .at = $mid
        elif $in[$mid] < $target then .low = $mid + 1
        else .high = $mid - 1 end)
  | if .at != null then .at else -1 - .low end;
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def combinations:
  if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): def _walk: if type == "object" then map_values(_walk) elif type == "array" then map(_walk) else . end | f; _walk;
def transpose:
  if . == [] then [] else . as $in | (map(length) | max) as $max
  | [range(0; $max) as $j | [range(0; $in | length) as $i | $in[$i][$j]]] end;
# As in jq 1.6 and 1.7: keys from key/Key/name/Name (a non-string key is an error, e.g. on
# `[1,2] | to_entries`), values from value/Value.
def from_entries:
  reduce .[] as $entry ({};
    . + {($entry | .key // .Key // .name // .Name):
           ($entry | if has("value") then .value else .Value end)});
def with_entries(f): to_entries | map(f) | from_entries;
def del(f): delpaths([path(f)]);
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def tostream: _tostream | .[];
def fromstream(f): { x: null, e: false } as $init
  | foreach f as $i ($init;
      if .e then $init else . end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input
  | if (.[0] | length) > $n then setpath([0]; .[0][$n:]) else empty end;
def flatten: _flatten(1e9);
def flatten($depth): _flatten($depth);
def sort_by(f): _sort_by_impl(map([f]));
def group_by(f): _group_by_impl(map([f]));
def unique_by(f): _unique_by_impl(map([f]));
def max_by(f): _max_by_impl(map([f]));
def min_by(f): _min_by_impl(map([f]));
def indices($i): _indices($i);
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%SZ") | mktime;
def todate: todateiso8601;
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def match(re; mode): _match_impl(re; mode) | .[];
def match($val): ($val | type) as $vt
  | if $vt == "string" then match($val; null)
    elif $vt == "array" and ($val | length) > 1 then match($val[0]; $val[1])
    elif $vt == "array" and ($val | length) > 0 then match($val[0]; null)
    else error($vt + " not a string or array") end;
def test(re; mode): _test_impl(re; mode);
def test($val): ($val | type) as $vt
  | if $vt == "string" then test($val; null)
    elif $vt == "array" and ($val | length) > 1 then test($val[0]; $val[1])
    elif $vt == "array" and ($val | length) > 0 then test($val[0]; null)
    else error($vt + " not a string or array") end;
def _capture_object: reduce (.captures[] | select(.name != null)) as $c ({}; .[$c.name] = $c.string);
def capture(re; mods): match(re; mods) | _capture_object;
def capture($val): match($val) | _capture_object;
def scan($re; $flags): match($re; "g" + $flags)
  | if (.captures | length) > 0 then [.captures[] | .string] else .string end;
def scan($re): scan($re; null);
def split($re; flags): . as $s
  | [match($re; "g" + flags) | (.offset, .offset + .length)] as $ms
  | [0] + $ms + [$s | length]
  | [range(0; length; 2) as $i | $s[.[$i]:.[$i + 1]]];
def splits($re; flags): split($re; flags) | .[];
def splits($re): splits($re; null);
# jq 1.7.1's sub: the j-th result puts the j-th output of `str` (run on the capture object) at
# every match where `str` has one, a match where it has none being dropped with the text before
# it; then the rest of the input. No match, or an error anywhere, gives the input (`//`). jq
# appends to growing strings, quadratic in the matches; here each piece is built once (the input
# exploded once, so a gap costs its length, not its offset) and each result joined once.
def sub($re; str; $flags): . as $in
  | ([match($re; $flags)] as $edits
     | select($edits | length > 0)
     | ($in | explode) as $codepoints
     | [0, ($edits[] | .offset + .length)] as $after
     | [range(0; $edits | length) as $i
        | ($codepoints[$after[$i]:$edits[$i].offset] | implode) as $gap
        | [$edits[$i] | _capture_object | str] | map($gap + .)] as $pieces
     | [range(0; [$pieces[] | length] | max) as $j
        | [$pieces[] | select(length > $j) | .[$j]] | join("")] as $heads
     | ($codepoints[$after[-1]:] | implode) as $tail
     | $heads[] + $tail)
    // $in;
def sub($re; str): sub($re; str; "");
def gsub($re; str; $flags): sub($re; str; $flags + "g");
def gsub($re; str): sub($re; str; "g");
def ascii: if type == "number" and . >= 0 and . <= 127 then [.] | implode
  else error("ascii only takes integers between 0 and 127") end;
def have_literal_numbers: false;
def have_decnum: false;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def _assign(paths; $value): reduce path(paths) as $p (.; setpath($p; $value));
# jq 1.7: the first output of update replaces the value; where update yields nothing the path
# is deleted, all deletions at the end so that earlier deletions do not shift later paths.
def _modify(paths; update): reduce path(paths) as $p ([., []];
    . as [$x, $dels]
    | label $out
    | (($x | getpath($p) | update) as $v | [($x | setpath($p; $v)), $dels] | ., break $out),
      [$x, $dels + [$p]])
  | . as [$x, $dels] | $x | delpaths($dels);
.
)JQ";
}

const Prelude& GetPrelude() {
  static const Prelude* prelude = [] {
    auto* p = new Prelude;
    jq::ParseOptions options;
    options.max_errors = 1;
    jq::ParseResult parsed = jq::Parse(PreludeSource(), options);
    if (!parsed.ok()) {
      p->error = parsed.diagnostics.empty() ? "prelude failed to parse"
                                            : "prelude: " + parsed.diagnostics[0].message;
      return p;
    }
    p->ast = std::move(parsed.ast);
    // The definitions form a chain: FuncDef{body, rest=FuncDef{...}}, ending in `.`.
    for (const jq::Node* n = p->ast.get(); n != nullptr && n->kind == jq::NodeKind::FuncDef; n = n->kid(1)) {
      p->definitions[n->text + "/" + std::to_string(n->params.size())] = n;
    }
    return p;
  }();
  return *prelude;
}

}  // namespace wm::lower::internal
