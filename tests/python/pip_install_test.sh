#!/usr/bin/env bash
# `pip install ./python` into a fresh virtual environment (under the build
# folder; --system-site-packages for NumPy, nothing downloaded: the package's
# build backend is in-tree), then a vector add written with @mgp.jit and mgp.*
# names run from outside the source tree with MGP_INTERPRET=1 must give
# exactly x + y. Usage: pip_install_test.sh PYTHON SOURCE_DIR WORK_DIR LIBMGP
set -euo pipefail
python=$1 src=$2 work=$3 lib=$4
venv=$work/pip-venv
rm -rf "$venv" "$work/pip-run"
"$python" -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install --no-deps --no-index --quiet "$src/python"
if ! "$venv/bin/python" -c "import numpy" 2>/dev/null; then
  echo "skipped: numpy is not installed for $python (pip install numpy)"
  exit 77
fi
mkdir -p "$work/pip-run"
cp "$src/tests/python/pip_vector_add.py" "$work/pip-run/"
cd "$work/pip-run"
MGP_INTERPRET=1 MGP_LIBRARY="$lib" MGP_CACHE_DIR="$work/pip-run/cache" \
  "$venv/bin/python" pip_vector_add.py "$venv"
