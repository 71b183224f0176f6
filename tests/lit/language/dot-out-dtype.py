# tl.dot's out_dtype: fp16 operands with out_dtype=tl.float16 accumulate in
# fp32 and round once to fp16 (an fp16 accumulator given as acc widens first);
# fp32 and bf16 operands give fp32, fp64 ones fp64, whatever out_dtype is
# given (an integer one too), as in Triton; an integer out_dtype for fp16
# operands and out_dtype=bfloat16 are located errors (Triton's words for the
# latter).
# RUN: mgpc %s -k dot_fp16_out --signature "*fp16,*fp16,32" -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k dot_bad_out --signature "*fp16,*fp16,32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: mgpc %s -k dot_fp32_out16 --signature "*fp32,*fp32,32" -emit=mlir | FileCheck %s --check-prefix=F32
# RUN: mgpc %s -k dot_bf16_out_int --signature "*bf16,*fp32,32" -emit=mlir | FileCheck %s --check-prefix=BF16INT
# RUN: mgpc %s -k dot_fp64_out32 --signature "*fp64,*fp64,32" -emit=mlir | FileCheck %s --check-prefix=F64
# RUN: not mgpc %s -k dot_bf16_out --signature "*bf16,*fp32,32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BF16
# REQUIRES: ptxas
# RUN: mgpc %s -k dot_fp16_out --signature "*fp16,*fp16,32" -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def dot_fp16_out(a_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float16)
    acc = tl.dot(a, a, acc, out_dtype=tl.float16)
    tl.static_assert(acc.dtype == tl.float16)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)

# CHECK-LABEL: func.func @dot_fp16_out
# CHECK: %[[D:.*]] = mgp.dot {{.*}} -> tensor<32x32xf32>
# CHECK: arith.truncf %[[D]] : tensor<32x32xf32> to tensor<32x32xf16>


@triton.jit
def dot_bad_out(a_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    c = tl.dot(a, a, out_dtype=tl.int32)
# ERR: dot-out-dtype.py:[[@LINE-1]]:32: error: out_dtype must be a floating-point type for fp16 operands, got dtype int32


@triton.jit
def dot_fp32_out16(a_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    c = tl.dot(a, a, out_dtype=tl.float16)
    tl.static_assert(c.dtype == tl.float32)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], c)

# F32-LABEL: func.func @dot_fp32_out16
# F32: mgp.dot {{.*}} -> tensor<32x32xf32>
# F32-NOT: arith.truncf


@triton.jit
def dot_bf16_out_int(a_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    c = tl.dot(a, a, out_dtype=tl.int32)
    tl.static_assert(c.dtype == tl.float32)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], c)

# BF16INT-LABEL: func.func @dot_bf16_out_int
# BF16INT: mgp.dot {{.*}} -> tensor<32x32xf32>


@triton.jit
def dot_bf16_out(a_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    c = tl.dot(a, a, out_dtype=tl.bfloat16)
# BF16: dot-out-dtype.py:[[@LINE-1]]:32: error: out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`


@triton.jit
def dot_fp64_out32(a_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    c = tl.dot(a, a, out_dtype=tl.float32)
    tl.static_assert(c.dtype == tl.float64)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], c)

# F64-LABEL: func.func @dot_fp64_out32
# F64: mgp.dot {{.*}} -> tensor<32x32xf64>
# F64-NOT: arith.truncf
