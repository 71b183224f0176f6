# The persistent style on sm_90a: one loop over a program's (tile, K step)
# pairs, whose `if ki == 0:` moves the offsets to the next tile and whose
# `if ki == k_tiles - 1:` stores the tile and resets the accumulator.
# mgp-pipeline runs the offset update ahead with the copies (an scf.if of
# register ops), so the loads become cp.async into three slots plus the
# wgmma's spare one; the reset becomes the dot's useC (wgmma's scale-d, false
# on the first K step of a tile) and the dot stays in flight across
# iterations: the store waits for it inside the epilogue only. ptxas keeps
# the wgmma asynchronous.
# REQUIRES: ptxas
# DEFINE: %{sig} = *fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64,132
# RUN: mgpc %s -k flat_persistent --arch=sm_90a --num-warps=8 --num-stages=3 --signature "%{sig}" -emit=mlir-gpu -o - | FileCheck %s --check-prefix=IR
# RUN: mgpc %s -k flat_persistent --arch=sm_90a --num-warps=8 --num-stages=3 --signature "%{sig}" -o %t.ptx
# RUN: %ptxas -arch=sm_90a -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx

# IR: mgp.local_alloc {{.*}} () -> !mgp.memdesc<4x128x64xf16
# IR: mgp.local_alloc {{.*}} () -> !mgp.memdesc<4x64x128xf16
# IR: scf.for
# IR: scf.if
# IR: mgp.async_copy_global_to_local
# IR: mgp.async_copy_global_to_local
# IR: mgp.async_commit_group
# IR: mgp.warp_group_dot {{.*}} useC %{{.*}} {inputPrecision = tf32} {isAsync}
# IR-NEXT: arith.cmpi eq
# IR-NEXT: scf.if %{{.*}} -> (tensor<128x128xf32, #{{.*}}>) {
# IR-NEXT: mgp.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
# IR: mgp.store
# IR: } {mgp.wgmma_spare_buffer}
# PTX: cp.async.wait_group 1;
# PTX: selp.b32 [[FLAG:%r[0-9]+]], 1, 0,
# PTX: setp.ne.b32 p, [[FLAG]], 0;
# PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
# PTX: wgmma.commit_group.sync.aligned;
# PTX: wgmma.wait_group.sync.aligned 1;
# PTX: wgmma.wait_group.sync.aligned 0;
# PTX: st.global.v4.b32
# PTXAS-NOT: serialized
# PTXAS: Used {{[0-9]+}} registers
# PTXAS-NOT: serialized

import triton
import triton.language as tl


@triton.jit
def flat_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                    NUM_SMS: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    tiles_per_sm = num_tiles // NUM_SMS
    if pid < num_tiles % NUM_SMS:
        tiles_per_sm += 1
    tile_id = pid - NUM_SMS
    ki = -1
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, k_tiles * tiles_per_sm):
        ki = tl.where(ki == k_tiles - 1, 0, ki + 1)
        if ki == 0:
            tile_id += NUM_SMS
            offs_m = (tile_id // num_pid_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = (tile_id % num_pid_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        kk = ki * BLOCK_K + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + kk[None, :],
                    mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + offs_n[None, :],
                    mask=(kk[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        if ki == k_tiles - 1:
            tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :],
                     acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
