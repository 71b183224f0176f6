"""Cases of kernels/reductions.py."""

import torch

from kernels import reductions as K

from .common import EXACT, FP32, FP32_LOOSE, Close, f64, randint, randn, register

register("reductions.row_sum", K, "_row_sum_kernel", "row_sum",
         lambda g, m, n: [randn(g, m, n)], lambda x: f64(x).sum(1),
         shapes=[(16, 100), (5, 512), (3, 1000)], check=FP32_LOOSE)
register("reductions.row_sum_strided", K, "_row_sum_kernel", "row_sum",
         lambda g, m, n: [randn(g, n, m).t()], lambda x: f64(x).sum(1),
         shapes=[(8, 60), (4, 33)], check=FP32_LOOSE)
register("reductions.col_sum", K, "_col_sum_kernel", "col_sum",
         lambda g, m, n: [randn(g, m, n)], lambda x: f64(x).sum(0),
         shapes=[(100, 70), (37, 32), (5, 100)], check=FP32_LOOSE)
register("reductions.row_max_indices", K, "_row_max_kernel", "row_max",
         lambda g, m, n: [randn(g, m, n)],
         lambda x: (x.max(1).values, x.max(1).indices.int()),
         shapes=[(16, 100), (4, 1000), (7, 3)], check=EXACT)
register("reductions.row_argmin", K, "_row_argmin_kernel", "row_argmin",
         lambda g, m, n: [randn(g, m, n)], lambda x: x.argmin(1),
         shapes=[(16, 100), (4, 513)], check=EXACT)
register("reductions.welford", K, "_welford_var_kernel", "welford_var",
         lambda g, m, n: [randn(g, m, n, scale=3.0, shift=5.0)],
         lambda x: (f64(x).mean(1), f64(x).var(1, unbiased=False)),
         shapes=[(4, 1000), (3, 64), (5, 130)], check=FP32_LOOSE)
register("reductions.sum_atomic", K, "_sum_atomic_kernel", "sum_atomic",
         lambda g, n: [randn(g, n)], lambda x: f64(x).sum().reshape(1),
         shapes=[(10000,), (300,)], check=Close(1e-5, 1e-4))
register("reductions.norm_two_stage", K, ("_partial_sum_kernel", "_final_sum_kernel"),
         "norm_two_stage", lambda g, n: [randn(g, n)],
         lambda x: f64(x).norm().reshape(1), shapes=[(10000,), (4097,), (5,)],
         check=FP32_LOOSE)
register("reductions.l2_normalize", K, "_l2norm_rows_kernel", "l2_normalize",
         lambda g, m, n: [randn(g, m, n)],
         lambda x: torch.nn.functional.normalize(f64(x), dim=1),
         shapes=[(4, 1000), (8, 100)], check=FP32)
register("reductions.l2_normalize_fp16", K, "_l2norm_rows_kernel", "l2_normalize",
         lambda g, m, n: [randn(g, m, n, dtype=torch.float16)],
         lambda x: torch.nn.functional.normalize(f64(x), dim=1).half(),
         shapes=[(4, 300)], check=Close(1e-2, 1e-3))
register("reductions.int_row_sum", K, "_int_sum_kernel", "int_row_sum",
         lambda g, m, n: [randint(g, -1000, 1000, m, n)], lambda x: x.sum(1).int(),
         shapes=[(20, 30), (64, 128), (3, 5)], check=EXACT)
register("reductions.reduce_combine_prod", K, "_row_prod_kernel", "row_prod",
         lambda g, m, n: [randn(g, m, n, scale=0.05, shift=1.0)], lambda x: f64(x).prod(1),
         shapes=[(8, 64), (4, 100)], check=Close(1e-5, 1e-6))
register("reductions.count_nonzero_atomic", K, "_count_nonzero_kernel", "count_nonzero",
         lambda g, n: [randint(g, -2, 3, n)], lambda x: (x != 0).sum().int().reshape(1),
         shapes=[(1000,), (77,)], check=EXACT)
register("reductions.absmax_atomic_max", K, "_absmax_atomic_kernel", "absmax",
         lambda g, n: [randn(g, n)], lambda x: x.abs().max().reshape(1),
         shapes=[(1000,), (4099,)], check=EXACT)
register("reductions.spatial_mean_keep_dims", K, "_mean_keepdims_kernel", "spatial_mean",
         lambda g, n, c, h, w: [randn(g, n, c, h, w)], lambda x: f64(x).mean((2, 3)),
         shapes=[(2, 3, 10, 10), (1, 16, 7, 7)], check=FP32)
