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


class BranchingCombineFunction(unittest.TestCase):
    """tl.reduce with a combine function whose if computes on both sides
    (which Triton 3.6 cannot compile): a row logsumexp against NumPy."""

    def test_row_logsumexp(self):
        rng = np.random.default_rng()
        rows, cols = 9, 300
        # Spread wide enough that the wrong side of the if overflows exp().
        x = (rng.standard_normal((rows, cols)) * 60).astype(np.float32)
        y = np.full(rows, np.nan, np.float32)
        mgp.jit(T._row_logsumexp_kernel)[(rows,)](x, y, cols, x.strides[0] // 4,
                                                  BLOCK_SIZE=512)
        x64 = x.astype(np.float64)
        top = x64.max(axis=1)
        ref = top + np.log(np.exp(x64 - top[:, None]).sum(axis=1))
        self.assertTrue(np.all(np.isfinite(y)))
        np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)


class DotScaledBeyondTriton36OnHopper(unittest.TestCase):
    """tl.dot_scaled forms Triton 3.6 cannot compile for sm_90 (an e2m1
    operand packed along M, fp8 scales, a batched dot_scaled with scales):
    mgp's interpreter against a float64 decode in PyTorch."""

    E2M1 = [0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6]

    def setUp(self):
        try:
            import torch
        except ImportError as e:
            self.skipTest(f"PyTorch is needed: {e}")
        self.torch = torch
        self.gen = torch.Generator().manual_seed(int.from_bytes(os.urandom(4), "little"))
        self.lut = torch.tensor(self.E2M1, dtype=torch.float64)

    def decode(self, packed, axis):
        torch = self.torch
        pair = torch.stack([self.lut[(packed & 15).long()], self.lut[(packed >> 4).long()]],
                           dim=axis + 1)
        shape = list(packed.shape)
        shape[axis] *= 2
        return pair.reshape(shape)

    def bytes(self, *shape, lo=0, hi=256):
        return self.torch.randint(lo, hi, shape, generator=self.gen).to(self.torch.uint8)

    def test_e2m1_packed_along_m_with_fast_math(self):
        torch = self.torch
        m, n, k = 64, 32, 128
        a, sa = self.bytes(m // 2, k), self.bytes(m, k // 32, lo=118, hi=136)
        b = (torch.randn(k, n, generator=self.gen) * 3).to(torch.float8_e4m3fn)
        sb = self.bytes(n, k // 32, lo=118, hi=136)
        out = torch.full((m, n), float("nan"))
        mgp.jit(T._mxfp4_m_packed_kernel)[(1,)](a, sa, b, sb, out, m, n, k)
        scale = lambda s: torch.pow(2.0, s.double() - 127).repeat_interleave(32, dim=1)
        ref = (self.decode(a, 0) * scale(sa)) @ (b.double() * scale(sb).T)
        self.assertTrue(torch.isfinite(out).all())
        torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-5 * ref.abs().max())

    def test_batched_with_scales(self):
        torch = self.torch
        b, m, n, k = 2, 32, 16, 64
        x = torch.randn(b, m, k, generator=self.gen).to(torch.bfloat16)
        w, s = self.bytes(b, k // 2, n), self.bytes(b, n, k // 32, lo=118, hi=136)
        out = torch.full((b, m, n), float("nan"))
        mgp.jit(T._batched_mxfp4_kernel)[(1,)](x, w, s, out, b, m, n, k)
        scale = torch.pow(2.0, s.double() - 127).repeat_interleave(32, dim=2)
        ref = x.double() @ (self.decode(w, 1) * scale.transpose(1, 2))
        self.assertTrue(torch.isfinite(out).all())
        torch.testing.assert_close(out.double(), ref, rtol=1e-5, atol=1e-5 * ref.abs().max())

    def test_fp8_scales_over_16_and_a_nan_scale(self):
        torch = self.torch
        m, n, k = 32, 64, 128
        a, b = self.bytes(m, k // 2), self.bytes(k // 2, n)
        sa = (torch.rand(m, k // 16, generator=self.gen, dtype=torch.float64) * 2 + 0.25)
        sb = (torch.rand(n, k // 16, generator=self.gen, dtype=torch.float64) * 2 + 0.25)
        sa, sb = sa.to(torch.float8_e4m3fn), sb.to(torch.float8_e4m3fn)
        sa[5, 3] = float("nan")
        out = torch.zeros(m, n)
        mgp.jit(T._nvfp4_style_kernel)[(1,)](a, sa, b, sb, out, m, n, k)
        # The scaled operands are rounded to bf16 (the compute type) first.
        av = (self.decode(a, 1) * sa.double().repeat_interleave(16, dim=1)).to(torch.bfloat16)
        bv = (self.decode(b, 0) * sb.double().repeat_interleave(16, dim=1).T).to(torch.bfloat16)
        ref = av.double() @ bv.double()
        self.assertTrue(torch.isnan(out[5]).all())
        rows = [i for i in range(m) if i != 5]
        self.assertTrue(torch.isfinite(out[rows]).all())
        torch.testing.assert_close(out[rows].double(), ref[rows], rtol=1e-5,
                                   atol=1e-5 * ref[rows].abs().max())
