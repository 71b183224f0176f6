"""Dropout and random numbers: a dropout with a mask tensor, seeded dropout
with tl.rand, a low-memory dropout comparing tl.randint with a threshold,
tl.randn, and a rand4x dropout drawing four streams per Philox call."""

import torch
import triton
import triton.language as tl


@triton.jit
def _dropout_mask_kernel(X, Keep, Out, n, p, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    keep = tl.load(Keep + offs, mask=mask)
    tl.store(Out + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


def dropout_with_mask(x, keep, p):
    out = torch.empty_like(x)
    n = x.numel()
    _dropout_mask_kernel[(triton.cdiv(n, 1024),)](x, keep, out, n, p, BLOCK=1024)
    return out


@triton.jit
def _seeded_dropout_kernel(X, Out, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    # The mask is a function of (seed, offset): nothing to store for backward.
    keep = tl.rand(seed, offs) > p
    tl.store(Out + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


def seeded_dropout(x, p, seed):
    out = torch.empty_like(x)
    n = x.numel()
    _seeded_dropout_kernel[(triton.cdiv(n, 1024),)](x, out, n, p, seed, BLOCK=1024)
    return out


@triton.jit
def _dropout_threshold_kernel(X, Out, n, threshold, scale, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0).to(tl.float32)
    bits = tl.randint(seed, offs)
    keep = bits >= threshold.to(tl.uint32)
    tl.store(Out + offs, tl.where(keep, x * scale, 0.0).to(Out.dtype.element_ty), mask=mask)


def dropout_threshold(x, p, seed):
    out = torch.empty_like(x)
    n = x.numel()
    threshold = int(p * 2**31) * 2      # an even number of 2**-32 steps, < 2**32
    _dropout_threshold_kernel[(triton.cdiv(n, 512),)](x, out, n, threshold, 1.0 / (1.0 - p),
                                                      seed, BLOCK=512)
    return out


@triton.jit
def _randn_kernel(Out, n, seed, mean, std, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.randn(seed, offs)
    tl.store(Out + offs, mean + std * r, mask=offs < n)


def randn_like(n, seed, mean=0.0, std=1.0, device="cpu"):
    out = torch.empty(n, dtype=torch.float32, device=device)
    _randn_kernel[(triton.cdiv(n, 256),)](out, n, seed, mean, std, BLOCK=256)
    return out


def randn_host(x, seed):
    return randn_like(x.numel(), seed, 0.5, 2.0, device=x.device)


@triton.jit
def _dropout4x_kernel(X, Out, n, p, seed, BLOCK: tl.constexpr):
    # One Philox call gives four numbers: this program covers 4 * BLOCK
    # elements, block j using stream j at the same offsets.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    r0, r1, r2, r3 = tl.rand4x(seed, offs)
    base = pid * 4 * BLOCK + tl.arange(0, BLOCK)
    for j in tl.static_range(4):
        if j == 0:
            r = r0
        elif j == 1:
            r = r1
        elif j == 2:
            r = r2
        else:
            r = r3
        idx = base + j * BLOCK
        x = tl.load(X + idx, mask=idx < n)
        tl.store(Out + idx, tl.where(r > p, x / (1 - p), 0.0), mask=idx < n)


def dropout4x(x, p, seed):
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK = 128
    _dropout4x_kernel[(triton.cdiv(n, 4 * BLOCK),)](x, out, n, p, seed, BLOCK=BLOCK)
    return out
