# tl.sort / tl.topk / tl.bitonic_merge: Triton's bitonic network on the block
# reshaped to a hypercube (2 x 2 x ...): xor-sum reductions find each
# element's partner, selects keep the smaller or larger; topk reduces the
# halves it drops with max. Compiles for 1-D and 2-D blocks and passes ptxas.
# RUN: mgpc %s -k sort_rows --signature "*fp32:16,*fp32:16,*fp32:16,4,64,8" -emit=mlir | FileCheck %s
# REQUIRES: ptxas
# RUN: mgpc %s -k sort_rows --signature "*fp32:16,*fp32:16,*fp32:16,4,64,8" -o %t.ptx
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: mgpc %s -k sort_1d --signature "*i32:16,*i32:16,1024" --num-warps 8 -o %t1024.ptx
# RUN: %ptxas -arch=sm_90 %t1024.ptx -o %t1024.cubin
# RUN: not mgpc %s -k sort_dim0 --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DIM
# RUN: not mgpc %s -k topk_bad_k --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=TOPK
# RUN: not mgpc %s -k sort_padded --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=PADDED
import triton
import triton.language as tl


# CHECK-LABEL: func.func @sort_rows
# CHECK: mgp.reshape %{{.*}} : tensor<4x64xf32> -> tensor<2x2x2x2x2x2x2x2xf32>
# CHECK: "mgp.reduce"
# CHECK: arith.xori
# CHECK: arith.cmpf ogt
# CHECK: arith.select
# CHECK: arith.maxnumf
# CHECK: mgp.reshape %{{.*}} : tensor<2x2x2x2x2xf32> -> tensor<4x8xf32>
@triton.jit
def sort_rows(x_ptr, out_ptr, top_ptr, R: tl.constexpr, N: tl.constexpr,
              K: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x, descending=True))
    top_offs = tl.arange(0, R)[:, None] * K + tl.arange(0, K)[None, :]
    tl.store(top_ptr + top_offs, tl.topk(x, K))


@triton.jit
def sort_1d(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.bitonic_merge(tl.sort(x)))


@triton.jit
def sort_dim0(x_ptr):
    offs = tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + offs)
    # DIM: sort.py:[[@LINE+1]]:39: error: 'sort' sorts along the last dimension only (1 here, as in Triton), got 0
    tl.store(x_ptr + offs, tl.sort(x, 0))


@triton.jit
def topk_bad_k(x_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    # TOPK: sort.py:[[@LINE+1]]:50: error: k must be a power of two no larger than the last dimension (16), got 3
    tl.store(x_ptr + tl.arange(0, 4), tl.topk(x, 3))


@triton.jit
def sort_padded(x_ptr):
    # mgp allows blocks of any length (padded to a power of two); sort
    # does not (nor does Triton's arange).
    # PADDED: sort.py:[[@LINE+1]]:29: error: 'sort' needs a block whose dimensions are powers of two, got [10]
    tl.store(x_ptr, tl.sort(tl.arange(0, 10)))
