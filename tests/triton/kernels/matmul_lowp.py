"""Low-precision and grouped matmuls: fp8 (e4m3) with per-tensor scales, int8
with int32 accumulation (small tiles and tensor-core tiles), a W8A8 matmul
with per-token and per-channel scales, a grouped GEMM over arrays of pointers, and a fused
mixture-of-experts matmul over tokens sorted by expert."""

import torch
import triton
import triton.language as tl


@triton.jit
def _matmul_fp8_kernel(A, B, C, scale_a, scale_b, M, N, K, stride_am, stride_bk, stride_cm,
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
        b = tl.load(B + (k0 + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        tl.static_assert(a.dtype == tl.float8e4nv)
        acc = tl.dot(a, b, acc)
    acc = acc * (tl.load(scale_a) * tl.load(scale_b))
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul_fp8(a_fp8, b_fp8, scale_a, scale_b):
    M, K = a_fp8.shape
    N = b_fp8.shape[1]
    c = torch.empty((M, N), dtype=torch.float16, device=a_fp8.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    _matmul_fp8_kernel[grid](a_fp8, b_fp8, c, scale_a, scale_b, M, N, K, a_fp8.stride(0),
                             b_fp8.stride(0), c.stride(0), BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    return c


@triton.jit
def _matmul_int8_kernel(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0)
        b = tl.load(B + (k0 + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(a, b, out_dtype=tl.int32)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul_int8(a, b):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=torch.int32, device=a.device)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    _matmul_int8_kernel[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                              BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
    return c


def matmul_int8_tc(a, b):
    """The same kernel at a tensor-core tile: 128x128x64 over 8 warps, three
    stages (wgmma on Hopper, mma.sync m16n8k32 on Ampere)."""
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=torch.int32, device=a.device)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    _matmul_int8_kernel[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                              BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
    return c


@triton.jit
def _w8a8_matmul_kernel(A, W, C, scale_a, scale_w, M, N, K, stride_am, stride_wn, stride_cm,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr):
    # W8A8: int8 activations [M, K] with a scale per token, int8 weights
    # [N, K] (K contiguous, as a linear layer stores them) with a scale per
    # output channel; int32 accumulation, fp16 output. Grouped tile order.
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :]
    w_ptrs = W + offs_n[None, :] * stride_wn + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0)
        w = tl.load(w_ptrs, mask=(offs_n[None, :] < N) & (offs_k[:, None] < k_left), other=0)
        acc = tl.dot(a, w, acc, out_dtype=tl.int32)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    sa = tl.load(scale_a + offs_m, mask=offs_m < M, other=0.0)
    sw = tl.load(scale_w + offs_n, mask=offs_n < N, other=0.0)
    out = acc.to(tl.float32) * sa[:, None] * sw[None, :]
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], out.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def w8a8_matmul(a, w, scale_a, scale_w):
    M, K = a.shape
    N = w.shape[0]
    c = torch.empty((M, N), dtype=torch.float16, device=a.device)
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 128),)
    _w8a8_matmul_kernel[grid](a, w, c, scale_a, scale_w, M, N, K, a.stride(0), w.stride(0),
                              c.stride(0), BLOCK_M=64, BLOCK_N=128, BLOCK_K=128, GROUP_M=8,
                              num_warps=4, num_stages=3)
    return c


@triton.jit
def _grouped_gemm_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_sizes, g_lds,
                         group_count, NUM_SM: tl.constexpr, BLOCK_M: tl.constexpr,
                         BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Persistent programs walk the tiles of every problem in turn; problem g
    # is (M, N, K) = group_sizes[3g:3g+3] with leading dims g_lds[3g:3g+3] and
    # its matrices at the addresses in the pointer arrays.
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_count):
        gm = tl.load(group_sizes + g * 3)
        gn = tl.load(group_sizes + g * 3 + 1)
        gk = tl.load(group_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_N)
        num_tiles = num_m_tiles * num_n_tiles
        while tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_in_problem = tile_idx - last_problem_end
            tile_m = tile_in_problem // num_n_tiles
            tile_n = tile_in_problem % num_n_tiles
            rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
            rk = tl.arange(0, BLOCK_K)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k0 in range(0, gk, BLOCK_K):
                a = tl.load(a_ptr + rm[:, None] * lda + (k0 + rk)[None, :],
                            mask=(rm[:, None] < gm) & ((k0 + rk)[None, :] < gk), other=0.0)
                b = tl.load(b_ptr + (k0 + rk)[:, None] * ldb + rn[None, :],
                            mask=((k0 + rk)[:, None] < gk) & (rn[None, :] < gn), other=0.0)
                acc += tl.dot(a, b)
            tl.store(c_ptr + rm[:, None] * ldc + rn[None, :], acc.to(tl.float16),
                     mask=(rm[:, None] < gm) & (rn[None, :] < gn))
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


def grouped_gemm(group_a, group_b, num_sm=4):
    device = group_a[0].device
    group_c = [torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=device)
               for a, b in zip(group_a, group_b)]
    sizes, lds = [], []
    for a, b, c in zip(group_a, group_b, group_c):
        sizes += [a.shape[0], b.shape[1], a.shape[1]]
        lds += [a.stride(0), b.stride(0), c.stride(0)]
    as_ptrs = lambda ts: torch.tensor([t.data_ptr() for t in ts], dtype=torch.int64,
                                      device=device)
    _grouped_gemm_kernel[(num_sm,)](as_ptrs(group_a), as_ptrs(group_b), as_ptrs(group_c),
                                    torch.tensor(sizes, dtype=torch.int32, device=device),
                                    torch.tensor(lds, dtype=torch.int32, device=device),
                                    len(group_a), NUM_SM=num_sm, BLOCK_M=32, BLOCK_N=32,
                                    BLOCK_K=32)
    return tuple(group_c)


