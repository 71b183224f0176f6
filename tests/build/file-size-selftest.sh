#!/usr/bin/env bash
# This file implements the self-test of tools/check-file-size.sh: in a scratch
# git repository it checks that an 800-line file passes silently, an 801-line
# file gives a WARN line and still passes, a 1201-line file gives a FAIL line
# and a nonzero exit, untracked or non-source files are ignored, and outside
# git every source file but those in build folders is checked.
# Usage: tests/build/file-size-selftest.sh PATH/TO/check-file-size.sh
# The checks are eval-ed strings, so their $-expressions stay single-quoted.
# shellcheck disable=SC2016,SC2034
set -uo pipefail

check=${1:?usage: $0 PATH/TO/check-file-size.sh}
tmp=$(mktemp -d)
plain=$(mktemp -d)
trap 'rm -rf "$tmp" "$plain"' EXIT
errors=0
expect() { # description, condition
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; errors=$((errors + 1)); fi
}
lines() { seq "$1" > "$2"; }

cd "$tmp" && git init -q . || exit 1
lines 800 ok.cpp
lines 801 big.h
lines 5000 notes.txt
lines 5000 untracked.py
git add ok.cpp big.h notes.txt

out=$("$check" "$tmp"); rc=$?
expect "801 lines passes" '[ $rc -eq 0 ]'
expect "801 lines warns" 'grep -q "^WARN: big.h has 801 lines" <<< "$out"'
expect "800 lines is silent" '! grep -q "ok.cpp" <<< "$out"'
expect "non-source file ignored" '! grep -q "notes.txt" <<< "$out"'
expect "untracked file ignored" '! grep -q "untracked.py" <<< "$out"'

lines 1201 huge.td
git add huge.td
out=$("$check" "$tmp"); rc=$?
expect "1201 lines fails" '[ $rc -ne 0 ]'
expect "1201 lines reported" 'grep -q "^FAIL: huge.td has 1201 lines" <<< "$out"'

mkdir "$plain/build-x" && cd "$plain" || exit 1
lines 1201 kernel.mgp
lines 1201 build-x/generated.cpp
out=$("$check" "$plain"); rc=$?
expect "outside git: every source file is checked" '[ $rc -ne 0 ] && grep -q "^FAIL: kernel.mgp" <<< "$out"'
expect "outside git: build folders are skipped" '! grep -q "generated.cpp" <<< "$out"'

[ "$errors" -eq 0 ] && echo "file-size-selftest: all checks passed"
exit "$errors"
