# Attention's two wgmma operand shapes that need no copy in registers:
# - `tl.dot(q, tl.trans(k))`: k is staged as loaded (D contiguous, which is
#   K-major for the transposed operand) and the dot reads it through an
#   mgp.memdesc_trans view, so the pipeliner copies k with cp.async
#   straight into the buffer the wgmma reads;
# - q, loaded before the loop, is staged once there, not every iteration.
# RUN: mgpc %s -k scores --signature "*fp16:16,*fp16:16,*fp32:16,i32:16" --num-warps 8 --arch sm_90a -emit=mlir-gpu | FileCheck %s
# RUN: mgpc %s -k scores --signature "*fp16:16,*fp16:16,*fp32:16,i32:16" --num-warps 8 --arch sm_90 -emit=mlir-gpu | FileCheck %s --check-prefix=SM90
# REQUIRES: ptxas
# RUN: mgpc %s -k scores --signature "*fp16:16,*fp16:16,*fp32:16,i32:16" --num-warps 8 --arch sm_90a -o %t.ptx
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def scores(q_ptr, k_ptr, m_ptr, N):
    rm = tl.arange(0, 128)
    rn = tl.arange(0, 64)
    rd = tl.arange(0, 128)
    q = tl.load(q_ptr + rm[:, None] * 128 + rd[None, :])
    m = tl.full([128], float("-inf"), dtype=tl.float32)
    for start in range(0, N, 64):
        k = tl.load(k_ptr + (start + rn)[:, None] * 128 + rd[None, :])
        m = tl.maximum(m, tl.max(tl.dot(q, tl.trans(k)), 1))
    tl.store(m_ptr + rm, m)

# CHECK: #[[Q:shared[0-9]*]] = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 64}>
# CHECK: #[[KT:shared[0-9]*]] = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], blockCols = 64}>
# CHECK-LABEL: func.func @scores
# CHECK: %[[QBUF:.*]] = mgp.local_alloc %{{.*}} : (tensor<128x128xf16, {{.*}}>) -> !mgp.memdesc<128x128xf16, #[[Q]]>
# CHECK: %[[KBUF:.*]] = mgp.local_alloc {{.*}} : () -> !mgp.memdesc<{{[0-9]+}}x64x128xf16, #[[Q]], mutable>
# CHECK: scf.for
# CHECK-NOT: mgp.local_alloc
# CHECK-NOT: mgp.trans
# CHECK: mgp.async_copy_global_to_local
# CHECK: %[[SLOT:.*]] = mgp.memdesc_subview %[[KBUF]]
# CHECK-NEXT: %[[VIEW:.*]] = mgp.memdesc_trans %[[SLOT]] : !mgp.memdesc<64x128xf16, #[[Q]], mutable> -> !mgp.memdesc<128x64xf16, #[[KT]], mutable>
# CHECK: mgp.warp_group_dot %[[QBUF]], %[[VIEW]]

# mma.sync keeps staging inside the loop.
# SM90-LABEL: func.func @scores
# SM90: scf.for
# SM90: mgp.local_alloc
# SM90-NOT: mgp.memdesc_trans
