# Hopper wgmma end to end (docs/wgmma.md): for --arch=sm_90a a pipelined
# matmul whose operands are K-contiguous in global memory (as in the NHWC
# convolutions) stages both through swizzled shared buffers with cp.async and
# multiplies them with wgmma.mma_async from matrix descriptors: fence, one
# m64nNk8 (tf32) / m64nNk16 (f16) per 64 rows and K step, commit, wait (in a
# pipelined loop asynchronously, the next copies issued after it). Operands
# stored from registers (st.shared) are fenced for the async proxy before the
# barrier that orders them, operands that only cp.async writes are not (as in
# Triton), ptxas accepts the PTX without serialising the wgmmas, and plain
# sm_90 keeps mma.sync.
# REQUIRES: ptxas
# RUN: mgpc %s -k mm --arch=sm_90a --num-warps=8 --num-stages=3 --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,128,128,32" -o %t.tf32.ptx
# RUN: %ptxas -arch=sm_90a -v %t.tf32.ptx -o %t.tf32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=TF32 --input-file %t.tf32.ptx
# RUN: not grep -q fence.proxy.async %t.tf32.ptx
# RUN: mgpc %s -k mm --arch=sm_90a --num-warps=8 --num-stages=3 --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,128,128,32" -emit=mlir-gpu -o - | FileCheck %s --check-prefix=IR
# RUN: mgpc %s -k mm --arch=sm_90a --num-warps=4 --num-stages=1 --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16,64,128,64" -o %t.f16.ptx
# RUN: %ptxas -arch=sm_90a -v %t.f16.ptx -o %t.f16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=F16 --input-file %t.f16.ptx
# RUN: mgpc %s -k mm --arch=sm_90 --num-warps=8 --num-stages=3 --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,128,128,32" -o %t.sm90.ptx
# RUN: FileCheck %s --check-prefix=SM90 --input-file %t.sm90.ptx

# 128x128 over 8 warps = 2 warp groups of 64 rows, n = 128: 4 K steps of 8.
# TF32: .target sm_90a
# TF32: bar.sync 0;
# TF32: wgmma.fence.sync.aligned;
# TF32-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
# TF32: wgmma.commit_group.sync.aligned;
# In the loop each iteration waits for the previous iteration's group only;
# after it, for all.
# TF32: wgmma.wait_group.sync.aligned 1;
# TF32: wgmma.wait_group.sync.aligned 0;
# TF32-NOT: mma.sync
# TF32-NOT: ldmatrix
# PTXAS-NOT: serialized
# PTXAS: Used {{[0-9]+}} registers
# PTXAS-NOT: serialized
# The loop: 32 KiB of operands per stage, so a spare slot per operand (4
# slots, 128 KiB) would keep a second block off the SM; it takes Triton's
# order with 3 slots: wait for the oldest copy, barrier, the wgmma reading
# the two slots (it waits for the previous iteration's group), a barrier,
# then the next copies into the slots that group read.
# IR: #mgp.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 8]}>
# IR: mgp.local_alloc {{.*}} -> !mgp.memdesc<3x128x32xf32
# IR: mgp.local_alloc {{.*}} -> !mgp.memdesc<3x32x128xf32
# IR: scf.for
# IR: mgp.async_wait 1
# IR-NEXT: mgp.barrier
# IR-NOT: mgp.local_load
# IR-NOT: mgp.async_copy_global_to_local
# IR: mgp.warp_group_dot {{.*}} {isAsync} : !mgp.memdesc<128x32xf32, {{.*}}> * !mgp.memdesc<32x128xf32, {{.*}}> -> tensor<128x128xf32, #mma>
# IR: mgp.barrier
# IR-NEXT: mgp.async_copy_global_to_local
# IR: mgp.async_copy_global_to_local
# IR: scf.yield
# IR-NEXT: } {mgp.wgmma_copies_after_dot}
# IR-NEXT: mgp.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
# 64x128 over one warp group, unpipelined (the operands are stored from
# registers, so each wgmma completes in its iteration): 4 K steps of 16 at
# n = 128.
# F16: .target sm_90a
# F16: fence.proxy.async.shared::cta;
# F16: bar.sync 0;
# F16-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
# F16: wgmma.wait_group.sync.aligned 0;
# F16-NOT: wgmma.wait_group.sync.aligned 1;
# F16-NOT: mma.sync
# SM90: .target sm_90
# SM90: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# SM90-NOT: wgmma

import triton
import triton.language as tl


# c = a @ b.T with a [M, K] and b [N, K], both K-contiguous; fp32 pointers
# give a tf32 dot, fp16 pointers an f16 one.
@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rn[None, :] * K + ka[:, None],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))

