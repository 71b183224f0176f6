#!/usr/bin/env bash
# This file implements the lines `make test` ends with, read from the ctest
# logs of a build folder (BUILD/make-test.log, and make-test-full.log with
# every test's output): how many GPU tests (label gpu)
# ran and how many were skipped because there is no GPU, the lit suite's
# counts, and ctest's own summary line last. With --check-minimum FILE (CI)
# it also fails when fewer tests were registered than FILE lists, so that a
# broken registration cannot pass as green. FILE holds lines `ctest N` (tests
# ctest ran in all) and `lit N` (lit tests that passed).
# Usage: tools/test-summary.sh BUILD [--check-minimum FILE]
set -euo pipefail
build=${1:?usage: $0 BUILD [--check-minimum FILE]}
log=$build/make-test.log
[ -f "$log" ] || { echo "test-summary: no $log (run make test first)" >&2; exit 2; }

# lit's own count, from ctest's full log of the run (the largest of the lit
# suites' "Passed: N" lines; make test keeps it as make-test-full.log).
full=$build/make-test-full.log
litPassed=$(sed -n -E 's/^ *Passed *: *([0-9]+).*/\1/p' "$full" 2>/dev/null | sort -n | tail -n 1 || true)

# Every test ctest knows with label gpu, and the tests that did not run.
gpuTests=$(cd "$build" && ctest -N -L '^gpu$' | sed -n -E 's/^ *Test +#[0-9]+: //p' | sort)
notRun=$(sed -n '/The following tests did not run:/,$p' "$log" |
  sed -n -E 's/^[[:space:]]*[0-9]+ - (.*) \((Skipped|Disabled|Not Run)\)$/\1/p' | sort)
gpuTotal=$(grep -c . <<< "$gpuTests" || true)
gpuSkipped=$(comm -12 <(echo "$gpuTests") <(echo "$notRun") | grep -c . || true)
echo "GPU tests (label gpu): $((gpuTotal - gpuSkipped)) ran, $gpuSkipped skipped (no GPU)"
[ -n "$litPassed" ] && echo "lit: $litPassed tests passed"

summary=$(grep -E '^[0-9]+% tests passed' "$log" | tail -n 1 || true)
total=$(sed -n -E 's/.* out of ([0-9]+)$/\1/p' <<< "$summary")
status=0
if [ "${2:-}" = --check-minimum ]; then
  file=${3:?--check-minimum needs a FILE}
  minCtest=$(awk '$1 == "ctest" {print $2}' "$file")
  minLit=$(awk '$1 == "lit" {print $2}' "$file")
  if [ -z "$total" ] || [ "$total" -lt "$minCtest" ]; then
    echo "test-summary: FAILED: ${total:-no} ctest tests ran; $file expects at least $minCtest"
    status=1
  fi
  if [ -z "$litPassed" ] || [ "$litPassed" -lt "$minLit" ]; then
    echo "test-summary: FAILED: ${litPassed:-no} lit tests passed; $file expects at least $minLit"
    status=1
  fi
  [ "$status" -eq 0 ] && echo "test count: $total ctest tests (minimum $minCtest), $litPassed lit tests passed (minimum $minLit)"
fi
echo "$summary"
exit "$status"
