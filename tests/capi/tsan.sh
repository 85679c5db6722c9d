#!/usr/bin/env bash
# The 8-thread ABI test under ThreadSanitizer (CTest label `tsan`): a second configure of this
# source tree into its own build directory with -fsanitize=thread, building only what the test
# needs (wm_runtime -> libwm -> wm_capi_threads; about 40 translation units, ccache-friendly),
# then the test on the interpreter bundle and on the native one. Any race report fails the test.
#   tsan.sh SOURCE_DIR TSAN_BUILD_DIR BUNDLE_DIR
set -euo pipefail
src=$1 build=$2 bundles=$3
flags="-fsanitize=thread -O1 -g"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWMC_BUILD_BENCH=OFF \
    -DPython3_EXECUTABLE=/usr/bin/python3 "${launcher[@]}" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
fi
cmake --build "$build" -j "${JOBS:-2}" --target wm_capi_threads >/dev/null
# The test is only worth something if the binary really is instrumented.
nm "$build/bin/wm_capi_threads" | grep __tsan_init >/dev/null || { echo "FAIL: wm_capi_threads is not built with TSan"; exit 1; }
nm -D "$build/lib/libwm.so" | grep __tsan >/dev/null || { echo "FAIL: libwm is not built with TSan"; exit 1; }
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
run() { "$build/bin/wm_capi_threads" "$bundles/catalog.wmb" "$bundles/jobset-native.wmb"; }
# Kernels with high mmap randomisation break GCC 12's TSan ("unexpected memory mapping"): retry
# with address randomisation off for this process only.
if ! out=$(run 2>&1); then
  if grep -q "unexpected memory mapping" <<<"$out" && command -v setarch >/dev/null; then
    out=$(setarch "$(uname -m)" -R "$build/bin/wm_capi_threads" "$bundles/catalog.wmb" \
          "$bundles/jobset-native.wmb" 2>&1) || { echo "$out"; exit 1; }
  else
    echo "$out"; exit 1
  fi
fi
echo "$out"
echo "tsan: no data race reported"
