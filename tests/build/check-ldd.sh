#!/usr/bin/env bash
# This file implements the portable build's dependency check: it runs `ldd` on
# every binary given and fails when one needs a shared library outside the
# allowed set (libc, libstdc++, libm, libgcc_s, libz, libzstd, the dynamic
# loader and the vDSO), or when ldd cannot resolve a library. An executable
# (a binary with a program interpreter) must also link libstdc++ and libgcc in
# and not be position independent, so that its start-up has no C++ symbols to
# resolve and no relative relocations to apply (cmake/MgpLLVM.cmake).
# Usage: tests/build/check-ldd.sh BINARY...
set -uo pipefail

allowed='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libstdc\+\+\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libz\.so\.1|libzstd\.so\.1)$'

if [ "$#" -eq 0 ]; then
  echo "usage: $0 BINARY..." >&2
  exit 2
fi

status=0
for bin in "$@"; do
  if [ ! -x "$bin" ]; then
    echo "MISSING: $bin is not an executable file"
    status=1
    continue
  fi
  if ! out=$(ldd "$bin" 2>&1); then
    echo "LDD-ERROR: $bin: $out"
    status=1
    continue
  fi
  bad=0
  exe=0
  if readelf -lW "$bin" 2>/dev/null | grep -q 'program interpreter'; then
    exe=1
    if ! readelf -hW "$bin" | grep -q 'Type: *EXEC'; then
      echo "PIE: $bin is a position-independent executable (link it with -no-pie)"
      bad=1
    fi
  fi
  while read -r name _; do
    [ -n "$name" ] || continue
    lib=$(basename "$name")
    if [[ ! "$lib" =~ $allowed ]]; then
      echo "DISALLOWED: $lib needed by $bin"
      bad=1
    elif [ "$exe" -eq 1 ] && [[ "$lib" =~ ^(libstdc\+\+|libgcc_s)\. ]]; then
      echo "DISALLOWED: $lib needed by the executable $bin (link it in: -static-libstdc++ -static-libgcc)"
      bad=1
    fi
  done <<< "$out"
  if grep -q "not found" <<< "$out"; then
    echo "NOT-FOUND: $bin has unresolved libraries"
    bad=1
  fi
  if [ "$bad" -eq 0 ]; then
    echo "OK: $bin needs only $(awk '{print $1}' <<< "$out" | xargs -n1 basename | sort | tr '\n' ' ')"
  else
    status=1
  fi
done
exit "$status"
