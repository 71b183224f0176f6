# `return` under a runtime `if`: the rest of the function runs only where the
# condition does not hold (Triton's top-level if with a return), in kernels
# and in helpers, nested, and under a constexpr `if`.
# RUN: mgpc %s -k row_kernel --signature "*fp32:16,*fp32:16,i32,i32,128" -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k value_in_one_branch --signature "*fp32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ONEBRANCH --strict-whitespace
# REQUIRES: ptxas
# RUN: mgpc %s -k row_kernel --signature "*fp32:16,*fp32:16,i32,i32,128" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def _store_row(y_ptr, row, vals, n):
    if row < 0:
        return
    offs = tl.arange(0, 128)
    tl.store(y_ptr + row * n + offs, vals, mask=offs < n)


@triton.jit
def _scale(x, row):
    if row % 2 == 0:
        return x * 2.0
    return x


@triton.jit
def row_kernel(x_ptr, y_ptr, n_rows, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if row >= n_rows:
        return
    if BLOCK > 64:
        if row == 7:
            return
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=0.0)
    _store_row(y_ptr, row, _scale(x, row), n)


@triton.jit
def value_in_one_branch(x_ptr, n):
    tl.store(x_ptr, _bad(n))


@triton.jit
def _bad(n):
    if n > 0:
        return 1.0
    n += 1

# CHECK-LABEL: func.func @row_kernel
# CHECK: %[[PID:.*]] = mgp.program_id 0 : i32
# CHECK: %[[OUT:.*]] = arith.cmpi sge, %[[PID]]
# CHECK: scf.if %[[OUT]] {
# CHECK-NEXT: } else {
# CHECK: scf.if
# CHECK: mgp.load
# CHECK: scf.if
# CHECK: mgp.store

# ONEBRANCH: early-return.py:48:5: error: this 'if' returns a value in one branch only: a function that returns a value must return one on every path
# ONEBRANCH-NEXT: {{^}}    if n > 0:{{$}}
