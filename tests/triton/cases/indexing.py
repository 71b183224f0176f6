"""Cases of kernels/indexing.py."""

import torch

from kernels import indexing as K

from .common import BLOCK_PTR_SKIP, EXACT, FP32, as_dtype, f64, randint, randn, register

register("indexing.transpose", K, "_transpose_kernel", "transpose",
         lambda g, m, n: [randn(g, m, n)], lambda x: x.t().contiguous(),
         shapes=[(64, 96), (50, 70), (33, 7)], check=EXACT)
register("indexing.transpose_strided", K, "_transpose_kernel", "transpose_strided",
         lambda g, m, n: [randn(g, m, n)], lambda x: x[:, ::2].t().contiguous(),
         shapes=[(40, 50), (17, 64)], check=EXACT)
register("indexing.embedding", K, "_embedding_kernel", "embedding",
         lambda g, n, v, d: [randint(g, 0, v, n, dtype=torch.int64), randn(g, v, d)],
         lambda ids, w: w[ids], shapes=[(50, 100, 48), (16, 30, 64), (7, 5, 100)], check=EXACT)


def _index_add_inputs(g, n, m, d):
    return [randn(g, m, d), randint(g, 0, m, n), randn(g, n, d)]


register("indexing.index_add_atomic", K, "_index_add_kernel", "index_add", _index_add_inputs,
         lambda out, idx, src: f64(out).index_add(0, idx.long(), f64(src)),
         shapes=[(40, 10, 70), (64, 64, 32)], check=FP32)
register("indexing.block_ptr_copy", K, "_block_ptr_copy_kernel", "block_ptr_double",
         lambda g, m, n: [randn(g, m, n)], lambda x: x * 2,
         shapes=[(48, 64), (37, 45), (5, 100)], check=EXACT, skip=BLOCK_PTR_SKIP)
register("indexing.flip", K, "_flip_rows_kernel", "flip_rows",
         lambda g, m, n: [randn(g, m, n)], lambda x: x.flip(1),
         shapes=[(4, 64), (6, 50), (3, 3)], check=EXACT)
register("indexing.pad2d", K, "_pad2d_kernel", "pad2d",
         lambda g, c, h, w, t, b, l, r: [randn(g, c, h, w), t, b, l, r, 0.5],
         lambda x, t, b, l, r, v: torch.nn.functional.pad(x, (l, r, t, b), value=v),
         shapes=[(3, 10, 12, 1, 2, 3, 0), (2, 17, 9, 0, 0, 4, 4)], check=EXACT)
register("indexing.causal_fill", K, "_causal_fill_kernel", "causal_fill",
         lambda g, m, n: [randn(g, m, n)],
         lambda x: x.masked_fill(torch.ones_like(x, dtype=torch.bool).triu(1), float("-inf")),
         shapes=[(16, 16), (10, 37)], check=EXACT)
register("indexing.one_hot", K, "_one_hot_kernel", "one_hot",
         lambda g, n, c: [randint(g, 0, c, n, dtype=torch.int64), c],
         lambda labels, c: torch.nn.functional.one_hot(labels, c),
         shapes=[(100, 10), (33, 64)], check=EXACT)
register("indexing.gather_dim1", K, "_gather_dim1_kernel", "gather_dim1",
         lambda g, m, n, k: [randn(g, m, n), randint(g, 0, n, m, k, dtype=torch.int64)],
         lambda x, idx: torch.gather(x, 1, idx), shapes=[(8, 100, 20), (5, 30, 64)],
         check=EXACT)
register("indexing.interleave", K, "_interleave_kernel", "interleave",
         lambda g, n: [randn(g, n), randn(g, n)],
         lambda a, b: torch.stack([a, b], 1).reshape(-1), shapes=[(256,), (200,)], check=EXACT)
register("indexing.split", K, "_deinterleave_kernel", "deinterleave",
         lambda g, n: [randn(g, 2 * n)], lambda x: (x[0::2], x[1::2]),
         shapes=[(128,), (77,)], check=EXACT)
register("indexing.join_complex_square", K, "_join_kernel", "complex_square",
         lambda g, n: [randn(g, n), randn(g, n)],
         lambda re, im: torch.view_as_real(torch.complex(f64(re), f64(im)) ** 2),
         shapes=[(128,), (90,)], check=FP32)
