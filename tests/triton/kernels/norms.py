"""Normalizations: LayerNorm forward and backward (partial weight gradients
under a spin lock, then a reduction kernel), RMSNorm forward and backward
(two-stage and atomic weight gradients), fused add + RMSNorm, GroupNorm."""

import torch
import triton
import triton.language as tl


@triton.jit
def _ln_fwd_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def _ln_bwd_dx_kernel(DX, DY, DW_part, DB_part, X, W, Mean, Rstd, Lock, stride, N,
                      GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    # dx for one row, and this row's share of dw/db added to the partial sums
    # of its group (rows row % GROUP_SIZE_M), serialized by a spin lock.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    group = row % GROUP_SIZE_M
    Lock += group
    Count = Lock + GROUP_SIZE_M
    DW_part = DW_part + group * N + cols
    DB_part = DB_part + group * N + cols
    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(mask, (x - mean) * rstd, 0.0)
    wdy = tl.where(mask, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = dy.to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW_part, mask=mask)
        partial_db += tl.load(DB_part, mask=mask)
    tl.store(DW_part, partial_dw, mask=mask)
    tl.store(DB_part, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _ln_bwd_dwdb_kernel(DW_part, DB_part, FINAL_DW, FINAL_DB, M, N,
                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW_part + offs, mask=mask, other=0.0)
        db += tl.load(DB_part + offs, mask=mask, other=0.0)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0), mask=cols < N)


def layer_norm_fwd(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty_like(x)
    mean = torch.empty(M, dtype=torch.float32, device=x.device)
    rstd = torch.empty(M, dtype=torch.float32, device=x.device)
    BLOCK_SIZE = min(256, triton.next_power_of_2(N))
    _ln_fwd_kernel[(M,)](x, y, weight, bias, mean, rstd, x.stride(0), N, eps,
                         BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return y, mean, rstd


def layer_norm_bwd(dy, x, weight, mean, rstd):
    M, N = x.shape
    GROUP_SIZE_M = 8 if N <= 1024 else 32
    BLOCK_SIZE_N = triton.next_power_of_2(N)
    locks = torch.zeros(2 * GROUP_SIZE_M, dtype=torch.int32, device=x.device)
    dw_part = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=x.device)
    db_part = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device=x.device)
    dw = torch.empty(N, dtype=weight.dtype, device=x.device)
    db = torch.empty(N, dtype=weight.dtype, device=x.device)
    dx = torch.empty_like(dy)
    _ln_bwd_dx_kernel[(M,)](dx, dy, dw_part, db_part, x, weight, mean, rstd, locks,
                            x.stride(0), N, GROUP_SIZE_M=GROUP_SIZE_M,
                            BLOCK_SIZE_N=BLOCK_SIZE_N, num_warps=4)
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK_SIZE_N"]),)
    _ln_bwd_dwdb_kernel[grid](dw_part, db_part, dw, db, min(GROUP_SIZE_M, M), N,
                              BLOCK_SIZE_M=32, BLOCK_SIZE_N=64)
    return dx, dw, db


@triton.jit
def _rms_norm_fwd_kernel(X, Y, W, Rstd, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(Rstd + row, rstd)
    y = (x * rstd).to(X.dtype.element_ty) * w
    tl.store(Y + row * stride_y + cols, y.to(Y.dtype.element_ty), mask=mask)


def rms_norm_fwd(x, weight, eps=1e-6):
    M, N = x.shape
    y = torch.empty_like(x)
    rstd = torch.empty(M, dtype=torch.float32, device=x.device)
    _rms_norm_fwd_kernel[(M,)](x, y, weight, rstd, x.stride(0), y.stride(0), N, eps,
                               BLOCK_N=triton.next_power_of_2(N))
    return y, rstd


@triton.jit
def _rms_norm_bwd_kernel(DY, X, W, Rstd, DX, DW_part, stride, M, N, rows_per_program,
                         BLOCK_N: tl.constexpr):
    # Each program owns a slice of rows and writes its partial dw; the host
    # sums the partials (the two-stage pattern).
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK_N], dtype=tl.float32)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, M)
    for row in range(row_start, row_end):
        x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(Rstd + row)
        xhat = x * rstd
        wdy = w * dy
        dx = rstd * (wdy - xhat * (tl.sum(wdy * xhat, axis=0) / N))
        tl.store(DX + row * stride + cols, dx.to(DX.dtype.element_ty), mask=mask)
        dw += dy * xhat
    tl.store(DW_part + pid * N + cols, dw, mask=mask)


