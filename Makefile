# The two set-up commands of the README, plus developer conveniences.
#   make demo  - install missing packages, build only the CLI and its built-in catalog (no tests,
#                no benchmarks), and show the JobSet example resolved through that catalog
#   make test  - install missing packages, build, run every test through CTest
#   make install PREFIX=DIR - the CLI, its catalog, completion scripts and kubectl-wm under DIR
#   make diff-long SECONDS=N - random differential testing against libjq for N seconds
#   make fuzz FUZZ_SECONDS=N - install clang-19, build and run every libFuzzer target N seconds each
#   make test-sanitize - every CTest suite under ASan + UBSan, then the TSan thread test (below)
#   make pgo   - a build in $(PGO_BUILD) whose runtime is optimized with a profile of the view
#                engine on every catalog kind (below)
BUILD ?= build
JOBS ?= 2
PREFIX ?= /usr/local
# What `make demo` builds: wmc, then catalog/ compiled by it into $(BUILD)/share/wmc/catalog.wmb
# (the built-in catalog) and the completion scripts generated from it.
CLI_TARGETS = wmc wmc_catalog wmc_completions
# What `make install` builds before `cmake --install`: every target an install rule copies from
# (another component's install block adds its targets here).
INSTALL_TARGETS ?= $(CLI_TARGETS) wm_c
CMAKE_FLAGS ?= -DPython3_EXECUTABLE=/usr/bin/python3

.PHONY: all deps configure build demo install test test-sanitize diff-long fuzz bench pgo clean

all: build

deps:
	@bash .ci/deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

demo: deps configure
	cmake --build $(BUILD) -j $(JOBS) --target $(CLI_TARGETS)
	$(BUILD)/bin/wmc definitions --group jobset.x-k8s.io
	$(BUILD)/bin/wmc get -f catalog/examples/jobset-training.yaml
	$(BUILD)/bin/wmc inspect catalog/examples/jobset-training.yaml

install: deps configure
	cmake --build $(BUILD) -j $(JOBS) --target $(INSTALL_TARGETS)
	cmake --install $(BUILD) --prefix $(PREFIX)

# ---- make pgo: everything built in $(PGO_BUILD) with a profile-guided runtime (CMakeLists.txt,
# WMC_PGO): configured with -DWMC_PGO=generate, trained by bench/pgo-train.sh (the view engine over
# a seeded corpus of every catalog kind), then reconfigured with -DWMC_PGO=use and built again.
# `bench/compare.sh $(PGO_BUILD)` measures it.
PGO_BUILD ?= build-pgo
pgo: deps
	cmake -S . -B $(PGO_BUILD) -G Ninja $(CMAKE_FLAGS) -DWMC_PGO=generate
	JOBS=$(JOBS) bash bench/pgo-train.sh $(PGO_BUILD)
	cmake -S . -B $(PGO_BUILD) -DWMC_PGO=use
	cmake --build $(PGO_BUILD) -j $(JOBS)

# CTEST_FLAGS: extra ctest arguments, e.g. -LE tsan (when test-sanitize runs the TSan test anyway).
CTEST_FLAGS ?=
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_FLAGS)

