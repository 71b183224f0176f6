# fp8e4nv / fp8e5 in signatures, dtypes and casts: a per-row fp8 quantize
# kernel (absmax scale, saturating round-to-nearest conversion), the
# dequantize, and an fp8 dot (operands widened to fp16, exactly).
# RUN: mgpc %s -k quantize --signature "*fp32:16,*fp8e4nv:16,*fp32,i32,1024" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k quantize --signature "*bf16:16,*fp8e5:16,*fp32,i32,1024" -emit=mlir | FileCheck %s --check-prefix=E5
# REQUIRES: ptxas
# RUN: mgpc %s -k quantize --signature "*fp32:16,*fp8e4nv:16,*fp32,i32,1024" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
# RUN: mgpc %s -k quantize --signature "*fp16:16,*fp8e5:16,*fp32,i32,1024" -o %t5.ptx
# RUN: %ptxas -arch=sm_90 %t5.ptx -o %t5.cubin
# RUN: FileCheck %s --check-prefix=PTX5 --input-file %t5.ptx
# RUN: mgpc %s -k fp8_dot --signature "*fp8e4nv:16,*fp8e4nv:16,*fp32:16,64" --arch sm_90a -o %td.ptx
# RUN: %ptxas -arch=sm_90a %td.ptx -o %td.cubin
import triton
import triton.language as tl


@triton.jit
def quantize(x_ptr, q_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=m, other=0.0).to(tl.float32)
    fp8_max: tl.constexpr = 448.0 if q_ptr.dtype.element_ty == tl.float8e4nv else 57344.0
    scale = fp8_max / tl.maximum(tl.max(tl.abs(x), axis=0), 1e-12)
    tl.store(q_ptr + row * n + offs, (x * scale).to(q_ptr.dtype.element_ty), mask=m)
    tl.store(scale_ptr + row, 1.0 / scale)


@triton.jit
def fp8_dot(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(a_ptr + r[:, None] * N + r[None, :])
    b = tl.load(b_ptr + r[:, None] * N + r[None, :])
    tl.store(c_ptr + r[:, None] * N + r[None, :], tl.dot(a, b))

# CHECK-LABEL: func.func @quantize(%{{.*}}: !mgp.ptr<f32>{{.*}}, %{{.*}}: !mgp.ptr<f8E4M3FN>
# CHECK: arith.constant 4.480000e+02 : f32
# CHECK: arith.truncf {{.*}} : tensor<1024xf32> to tensor<1024xf8E4M3FN>
# E5-LABEL: func.func @quantize
# E5: arith.constant 5.734400e+04 : f32
# E5: arith.truncf {{.*}} : tensor<1024xf32> to tensor<1024xf8E5M2>
# PTX: cvt.rn.satfinite.e4m3x2.f32
# PTX5: cvt.rn.satfinite.e5m2x2.f32
