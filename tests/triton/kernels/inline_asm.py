"""Kernels with inline PTX (tl.inline_asm_elementwise), as libraries use it:
approximate transcendental instructions, funnel shifts, byte-wise bit
tricks on four packed int8 at once, packed half2 arithmetic, two outputs
from one asm block, and cache-hinted loads with side effects."""

import torch
import triton
import triton.language as tl


@triton.jit
def _tanh_approx(x):
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [x],
                                     dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def _gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # GELU with the tanh approximation, tanh from the hardware instruction.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + _tanh_approx(inner))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu_tanh(x):
    y = torch.empty_like(x)
    n = x.numel()
    _gelu_tanh_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


@triton.jit
def _funnel_shift_kernel(lo_ptr, hi_ptr, out_ptr, n, SHIFT: tl.constexpr,
                         BLOCK: tl.constexpr):
    # shf.l.wrap: the high word of (hi:lo) << (SHIFT mod 32), a rotate when
    # lo == hi; the shift amount is a broadcast scalar.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    lo = tl.load(lo_ptr + offs, mask=mask)
    hi = tl.load(hi_ptr + offs, mask=mask)
    s = tl.full([BLOCK], SHIFT, tl.int32)
    r = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r",
                                  [lo, hi, s], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(out_ptr + offs, r, mask=mask)


def funnel_shift(lo, hi, shift):
    out = torch.empty_like(lo)
    n = lo.numel()
    _funnel_shift_kernel[(triton.cdiv(n, 512),)](lo, hi, out, n, SHIFT=shift, BLOCK=512)
    return out


@triton.jit
def _low_nibbles_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # Four uint8 per 32-bit register: the low nibble of each byte, scaled by
    # 8 (shifted in the register, the masks keep bytes apart).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.inline_asm_elementwise(
        "and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r", [x],
        dtype=tl.uint8, is_pure=True, pack=4)
    tl.store(y_ptr + offs, y, mask=mask)


def low_nibbles(x):
    y = torch.empty_like(x)
    n = x.numel()
    _low_nibbles_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


@triton.jit
def _half2_fma_kernel(a_ptr, b_ptr, c_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # fma.rn.f16x2 on two fp16 per register.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    c = tl.load(c_ptr + offs, mask=mask, other=0.0)
    r = tl.inline_asm_elementwise("fma.rn.f16x2 $0, $1, $2, $3;", "=r,r,r,r",
                                  [a, b, c], dtype=tl.float16, is_pure=True, pack=2)
    tl.store(out_ptr + offs, r, mask=mask)


def half2_fma(a, b, c):
    out = torch.empty_like(a)
    n = a.numel()
    _half2_fma_kernel[(triton.cdiv(n, 2048),)](a, b, c, out, n, BLOCK=2048)
    return out


@triton.jit
def _bytes_and_max_kernel(a_ptr, b_ptr, ai_ptr, m_ptr, n, BLOCK: tl.constexpr):
    # Two outputs, four elements per call: the uint8 `a` widened to int32,
    # and max(float(a), b).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    ai, m = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b8 t<4>;
            mov.b32 {t0, t1, t2, t3}, $8;
            cvt.u32.u8 $0, t0;
            cvt.u32.u8 $1, t1;
            cvt.u32.u8 $2, t2;
            cvt.u32.u8 $3, t3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """,
        constraints="=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r",
        args=[a, b],
        dtype=(tl.int32, tl.float32),
        is_pure=True,
        pack=4,
    )
    tl.store(ai_ptr + offs, ai, mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)


def bytes_and_max(a, b):
    ai = torch.empty(a.shape, dtype=torch.int32, device=a.device)
    m = torch.empty_like(b)
    n = a.numel()
    _bytes_and_max_kernel[(triton.cdiv(n, 512),)](a, b, ai, m, n, BLOCK=512)
    return ai, m


@triton.jit
def _sincos_kernel(x_ptr, s_ptr, c_ptr, n, BLOCK: tl.constexpr):
    # Two outputs of one asm block, one element per call.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s, c = tl.inline_asm_elementwise(
        "sin.approx.f32 $0, $2; cos.approx.f32 $1, $2;", "=f,=f,f", [x],
        dtype=(tl.float32, tl.float32), is_pure=True, pack=1)
    tl.store(s_ptr + offs, s, mask=mask)
    tl.store(c_ptr + offs, c, mask=mask)


def sincos(x):
    s = torch.empty_like(x)
    c = torch.empty_like(x)
    n = x.numel()
    _sincos_kernel[(triton.cdiv(n, 256),)](x, s, c, n, BLOCK=256, num_warps=2)
    return s, c


@triton.jit
def _evict_first_copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # A streaming copy whose load carries an L1 eviction hint, written in
    # PTX with its own predicate (asm with side effects, pointers in "l").
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.inline_asm_elementwise(
        """
        {
            .reg .pred p;
            setp.ne.b32 p, $2, 0;
            mov.b32 $0, 0;
            @p ld.global.L1::evict_first.b32 $0, [$1];
        }
        """,
        "=r,l,r", [x_ptr + offs, mask.to(tl.int32)], dtype=tl.int32,
        is_pure=False, pack=1)
    tl.store(y_ptr + offs, v, mask=mask)


def evict_first_copy(x):
    y = torch.empty_like(x)
    n = x.numel()
    _evict_first_copy_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y
