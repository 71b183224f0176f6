"""The Triton tutorial-style kernels of triton_kernels.py (written with
`import triton`, the autotuned matmul included) through mgp.jit(...) on the
interpreter (MGP_INTERPRET=1) on NumPy arrays, against NumPy, on fresh random
inputs: the conversion of triton.jit and triton.autotune objects without a
GPU. Skipped, with the reason, when Triton is not installed."""
import os
import tempfile
import unittest
from unittest import mock

try:
    import numpy as np
    import triton
    import triton_kernels as T
except ImportError as e:
    raise unittest.SkipTest(f"Triton and NumPy are needed: {e}")

import mgp


class TritonKernelsOnTheInterpreter(unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng()

    def test_vector_add(self):
        n = 98432
        x = self.rng.standard_normal(n).astype(np.float32)
        y = self.rng.standard_normal(n).astype(np.float32)
        out = np.full(n, np.nan, np.float32)
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        mgp.jit(T.add_kernel)[grid](x, y, out, n, BLOCK_SIZE=1024)
        np.testing.assert_array_equal(out, x + y)

    def test_fused_softmax(self):
        rows, cols = 67, 781
        x = self.rng.standard_normal((rows, cols)).astype(np.float32)
        out = np.full_like(x, np.nan)
        mgp.jit(T.softmax_kernel)[(16,)](out, x, x.shape[1], out.shape[1], rows,
                                         cols, BLOCK_SIZE=1024)
        ref = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
        ref /= ref.sum(axis=1, keepdims=True)
        self.assertTrue(np.all(np.isfinite(out)))
        np.testing.assert_allclose(out, ref, rtol=2e-5, atol=1e-7)

    def test_layer_norm(self):
        m, n, eps = 13, 1500, 1e-5
        x = self.rng.standard_normal((m, n)).astype(np.float32)
        w = self.rng.standard_normal(n).astype(np.float32)
        b = self.rng.standard_normal(n).astype(np.float32)
        y = np.full_like(x, np.nan)
        mean = np.full(m, np.nan, np.float32)
        rstd = np.full(m, np.nan, np.float32)
        mgp.jit(T.layer_norm_fwd)[(m,)](x, y, w, b, mean, rstd, x.shape[1], n,
                                        eps, BLOCK_SIZE=512)
        x64 = x.astype(np.float64)
        ref = (x64 - x64.mean(1, keepdims=True)) / np.sqrt(
            x64.var(1, keepdims=True) + eps) * w + b
        self.assertTrue(np.all(np.isfinite(y)))
        np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(mean, x64.mean(1), rtol=1e-5, atol=1e-6)

    def test_autotuned_matmul(self):
        m, n, k = 96, 80, 72
        a = self.rng.standard_normal((m, k)).astype(np.float16)
        b = self.rng.standard_normal((k, n)).astype(np.float16)
        c = np.zeros((m, n), np.float16)
        with tempfile.TemporaryDirectory() as cache, \
                mock.patch.dict(os.environ, {"MGP_CACHE_DIR": cache}):
            kernel = mgp.jit(T.matmul_kernel)
            self.assertIsInstance(kernel, mgp.Autotuner)
            self.assertEqual(kernel.keys, ["M", "N", "K"])
            self.assertEqual(len(kernel.configs), 2)
            grid = lambda meta: (triton.cdiv(m, meta["BLOCK_SIZE_M"])
                                 * triton.cdiv(n, meta["BLOCK_SIZE_N"]),)
            kernel[grid](a, b, c, m, n, k, a.strides[0] // 2, a.strides[1] // 2,
                         b.strides[0] // 2, b.strides[1] // 2,
                         c.strides[0] // 2, c.strides[1] // 2)
        self.assertEqual(len(kernel.configs_timings), 2)
        ref = a.astype(np.float32) @ b.astype(np.float32)
        # fp16 inputs, fp32 accumulation, an fp16 result
        np.testing.assert_allclose(c.astype(np.float32), ref, rtol=2e-3, atol=2e-2)


if __name__ == "__main__":
    unittest.main()