def rms_norm_bwd(dy, x, weight, rstd, programs=4):
    M, N = x.shape
    dx = torch.empty_like(x)
    rows_per_program = triton.cdiv(M, programs)
    dw_part = torch.empty((programs, N), dtype=torch.float32, device=x.device)
    _rms_norm_bwd_kernel[(programs,)](dy, x, weight, rstd, dx, dw_part, x.stride(0), M, N,
                                      rows_per_program, BLOCK_N=triton.next_power_of_2(N))
    return dx, dw_part.sum(0).to(weight.dtype)


@triton.jit
def _rms_norm_bwd_atomic_kernel(DY, X, W, Rstd, DX, DW, stride, N, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.0)
    w = tl.load(W + cols, mask=mask, other=0.0)
    rstd = tl.load(Rstd + row)
    xhat = x * rstd
    dx = rstd * (w * dy - xhat * (tl.sum(w * dy * xhat, axis=0) / N))
    tl.store(DX + row * stride + cols, dx, mask=mask)
    tl.atomic_add(DW + cols, dy * xhat, mask=mask, sem="relaxed")


def rms_norm_bwd_atomic(dy, x, weight, rstd):
    M, N = x.shape
    dx = torch.empty_like(x)
    dw = torch.zeros(N, dtype=torch.float32, device=x.device)
    _rms_norm_bwd_atomic_kernel[(M,)](dy, x, weight, rstd, dx, dw, x.stride(0), N,
                                      BLOCK_N=triton.next_power_of_2(N))
    return dx, dw


@triton.jit
def _add_rms_norm_kernel(X, Residual, W, Y, ResidualOut, stride, N, eps,
                         BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(Residual + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    h = x + r
    tl.store(ResidualOut + row * stride + cols, h.to(ResidualOut.dtype.element_ty), mask=mask)
    rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride + cols, (h * rstd * w).to(Y.dtype.element_ty), mask=mask)


def add_rms_norm(x, residual, weight, eps=1e-6):
    M, N = x.shape
    y = torch.empty_like(x)
    residual_out = torch.empty_like(x)
    _add_rms_norm_kernel[(M,)](x, residual, weight, y, residual_out, x.stride(0), N, eps,
                               BLOCK_N=triton.next_power_of_2(N))
    return y, residual_out


@triton.jit
def _group_norm_fwd_kernel(X, Y, W, B, C, HW, num_groups, eps,
                           CPG: tl.constexpr, BLOCK_HW: tl.constexpr):
    # One program per (sample, group): CPG channels x HW positions.
    pid = tl.program_id(0)
    n = pid // num_groups
    g = pid % num_groups
    base = n * C * HW + g * CPG * HW
    ch = tl.arange(0, CPG)
    s = tl.zeros([CPG, BLOCK_HW], dtype=tl.float32)
    ss = tl.zeros([CPG, BLOCK_HW], dtype=tl.float32)
    for off in range(0, HW, BLOCK_HW):
        hw = off + tl.arange(0, BLOCK_HW)
        x = tl.load(X + base + ch[:, None] * HW + hw[None, :], mask=hw[None, :] < HW, other=0.0)
        s += x
        ss += x * x
    count = CPG * HW
    mean = tl.sum(tl.sum(s, axis=1), axis=0) / count
    var = tl.sum(tl.sum(ss, axis=1), axis=0) / count - mean * mean
    rstd = tl.rsqrt(tl.maximum(var, 0.0) + eps)
    w = tl.load(W + g * CPG + ch)
    b = tl.load(B + g * CPG + ch)
    for off in range(0, HW, BLOCK_HW):
        hw = off + tl.arange(0, BLOCK_HW)
        ptrs = base + ch[:, None] * HW + hw[None, :]
        x = tl.load(X + ptrs, mask=hw[None, :] < HW, other=0.0)
        y = (x - mean) * rstd * w[:, None] + b[:, None]
        tl.store(Y + ptrs, y, mask=hw[None, :] < HW)


def group_norm(x, num_groups, weight, bias, eps=1e-5):
    N, C, H, W = x.shape
    y = torch.empty_like(x)
    _group_norm_fwd_kernel[(N * num_groups,)](x, y, weight, bias, C, H * W, num_groups, eps,
                                              CPG=C // num_groups, BLOCK_HW=64)
    return y
