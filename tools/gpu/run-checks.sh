#!/bin/bash
# The GPU-machine checks behind session 2's H200 numbers (2026-11-30), run from the repository root of a
# copy carried to the GPU machine: STEP=tests (every GPU gtest binary, the huge-batch error), STEP=model
# (ResNet18 batch 128 cold compile with the tuner and --bench 30 --profile in tf32/fp16/bf16/fp32, --check at
# batch 32, tools/gpu/warm-start.sh), STEP=torch (tools/bench_vs_torch.py, PRECS=tf32,fp16,bf16,fp32).
# The binaries: stripped portable builds (MGP_PORTABLE=ON) of mgpc, mgp-run and the GPU gtests, packed as
# BIN_TAR (tar | xz -3 --lzma2=preset=3,dict=400MiB); BUILD_ROOT is the checkout they were built in (their
# compiled-in source paths, linked to this copy). Logs go to $OUT (the device tool's output folder).
BIN_TAR=${BIN_TAR:-dist/g5/bin.tar.xz}; BUILD_ROOT=${BUILD_ROOT:-/tmp/pt}; OUT=${OUT:-/tmp/mgp-gpu-logs}
mkdir -p "$OUT"; R=$PWD; ln -sfn $R $BUILD_ROOT; mkdir -p /work && ln -sfn $R /work/main
mkdir -p /tmp/b && tar -xJf $BIN_TAR -C /tmp/b; B=/tmp/b; export PATH=$B:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; python3 -c "import torch; print('torch', torch.__version__)"
log() { echo "=== $*"; }
STEP=${STEP:-tests}
if [[ $STEP == tests ]]; then
for t in mgp-jit-gpu-tests mgp-jit-pipeline-gpu-tests mgp-runtime-gpu-tests mgp-codegen-smem-gpu-tests mgp-gpu-backend-gpu-tests; do
  [ -x $B/$t ] || { echo "missing $t"; continue; }
  log $t; MGP_CACHE_DIR=/tmp/c-$t timeout 200 $B/$t > $OUT/$t.log 2>&1; echo rc $?
  grep -E "^\[  (FAILED|PASSED) |Failure|max (rel|abs) err|agree" $OUT/$t.log | head -70
done
log huge-batch; mgp-run models/resnet18.graph --device gpu --batch 30000 --dump-logits /tmp/huge.npy > $OUT/huge.log 2>&1; echo rc $?; tail -2 $OUT/huge.log; ls /tmp/huge.npy 2>&1
fi
if [[ $STEP == model ]]; then
export MGP_CACHE_DIR=/tmp/rn
for p in tf32 fp16 bf16 fp32; do
log cold $p; MGP_DEBUG=1 /usr/bin/time -f "process wall %e s" timeout 200 mgp-run models/resnet18.graph --device gpu --batch 128 --precision $p > $OUT/cold-$p.log 2>&1; grep -E "^gpu:|wall|error|prepare" $OUT/cold-$p.log | head -8
log bench $p; timeout 120 mgp-run models/resnet18.graph --device gpu --batch 128 --precision $p --bench 30 --profile > $OUT/bench-$p.log 2>&1; grep -E "bench|error" $OUT/bench-$p.log | head -4; grep -E "^ +[0-9.]+ +[0-9.]+%" $OUT/bench-$p.log | head -8
done
for p in tf32 fp16 bf16; do log check $p; timeout 200 mgp-run models/resnet18.graph --device gpu --batch 32 --precision $p --check 2>&1 | tail -1; done
log warm-start; timeout 150 bash tools/gpu/warm-start.sh $B/mgp-run 2>&1 | tail -14
fi
if [[ $STEP == torch ]]; then
log bench_vs_torch; timeout 560 python3 tools/bench_vs_torch.py --mgp-run $B/mgp-run --precisions ${PRECS:-tf32,fp16} --runs 30 --workdir /tmp/bw > $OUT/torch.log 2>&1; echo rc $?; tail -80 $OUT/torch.log
fi
