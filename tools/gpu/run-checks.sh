#!/usr/bin/env bash
# This file implements the GPU machine's checks, run from the repository root
# of a copy carried there with the portable archives of `make
# portable-gpu-tests` (dist/mgp-portable.tar.xz: tools, libmgp.so, mgp.h,
# the Python package; dist/mgp-gpu-tests.tar.xz: the GPU test binaries and
# the broken stand-in driver). STEP (several, comma-separated) picks:
#   tests   every GPU test binary (gtest, label gpu; TESTS_TIMEOUT s, default
#           480), each of which must pass
#           and must not report "skipped: no GPU"; the same tests against a
#           broken driver must fail, not skip; the huge-batch error
#   api     the C API from C (gcc against mgp.h and libmgp.so only), the
#           Python package's GPU tests (mgp and Triton on the same torch
#           tensors) and the launch overhead table (bench/launch_overhead.py)
#   suite   the Triton kernel suite (tests/triton) on real Triton and through
#           mgp.jit on the same seeded inputs (run_suite.py --save/--against)
#   check   ResNet18 --check at batch 32 in tf32, fp16 and bf16 against the
#           C++ reference, and --bench with the timed run's logits
#   model   ResNet18 at batch 128: cold start with the tuner (empty kernel,
#           tuning and driver caches), --bench 30 --profile in every
#           precision, the warm start and the driver's floor
#   ab      ResNet18 at batch 128, this archive against a baseline one in the
#           same call: AB_ARCHIVE (default dist/baseline/mgp-portable.tar.xz;
#           make it with `git checkout REV && make portable DIST=dist/baseline`
#           and return to the branch), each side first warmed (its own kernel
#           and tuning cache), then AB_ROUNDS (default 3) alternating --bench 30
#           runs per precision (AB_PRECS, default fp16,bf16,tf32); the bench
#           lines into $OUT/ab.log. The tuner runs once per side, so a
#           different pick shows in each side's --profile ($OUT/ab-profile.log)
#   torch   tools/bench_vs_torch.py: mgp against PyTorch eager, eager as a
#           CUDA graph, max-autotune + freezing and torch.compile default, in
#           one 10-minute call (--deadline 520 s: what does not fit is
#           recorded as skipped). TORCH_SET picks the subset:
#             table  batch 128 in fp16, bf16, tf32, every system (estimated
#                    ~9 min: max-autotune took 136 s for fp16 at batch 128,
#                    TOOLCHAIN.md; the compile-default ones, last, may not fit)
#             sweep  fp16 at batches 1,256,32,8 (max-autotune in that order,
#                    so the ends of the curve come first), mgp, eager, eager
#                    graph, max-autotune (estimated ~9 min)
#           BATCHES, PRECS, TORCH_SYSTEMS, CAP override them. Writes
#           $OUT/bench-SET.jsonl (a record per measurement, as it goes),
#           torch-SET.log and bench-SET.md (tools/bench_report.py).
#   timing  the suite on Triton (its outputs), then through mgp.jit on the
#           same seeded inputs with --bench (BENCH_N timed calls, default 20)
#           and --paired-triton (Triton's kernels timed alternately with
#           mgp's, call by call, in the same process), then the table of
#           tests/triton/bench_table.py (result, error, Triton us, mgp us,
#           Triton/mgp and the geometric mean) into $OUT/suite-timing.md;
#           SUITE_FILTER (a run_suite.py -k regex) times only those cases
#   tma     host TensorDescriptors through TMA: tests/python test_gpu's
#           TensorDescriptorsThroughTma ($OUT/tma-tests.log) and
#           bench/descriptor_tma.py, Triton against mgp.jit on the same
#           descriptor kernels (TMA_SIZES, default 4096,8192;
#           $OUT/descriptor-tma.md)
#   conv    bench/conv_layers.py: ResNet18's 3x3 convolutions one at a time,
#           mgp.jit at the tuner's tiles with the A tile through L2 only and
#           through L1 (MGP_CONV_CONFIG's l1), against cuDNN and Triton on
#           the same kernel source; CONV_DTYPES (default fp16,tf32) into
#           $OUT/conv-DTYPE.md; CONV_LAYERS (default 1,2,3,4), CONV_EXTRA
#           (more tiles, BMxBNxBK:WARPS:STAGES,...), CONV_TRITON=0 (mgp and
#           cuDNN only), CONV_PERSISTENT=1 (also the persistent kernel at
#           each tile), CONV_COLS=1 (also the transposed GEMM kernel,
#           channels x pixels, at each tile), CONV_ROWTAPS=1 (also the
#           row-taps kernel on the stride-1 layers, 2 and 3 stages),
#           CONV_TIMEOUT (s per dtype,
#           default 280)
#   stem    bench/stem_maxpool.py: ResNet18's stem packing, GEMM and max
#           pooling against the stem with the pooling fused in, tf32, batch
#           128, both checked ($OUT/stem-maxpool.md)
#   langtests  Triton's own language tests through mgp.jit on the GPU
#           (tests/triton_lang/run_triton_tests.py --mode gpu): pass / fail /
#           NA counts per file and the failures by cause into
#           $OUT/triton-lang.md. The tests come from TRITON_TESTS (default
#           triton-tests/ at the root: tests/triton_lang/prepare.sh makes it;
#           the device call carries it); TT_SAMPLE (one test in N, default 4),
#           TT_JOBS (pytest processes per file, default 4), TT_FILES.
# Steps timing and langtests each fit one 10-minute device call: every
# piece runs under `timeout`, prints its elapsed time, and what a piece cut
# short had written is still summarized.
# Logs go to $OUT (the device tool's output folder). Every command's status
# counts: the script stops at the first failure.
set -euo pipefail

