"""Matrix multiplication: the tutorial's autotuned grouped matmul with a fused
activation, fp32 with tf32 or ieee precision, persistent, split-K (atomics and
two-stage), batched, block pointers, fp8, int8, grouped GEMM over pointer
arrays, and a mixture-of-experts matmul over sorted tokens."""

import torch
import triton
import triton.language as tl

from .helpers import gelu_erf, grouped_pid, leaky_relu


def _configs():
    return [triton.Config({"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk,
                           "GROUP_SIZE_M": 4}, num_stages=s, num_warps=w)
            for bm, bn, bk, s, w in [(32, 32, 32, 3, 4), (64, 32, 32, 4, 4),
                                     (32, 64, 32, 4, 4)]]


@triton.autotune(configs=_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    # Grouped ordering: programs sweep GROUP_SIZE_M rows of tiles per column.
    tiles_per_group = GROUP_SIZE_M * num_pid_n
    group = pid // tiles_per_group
    first_pid_m = group * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % tiles_per_group) % group_size_m)
    pid_n = (pid % tiles_per_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - k * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    elif ACTIVATION == "gelu":
        acc = gelu_erf(acc)
    c = acc.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def matmul(a, b, activation=""):
    assert a.shape[1] == b.shape[0], "Incompatible dimensions"
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) *
                         triton.cdiv(N, META["BLOCK_SIZE_N"]), )
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), ACTIVATION=activation)
    return c


