"""Element-wise kernels: the vector-add tutorial and the small kernels every
Triton library has (casts, activations, clamps, masks, int64 offsets)."""

import torch
import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq

from .helpers import leaky_relu, silu


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK_SIZE: tl.constexpr):
    # The vector-add pattern: one block of BLOCK_SIZE elements per program.
    start = tl.program_id(axis=0) * BLOCK_SIZE
    idx = start + tl.arange(0, BLOCK_SIZE)
    in_bounds = idx < n
    a = tl.load(a_ptr + idx, mask=in_bounds)
    b = tl.load(b_ptr + idx, mask=in_bounds)
    tl.store(c_ptr + idx, a + b, mask=in_bounds)


def add(a: torch.Tensor, b: torch.Tensor):
    c = torch.empty_like(a)
    n = c.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    add_kernel[grid](a, b, c, n, BLOCK_SIZE=1024)
    return c


@triton.jit
def _axpby_kernel(X, Y, Out, alpha, beta, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(Y + offs, mask=mask, other=0.0).to(tl.float32)
    out = alpha * x + beta * y
    tl.store(Out + offs, out.to(Out.dtype.element_ty), mask=mask)


def axpby(x, y, alpha: float, beta: float):
    out = torch.empty_like(x)
    N = x.numel()
    BLOCK = 256
    _axpby_kernel[(triton.cdiv(N, BLOCK),)](x, y, out, alpha, beta, N, BLOCK=BLOCK)
    return out


@triton.jit
def _leaky_relu_kernel(X, Y, N, negative_slope, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    y = tl.where(x > 0, x, x * negative_slope)
    tl.store(Y + offs, y, mask=mask)


def leaky_relu_(x, negative_slope=0.1):
    y = torch.empty_like(x)
    N = x.numel()
    grid = (triton.cdiv(N, 512),)
    _leaky_relu_kernel[grid](x, y, N, negative_slope, BLOCK=512, num_warps=2)
    return y


@triton.jit
def _clamp_kernel(X, Y, lo, hi, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    y = tl.minimum(tl.maximum(x, lo), hi)
    tl.store(Y + offs, y, mask=mask)


def clamp(x, lo, hi):
    y = torch.empty_like(x)
    N = x.numel()
    _clamp_kernel[(triton.cdiv(N, 256),)](x, y, lo, hi, N, BLOCK=256)
    return y


@triton.jit
def _scale_int64_kernel(X, Y, scale, N, BLOCK: tl.constexpr):
    # Offsets in int64: pid * BLOCK overflows int32 past 2**31 elements.
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK).to(tl.int64)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, x * scale, mask=mask)


def scale_int64(x, scale):
    y = torch.empty_like(x)
    N = x.numel()
    _scale_int64_kernel[(triton.cdiv(N, 128),)](x, y, scale, N, BLOCK=128)
    return y


@triton.jit
def _cast_kernel(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, x.to(Y.dtype.element_ty), mask=mask)


def cast(x, dtype):
    y = torch.empty(x.shape, dtype=dtype, device=x.device)
    N = x.numel()
    _cast_kernel[(triton.cdiv(N, 512),)](x, y, N, BLOCK=512)
    return y


@triton.jit
def _copy_tail_kernel(X, Y, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    # The grid is rounded up to a multiple of 4 programs: the extra ones leave.
    if pid * BLOCK >= N:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    tl.store(Y + offs, tl.load(X + offs, mask=mask), mask=mask)


def copy_rounded_grid(x):
    y = torch.empty_like(x)
    N = x.numel()
    programs = triton.cdiv(triton.cdiv(N, 128), 4) * 4
    _copy_tail_kernel[(programs,)](x, y, N, BLOCK=128)
    return y


def _scale_shift_kernel(X, Y, N, scale, shift, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, x * scale + shift, mask=mask)


_scale_shift_kernel = triton.jit(_scale_shift_kernel)


def scale_shift(x, scale, shift):
    y = torch.empty_like(x)
    N = x.numel()
    _scale_shift_kernel[(triton.cdiv(N, 256),)](x, y, N, scale, shift, BLOCK=256)
    return y


@triton.jit
def _activation_kernel(X, Y, N, ACTIVATION: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    if ACTIVATION == "relu":
        y = tl.maximum(x, 0.0)
    elif ACTIVATION == "silu":
        y = silu(x)
    elif ACTIVATION == "leaky_relu":
        y = leaky_relu(x)
    else:
        y = x
    tl.store(Y + offs, y.to(Y.dtype.element_ty), mask=mask)


def activation(x, name):
    y = torch.empty_like(x)
    N = x.numel()
    _activation_kernel[(triton.cdiv(N, 256),)](x, y, N, ACTIVATION=name, BLOCK=256)
    return y


@triton.heuristics({"EVEN_N": lambda args: args["N"] % args["BLOCK"] == 0})
@triton.jit
def _mul_heuristic_kernel(X, Y, Out, N, BLOCK: tl.constexpr, EVEN_N: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN_N:
        x = tl.load(X + offs)
        y = tl.load(Y + offs)
        tl.store(Out + offs, x * y)
    else:
        mask = offs < N
        x = tl.load(X + offs, mask=mask)
        y = tl.load(Y + offs, mask=mask)
        tl.store(Out + offs, x * y, mask=mask)


def mul(x, y):
    out = torch.empty_like(x)
    N = x.numel()
    _mul_heuristic_kernel[(triton.cdiv(N, 256),)](x, y, out, N, BLOCK=256)
    return out


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (256, 512) for w in (2, 4)],
    key=["N"],
)
@triton.jit
def _sub_abs_kernel(X, Y, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    y = tl.load(Y + offs, mask=mask)
    tl.store(Out + offs, tl.abs(x - y), mask=mask)


def sub_abs(x, y):
    out = torch.empty_like(x)
    N = x.numel()
    grid = lambda META: (triton.cdiv(N, META["BLOCK"]),)
    _sub_abs_kernel[grid](x, y, out, N)
    return out


@triton.jit
def _polyval_kernel(X, C, Y, N, DEGREE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    # Horner's rule, unrolled: C holds the coefficients, highest degree first.
    for i in tl.static_range(DEGREE + 1):
        acc = acc * x + tl.load(C + i)
    tl.store(Y + offs, acc, mask=mask)


def polyval(x, coeffs):
    y = torch.empty_like(x)
    N = x.numel()
    _polyval_kernel[(triton.cdiv(N, 256),)](x, coeffs, y, N, DEGREE=coeffs.numel() - 1,
                                            BLOCK=256)
    return y


@triton.jit
def _hash_u32_kernel(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    # A 32-bit integer mixer: logical shifts and wrapping products of uint32.
    x = ((x >> 16) ^ x) * 0x45D9F3B
    x = ((x >> 16) ^ x) * 0x45D9F3B
    x = (x >> 16) ^ x
    tl.store(Y + offs, x, mask=mask)


def hash_u32(x):
    y = torch.empty_like(x)
    N = x.numel()
    _hash_u32_kernel[(triton.cdiv(N, 256),)](x, y, N, BLOCK=256)
    return y


@triton.jit
def _bitops_kernel(A, B, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    a = tl.load(A + offs, mask=mask)
    b = tl.load(B + offs, mask=mask)
    r = ((a & 0xFF) << 8) | ((a >> 4) ^ b)
    r = r + (a % 7) - (b // 3)
    tl.store(Out + offs, r, mask=mask)


def bitops(a, b):
    out = torch.empty_like(a)
    N = a.numel()
    _bitops_kernel[(triton.cdiv(N, 256),)](a, b, out, N, BLOCK=256)
    return out


@triton.jit
def _reverse_block_kernel(X, Scratch, Y, N, BLOCK: tl.constexpr):
    # Each program reverses its block through a global scratch buffer: the
    # barrier makes the block's writes visible before any thread reads.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0)
    tl.store(Scratch + offs, x)
    tl.debug_barrier()
    rev = pid * BLOCK + (BLOCK - 1 - tl.arange(0, BLOCK))
    y = tl.load(Scratch + rev)
    tl.store(Y + offs, y, mask=offs < N)


def reverse_blocks(x, block=64):
    N = x.numel()
    grid = (triton.cdiv(N, block),)
    scratch = torch.empty(grid[0] * block, dtype=x.dtype, device=x.device)
    y = torch.empty_like(x)
    _reverse_block_kernel[grid](x, scratch, y, N, BLOCK=block, num_warps=2)
    return y


@triton.jit
def _where_kernel(Cond, A, B, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    c = tl.load(Cond + offs, mask=mask, other=0)
    a = tl.load(A + offs, mask=mask)
    b = tl.load(B + offs, mask=mask)
    tl.store(Out + offs, tl.where(c, a, b), mask=mask)


def where(cond, a, b):
    out = torch.empty_like(a)
    N = a.numel()
    _where_kernel[(triton.cdiv(N, 256),)](cond, a, b, out, N, BLOCK=256)
    return out


@triton.jit
def _fma_fp64_kernel(A, B, C, Out, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    a = tl.load(A + offs, mask=mask)
    b = tl.load(B + offs, mask=mask)
    c = tl.load(C + offs, mask=mask)
    tl.store(Out + offs, tl.fma(a, b, c) / (1.0 + tl.abs(c)), mask=mask)


def fma_fp64(a, b, c):
    out = torch.empty_like(a)
    N = a.numel()
    _fma_fp64_kernel[(triton.cdiv(N, 128),)](a, b, c, out, N, BLOCK=128)
    return out


@triton.jit
def _grid_stride_scale_kernel(X, Y, N, scale, BLOCK: tl.constexpr):
    # A grid-stride loop: a fixed grid walks every block, the loop kept as a
    # while whose invariants stay inside (tl.condition's disable_licm).
    start = tl.program_id(0) * BLOCK
    step = tl.num_programs(0) * BLOCK
    while tl.condition(start < N, disable_licm=True):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        if cuda_capability_geq(9, 0):
            x = tl.load(X + offs, mask=mask, eviction_policy="evict_first")
        else:
            x = tl.load(X + offs, mask=mask)
        tl.store(Y + offs, x * scale, mask=mask)
        start += step


def grid_stride_scale(x, scale):
    y = torch.empty_like(x)
    N = x.numel()
    grid = (min(4, triton.cdiv(N, 256)),)
    _grid_stride_scale_kernel[grid](x, y, N, scale, BLOCK=256)
    return y


@triton.jit
def _bf16_scale_shift_kernel(X, K, Y, Out, N, BLOCK: tl.constexpr):
    # bf16 times an int32 block computes in fp32 (Triton's promotion), so the
    # whole expression rounds to bf16 once, at the store.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    k = tl.load(K + offs, mask=mask)
    y = tl.load(Y + offs, mask=mask)
    tl.store(Out + offs, x * k + y, mask=mask)


@triton.jit
def _local_constants_kernel(X, Q, Out, OutQ, N, BLOCK: tl.constexpr):
    # Numbers assigned to locals are fp32 / int32 scalars: x * scale computes
    # in fp32 and rounds to fp16 once, at the store; q += step makes q int32
    # (no int8 wrap), and lo // 2 is int32 division (-3, not Python's -4).
    scale = 0.1
    step = 3
    lo = -7
    half = lo // 2
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask)
    q = tl.load(Q + offs, mask=mask)
    q += step
    tl.store(Out + offs, x * scale, mask=mask)
    tl.store(OutQ + offs, q * step + half, mask=mask)


def local_constants(x, q):
    out = torch.empty_like(x)
    out_q = torch.empty(q.shape, dtype=torch.int32, device=q.device)
    N = x.numel()
    _local_constants_kernel[(triton.cdiv(N, 512),)](x, q, out, out_q, N, BLOCK=512)
    return out, out_q


def bf16_scale_shift(x, k, y):
    out = torch.empty_like(x)
    N = x.numel()
    _bf16_scale_shift_kernel[(triton.cdiv(N, 256),)](x, k, y, out, N, BLOCK=256)
    return out
