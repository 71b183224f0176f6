"""Softmax family: the fused-softmax tutorial, online softmax and logsumexp over
long rows, log-softmax, the backward, masked and scaled softmax."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    # The fused-softmax pattern: persistent programs walk the rows with a
    # stride of the grid size; each row is one block held in registers.
    first = tl.program_id(0)
    step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_SIZE)
    for r in tl.range(first, n_rows, step, num_stages=num_stages):
        vals = tl.load(in_ptr + r * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        shifted = vals - tl.max(vals, axis=0)
        e = tl.exp(shifted)
        tl.store(out_ptr + r * out_stride + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    programs = min(n_rows, 4)
    y = torch.empty_like(x)
    softmax_kernel[(programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols,
                                     BLOCK_SIZE=BLOCK_SIZE, num_stages=2, num_warps=num_warps)
    return y


@triton.jit
def _online_softmax_kernel(X, Y, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X += row * stride
    Y += row * stride
    m = tl.full([BLOCK], -float("inf"), dtype=tl.float32)
    d = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        # Lanes still at -inf keep d = 0 (exp(-inf - -inf) would be NaN).
        alpha = tl.where(m_new == -float("inf"), 0.0, tl.exp(m - m_new))
        d = d * alpha + tl.where(m_new == -float("inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    denom = tl.sum(d * tl.exp(m - row_max), axis=0)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
        tl.store(Y + cols, (tl.exp(x - row_max) / denom).to(Y.dtype.element_ty), mask=cols < N)


def online_softmax(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _online_softmax_kernel[(M,)](x, y, N, x.stride(0), BLOCK=256)
    return y


@triton.jit
def _logsumexp_kernel(X, Out, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    m = -float("inf")
    s = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + row * stride + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
        block_max = tl.max(x, axis=0)
        m_new = tl.maximum(m, block_max)
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    tl.store(Out + row, m + tl.log(s))


def logsumexp(x):
    M, N = x.shape
    out = torch.empty(M, dtype=torch.float32, device=x.device)
    _logsumexp_kernel[(M,)](x, out, N, x.stride(0), BLOCK=512)
    return out


@triton.jit
def _log_softmax_kernel(X, Y, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride_x + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
    z = x - tl.max(x, axis=0)
    y = z - tl.log(tl.sum(tl.exp(z), axis=0))
    tl.store(Y + row * stride_y + cols, y.to(Y.dtype.element_ty), mask=cols < N)


def log_softmax(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _log_softmax_kernel[(M,)](x, y, N, x.stride(0), y.stride(0), BLOCK=triton.next_power_of_2(N))
    return y


@triton.jit
def _softmax_bwd_kernel(DY, Y, DX, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0)
    y = tl.load(Y + row * stride + cols, mask=mask, other=0.0)
    dot = tl.sum(dy * y, axis=0)
    tl.store(DX + row * stride + cols, y * (dy - dot), mask=mask)


def softmax_bwd(dy, y):
    M, N = y.shape
    dx = torch.empty_like(y)
    _softmax_bwd_kernel[(M,)](dy, y, dx, N, y.stride(0), BLOCK=triton.next_power_of_2(N))
    return dx


@triton.jit
def _scaled_masked_softmax_kernel(X, Y, N, stride, scale, offset, IS_CAUSAL: tl.constexpr,
                                  BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    valid = cols < N
    if IS_CAUSAL:
        valid = valid & (cols <= row + offset)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32) * scale
    x = tl.where(valid, x, -float("inf"))
    p = tl.exp2((x - tl.max(x, axis=0)) * 1.4426950408889634)
    y = p / tl.sum(p, axis=0)
    tl.store(Y + row * stride + cols, y.to(Y.dtype.element_ty), mask=cols < N)


def scaled_masked_softmax(x, scale, causal):
    M, N = x.shape
    y = torch.empty_like(x)
    _scaled_masked_softmax_kernel[(M,)](x, y, N, x.stride(0), scale, N - M, IS_CAUSAL=causal,
                                        BLOCK=triton.next_power_of_2(N))
    return y