@triton.jit
def _linear_kernel(X, W, Bias, Y, M, N, K, stride_xm, stride_wn, stride_ym,
                   INPUT_PRECISION: tl.constexpr, HAS_BIAS: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # y = x @ w^T (+ bias), w stored [N, K] like nn.Linear.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        x = tl.load(X + rm[:, None] * stride_xm + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(W + rn[None, :] * stride_wn + kk[:, None],
                    mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(x, w, input_precision=INPUT_PRECISION)
    if HAS_BIAS:
        acc += tl.load(Bias + rn, mask=rn < N, other=0.0)[None, :]
    tl.store(Y + rm[:, None] * stride_ym + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def linear(x, w, bias, precision):
    M, K = x.shape
    N = w.shape[0]
    y = torch.empty((M, N), dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    _linear_kernel[grid](x, w, bias, y, M, N, K, x.stride(0), w.stride(0), y.stride(0),
                         INPUT_PRECISION=precision, HAS_BIAS=bias is not None, BLOCK_M=32,
                         BLOCK_N=32, BLOCK_K=32)
    return y


@triton.jit
def _persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                              stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                              BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                              GROUP_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    tl.assume(stride_am > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_cm > 0)
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = grouped_pid(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rm_c = tl.max_contiguous(tl.multiple_of(tl.where(rm < M, rm, 0), BLOCK_M), BLOCK_M)
        rn_c = tl.max_contiguous(tl.multiple_of(tl.where(rn < N, rn, 0), BLOCK_N), BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            rk = ki * BLOCK_K + tl.arange(0, BLOCK_K)
            a = tl.load(a_ptr + rm_c[:, None] * stride_am + rk[None, :] * stride_ak,
                        mask=rk[None, :] < K, other=0.0)
            b = tl.load(b_ptr + rk[:, None] * stride_bk + rn_c[None, :] * stride_bn,
                        mask=rk[:, None] < K, other=0.0)
            acc = tl.dot(a, b, acc)
        c = acc.to(c_ptr.dtype.element_ty)
        tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, c,
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


def persistent_matmul(a, b, num_sms=3):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    BLOCK_M, BLOCK_N = 32, 32
    tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    grid = (min(num_sms, tiles),)
    _persistent_matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                    b.stride(1), c.stride(0), c.stride(1), BLOCK_M=BLOCK_M,
                                    BLOCK_N=BLOCK_N, BLOCK_K=32, GROUP_SIZE_M=2,
                                    NUM_SMS=num_sms, num_warps=4)
    return c


@triton.jit
def _splitk_atomic_kernel(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // grid_n
    pid_n = pid % grid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_off = k * BLOCK_K * SPLIT_K
        a = tl.load(A + rm[:, None] * stride_am + (k_off + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k_off + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k_off + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k_off + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(C + rm[:, None] * stride_cm + rn[None, :], acc, mask=mask)


def splitk_matmul_atomic(a, b, split_k=4):
    M, K = a.shape
    N = b.shape[1]
    c = torch.zeros((M, N), dtype=torch.float32, device=a.device)
    grid = (triton.cdiv(M, 32) * triton.cdiv(N, 32), split_k)
    _splitk_atomic_kernel[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, SPLIT_K=split_k)
    return c


@triton.jit
def _splitk_partial_kernel(A, B, Partial, M, N, K, k_per_split, stride_am, stride_bk,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    split = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_start = split * k_per_split
    k_end = tl.minimum(k_start + k_per_split, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_start, k_end, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(A + rm[:, None] * stride_am + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < k_end), other=0.0)
        b = tl.load(B + rk[:, None] * stride_bk + rn[None, :],
                    mask=(rk[:, None] < k_end) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(Partial + split * M * N + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _splitk_reduce_kernel(Partial, C, MN, SPLITS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in tl.static_range(SPLITS):
        acc += tl.load(Partial + s * MN + offs, mask=offs < MN, other=0.0)
    tl.store(C + offs, acc.to(C.dtype.element_ty), mask=offs < MN)


def splitk_matmul_two_stage(a, b, splits=3):
    M, K = a.shape
    N = b.shape[1]
    k_per_split = triton.cdiv(triton.cdiv(K, splits), 32) * 32
    partial = torch.empty((splits, M, N), dtype=torch.float32, device=a.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32), splits)
    _splitk_partial_kernel[grid](a, b, partial, M, N, K, k_per_split, a.stride(0), b.stride(0),
                                 BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    _splitk_reduce_kernel[(triton.cdiv(M * N, 256),)](partial, c, M * N, SPLITS=splits,
                                                      BLOCK=256)
    return c


@triton.jit
def _bmm_kernel(A, B, C, M, N, K, stride_ab, stride_am, stride_ak, stride_bb, stride_bk,
                stride_bn, stride_cb, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2).to(tl.int64)
    A += batch * stride_ab
    B += batch * stride_bb
    C += batch * stride_cb
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * stride_am + (k0 + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
             acc.to(C.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


def bmm(a, b, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, **launch):
    Bt, M, K = a.shape
    N = b.shape[2]
    c = torch.empty((Bt, M, N), dtype=a.dtype, device=a.device)
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N), Bt)
    _bmm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), a.stride(2), b.stride(0),
                      b.stride(1), b.stride(2), c.stride(0), c.stride(1), c.stride(2),
                      BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, **launch)
    return c


def bmm_wide_k(a, b):
    # Hopper-sized tiles: a 128-element K tile (256-byte fp16 rows), 3 stages.
    return bmm(a, b, BLOCK_M=128, BLOCK_N=64, BLOCK_K=128, num_warps=4, num_stages=3)


@triton.jit
def _flat_persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk,
                                   stride_bn, stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                                   BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                   NUM_PROGRAMS: tl.constexpr):
    # The persistent tutorial's flattened form: one loop over (tile, k step)
    # pairs per program; a tile's offsets change at its first k step, and at
    # its last the accumulator is stored and reset.
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    my_tiles = num_tiles // NUM_PROGRAMS
    if pid < num_tiles % NUM_PROGRAMS:
        my_tiles += 1
    tile = pid - NUM_PROGRAMS
    ki = -1
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, k_tiles * my_tiles):
        ki = tl.where(ki == k_tiles - 1, 0, ki + 1)
        if ki == 0:
            tile += NUM_PROGRAMS
            rm = (tile // num_pid_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = (tile % num_pid_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        kk = ki * BLOCK_K + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        if ki == k_tiles - 1:
            tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
                     acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)


def flat_persistent_matmul(a, b):
    """a @ b by four programs, each looping over its tiles' k steps in one loop."""
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    _flat_persistent_matmul_kernel[(4,)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                         b.stride(1), c.stride(0), c.stride(1), BLOCK_M=32,
                                         BLOCK_N=32, BLOCK_K=16, NUM_PROGRAMS=4)
    return c


def flat_persistent_matmul_hopper(a, b):
    """The same kernel at a Hopper tile (128x128, two warp groups, a K tile of 128
    bytes: 64 16-bit or 32 fp32 elements), five programs."""
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    block_k = 32 if a.dtype == torch.float32 else 64
    _flat_persistent_matmul_kernel[(5,)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                         b.stride(1), c.stride(0), c.stride(1), BLOCK_M=128,
                                         BLOCK_N=128, BLOCK_K=block_k, NUM_PROGRAMS=5,
                                         num_warps=8, num_stages=3)
    return c


@triton.jit
def _head_scores_kernel(Q, K, S, H, M, N, D, stride_qh, stride_qm, stride_kh, stride_kn,
                        stride_sh, stride_sm, scale, HEADS: tl.constexpr, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    # Attention scores of HEADS heads at once with a 3-D (batched) dot:
    # S[h] = Q[h] @ K[h]^T * scale, one block of rows of each head per program.
    rh = tl.program_id(0) * HEADS + tl.arange(0, HEADS)
    rm = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rd = tl.arange(0, BLOCK_D)
    h3 = rh[:, None, None]
    q_mask = (h3 < H) & (rm[None, :, None] < M) & (rd[None, None, :] < D)
    q = tl.load(Q + h3 * stride_qh + rm[None, :, None] * stride_qm + rd[None, None, :],
                mask=q_mask, other=0.0)
    kt_mask = (h3 < H) & (rd[None, :, None] < D) & (rn[None, None, :] < N)
    kt = tl.load(K + h3 * stride_kh + rd[None, :, None] + rn[None, None, :] * stride_kn,
                 mask=kt_mask, other=0.0)
    s = tl.dot(q, kt) * scale
    s_mask = (h3 < H) & (rm[None, :, None] < M) & (rn[None, None, :] < N)
    tl.store(S + h3 * stride_sh + rm[None, :, None] * stride_sm + rn[None, None, :], s,
             mask=s_mask)


def head_scores(q, k):
    """q [H, M, D] @ k [H, N, D]^T / sqrt(D), fp32, two heads per program."""
    H, M, D = q.shape
    N = k.shape[1]
    s = torch.empty((H, M, N), dtype=torch.float32, device=q.device)
    block_n = max(16, triton.next_power_of_2(N))
    block_d = max(16, triton.next_power_of_2(D))
    grid = (triton.cdiv(H, 2), triton.cdiv(M, 32))
    _head_scores_kernel[grid](q, k, s, H, M, N, D, q.stride(0), q.stride(1), k.stride(0),
                              k.stride(1), s.stride(0), s.stride(1), D ** -0.5, HEADS=2,
                              BLOCK_M=32, BLOCK_N=block_n, BLOCK_D=block_d)
    return s


def bmm_transposed_b(a, bt):
    """a @ bt.transpose(1, 2) with bt stored [B, N, K]: strides do the work."""
    return bmm(a, bt.transpose(1, 2))


@triton.jit
def _matmul_block_ptr_kernel(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                             stride_cm, stride_cn, BLOCK_M: tl.constexpr,
                             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block = tl.make_block_ptr(A, shape=(M, K), strides=(stride_am, stride_ak),
                                offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K),
                                order=(1, 0))
    b_block = tl.make_block_ptr(B, shape=(K, N), strides=(stride_bk, stride_bn),
                                offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N),
                                order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, b)
        a_block = tl.advance(a_block, (0, BLOCK_K))
        b_block = tl.advance(b_block, (BLOCK_K, 0))
    c_block = tl.make_block_ptr(C, shape=(M, N), strides=(stride_cm, stride_cn),
                                offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
                                block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_block, acc.to(tl.float16), boundary_check=(0, 1))


def matmul_block_ptr(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=torch.float16, device=a.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    _matmul_block_ptr_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                   b.stride(1), c.stride(0), c.stride(1), BLOCK_M=32,
                                   BLOCK_N=32, BLOCK_K=32)
    return c