OUT=${OUT:-/tmp/mgp-gpu-logs}
STEP=${STEP:-tests}
P=/tmp/mgp-portable
T=/tmp/mgp-gpu-tests
mkdir -p "$OUT" "$T"
# The test binaries read test data by this checkout's build-machine path.
[ -e /work/main ] || { mkdir -p /work && ln -sfn "$PWD" /work/main; }
[ -d "$P" ] || tar -xJf dist/mgp-portable.tar.xz -C /tmp
if [ -f dist/mgp-gpu-tests.tar.xz ] && [ ! -d "$T/bin" ]; then
  tar -xJf dist/mgp-gpu-tests.tar.xz -C "$T"
fi
export PATH=$P/bin:$T/bin:$PATH
export PYTHONPATH=$P/python:${PYTHONPATH:-}
export MGP_LIBRARY=$P/lib/libmgp.so
export PYTHONUNBUFFERED=1

log() { echo "=== $*"; }
SECONDS=0
elapsed() { echo "--- $1: ${SECONDS} s since the step began"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch, triton, numpy; print('torch', torch.__version__, 'triton', triton.__version__, 'numpy', numpy.__version__)"

stepTests() {
  log "every GPU test (mgp-gpu-tests-all)"
  status=0
  MGP_CACHE_DIR=/tmp/c-gpu-tests timeout "${TESTS_TIMEOUT:-480}" "$T/bin/mgp-gpu-tests-all" \
    > "$OUT/gpu-tests.log" 2>&1 || status=$?
  grep -E "^\[==========\]|^\[  (FAILED|PASSED|SKIPPED) " "$OUT/gpu-tests.log" | tail -n 20 || true
  [ "$status" -eq 0 ] || { echo "GPU tests failed (status $status)"; exit 1; }
  if grep -q "skipped: no GPU" "$OUT/gpu-tests.log"; then
    echo "GPU tests skipped on the GPU machine"; exit 1
  fi
  log "broken driver: the GPU tests must fail, not skip"
  status=0
  LD_LIBRARY_PATH=$T/lib/broken-cuda:${LD_LIBRARY_PATH:-} \
    "$T/bin/mgp-gpu-tests-all" --gtest_filter='GpuRuntime.*:JitGpu.*:GpuBackendTest.*' \
    > "$OUT/broken-driver.log" 2>&1 || status=$?
  grep -m 2 -E "unusable|FAILED TEST" "$OUT/broken-driver.log" || true
  if [ "$status" -eq 0 ] || grep -q "skipped: no GPU" "$OUT/broken-driver.log"; then
    echo "with a broken driver the GPU tests passed or skipped (status $status)"; exit 1
  fi
  echo "broken driver: status $status, $(grep -c '^\[  FAILED  \]' "$OUT/broken-driver.log") failed, 0 skipped"
  log huge-batch
  status=0
  mgp-run models/resnet18.graph --device gpu --batch 30000 \
    --dump-logits /tmp/huge.npy > "$OUT/huge.log" 2>&1 || status=$?
  tail -n 2 "$OUT/huge.log"
  [ "$status" -eq 1 ] && [ ! -e /tmp/huge.npy ] ||
    { echo "huge batch: expected status 1 and no logits file (status $status)"; exit 1; }
}

stepApi() {
  log "C API from C: gcc, mgp.h and libmgp.so only"
  gcc -std=c99 -O2 -I"$P/include" -DMGP_CAPI_KERNELS='"tests/capi/kernels.py"' \
    tests/capi/CApiGpuTest.c -L"$P/lib" -lmgp -ldl -lm -Wl,-rpath,"$P/lib" \
    -o /tmp/capi-gpu
  MGP_CACHE_DIR=/tmp/c-capi /tmp/capi-gpu
  log "Python package on the GPU (mgp and Triton on the same torch tensors)"
  MGP_CACHE_DIR=/tmp/c-py timeout 400 python3 tests/python/run.py test_gpu 2>&1 | tee "$OUT/python-gpu.log" | tail -n 25
  MGP_CACHE_DIR=/tmp/c-py timeout 200 python3 tests/python/run.py test_triton_parity 2>&1 | tail -n 5
  log "launch overhead"
  gcc -O2 -std=c99 -I"$P/include" bench/launch_overhead_c.c -L"$P/lib" -lmgp -ldl \
    -Wl,-rpath,"$P/lib" -o /tmp/bench-c
  MGP_CACHE_DIR=/tmp/c-bench timeout 300 python3 bench/launch_overhead.py \
    --launches 10000 --mgp-c-bench /tmp/bench-c 2>&1 | tee "$OUT/launch-overhead.log"
}

stepSuite() {
  log "Triton kernel suite: Triton on the GPU"
  rm -rf /tmp/suite-triton
  timeout 400 python3 tests/triton/run_suite.py --launcher triton --save /tmp/suite-triton \
    > "$OUT/suite-triton.log" 2>&1 || true
  tail -n 3 "$OUT/suite-triton.log"
  log "Triton kernel suite: mgp.jit on the GPU, against the references and Triton's outputs"
  status=0
  MGP_CACHE_DIR=/tmp/c-suite timeout 500 python3 tests/triton/run_suite.py --launcher mgp \
    --against /tmp/suite-triton > "$OUT/suite-mgp.log" 2>&1 || status=$?
  grep -E "FAIL" "$OUT/suite-mgp.log" | head -n 40 || true
  tail -n 3 "$OUT/suite-mgp.log"
  return 0 # the table is the result; failures are listed above
}

stepCheck() {
  export MGP_CACHE_DIR=/tmp/rn
  for p in tf32 fp16 bf16; do
    log "check $p"
    timeout 200 mgp-run models/resnet18.graph --device gpu --batch 32 \
      --precision "$p" --check 2>&1 | tail -n 2
  done
}

stepModel() {
  export MGP_CACHE_DIR=/tmp/rn
  for p in tf32 fp16 bf16 fp32; do
    log "cold $p"
    # Cold: an empty kernel and tuning cache and an empty driver JIT cache,
    # also after an earlier step of this call filled /tmp/rn.
    rm -rf "/tmp/rn-cold-$p" "/tmp/cuda-cold-$p"
    MGP_CACHE_DIR="/tmp/rn-cold-$p" CUDA_CACHE_PATH="/tmp/cuda-cold-$p" MGP_DEBUG=1 \
      /usr/bin/time -f "process wall %e s" timeout 200 \
      mgp-run models/resnet18.graph --device gpu --batch 128 --precision "$p" \
      > "$OUT/cold-$p.log" 2>&1
    grep -E "^gpu:|wall|prepare" "$OUT/cold-$p.log" | head -n 8
    log "bench $p"
    timeout 120 mgp-run models/resnet18.graph --device gpu --batch 128 \
      --precision "$p" --bench 30 --profile > "$OUT/bench-$p.log" 2>&1
    grep -E "bench" "$OUT/bench-$p.log" | head -n 4
  done
  log warm-start
  timeout 150 bash tools/gpu/warm-start.sh "$P/bin/mgp-run" > "$OUT/warm-start.log" 2>&1 || true
  tail -n 24 "$OUT/warm-start.log"
  log "driver floor: a process that only opens the device (tools/gpu/driver-floor.c)"
  if gcc -O2 -I/usr/local/cuda/include tools/gpu/driver-floor.c -o /tmp/floor \
      -L/usr/local/cuda/lib64/stubs -lcuda; then
    for mode in release release keep; do
      /usr/bin/time -f "process wall %e s ($mode)" /tmp/floor "$mode" 2>&1 | tr '\n' ' '
      echo
    done
  fi
}

stepAB() {
  local base=/tmp/mgp-portable-base archive=${AB_ARCHIVE:-dist/baseline/mgp-portable.tar.xz}
  local p side round bin
  [ -f "$archive" ] || { echo "STEP=ab needs $archive"; exit 2; }
  if [ ! -d "$base" ]; then
    rm -rf /tmp/ab-extract && mkdir -p /tmp/ab-extract
    tar -xJf "$archive" -C /tmp/ab-extract
    mv /tmp/ab-extract/mgp-portable "$base"
  fi
  IFS=, read -r -a precs <<< "${AB_PRECS:-fp16,bf16,tf32}"
  for p in "${precs[@]}"; do
    for side in new base; do
      bin=$P/bin
      [ "$side" = base ] && bin=$base/bin
      log "warm $side $p"
      echo "=== $side $p" >> "$OUT/ab-profile.log"
      MGP_CACHE_DIR="/tmp/ab-$side" timeout 200 "$bin/mgp-run" models/resnet18.graph \
        --device gpu --batch 128 --precision "$p" --bench 5 --profile >> "$OUT/ab-profile.log" 2>&1
    done
    for round in $(seq 1 "${AB_ROUNDS:-3}"); do
      for side in new base; do
        bin=$P/bin
        [ "$side" = base ] && bin=$base/bin
        MGP_CACHE_DIR="/tmp/ab-$side" timeout 120 "$bin/mgp-run" models/resnet18.graph \
          --device gpu --batch 128 --precision "$p" --bench 30 2>&1 | grep -E "bench" |
          sed "s/^/$p $side round $round: /" | tee -a "$OUT/ab.log"
      done
    done
  done
}

stepTorch() {
  local set=${TORCH_SET:-table} status=0 args
  case $set in
  table) args=(--batches "${BATCHES:-128}" --precisions "${PRECS:-fp16,bf16,tf32}"
               --systems "${TORCH_SYSTEMS:-all}") ;;
  sweep) args=(--batches "${BATCHES:-1,256,32,8}" --precisions "${PRECS:-fp16}"
               --systems "${TORCH_SYSTEMS:-mgp,eager,eager-graph,max-autotune}") ;;
  *) echo "unknown TORCH_SET $set (table, sweep)"; exit 2 ;;
  esac
  log "bench_vs_torch $set: ${args[*]}"
  timeout 570 python3 tools/bench_vs_torch.py --mgp-run "$P/bin/mgp-run" "${args[@]}" \
    --runs 30 --warmup 10 --cap "${CAP:-240}" --deadline "${DEADLINE:-520}" \
    --json "$OUT/bench-$set.jsonl" --workdir /tmp/bw --profile \
    > "$OUT/torch-$set.log" 2>&1 || status=$?
  grep -E "^\[ *[0-9.]+ s\]" "$OUT/torch-$set.log" || true
  python3 tools/bench_report.py "$OUT/bench-$set.jsonl" --all-details \
    --markdown "$OUT/bench-$set.md" || true
  echo "bench_vs_torch.py status $status (0: every measurement ran; 1: some failed," \
    "ran past the cap or were skipped, as recorded)"
  [ "$status" -le 1 ] # 1 is a result; 2 or a timeout is a broken run
}

