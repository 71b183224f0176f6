#!/usr/bin/env bash
# This file implements mgp's fuzz campaigns: for each target kind given
# (frontend, mlirgen, graph, safetensors, npy, capi; all when none), it gathers the
# seeds from the repository's own files into WORK/seeds-KIND, runs
# BIN/mgp-fuzz-KIND for SECONDS with the growing corpus in WORK/corpus-KIND
# and crash files in WORK/crashes-KIND, and prints the executions
# (stat::number_of_executed_units). It exits nonzero if a target found a
# crash, a leak, a timeout or an out-of-memory.
#
# Usage: [FUZZ_ARGS="-max_len=N ..."] fuzz/run-fuzzers.sh BIN WORK SECONDS [KIND...]
# (FUZZ_ARGS: more libFuzzer flags, unquoted).
set -uo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
# LLVM's BumpPtrAllocator poisons its slabs by hand and unpoisons what it hands
# out; the prebuilt (uninstrumented) libMLIR allocates from slabs our
# instrumented code started without unpoisoning, so manual poisoning would
# report use-after-poison on valid MLIR storage (as `make test-asan` also sets).
export ASAN_OPTIONS="allow_user_poisoning=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
bin="$1" work="$2" seconds="$3"
shift 3
kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(frontend mlirgen graph safetensors npy capi)

seed() { # seed DIR FILES...: copy the existing FILES into DIR
  local dir="$1"
  shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/$(echo "${f#$src/}" | tr / _)"; done
}

status=0
for kind in "${kinds[@]}"; do
  seeds="$work/seeds-$kind" corpus="$work/corpus-$kind" crashes="$work/crashes-$kind"
  rm -rf "$seeds"
  mkdir -p "$corpus" "$crashes"
  shopt -s nullglob globstar
  case "$kind" in
  frontend | mlirgen)
    seed "$seeds" "$src"/tests/conformance/*.py "$src"/kernels_dsl/*.mgp \
      "$src"/tests/lit/**/*.mgp "$src"/tests/lit/**/*.py "$src"/tests/fuzz/**/*.mgp ;;
  graph) seed "$seeds" "$src"/models/*.graph "$src"/tests/lit/models/**/*.graph "$src"/tests/fuzz/**/*.graph ;;
  safetensors) seed "$seeds" "$src"/fuzz/seeds/*.safetensors "$src"/tests/fuzz/**/*.safetensors ;;
  npy) seed "$seeds" "$src"/fuzz/seeds/*.npy "$src"/tests/fuzz/**/*.npy ;;
  capi) # signature, kernel name and options lines, then the source
    mkdir -p "$seeds"
    n=0
    while read -r name sig opts; do
      n=$((n + 1))
      { printf '%s\n%s\n%s\n' "$sig" "$name" "${opts//_/ }"
        cat "$src"/tests/capi/kernels.py; } > "$seeds/capi-$n-$name"
    done <<'SEEDS'
add_kernel *fp32:16,*fp32:16,*fp32:16,i32,256 4_3_tf32
axpy_kernel *fp32,*fp32,fp32,i32:16,128 2_2_ieee
scalars_kernel *i64,i1,i64,u64,fp16,fp64 1_1_tf32
add_kernel *fp16:16,*fp16,*fp16,i32:1,1024 8_4_tf32
SEEDS
    ;;
  *) echo "run-fuzzers.sh: unknown target '$kind'" >&2; exit 2 ;;
  esac
  shopt -u nullglob globstar
  log="$work/$kind.log"
  dict=()
  [ -f "$src/fuzz/$kind.dict" ] && dict=(-dict="$src/fuzz/$kind.dict")
  # -rss_limit_mb: the MLIR context and ASan shadow need more than 2 GB.
  TMPDIR="$work" "$bin/mgp-fuzz-$kind" -max_total_time="$seconds" -timeout=25 \
    -rss_limit_mb=4096 -print_final_stats=1 ${FUZZ_ARGS:-} -artifact_prefix="$crashes/" \
    "${dict[@]}" "$corpus" "$seeds" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  echo "mgp-fuzz-$kind: rc=$rc executions=${execs:-?} corpus=$(ls "$corpus" | wc -l) log=$log"
  if [ $rc -ne 0 ]; then
    status=1
    grep -m5 -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log"
  fi
done
exit $status