# ---- make test-sanitize: two more build directories, both -O1 -g1 (line tables are enough for
# the reports; -O1 halves compile time against -O2 -g) and without the benchmarks.
# 1. $(ASAN_BUILD): every target with ASan + UBSan (-DWMC_SANITIZE=address, CMakeLists.txt), then
#    the whole CTest suite but the `tsan` label (that is step 2). Any ASan report, any UB (never
#    recovered) and any leak fails the test that hit it. The options below apply to the build too
#    (wmc compiles the catalog while building). What runs differently under ASan:
#    - diff, diff-random: `ulimit -v` is replaced by ASan's hard_rss_limit_mb (tests/CMakeLists.txt).
#    - go, go-bench, go-vet: `go test -asan` (bindings/go/gotest.sh), so the Go test binary carries
#      the ASan runtime the instrumented libwm needs.
#    - A 32 MiB stack (ulimit -s, ASAN_STACK_KB) instead of the usual 8: the interpreter bounds
#      its depth by the bytes of stack it uses ("maximum evaluation depth exceeded (stack)"), and
#      ASan's redzones make each frame about three times larger, so without it conformance's
#      recursive fib(15) already fails on the interpreter. The JIT/AOT code runs on its own
#      mmap'ed stack segments and needs nothing.
#    - diff-random: 2,000 of its 20,000 seeded programs (same seed; tests/CMakeLists.txt), so that
#      the whole of .ci/run stays under 45 minutes on 2 cores; `make test` runs all 20,000.
#    - Leak suppressions (tests/sanitize/lsan.supp) are only for third-party global state, each
#      entry with its reason.
# 2. $(TSAN_BUILD): tests/capi/tsan.sh with the engines mode: only wm_capi_threads (C ABI:
#    interpreter and AOT bundles) and wm_engine_threads (one bundle resolved by 8 threads on the
#    interpreter, the JIT and the AOT code) built with -fsanitize=thread, run on the bundles of
#    step 1's capi-bundles fixture. Any race report fails. .ci/run runs `make test CTEST_FLAGS=-LE tsan` before this target,
#    so the C ABI thread test is built with TSan once.
# Measured times and what each step covers: docs/hacking.md "Run the sanitizers".
ASAN_BUILD ?= build-asan
ASAN_STACK_KB ?= 32768
TSAN_BUILD ?= build-tsan
# Both trees are unity builds (CMAKE_UNITY_BUILD, 8 sources per translation unit): built from
# scratch, as CI does, that halves their CPU (the headers of gtest, LLVM, ANTLR and the standard
# library are parsed once per 8 files). The price: names in anonymous namespaces must be unique
# within a target (docs/hacking.md); incremental rebuilds recompile 8 files per change.
SANITIZE_CMAKE_FLAGS = $(CMAKE_FLAGS) -DWMC_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_UNITY_BUILD=ON
SANITIZE_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
test-sanitize: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja $(SANITIZE_CMAKE_FLAGS) -DWMC_SANITIZE=address
	$(SANITIZE_ENV) cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ulimit -s $(ASAN_STACK_KB) && $(SANITIZE_ENV) ctest --output-on-failure -j $(JOBS) -LE tsan
	JOBS=$(JOBS) bash tests/capi/tsan.sh . $(TSAN_BUILD) $(ASAN_BUILD)/capi engines

# Differential testing against libjq for longer than `make test` does: random programs for SECONDS.
SECONDS ?= 300
diff-long: build
	WM_DIFF_SECONDS=$(SECONDS) $(BUILD)/bin/wm_diff_tests --gtest_filter='RandomDiff.*'

# libFuzzer targets (tests/fuzz: jq parser, evaluator, definition loader, object ingest, schema
# importer, bundle loader), built with clang-19 into $(BUILD)/fuzz apart from the CMake build, each
# run for FUZZ_SECONDS in turn (FUZZ_TARGETS picks some: `make fuzz FUZZ_TARGETS="eval_fuzzer"`).
# New inputs accumulate in $(BUILD)/fuzz/corpus/<target> from one run to the next. A crash, a UB
# or ASan report, an input slower than 10 s or a leak stops that target's run, leaves the input in
# $(BUILD)/fuzz/findings/<target>/, and makes `make fuzz` exit nonzero after the other targets;
# `$(BUILD)/fuzz/<target> FILE` replays it. The bundle seeds are compiled by $(BUILD)/bin/wmc when
# it exists. 4096 bytes reach the jq nesting limits; 64 KiB hold a seed bundle or definition.
FUZZ_SECONDS ?= 120
FUZZ_TARGETS ?= parse_fuzzer eval_fuzzer definition_fuzzer object_fuzzer schema_fuzzer bundle_fuzzer
FUZZ_DIR = $(BUILD)/fuzz
FUZZ_FLAGS ?= -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
fuzz:
	@bash .ci/deps.sh fuzz
	WMC=$(abspath $(BUILD))/bin/wmc JOBS=$(JOBS) bash tests/fuzz/build.sh $(FUZZ_DIR)
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  case $$t in parse_fuzzer|eval_fuzzer) extra="-max_len=4096 -dict=tests/fuzz/jq.dict";; \
	    *) extra="-max_len=65536";; esac; \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/findings/$$t; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  UBSAN_OPTIONS=print_stacktrace=1 $(FUZZ_DIR)/$$t $(FUZZ_FLAGS) $$extra \
	    -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(FUZZ_DIR)/findings/$$t/ \
	    $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/seeds/$$t || { \
	    failed="$$failed $$t"; \
	    echo "fuzz: $$t finding: $$(ls -t $(FUZZ_DIR)/findings/$$t/* 2>/dev/null | head -1)"; \
	    echo "fuzz: replay with $(FUZZ_DIR)/$$t FILE; shrink with -minimize_crash=1 -runs=10000"; }; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: findings in:$$failed"; exit 1; fi

bench: build
	$(BUILD)/bin/bench_engines

clean:
	rm -rf $(BUILD)
