# tl.dot of 3-D blocks [B, M, K] @ [B, K, N] (Triton's batched dot): one 2-D
# mgp.dot per batch on the operands' B matrices (cut out along axis 0 exactly:
# a one-hot select of the bits, summed), the results stacked back into
# [B, M, N] the same way; the accumulator is cut like the operands. Differing batch dimensions and an accumulator of
# another shape are located errors.
# RUN: mgpc %s -k bmm --signature "*fp16,*fp16,*fp32" -D B=4 -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k bad_batch --signature "*fp16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BATCH
# RUN: not mgpc %s -k bad_acc --signature "*fp16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ACC
# REQUIRES: ptxas
# RUN: mgpc %s -k bmm --signature "*fp16,*fp16,*fp32" -D B=2 --arch sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: mgpc %s -k bmm --signature "*fp16,*fp16,*fp32" -D B=8 --arch sm_80 -o %t8.ptx && %ptxas -arch=sm_80 %t8.ptx -o %t8.cubin
import triton
import triton.language as tl


@triton.jit
def bmm(q_ptr, k_ptr, o_ptr, B: tl.constexpr):
    b = tl.arange(0, B)[:, None, None]
    m = tl.arange(0, 32)[None, :, None]
    n = tl.arange(0, 16)[None, None, :]
    kk = tl.arange(0, 16)
    q = tl.load(q_ptr + b * 32 * 16 + m * 16 + kk[None, None, :])
    k = tl.load(k_ptr + b * 16 * 16 + kk[None, :, None] * 16 + n)
    acc = tl.full((B, 32, 16), 1.0, dtype=tl.float32)
    acc = tl.dot(q, k, acc=acc)
    tl.static_assert(acc.shape == (B, 32, 16))
    tl.store(o_ptr + b * 32 * 16 + m * 16 + n, acc)

# CHECK-LABEL: func.func @bmm
# CHECK-COUNT-4: mgp.dot {{.*}} : tensor<32x16xf16> * tensor<16x16xf16> -> tensor<32x16xf32>
# CHECK-NOT: mgp.dot
# CHECK: arith.bitcast {{.*}} : tensor<4x32x16xi32> to tensor<4x32x16xf32>


@triton.jit
def bad_batch(p):
    a = tl.load(p + tl.arange(0, 2)[:, None, None] + tl.arange(0, 16)[None, :, None] + tl.arange(0, 16)[None, None, :])
    b = tl.load(p + tl.arange(0, 4)[:, None, None] + tl.arange(0, 16)[None, :, None] + tl.arange(0, 16)[None, None, :])
    c = tl.dot(a, b)
# BATCH: dot-3d.py:[[@LINE-1]]:9: error: dot: the batch dimensions differ: [2, 16, 16] @ [4, 16, 16]


@triton.jit
def bad_acc(p):
    a = tl.load(p + tl.arange(0, 2)[:, None, None] + tl.arange(0, 16)[None, :, None] + tl.arange(0, 16)[None, None, :])
    c = tl.dot(a, a, tl.zeros((16, 16), dtype=tl.float32))
# ACC: dot-3d.py:[[@LINE-1]]:9: error: a batched dot's accumulator must be a [2, 16, 16] block, got block <16x16xfp32>
