# libdevice and math: every import spelling real kernels use reaches the same
# functions, including imports under a module-level try/except and if.
# RUN: mgpc %s -k math_ops --signature "*fp32:16,*fp32:16,i32,256" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k math_ops --signature "*fp16:16,*fp16:16,i32,256" -emit=mlir | FileCheck %s --check-prefix=F16
# REQUIRES: ptxas
# RUN: mgpc %s -k math_ops --signature "*fp32:16,*fp32:16,i32,256" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
import triton
import triton.language as tl

try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.math import tanh

if triton.__version__ >= "3.0":
    from triton.language.extra.cuda import libdevice
else:
    from triton.language.math import libdevice

from triton.language.extra import libdevice as ld2


@triton.jit
def math_ops(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    y = tanh(x) + libdevice.asin(x * 0.5) + tl.extra.cuda.libdevice.log1p(x)
    y += ld2.pow(x, 2.0) + libdevice.pow(x, 3) + libdevice.expm1(x)
    y += tl.math.erf(x) + tl.erf(x) + tl.sigmoid(x) + libdevice.rint(x * 4.0)
    y += libdevice.fast_expf(x.to(tl.float32)) + libdevice.fast_logf(x.to(tl.float32) + 2.0)
    y = tl.where(libdevice.isnan(y), 0.0, y)
    tl.store(y_ptr + offs, y, mask=m)

# CHECK-LABEL: func.func @math_ops
# CHECK-DAG: mgp.extern_elementwise "__nv_tanhf"
# CHECK-DAG: mgp.extern_elementwise "__nv_asinf"
# CHECK-DAG: mgp.extern_elementwise "__nv_log1pf"
# CHECK-DAG: mgp.extern_elementwise "__nv_powf"
# CHECK-DAG: mgp.extern_elementwise "__nv_powif"
# CHECK-DAG: mgp.extern_elementwise "__nv_expm1f"
# CHECK-DAG: math.erf
# CHECK-DAG: mgp.extern_elementwise "__nv_rintf"
# CHECK-DAG: mgp.extern_elementwise "__nv_fast_expf"
# CHECK-DAG: mgp.extern_elementwise "__nv_fast_logf"
# CHECK-DAG: mgp.extern_elementwise "__nv_isnanf"{{.*}} -> tensor<256xi32>
# F16-LABEL: func.func @math_ops
# F16: arith.extf {{.*}} : tensor<256xf16> to tensor<256xf32>
# F16-NEXT: mgp.extern_elementwise "__nv_tanhf"({{.*}}) : (tensor<256xf32>) -> tensor<256xf32>
# F16-NEXT: arith.truncf {{.*}} : tensor<256xf32> to tensor<256xf16>
# PTX: .visible .entry math_ops(
# PTX-NOT: call{{.*}}__nv_
