"""Scalar functions mapped over blocks with tl.map_elementwise: an `if` per
element (SELU, a piecewise polynomial with early returns), a data-dependent
loop per element (Collatz steps), two results, and pack=2."""

import torch
import triton
import triton.language as tl


@triton.jit
def _selu_scalar(x, alpha, scale):
    if x > 0:
        return scale * x
    else:
        return scale * alpha * (tl.exp(x) - 1)


@triton.jit
def _selu_map_kernel(X, Y, n, alpha, scale, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.map_elementwise(_selu_scalar, x, alpha, scale)
    tl.store(Y + offs, y.to(Y.dtype.element_ty), mask=mask)


def selu_map(x, alpha=1.6732632423543772, scale=1.0507009873554805):
    y = torch.empty_like(x)
    n = x.numel()
    _selu_map_kernel[(triton.cdiv(n, 256),)](x, y, n, alpha, scale, BLOCK_SIZE=256)
    return y


@triton.jit
def _piecewise_scalar(x):
    # A smooth step: 0 below -1, 1 above 1, a cubic between; |x| > 4 counts
    # as an outlier in the second result.
    if x <= -1.0:
        return 0.0, x < -4.0
    if x >= 1.0:
        return 1.0, x > 4.0
    t = 0.5 * (x + 1.0)
    return t * t * (3.0 - 2.0 * t), False


@triton.jit
def _piecewise_kernel(X, Y, FLAGS, n_rows, n_cols, stride,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(X + rows * stride + cols, mask=mask, other=0.0)
    y, outlier = tl.map_elementwise(_piecewise_scalar, x)
    tl.store(Y + rows * stride + cols, y, mask=mask)
    tl.store(FLAGS + rows * stride + cols, outlier.to(tl.int8), mask=mask)


def piecewise(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    flags = torch.empty(x.shape, dtype=torch.int8, device=x.device)
    _piecewise_kernel[(triton.cdiv(rows, 16),)](x, y, flags, rows, cols, x.stride(0),
                                                BLOCK_M=16, BLOCK_N=triton.next_power_of_2(cols))
    return y, flags


@triton.jit
def _collatz_scalar(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@triton.jit
def _collatz_kernel(N, STEPS, count, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < count
    n = tl.load(N + offs, mask=mask, other=1)
    tl.store(STEPS + offs, tl.map_elementwise(_collatz_scalar, n), mask=mask)


def collatz_steps(n):
    steps = torch.empty_like(n)
    _collatz_kernel[(triton.cdiv(n.numel(), 128),)](n, steps, n.numel(), BLOCK_SIZE=128)
    return steps


@triton.jit
def _soft_clip_pair(x0, x1, lim0, lim1):
    if x0 > lim0:
        x0 = lim0 + 0.1 * (x0 - lim0)
    if x1 > lim1:
        x1 = lim1 + 0.1 * (x1 - lim1)
    return x0, x1


@triton.jit
def _soft_clip_kernel(X, LIM, Y, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    lim = tl.load(LIM + offs % 64)
    # With pack=2 the function returns a tuple, so the result is a tuple.
    y = tl.map_elementwise(_soft_clip_pair, x, lim, pack=2)[0]
    tl.store(Y + offs, y, mask=mask)


def soft_clip(x, lim):
    y = torch.empty_like(x)
    n = x.numel()
    _soft_clip_kernel[(triton.cdiv(n, 512),)](x, lim, y, n, BLOCK_SIZE=512)
    return y