stepTma() {
  log "host tensor descriptors through TMA (tests/python test_gpu, C API)"
  (cd tests/python && MGP_CACHE_DIR=/tmp/c-tma timeout 300 python3 -m unittest -v \
    test_gpu.TensorDescriptorsThroughTma) 2>&1 | tee "$OUT/tma-tests.log" | tail -n 12
  grep -q "^OK" "$OUT/tma-tests.log" || { echo "TMA tests failed"; exit 1; }
  log "descriptor kernels: Triton against mgp.jit"
  MGP_CACHE_DIR=/tmp/c-tma timeout 240 python3 bench/descriptor_tma.py \
    --sizes "${TMA_SIZES:-4096,8192}" 2>&1 | tee "$OUT/descriptor-tma.md"
}

stepConv() {
  local dtype
  IFS=, read -r -a dtypes <<< "${CONV_DTYPES:-fp16,tf32}"
  for dtype in "${dtypes[@]}"; do
    log "ResNet18's 3x3 convolutions, $dtype: mgp (L2 / L1 A tile), cuDNN, Triton"
    status=0
    local args=(--dtype "$dtype" --layers "${CONV_LAYERS:-1,2,3,4}")
    [ "${CONV_TRITON:-1}" = 1 ] && args+=(--triton)
    [ -n "${CONV_EXTRA:-}" ] && args+=(--extra "$CONV_EXTRA")
    [ "${CONV_PERSISTENT:-0}" = 1 ] && args+=(--persistent)
    [ "${CONV_ROWTAPS:-0}" = 1 ] && args+=(--rowtaps)
    [ "${CONV_COLS:-0}" = 1 ] && args+=(--cols)
    MGP_CACHE_DIR=/tmp/c-conv timeout "${CONV_TIMEOUT:-280}" python3 bench/conv_layers.py \
      "${args[@]}" > "$OUT/conv-$dtype.md" 2>&1 || status=$?
    grep -E "^best|WRONG" "$OUT/conv-$dtype.md" || tail -n 5 "$OUT/conv-$dtype.md"
    [ "$status" -eq 0 ] || { echo "bench/conv_layers.py --dtype $dtype: exit $status"; exit 1; }
  done
}

