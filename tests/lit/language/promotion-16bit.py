# Result types of binary operations on 16-bit floats and bools, as Triton 3.6's
# computation_type_impl gives them (semantic.py, in its order): fp16 with
# bf16 or an integer block computes in fp16; bf16 stays bf16 only with bf16
# and computes in fp32 with integer blocks; an int literal takes part with a
# bool block (its kind is above bool's), also in bitwise operations. The same
# static asserts compile with triton.compile.
# RUN: mgpc %s -k promote --signature "*fp16,*bf16,*i32,*i1" -emit=mlir | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def promote(h_ptr, b_ptr, i_ptr, m_ptr):
    offs = tl.arange(0, 32)
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    i = tl.load(i_ptr + offs)
    m = tl.load(m_ptr + offs)
    tl.static_assert((h + b).dtype == tl.float16)
    tl.static_assert((b * h).dtype == tl.float16)
    tl.static_assert((h / b).dtype == tl.float32)
    tl.static_assert((b + i).dtype == tl.float32)
    tl.static_assert((i * b).dtype == tl.float32)
    tl.static_assert((b + m).dtype == tl.float32)
    tl.static_assert((h + i).dtype == tl.float16)
    tl.static_assert((b + b).dtype == tl.bfloat16)
    tl.static_assert((b / b).dtype == tl.float32)
    tl.static_assert((b + 2).dtype == tl.bfloat16)
    tl.static_assert((b * 0.5).dtype == tl.bfloat16)
    tl.static_assert((m & 3).dtype == tl.int32)
    tl.static_assert((m | True).dtype == tl.int1)
    tl.static_assert((i & 3).dtype == tl.int32)
    tl.store(h_ptr + offs, (h + b).to(tl.float16))
    tl.store(b_ptr + offs, (b * i).to(tl.bfloat16))

# bf16 times an int32 block: both convert to fp32 first.
# CHECK-LABEL: func.func @promote
# CHECK: arith.extf %{{.*}} : tensor<32xbf16> to tensor<32xf32>
# CHECK: arith.sitofp %{{.*}} : tensor<32xi32> to tensor<32xf32>
# CHECK: arith.mulf %{{.*}} : tensor<32xf32>
