# The two set-up commands of the README, plus developer conveniences.
#   make demo  - install missing packages, build, compile catalog/ to build/catalog.wmb, inspect an example
#   make test  - install missing packages, build, run every test through CTest
#   make diff-long SECONDS=N - random differential testing against libjq for N seconds
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DPython3_EXECUTABLE=/usr/bin/python3

.PHONY: all deps configure build demo test diff-long bench clean

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

bench: build
	$(BUILD)/bin/bench_engines

clean:
	rm -rf $(BUILD)