@triton.jit
def _moe_matmul_kernel(A, B, C, TopkWeights, SortedTokenIds, ExpertIds, num_valid_tokens, N, K,
                       stride_am, stride_be, stride_bn, stride_bk, stride_cm,
                       TOP_K: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Rows of C are (token, choice) pairs: SortedTokenIds lists them grouped by
    # expert and padded per expert to BLOCK_M with num_valid_tokens; every
    # block of BLOCK_M rows has one expert (ExpertIds). B is [E, N, K].
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    token_ids = tl.load(SortedTokenIds + offs)
    token_mask = token_ids < num_valid_tokens
    expert = tl.load(ExpertIds + pid_m).to(tl.int64)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = A + (token_ids[:, None] // TOP_K) * stride_am + rk[None, :]
    b_ptrs = B + expert * stride_be + rn[None, :] * stride_bn + rk[:, None] * stride_bk
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k0 * BLOCK_K
        a = tl.load(a_ptrs, mask=token_mask[:, None] & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    if MUL_ROUTED_WEIGHT:
        w = tl.load(TopkWeights + token_ids, mask=token_mask, other=0.0)
        acc = acc * w[:, None]
    tl.store(C + token_ids[:, None] * stride_cm + rn[None, :], acc.to(C.dtype.element_ty),
             mask=token_mask[:, None] & (rn[None, :] < N))


def moe_align(topk_ids, num_experts, block_m):
    """(sorted (token, choice) ids padded per expert to block_m, expert of
    each block): the host-side alignment step."""
    flat = topk_ids.flatten().cpu()
    pad = flat.numel()
    sorted_ids, expert_ids = [], []
    for e in range(num_experts):
        ids = (flat == e).nonzero().flatten().tolist()
        if not ids:
            continue
        padded = ids + [pad] * (-len(ids) % block_m)
        sorted_ids += padded
        expert_ids += [e] * (len(padded) // block_m)
    return (torch.tensor(sorted_ids, dtype=torch.int32, device=topk_ids.device),
            torch.tensor(expert_ids, dtype=torch.int32, device=topk_ids.device))


def moe_matmul(a, w, topk_ids, topk_weights):
    # a: [T, K] fp16; w: [E, N, K] fp16; topk_ids/topk_weights: [T, top_k]
    T, K = a.shape
    E, N, _ = w.shape
    top_k = topk_ids.shape[1]
    BLOCK_M = 16
    sorted_ids, expert_ids = moe_align(topk_ids, E, BLOCK_M)
    c = torch.empty((T * top_k, N), dtype=a.dtype, device=a.device)
    grid = (expert_ids.numel(), triton.cdiv(N, 32))
    _moe_matmul_kernel[grid](a, w, c, topk_weights, sorted_ids, expert_ids, T * top_k, N, K,
                             a.stride(0), w.stride(0), w.stride(1), w.stride(2), c.stride(0),
                             TOP_K=top_k, MUL_ROUTED_WEIGHT=True, BLOCK_M=BLOCK_M, BLOCK_N=32,
                             BLOCK_K=32)
    return c.view(T, top_k, N)


@triton.jit
def _matmul_e4b15_kernel(A, B, C, M, N, K, stride_am, stride_bk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # float8e4b15 operands (Triton widens them to fp16 for the dot).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(A + rm[:, None] * stride_am + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * stride_bk + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul_e4b15(a_codes, b_codes):
    M, K = a_codes.shape
    N = b_codes.shape[1]
    c = torch.empty((M, N), dtype=torch.float32, device=a_codes.device)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    _matmul_e4b15_kernel[grid](triton.reinterpret(a_codes, tl.float8e4b15),
                               triton.reinterpret(b_codes, tl.float8e4b15), c, M, N, K,
                               a_codes.stride(0), b_codes.stride(0), c.stride(0),
                               BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c
