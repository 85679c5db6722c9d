#!/usr/bin/env bash
# libwm must load into any process without the compiler's dependencies: no LLVM, ANTLR or yaml-cpp
# among the libraries it needs (directly or through others) or the symbols it imports, a SONAME
# from the ABI version, and only the wm_* functions exported. The same check must reject a binary
# that does link them (bin/wmc), so a check that can no longer fail is noticed.
#   check_libwm.sh LIBWM.so BINARY_LINKING_LLVM
set -uo pipefail
lib=$1 forbidden_example=$2
FORBIDDEN='llvm|antlr|yaml-cpp'
FORBIDDEN_SYMBOLS='_ZN4llvm|_ZN6antlr4|_ZN4YAML|LLVM[A-Z]'

# Prints one line per finding; the exit status is the number of findings (0 = clean).
findings() {
  local file=$1 n=0
  while read -r dep; do
    echo "  needs $dep"; n=$((n + 1))
  done < <(ldd "$file" | grep -Ei "$FORBIDDEN")
  while read -r sym; do
    echo "  imports $sym"; n=$((n + 1))
  done < <(nm -D --undefined-only "$file" | grep -E "$FORBIDDEN_SYMBOLS" | head -5)
  return $((n > 0))
}

status=0
if ! out=$(findings "$lib"); then
  echo "FAIL: $lib pulls in the compiler's dependencies:"; echo "$out"; status=1
fi
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if ! [[ $soname =~ ^libwm\.so\.[0-9]+$ ]]; then
  echo "FAIL: SONAME '$soname' is not libwm.so.<ABI version>"; status=1
fi
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sed 's/@.*//')
others=$(echo "$exported" | grep -v '^wm_' | grep -v '^$')
if [ -n "$others" ]; then
  echo "FAIL: $lib exports symbols besides wm_*:"; echo "$others" | head -10; status=1
fi
if ! echo "$exported" | grep -x wm_resolve >/dev/null; then
  echo "FAIL: $lib does not export wm_resolve"; status=1
fi
if findings "$forbidden_example" >/dev/null; then
  echo "FAIL: the check did not notice LLVM/ANTLR/yaml-cpp in $forbidden_example"; status=1
fi
[ $status -eq 0 ] && echo "libwm: SONAME $soname, $(echo "$exported" | wc -l) wm_* symbols, no LLVM/ANTLR/yaml-cpp"
exit $status
