# The two set-up commands of the README, plus developer conveniences.
#   make demo  - install missing packages, build only the CLI and its built-in catalog (no tests,
#                no benchmarks), and show the JobSet example resolved through that catalog
#   make test  - install missing packages, build, run every test through CTest
#   make install PREFIX=DIR - the CLI, its catalog, completion scripts and kubectl-wm under DIR
#   make diff-long SECONDS=N - random differential testing against libjq for N seconds
#   make fuzz FUZZ_SECONDS=N - install clang-19, build and run every libFuzzer target N seconds each
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

.PHONY: all deps configure build demo install test diff-long fuzz bench clean

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

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

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
