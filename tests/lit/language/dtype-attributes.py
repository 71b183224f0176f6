# Dtype objects: ptr.dtype.element_ty in .to() and tl.zeros(dtype=), x.dtype,
# tl.pointer_type, dtype predicates folded at compile time, calling a dtype.
# RUN: mgpc %s -k cast_like --signature "*fp16,*fp32,i32,128" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k cast_like --signature "*bf16,*fp32,i32,128" -emit=mlir | FileCheck %s --check-prefix=BF16
# RUN: mgpc %s -k call_dtype --signature "*fp16,*fp32" -emit=mlir | FileCheck %s --check-prefix=CALL
# REQUIRES: ptxas
# RUN: mgpc %s -k cast_like --signature "*fp16,*fp32,i32,128" -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def cast_like(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=y_ptr.dtype.element_ty)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.static_assert(x.dtype == x_ptr.dtype.element_ty)
    tl.static_assert(x_ptr.dtype == tl.pointer_type(x.dtype))
    tl.static_assert(x_ptr.dtype.is_ptr() and not x.dtype.is_ptr())
    tl.static_assert(x.dtype.primitive_bitwidth == 16)
    if x.dtype.is_fp16():
        acc += x.to(tl.float32) * 2.0
    else:
        acc += x.to(y_ptr.type.element_ty) * 3.0
    tl.store(y_ptr + offs, acc.to(y_ptr.dtype.element_ty), mask=offs < n)


# Calling a dtype converts (an mgp extension used by some kernels; Triton 3.6
# has no dtype.__call__).
@triton.jit
def call_dtype(x_ptr, y_ptr):
    tl.store(y_ptr, tl.float32(tl.load(x_ptr)) + tl.int32(2.7))

# CHECK-LABEL: func.func @cast_like
# CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<128xf32>
# CHECK-DAG: %[[X:.*]] = arith.extf {{.*}} : tensor<128xf16> to tensor<128xf32>
# CHECK: arith.mulf %[[X]], %[[TWO]]
# BF16-LABEL: func.func @cast_like
# BF16-DAG: %[[THREE:.*]] = arith.constant dense<3.000000e+00> : tensor<128xf32>
# BF16-DAG: %[[X:.*]] = arith.extf {{.*}} : tensor<128xbf16> to tensor<128xf32>
# BF16: arith.mulf %[[X]], %[[THREE]]
# CALL-LABEL: func.func @call_dtype
# CALL: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
# CALL: %[[X:.*]] = arith.extf {{.*}} : f16 to f32
# CALL: arith.addf %[[X]], %[[TWO]] : f32
