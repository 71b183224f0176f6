# f32 denormals, instruction by instruction as in Triton 3.6's kernels: the
# libdevice functions (tl.exp2, tl.sqrt, tl.rsqrt, tl.log) flush them
# (nvvm-reflect-ftz = 1, Triton's enable_reflect_ftz=True), while abs,
# maximum/minimum, fma and `%` are plain LLVM operations and tl.exp,
# div_rn and sqrt_rn (kernel `exact`) PTX's own instructions, which keep
# them. With --enable-reflect-ftz=false nothing flushes.
# REQUIRES: ptxas
# RUN: mgpc %s -k ops --signature "*fp32:16,*fp32:16,*fp32:16,128" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=FTZ --input-file %t.ptx
# RUN: FileCheck %s --check-prefix=ANY --input-file %t.ptx
# RUN: mgpc %s -k ops --signature "*fp32:16,*fp32:16,*fp32:16,128" --enable-reflect-ftz=false -o %t.noftz.ptx
# RUN: FileCheck %s --check-prefix=NOFTZ --input-file %t.noftz.ptx
# RUN: not grep -n '\.ftz' %t.noftz.ptx
# RUN: FileCheck %s --check-prefix=ANY --input-file %t.noftz.ptx
# div_rn and sqrt_rn alone (the `%` above also divides with div.rn.f32): no
# flush even under the default.
# RUN: mgpc %s -k exact --signature "*fp32:16,*fp32:16,*fp32:16,128" -o %t.exact.ptx
# RUN: FileCheck %s --check-prefix=EXACT --input-file %t.exact.ptx
# RUN: not grep -n '\.ftz' %t.exact.ptx

# FTZ-DAG: ex2.approx.ftz.f32
# FTZ-DAG: sqrt.approx.ftz.f32
# FTZ-DAG: rsqrt.approx.ftz.f32
# FTZ-DAG: fma.rn.ftz.f32
# NOFTZ-DAG: sqrt.approx.f32
# NOFTZ-DAG: rsqrt.approx.f32
# ANY-DAG: abs.f32
# ANY-DAG: max.f32
# ANY-DAG: min.f32
# ANY-DAG: fma.rn.f32
# ANY-DAG: ex2.approx.f32
# ANY-DAG: div.rn.f32
# EXACT-DAG: div.rn.f32
# EXACT-DAG: sqrt.rn.f32
# ANY-DAG: testp.infinite.f32
# ANY-NOT: __nv_

import triton
import triton.language as tl


@triton.jit
def ops(X, Y, Z, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.load(Y + o)
    tl.store(Z + o, tl.abs(x) + tl.maximum(x, y) + tl.minimum(x, y))
    tl.store(Z + N + o, tl.fma(x, y, x) + x % y)
    tl.store(Z + 2 * N + o, tl.exp2(x) + tl.sqrt(x) + tl.rsqrt(y) + tl.log(y))
    tl.store(Z + 3 * N + o, tl.exp(x))


@triton.jit
def exact(X, Y, Z, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.load(Y + o)
    tl.store(Z + o, tl.math.div_rn(x, y) + tl.math.sqrt_rn(y))
