# Chained wgmma dots (docs/wgmma.md): 3xTF32 written as CUTLASS runs it, the
# three products accumulated into one accumulator, with the operands split
# in registers before the first dot. At sm_90a the four staged parts are
# stored to shared memory before the first wgmma (one barrier), the first
# two dots are issued without waiting (mgp.wgmma_chained) and the third one's
# wait_group 0 waits for the three groups; ptxas keeps them in flight
# without serialising them.
# REQUIRES: ptxas
# RUN: mgpc %s -k split3 --arch=sm_90a --num-warps=4 --num-stages=3 --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,64,64,32" -emit=mlir-gpu -o - | FileCheck %s --check-prefix=IR
# RUN: mgpc %s -k split3 --arch=sm_90a --num-warps=4 --num-stages=3 --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,64,64,32" -o %t.ptx
# RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx

# IR: scf.for
# IR-COUNT-4: mgp.local_alloc %{{.*}} : (tensor<{{.*}}xf32, #{{.*}}>)
# IR: mgp.barrier
# IR-NEXT: mgp.warp_group_dot {{.*}} {mgp.wgmma_chained}
# IR-NEXT: mgp.warp_group_dot {{.*}} {mgp.wgmma_chained}
# IR-NEXT: mgp.warp_group_dot {{.*}} {inputPrecision = tf32} :
# IR-NEXT: scf.yield
# PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
# PTX: wgmma.commit_group.sync.aligned;
# PTX-NOT: wgmma.wait_group
# PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
# PTX: wgmma.commit_group.sync.aligned;
# PTX-NOT: wgmma.wait_group
# PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
# PTX: wgmma.commit_group.sync.aligned;
# PTX-NOT: wgmma.mma_async
# PTX: wgmma.wait_group.sync.aligned 0;
# PTXAS-NOT: serialized
# PTXAS: Used {{[0-9]+}} registers
# PTXAS-NOT: serialized

import triton
import triton.language as tl


@triton.jit
def _tf32_parts(x):
    big = ((x.to(tl.int32, bitcast=True) + 0x1000) & -8192).to(tl.float32, bitcast=True)
    return big, x - big


# c = a @ b.T, a [M, K] and b [N, K] K-contiguous, as three tf32 products.
@triton.jit
def split3(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
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
                    mask=(rn[None, :] < N) & (ka[:, None] < K), other=0.0)
        a_big, a_small = _tf32_parts(a)
        b_big, b_small = _tf32_parts(b)
        acc = tl.dot(a_small, b_big, acc, input_precision="tf32")
        acc = tl.dot(a_big, b_small, acc, input_precision="tf32")
        acc = tl.dot(a_big, b_big, acc, input_precision="tf32")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))
