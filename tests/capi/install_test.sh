#!/usr/bin/env bash
# `cmake --install` of the build into a temporary prefix, then two consumers built against it the
# way users would: a C program compiled with `pkg-config --cflags --libs wm`, and a CMake project
# using find_package(wm) / wm::wm. Both run against $WM_TEST_BUNDLE.
#   install_test.sh BUILD_DIR CONSUMER_SOURCE_DIR C_COMPILER
# WM_CONSUMER_FLAGS: extra compile and link flags of the consumers (a sanitizer build's libwm needs
# its sanitizer runtime in the program, so the consumers are built with the same -fsanitize).
set -euo pipefail
build=$1 consumer=$2 cc=$3
read -r -a extra <<<"${WM_CONSUMER_FLAGS:-}"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/usr" >/dev/null
for f in include/wm.h; do test -f "$prefix/usr/$f" || { echo "FAIL: $f not installed"; exit 1; }; done
pc=$(find "$prefix/usr" -name wm.pc)
lib=$(find "$prefix/usr" -name 'libwm.so')
config=$(find "$prefix/usr" -name wmConfig.cmake)
test -n "$pc" -a -n "$lib" -a -n "$config" || { echo "FAIL: wm.pc, libwm.so or wmConfig.cmake missing"; exit 1; }
libdir=$(dirname "$lib")

# pkg-config
export PKG_CONFIG_PATH=$(dirname "$pc")
# shellcheck disable=SC2046
"$cc" "${extra[@]}" -std=c99 -Wall -Werror -o "$prefix/consumer-pc" "$consumer/consumer.c" $(pkg-config --cflags --libs wm)
LD_LIBRARY_PATH=$libdir "$prefix/consumer-pc" "$WM_TEST_BUNDLE"

# find_package(wm)
cmake -S "$consumer" -B "$prefix/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix/usr" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="${WM_CONSUMER_FLAGS:-}" >/dev/null
cmake --build "$prefix/build" >/dev/null
"$prefix/build/consumer" "$WM_TEST_BUNDLE"  # the imported target carries the rpath of the build
echo "install: header, libwm, wm.pc and wmConfig.cmake under $prefix; both consumers ran"
