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

.PHONY: all build configure test run ptx-relu bench info clean portable deps

all: build

# What the build needs (docs/building.md): before the first configure of a
# build folder, tools/install-deps.sh installs what is missing (apt as root or
# through sudo, pip) or stops with one message naming what is missing and how
# to install it. The stamp makes it run once per folder, and again when the
# installer changes; `make deps` runs it by hand.
%/deps.stamp: tools/install-deps.sh
	tools/install-deps.sh
	@mkdir -p $(@D) && touch $@

deps:
	tools/install-deps.sh

$(BUILD)/build.ninja: $(BUILD)/deps.stamp
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# ctest lists the tests that did not run (GPU tests without a GPU) after its
# summary; tools/test-summary.sh then says how many GPU tests ran and repeats
# the summary line last, so the output ends with it.
test: build
	@{ (cd $(BUILD) && ctest --output-on-failure -j $(JOBS)); echo $$? > $(BUILD)/make-test.rc; } \
	  2>&1 | tee $(BUILD)/make-test.log; \
	  cp $(BUILD)/Testing/Temporary/LastTest.log $(BUILD)/make-test-full.log; \
	  tools/test-summary.sh $(BUILD); exit $$(cat $(BUILD)/make-test.rc)

# ResNet18 written as mgp kernels: on the GPU when there is one, else on the
# CPU interpreter at batch 1 (mgp-run says so). MGP_RUN_ARGS adds options.
run: build
	$(BUILD)/bin/mgp-run models/resnet18.graph $(MGP_RUN_ARGS)

# The relu kernel compiled ahead of time to PTX (mgpc), printed.
ptx-relu: build
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

# One-kernel runs (docs/runtime.md), the seed's `make test-triton-relu`: relu
# (kernels_dsl/relu.mgp and the conformance relu.py) on 1M random floats on
# the GPU and on the interpreter, every buffer compared ("skipped GPU: no GPU"
# without one); then the relu operator test of the kernels against the
# reference. `make bench-launch`: microseconds per warm Kernel::launch.
.PHONY: bench-launch
RELU_ARGS = --grid 977 --arg 'x:fp32[1000000]:rand' --arg 'y:fp32[1000000]' --arg i32=1000000 --arg BLOCK_SIZE=1024
test-relu: configure
	cmake --build $(BUILD) -j $(JOBS) --target mgp-run mgp-kernels-tests
	$(BUILD)/bin/mgp-run kernels_dsl/relu.mgp -k relu_kernel $(RELU_ARGS)
	$(BUILD)/bin/mgp-run tests/conformance/relu.py -k _relu_forward_kernel $(RELU_ARGS)
	$(BUILD)/bin/mgp-kernels-tests --gtest_filter='Ops/KernelTest.*/relu'

# tools/bench_vs_torch.py on the GPU machine: ResNet18 through mgp-run
# --bench/--profile and PyTorch eager, eager as a CUDA graph, torch.compile
# max-autotune + freezing and default, on the same weights and input, per batch
# (--batches) and precision; ms, images/s, compile times, top-1 and max relative
# error against PyTorch fp32 and float64, one JSON record per measurement
# (--json). Fails (exit 2) without PyTorch or a GPU. bench-report turns the
# JSON into the tables of docs/kernels.md and the plot (BENCH_JSON, BENCH_PLOT).
BENCH_TORCH_ARGS ?=
.PHONY: bench-torch bench-report
bench-torch: mgp-run
	python3 tools/bench_vs_torch.py --mgp-run $(BUILD)/bin/mgp-run $(BENCH_TORCH_ARGS)
BENCH_JSON ?= results.jsonl
BENCH_PLOT ?= docs/resnet18-images-per-s.png
bench-report:
	python3 tools/bench_report.py $(BENCH_JSON) --plot $(BENCH_PLOT)

# bench/compile_time.py: source-to-cubin compile time of every kernel of the
# Triton suite (tests/triton): mgpc + ptxas, and mgp's JIT in process (C API +
# nvJitLink), against triton.compile with an empty cache, on this machine (no
# GPU needed; needs triton, ptxas and libnvJitLink of the CUDA toolkit).
BENCH_COMPILE_ARGS ?=
.PHONY: bench-compile
bench-compile: build
	python3 bench/compile_time.py --mgpc $(BUILD)/bin/mgpc --jit \
	  --mgp-library $(BUILD)/lib/libmgp.so $(BENCH_COMPILE_ARGS)

