# The seed workflow in mgp's terms. `make test` and `make run` are the two
# commands of the README; the others are described there.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# The portable build (LLVM/MLIR/fmt static) and where its archive goes.
PORTABLE_BUILD ?= build-portable
DIST ?= dist
# ccache shares hits between build dirs and clones of the repository.
export CCACHE_BASEDIR ?= $(CURDIR)

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

# ResNet18 (docs/graph.md): `make info` prints the layers, the kernel and
# specialization of each, parameters, MACs and memory; `make reference` runs a
# seeded batch on the plain C++ executor (the answer key); MGP_RUN_ARGS adds
# options (e.g. MGP_RUN_ARGS="--batch 4 --weights w.safetensors").
MGP_RUN_ARGS ?=
.PHONY: reference mgp-run test-relu
mgp-run: configure
	cmake --build $(BUILD) -j $(JOBS) --target mgp-run

info: mgp-run
	$(BUILD)/bin/mgp-run models/resnet18.graph --info $(MGP_RUN_ARGS)

reference: mgp-run
	$(BUILD)/bin/mgp-run models/resnet18.graph --device reference $(MGP_RUN_ARGS)

# The relu kernel (kernels_dsl/relu.mgp) on the interpreter against the
# reference operator on random data, in fp32 and tf32.
test-relu: configure
	cmake --build $(BUILD) -j $(JOBS) --target mgp-kernels-tests
	$(BUILD)/bin/mgp-kernels-tests --gtest_filter='Ops/KernelTest.*/relu'

# Static tools for the GPU machine: configure and build $(PORTABLE_BUILD) with
# MGP_PORTABLE=ON, check with ldd that they need only libc, libstdc++, libm,
# libgcc_s, libz and libzstd, strip them and pack $(DIST)/mgp-portable.tar.xz
# (bin/ plus the tracked kernels_dsl/ and models/ files).
portable:
	cmake -S . -B $(PORTABLE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DMGP_PORTABLE=ON $(CMAKE_FLAGS)
	cmake --build $(PORTABLE_BUILD) -j $(JOBS) --target $$(cat $(PORTABLE_BUILD)/portable-tools.txt)
	cd $(PORTABLE_BUILD) && ctest --output-on-failure --no-tests=error -R '^portable-ldd$$'
	rm -rf $(PORTABLE_BUILD)/pack && mkdir -p $(PORTABLE_BUILD)/pack/mgp-portable/bin $(DIST)
	for t in $$(cat $(PORTABLE_BUILD)/portable-tools.txt); do \
	  strip -o $(PORTABLE_BUILD)/pack/mgp-portable/bin/$$t $(PORTABLE_BUILD)/bin/$$t || exit 1; done
	git ls-files -z kernels_dsl models | xargs -0 -r cp --parents -t $(PORTABLE_BUILD)/pack/mgp-portable
	XZ_OPT='-9 -T0' tar -C $(PORTABLE_BUILD)/pack -cJf $(DIST)/mgp-portable.tar.xz mgp-portable
	@ls -l $(DIST)/mgp-portable.tar.xz

clean:
	rm -rf $(BUILD)
