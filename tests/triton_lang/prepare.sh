#!/usr/bin/env bash
# This file implements the setup of Triton's own language tests for
# run_triton_tests.py: it extracts python/test/conftest.py and
# python/test/unit/language/ of Triton's release commit from a Triton git
# directory into DEST (default: triton-tests/ at the repository root, which
# is listed in the repository's .git/info/exclude and never committed: the
# tests are Triton's, not ours). With --with-pytest it also installs pytest
# into DEST/site (pure Python, for a machine without it, e.g. the GPU
# machine, which reaches no package index; the runner puts DEST/site on
# PYTHONPATH).
#
# Usage: prepare.sh TRITON_GIT_DIR [DEST] [--with-pytest]
#   TRITON_GIT_DIR  a clone (or bare mirror) of triton-lang/triton, or of a
#                   fork carrying its release/3.6.x branch
# TRITON_COMMIT picks the commit (default: Triton 3.6.0's release commit,
# "[release 3.6] Release Triton to pypi", whose python/triton matches the
# triton 3.6.0 wheel file for file).
set -euo pipefail
git_dir=${1:?usage: prepare.sh TRITON_GIT_DIR [DEST] [--with-pytest]}
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=${2:-$root/triton-tests}
[ "$dest" = --with-pytest ] && dest=$root/triton-tests
commit=${TRITON_COMMIT:-7c56a5e40f7fd928dfd5c72902d5def0097db73a}

version=$(git --git-dir="$git_dir" show "$commit:python/triton/__init__.py" |
  sed -n "s/^__version__ = '\(.*\)'/\1/p")
installed=$(python3 -c "import triton; print(triton.__version__)" 2>/dev/null || echo none)
echo "Triton tests of $commit (Triton $version); installed triton: $installed"
[ "$version" = "$installed" ] || echo "warning: the tests are of Triton $version, the installed triton is $installed"

rm -rf "$dest" && mkdir -p "$dest"
git --git-dir="$git_dir" archive "$commit" python/test/conftest.py python/test/unit/language |
  tar -x -C "$dest" --strip-components=2
echo "$commit" > "$dest/COMMIT"
echo "$(find "$dest/unit/language" -name 'test_*.py' | wc -l) test files in $dest"

exclude=$(git -C "$root" rev-parse --git-common-dir)/info/exclude
name=$(realpath --relative-to="$root" "$dest" 2>/dev/null || echo "$dest")
case $name in
../* | /*) ;;
*) grep -qxF "/$name/" "$exclude" 2>/dev/null || echo "/$name/" >> "$exclude" ;;
esac

for arg in "$@"; do
  if [ "$arg" = --with-pytest ]; then
    python3 -m pip install --quiet --target "$dest/site" pytest
    echo "pytest installed into $dest/site"
  fi
done
