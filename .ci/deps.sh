#!/usr/bin/env bash
# Installs the Debian packages wmc needs, only those missing (no apt call when all are present).
# Used by `make demo`, `make test` and .ci/run. Needs root (or sudo) only when something is missing.
#   .ci/deps.sh        the packages every build and test needs (what CI installs)
#   .ci/deps.sh fuzz   those plus clang-19 with libFuzzer and the sanitizer runtimes (`make fuzz`)
set -euo pipefail
PACKAGES=(
  antlr4 libantlr4-runtime-dev uuid-dev libyaml-cpp-dev nlohmann-json3-dev libjq-dev libonig-dev
  libcli11-dev llvm-19-dev llvm-19-tools libzstd-dev libsimdjson-dev libgtest-dev libbenchmark-dev
  jq cmake ninja-build g++ pkg-config python3
  # The Go binding (bindings/go) and its tests and benchmark: Go, Debian's Go sources of gojq and
  # yaml.v3 (GOPATH mode, nothing downloaded). libtsan2 (pulled in by g++) serves the tsan test.
  golang-go golang-github-itchyny-gojq-dev golang-gopkg-yaml.v3-dev
)
# Optional sets, named by the first argument; kept out of the default so CI does not grow.
case "${1:-}" in
  "") ;;
  fuzz) PACKAGES+=(clang-19 libclang-rt-19-dev) ;;
  *) echo "usage: $0 [fuzz]" >&2; exit 2 ;;
esac
missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "wmc: installing missing packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
