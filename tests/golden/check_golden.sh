#!/usr/bin/env bash
# Golden check for the catalog: compiles catalog/ with the given wmc, runs `wmc inspect` (text and
# -o json) on every catalog/examples/*.yaml and diffs the output with tests/golden/<stem>.{txt,json};
# then `wmc pods` and `wmc gangs --pods` on every catalog/examples/pods/<stem>-pods.yaml against its
# workload (<stem>-running.yaml, or the example its first line names), diffed with
# tests/golden/{pods,gangs}/<stem>.{txt,json}.
# Usage: tests/golden/check_golden.sh path/to/wmc [--update]   (exit 0 all equal, 1 differences)
set -euo pipefail
wmc=${1:?usage: check_golden.sh path/to/wmc [--update]}
update=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
golden="$root/tests/golden"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The interpreter bundle is enough here: native code must produce the same output, which the
# engine tests check; --no-native keeps this fast.
if ! "$wmc" compile "$root/catalog" -o "$work/catalog.wmb" --no-native >"$work/compile.log" 2>&1; then
  cat "$work/compile.log" >&2
  exit 2
fi
failures=0
for example in "$root"/catalog/examples/*.yaml; do
  stem=$(basename "$example" .yaml)
  for format in txt json; do
    if [[ $format == json ]]; then args=(-o json); else args=(); fi
    (cd "$root" && "$wmc" inspect --bundle "$work/catalog.wmb" "${args[@]}" \
        "catalog/examples/$stem.yaml") > "$work/$stem.$format" 2>&1 || true
    if [[ $update == --update ]]; then
      cp "$work/$stem.$format" "$golden/$stem.$format"
    elif ! diff -u "$golden/$stem.$format" "$work/$stem.$format"; then
      failures=$((failures + 1))
    fi
  done
done
# Compares the output of one command with its golden file (or refreshes it with --update).
check() {
  local out=$1 expected=$2
  if [[ $update == --update ]]; then
    mkdir -p "$(dirname "$expected")"
    cp "$out" "$expected"
  elif ! diff -u "$expected" "$out"; then
    failures=$((failures + 1))
  fi
}
for pods in "$root"/catalog/examples/pods/*-pods.yaml; do
  stem=$(basename "$pods" -pods.yaml)
  workload="catalog/examples/$stem-running.yaml"
  if [[ ! -f $root/$workload ]]; then
    workload="catalog/examples/$(head -1 "$pods" | grep -o '[a-z0-9.-]*\.yaml' | head -1)"
  fi
  for verb in pods gangs; do
    for format in txt json; do
      if [[ $format == json ]]; then args=(-o json); else args=(); fi
      (cd "$root" && "$wmc" "$verb" --bundle "$work/catalog.wmb" "${args[@]}" --pods \
          "catalog/examples/pods/$stem-pods.yaml" "$workload") > "$work/$verb-$stem.$format" 2>&1 || true
      check "$work/$verb-$stem.$format" "$golden/$verb/$stem.$format"
    done
  done
done
if (( failures > 0 )); then
  echo "check_golden: $failures golden file(s) differ" >&2
  exit 1
fi
echo "check_golden: all outputs match"
