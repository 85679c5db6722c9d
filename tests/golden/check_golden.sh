#!/usr/bin/env bash
# Golden check for the catalog: compiles catalog/ with the given wmc, runs `wmc inspect` (text and
# -o json) on every catalog/examples/*.yaml and diffs the output with tests/golden/<stem>.{txt,json};
# then `wmc pods` and `wmc gangs --pods` on every catalog/examples/pods/<stem>-pods.yaml against its
# workload (<stem>-running.yaml, or the example its first line names), diffed with
# tests/golden/{pods,gangs}/<stem>.{txt,json}; then `wmc describe -f` on every example (text, json,
# yaml) with --pods catalog/examples/pods/<P>-pods.yaml when the example is <P>-*.yaml or the pods
# file's first line names it, plus the stand-in owners tests/golden/describe/owners/<P>-owners.yaml
# (the ReplicaSets, Jobs, ... between the pods and the workload), diffed with
# tests/golden/describe/<stem>.{txt,json,yaml} (ORIGIN, the temporary bundle's path, as catalog.wmb).
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
# The pods file of an example (relative to $root), or nothing.
pods_of() {
  local stem=$1 pods
  for pods in "$root"/catalog/examples/pods/*-pods.yaml; do
    local p
    p=$(basename "$pods" -pods.yaml)
    if [[ $stem == "$p"-* ]] || head -1 "$pods" | grep -q "\b$stem\.yaml"; then
      echo "catalog/examples/pods/$p-pods.yaml"
      return
    fi
  done
}
for example in "$root"/catalog/examples/*.yaml; do
  stem=$(basename "$example" .yaml)
  pods=$(pods_of "$stem")
  args=(--now 2026-12-03T12:00:00Z)
  if [[ -n $pods ]]; then
    args+=(--pods "$pods")
    owners="tests/golden/describe/owners/$(basename "$pods" -pods.yaml)-owners.yaml"
    if [[ -f $root/$owners ]]; then args+=(--pods "$owners"); fi
  fi
  for format in txt json yaml; do
    if [[ $format == txt ]]; then output=table; else output=$format; fi
    (cd "$root" && "$wmc" describe --bundle "$work/catalog.wmb" -o "$output" "${args[@]}" \
        -f "catalog/examples/$stem.yaml") 2>&1 | sed "s|$work/||g" > "$work/describe-$stem.$format" || true
    check "$work/describe-$stem.$format" "$golden/describe/$stem.$format"
  done
done
if (( failures > 0 )); then
  echo "check_golden: $failures golden file(s) differ" >&2
  exit 1
fi
echo "check_golden: all outputs match"
