"""Microscaled (OCP MX) matmuls with tl.dot_scaled: an MXFP4 weight (two e2m1
values a byte, one e8m0 scale per 32 along K) times bf16 activations, as in
mixture-of-experts inference; MXFP8 (e4m3 x e5m2, both scaled); and a batched
(3-D) dot_scaled of e2m1 weights without scales (the 3-D form Triton 3.6
compiles). (An
operand packed along M or N, lhs_k_pack=False, and fp8 scales make Triton
3.6 fail on sm_90 (an assertion in its mma lowering / scale NaN mask), so
those are tested on mgp's interpreter against PyTorch only:
tests/python/test_triton_kernels.py.)"""

import torch
import triton
import triton.language as tl


@triton.jit
def _mxfp4_weight_matmul_kernel(X, W, WScale, C, M, N, K, stride_xm, stride_wk, stride_sn,
                                stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                BLOCK_K: tl.constexpr):
    # X [M, K] bf16; W [K // 2, N] uint8 (packed along K); WScale [N, K // 32].
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kw = tl.arange(0, BLOCK_K // 2)
    offs_ks = tl.arange(0, BLOCK_K // 32)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        x = tl.load(X + offs_m[:, None] * stride_xm + (k0 + offs_k)[None, :],
                    mask=offs_m[:, None] < M, other=0.0)
        w = tl.load(W + (k0 // 2 + offs_kw)[:, None] * stride_wk + offs_n[None, :],
                    mask=offs_n[None, :] < N, other=0)
        ws = tl.load(WScale + offs_n[:, None] * stride_sn + (k0 // 32 + offs_ks)[None, :],
                     mask=offs_n[:, None] < N, other=127)
        acc = tl.dot_scaled(x, None, "bf16", w, ws, "e2m1", acc)
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def mxfp4_weight_matmul(x, w, w_scale):
    M, K = x.shape
    N = w.shape[1]
    c = torch.empty((M, N), dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    _mxfp4_weight_matmul_kernel[grid](x, w, w_scale, c, M, N, K, x.stride(0), w.stride(0),
                                      w_scale.stride(0), c.stride(0), BLOCK_M=64, BLOCK_N=64,
                                      BLOCK_K=128, num_warps=4)
    return c


@triton.jit
def _mxfp8_matmul_kernel(A, AScale, B, BScale, C, M, N, K, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         A_FORMAT: tl.constexpr, B_FORMAT: tl.constexpr):
    # A [M, K] e4m3, B [K, N] e5m2 (both as uint8 bytes), scales e8m0
    # [M, K // 32] and [N, K // 32]; fp16 output.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_ks = tl.arange(0, BLOCK_K // 32)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + offs_m[:, None] * K + (k0 + offs_k)[None, :], mask=offs_m[:, None] < M,
                    other=0)
        b = tl.load(B + (k0 + offs_k)[:, None] * N + offs_n[None, :], mask=offs_n[None, :] < N,
                    other=0)
        sa = tl.load(AScale + offs_m[:, None] * (K // 32) + (k0 // 32 + offs_ks)[None, :],
                     mask=offs_m[:, None] < M, other=127)
        sb = tl.load(BScale + offs_n[:, None] * (K // 32) + (k0 // 32 + offs_ks)[None, :],
                     mask=offs_n[:, None] < N, other=127)
        acc = tl.dot_scaled(a, sa, A_FORMAT, b, sb, B_FORMAT, acc=acc)
    tl.store(C + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def mxfp8_matmul(a, a_scale, b, b_scale):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=torch.float16, device=a.device)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    _mxfp8_matmul_kernel[grid](a, a_scale, b, b_scale, c, M, N, K, BLOCK_M=128, BLOCK_N=128,
                               BLOCK_K=64, A_FORMAT="e4m3", B_FORMAT="e5m2", num_warps=8)
    return c


@triton.jit
def _batched_e2m1_matmul_kernel(X, W, C, M, N, K, stride_xb, stride_xm, stride_wb, stride_wk,
                                stride_cb, stride_cm, BATCH: tl.constexpr, BLOCK_M: tl.constexpr,
                                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # X [B, M, K] bf16; W [B, K // 2, N] uint8, two e2m1 values a byte along
    # K, unscaled; BATCH matrices per program, one 3-D dot_scaled per K step.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_b = tl.program_id(2) * BATCH + tl.arange(0, BATCH)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_kw = tl.arange(0, BLOCK_K // 2)
    acc = tl.zeros((BATCH, BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        x = tl.load(X + offs_b[:, None, None] * stride_xb + offs_m[None, :, None] * stride_xm
                    + (k0 + offs_k)[None, None, :], mask=offs_m[None, :, None] < M, other=0.0)
        w = tl.load(W + offs_b[:, None, None] * stride_wb
                    + (k0 // 2 + offs_kw)[None, :, None] * stride_wk + offs_n[None, None, :],
                    mask=offs_n[None, None, :] < N, other=0)
        acc = tl.dot_scaled(x, None, "bf16", w, None, "e2m1", acc)
    c = C + offs_b[:, None, None] * stride_cb + offs_m[None, :, None] * stride_cm
    tl.store(c + offs_n[None, None, :], acc,
             mask=(offs_m[None, :, None] < M) & (offs_n[None, None, :] < N))


def batched_e2m1_matmul(x, w):
    B, M, K = x.shape
    N = w.shape[2]
    c = torch.empty((B, M, N), dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32), B // 2)
    _batched_e2m1_matmul_kernel[grid](x, w, c, M, N, K, x.stride(0), x.stride(1), w.stride(0),
                                      w.stride(1), c.stride(0), c.stride(1), BATCH=2, BLOCK_M=32,
                                      BLOCK_N=32, BLOCK_K=64, num_warps=4)
    return c
