#!/bin/sh
# Runs wmc's engines, libjq and (when Go and gojq's Debian sources are installed) gojq on every
# catalog kind's seeded corpus, and prints a ratio table: how many times faster each wmc engine
# evaluates the kind's resolvers than libjq and gojq (competitor ns per object / wmc ns per object),
# and for the view engine (fused; fused-native: its fills and programs as native code, the
# nat_ns, nat/jq, nat/gojq and nb2r~simd columns) its bytes-to-results against simdjson's parse alone: b2r/simd is
# the ratio of the two best passes, b2r~simd the median over bench_engines' rounds of the fused
# pass over the parse pass just before it (paired in time: steadier on a shared machine), each
# pass starting with its text in cache, and b2r~cold the same with the caches emptied before
# each pass (the text read from memory). The view engines' ns (fused_ns, nat_ns) are their
# evaluation: the median over the rounds of their pass minus the parse pass just before it; the
# other engines' are their best pass.
#   bench/compare.sh [BUILD_DIR]        # default build; corpus in BUILD_DIR/bench-corpus
#   bench/compare.sh build-pgo          # the profile-guided build of `make pgo` (RESULTS 0o)
# Environment: WM_SHARED_BENCH (default ../shared/bench: the gojq harness), REPEAT (default 3),
# OPT_LEVEL (LLVM level of jit/aot code, default 2), KINDS (space-separated kind names; default all),
# CLOCK (wall, the default, or cpu: the thread's CPU time, steadier on a loaded machine).
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
shared=${WM_SHARED_BENCH:-$repo/../shared/bench}
repeat=${REPEAT:-3}
opt=${OPT_LEVEL:-2}
clock=${CLOCK:-wall}
cmake --build "$build" -j2 --target bench_engines bench_corpus bench-corpus >/dev/null
corpus=$build/bench-corpus

gojq=""
if command -v go >/dev/null 2>&1 && [ -d /usr/share/gocode/src/github.com/itchyny/gojq ] &&
   [ -x "$shared/gojq/build.sh" ]; then
  [ -x "$build/gojq-bench" ] || "$shared/gojq/build.sh" "$build/gojq-bench" >/dev/null
  gojq=$build/gojq-bench
else
  echo "note: Go or gojq's sources (golang-github-itchyny-gojq-dev) missing: no gojq column" >&2
fi

field() {  # field NAME LINE: the value of NAME=... in a summary line
  echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
ratio() {  # ratio A B: A / B with one decimal, or - when either is missing
  if [ -z "$1" ] || [ -z "$2" ]; then echo "-"; else awk "BEGIN { printf \"%.1f\", $1 / $2 }"; fi
}

printf '%-48s %7s %9s %9s %9s %9s %9s %9s %9s | %8s %8s %8s %8s %8s %8s %10s %8s %8s %8s %8s %9s\n' kind exprs interp_ns jit_ns aot_ns \
  fused_ns nat_ns libjq_ns gojq_ns aot/jq jit/jq fused/jq nat/jq aot/gojq int/gojq fused/gojq nat/gojq b2r/simd 'b2r~simd' \
  'b2r~cold' 'nb2r~simd'
kinds=${KINDS:-$(cd "$corpus" && ls *.exprs | sed 's/\.exprs$//')}
for kind in $kinds; do
  out=$("$build/bin/bench_engines" --exprs "$corpus/$kind.exprs" --objects "$corpus/$kind.ndjson" \
        --repeat "$repeat" --opt-level "$opt" --clock "$clock" 2>/dev/null) || { echo "$kind: bench_engines failed" >&2; continue; }
  line() { echo "$out" | grep "^engine=$1 "; }
  interp=$(field ns_per_object "$(line interp)")
  jit=$(field ns_per_object "$(line jit)")
  aot=$(field ns_per_object "$(line aot)")
  # The view engines' evaluation: the median of their passes minus the parse pass just before
  # (paired in time, as b2r~simd is), not the difference of two best passes from different rounds.
  fused=$(field ns_per_object_paired "$(line fused)")
  native=$(field ns_per_object_paired "$(line fused-native)")
  native_paired=$(field bytes_to_results_over_parse_paired "$(line fused-native)")
  fused_b2r=$(field bytes_to_results_ns_per_object "$(line fused)")
  paired=$(field bytes_to_results_over_parse_paired "$(line fused)")
  paired_cold=$(field bytes_to_results_over_parse_paired_cold "$(line fused)")
  simd=$(field parse_ns_per_object "$(line simdjson-parse)")
  libjq=$(field ns_per_object "$(line libjq)")
  exprs=$(field exprs "$(line interp)")
  outputs=$(field outputs "$(line interp)")
  g=""
  if [ -n "$gojq" ]; then
    gline=$("$gojq" -exprs "$corpus/$kind.exprs" -objects "$corpus/$kind.ndjson" -mode cached 2>/dev/null | tail -1) || gline=""
    # Only comparable when gojq ran the same expressions to the same number of outputs.
    if [ "$(field outputs "$gline")" = "$outputs" ]; then g=$(field ns_per_object "$gline"); fi
  fi
  printf '%-48s %7s %9s %9s %9s %9s %9s %9s %9s | %8s %8s %8s %8s %8s %8s %10s %8s %8s %8s %8s %9s\n' "$kind" "$exprs" \
    "$interp" "$jit" "$aot" "$fused" "${native:--}" "$libjq" "${g:--}" "$(ratio "$libjq" "$aot")" "$(ratio "$libjq" "$jit")" \
    "$(ratio "$libjq" "$fused")" "$(ratio "$libjq" "$native")" "$(ratio "$g" "$aot")" "$(ratio "$g" "$interp")" \
    "$(ratio "$g" "$fused")" "$(ratio "$g" "$native")" "$(ratio "$fused_b2r" "$simd")" "${paired:--}" "${paired_cold:--}" \
    "${native_paired:--}"
done
