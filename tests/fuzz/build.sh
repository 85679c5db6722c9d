#!/usr/bin/env bash
# Builds tests/fuzz/parse_fuzzer with clang-19 (libFuzzer + ASan + UBSan) outside the CMake build:
#   apt-get install -y clang-19 libclang-rt-19-dev
#   tests/fuzz/build.sh [OUT_DIR]         (default /tmp/wm-fuzz)
#   OUT_DIR/parse_fuzzer -max_total_time=60 -max_len=512 OUT_DIR/corpus tests/fuzz/seeds
# The seed corpus is made from tests/corpus/jq/valid.jq, one file per line.
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-/tmp/wm-fuzz}"
mkdir -p "$out/gen" "$out/obj" "$out/corpus" "$out/seeds"
/usr/bin/antlr4 -Dlanguage=Cpp -visitor -no-listener -package wm::jq::gen -Xexact-output-dir \
  -o "$out/gen" "$src/grammar/Jq.g4"
flags=(-std=c++20 -fno-char8_t -O1 -g -fsanitize=fuzzer-no-link,address,undefined
       -I"$src" -I"$out/gen" -I/usr/include/antlr4-runtime -Wno-attributes)
objs=()
# The front end and what it links: diagnostics (compiler/source) and the UTF-8 encoder.
for f in "$out"/gen/*.cpp "$src"/compiler/jq/*.cpp "$src"/compiler/source/*.cpp \
         "$src"/runtime/value/utf8.cpp; do
  o="$out/obj/$(basename "$f" .cpp).o"
  clang++-19 "${flags[@]}" -c "$f" -o "$o"
  objs+=("$o")
done
clang++-19 "${flags[@]}" -fsanitize=fuzzer "$src/tests/fuzz/parse_fuzzer.cpp" "${objs[@]}" \
  -lantlr4-runtime -o "$out/parse_fuzzer"
n=0
while IFS= read -r line; do
  n=$((n + 1))
  printf '%s' "$line" > "$out/seeds/line$n.jq"
done < "$src/tests/corpus/jq/valid.jq"
echo "built $out/parse_fuzzer; seeds in $out/seeds"
