#!/bin/bash
# The GPU-machine checks of session 1 (2026-11-30): unpack the stripped portable binaries
# (mgpc, mgp-run, mgp-jit-gpu-tests, mgp-gpu-backend-gpu-tests from build-portable, packed
# as dist/gpu3.tar.xz with a gpu3/ folder) and run the GPU tests, ResNet18 cold/warm compile,
# --bench/--profile, the torchvision comparison and --check at batch 128. Run it on the GPU
# machine from the repository root with dist/ carried.
R=$PWD; mkdir -p /work && ln -sfn $R /work/main; cd /work/main
tar -xJf dist/gpu3.tar.xz -C /tmp; B=/tmp/gpu3; export PATH=$B:$PATH
log() { echo "=== $*"; }
log jit-gpu; MGP_CACHE_DIR=/tmp/c0 timeout 200 $B/mgp-jit-gpu-tests 2>&1 | grep -E "max rel err|OK|FAILED|PASSED|Failure|Expected|buffer"
log backend-gpu; MGP_CACHE_DIR=/tmp/c1 timeout 200 $B/mgp-gpu-backend-gpu-tests 2>&1 | grep -E "OK|FAILED|PASSED|Failure"
export MGP_CACHE_DIR=/tmp/rn
log cold; /usr/bin/time -f "process wall %e s" mgp-run models/resnet18.graph --device gpu --batch 128 --precision tf32 2>&1 | grep -E "^gpu:|wall"
log warm; /usr/bin/time -f "process wall %e s" mgp-run models/resnet18.graph --device gpu --batch 128 --precision tf32 2>&1 | grep -E "^gpu:|wall"
log bench-tf32; mgp-run models/resnet18.graph --device gpu --batch 128 --precision tf32 --bench 30 --profile 2>&1 | grep -E "bench|ms/run|^ +[0-9.]+ +[0-9.]+%"
log bench-fp32; mgp-run models/resnet18.graph --device gpu --batch 128 --precision fp32 --bench 30 2>&1 | grep -E "bench"
log torch; cd /tmp
mgp-run /work/main/models/resnet18.graph --device reference --batch 128 --save-weights w.safetensors >/dev/null 2>&1
for p in fp32 tf32; do
mgp-run /work/main/models/resnet18.graph --batch 128 --weights w.safetensors --device gpu --precision $p --dump-input x.npy --dump-logits ours_$p.npy 2>&1 | grep "^gpu: batch"
python3 /work/main/tools/torch_compare.py --weights w.safetensors --input x.npy --logits ours_$p.npy --modes $p 2>&1 | tail -3
done
log check-128; timeout 250 mgp-run /work/main/models/resnet18.graph --device gpu --batch 128 --precision fp32 --check 2>&1 | tail -1
timeout 250 mgp-run /work/main/models/resnet18.graph --device gpu --batch 128 --precision tf32 --check --check-tolerance 3e-3 2>&1 | tail -1
