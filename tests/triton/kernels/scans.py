"""Prefix scans: tl.cumsum along rows and columns, reversed, over long rows
with a carried total, exclusive integer offsets, and tl.associative_scan with
@triton.jit combine functions (running max, product, a linear recurrence)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _cumsum_rows_kernel(X, Y, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
    tl.store(Y + rows[:, None] * stride + cols[None, :], tl.cumsum(x, axis=1), mask=mask)


def cumsum_rows(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _cumsum_rows_kernel[(triton.cdiv(M, 4),)](x, y, M, N, x.stride(0), BLOCK_M=4,
                                              BLOCK_N=triton.next_power_of_2(N))
    return y


@triton.jit
def _cumsum_long_kernel(X, Y, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + row * stride + cols, mask=cols < N, other=0.0)
        tl.store(Y + row * stride + cols, tl.cumsum(x, 0) + carry, mask=cols < N)
        carry += tl.sum(x, 0)


def cumsum_long(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _cumsum_long_kernel[(M,)](x, y, N, x.stride(0), BLOCK=128)
    return y


@triton.jit
def _reverse_cumsum_kernel(X, Y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * N + cols, mask=cols < N, other=0.0)
    tl.store(Y + row * N + cols, tl.cumsum(x, 0, reverse=True), mask=cols < N)


def reverse_cumsum(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _reverse_cumsum_kernel[(M,)](x, y, N, BLOCK=triton.next_power_of_2(N))
    return y


@triton.jit
def _exclusive_offsets_kernel(Counts, Offsets, Total, n, BLOCK: tl.constexpr):
    # Where each expert's rows start: the exclusive prefix sum of the counts.
    idx = tl.arange(0, BLOCK)
    counts = tl.load(Counts + idx, mask=idx < n, other=0)
    inclusive = tl.cumsum(counts, 0)
    tl.store(Offsets + idx, inclusive - counts, mask=idx < n)
    tl.store(Total, tl.sum(counts, 0))


def exclusive_offsets(counts):
    n = counts.numel()
    offsets = torch.empty_like(counts)
    total = torch.empty(1, dtype=counts.dtype, device=counts.device)
    _exclusive_offsets_kernel[(1,)](counts, offsets, total, n, BLOCK=triton.next_power_of_2(n))
    return offsets, total


@triton.jit
def _compact_above_kernel(X, Out, Count, n, threshold, BLOCK: tl.constexpr):
    # Stream compaction in one block: the elements above the threshold, in
    # order, and how many. A count of a mask is uint32 in Triton.
    idx = tl.arange(0, BLOCK)
    x = tl.load(X + idx, mask=idx < n, other=float("-inf"))
    keep = x > threshold
    slot = tl.cumsum(keep, 0) - 1
    tl.store(Out + slot, x, mask=keep)
    count = tl.sum(keep, 0)
    tl.static_assert(count.dtype == tl.uint32)
    tl.store(Count, count)


def compact_above(x, threshold):
    n = x.numel()
    out = torch.zeros_like(x)
    count = torch.empty(1, dtype=torch.int32, device=x.device)
    _compact_above_kernel[(1,)](x, out, count, n, threshold, BLOCK=triton.next_power_of_2(n))
    return out, count


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _running_max_kernel(X, Y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * N + cols, mask=cols < N, other=-2147483648)
    tl.store(Y + row * N + cols, tl.associative_scan(x, 0, _max_combine), mask=cols < N)


def running_max(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _running_max_kernel[(M,)](x, y, N, BLOCK=triton.next_power_of_2(N))
    return y


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def _cumprod_cols_kernel(X, Y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Scan down the columns (axis 0) of a [BLOCK_M, BLOCK_N] tile.
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rows = tl.arange(0, BLOCK_M)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * N + cols[None, :], mask=mask, other=1.0)
    tl.store(Y + rows[:, None] * N + cols[None, :], tl.associative_scan(x, 0, _mul_combine),
             mask=mask)


def cumprod_cols(x):
    M, N = x.shape
    y = torch.empty_like(x)
    _cumprod_cols_kernel[(triton.cdiv(N, 16),)](x, y, M, N, BLOCK_M=triton.next_power_of_2(M),
                                                BLOCK_N=16)
    return y


@triton.jit
def _recurrence_combine(a_l, b_l, a_r, b_r):
    # (a_l, b_l) then (a_r, b_r): h -> a_r * (a_l * h + b_l) + b_r
    return a_l * a_r, b_l * a_r + b_r


@triton.jit
def _linear_recurrence_kernel(A, B, H, L, stride, BLOCK: tl.constexpr):
    # h_t = a_t * h_{t-1} + b_t with h_{-1} = 0, chunk by chunk with the state
    # carried between chunks.
    row = tl.program_id(0)
    h_prev = 0.0
    for start in range(0, L, BLOCK):
        t = start + tl.arange(0, BLOCK)
        mask = t < L
        a = tl.load(A + row * stride + t, mask=mask, other=1.0)
        b = tl.load(B + row * stride + t, mask=mask, other=0.0)
        a_scan, b_scan = tl.associative_scan((a, b), 0, _recurrence_combine)
        h = a_scan * h_prev + b_scan
        tl.store(H + row * stride + t, h, mask=mask)
        h_prev = tl.sum(tl.where(t == tl.minimum(start + BLOCK, L) - 1, h, 0.0), 0)


def linear_recurrence(a, b):
    M, L = a.shape
    h = torch.empty_like(a)
    _linear_recurrence_kernel[(M,)](a, b, h, L, a.stride(0), BLOCK=64)
    return h


@triton.jit
def _backward_recurrence_kernel(A, B, H, L, stride, BLOCK: tl.constexpr):
    # h_t = a_t * h_{t+1} + b_t with h_L = 0: a reverse scan of affine maps,
    # which do not commute (the maps of the later steps come first).
    row = tl.program_id(0)
    t = tl.arange(0, BLOCK)
    mask = t < L
    a = tl.load(A + row * stride + t, mask=mask, other=1.0)
    b = tl.load(B + row * stride + t, mask=mask, other=0.0)
    _, h = tl.associative_scan((a, b), 0, _recurrence_combine, reverse=True)
    tl.store(H + row * stride + t, h, mask=mask)


def backward_recurrence(a, b):
    M, L = a.shape
    h = torch.empty_like(a)
    _backward_recurrence_kernel[(M,)](a, b, h, L, a.stride(0),
                                      BLOCK=triton.next_power_of_2(L))
    return h
