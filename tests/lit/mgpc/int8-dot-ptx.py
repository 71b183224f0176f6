# Signed int8 dots on tensor cores: a masked int8 matmul with a K loop (int32
# accumulator) compiles for sm_90 to mma.sync m16n8k32 .s32.s8.s8.s32, its
# operands staged through shared memory and read with ldmatrix; for sm_90a
# (whole warp groups, K rows of 32/64/128 bytes) to wgmma m64nNk32
# .s32.s8.s8 from matrix descriptors, without operand scales; ptxas accepts
# both. uint8 operands and shapes off the tensor-core tiles stay on CUDA cores
# (products of the widened int32 values), as does a K block of 16.
# REQUIRES: ptxas
# RUN: mgpc %s -k mm_i8 --arch=sm_90 --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,64,64,64" -o %t.mma.ptx
# RUN: %ptxas -arch=sm_90 %t.mma.ptx -o %t.mma.cubin
# RUN: FileCheck %s --check-prefix=MMA --input-file %t.mma.ptx
# RUN: FileCheck %s --check-prefix=LDM --input-file %t.mma.ptx
# RUN: mgpc %s -k mm_i8 --arch=sm_90a --num-warps=8 --num-stages=3 --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,128,128,64" -o %t.wgmma.ptx
# RUN: %ptxas -arch=sm_90a -v %t.wgmma.ptx -o %t.wgmma.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=WGMMA --input-file %t.wgmma.ptx
# RUN: mgpc %s -k mm_i8 --arch=sm_90a --num-warps=8 --num-stages=3 --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,128,128,64" -emit=mlir-gpu -o - | FileCheck %s --check-prefix=IR
# RUN: mgpc %s -k mm_u8 --arch=sm_90 --signature "*u8:16,*u8:16,*i32:16,i32:16,i32:16,i32:16,32,32,32" -o %t.u8.ptx
# RUN: %ptxas -arch=sm_90 %t.u8.ptx -o %t.u8.cubin
# RUN: FileCheck %s --check-prefix=CUDACORES --input-file %t.u8.ptx
# RUN: mgpc %s -k mm_i8 --arch=sm_90a --signature "*i8:16,*i8:16,*i32:16,i32:16,i32:16,i32:16,32,32,16" -o %t.k16.ptx
# RUN: %ptxas -arch=sm_90a %t.k16.ptx -o %t.k16.cubin
# RUN: FileCheck %s --check-prefix=CUDACORES --input-file %t.k16.ptx

# 64x64 over 2x2 warps: 2x4 tiles per warp, 2 K steps of 32 per iteration.
# MMA: .visible .entry mm_i8(
# MMA-COUNT-16: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
# MMA-NOT: mma.sync
# LDM: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# 128x128 over 8 warps = 2 warp groups of 64 rows, n = 128: 2 K steps of 32.
# WGMMA: .target sm_90a
# WGMMA: wgmma.fence.sync.aligned;
# WGMMA-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 {{{.*}}}, {{%rd[0-9]+}}, {{%rd[0-9]+}}, p;
# WGMMA: wgmma.commit_group.sync.aligned;
# WGMMA-NOT: mma.sync
# PTXAS-NOT: serialized
# PTXAS: Used {{[0-9]+}} registers
# IR: #mgp.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128, 32]}>
# IR: mgp.warp_group_dot {{.*}} : !mgp.memdesc<128x64xi8, {{.*}}> * !mgp.memdesc<64x128xi8, {{.*}}> -> tensor<128x128xi32, #mma>
# CUDACORES: .visible .entry
# CUDACORES-NOT: mma
# CUDACORES: {{mad.lo.s32|mul.wide.s16}}
# CUDACORES-NOT: mma

import triton
import triton.language as tl


@triton.jit
def mm_i8(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def mm_u8(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :])
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
