# Python's tuple repetition in kernels: `(1,) * N` and `N * (0,)` build
# compile-time tuples (shapes for reshape, block pointer offsets); a huge
# repetition is a located error.
# RUN: mgpc %s -k repeat --signature "*fp32,64" -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k repeat_huge --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
import triton
import triton.language as tl


@triton.jit
def repeat(x_ptr, N: tl.constexpr):
    ones: tl.constexpr = (1,) * 2
    tl.static_assert(ones == (1, 1))
    tl.static_assert(len(3 * (0,)) == 3)
    tl.static_assert((2, 3) * 0 == ())
    x = tl.load(x_ptr + tl.arange(0, N))
    y = tl.reshape(x, ones + (N,))
    tl.store(x_ptr + tl.arange(0, N), tl.reshape(y * 2.0, (N,)))

# CHECK-LABEL: func.func @repeat
# CHECK: mgp.reshape {{.*}} -> tensor<1x1x64xf32>


@triton.jit
def repeat_huge(x_ptr):
    t = (0,) * 100000
# ERR: tuple-repeat.py:[[@LINE-1]]:14: error: tuple repetition of 100000 is too large