register("indexing.tensor_descriptor", K, "_desc_add_rows_kernel", "desc_add_rows",
         lambda g, m, n: [randn(g, m, n), randn(g, n)], lambda x, b: x + b,
         shapes=[(37, 44), (64, 64), (5, 100)], check=EXACT)


# Triton accepts fp16/bf16 descriptor max only with a native-TMA GPU driver
# active (semantic.py asks the driver, not the compile target). Rows are a
# multiple of 16 bytes, as TMA needs: with 88-byte rows (N = 44) Triton's
# reduction leaves most of the output untouched on the H200 (mgp has no such
# limit).
_NEEDS_TMA_DRIVER = "Triton's fp16/bf16 descriptor atomic_max asks the active GPU driver for TMA"
register("indexing.desc_atomic_max_fp16", K, "_desc_batch_max_kernel", "desc_batch_max",
         lambda g, b, m, n, dt: [randn(g, b, m, n, dtype=as_dtype(dt))],
         lambda x: x.max(dim=0).values,
         shapes=[(6, 37, 40, "fp16"), (3, 64, 64, "bf16"), (9, 5, 104, "fp16")], check=EXACT,
         skip={"triton-interp": _NEEDS_TMA_DRIVER, "triton-compile": _NEEDS_TMA_DRIVER})
# Rows of 38 fp16 (76 bytes) and 45 bf16 (90 bytes), read from a buffer whose
# rows are padded with data to the column blocks' end: mgp's vector atoms
# apply only to the groups that are aligned and whole (the padding must not
# reach Out), the rest run a compare-and-swap loop per element. Triton's TMA
# reduction needs rows that are a multiple of 16 bytes and computes wrong
# results here.
_NEEDS_TMA_ROWS = ("Triton's descriptor reductions are TMA ones, which need row strides that are a "
                   "multiple of 16 bytes (these are 76 and 90)")


def _padded_inputs(g, b, m, n, dt):
    return [randn(g, b, m, (n + 31) // 32 * 32, dtype=as_dtype(dt)), n]


register("indexing.desc_atomic_max_ragged", K, "_desc_padded_max_kernel", "desc_padded_max",
         _padded_inputs, lambda x, n: x[:, :, :n].max(dim=0).values,
         shapes=[(5, 19, 38, "fp16"), (4, 23, 45, "bf16")], check=EXACT,
         skip={"triton": _NEEDS_TMA_ROWS, "triton-interp": _NEEDS_TMA_DRIVER,
               "triton-compile": _NEEDS_TMA_DRIVER})

def _nf4_inputs(g, n, group):
    q = randint(g, 0, 256, (n + 1) // 2, dtype=torch.uint8)
    lut = torch.sort(randn(g, 16)).values
    return [q, lut, randn(g, (n + group - 1) // group).abs() + 0.1, n, group]


def _nf4_ref(q, lut, scale, n, group):
    codes = torch.stack([q & 0xF, q >> 4], dim=1).reshape(-1)[:n].long()
    return f64(lut[codes] * scale.repeat_interleave(group)[:n])


register("indexing.nf4_lut_gather", K, "_nf4_lut_dequant_kernel", "nf4_lut_dequant",
         _nf4_inputs, _nf4_ref, shapes=[(1000, 64), (256, 32), (77, 16)], check=FP32)


def _gather_rows_inputs(g, m, n):
    idx = torch.stack([torch.randperm(n, generator=g) for _ in range(m)]).to(torch.int32)
    return [randn(g, m, n), idx]


register("indexing.gather_rows", K, "_gather_rows_kernel", "gather_rows", _gather_rows_inputs,
         lambda x, idx: torch.gather(x, 1, idx.long()),
         shapes=[(16, 32), (13, 20), (8, 64)], check=EXACT)
register("indexing.gather_cols", K, "_gather_cols_kernel", "gather_cols",
         lambda g, k, n, r: [randint(g, -1000, 1000, k, n), randint(g, 0, k, r, n)],
         lambda x, idx: torch.gather(x, 0, idx.long()),
         shapes=[(16, 40, 8), (10, 64, 16), (3, 33, 5)], check=EXACT)