stepStem() {
  log "the stem and its max pooling, unfused against fused (tf32)"
  MGP_CACHE_DIR=/tmp/c-stem timeout 200 python3 bench/stem_maxpool.py \
    > "$OUT/stem-maxpool.md" 2>&1 || { cat "$OUT/stem-maxpool.md"; exit 1; }
  cat "$OUT/stem-maxpool.md"
}

stepTiming() {
  SECONDS=0
  local n=${BENCH_N:-20}
  local filter=()
  [ -n "${SUITE_FILTER:-}" ] && filter=(-k "$SUITE_FILTER")
  log "suite timing: Triton's outputs on the GPU"
  rm -rf /tmp/suite-triton-t && mkdir -p /tmp/suite-triton-t
  timeout 200 python3 tests/triton/run_suite.py --launcher triton --save /tmp/suite-triton-t \
    "${filter[@]}" > "$OUT/timing-triton.log" 2>&1 || true
  tail -n 2 "$OUT/timing-triton.log"; elapsed triton
  log "suite timing: mgp.jit on the GPU against Triton's outputs, --bench $n, Triton timed alternately"
  MGP_CACHE_DIR=/tmp/c-suite timeout 330 python3 tests/triton/run_suite.py --launcher mgp \
    --against /tmp/suite-triton-t --bench "$n" --bench-json "$OUT/bench-mgp.json" \
    --paired-triton "$OUT/bench-triton.json" "${filter[@]}" > "$OUT/timing-mgp.log" 2>&1 || true
  tail -n 2 "$OUT/timing-mgp.log"; elapsed mgp
  if [ -f "$OUT/bench-triton.json" ] && [ -f "$OUT/bench-mgp.json" ]; then
    python3 tests/triton/bench_table.py "$OUT/bench-triton.json" "$OUT/bench-mgp.json" \
      --out "$OUT/suite-timing.md" --title "Triton kernel suite on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)"
  else
    echo "no table: a bench JSON is missing (see $OUT/timing-*.log)"
  fi
  elapsed table
}

