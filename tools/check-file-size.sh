#!/usr/bin/env bash
# This file implements the file-size check of STYLE.md: every tracked source
# file (.cpp .h .td .mgp .py) past WARN lines (default 800) gets a WARN line,
# past FAIL lines (default 1200) a FAIL line and a nonzero exit.
# Outside a git checkout it checks every such file but build*/ and dist/.
# Usage: tools/check-file-size.sh [repo-root]   (env: MGP_SIZE_WARN, MGP_SIZE_FAIL)
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
warn=${MGP_SIZE_WARN:-800}
fail=${MGP_SIZE_FAIL:-1200}
cd "$root"

if ! files=$(git ls-files -- '*.cpp' '*.h' '*.td' '*.mgp' '*.py' 2>/dev/null); then
  # A source tree without git (an unpacked archive): every source file
  # outside the build and dist folders.
  echo "check-file-size: $root is not a git checkout, checking every file"
  files=$(find . \( -name 'build*' -o -name dist -o -name .git \) -prune -o \
    -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.td' -o -name '*.mgp' \
    -o -name '*.py' \) -print | sed 's|^\./||' | sort)
fi

checked=0 warned=0 failed=0
while IFS= read -r f; do
  [ -n "$f" ] && [ -f "$f" ] || continue
  checked=$((checked + 1))
  lines=$(wc -l < "$f")
  if [ "$lines" -gt "$fail" ]; then
    echo "FAIL: $f has $lines lines (limit $fail): split it"
    failed=$((failed + 1))
  elif [ "$lines" -gt "$warn" ]; then
    echo "WARN: $f has $lines lines (aim under 400, split past $warn)"
    warned=$((warned + 1))
  fi
done <<< "$files"

echo "check-file-size: $checked files, $warned over $warn lines, $failed over $fail lines"
[ "$failed" -eq 0 ]