# ResNet18 timing: median ms per batch of 128 at 224x224 after warm-up, images/s
# and per-kernel GPU times (on the GPU; elsewhere the interpreter at batch 1).
BENCH_ARGS ?= --batch 128 --bench 20 --profile
bench: mgp-run
	@if [ -e /dev/nvidia0 -o -e /dev/nvidiactl ]; then \
	  $(BUILD)/bin/mgp-run models/resnet18.graph --device gpu $(BENCH_ARGS); \
	else echo "make bench: no GPU here: timing the CPU interpreter at batch 1"; \
	  $(BUILD)/bin/mgp-run models/resnet18.graph --device cpu --bench 3; fi

bench-launch: configure
	cmake --build $(BUILD) -j $(JOBS) --target mgp-bench-launch
	$(BUILD)/bin/mgp-bench-launch

# The Python launch path against Triton, the C++ API and the C API (GPU
# machine; needs PyTorch): bench/launch_overhead.py, docs/python.md.
.PHONY: bench-launch-py
bench-launch-py: configure
	cmake --build $(BUILD) -j $(JOBS) --target mgp mgp-bench-launch
	cc -O2 -std=c99 -Iinclude bench/launch_overhead_c.c -L$(BUILD)/lib -lmgp -ldl \
	  -Wl,-rpath,$(abspath $(BUILD))/lib -o $(BUILD)/bin/mgp-bench-launch-c
	PYTHONPATH=python MGP_LIBRARY=$(BUILD)/lib/libmgp.so python3 bench/launch_overhead.py \
	  --mgp-bench-launch $(BUILD)/bin/mgp-bench-launch --mgp-c-bench $(BUILD)/bin/mgp-bench-launch-c

