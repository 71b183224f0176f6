#!/usr/bin/env bash
# This file implements the self-test of tests/build/expect_output.py, the
# wrapper of every test that matches a program's output: the expected text is
# not enough when the program then crashes or exits with another status.
# Usage: tests/build/expect-output-selftest.sh PYTHON PATH/TO/expect_output.py
set -uo pipefail
python=${1:?usage: $0 PYTHON expect_output.py}
wrapper=${2:?usage: $0 PYTHON expect_output.py}
errors=0
# expect STATUS DESCRIPTION WRAPPER-ARGS... -- COMMAND...
expect() {
  local want=$1 what=$2
  shift 2
  "$python" "$wrapper" "$@" > /dev/null 2>&1
  local got=$?
  if [ "$got" -eq "$want" ]; then echo "ok: $what"; else
    echo "FAILED: $what (wrapper exit $got, expected $want)"; errors=$((errors + 1)); fi
}
expect 0 "text and exit 0 pass" --match 'hello.*world' -- sh -c 'echo hello; echo world'
expect 1 "text then a crash fails" --match 'hello' -- sh -c 'echo hello; kill -SEGV $$'
expect 1 "text then exit 3 fails" --match 'hello' -- sh -c 'echo hello; exit 3'
expect 1 "missing text fails" --match 'absent' -- sh -c 'echo hello'
expect 1 "one of two patterns missing fails" --match hello --match absent -- sh -c 'echo hello'
expect 0 "an expected error passes" --error --match 'bad input' -- sh -c 'echo bad input >&2; exit 1'
expect 1 "an expected error that is a crash fails" --error --match 'bad' -- sh -c 'echo bad; kill -ABRT $$'
expect 1 "an expected error that exits 0 fails" --error --match 'bad' -- sh -c 'echo bad'
expect 1 "rejected text fails" --reject 'SKIPPED' -- sh -c 'echo SKIPPED'
expect 0 "absent rejected text passes" --reject 'SKIPPED' -- sh -c 'echo ran'
expect 0 "an exact status passes" --status 2 -- sh -c 'exit 2'
[ "$errors" -eq 0 ] && echo "expect-output-selftest: all checks passed"
exit "$errors"
