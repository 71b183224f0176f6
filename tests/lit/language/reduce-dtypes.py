# The result types of max and min, as Triton 3.6's standard.py gives them:
# without indices every type narrower than 32 bits reduces in fp32 or int32
# (signed; unsigned values widen with zeros), and with indices bf16 compares
# in fp32 while the others keep their type. Each RUN compiles only if the
# static asserts hold.
# RUN: mgpc %s -k reduce_types --signature "*fp16" -D MAX=float32 -D IDX=float16 -emit=mlir | FileCheck %s --check-prefix=F16
# RUN: mgpc %s -k reduce_types --signature "*bf16" -D MAX=float32 -D IDX=float32 -emit=mlir | FileCheck %s
# RUN: mgpc %s -k reduce_types --signature "*i8" -D MAX=int32 -D IDX=int8 -emit=mlir | FileCheck %s
# RUN: mgpc %s -k reduce_types --signature "*u8" -D MAX=int32 -D IDX=uint8 -emit=mlir | FileCheck %s --check-prefix=U8
# RUN: mgpc %s -k reduce_types --signature "*i16" -D MAX=int32 -D IDX=int16 -emit=mlir | FileCheck %s
# RUN: mgpc %s -k reduce_types --signature "*fp32" -D MAX=float32 -D IDX=float32 -emit=mlir | FileCheck %s
# RUN: mgpc %s -k reduce_types --signature "*u32" -D MAX=uint32 -D IDX=uint32 -emit=mlir | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def reduce_types(x_ptr, MAX: tl.constexpr, IDX: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 64))
    m = tl.max(x, axis=0)
    tl.static_assert(m.dtype == MAX)
    tl.static_assert(tl.min(x, axis=0).dtype == MAX)
    v, i = tl.max(x, axis=0, return_indices=True)
    tl.static_assert(v.dtype == IDX)
    tl.static_assert(i.dtype == tl.int32)
    tl.store(x_ptr, (m + v).to(x_ptr.dtype.element_ty))

# CHECK-LABEL: func.func @reduce_types
# CHECK: mgp.reduce
# fp16 reduces in fp32 (Triton: input.to(float32) first).
# F16: arith.extf %{{.*}} : tensor<64xf16> to tensor<64xf32>
# F16: arith.maxnumf {{.*}} : f32
# uint8 widens with zeros and compares as a signed int32.
# U8: arith.extui %{{.*}} : tensor<64xi8> to tensor<64xi32>
# U8: arith.maxsi {{.*}} : i32
