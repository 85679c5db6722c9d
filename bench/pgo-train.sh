#!/bin/sh
# The training run of `make pgo`: in a build configured with -DWMC_PGO=generate (its wm_runtime
# instrumented), runs the view engine over a seeded corpus of every catalog kind and resolves the
# catalog's examples through the CLI, so that the profile the second stage (-DWMC_PGO=use)
# compiles wm_runtime with holds the counts of what consumers run per object. The corpus has its
# own seed (2), not the benchmark corpus's (1): bench/compare.sh measures objects the profile
# never saw.
#   bench/pgo-train.sh BUILD_DIR        # JOBS: parallel build jobs (default 2, as the Makefile's)
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: bench/pgo-train.sh BUILD_DIR}
grep -q '^WMC_PGO:STRING=generate$' "$build/CMakeCache.txt" ||
  { echo "pgo-train: $build is not configured with -DWMC_PGO=generate" >&2; exit 2; }
profile=$(sed -n 's/^WMC_PGO_DIR:PATH=//p' "$build/CMakeCache.txt")
# Its output is kept: a compile error in the instrumented build is reported as in any build.
cmake --build "$build" -j "${JOBS:-2}" --target bench_engines bench_corpus wmc wmc_catalog
rm -rf "$profile"  # counts of the build's own runs (the catalog compiled by wmc) are not kept
corpus=$build/pgo-corpus
rm -rf "$corpus"
"$build/bin/bench_corpus" --bundle "$build/share/wmc/catalog.wmb" --examples "$repo/catalog/examples" \
  --kind all --count "${PGO_OBJECTS:-300}" --seed 2 --out-dir "$corpus" >/dev/null
for exprs in "$corpus"/*.exprs; do
  kind=$(basename "$exprs" .exprs)
  "$build/bin/bench_engines" --exprs "$exprs" --objects "$corpus/$kind.ndjson" --engines fused --repeat 2 >/dev/null
done
for example in "$repo"/catalog/examples/*.yaml; do
  "$build/bin/wmc" get -f "$example" >/dev/null
done
echo "pgo-train: profile of $(ls "$corpus"/*.exprs | wc -l) kinds in $profile"