stepLangtests() {
  SECONDS=0
  local tests=${TRITON_TESTS:-triton-tests}
  local args=(--mode gpu --triton-tests "$tests" --jobs "${TT_JOBS:-4}" --sample "${TT_SAMPLE:-4}"
    --out "$OUT/triton-lang" --markdown "$OUT/triton-lang.md"
    --command "STEP=langtests TT_SAMPLE=${TT_SAMPLE:-4} bash tools/gpu/run-checks.sh")
  [ -n "${TT_FILES:-}" ] && args+=(--files "$TT_FILES")
  log "Triton's language tests ($tests) through mgp.jit on the GPU"
  status=0
  MGP_CACHE_DIR=/tmp/c-tt timeout 530 python3 tests/triton_lang/run_triton_tests.py "${args[@]}" \
    --budget 490 > "$OUT/triton-lang.log" 2>&1 || status=$?
  elapsed tests
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "cut at the time limit; summarizing what was reported"
    python3 tests/triton_lang/run_triton_tests.py "${args[@]}" --summarize-only \
      > "$OUT/triton-lang.log" 2>&1 || true
  fi
  grep -E "^test_.*: [0-9]+ s|not run" "$OUT/triton-lang.log" || true
  if [ -f "$OUT/triton-lang.md" ]; then
    sed -n '/^### Per file/,/^### Per feature/p' "$OUT/triton-lang.md" | head -n -1
    sed -n '/^### Failures by missing feature/,/^### Failures$/p' "$OUT/triton-lang.md" | head -n 40
  else
    tail -n 20 "$OUT/triton-lang.log"
  fi
  elapsed summary
}

IFS=, read -r -a steps <<< "$STEP"
for step in "${steps[@]}"; do
  case $step in
  tests) stepTests ;;
  api) stepApi ;;
  suite) stepSuite ;;
  check) stepCheck ;;
  model) stepModel ;;
  ab) stepAB ;;
  torch) stepTorch ;;
  timing) stepTiming ;;
  conv) stepConv ;;
  stem) stepStem ;;
  tma) stepTma ;;
  langtests) stepLangtests ;;
  *) echo "unknown STEP $step (tests, api, suite, check, model, ab, torch, timing, conv, stem, tma, langtests)"; exit 2 ;;
  esac
done
