#!/usr/bin/env bash
# The thread tests under ThreadSanitizer: a second configure of this source tree into its own build
# directory with -DWMC_SANITIZE=thread, building only what the tests need, then the tests. Any race
# report fails. A unity build (8 sources per translation unit), as the ASan tree of `make test-sanitize`:
# it is built from scratch each time CI runs it.
#   tsan.sh SOURCE_DIR TSAN_BUILD_DIR BUNDLE_DIR [engines]
# Default (CTest capi-tsan, label tsan): wm_capi_threads, 8 threads calling the C ABI on the
# interpreter bundle and on the native one (wm_runtime -> libwm; about 40 translation units).
# engines (`make test-sanitize`): also wm_engine_threads, one bundle resolved by 8 threads on the
# interpreter, the JIT and the AOT code (links the compiler and LLVM, so the whole compiler is
# built with TSan; LLVM itself is not instrumented, which hides no race in our code: TSan sees
# every access our code makes and every lock LLVM takes through pthreads).
set -euo pipefail
src=$1 build=$2 bundles=$3 mode=${4:-abi}
launcher=()
if command -v ccache >/dev/null && [ -z "${CCACHE_DISABLE:-}" ]; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWMC_BUILD_BENCH=OFF \
    -DPython3_EXECUTABLE=/usr/bin/python3 "${launcher[@]}" -DWMC_SANITIZE=thread -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" >/dev/null
fi
targets=(wm_capi_threads)
if [ "$mode" = engines ]; then targets+=(wm_engine_threads); fi
cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]}" >/dev/null
# A test is only worth something if the binary really is instrumented.
for t in "${targets[@]}"; do
  nm "$build/bin/$t" | grep __tsan_init >/dev/null || { echo "FAIL: $t is not built with TSan"; exit 1; }
done
nm -D "$build/lib/libwm.so" | grep __tsan >/dev/null || { echo "FAIL: libwm is not built with TSan"; exit 1; }
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
# Kernels with high mmap randomisation break GCC 12's TSan ("unexpected memory mapping"): retry
# with address randomisation off for this process only.
run() {
  local out
  if ! out=$("$@" 2>&1); then
    if grep -q "unexpected memory mapping" <<<"$out" && command -v setarch >/dev/null; then
      out=$(setarch "$(uname -m)" -R "$@" 2>&1) || { echo "$out"; exit 1; }
    else
      echo "$out"; exit 1
    fi
  fi
  echo "$out"
}
run "$build/bin/wm_capi_threads" "$bundles/catalog.wmb" "$bundles/jobset-native.wmb"
if [ "$mode" = engines ]; then
  run "$build/bin/wm_engine_threads" "$bundles/jobset-native.wmb"
fi
echo "tsan: no data race reported"
