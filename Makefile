# The seed workflow in mgp's terms. `make test` and `make run` are the two
# commands of the README; the others are described there.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all build configure test run info clean portable

all: build

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

run: build
	$(BUILD)/bin/mgpc kernels_dsl/relu.mgp --signature "*fp32:16,*fp32:16,i32,1024" -emit=ptx

clean:
	rm -rf $(BUILD)
