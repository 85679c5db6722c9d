# The two set-up commands of the README, plus developer conveniences.
#   make demo  - install missing packages, build, compile catalog/ to build/catalog.wmb, inspect an example
#   make test  - install missing packages, build, run every test through CTest
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DPython3_EXECUTABLE=/usr/bin/python3

.PHONY: all deps configure build demo test bench clean

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

bench: build
	$(BUILD)/bin/bench_engines

clean:
	rm -rf $(BUILD)
