"""Run by pip_install_test.sh from a fresh virtual environment: the installed
mgp package (not the source tree) runs a vector add written with @mgp.jit and
mgp.* names on NumPy arrays under MGP_INTERPRET=1; the result must be exactly
x + y."""
import os
import sys

import numpy as np

import mgp


@mgp.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: mgp.constexpr):
    offs = mgp.program_id(0) * BLOCK + mgp.arange(0, BLOCK)
    mask = offs < n
    mgp.store(out_ptr + offs, mgp.load(x_ptr + offs, mask=mask)
              + mgp.load(y_ptr + offs, mask=mask), mask=mask)


def main():
    venv = os.path.realpath(sys.argv[1])
    where = os.path.realpath(mgp.__file__)
    if not where.startswith(venv + os.sep):
        print(f"FAIL: mgp imported from {where}, not from {venv}")
        return 1
    assert mgp.interpreting(), "MGP_INTERPRET=1 must select the interpreter"
    rng = np.random.default_rng()
    n = 100_000
    x = rng.uniform(-4, 4, n).astype(np.float32)
    y = rng.uniform(-4, 4, n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    add_kernel[(mgp.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    if not np.array_equal(out, x + y):
        bad = np.count_nonzero(out != x + y)
        print(f"FAIL: {bad} of {n} elements differ from x + y")
        return 1
    print(f"PASS: mgp {mgp.version()} from {where}: {n} elements equal x + y")
    return 0


if __name__ == "__main__":
    sys.exit(main())
