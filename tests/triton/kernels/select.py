"""Counting and selection: histograms (tl.histogram per block merged with
atomics; float binning with atomic_add), top-k by repeated argmax and by
sorting packed (value, index) keys, and row sorts with tl.sort."""

import torch
import triton
import triton.language as tl


@triton.jit
def _histogram_kernel(X, Bins, N, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0)
    hist = tl.histogram(x, NUM_BINS)
    # The masked tail was counted in bin 0: take it back.
    n_valid = tl.minimum(N - pid * BLOCK, BLOCK)
    bins = tl.arange(0, NUM_BINS)
    hist = hist - tl.where(bins == 0, BLOCK - n_valid, 0)
    tl.atomic_add(Bins + bins, hist)


def histogram(x, num_bins):
    N = x.numel()
    bins = torch.zeros(num_bins, dtype=torch.int32, device=x.device)
    _histogram_kernel[(triton.cdiv(N, 256),)](x, bins, N, NUM_BINS=num_bins, BLOCK=256)
    return bins


@triton.jit
def _histc_kernel(X, Bins, N, lo, hi, num_bins, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=0.0)
    inside = (offs < N) & (x >= lo) & (x <= hi)
    b = ((x - lo) * (num_bins / (hi - lo))).to(tl.int32)
    b = tl.minimum(tl.maximum(b, 0), num_bins - 1)
    tl.atomic_add(Bins + b, 1, mask=inside)


def histc(x, num_bins, lo, hi):
    N = x.numel()
    bins = torch.zeros(num_bins, dtype=torch.int32, device=x.device)
    _histc_kernel[(triton.cdiv(N, 512),)](x, bins, N, lo, hi, num_bins, BLOCK=512)
    return bins


@triton.jit
def _topk_argmax_kernel(X, Values, Indices, N, stride, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=-float("inf"))
    for i in tl.static_range(K):
        value, index = tl.max(x, axis=0, return_indices=True)
        tl.store(Values + row * K + i, value)
        tl.store(Indices + row * K + i, index.to(tl.int64))
        x = tl.where(cols == index, -float("inf"), x)


def topk_argmax(x, k):
    M, N = x.shape
    values = torch.empty((M, k), dtype=x.dtype, device=x.device)
    indices = torch.empty((M, k), dtype=torch.int64, device=x.device)
    _topk_argmax_kernel[(M,)](x, values, indices, N, x.stride(0), K=k,
                              BLOCK=triton.next_power_of_2(N))
    return values, indices


@triton.jit
def _topk_sort_kernel(X, Values, Indices, N, stride, K: tl.constexpr, BLOCK: tl.constexpr):
    # Sort int64 keys (order-preserving int32 image of the float bits) << 32
    # | (BLOCK - 1 - index): descending order, the lower index first on ties.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=-float("inf"))
    bits = x.to(tl.int32, bitcast=True)
    ordered = bits ^ ((bits >> 31) & 0x7FFFFFFF)
    keys = (ordered.to(tl.int64) << 32) | (BLOCK - 1 - cols).to(tl.int64)
    keys = tl.sort(keys, descending=True)
    index = BLOCK - 1 - (keys & 0xFFFFFFFF).to(tl.int32)
    top = tl.load(X + row * stride + index, mask=cols < K)
    tl.store(Values + row * K + cols, top, mask=cols < K)
    tl.store(Indices + row * K + cols, index.to(tl.int64), mask=cols < K)


def topk_sort(x, k):
    M, N = x.shape
    values = torch.empty((M, k), dtype=x.dtype, device=x.device)
    indices = torch.empty((M, k), dtype=torch.int64, device=x.device)
    _topk_sort_kernel[(M,)](x, values, indices, N, x.stride(0), K=k,
                            BLOCK=triton.next_power_of_2(N))
    return values, indices


@triton.jit
def _sort_rows_kernel(X, Y, N, stride, DESCENDING: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    pad = -float("inf") if DESCENDING else float("inf")
    x = tl.load(X + row * stride + cols, mask=cols < N, other=pad)
    tl.store(Y + row * stride + cols, tl.sort(x, descending=DESCENDING), mask=cols < N)


@triton.jit
def _sort_bytes_kernel(X, Y, N, stride, DESCENDING: tl.constexpr, BLOCK: tl.constexpr):
    # uint8 keys sort as unsigned: 200 comes after 100; padding takes the
    # extreme of the order (0 or 255), so it sorts past every real key.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=0 if DESCENDING else 255)
    tl.store(Y + row * stride + cols, tl.sort(x, descending=DESCENDING), mask=cols < N)


def sort_bytes(x, descending):
    M, N = x.shape
    y = torch.empty_like(x)
    _sort_bytes_kernel[(M,)](x, y, N, x.stride(0), DESCENDING=descending,
                             BLOCK=triton.next_power_of_2(N))
    return y


def sort_rows(x, descending):
    M, N = x.shape
    y = torch.empty_like(x)
    _sort_rows_kernel[(M,)](x, y, N, x.stride(0), DESCENDING=descending,
                            BLOCK=triton.next_power_of_2(N))
    return y


@triton.jit
def _expert_counts_kernel(TopkIds, Counts, n, NUM_EXPERTS: tl.constexpr, BLOCK: tl.constexpr):
    # Tokens routed to each expert: a one-hot compare and a column sum.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ids = tl.load(TopkIds + offs, mask=offs < n, other=-1)
    experts = tl.arange(0, NUM_EXPERTS)
    hits = (ids[:, None] == experts[None, :]).to(tl.int32)
    tl.atomic_add(Counts + experts, tl.sum(hits, axis=0), sem="relaxed")


def expert_counts(topk_ids, num_experts):
    n = topk_ids.numel()
    counts = torch.zeros(num_experts, dtype=torch.int32, device=topk_ids.device)
    _expert_counts_kernel[(triton.cdiv(n, 128),)](topk_ids, counts, n,
                                                  NUM_EXPERTS=num_experts, BLOCK=128)
    return counts
