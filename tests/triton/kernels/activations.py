"""Gated and plain activations, forward and backward: SwiGLU, GeGLU (tanh and
erf), GELU, softplus, Mish, ELU, through tl.math and libdevice."""

import torch
import triton
import triton.language as tl
from helpers import gelu_tanh  # the kernels folder is on the search path

try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh
from triton.language.extra import libdevice

from .helpers import silu


@triton.jit
def _swiglu_fwd_kernel(A, B, C, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    a = tl.load(A + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(B + row * stride + cols, mask=mask, other=0)
    c = silu(a).cast(b.dtype) * b
    tl.store(C + row * stride + cols, c, mask=mask)


def swiglu_fwd(a, b):
    rows, n_cols = a.shape
    c = torch.empty_like(a)
    _swiglu_fwd_kernel[(rows,)](a, b, c, c.stride(0), n_cols,
                                BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return c


@triton.jit
def _swiglu_bwd_kernel(DC, A, B, DA, DB, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dc = tl.load(DC + row * stride + cols, mask=mask, other=0).to(tl.float32)
    a = tl.load(A + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(B + row * stride + cols, mask=mask, other=0).to(tl.float32)
    sig = tl.sigmoid(a)
    silu_a = a * sig
    db = dc * silu_a
    da = dc * b * (sig + silu_a * (1.0 - sig))
    tl.store(DA + row * stride + cols, da.to(DA.dtype.element_ty), mask=mask)
    tl.store(DB + row * stride + cols, db.to(DB.dtype.element_ty), mask=mask)


def swiglu_bwd(dc, a, b):
    rows, n_cols = a.shape
    da = torch.empty_like(a)
    db = torch.empty_like(b)
    _swiglu_bwd_kernel[(rows,)](dc, a, b, da, db, a.stride(0), n_cols,
                                BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return da, db


@triton.jit
def _geglu_tanh_fwd_kernel(A, B, C, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    col_block = tl.program_id(1)
    cols = col_block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    a = tl.load(A + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(B + row * stride + cols, mask=mask, other=0).to(tl.float32)
    tl.store(C + row * stride + cols, (gelu_tanh(a) * b).to(C.dtype.element_ty), mask=mask)


def geglu_tanh_fwd(a, b):
    rows, n_cols = a.shape
    c = torch.empty_like(a)
    _geglu_tanh_fwd_kernel[(rows, triton.cdiv(n_cols, 128))](a, b, c, a.stride(0), n_cols,
                                                             BLOCK_SIZE=128)
    return c


@triton.jit
def _geglu_tanh_bwd_kernel(DC, A, B, DA, DB, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dc = tl.load(DC + row * stride + cols, mask=mask, other=0).to(tl.float32)
    a = tl.load(A + row * stride + cols, mask=mask, other=0).to(tl.float32)
    b = tl.load(B + row * stride + cols, mask=mask, other=0).to(tl.float32)
    k = 0.7978845608028654
    inner = k * (a + 0.044715 * a * a * a)
    t = tanh(inner)
    gelu = 0.5 * a * (1.0 + t)
    dgelu = 0.5 * (1.0 + t) + 0.5 * a * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * a * a)
    tl.store(DA + row * stride + cols, (dc * b * dgelu).to(DA.dtype.element_ty), mask=mask)
    tl.store(DB + row * stride + cols, (dc * gelu).to(DB.dtype.element_ty), mask=mask)


def geglu_tanh_bwd(dc, a, b):
    rows, n_cols = a.shape
    da = torch.empty_like(a)
    db = torch.empty_like(b)
    _geglu_tanh_bwd_kernel[(rows,)](dc, a, b, da, db, a.stride(0), n_cols,
                                    BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return da, db


@triton.jit
def _geglu_erf_fwd_kernel(X, Y, n_rows, d, BLOCK_D: tl.constexpr):
    # X is [n_rows, 2 * d]: the gate is the first half, the value the second.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_D)
    mask = cols < d
    gate = tl.load(X + row * 2 * d + cols, mask=mask, other=0.0).to(tl.float32)
    value = tl.load(X + row * 2 * d + d + cols, mask=mask, other=0.0).to(tl.float32)
    gelu = 0.5 * gate * (1.0 + tl.math.erf(gate * 0.7071067811865476))
    tl.store(Y + row * d + cols, (gelu * value).to(Y.dtype.element_ty), mask=mask)


def geglu_erf(x):
    n_rows, two_d = x.shape
    d = two_d // 2
    y = torch.empty((n_rows, d), dtype=x.dtype, device=x.device)
    _geglu_erf_fwd_kernel[(n_rows,)](x, y, n_rows, d, BLOCK_D=triton.next_power_of_2(d))
    return y


@triton.jit
def _gelu_erf_bwd_kernel(DY, X, DX, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(DY + offs, mask=mask, other=0.0).to(tl.float32)
    cdf = 0.5 * (1.0 + tl.erf(x * 0.7071067811865476))
    pdf = tl.exp(-0.5 * x * x) * 0.3989422804014327
    tl.store(DX + offs, (dy * (cdf + x * pdf)).to(DX.dtype.element_ty), mask=mask)


def gelu_erf_bwd(dy, x):
    dx = torch.empty_like(x)
    N = x.numel()
    _gelu_erf_bwd_kernel[(triton.cdiv(N, 256),)](dy, x, dx, N, BLOCK=256)
    return dx


@triton.jit
def _softplus_kernel(X, Y, N, beta, threshold, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    bx = x * beta
    soft = libdevice.log1p(tl.exp(tl.minimum(bx, threshold))) / beta
    tl.store(Y + offs, tl.where(bx > threshold, x, soft).to(Y.dtype.element_ty), mask=mask)


def softplus(x, beta=1.0, threshold=20.0):
    y = torch.empty_like(x)
    N = x.numel()
    _softplus_kernel[(triton.cdiv(N, 256),)](x, y, N, beta, threshold, BLOCK=256)
    return y


@triton.jit
def _mish_kernel(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    sp = tl.where(x > 20.0, x, libdevice.log1p(tl.exp(tl.minimum(x, 20.0))))
    tl.store(Y + offs, (x * tanh(sp)).to(Y.dtype.element_ty), mask=mask)


def mish(x):
    y = torch.empty_like(x)
    N = x.numel()
    _mish_kernel[(triton.cdiv(N, 512),)](x, y, N, BLOCK=512)
    return y


@triton.jit
def _elu_kernel(X, Y, N, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    neg = alpha * tl.extra.cuda.libdevice.expm1(tl.minimum(x, 0.0))
    tl.store(Y + offs, tl.where(x > 0, x, neg), mask=mask)


def elu(x, alpha=1.0):
    y = torch.empty_like(x)
    N = x.numel()
    _elu_kernel[(triton.cdiv(N, 256),)](x, y, N, alpha, BLOCK=256)
    return y


@triton.jit
def _powsign_kernel(X, Y, N, p, BLOCK: tl.constexpr):
    # sign(x) * |x|^p through libdevice.pow and copysign.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=1.0)
    y = libdevice.copysign(libdevice.pow(tl.abs(x), p), x)
    tl.store(Y + offs, y, mask=mask)


def powsign(x, p):
    y = torch.empty_like(x)
    N = x.numel()
    _powsign_kernel[(triton.cdiv(N, 256),)](x, y, N, p, BLOCK=256)
    return y
