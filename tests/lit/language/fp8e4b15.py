# Triton's float8e4b15 (exponent bias 15, no infinities or NaN): bytes in
# memory, converted in integer arithmetic as Triton's CUDA backend does (to
# fp16: the sign and the other seven bits shifted into place; from fp16: the
# magnitude clamped to 1.75 and rounded half away from zero to 3 bits; fp32
# goes to fp16 toward zero first); arithmetic computes in fp16, dot widens
# to fp16. The kernels after the front end see i8.
# RUN: mgpc %s -k roundtrip --signature "*fp32,*fp8e4b15,*fp32,i32" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k add_codes --signature "*fp8e4b15,*fp8e4b15,*fp16" -emit=mlir | FileCheck %s --check-prefix=ADD
# REQUIRES: ptxas
# RUN: mgpc %s -k roundtrip --signature "*fp32,*fp8e4b15,*fp32,i32" --arch sm_80 -o %t.80.ptx && %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
# RUN: mgpc %s -k add_codes --signature "*fp8e4b15,*fp8e4b15,*fp16" --arch sm_90a -o %t.90.ptx && %ptxas -arch=sm_90a %t.90.ptx -o %t.90.cubin
import triton
import triton.language as tl


@triton.jit
def roundtrip(x_ptr, q_ptr, y_ptr, n):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs, mask=offs < n)
    q = x.to(tl.float8e4b15)
    tl.static_assert(q.dtype == tl.float8e4b15)
    tl.static_assert(q_ptr.dtype.element_ty.is_fp8e4b15())
    tl.store(q_ptr + offs, q, mask=offs < n)
    tl.store(y_ptr + offs, q.to(tl.float32), mask=offs < n)

# CHECK-LABEL: func.func @roundtrip(%arg0: !mgp.ptr<f32>, %arg1: !mgp.ptr<i8>, %arg2: !mgp.ptr<f32>, %arg3: i32)
# fp32 -> fp16 toward zero: one step back when the nearest is farther out;
# NaN the canonical 0x7FFF.
# CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<128xf32> to tensor<128xf16>
# CHECK: arith.cmpi ugt
# CHECK: arith.subi
# CHECK: arith.cmpf uno
# fp16 -> e4b15: sign, magnitude at most 0x3F00 (1.75), doubled plus 0x80,
# the high byte.
# CHECK: %[[SIGN:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<128xi16>
# CHECK: %[[MAG:.*]] = arith.minui %{{.*}}, %{{.*}} : tensor<128xi16>
# CHECK: %[[TWICE:.*]] = arith.shli %[[MAG]]
# CHECK: %[[ROUND:.*]] = arith.addi %[[TWICE]]
# CHECK: %[[BOTH:.*]] = arith.ori %[[SIGN]], %[[ROUND]]
# CHECK: %[[HIGH:.*]] = arith.shrui %[[BOTH]]
# CHECK: %[[Q:.*]] = arith.trunci %[[HIGH]] : tensor<128xi16> to tensor<128xi8>
# CHECK: mgp.store %{{.*}}, %[[Q]], %{{.*}} : tensor<128x!mgp.ptr<i8>>
# e4b15 -> fp16 -> fp32.
# CHECK: %[[W:.*]] = arith.extui %[[Q]] : tensor<128xi8> to tensor<128xi16>
# CHECK: arith.shli
# CHECK: arith.shli
# CHECK: %[[BITS:.*]] = arith.ori
# CHECK: %[[F16:.*]] = arith.bitcast %[[BITS]] : tensor<128xi16> to tensor<128xf16>
# CHECK: arith.extf %[[F16]] : tensor<128xf16> to tensor<128xf32>
# CHECK-NOT: f8E4M3B11FNUZ


@triton.jit
def add_codes(a_ptr, b_ptr, c_ptr):
    offs = tl.arange(0, 256)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = a + b
    tl.static_assert(c.dtype == tl.float16)
    d = tl.dot(tl.reshape(a, (16, 16)), tl.reshape(b, (16, 16)))
    tl.static_assert(d.dtype == tl.float32)
    tl.store(c_ptr + offs, c + tl.reshape(d, (256,)).to(tl.float16))

# ADD-LABEL: func.func @add_codes
# ADD: arith.addf %{{.*}}, %{{.*}} : tensor<256xf16>
# ADD: mgp.dot {{.*}} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
# ADD-NOT: f8E4M3B11FNUZ


# Reductions, scans and one-operand math convert first (max and min to fp32,
# as Triton reduces every type narrower than 32 bits; the rest to fp16);
# an operation that would compute on the bytes themselves is a located error.
# RUN: mgpc %s -k reduce_codes --signature "*fp8e4b15,*fp32" -emit=mlir | FileCheck %s --check-prefix=RED
# RUN: not mgpc %s -k sort_codes --signature "*fp8e4b15,*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
@triton.jit
def reduce_codes(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    m = tl.max(x, axis=0)
    tl.static_assert(m.dtype == tl.float32)
    s = tl.sum(x, axis=0)
    tl.static_assert(s.dtype == tl.float16)
    c = tl.cumsum(-x, axis=0) + tl.abs(x) + tl.exp(x)
    tl.static_assert(c.dtype == tl.float16)
    tl.store(y_ptr + offs, c.to(tl.float32) + m + s.to(tl.float32))

# RED-LABEL: func.func @reduce_codes
# RED: arith.maxnumf {{.*}} : f32
# RED: arith.negf {{.*}} : tensor<64xf16>
# RED-NOT: f8E4M3B11FNUZ


@triton.jit
def sort_codes(x_ptr, y_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.sort(x).to(tl.float32))
# ERR: fp8e4b15.py:[[@LINE-1]]:28: error: 'arith.cmpf' on float8e4b15 values is not supported: float8e4b15 is stored and converted only; convert with .to(tl.float16) first
