#!/usr/bin/env bash
# This file implements the GPU machine's checks, run from the repository root
# of a copy carried there (docs/kernels.md says how the figures were taken):
#   STEP=tests  every GPU test binary (gtest, label gpu) and the huge-batch
#               error; a test binary that fails, or that skips because it
#               finds no GPU, fails the step
#   STEP=model  ResNet18 at batch 128: cold start with the tuner, --bench 30
#               --profile, and --check at batch 32 against the C++ reference
#               in tf32, fp16 and bf16 (and fp32 bench), then the warm start
#   STEP=torch  tools/bench_vs_torch.py (PRECS, default tf32,fp16)
# The binaries are stripped portable builds (MGP_PORTABLE=ON) packed in
# BIN_TAR (a tar.xz of bin/); logs go to $OUT (the device tool's folder).
# Every command's status counts: the script stops at the first failure.
set -euo pipefail

BIN_TAR=${BIN_TAR:-dist/gpu-bin.tar.xz}
OUT=${OUT:-/tmp/mgp-gpu-logs}
STEP=${STEP:-tests}
mkdir -p "$OUT" /tmp/mgp-bin
tar -xJf "$BIN_TAR" -C /tmp/mgp-bin
B=/tmp/mgp-bin/bin
export PATH=$B:$PATH

log() { echo "=== $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__)" || true

case $STEP in
tests)
  for t in mgp-jit-gpu-tests mgp-jit-pipeline-gpu-tests mgp-runtime-gpu-tests \
           mgp-codegen-smem-gpu-tests mgp-gpu-backend-gpu-tests; do
    [ -x "$B/$t" ] || { echo "missing $t"; exit 1; }
    log "$t"
    status=0
    MGP_CACHE_DIR=/tmp/c-$t timeout 300 "$B/$t" > "$OUT/$t.log" 2>&1 || status=$?
    grep -E "^\[  (FAILED|PASSED|SKIPPED) |Failure" "$OUT/$t.log" | head -40 || true
    [ "$status" -eq 0 ] || { echo "$t failed (status $status)"; exit 1; }
    if grep -q "skipped: no GPU" "$OUT/$t.log"; then
      echo "$t skipped on the GPU machine"; exit 1
    fi
  done
  log huge-batch
  status=0
  mgp-run models/resnet18.graph --device gpu --batch 30000 \
    --dump-logits /tmp/huge.npy > "$OUT/huge.log" 2>&1 || status=$?
  tail -n 2 "$OUT/huge.log"
  [ "$status" -eq 1 ] && [ ! -e /tmp/huge.npy ] ||
    { echo "huge batch: expected status 1 and no logits file (status $status)"; exit 1; }
  ;;
model)
  export MGP_CACHE_DIR=/tmp/rn
  for p in tf32 fp16 bf16 fp32; do
    log "cold $p"
    MGP_DEBUG=1 /usr/bin/time -f "process wall %e s" timeout 200 \
      mgp-run models/resnet18.graph --device gpu --batch 128 --precision "$p" \
      > "$OUT/cold-$p.log" 2>&1
    grep -E "^gpu:|wall|prepare" "$OUT/cold-$p.log" | head -n 8
    log "bench $p"
    timeout 120 mgp-run models/resnet18.graph --device gpu --batch 128 \
      --precision "$p" --bench 30 --profile > "$OUT/bench-$p.log" 2>&1
    grep -E "bench" "$OUT/bench-$p.log" | head -n 4
  done
  for p in tf32 fp16 bf16; do
    log "check $p"
    timeout 200 mgp-run models/resnet18.graph --device gpu --batch 32 \
      --precision "$p" --check 2>&1 | tail -n 2
  done
  log warm-start
  timeout 150 bash tools/gpu/warm-start.sh "$B/mgp-run" 2>&1 | tail -n 14
  ;;
torch)
  log bench_vs_torch
  timeout 560 python3 tools/bench_vs_torch.py --mgp-run "$B/mgp-run" \
    --precisions "${PRECS:-tf32,fp16}" --runs 30 --workdir /tmp/bw \
    > "$OUT/torch.log" 2>&1
  tail -n 80 "$OUT/torch.log"
  ;;
*)
  echo "unknown STEP=$STEP (tests, model or torch)"; exit 2 ;;
esac
