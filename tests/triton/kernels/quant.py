"""Quantization: int8 per-row and fp8 per-tensor / per-block quantizers, and
dequantize-then-matmul kernels for int8 weights (per-column scales) and packed
int4 weights (per-group scales, zero point 8), plus an int4 unpacker and
Triton's pre-Hopper fp8 (float8e4b15) round trip."""

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _quant_int8_rowwise_kernel(X, Q, Scale, N, stride_x, stride_q, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride_x + cols, mask=cols < N, other=0.0).to(tl.float32)
    absmax = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-8)
    scale = absmax / 127.0
    q = libdevice.rint(x / scale)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(Q + row * stride_q + cols, q.to(tl.int8), mask=cols < N)
    tl.store(Scale + row, scale)


def quant_int8_rowwise(x):
    M, N = x.shape
    q = torch.empty((M, N), dtype=torch.int8, device=x.device)
    scale = torch.empty(M, dtype=torch.float32, device=x.device)
    _quant_int8_rowwise_kernel[(M,)](x, q, scale, N, x.stride(0), q.stride(0),
                                     BLOCK=triton.next_power_of_2(N))
    return q, scale


@triton.jit
def _fp8_absmax_kernel(X, AbsMax, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0).to(tl.float32)
    tl.atomic_max(AbsMax, tl.max(tl.abs(x), axis=0))


