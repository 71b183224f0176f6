"""Rotary position embeddings: half-rotation (NeoX) over q and k in place,
forward and backward through one constexpr; interleaved pairs (GPT-J) with
tl.split / tl.join; a position-indexed cos/sin cache over flattened tokens."""

import torch
import triton
import triton.language as tl


@triton.jit
def _rope_kernel(Q, K, Cos, Sin, q_row_stride, k_row_stride, cos_row_stride, seq_len,
                 n_qh: tl.constexpr, n_kh: tl.constexpr, hd: tl.constexpr,
                 pad_qh: tl.constexpr, pad_kh: tl.constexpr, pad_hd: tl.constexpr,
                 BACKWARD_PASS: tl.constexpr = False):
    # One program per (batch, position): every head of q and of k.
    pid = tl.program_id(0)
    Q = Q + pid * q_row_stride
    K = K + pid * k_row_stride
    pos = pid % seq_len
    half = tl.arange(0, pad_hd // 2)
    cos = tl.load(Cos + pos * cos_row_stride + half, mask=half < hd // 2, other=0)
    sin = tl.load(Sin + pos * cos_row_stride + half, mask=half < hd // 2, other=0)
    if BACKWARD_PASS:
        sin = -sin
    qh = tl.arange(0, pad_qh)[:, None]
    kh = tl.arange(0, pad_kh)[:, None]
    q_mask = (qh < n_qh) & (half[None, :] < hd // 2)
    k_mask = (kh < n_kh) & (half[None, :] < hd // 2)
    q1 = tl.load(Q + qh * hd + half[None, :], mask=q_mask, other=0).to(sin.dtype)
    q2 = tl.load(Q + qh * hd + hd // 2 + half[None, :], mask=q_mask, other=0).to(sin.dtype)
    tl.store(Q + qh * hd + half[None, :], q1 * cos - q2 * sin, mask=q_mask)
    tl.store(Q + qh * hd + hd // 2 + half[None, :], q2 * cos + q1 * sin, mask=q_mask)
    k1 = tl.load(K + kh * hd + half[None, :], mask=k_mask, other=0).to(sin.dtype)
    k2 = tl.load(K + kh * hd + hd // 2 + half[None, :], mask=k_mask, other=0).to(sin.dtype)
    tl.store(K + kh * hd + half[None, :], k1 * cos - k2 * sin, mask=k_mask)
    tl.store(K + kh * hd + hd // 2 + half[None, :], k2 * cos + k1 * sin, mask=k_mask)


def rope(q, k, cos, sin, backward=False):
    # q: [B, S, n_qh, hd], k: [B, S, n_kh, hd], cos/sin: [S, hd // 2]
    q = q.clone()
    k = k.clone()
    B, S, n_qh, hd = q.shape
    n_kh = k.shape[2]
    _rope_kernel[(B * S,)](q, k, cos, sin, q.stride(1), k.stride(1), cos.stride(0), S,
                           n_qh, n_kh, hd, triton.next_power_of_2(n_qh),
                           triton.next_power_of_2(n_kh), triton.next_power_of_2(hd),
                           BACKWARD_PASS=backward)
    return q, k


@triton.jit
def _rope_interleaved_kernel(X, Y, Cos, Sin, seq_len, n_heads, stride_tok,
                             HEAD_DIM: tl.constexpr):
    # (x[2i], x[2i + 1]) rotated by the angle of pair i, one head per program.
    tok = tl.program_id(0)
    head = tl.program_id(1)
    pos = tok % seq_len
    d = tl.arange(0, HEAD_DIM)
    x = tl.load(X + tok * stride_tok + head * HEAD_DIM + d).to(tl.float32)
    even, odd = tl.split(tl.reshape(x, (HEAD_DIM // 2, 2)))
    pair = tl.arange(0, HEAD_DIM // 2)
    cos = tl.load(Cos + pos * (HEAD_DIM // 2) + pair)
    sin = tl.load(Sin + pos * (HEAD_DIM // 2) + pair)
    y = tl.reshape(tl.join(even * cos - odd * sin, odd * cos + even * sin),
                   (HEAD_DIM,))
    tl.store(Y + tok * stride_tok + head * HEAD_DIM + d, y.to(Y.dtype.element_ty))


def rope_interleaved(x, cos, sin):
    # x: [B, S, H, D] contiguous; cos/sin: [S, D // 2]
    B, S, H, D = x.shape
    y = torch.empty_like(x)
    _rope_interleaved_kernel[(B * S, H)](x, y, cos, sin, S, H, x.stride(1), HEAD_DIM=D)
    return y


@triton.jit
def _rope_cache_kernel(X, Positions, CosSin, n_tokens, n_heads, head_dim, rot_dim,
                       stride_tok, BLOCK_H: tl.constexpr, BLOCK_R: tl.constexpr):
    # Tokens flattened; CosSin[pos] = [cos(rot_dim / 2) | sin(rot_dim / 2)];
    # only the first rot_dim features rotate (partial rotary).
    tok = tl.program_id(0)
    pos = tl.load(Positions + tok)
    half = rot_dim // 2
    r = tl.arange(0, BLOCK_R)
    h = tl.arange(0, BLOCK_H)
    rmask = r < half
    cos = tl.load(CosSin + pos * rot_dim + r, mask=rmask, other=0.0)
    sin = tl.load(CosSin + pos * rot_dim + half + r, mask=rmask, other=0.0)
    mask = (h[:, None] < n_heads) & rmask[None, :]
    base = X + tok.to(tl.int64) * stride_tok + h[:, None] * head_dim
    x1 = tl.load(base + r[None, :], mask=mask, other=0.0)
    x2 = tl.load(base + half + r[None, :], mask=mask, other=0.0)
    tl.store(base + r[None, :], x1 * cos[None, :] - x2 * sin[None, :], mask=mask)
    tl.store(base + half + r[None, :], x2 * cos[None, :] + x1 * sin[None, :], mask=mask)


def rope_cache(x, positions, cos_sin, rot_dim):
    # x: [T, H, D]; positions: [T] int64; cos_sin: [max_pos, rot_dim]
    x = x.clone()
    T, H, D = x.shape
    _rope_cache_kernel[(T,)](x, positions, cos_sin, T, H, D, rot_dim, x.stride(0),
                             BLOCK_H=triton.next_power_of_2(H),
                             BLOCK_R=triton.next_power_of_2(rot_dim // 2))
    return x
