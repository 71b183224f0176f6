"""Cases of kernels/dropout.py: the masks against Triton's Philox in NumPy."""

import numpy as np
import torch

from kernels import dropout as K

from . import philox
from .common import EXACT, FP16, FP32, Close, f64, rand, randn, register


def _scaled(x, keep, p):
    x = x.numpy()
    return torch.from_numpy(np.where(keep, x.astype(np.float64) / (1 - p), 0.0))


register("dropout.with_mask", K, "_dropout_mask_kernel", "dropout_with_mask",
         lambda g, n, p: [randn(g, n), rand(g, n) > p, p],
         lambda x, keep, p: _scaled(x, keep.numpy(), p),
         shapes=[(1000, 0.5), (5000, 0.1)], check=FP32)
register("dropout.seeded_rand", K, "_seeded_dropout_kernel", "seeded_dropout",
         lambda g, n, p, seed: [randn(g, n), p, seed],
         lambda x, p, seed: _scaled(x, philox.rand(seed, np.arange(x.numel())) > np.float32(p), p),
         shapes=[(1000, 0.5, 123), (3000, 0.25, 2**40 + 7), (100, 0.9, 0)], check=FP32)


def _threshold_ref(x, p, seed):
    bits = philox.philox4x32(seed, np.arange(x.numel()))[0]
    keep = bits.astype(np.uint64) >= np.uint64(int(p * 2**31) * 2)
    return torch.from_numpy(np.where(keep, f64(x).numpy() / (1 - p), 0.0))


register("dropout.randint_threshold", K, "_dropout_threshold_kernel", "dropout_threshold",
         lambda g, n, p, seed: [randn(g, n), p, seed], _threshold_ref,
         shapes=[(1000, 0.5, 42), (777, 0.75, 9)], check=FP32)
register("dropout.randint_threshold_fp16", K, "_dropout_threshold_kernel", "dropout_threshold",
         lambda g, n, p, seed: [randn(g, n, dtype=torch.float16), p, seed], _threshold_ref,
         shapes=[(1000, 0.3, 5)], check=FP16)
register("dropout.randn", K, "_randn_kernel", "randn_host",
         lambda g, n, seed: [torch.empty(n), seed],
         lambda x, seed: torch.from_numpy(0.5 + 2.0 * philox.randn(seed, np.arange(x.numel()))),
         shapes=[(1000, 7), (300, 12345)], check=Close(1e-5, 1e-4))


def _dropout4x_ref(x, p, seed, block=128):
    n = x.numel()
    out = np.zeros(n)
    xs = f64(x).numpy()
    for pid in range(-(-n // (4 * block))):
        streams = philox.rand4x(seed, pid * block + np.arange(block))
        for j, r in enumerate(streams):
            idx = pid * 4 * block + j * block + np.arange(block)
            ok = idx < n
            out[idx[ok]] = np.where(r[ok] > np.float32(p), xs[idx[ok]] / (1 - p), 0.0)
    return torch.from_numpy(out)


register("dropout.rand4x", K, "_dropout4x_kernel", "dropout4x",
         lambda g, n, p, seed: [randn(g, n), p, seed], _dropout4x_ref,
         shapes=[(1000, 0.5, 3), (512, 0.2, 11)], check=FP32)
