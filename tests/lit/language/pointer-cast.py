# p.to(tl.pointer_type(T)) views a pointer (or a block of pointers) as a
# pointer to T: mgp.ptr_cast, the same addresses (Triton's pointer cast).
# RUN: mgpc %s -k view_bytes --signature "*fp32,*u8" -emit=mlir | FileCheck %s
# REQUIRES: ptxas
# RUN: mgpc %s -k view_bytes --signature "*fp32,*u8" --arch sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def view_bytes(x_ptr, out_ptr):
    offs = tl.arange(0, 64)
    b = tl.load(x_ptr.to(tl.pointer_type(tl.uint8)) + offs)
    tl.store(out_ptr + offs, b)
    wide = 1e+50
    tl.store((x_ptr + 16).to(tl.pointer_type(wide.dtype)), wide)

# CHECK-LABEL: func.func @view_bytes
# CHECK: mgp.ptr_cast %arg0 : !mgp.ptr<f32> -> !mgp.ptr<i8>
# CHECK: %[[P:.*]] = mgp.ptr_cast %{{.*}} : !mgp.ptr<f32> -> !mgp.ptr<f64>
# CHECK: mgp.store %[[P]], %{{.*}} : !mgp.ptr<f64>
