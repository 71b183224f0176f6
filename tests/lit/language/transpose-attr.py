# Triton's tensor.T: the transpose of a 2-D block, as tl.trans(x); on a block of
# another rank it is a located error. tensor.numel: the element count, a
# constexpr (logical, for blocks whose dimensions are not powers of two). A
# number's .dtype is the type Triton's to_tensor gives it.
# RUN: mgpc %s -k transpose_t --signature "*fp32,*fp32,16,32" -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k transpose_1d --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
# REQUIRES: ptxas
# RUN: mgpc %s -k transpose_t --signature "*fp32,*fp32,16,32" -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def transpose_t(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    xt = x.T
    tl.static_assert(xt.shape[0] == N and xt.shape[1] == M)
    tl.static_assert(xt.numel == M * N)
    tl.static_assert(tl.arange(0, 24)[:, None].numel == 24)
    tl.static_assert((5).dtype == tl.int32 and (3000000000).dtype == tl.uint32)
    tl.static_assert((2 ** 40).dtype == tl.int64 and (1.5).dtype == tl.float32)
    tl.static_assert((1e50).dtype == tl.float64 and True.dtype == tl.int1)
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], xt)

# CHECK-LABEL: func.func @transpose_t
# CHECK: mgp.trans {{.*}} tensor<16x32xf32> -> tensor<32x16xf32>


@triton.jit
def transpose_1d(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x.T
# ERR: transpose-attr.py:[[@LINE-1]]:11: error: '.T' needs a 2-D block, got block <16xfp32>
