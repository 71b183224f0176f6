#!/usr/bin/env bash
# This file implements the self-test of tools/install-deps.sh in dry-run mode
# (it changes nothing and needs no network): an apt package that no source
# offers stops the script with a message naming it, and a missing Python module
# is reported and would be installed with pip, while the present ones are not.
# Usage: tests/build/install-deps-selftest.sh PATH/TO/install-deps.sh
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

[ "$errors" -eq 0 ] && echo "install-deps-selftest: all checks passed"
exit "$errors"
