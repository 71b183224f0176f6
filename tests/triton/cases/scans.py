"""Cases of kernels/scans.py."""

import torch

from kernels import scans as K

from .common import EXACT, FP32_LOOSE, Close, f64, rand, randint, randn, register

register("scans.cumsum_rows", K, "_cumsum_rows_kernel", "cumsum_rows",
         lambda g, m, n: [randn(g, m, n)], lambda x: f64(x).cumsum(1),
         shapes=[(8, 100), (5, 64), (3, 1)], check=FP32_LOOSE)
register("scans.cumsum_long_carry", K, "_cumsum_long_kernel", "cumsum_long",
         lambda g, m, n: [randn(g, m, n)], lambda x: f64(x).cumsum(1),
         shapes=[(3, 1000), (2, 128), (4, 77)], check=Close(1e-4, 1e-4))
register("scans.reverse_cumsum", K, "_reverse_cumsum_kernel", "reverse_cumsum",
         lambda g, m, n: [randn(g, m, n)], lambda x: f64(x).flip(1).cumsum(1).flip(1),
         shapes=[(4, 100), (2, 256)], check=FP32_LOOSE)


def _offsets_ref(counts):
    inc = counts.cumsum(0)
    return (inc - counts).to(counts.dtype), inc[-1:].to(counts.dtype)


register("scans.exclusive_offsets_int", K, "_exclusive_offsets_kernel", "exclusive_offsets",
         lambda g, n: [randint(g, 0, 1000, n)], _offsets_ref,
         shapes=[(8,), (60,), (256,)], check=EXACT)


def _compact_ref(x, threshold):
    kept = x[x > threshold]
    out = torch.zeros_like(x)
    out[:kept.numel()] = kept
    return out, torch.tensor([kept.numel()], dtype=torch.int32)


register("scans.compact_bool_cumsum", K, "_compact_above_kernel", "compact_above",
         lambda g, n: [randn(g, n), 0.25], _compact_ref,
         shapes=[(100,), (512,), (7,)], check=EXACT)
register("scans.running_max_combine", K, "_running_max_kernel", "running_max",
         lambda g, m, n: [randint(g, -10**6, 10**6, m, n)], lambda x: x.cummax(1).values,
         shapes=[(4, 100), (3, 512)], check=EXACT)
register("scans.cumprod_cols", K, "_cumprod_cols_kernel", "cumprod_cols",
         lambda g, m, n: [randn(g, m, n, scale=0.05, shift=1.0)], lambda x: f64(x).cumprod(0),
         shapes=[(50, 40), (16, 16)], check=Close(1e-5, 1e-6))


def _recurrence_ref(a, b):
    a, b = f64(a), f64(b)
    h = torch.zeros_like(a)
    state = torch.zeros(a.shape[0], dtype=torch.float64)
    for t in range(a.shape[1]):
        state = a[:, t] * state + b[:, t]
        h[:, t] = state
    return h


register("scans.linear_recurrence_tuple", K, "_linear_recurrence_kernel", "linear_recurrence",
         lambda g, m, l: [rand(g, m, l, lo=0.5, hi=1.0), randn(g, m, l)], _recurrence_ref,
         shapes=[(3, 200), (2, 64), (4, 30)], check=Close(1e-4, 1e-5))


def _backward_recurrence_ref(a, b):
    h = torch.empty_like(a)
    state = torch.zeros_like(a[:, 0])
    for t in range(a.shape[1] - 1, -1, -1):
        state = a[:, t] * state + b[:, t]
        h[:, t] = state
    return h


register("scans.backward_recurrence_reverse", K, "_backward_recurrence_kernel",
         "backward_recurrence",
         lambda g, m, l: [rand(g, m, l, lo=0.5, hi=1.0), randn(g, m, l)], _backward_recurrence_ref,
         shapes=[(3, 200), (2, 64), (4, 30)], check=Close(1e-4, 1e-5))
