# Every builtin on f16 and bf16 operands compiles to PTX that ptxas accepts
# for sm_90: arithmetic stays in the 16-bit type where Triton keeps it
# (`x * y + x` fuses to fma.rn.f16/bf16), `/` and `%` compute in f32,
# exp/sqrt/log go through f32 (ex2.approx.f32, libdevice's sqrt.approx.ftz.f32
# as in Triton, ...) and round back, where,
# maximum/minimum (bf16 compares in f32, as Triton, so the bf16 variant's
# exp runs on an f32 value: ex2.approx.f32 without ftz; the max folds back
# to max.bf16), sum and max reductions across lanes, and every conversion
# to and from f16/bf16 rounds to nearest even (cvt.rn).
# REQUIRES: ptxas
# RUN: mgpc %s -k ops --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16,1024" -o %t.f16.ptx
# RUN: %ptxas -arch=sm_90 %t.f16.ptx -o %t.f16.cubin
# RUN: FileCheck %s --check-prefixes=OPS,F16 --input-file %t.f16.ptx
# RUN: mgpc %s -k ops --signature "*bf16:16,*bf16:16,*bf16:16,*bf16:16,i32:16,1024" -o %t.bf16.ptx
# RUN: %ptxas -arch=sm_90 %t.bf16.ptx -o %t.bf16.cubin
# RUN: FileCheck %s --check-prefixes=OPS,BF16 --input-file %t.bf16.ptx
# RUN: mgpc %s -k casts --signature "*fp16:16,*bf16:16,*i32:16,*fp64:16,*fp16:16,*bf16:16,*i32:16,*i8:16,*fp64:16,256" -o %t.casts.ptx
# RUN: %ptxas -arch=sm_90 %t.casts.ptx -o %t.casts.cubin
# RUN: FileCheck %s --check-prefix=CASTS --input-file %t.casts.ptx

# OPS: .visible .entry ops(
# F16-DAG: fma.rn.f16
# F16-DAG: setp.gt.f16
# F16-DAG: max.f16
# F16-DAG: cvt.f32.f16
# F16-DAG: cvt.rn.f16.f32
# BF16-DAG: fma.rn.bf16
# BF16-DAG: setp.gt.bf16
# BF16-DAG: max.bf16
# BF16-DAG: cvt.f32.bf16
# BF16-DAG: cvt.rn.bf16.f32
# F16-DAG: ex2.approx.ftz.f32
# BF16-DAG: ex2.approx.f32
# OPS-DAG: sqrt.approx.ftz.f32
# OPS-DAG: div.full.f32
# OPS-DAG: shfl.sync.bfly.b32

# CASTS: .visible .entry casts(
# CASTS-DAG: cvt.rn.f16.f32
# CASTS-DAG: cvt.rn.f16.s32
# CASTS-DAG: cvt.rn.f16.f64
# CASTS-DAG: cvt.rn.bf16.f32
# CASTS-DAG: cvt.rn.bf16.s32
# CASTS-DAG: cvt.rn.bf16.f64
# CASTS-DAG: cvt.rzi.s32.f16
# CASTS-DAG: cvt.rzi.s32.bf16
# CASTS-DAG: cvt.f64.f16
# CASTS-DAG: cvt.f64.bf16

import mgp

@mgp.jit
def ops(x_ptr, y_ptr, o_ptr, s_ptr, n, BLOCK: mgp.constexpr):
    offs = mgp.program_id(0) * BLOCK + mgp.arange(0, BLOCK)
    m = offs < n
    x = mgp.load(x_ptr + offs, mask=m, other=0.0)
    y = mgp.load(y_ptr + offs, mask=m, other=1.0)
    a = x * y + x - y
    b = mgp.maximum(a, x)
    c = mgp.where(x > y, b, -a)
    d = mgp.exp(c) + mgp.sqrt(mgp.abs(c)) + mgp.log(mgp.abs(c) + 1.0) + mgp.minimum(x, y)
    e = d / y + d % y
    f = e.to(mgp.float32).to(mgp.bfloat16).to(mgp.float16)
    mgp.store(o_ptr + offs, f, mask=m)
    mgp.store(s_ptr + mgp.program_id(0), mgp.sum(x, axis=0) + mgp.max(y, axis=0))

@mgp.jit
def casts(h_ptr, b_ptr, i_ptr, d_ptr, oh_ptr, ob_ptr, oi_ptr, oc_ptr, od_ptr, BLOCK: mgp.constexpr):
    offs = mgp.program_id(0) * BLOCK + mgp.arange(0, BLOCK)
    h = mgp.load(h_ptr + offs)
    b = mgp.load(b_ptr + offs)
    i = mgp.load(i_ptr + offs)
    d = mgp.load(d_ptr + offs)
    mgp.store(oh_ptr + offs, b.to(mgp.float16) + i.to(mgp.float16) + d.to(mgp.float16))
    mgp.store(ob_ptr + offs, h.to(mgp.bfloat16) + i.to(mgp.bfloat16) + d.to(mgp.bfloat16))
    mgp.store(oi_ptr + offs, h.to(mgp.int32) + b.to(mgp.int32))
    mgp.store(oc_ptr + offs, h.to(mgp.int8) + b.to(mgp.int8))
    mgp.store(od_ptr + offs, h.to(mgp.float64) + b.to(mgp.float64))
