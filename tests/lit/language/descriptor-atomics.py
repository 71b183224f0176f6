# Reductions through a tensor descriptor (desc.atomic_add/min/max/and/or/xor,
# Triton's TMA reductions): relaxed atomics on the block's elements, masked
# to the descriptor's shape in every dimension, unsigned for an unsigned
# base; element types outside Triton's sets (fp32 min/max) are errors.
# RUN: mgpc %s -k desc_reduce --signature "*i32,*i32,i32,i32" -D KIND=max -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k desc_reduce --signature "*fp16,*fp16,i32,i32" -D KIND=max -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: not mgpc %s -k desc_reduce --signature "*fp32,*fp32,i32,i32" -D KIND=max -emit=mlir 2>&1 | FileCheck %s --check-prefix=F32
# RUN: mgpc %s -k desc_reduce --signature "*u32,*u32,i32,i32" -D KIND=max -emit=mlir | FileCheck %s --check-prefix=U32
# REQUIRES: ptxas
# RUN: mgpc %s -k desc_reduce --signature "*fp32,*fp32,i32,i32" -D KIND=add --arch sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX < %t.ptx
import triton
import triton.language as tl


@triton.jit
def desc_reduce(out_ptr, a_ptr, M, N, KIND: tl.constexpr):
    moffset = tl.program_id(0) * 8
    noffset = tl.program_id(1) * 16
    midx = moffset + tl.arange(0, 8)[:, None]
    nidx = noffset + tl.arange(0, 16)[None, :]
    val = tl.load(a_ptr + midx * N + nidx)
    desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[8, 16])
    if KIND == "add":
        desc.atomic_add([moffset, noffset], val)
    else:
        desc.atomic_max([moffset, noffset], val)
# ERR: descriptor-atomics.py:[[@LINE-1]]:9: error: atomic_max does not support floats other than fp32 and fp64 (got fp16)
# F32: descriptor-atomics.py:[[@LINE-2]]:9: error: desc.atomic_max does not support fp32 elements (Triton's descriptor reductions: Unsupported dtype)
# U32: atomic_rmw_kind umax

# CHECK-LABEL: func.func @desc_reduce
# CHECK: %[[ROWS:.*]] = arith.andi {{.*}} : tensor<8x1xi1>
# CHECK: %[[COLS:.*]] = arith.andi {{.*}} : tensor<1x16xi1>
# CHECK: %[[MASK:.*]] = arith.andi {{.*}} : tensor<8x16xi1>
# CHECK: mgp.atomic_rmw %{{.*}}, %{{.*}}, %[[MASK]] {kind = #mgp<atomic_rmw_kind max>, scope = #mgp<scope gpu>, sem = #mgp<sem relaxed>}
# CHECK-NOT: mgp.atomic_rmw

# PTX: atom.relaxed.gpu.global.add.f32
