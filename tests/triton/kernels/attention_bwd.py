"""Attention backward, flash style: delta = rowsum(O * dO), then dK/dV per key
block looping over query blocks (dV += P^T dO with P^T computed in registers),
and dQ per query block looping over key blocks; causal or not."""

import torch
import triton
import triton.language as tl



@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_d = tl.arange(0, HEAD_DIM)
    ptrs = off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_d[None, :]
    mask = off_m[:, None] < N_CTX
    o = tl.load(O + ptrs, mask=mask, other=0.0)
    do = tl.load(DO + ptrs, mask=mask, other=0.0).to(tl.float32)
    tl.store(Delta + off_hz * N_CTX + off_m, tl.sum(o * do, axis=1), mask=off_m < N_CTX)


@triton.jit
def _attn_bwd_dkdv(Q, K, V, DO, M, Delta, DK, DV, sm_scale, N_CTX, HEAD_DIM: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # Q, K, V, DO, DK, DV: [Z * H, N_CTX, HEAD_DIM] contiguous; M: the forward's
    # base-2 logsumexp of the scaled scores (log2(e) * sm_scale * qk).
    start_n = tl.program_id(0) * BLOCK_N
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    n_mask = offs_n[:, None] < N_CTX
    k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=n_mask, other=0.0)
    v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=n_mask, other=0.0)
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    lo = 0
    if CAUSAL:
        lo = (start_n // BLOCK_M) * BLOCK_M
    for start_m in range(lo, N_CTX, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        m_mask = offs_m < N_CTX
        q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=m_mask[:, None], other=0.0)
        do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                     mask=m_mask[:, None], other=0.0)
        m = tl.load(M + off_hz * N_CTX + offs_m, mask=m_mask, other=0.0)
        delta = tl.load(Delta + off_hz * N_CTX + offs_m, mask=m_mask, other=0.0)
        qkT = tl.dot(k, tl.trans(q))
        pT = tl.math.exp2(qkT * qk_scale - m[None, :])
        valid = m_mask[None, :] & (offs_n[:, None] < N_CTX)
        if CAUSAL:
            valid = valid & (offs_m[None, :] >= offs_n[:, None])
        pT = tl.where(valid, pT, 0.0)
        ppT = pT.to(tl.float16)
        dv += tl.dot(ppT, do)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - delta[None, :])
        dk += tl.dot(dsT.to(tl.float16), q)
    tl.store(DV + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
             dv.to(DV.dtype.element_ty), mask=n_mask)
    tl.store(DK + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
             (dk * sm_scale).to(DK.dtype.element_ty), mask=n_mask)


@triton.jit
def _attn_bwd_dq(Q, K, V, DO, M, Delta, DQ, sm_scale, N_CTX, HEAD_DIM: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    m_mask = offs_m < N_CTX
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=m_mask[:, None],
                other=0.0)
    do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                 mask=m_mask[:, None], other=0.0)
    m = tl.load(M + off_hz * N_CTX + offs_m, mask=m_mask, other=0.0)
    delta = tl.load(Delta + off_hz * N_CTX + offs_m, mask=m_mask, other=0.0)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = N_CTX
    if CAUSAL:
        hi = tl.minimum(start_m + BLOCK_M, N_CTX)
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        n_mask = offs_n < N_CTX
        k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=n_mask[:, None], other=0.0)
        v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :],
                    mask=n_mask[:, None], other=0.0)
        qk = tl.dot(q, tl.trans(k))
        p = tl.math.exp2(qk * qk_scale - m[:, None])
        valid = n_mask[None, :] & m_mask[:, None]
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= offs_n[None, :])
        p = tl.where(valid, p, 0.0)
        dp = tl.dot(do, tl.trans(v)).to(tl.float32)
        ds = p * (dp - delta[:, None])
        dq += tl.dot(ds.to(tl.float16), k)
    tl.store(DQ + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             (dq * sm_scale).to(DQ.dtype.element_ty), mask=m_mask[:, None])


def attention_bwd(q, k, v, o, do, M, causal, sm_scale):
    # q, k, v, o, do: [Z, H, N_CTX, HEAD_DIM] contiguous fp16; M: [Z, H, N_CTX]
    Z, H, N_CTX, HEAD_DIM = q.shape
    delta = torch.empty_like(M)
    BLOCK_M, BLOCK_N = 16, 32
    _attn_bwd_preprocess[(triton.cdiv(N_CTX, 32), Z * H)](o, do, delta, N_CTX,
                                                          HEAD_DIM=HEAD_DIM, BLOCK_M=32)
    dq = torch.empty_like(q)
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    _attn_bwd_dkdv[(triton.cdiv(N_CTX, BLOCK_N), Z * H)](
        q, k, v, do, M, delta, dk, dv, sm_scale, N_CTX, HEAD_DIM=HEAD_DIM, BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N, CAUSAL=causal, num_warps=4)
    _attn_bwd_dq[(triton.cdiv(N_CTX, BLOCK_N), Z * H)](
        q, k, v, do, M, delta, dq, sm_scale, N_CTX, HEAD_DIM=HEAD_DIM, BLOCK_M=BLOCK_N,
        BLOCK_N=BLOCK_M, CAUSAL=causal, num_warps=4)
    return dq, dk, dv
