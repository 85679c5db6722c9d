#!/bin/sh
# Instructions the view engine ("fused") executes per object, counted by valgrind's callgrind:
# exact and repeatable where wall or CPU times on these shared machines move 10-50 % between runs.
# For each kind of the seeded corpus it runs bench_engines --engines fused once under callgrind,
# collecting only inside FusedRunner::Run (parse + evaluation of every resolver; the pattern is
# Run's own signature, since callgrind toggles collection off again on entering any other function
# it matches, such as a lambda of Run's), and again with a
# program that reads one absent key (parse + the runner's fixed work), and prints per object:
#   kind  run_ir  parse_ir (simdjson's two stages)  fixed_ir (absent key run - parse)  eval_ir (run - absent key run)
# Instructions are not time (simdjson's stages run at a higher IPC than the evaluator), so
# bench/compare.sh stays the measure of the targets; this one shows what a change removed.
#   bench/instructions.sh [BUILD_DIR]        # KINDS="k1 k2": only those kinds; OBJECTS=N: the
#                                            # first N objects of each kind's corpus (default all);
#                                            # ENGINE=fused-native: the fills as native code
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 2; }
cmake --build "$build" -j2 --target bench_engines bench-corpus >/dev/null
corpus=$build/bench-corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${OBJECTS:-}" ]; then  # a prefix of every corpus, in a copy
  mkdir "$tmp/corpus"
  for f in "$corpus"/*.ndjson; do head -n "$OBJECTS" "$f" > "$tmp/corpus/$(basename "$f")"; done
  cp "$corpus"/*.exprs "$tmp/corpus/"
  corpus=$tmp/corpus
fi
echo '.wm_absent_key' > "$tmp/absent.exprs"

# count EXPRS KIND: prints "IR PARSE_IR" per call of FusedRunner::Run
count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" --toggle-collect='wm::view::FusedRunner::Run(*long)' \
    "$build/bin/bench_engines" --exprs "$1" --objects "$corpus/$2.ndjson" --engines "${ENGINE:-fused}" --repeat 1 >/dev/null 2>&1
  # Calls of Run: the call counts on the edges into it.
  id=$(grep -o 'fn=([0-9]*) wm::view::FusedRunner::Run(.*long)$' "$tmp/out" | head -1 | grep -o '([0-9]*)')
  runs=$(grep -A1 "^cfn=$id" "$tmp/out" | sed -n 's/^calls=\([0-9]*\) .*/\1/p' | awk '{s+=$1} END {print s}')
  callgrind_annotate "$tmp/out" 2>/dev/null | awk -v runs="$runs" '
    /PROGRAM TOTALS/ { v=$1; gsub(",", "", v); total=v }
    /dom_parser_implementation::stage[12]/ { v=$1; gsub(",", "", v); parse+=v }
    END { printf "%d %d\n", total / runs, parse / runs }'
}

printf '%-48s %9s %9s %9s %9s\n' kind run_ir parse_ir fixed_ir eval_ir
kinds=${KINDS:-$(cd "$corpus" && ls *.exprs | sed 's/\.exprs$//')}
for kind in $kinds; do
  set -- $(count "$corpus/$kind.exprs" "$kind")
  run=$1 parse=$2
  set -- $(count "$tmp/absent.exprs" "$kind")
  printf '%-48s %9d %9d %9d %9d\n' "$kind" "$run" "$parse" "$(($1 - parse))" "$((run - $1))"
done
