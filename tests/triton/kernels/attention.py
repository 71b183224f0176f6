"""Attention forward: flash attention (online softmax over key blocks, causal
or not, base-2 logsumexp saved for backward), and flash decoding (one query
row per head, keys split across programs, then a combining kernel; GQA)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K_base, V_base, stride_kn, stride_vn, start_m,
                    qk_scale, N_CTX, offs_m, offs_d, D: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    # STAGE 1: key blocks strictly left of the diagonal block (no causal mask);
    # STAGE 2: the diagonal block (causal mask); STAGE 3: every key (no mask).
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    else:
        lo, hi = 0, N_CTX
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = (offs_n[:, None] < N_CTX) & (offs_d[None, :] < D)
        k = tl.load(K_base + offs_n[:, None] * stride_kn + offs_d[None, :], mask=kv_mask,
                    other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        valid = offs_n[None, :] < N_CTX
        if STAGE == 2:
            valid = valid & (offs_m[:, None] >= offs_n[None, :])
        qk = tl.where(valid, qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V_base + offs_n[:, None] * stride_vn + offs_d[None, :], mask=kv_mask,
                    other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, sm_scale, M, Out, stride_qz, stride_qh, stride_qm, stride_kz,
              stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh,
              stride_om, H, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_base = Q + off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_base = K + off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_base = V + off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_base = Out + off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :],
                mask=offs_m[:, None] < N_CTX, other=0.0)
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn,
                                        stride_vn, start_m, qk_scale, N_CTX, offs_m, offs_d,
                                        HEAD_DIM, BLOCK_M, BLOCK_N, 4 - STAGE)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn,
                                        stride_vn, start_m, qk_scale, N_CTX, offs_m, offs_d,
                                        HEAD_DIM, BLOCK_M, BLOCK_N, 2)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i, mask=offs_m < N_CTX)
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(Out.type.element_ty),
             mask=offs_m[:, None] < N_CTX)


def attention_fwd(q, k, v, causal, sm_scale, BLOCK_M=32, BLOCK_N=16, num_warps=4):
    # q, k, v: [Z, H, N_CTX, HEAD_DIM]
    Z, H, N_CTX, HEAD_DIM = q.shape
    o = torch.empty_like(q)
    M = torch.empty((Z, H, N_CTX), device=q.device, dtype=torch.float32)
    stage = 3 if causal else 1
    grid = (triton.cdiv(N_CTX, BLOCK_M), Z * H, 1)
    _attn_fwd[grid](q, k, v, sm_scale, M, o, q.stride(0), q.stride(1), q.stride(2),
                    k.stride(0), k.stride(1), k.stride(2), v.stride(0), v.stride(1), v.stride(2),
                    o.stride(0), o.stride(1), o.stride(2), H, N_CTX, HEAD_DIM=HEAD_DIM,
                    BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, STAGE=stage, num_warps=num_warps,
                    num_stages=2)
    return o, M


def attention_fwd_hopper(q, k, v, causal, sm_scale):
    # The tile sizes of Hopper attention: 128 query rows over 8 warps (two
    # warp groups), 64 keys a step.
    return attention_fwd(q, k, v, causal, sm_scale, BLOCK_M=128, BLOCK_N=64, num_warps=8)


@triton.jit
def _decode_split_kernel(Q, K, V, MidO, MidLse, sm_scale, N, H, split_size, stride_qb,
                         stride_qh, stride_kb, stride_kh, stride_kn, stride_vb, stride_vh,
                         stride_vn, KV_GROUP: tl.constexpr, HEAD_DIM: tl.constexpr,
                         BLOCK_N: tl.constexpr):
    # One query row per (batch, head); this program attends to the keys
    # [split * split_size, (split + 1) * split_size) and writes its partial
    # output and logsumexp. KV_GROUP query heads share a key/value head.
    bh = tl.program_id(0)
    split = tl.program_id(1)
    num_splits = tl.num_programs(1)
    b = bh // H
    h = bh % H
    kvh = h // KV_GROUP
    d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + b * stride_qb + h * stride_qh + d).to(tl.float32)
    k_base = K + b.to(tl.int64) * stride_kb + kvh * stride_kh
    v_base = V + b.to(tl.int64) * stride_vb + kvh * stride_vh
    start = split * split_size
    end = tl.minimum(start + split_size, N)
    m = -float("inf")
    l = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for n0 in range(start, end, BLOCK_N):
        offs = n0 + tl.arange(0, BLOCK_N)
        valid = offs < end
        k = tl.load(k_base + offs[:, None] * stride_kn + d[None, :], mask=valid[:, None],
                    other=0.0).to(tl.float32)
        s = tl.sum(q[None, :] * k, axis=1) * sm_scale
        s = tl.where(valid, s, -float("inf"))
        m_new = tl.maximum(m, tl.max(s, axis=0))
        alpha = tl.exp(m - m_new)
        p = tl.exp(s - m_new)
        v = tl.load(v_base + offs[:, None] * stride_vn + d[None, :], mask=valid[:, None],
                    other=0.0).to(tl.float32)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        l = l * alpha + tl.sum(p, axis=0)
        m = m_new
    has_keys = l > 0.0
    l_safe = tl.where(has_keys, l, 1.0)
    lse = tl.where(has_keys, m + tl.log(l_safe), -float("inf"))
    slot = bh * num_splits + split
    tl.store(MidO + slot * HEAD_DIM + d, acc / l_safe)
    tl.store(MidLse + slot, lse)


@triton.jit
def _decode_reduce_kernel(MidO, MidLse, Out, num_splits, HEAD_DIM: tl.constexpr,
                          BLOCK_S: tl.constexpr):
    bh = tl.program_id(0)
    s = tl.arange(0, BLOCK_S)
    d = tl.arange(0, HEAD_DIM)
    valid = s < num_splits
    lse = tl.load(MidLse + bh * num_splits + s, mask=valid, other=-float("inf"))
    m = tl.max(lse, axis=0)
    w = tl.where(lse == -float("inf"), 0.0, tl.exp(lse - m))
    o = tl.load(MidO + (bh * num_splits + s)[:, None] * HEAD_DIM + d[None, :],
                mask=valid[:, None], other=0.0)
    out = tl.sum(w[:, None] * o, axis=0) / tl.sum(w, axis=0)
    tl.store(Out + bh * HEAD_DIM + d, out.to(Out.dtype.element_ty))


def decode_attention(q, k, v, sm_scale, num_splits=4):
    # q: [B, H, D]; k, v: [B, H_KV, N, D]
    B, H, D = q.shape
    H_KV, N = k.shape[1], k.shape[2]
    split_size = triton.cdiv(N, num_splits)
    mid_o = torch.empty((B * H, num_splits, D), dtype=torch.float32, device=q.device)
    mid_lse = torch.empty((B * H, num_splits), dtype=torch.float32, device=q.device)
    _decode_split_kernel[(B * H, num_splits)](
        q, k, v, mid_o, mid_lse, sm_scale, N, H, split_size, q.stride(0), q.stride(1),
        k.stride(0), k.stride(1), k.stride(2), v.stride(0), v.stride(1), v.stride(2),
        KV_GROUP=H // H_KV, HEAD_DIM=D, BLOCK_N=32)
    out = torch.empty_like(q)
    _decode_reduce_kernel[(B * H,)](mid_o, mid_lse, out, num_splits, HEAD_DIM=D,
                                    BLOCK_S=triton.next_power_of_2(num_splits))
    return out
