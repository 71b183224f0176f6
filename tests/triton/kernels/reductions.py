"""Reductions: rows and columns, whole rows and loops over long rows, argmax,
Welford with tl.reduce on tuples, atomics and two-stage global sums."""

import torch
import triton
import triton.language as tl


@triton.jit
def _row_sum_kernel(X, Out, N, stride_xm, stride_xn, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(X + row * stride_xm + cols * stride_xn, mask=cols < N, other=0.0)
    tl.store(Out + row, tl.sum(x, axis=0))


def row_sum(x):
    M, N = x.shape
    out = torch.empty(M, dtype=torch.float32, device=x.device)
    _row_sum_kernel[(M,)](x, out, N, x.stride(0), x.stride(1),
                          BLOCK_N=triton.next_power_of_2(N))
    return out


@triton.jit
def _col_sum_kernel(X, Out, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for m in tl.range(0, M, BLOCK_M, loop_unroll_factor=2):
        rows = m + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        acc += tl.load(X + rows[:, None] * stride_m + cols[None, :], mask=mask, other=0.0)
    tl.store(Out + cols, tl.sum(acc, axis=0), mask=cols < N)


def col_sum(x):
    M, N = x.shape
    out = torch.empty(N, dtype=torch.float32, device=x.device)
    _col_sum_kernel[(triton.cdiv(N, 32),)](x, out, M, N, x.stride(0), BLOCK_M=16, BLOCK_N=32)
    return out


@triton.jit
def _row_max_kernel(X, Values, Indices, N, stride, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=-float("inf"))
    value, index = tl.max(x, axis=0, return_indices=True)
    tl.store(Values + row, value)
    tl.store(Indices + row, index)


def row_max(x):
    M, N = x.shape
    values = torch.empty(M, dtype=x.dtype, device=x.device)
    indices = torch.empty(M, dtype=torch.int32, device=x.device)
    _row_max_kernel[(M,)](x, values, indices, N, x.stride(0), BLOCK_N=triton.next_power_of_2(N))
    return values, indices


@triton.jit
def _row_argmin_kernel(X, Indices, N, stride, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=float("inf"))
    tl.store(Indices + row, tl.argmin(x, axis=0).to(tl.int64))


def row_argmin(x):
    M, N = x.shape
    out = torch.empty(M, dtype=torch.int64, device=x.device)
    _row_argmin_kernel[(M,)](x, out, N, x.stride(0), BLOCK_N=triton.next_power_of_2(N))
    return out


@triton.jit
def welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    w_b = tl.where(n == 0, 0.0, n_b / tl.where(n == 0, 1.0, n))
    return mean_a + delta * w_b, m2_a + m2_b + delta * delta * n_a * w_b, n


@triton.jit
def _welford_var_kernel(X, Mean, Var, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    mean = tl.zeros([BLOCK], dtype=tl.float32)
    m2 = tl.zeros([BLOCK], dtype=tl.float32)
    count = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        # One-sample update of each lane's running (mean, m2, count).
        new_count = count + mask.to(tl.float32)
        delta = x - mean
        mean = tl.where(mask, mean + delta / tl.maximum(new_count, 1.0), mean)
        m2 = tl.where(mask, m2 + delta * (x - mean), m2)
        count = new_count
    mean_r, m2_r, n_r = tl.reduce((mean, m2, count), 0, welford_combine)
    tl.store(Mean + row, mean_r)
    tl.store(Var + row, m2_r / n_r)


def welford_var(x):
    M, N = x.shape
    mean = torch.empty(M, dtype=torch.float32, device=x.device)
    var = torch.empty(M, dtype=torch.float32, device=x.device)
    _welford_var_kernel[(M,)](x, mean, var, N, x.stride(0), BLOCK=64)
    return mean, var


@triton.jit
def _sum_atomic_kernel(X, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0)
    tl.atomic_add(Out, tl.sum(x, axis=0))


def sum_atomic(x):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    N = x.numel()
    _sum_atomic_kernel[(triton.cdiv(N, 256),)](x, out, N, BLOCK=256)
    return out


@triton.jit
def _partial_sum_kernel(X, Partial, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0)
    tl.store(Partial + pid, tl.sum(x * x, axis=0))


@triton.jit
def _final_sum_kernel(Partial, Out, n_partial, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_partial, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(Partial + offs, mask=offs < n_partial, other=0.0)
    tl.store(Out, tl.sqrt(tl.sum(acc, axis=0)))


def norm_two_stage(x):
    N = x.numel()
    BLOCK = 128
    n_partial = triton.cdiv(N, BLOCK)
    partial = torch.empty(n_partial, dtype=torch.float32, device=x.device)
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    _partial_sum_kernel[(n_partial,)](x, partial, N, BLOCK=BLOCK)
    _final_sum_kernel[(1,)](partial, out, n_partial, BLOCK=32)
    return out


@triton.jit
def _l2norm_rows_kernel(X, Out, N, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Out += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc += x * x
    inv = 1.0 / tl.maximum(tl.sqrt(tl.sum(acc, axis=0)), eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        tl.store(Out + cols, (x * inv).to(Out.dtype.element_ty), mask=cols < N)


def l2_normalize(x, eps=1e-12):
    M, N = x.shape
    out = torch.empty_like(x)
    _l2norm_rows_kernel[(M,)](x, out, N, x.stride(0), eps, BLOCK=128)
    return out


@triton.jit
def _int_sum_kernel(X, Out, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(X + rows[:, None] * N + cols[None, :],
                mask=(rows[:, None] < M) & (cols[None, :] < N), other=0)
    tl.store(Out + rows, tl.sum(x, axis=1), mask=rows < M)


def int_row_sum(x):
    M, N = x.shape
    out = torch.empty(M, dtype=torch.int32, device=x.device)
    _int_sum_kernel[(triton.cdiv(M, 8),)](x, out, M, N, BLOCK_M=8,
                                          BLOCK_N=triton.next_power_of_2(N))
    return out


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def _row_prod_kernel(X, Out, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=1.0)
    tl.store(Out + row, tl.reduce(x, 0, _mul_combine))


def row_prod(x):
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    _row_prod_kernel[(M,)](x, out, N, x.stride(0), BLOCK=triton.next_power_of_2(N))
    return out


@triton.jit
def _count_nonzero_kernel(X, Count, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0)
    tl.atomic_add(Count, tl.sum((x != 0).to(tl.int32), axis=0))


def count_nonzero(x):
    count = torch.zeros(1, dtype=torch.int32, device=x.device)
    N = x.numel()
    _count_nonzero_kernel[(triton.cdiv(N, 128),)](x, count, N, BLOCK=128)
    return count


@triton.jit
def _absmax_atomic_kernel(X, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0)
    # Non-negative floats order like their bits, so atomic_max on fp32 works.
    tl.atomic_max(Out, tl.max(tl.abs(x), axis=0))


def absmax(x):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    N = x.numel()
    _absmax_atomic_kernel[(triton.cdiv(N, 256),)](x, out, N, BLOCK=256)
    return out


@triton.jit
def _mean_keepdims_kernel(X, Out, C, HW, BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    # Mean over the spatial axis of an NCHW tensor: keep_dims for the broadcast.
    n = tl.program_id(0)
    c = tl.arange(0, BLOCK_C)
    acc = tl.zeros([BLOCK_C, 1], dtype=tl.float32)
    for start in range(0, HW, BLOCK_HW):
        hw = start + tl.arange(0, BLOCK_HW)
        mask = (c[:, None] < C) & (hw[None, :] < HW)
        x = tl.load(X + n * C * HW + c[:, None] * HW + hw[None, :], mask=mask, other=0.0)
        acc += tl.sum(x, axis=1, keep_dims=True)
    mean = acc / HW
    tl.store(Out + n * C + c[:, None], mean, mask=c[:, None] < C)


def spatial_mean(x):
    N, C, H, W = x.shape
    out = torch.empty((N, C), dtype=torch.float32, device=x.device)
    _mean_keepdims_kernel[(N,)](x, out, C, H * W, BLOCK_C=triton.next_power_of_2(C), BLOCK_HW=64)
    return out
