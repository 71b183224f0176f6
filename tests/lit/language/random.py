# tl.rand / tl.randint / tl.randn / tl.randint4x (Philox-4x32-10, Triton's
# bits): a seeded dropout kernel.
# RUN: mgpc %s -k dropout --signature "*fp32:16,*fp32:16,i32,fp32,i32,1024" -emit=mlir | FileCheck %s
# REQUIRES: ptxas
# RUN: mgpc %s -k dropout --signature "*fp32:16,*fp32:16,i32,fp32,i32,1024" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
import triton
import triton.language as tl


@triton.jit
def dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    keep = tl.rand(seed, offs) > p
    r0, r1, r2, r3 = tl.randint4x(seed, offs, n_rounds=7)
    noise = tl.randn(seed + 1, offs)
    y = tl.where(keep, x / (1 - p), 0.0) + (r0 ^ r3).to(tl.float32) * 0.0 + noise * 0.0
    tl.store(out_ptr + offs, y, mask=m)

# CHECK-LABEL: func.func @dropout
# CHECK-DAG: arith.constant dense<4.6566126E-10> : tensor<1024xf32>
# CHECK-DAG: arith.constant dense<-766435501> : tensor<1024xi32>
# CHECK-DAG: arith.constant dense<-845247145> : tensor<1024xi32>
# CHECK: mgp.extern_elementwise "__nv_umulhi"
# PTX: mul.hi.u32