@triton.jit
def _quant_fp8_kernel(X, Y, AbsMax, Scale, N, FP8_MAX: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    scale = tl.maximum(tl.load(AbsMax), 1e-12) / FP8_MAX
    if tl.program_id(0) == 0:
        tl.store(Scale, scale)
    x = tl.load(X + offs, mask=offs < N, other=0.0).to(tl.float32)
    y = tl.clamp(x / scale, -FP8_MAX, FP8_MAX)
    tl.store(Y + offs, y.to(tl.float8e4nv), mask=offs < N)


def quant_fp8_per_tensor(x):
    N = x.numel()
    absmax = torch.zeros(1, dtype=torch.float32, device=x.device)
    scale = torch.empty(1, dtype=torch.float32, device=x.device)
    y = torch.empty(x.shape, dtype=torch.float8_e4m3fn, device=x.device)
    grid = (triton.cdiv(N, 512),)
    _fp8_absmax_kernel[grid](x, absmax, N, BLOCK=512)
    _quant_fp8_kernel[grid](x, y, absmax, scale, N, FP8_MAX=448.0, BLOCK=512)
    return y, scale


@triton.jit
def _quant_fp8_group_kernel(X, Y, S, n_groups, GROUP: tl.constexpr):
    # One scale per GROUP consecutive elements (activations in blocks of 128).
    g = tl.program_id(0)
    offs = g * GROUP + tl.arange(0, GROUP)
    x = tl.load(X + offs).to(tl.float32)
    s = tl.max(tl.abs(x), axis=0) / 448.0
    s = tl.where(s == 0.0, 1.0, s)
    y = (x / s).to(Y.dtype.element_ty)
    tl.store(Y + offs, y)
    tl.store(S + g, s)


def quant_fp8_groups(x, group=128):
    assert x.numel() % group == 0
    y = torch.empty(x.shape, dtype=torch.float8_e4m3fn, device=x.device)
    s = torch.empty(x.numel() // group, dtype=torch.float32, device=x.device)
    _quant_fp8_group_kernel[(x.numel() // group,)](x, y, s, x.numel() // group, GROUP=group)
    return y, s


@triton.jit
def _w8a16_matmul_kernel(A, W, Scale, C, M, N, K, stride_am, stride_wk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        w = tl.load(W + (k0 + rk)[:, None] * stride_wk + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, w.to(a.dtype), acc)
    scale = tl.load(Scale + rn, mask=rn < N, other=0.0)
    acc = acc * scale[None, :]
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def w8a16_matmul(a, w_int8, scale):
    M, K = a.shape
    N = w_int8.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    _w8a16_matmul_kernel[grid](a, w_int8, scale, c, M, N, K, a.stride(0), w_int8.stride(0),
                               c.stride(0), BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    return c


@triton.jit
def _w4a16_matmul_kernel(A, Wp, Scales, C, M, N, K, stride_am, stride_wk, stride_sk,
                         stride_cm, GROUP: tl.constexpr, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Wp[k // 2, n] holds w[k, n] in its low nibble for even k, high for odd;
    # w = (nibble - 8) * Scales[k // GROUP, n].
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(A + rm[:, None] * stride_am + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        kmask = (rk[:, None] < K) & (rn[None, :] < N)
        packed = tl.load(Wp + (rk // 2)[:, None] * stride_wk + rn[None, :], mask=kmask, other=0)
        shift = ((rk % 2) * 4).to(tl.uint8)
        nibble = (packed >> shift[:, None]) & 0xF
        s = tl.load(Scales + (rk // GROUP)[:, None] * stride_sk + rn[None, :], mask=kmask,
                    other=0.0)
        w = (nibble.to(tl.int32) - 8).to(tl.float16) * s
        acc = tl.dot(a, w, acc)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def w4a16_matmul(a, w_packed, scales, group):
    M, K = a.shape
    N = w_packed.shape[1]
    c = torch.empty((M, N), dtype=torch.float16, device=a.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    _w4a16_matmul_kernel[grid](a, w_packed, scales, c, M, N, K, a.stride(0),
                               w_packed.stride(0), scales.stride(0), c.stride(0), GROUP=group,
                               BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    return c


@triton.jit
def _unpack_int4_kernel(Wp, Scales, Out, K, N, GROUP: tl.constexpr, BLOCK_KH: tl.constexpr,
                        BLOCK_N: tl.constexpr):
    # Both nibbles of BLOCK_KH packed rows: join (low, high) on a new last
    # axis, move it between the row and column axes, and merge it with the
    # rows, so that row 2i is the low nibble and 2i + 1 the high one.
    pid_k = tl.program_id(0)
    pid_n = tl.program_id(1)
    rkh = pid_k * BLOCK_KH + tl.arange(0, BLOCK_KH)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rkh[:, None] < K // 2) & (rn[None, :] < N)
    packed = tl.load(Wp + rkh[:, None] * N + rn[None, :], mask=mask, other=0)
    low = (packed & 0xF).to(tl.int32) - 8
    high = ((packed >> 4) & 0xF).to(tl.int32) - 8
    w = tl.reshape(tl.permute(tl.join(low, high), (0, 2, 1)), (2 * BLOCK_KH, BLOCK_N))
    rk = pid_k * 2 * BLOCK_KH + tl.arange(0, 2 * BLOCK_KH)
    out_mask = (rk[:, None] < K) & (rn[None, :] < N)
    s = tl.load(Scales + (rk // GROUP)[:, None] * N + rn[None, :], mask=out_mask, other=0.0)
    tl.store(Out + rk[:, None] * N + rn[None, :], (w.to(tl.float32) * s).to(tl.float16),
             mask=out_mask)


def unpack_int4(w_packed, scales, group):
    KH, N = w_packed.shape
    K = 2 * KH
    out = torch.empty((K, N), dtype=torch.float16, device=w_packed.device)
    grid = (triton.cdiv(KH, 16), triton.cdiv(N, 32))
    _unpack_int4_kernel[grid](w_packed, scales, out, K, N, GROUP=group, BLOCK_KH=16, BLOCK_N=32)
    return out


@triton.jit
def _quant_e4b15_kernel(X, Q, Y, N, BLOCK: tl.constexpr):
    # float8e4b15 (exponent bias 15, |x| <= 1.75 after saturation): the codes,
    # and their values back in the input's type.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    q = x.to(tl.float8e4b15)
    tl.store(Q + offs, q, mask=mask)
    tl.store(Y + offs, q.to(X.dtype.element_ty), mask=mask)


def quant_e4b15(x):
    q = torch.empty(x.shape, dtype=torch.uint8, device=x.device)
    y = torch.empty_like(x)
    _quant_e4b15_kernel[(triton.cdiv(x.numel(), 1024),)](
        x, triton.reinterpret(q, tl.float8e4b15), y, x.numel(), BLOCK=1024)
    return q, y
