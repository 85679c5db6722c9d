#!/usr/bin/env bash
# Runs `go` on the binding offline, the way CTest (`make test`) does: GOPATH mode over a copy of
# bindings/go at its import path, Debian's Go sources (/usr/share/gocode: gojq, yaml.v3) for the
# rest, no module proxy; cgo finds wm.h in the source tree and libwm in the build tree.
#   gotest.sh SOURCE_DIR BUILD_DIR GO_ARGS...      e.g. gotest.sh . build test ./...
# The test fixtures (WM_BUNDLE, WM_NATIVE_BUNDLE) are taken from BUILD_DIR/capi.
set -euo pipefail
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd)
shift 2
gopath=$(mktemp -d)
trap 'rm -rf "$gopath"' EXIT
pkg=$gopath/src/github.com/wmc/wm
mkdir -p "$(dirname "$pkg")"
cp -r "$src/bindings/go" "$pkg"
export GO111MODULE=off GOPROXY=off GOFLAGS= GOPATH="$gopath:/usr/share/gocode"
export GOCACHE=${GOCACHE:-$build/go-cache}
export CGO_CFLAGS="-I$src/runtime/c" CGO_LDFLAGS="-L$build/lib -Wl,-rpath,$build/lib"
# An ASan build's libwm needs the ASan runtime loaded first: build the Go test binary with it.
if grep -qs '^WMC_SANITIZE:STRING=address$' "$build/CMakeCache.txt"; then
  export GOFLAGS=-asan
fi
export WM_SOURCE_DIR=$src WM_BUNDLE=$build/capi/catalog.wmb WM_NATIVE_BUNDLE=$build/capi/jobset-native.wmb
cd "$pkg"
go "$@"
