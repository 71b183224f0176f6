#!/usr/bin/env bash
# This file implements the gpu test of a batch too large for the gpu device:
# `mgp-run --device gpu --batch 3000 --dump-logits F` must exit 1 with one
# clear error (ResNet18's activations outgrow the kernels' 32-bit indexing,
# 3000 x 64 x 112 x 112 elements, before they outgrow the H200's memory;
# smaller models or a fuller device reach the device-memory messages, which
# are accepted too) and leave no F. Without a GPU mgp-run says "the gpu device
# is not available here", which ctest's SKIP_REGULAR_EXPRESSION turns into a
# skip.
#
# Usage: gpu_huge_batch.sh MGP_RUN GRAPH WORKDIR
set -u
mgp_run="$1" graph="$2" work="$3"
mkdir -p "$work"
logits="$work/huge-batch-logits.npy"
rm -f "$logits"
"$mgp_run" "$graph" --device gpu --batch 3000 --dump-logits "$logits" \
  >"$work/huge-batch.out" 2>"$work/huge-batch.err"
rc=$?
cat "$work/huge-batch.err"
if grep -q "the gpu device is not available here" "$work/huge-batch.err"; then
  exit 0
fi
status=0
if [ $rc -ne 1 ]; then
  echo "FAIL: exit status $rc, expected 1"
  status=1
fi
pattern="^mgp-run: error: |error: '[^']+' has [0-9]+ elements; the kernels index with 32-bit integers"
if ! grep -Eq "$pattern" "$work/huge-batch.err" ||
  ! grep -Eq "32-bit integers|of device memory|GiB of " "$work/huge-batch.err"; then
  echo "FAIL: no clear error message"
  status=1
fi
if [ -e "$logits" ]; then
  echo "FAIL: partial output $logits"
  status=1
fi
[ $status -eq 0 ] && echo "ok: clear error, exit status 1, no $logits"
exit $status
