#!/usr/bin/env bash
# Fixture of the C ABI and Go tests: the whole catalog compiled for the interpreter (fast) and the
# JobSet definition with native code (so the ABI is tested through both engines).
#   make_bundles.sh WMC SOURCE_DIR OUT_DIR
set -euo pipefail
wmc=$1 src=$2 out=$3
mkdir -p "$out"
"$wmc" compile "$src/catalog" -o "$out/catalog.wmb" --no-native
"$wmc" compile "$src/catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml" -o "$out/jobset-native.wmb"
