# Division spelled as Triton spells it: `/` and tl.fdiv on fp32 (and on
# fp16/bf16, which divide in fp32) are div.full.f32 (full range, 2 ulp);
# tl.math.div_rn is the correctly rounded div.rn.f32; fp64 is div.rn.f64.
# REQUIRES: ptxas
# RUN: mgpc %s -k divide --signature "*fp32:16,*fp32:16" -o %t32.ptx
# RUN: %ptxas -arch=sm_90 %t32.ptx -o %t32.cubin
# RUN: FileCheck %s --check-prefix=F32 --input-file %t32.ptx
# RUN: mgpc %s -k divide --signature "*fp16:16,*fp16:16" -o %t16.ptx
# RUN: FileCheck %s --check-prefix=F32 --input-file %t16.ptx
# RUN: mgpc %s -k divide --signature "*fp64:16,*fp64:16" -o %t64.ptx
# RUN: FileCheck %s --check-prefix=F64 --input-file %t64.ptx
import triton
import triton.language as tl


@triton.jit
def divide(x_ptr, y_ptr):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    q = x / y
    f = tl.fdiv(y, x)
    r = tl.math.div_rn(x.to(tl.float32), (y + 1).to(tl.float32))
    tl.store(x_ptr + offs, q)
    tl.store(y_ptr + offs, f + r.to(f.dtype))

# F32-COUNT-2: div.full.f32
# F32-NOT: div.full.f32
# F32: div.rn.f32
# F32-NOT: div.full.f32
# F64-COUNT-2: div.rn.f64
# F64: div.rn.f32
