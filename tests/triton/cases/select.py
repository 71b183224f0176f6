"""Cases of kernels/select.py."""

import torch

from kernels import select as K

from .common import EXACT, randint, randn, register


def _distinct_rows(g, m, n):
    """Rows of distinct values (a random permutation of a spread grid)."""
    base = torch.linspace(-3, 3, n, dtype=torch.float64)
    return torch.stack([base[torch.randperm(n, generator=g)] for _ in range(m)]).float()


register("select.histogram", K, "_histogram_kernel", "histogram",
         lambda g, n, bins: [randint(g, 0, bins, n), bins],
         lambda x, bins: torch.bincount(x.long(), minlength=bins).int(),
         shapes=[(1000, 16), (4096, 64), (77, 8)], check=EXACT)
register("select.histc_atomic", K, "_histc_kernel", "histc",
         lambda g, n, bins: [randn(g, n), bins, -2.0, 2.0],
         lambda x, bins, lo, hi: torch.histc(x, bins, lo, hi).int(),
         shapes=[(1000, 10), (5000, 33)], check=EXACT)
register("select.topk_argmax", K, "_topk_argmax_kernel", "topk_argmax",
         lambda g, m, n, k: [_distinct_rows(g, m, n), k],
         lambda x, k: tuple(torch.topk(x, k, 1)), shapes=[(4, 100, 5), (3, 64, 8), (2, 9, 3)],
         check=EXACT)
register("select.topk_sort_packed", K, "_topk_sort_kernel", "topk_sort",
         lambda g, m, n, k: [_distinct_rows(g, m, n), k],
         lambda x, k: tuple(torch.topk(x, k, 1)), shapes=[(4, 100, 5), (3, 64, 16)],
         check=EXACT)
register("select.sort_rows", K, "_sort_rows_kernel", "sort_rows",
         lambda g, m, n, desc: [randn(g, m, n), desc],
         lambda x, desc: torch.sort(x, 1, descending=desc).values,
         shapes=[(4, 100, True), (3, 64, False), (2, 5, False)], check=EXACT)
register("select.sort_uint8", K, "_sort_bytes_kernel", "sort_bytes",
         lambda g, m, n, desc: [randint(g, 0, 256, m, n, dtype=torch.uint8), desc],
         lambda x, desc: torch.sort(x, 1, descending=desc).values,
         shapes=[(4, 100, False), (3, 64, True), (2, 5, False)], check=EXACT)
register("select.expert_counts", K, "_expert_counts_kernel", "expert_counts",
         lambda g, n, e: [randint(g, 0, e, n), e],
         lambda ids, e: torch.bincount(ids.long(), minlength=e).int(),
         shapes=[(1000, 8), (130, 64)], check=EXACT)
