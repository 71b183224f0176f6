"""Triton tutorial-style kernels written once with `import triton`, launched
both by Triton and through mgp.jit(...) by test_gpu.py (label gpu)."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def empty_kernel(x_ptr, n):
    pass


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=mask)


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32,
                       "GROUP_SIZE_M": 8}, num_stages=4, num_warps=4),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak,
                  stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    # The tutorial writes min(...): mgp reads a bare min(x, CONST) as a
    # reduction over axis CONST (docs/language.md), so tl.minimum here.
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def _mxfp4_m_packed_kernel(A, AScale, B, BScale, C, M: tl.constexpr, N: tl.constexpr,
                           K: tl.constexpr):
    # One block: A [M // 2, K] uint8, two e2m1 values along M per byte
    # (lhs_k_pack=False), B [K, N] e4m3; fast_math (no NaN check).
    offs_m2 = tl.arange(0, M // 2)
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    offs_ks = tl.arange(0, K // 32)
    a = tl.load(A + offs_m2[:, None] * K + offs_k[None, :])
    b = tl.load(B + offs_k[:, None] * N + offs_n[None, :])
    sa = tl.load(AScale + offs_m[:, None] * (K // 32) + offs_ks[None, :])
    sb = tl.load(BScale + offs_n[:, None] * (K // 32) + offs_ks[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e4m3", fast_math=True, lhs_k_pack=False)
    tl.store(C + offs_m[:, None] * N + offs_n[None, :], c)


@triton.jit
def _nvfp4_style_kernel(A, AScale, B, BScale, C, M: tl.constexpr, N: tl.constexpr,
                        K: tl.constexpr):
    # e2m1 x e2m1 with fp8 (e4m3) scales over groups of 16; NaN scales
    # propagate.
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    a = tl.load(A + offs_m[:, None] * (K // 2) + tl.arange(0, K // 2)[None, :])
    b = tl.load(B + tl.arange(0, K // 2)[:, None] * N + offs_n[None, :])
    sa = tl.load(AScale + offs_m[:, None] * (K // 16) + tl.arange(0, K // 16)[None, :])
    sb = tl.load(BScale + offs_n[:, None] * (K // 16) + tl.arange(0, K // 16)[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1")
    tl.store(C + offs_m[:, None] * N + offs_n[None, :], c)


@triton.jit
def cast_kernel(x_ptr, y_ptr, n, DST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(DST), mask=mask)


@triton.jit
def _batched_mxfp4_kernel(X, W, S, C, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                          K: tl.constexpr):
    # A batch of MXFP4-weight products in one 3-D dot_scaled: X [B, M, K]
    # bf16, W [B, K // 2, N] e2m1 bytes, S [B, N, K // 32] e8m0 scales.
    b = tl.arange(0, B)[:, None, None]
    m = tl.arange(0, M)[None, :, None]
    n = tl.arange(0, N)[None, None, :]
    x = tl.load(X + b * M * K + m * K + tl.arange(0, K)[None, None, :])
    w = tl.load(W + b * (K // 2) * N + tl.arange(0, K // 2)[None, :, None] * N + n)
    s = tl.load(S + b * N * (K // 32) + tl.arange(0, N)[None, :, None] * (K // 32)
                + tl.arange(0, K // 32)[None, None, :])
    c = tl.dot_scaled(x, None, "bf16", w, s, "e2m1")
    tl.store(C + b * M * N + m * N + n, c)


@triton.jit
def _logaddexp(a, b):
    # Both sides compute: Triton 3.6 stops in its scf-to-cf pass on this
    # combine function; mgp turns the if into a select.
    if a == b:  # -inf and -inf (the masked columns) give -inf, not NaN
        r = a + 0.6931471805599453
    elif a > b:
        r = a + tl.log(1 + tl.exp(b - a))
    else:
        r = b + tl.log(1 + tl.exp(a - b))
    return r


@triton.jit
def _row_logsumexp_kernel(X, Y, n_cols, stride, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(X + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(Y + row, tl.reduce(x, 0, _logaddexp))


@triton.jit
def denormal_math_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # f32 functions around the denormal range: libdevice's (exp2, sqrt,
    # rsqrt, log2) follow enable_reflect_ftz, the others keep denormals.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    out = out_ptr + offs
    tl.store(out, tl.exp2(x), mask=mask)
    tl.store(out + n, tl.sqrt(tl.abs(y)), mask=mask)
    tl.store(out + 2 * n, tl.rsqrt(tl.abs(y)), mask=mask)
    tl.store(out + 3 * n, tl.log2(tl.abs(y)), mask=mask)
    tl.store(out + 4 * n, tl.exp(x), mask=mask)
    tl.store(out + 5 * n, tl.abs(y), mask=mask)
    tl.store(out + 6 * n, tl.maximum(x * 1e-30, y), mask=mask)
    tl.store(out + 7 * n, tl.minimum(x * 1e-30, y), mask=mask)
    tl.store(out + 8 * n, tl.fma(y, x, y), mask=mask)
    tl.store(out + 9 * n, tl.math.div_rn(y, x), mask=mask)
    tl.store(out + 10 * n, tl.math.sqrt_rn(tl.abs(y)), mask=mask)
    tl.store(out + 11 * n, y % x, mask=mask)
