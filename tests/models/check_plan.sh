#!/bin/bash
# The plan mgp-run --info prints against the plan the backend runs: the kernel
# specializations of `mgp-run --list-kernels` (graph/ModelPlan.h, as --info
# makes it) must equal those of `--list-prepared-kernels` (the backend's plan
# after prepare(): compiled, and on the gpu tuned).
# Usage: check_plan.sh MGP_RUN GRAPH DEVICE PRECISION [mgp-run options...]
set -u
run=$1 graph=$2 device=$3 precision=$4
shift 4
info=$("$run" "$graph" --list-kernels --device "$device" \
  --precision "$precision" "$@") || exit 1
prepared=$("$run" "$graph" --list-prepared-kernels --device "$device" \
  --precision "$precision" "$@") || exit 1
if [ "$info" != "$prepared" ]; then
  echo "--info's plan and the $device backend's differ ($precision):"
  diff <(echo "$info") <(echo "$prepared") 2>/dev/null ||
    { echo "info:"; echo "$info"; echo "prepared:"; echo "$prepared"; }
  exit 1
fi
echo "$device $precision: --info and the backend plan the same" \
  "$(echo "$info" | wc -l) kernel specializations"
