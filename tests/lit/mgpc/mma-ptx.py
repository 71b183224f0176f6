# mgp.dot on tensor cores end to end: a tiled matmul with masks and a K loop
# compiles for sm_90 to mma.sync (m16n8k8 for tf32, m16n8k16 for f16/bf16
# operands cast from fp32 loads), with the operands staged through shared
# memory and read back with ldmatrix (K-contiguous buffers: tf32 A and B,
# f16 A), tf32 operands rounded by cvt.rna, and ptxas accepts the PTX. An ieee
# dot stays on the FMA path.
# REQUIRES: ptxas
# RUN: mgpc %s -k mm_tf32 --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,64,64,32" -o %t.tf32.ptx
# RUN: %ptxas -arch=sm_90 %t.tf32.ptx -o %t.tf32.cubin
# RUN: FileCheck %s --check-prefix=TF32 --input-file %t.tf32.ptx
# RUN: FileCheck %s --check-prefix=STAGED --input-file %t.tf32.ptx
# RUN: FileCheck %s --check-prefix=WARPID --input-file %t.tf32.ptx
# RUN: mgpc %s -k mm_f16 --num-warps=8 --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,128,128,32" -o %t.f16.ptx
# RUN: %ptxas -arch=sm_90 %t.f16.ptx -o %t.f16.cubin
# RUN: FileCheck %s --check-prefix=F16 --input-file %t.f16.ptx
# RUN: FileCheck %s --check-prefix=CVT16 --input-file %t.f16.ptx
# RUN: FileCheck %s --check-prefix=WARPID --input-file %t.f16.ptx
# RUN: mgpc %s -k mm_bf16 --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,32,32,16" -o %t.bf16.ptx
# RUN: %ptxas -arch=sm_90 %t.bf16.ptx -o %t.bf16.cubin
# RUN: FileCheck %s --check-prefix=BF16 --input-file %t.bf16.ptx
# RUN: FileCheck %s --check-prefix=CVTBF --input-file %t.bf16.ptx
# RUN: mgpc %s -k mm_ieee --signature "*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,32,32,16" -o %t.ieee.ptx
# RUN: FileCheck %s --check-prefix=IEEE --input-file %t.ieee.ptx

# 64x64 over 2x2 warps: 2x4 tiles per warp, 4 K steps of 8 per iteration.
# TF32: .visible .entry mm_tf32(
# TF32-COUNT-32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
# TF32-NOT: mma.sync
# STAGED-DAG: bar.sync
# STAGED-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# STAGED-DAG: cvt.rna.tf32.f32
# CVT16-DAG: cvt.rn.f16.f32
# CVT16-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
# CVTBF: cvt.rn.bf16.f32
# The uniform warp id (a shfl.sync of tid/32 from lane 0) is computed once at
# the top of the kernel, not per ldmatrix / cp.async group in the K loop (was
# 15 and 13 shuffles).
# WARPID: .visible .entry
# WARPID-COUNT-1: shfl.sync.idx.b32
# WARPID-NOT: shfl.sync
# 128x128 over 8 warps (4x2): 2x8 tiles per warp, 2 K steps of 16.
# F16: .visible .entry mm_f16(
# F16-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
# F16-NOT: mma.sync
# 32x32 over 2x2 warps: 1x2 tiles per warp, one K step.
# BF16: .visible .entry mm_bf16(
# BF16-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
# BF16-NOT: mma.sync
# IEEE: .visible .entry mm_ieee(
# IEEE-NOT: mma.sync
# IEEE: fma.rn.f32

import triton
import triton.language as tl


@triton.jit
def mm_tf32(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
            BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def mm_f16(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
           BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a.to(tl.float16), b.to(tl.float16))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def mm_bf16(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
            BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a.to(tl.bfloat16), b.to(tl.bfloat16))
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def mm_ieee(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
            BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :])
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :])
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
