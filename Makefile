# The two set-up commands of the README, plus developer conveniences.
#   make demo  - install missing packages, build, compile catalog/ to build/catalog.wmb, inspect an example
#   make test  - install missing packages, build, run every test through CTest
#   make diff-long SECONDS=N - random differential testing against libjq for N seconds
#   make fuzz FUZZ_SECONDS=N - install clang-19, build and run the jq parser fuzzer for N seconds
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DPython3_EXECUTABLE=/usr/bin/python3

.PHONY: all deps configure build demo test diff-long fuzz bench clean

all: build

deps:
	@bash .ci/deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/bin/wmc compile catalog/ -o $(BUILD)/catalog.wmb
	$(BUILD)/bin/wmc inspect --bundle $(BUILD)/catalog.wmb catalog/examples/jobset-training.yaml

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Differential testing against libjq for longer than `make test` does: random programs for SECONDS.
SECONDS ?= 300
diff-long: build
	WM_DIFF_SECONDS=$(SECONDS) $(BUILD)/bin/wm_diff_tests --gtest_filter='RandomDiff.*'

# libFuzzer on the jq front end (tests/fuzz), built with clang-19 into $(BUILD)/fuzz apart from the
# CMake build. New inputs accumulate in $(BUILD)/fuzz/corpus from one run to the next. A crash, a
# UB or ASan report, an input slower than 10 s or a leak stops the run with a nonzero exit and
# leaves the input in $(BUILD)/fuzz/findings/; `$(BUILD)/fuzz/parse_fuzzer FILE` replays it.
# 4096 bytes is enough to reach the nesting limits (the fuzzer sets max_depth to at most 71).
FUZZ_SECONDS ?= 120
FUZZ_DIR = $(BUILD)/fuzz
FUZZ_FLAGS ?= -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
fuzz:
	@bash .ci/deps.sh fuzz
	JOBS=$(JOBS) bash tests/fuzz/build.sh $(FUZZ_DIR)
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/findings
	@UBSAN_OPTIONS=print_stacktrace=1 $(FUZZ_DIR)/parse_fuzzer $(FUZZ_FLAGS) \
	  -max_total_time=$(FUZZ_SECONDS) -dict=tests/fuzz/jq.dict \
	  -artifact_prefix=$(FUZZ_DIR)/findings/ $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds; \
	status=$$?; \
	if [ $$status -ne 0 ]; then \
	  echo "fuzz: finding (exit $$status): $$(ls -t $(FUZZ_DIR)/findings/* 2>/dev/null | head -1)"; \
	  echo "fuzz: replay with $(FUZZ_DIR)/parse_fuzzer FILE; shrink with -minimize_crash=1 -runs=10000"; \
	fi; \
	exit $$status

bench: build
	$(BUILD)/bin/bench_engines

clean:
	rm -rf $(BUILD)