# Static tools for the GPU machine: configure and build $(PORTABLE_BUILD) with
# MGP_PORTABLE=ON, check with ldd that they need only libc, libstdc++, libm,
# libgcc_s, libz and libzstd (the executables not libstdc++ nor libgcc_s), strip them and pack $(DIST)/mgp-portable.tar.xz
# (bin/, lib/libmgp.so, include/mgp/mgp.h, the Python package python/, plus
# the tracked kernels_dsl/ and models/ files).
PORTABLE_PACK = $(PORTABLE_BUILD)/pack/mgp-portable
# One xz stream with a dictionary larger than a tool: the tools share most of
# LLVM and MLIR, so the archive keeps them about once (-T1: one block).
PORTABLE_XZ ?= --lzma2=preset=6,dict=400MiB -T1
portable: $(PORTABLE_BUILD)/deps.stamp
	cmake -S . -B $(PORTABLE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DMGP_PORTABLE=ON $(CMAKE_FLAGS)
	cmake --build $(PORTABLE_BUILD) -j $(JOBS) --target $$(cat $(PORTABLE_BUILD)/portable-tools.txt) mgp
	cd $(PORTABLE_BUILD) && ctest --output-on-failure --no-tests=error -R '^portable-(ldd|symbol-order)$$'
	rm -rf $(PORTABLE_BUILD)/pack && mkdir -p $(PORTABLE_PACK)/bin $(PORTABLE_PACK)/lib \
	  $(PORTABLE_PACK)/include/mgp $(DIST)
	for t in $$(cat $(PORTABLE_BUILD)/portable-tools.txt); do \
	  strip -o $(PORTABLE_PACK)/bin/$$t $(PORTABLE_BUILD)/bin/$$t || exit 1; done
	strip --strip-unneeded -o $(PORTABLE_PACK)/lib/libmgp.so $(PORTABLE_BUILD)/lib/libmgp.so
	cp include/mgp/mgp.h $(PORTABLE_PACK)/include/mgp/
	git rev-parse --short HEAD > $(PORTABLE_PACK)/COMMIT 2>/dev/null || echo unknown > $(PORTABLE_PACK)/COMMIT
	git ls-files -z kernels_dsl models python | xargs -0 -r cp --parents -t $(PORTABLE_PACK)
	XZ_OPT='$(PORTABLE_XZ)' tar -C $(PORTABLE_BUILD)/pack -cJf $(DIST)/mgp-portable.tar.xz mgp-portable
	@ls -l $(DIST)/mgp-portable.tar.xz

# The GPU tests (label gpu) of the portable tree as one binary
# (mgp-gpu-tests-all: LLVM once), stripped, and the broken stand-in driver,
# packed as $(DIST)/mgp-gpu-tests.tar.xz (bin/, lib/) for
# tools/gpu/run-checks.sh on the GPU machine. Its test data paths are this
# checkout's: run-checks.sh links them to the copy there.
PORTABLE_GPU_TESTS = mgp-gpu-tests-all
.PHONY: portable-gpu-tests
portable-gpu-tests: portable
	cmake --build $(PORTABLE_BUILD) -j $(JOBS) --target $(PORTABLE_GPU_TESTS) mgp-broken-cuda
	rm -rf $(PORTABLE_BUILD)/gpu-pack && mkdir -p $(PORTABLE_BUILD)/gpu-pack/bin \
	  $(PORTABLE_BUILD)/gpu-pack/lib/broken-cuda
	for t in $(PORTABLE_GPU_TESTS); do \
	  strip -o $(PORTABLE_BUILD)/gpu-pack/bin/$$t $(PORTABLE_BUILD)/bin/$$t || exit 1; done
	cp $(PORTABLE_BUILD)/tests/unit/runtime/broken-cuda/libcuda.so.1 \
	  $(PORTABLE_BUILD)/gpu-pack/lib/broken-cuda/
	XZ_OPT='$(PORTABLE_XZ)' tar -C $(PORTABLE_BUILD)/gpu-pack -cJf $(DIST)/mgp-gpu-tests.tar.xz bin lib
	@ls -l $(DIST)/mgp-gpu-tests.tar.xz

clean:
	rm -rf $(BUILD)

# Hostile input (docs/errors.md). `make fuzz` configures $(FUZZ_BUILD) with
# clang 22, ASan+UBSan and libFuzzer (MGP_FUZZ), builds the fuzz targets and
# runs each for FUZZ_SECONDS (FUZZ_TARGETS: some of frontend mlirgen graph
# safetensors npy; FUZZ_ARGS: more libFuzzer flags), keeping the corpora in
# $(FUZZ_BUILD)/campaign. `make test-asan` builds everything in $(ASAN_BUILD)
# with ASan+UBSan (MGP_SANITIZE, gcc, -fno-sanitize-recover=undefined) and
# runs the unit and lit tests there.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?=
ASAN_BUILD ?= build-asan
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons and unpoisons slabs in
# inline header code, which runs instrumented in our objects but not inside the
# uninstrumented Debian libMLIR/libLLVM that share those allocators; the mix
# reports use-after-poison on memory that is in use (seen in
# DenseElementsAttr::get). Real heap errors are still caught.
ASAN_OPTIONS_TEST ?= detect_leaks=1:abort_on_error=1:allow_user_poisoning=0
LLVM_BIN ?= /usr/lib/llvm-22/bin
.PHONY: fuzz test-asan

$(FUZZ_BUILD)/build.ninja: $(FUZZ_BUILD)/deps.stamp
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_C_COMPILER=$(LLVM_BIN)/clang -DCMAKE_CXX_COMPILER=$(LLVM_BIN)/clang++ \
	  -DMGP_SANITIZE=ON -DMGP_FUZZ=ON $(CMAKE_FLAGS)

fuzz: $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target mgp-fuzzers
	fuzz/run-fuzzers.sh $(FUZZ_BUILD)/bin $(FUZZ_BUILD)/campaign $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# CI's fuzz step: in $(FUZZ_BUILD), only the fuzz targets are built, and
# `ctest -L fuzz` runs each for FUZZ_CI_SECONDS from the repository's seeds
# (plus the corpus earlier runs left in $(FUZZ_BUILD)/fuzz/work).
FUZZ_CI_SECONDS ?= 20
.PHONY: test-fuzz
test-fuzz: $(FUZZ_BUILD)/build.ninja
	cmake -S . -B $(FUZZ_BUILD) -DMGP_FUZZ_TEST_SECONDS=$(FUZZ_CI_SECONDS) > /dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target mgp-fuzzers
	cd $(FUZZ_BUILD) && ctest --output-on-failure -j $(JOBS) -L fuzz

$(ASAN_BUILD)/build.ninja: $(ASAN_BUILD)/deps.stamp
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DMGP_SANITIZE=ON $(CMAKE_FLAGS)

test-asan: $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=$(ASAN_OPTIONS_TEST) \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE fuzz
