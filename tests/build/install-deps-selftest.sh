#!/usr/bin/env bash
# This file implements the self-test of tools/install-deps.sh in dry-run mode
# (it changes nothing and needs no network): an apt package that no source
# offers stops the script with a message naming it, and a missing Python module
# is reported and would be installed with pip, while the present ones are not;
# on the set-up machine a dry run finds everything; without root or sudo a
# missing package stops it with one message, before anything runs.
# Usage: tests/build/install-deps-selftest.sh PATH/TO/install-deps.sh [REPO]
# (with REPO, also that `make -n run` there shows the installer before CMake)
# The checks are eval-ed strings, so their $-expressions stay single-quoted.
# shellcheck disable=SC2016,SC2034
set -uo pipefail

script=${1:?usage: $0 PATH/TO/install-deps.sh}
errors=0
expect() { # description, condition
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; errors=$((errors + 1)); fi
}

out=$(MGP_DEPS_DRY_RUN=1 MGP_DEPS_EXTRA_APT=mgp-no-such-package "$script" 2>&1); rc=$?
echo "$out"
expect "an unavailable apt package stops the script" '[ $rc -ne 0 ]'
expect "the message names it" \
  'grep -q "ERROR: no apt source offers: mgp-no-such-package" <<< "$out"'
expect "nothing is installed" '! grep -q "apt-get install" <<< "$out"'

out=$(MGP_DEPS_DRY_RUN=1 MGP_DEPS_EXTRA_PIP=mgp_no_such_module "$script" 2>&1); rc=$?
echo "$out"
expect "a missing Python module is not an error in a dry run" '[ $rc -eq 0 ]'
expect "it is reported" 'grep -q "missing Python modules for .*: .*mgp_no_such_module" <<< "$out"'
expect "pip would install it" 'grep -q "\[dry-run\] .* -m pip install .*mgp_no_such_module" <<< "$out"'
expect "the present modules are left alone" '! grep -q "pip install.*numpy" <<< "$out"'
expect "a dry run says it changed nothing" 'grep -q "dry run: nothing changed" <<< "$out"'

# The machine this runs on was set up by the installer (make runs it before
# configuring), so a plain dry run finds everything and would change nothing.
out=$(MGP_DEPS_DRY_RUN=1 "$script" 2>&1); rc=$?
echo "$out"
expect "a dry run on the set-up machine succeeds" '[ $rc -eq 0 ]'
expect "it finds every apt package" 'grep -q "all [0-9]* apt packages present" <<< "$out"'
expect "it finds every Python module" 'grep -q "all [0-9]* Python modules present" <<< "$out"'
expect "it would run nothing" '! grep -q "^\[dry-run\]" <<< "$out"'

# Without root or sudo, a missing package stops the script before anything
# runs, with one message that names the package and the installer.
out=$(MGP_DEPS_AS_USER=1 MGP_DEPS_EXTRA_APT=mgp-no-such-package "$script" 2>&1); rc=$?
echo "$out"
expect "without root a missing package stops the script" '[ $rc -ne 0 ]'
expect "the message names the package and the installer" \
  'grep -q "ERROR: missing apt packages: mgp-no-such-package; installing them needs root: run .sudo tools/install-deps.sh." <<< "$out"'
expect "it stops before apt-get" '! grep -q "apt-get" <<< "$out"'
expect "it is one error line" '[ "$(grep -c ERROR <<< "$out")" -eq 1 ]'

# make runs the installer before CMake in a build folder it has not set up.
if [ -n "${2:-}" ]; then
  out=$(make -n -C "$2" --no-print-directory run BUILD=build-deps-selftest-none 2>&1); rc=$?
  echo "$out"
  expect "make -n run shows the installer first" \
    '[ $rc -eq 0 ] && [ "$(head -n 1 <<< "$out")" = "tools/install-deps.sh" ]'
  expect "and CMake after it" 'grep -q "^cmake -S . -B build-deps-selftest-none" <<< "$out"'
fi

[ "$errors" -eq 0 ] && echo "install-deps-selftest: all checks passed"
exit "$errors"
