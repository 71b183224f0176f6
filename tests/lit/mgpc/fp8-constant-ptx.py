# A splat fp8 constant (a masked load's `other=0.0` on an fp8 pointer) lowers
# as its bits in an i8 register: LLVM has no fp8 float type.
# RUN: mgpc %s -k load_fp8 --signature "*fp8e4nv:16,*fp16:16,i32,128" -o %t.e4.ptx
# RUN: %ptxas -arch=sm_90 %t.e4.ptx -o %t.e4.cubin
# RUN: mgpc %s -k load_fp8 --signature "*fp8e5:16,*fp16:16,i32,128" -o %t.e5.ptx
# RUN: %ptxas -arch=sm_90 %t.e5.ptx -o %t.e5.cubin
# RUN: FileCheck %s --input-file %t.e4.ptx
# CHECK: .visible .entry load_fp8(
# CHECK: ld.global
import triton
import triton.language as tl


@triton.jit
def load_fp8(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x.to(tl.float16))
