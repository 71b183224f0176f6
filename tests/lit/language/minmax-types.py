# tl.maximum / tl.minimum as Triton's core.py: each operand becomes a tensor
# first (to_tensor: a Python number is an int32 / fp32 0-d tensor, so it
# takes part in the promotion) and bf16 operands compute in fp32; Python's
# max/min of blocks are the same. Negating a bool block stays int1. The same
# static asserts compile with triton.compile.
# RUN: mgpc %s -k minmax --signature "*fp16,*bf16,*i8,*i1" -emit=mlir | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def minmax(h_ptr, b_ptr, c_ptr, m_ptr):
    offs = tl.arange(0, 32)
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = tl.load(c_ptr + offs)
    m = tl.load(m_ptr + offs)
    tl.static_assert(tl.maximum(c, 1).dtype == tl.int32)
    tl.static_assert(tl.maximum(c, c).dtype == tl.int8)
    tl.static_assert(tl.minimum(h, 1.5).dtype == tl.float32)
    tl.static_assert(tl.minimum(h, h).dtype == tl.float16)
    tl.static_assert(tl.maximum(b, b).dtype == tl.float32)
    tl.static_assert(tl.clamp(b, 0.0, 1.0).dtype == tl.float32)
    tl.static_assert(tl.clamp(h, 0, 1).dtype == tl.float16)
    tl.static_assert(max(c, 2).dtype == tl.int32)
    tl.static_assert((-m).dtype == tl.int1)
    tl.store(b_ptr + offs, tl.maximum(b, b))
    tl.store(c_ptr + offs, tl.maximum(c, 1))

# bf16 compares in fp32; the store rounds back.
# CHECK-LABEL: func.func @minmax
# CHECK: arith.extf %{{.*}} : tensor<32xbf16> to tensor<32xf32>
# CHECK: arith.maxnumf %{{.*}} : tensor<32xf32>
# CHECK: arith.extsi %{{.*}} : tensor<32xi8> to tensor<32xi32>
# CHECK: arith.maxsi %{{.*}} : tensor<32xi32>
