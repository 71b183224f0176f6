"""On a GPU (label gpu): Triton tutorial-style kernels written once with
`import triton` (triton_kernels.py) launched by Triton and through
mgp.jit(...) on the same PyTorch CUDA tensors, every output compared with
Triton's and with PyTorch's; mgp's own kernels against PyTorch; the launch on
PyTorch's current stream; the GPU-side argument errors. Skipped (exit 77)
without PyTorch or a CUDA device; the Triton comparisons are skipped, with
the reason, when Triton is not installed."""
import unittest

import ctypes

import mgp
from mgp import _lib

# Skipped only without a GPU: mgp counts 0 devices (no driver library, no
# device). A driver that is there but fails raises here, and fails.
_count = ctypes.c_int(0)
_lib.check(_lib.lib.mgp_device_count(ctypes.byref(_count)))
if _count.value == 0:
    raise unittest.SkipTest("no GPU (no CUDA driver or device)")
try:
    import torch
except ImportError:
    raise unittest.SkipTest("PyTorch is not installed")
if not torch.cuda.is_available():
    raise RuntimeError("mgp sees a GPU but torch.cuda.is_available() is False")

import mgp_kernels as K

try:
    import triton
    import triton_kernels as T
    TRITON_MISSING = None
except ImportError as e:  # the mgp-vs-PyTorch tests still run
    triton, T = None, None
    TRITON_MISSING = f"Triton is not installed ({e})"

needs_triton = unittest.skipIf(triton is None, TRITON_MISSING)


def rand(*shape, dtype=torch.float32):
    return torch.randn(*shape, device="cuda", dtype=dtype)


def assert_close(test, got, want, rtol, atol):
    test.assertTrue(torch.isfinite(got).all().item(), "NaN/Inf in the result")
    torch.testing.assert_close(got, want, rtol=rtol, atol=atol)


class MgpAgainstTorch(unittest.TestCase):
    def test_vector_add_exact(self):
        for n in (1, 98432, 1 << 20):
            x, y = rand(n), rand(n)
            out = torch.full_like(x, float("nan"))
            K.add_kernel[(triton_cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
            self.assertTrue(torch.equal(out, x + y), f"n={n}")

    def test_softmax_and_layer_norm(self):
        x = rand(123, 781)
        out = torch.empty_like(x)
        K.softmax_kernel[(123,)](out, x, x.stride(0), out.stride(0), 781, BLOCK=1024)
        assert_close(self, out, torch.softmax(x, dim=1), 1e-5, 1e-6)
        w, b = rand(1000), rand(1000)
        x = rand(64, 1000)
        y = torch.empty_like(x)
        mean = torch.empty(64, device="cuda")
        rstd = torch.empty(64, device="cuda")
        K.layer_norm_kernel[(64,)](x, y, w, b, mean, rstd, x.stride(0), 1000, 1e-5,
                                   BLOCK_SIZE=256)
        ref = torch.nn.functional.layer_norm(x, (1000,), w, b, 1e-5)
        assert_close(self, y, ref, 1e-4, 1e-5)

    def test_current_stream(self):
        n = 1 << 22
        x, y = rand(n), rand(n)
        out = torch.zeros_like(x)
        stream = torch.cuda.Stream()
        torch.cuda.synchronize()
        with torch.cuda.stream(stream):
            K.add_kernel[(n // 1024,)](x, y, out, n, BLOCK=1024)
            done = out.clone()  # ordered after the kernel on the same stream
        stream.synchronize()
        self.assertTrue(torch.equal(done, x + y))

    def test_gpu_argument_errors(self):
        x, y, out = rand(64), rand(64), rand(64)
        with self.assertRaisesRegex(ValueError, "argument 'x_ptr': a CPU tensor "
                                                "cannot be passed to a GPU kernel"):
            K.add_kernel[(1,)](x.cpu(), y, out, 64, BLOCK=64)
        with self.assertRaisesRegex(ValueError, "argument 'y_ptr': ndarray is host"):
            K.add_kernel[(1,)](x, y.cpu().numpy(), out, 64, BLOCK=64)
        with self.assertRaisesRegex(ValueError, "empty dimension"):
            K.add_kernel[(0,)](x, y, out, 64, BLOCK=64)
        if torch.cuda.device_count() > 1:
            other = rand(64).to("cuda:1")
            with self.assertRaisesRegex(ValueError, "is on cuda:1"):
                K.add_kernel[(1,)](x, y, other, 64, BLOCK=64)

    def test_ptx_of_the_device(self):
        compiled = K.add_kernel.warmup(torch.float32, torch.float32, torch.float32,
                                       4096, BLOCK=1024, grid=(4,))
        self.assertIn(".entry add_kernel", compiled.asm["ptx"])


class TensorDescriptorsThroughTma(unittest.TestCase):
    """Host TensorDescriptors on a GPU of compute capability 9.0 or newer:
    views that follow TMA's rules load and store blocks with
    cp.async.bulk.tensor (mgp/_tensor_map.py), others with masked loads;
    every result against PyTorch, exact for copies."""

    def setUp(self):
        try:
            from triton.tools.tensor_descriptor import TensorDescriptor
        except ImportError:
            self.skipTest("triton.tools.tensor_descriptor is not installed")
        self.TD = TensorDescriptor
        self.tma = torch.cuda.get_device_capability() >= (9, 0)

    def assert_tma(self, kernel, expected):
        uses = "cp.async.bulk.tensor" in kernel.asm["ptx"]
        self.assertEqual(uses, expected and self.tma)

    def test_ragged_tiles_every_dtype(self):
        TD = self.TD
        cases = [(torch.float16, (100, 72), (32, 64)), (torch.bfloat16, (37, 40), (16, 8)),
                 (torch.float32, (5, 100), (8, 32)), (torch.int8, (70, 48), (64, 16)),
                 (torch.float32, (64, 64), (64, 64))]
        for dtype, (m, n), (bm, bn) in cases:
            with self.subTest(dtype=dtype, shape=(m, n), block=(bm, bn)):
                if dtype == torch.int8:
                    x = torch.randint(-100, 100, (m, n), device="cuda", dtype=dtype)
                else:
                    x = rand(m, n, dtype=dtype)
                # y: the top-left of a larger NaN/sentinel buffer, so stores
                # past the view's shape would show.
                full = torch.full((m + 5, n + 16), -7, device="cuda", dtype=dtype)
                y = full[:m, :n]
                grid = (triton_cdiv(m, bm), triton_cdiv(n, bn))
                alpha = 1 if dtype == torch.int8 else 2.5
                k = K.descriptor_scale_kernel[grid](TD(x, x.shape, x.stride(), [bm, bn]),
                                                    TD(y, y.shape, y.stride(), [bm, bn]),
                                                    alpha, BLOCK_M=bm, BLOCK_N=bn)
                want = x if dtype == torch.int8 else (x.float() * alpha).to(dtype)
                self.assertTrue(torch.equal(y, want))
                self.assertTrue((full[m:, :] == -7).all() and (full[:, n:] == -7).all())
                self.assert_tma(k, True)

    def test_padding_outside_the_tensor(self):
        TD = self.TD
        x = rand(5, 24)
        for padding, fill in (("zero", 0.0), ("nan", float("nan"))):
            with self.subTest(padding=padding):
                out = torch.full((8, 16), 7.0, device="cuda")
                k = K.descriptor_corner_kernel[(1,)](TD(x, x.shape, x.stride(), [8, 16], padding),
                                                     out, BLOCK_M=8, BLOCK_N=16)
                want = torch.full((8, 16), fill, device="cuda")
                want[2:7, 4:16] = x[:5, :12]
                torch.testing.assert_close(out, want, rtol=0, atol=0, equal_nan=True)
                self.assert_tma(k, True)

    def test_block_starts_at_any_column(self):
        # TMA faults on a block whose first column is not at a multiple of 16
        # bytes: such run-time coordinates take the masked loads and stores.
        TD = self.TD
        x = rand(40, 48)
        for i, j in ((0, 0), (3, 4), (-2, -4), (1, 3), (5, -3), (33, 45)):
            with self.subTest(at=(i, j)):
                y = x.clone()
                out = torch.full((8, 16), 7.0, device="cuda")
                K.descriptor_window_kernel[(1,)](TD(x, x.shape, x.stride(), [8, 16]),
                                                 TD(y, y.shape, y.stride(), [8, 16]), out,
                                                 i, j, BLOCK_M=8, BLOCK_N=16)
                want = torch.zeros(8, 16, device="cuda")
                want_y = x.clone()
                r0, r1 = max(i, 0), min(i + 8, 40)
                c0, c1 = max(j, 0), min(j + 16, 48)
                want[r0 - i:r1 - i, c0 - j:c1 - j] = x[r0:r1, c0:c1]
                want_y[r0:r1, c0:c1] = 2 * x[r0:r1, c0:c1]
                self.assertTrue(torch.equal(out, want))
                self.assertTrue(torch.equal(y, want_y))

    def test_views_that_break_tma_rules_use_masked_loads(self):
        TD = self.TD
        # Blocks whose rows span 8 bytes, or 512 elements (TMA's box rows
        # are multiples of 16 bytes, its dimensions at most 256): no tensor
        # map, the same results through masked loads.
        for x, block in ((rand(50, 48, dtype=torch.float16), [16, 4]),
                         (rand(8, 600), [2, 512])):
            with self.subTest(shape=tuple(x.shape), block=block):
                y = torch.empty_like(x)
                grid = (triton_cdiv(x.shape[0], block[0]), triton_cdiv(x.shape[1], block[1]))
                k = K.descriptor_scale_kernel[grid](TD(x, x.shape, x.stride(), block),
                                                    TD(y, y.shape, y.stride(), block),
                                                    1.0, BLOCK_M=block[0], BLOCK_N=block[1])
                self.assertTrue(torch.equal(y, x))
                self.assert_tma(k, False)

    def test_batched_3d(self):
        TD = self.TD
        x = rand(6, 33, 80, dtype=torch.bfloat16)
        y = torch.full_like(x, float("nan"))
        k = K.descriptor_batched_copy_kernel[(3, 3)](TD(x, x.shape, x.stride(), [2, 16, 32]),
                                                     TD(y, y.shape, y.stride(), [2, 16, 32]),
                                                     BLOCK_B=2, BLOCK_M=16, BLOCK_N=32)
        self.assertTrue(torch.equal(y, x))
        self.assert_tma(k, True)

    def test_matmul(self):
        TD = self.TD
        for dtype in (torch.float16, torch.bfloat16):
            with self.subTest(dtype=dtype):
                m, n, kk = 200, 136, 168
                a, b = rand(m, kk, dtype=dtype), rand(kk, n, dtype=dtype)
                c = torch.empty(m, n, device="cuda", dtype=dtype)
                bm, bn, bk = 64, 64, 32
                k = K.descriptor_matmul_kernel[(triton_cdiv(m, bm), triton_cdiv(n, bn))](
                    TD(a, a.shape, a.stride(), [bm, bk]), TD(b, b.shape, b.stride(), [bk, bn]),
                    TD(c, c.shape, c.stride(), [bm, bn]), kk, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
                assert_close(self, c.float(), (a.float() @ b.float()), rtol=1e-2, atol=1e-2)
                self.assert_tma(k, True)


def triton_cdiv(a, b):
    return (a + b - 1) // b


@needs_triton
class Fp8WithoutFp8Instructions(unittest.TestCase):
    """float8e5 conversions compiled for sm_80, which has no fp8
    instructions (integer arithmetic), run on this GPU through the driver's
    PTX JIT: the same bits as the conversions compiled for this GPU (PTX's
    cvt, rounding to nearest even, saturating), NaN to NaN, on every fp16
    value, every e5m2 byte, and fp32 values at and next to every rounding
    boundary, with infinities, NaNs, and random values."""

    @staticmethod
    def cast(x, dtype, arch=None):
        import importlib
        from unittest import mock
        jit_module = importlib.import_module("mgp.jit")
        y = torch.empty(x.shape, dtype=dtype, device="cuda")
        tl_dtype = {torch.float8_e5m2: triton.language.float8e5,
                    torch.float16: triton.language.float16,
                    torch.float32: triton.language.float32}[dtype]
        kernel = mgp.jit(T.cast_kernel)  # a fresh specialization cache
        original = jit_module.compile_options

        def for_arch(options):
            opts = original(options)
            if arch is not None:
                opts.arch = arch.encode()
            return opts
        with mock.patch.object(jit_module, "compile_options", for_arch):
            compiled = kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), DST=tl_dtype,
                                                               BLOCK=1024)
        torch.cuda.synchronize()
        return y, compiled.asm["ptx"]

    def assert_same_bits(self, x, dtype):
        got, software = self.cast(x, dtype, "sm_80")
        want, hardware = self.cast(x, dtype)
        self.assertIn(".target sm_80", software)
        self.assertNotIn("e5m2x2", software)
        self.assertIn("e5m2x2", hardware)
        bits = {torch.float8_e5m2: torch.uint8, torch.float16: torch.int16,
                torch.float32: torch.int32}[dtype]
        # The same bits, except that a NaN may carry another payload.
        nan = torch.isnan(want.float())
        differ = (got.view(bits) != want.view(bits)) & ~nan
        differ |= nan & ~torch.isnan(got.float())
        diff = differ.nonzero().flatten()
        self.assertEqual(diff.numel(), 0, f"{diff.numel()} of {x.numel()} differ, e.g. "
                         f"{x[diff[:4]].tolist()} -> {got[diff[:4]].float().tolist()} "
                         f"against {want[diff[:4]].float().tolist()}")

    @needs_triton
    def test_every_fp16_to_e5m2(self):
        x = torch.arange(-32768, 32768, dtype=torch.int32).to(torch.int16).view(torch.float16)
        self.assert_same_bits(x.cuda(), torch.float8_e5m2)

    @needs_triton
    def test_every_e5m2_widened(self):
        x = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(torch.float8_e5m2).cuda()
        self.assert_same_bits(x, torch.float16)
        self.assert_same_bits(x, torch.float32)

    @needs_triton
    def test_fp32_to_e5m2_at_every_boundary(self):
        codes = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(torch.float8_e5m2)
        values = codes.float()
        values = values[torch.isfinite(values)].unique().sort().values
        mids = (values[1:] + values[:-1]) / 2  # exact in fp32
        points = torch.cat([values, mids, values * 1.5, torch.tensor(
            [57344.0, 61440.0, 65504.0, 1e30, float("inf"), -float("inf"), float("nan"),
             2.0 ** -14, 2.0 ** -16, 2.0 ** -17, 1e-40, 0.0, -0.0])])
        near = [points, torch.nextafter(points, torch.full_like(points, float("inf"))),
                torch.nextafter(points, torch.full_like(points, -float("inf")))]
        gen = torch.Generator().manual_seed(int.from_bytes(__import__("os").urandom(4), "little"))
        x = torch.cat(near + [torch.randn(1 << 20, generator=gen) * 3e4,
                              torch.randn(1 << 18, generator=gen) * 1e-4])
        self.assert_same_bits(x.cuda(), torch.float8_e5m2)


class MgpAgainstTriton(unittest.TestCase):
    """The same kernel source through Triton and through mgp.jit."""

    def test_vector_add(self):
        n = 98432
        x, y = rand(n), rand(n)
        want, got = torch.empty_like(x), torch.empty_like(x)
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        T.add_kernel[grid](x, y, want, n, BLOCK_SIZE=1024)
        mgp.jit(T.add_kernel)[grid](x, y, got, n, BLOCK_SIZE=1024)
        self.assertTrue(torch.equal(got, want))
        self.assertTrue(torch.equal(got, x + y))

    def test_maxnreg_as_triton(self):
        # maxnreg=32: `.maxnreg 32` in both compilers' PTX, the same sums.
        n = 98432
        x, y = rand(n), rand(n)
        want = torch.full_like(x, float("nan"))
        got = torch.full_like(x, float("nan"))
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        ref = T.add_kernel[grid](x, y, want, n, BLOCK_SIZE=1024, maxnreg=32)
        kernel = mgp.jit(T.add_kernel)
        kernel[grid](x, y, got, n, BLOCK_SIZE=1024, maxnreg=32)
        self.assertTrue(torch.equal(got, want))
        self.assertTrue(torch.equal(got, x + y))
        self.assertIn(".maxnreg 32", ref.asm["ptx"])
        compiled = kernel.warmup(x, y, got, n, BLOCK_SIZE=1024, maxnreg=32, grid=grid)
        self.assertIn(".maxnreg 32", compiled.asm["ptx"])

    def test_denormals_as_triton(self):
        # Inputs whose results (exp2 of -126..-150) or arguments (y down to
        # 1e-45) are f32 denormals, and ordinary ones: every function's
        # result has Triton's bits, with libdevice flushing denormals
        # (enable_reflect_ftz=True, the default) and keeping them (False).
        gen = torch.Generator().manual_seed(7)
        n = 1 << 14
        x = torch.cat([-126.01 - 24 * torch.rand(n // 2, generator=gen),
                       torch.randn(n // 2, generator=gen) * 3]).cuda()
        y = torch.cat([torch.rand(n // 2, generator=gen) * 1.2e-38,
                       torch.randn(n // 2, generator=gen)]).cuda()
        grid = (triton.cdiv(n, 1024),)
        for ftz in (True, False):
            want = torch.full((12, n), float("nan"), device="cuda")
            got = torch.full_like(want, float("nan"))
            T.denormal_math_kernel[grid](x, y, want, n, BLOCK=1024, enable_reflect_ftz=ftz)
            mgp.jit(T.denormal_math_kernel)[grid](x, y, got, n, BLOCK=1024,
                                                  enable_reflect_ftz=ftz)
            for i in range(12):
                same = got[i].view(torch.int32) == want[i].view(torch.int32)
                self.assertTrue(bool(same.all()),
                                f"function {i}, enable_reflect_ftz={ftz}: "
                                f"{int((~same).sum())} of {n} differ from Triton")
            tiny = want[0][: n // 2]  # exp2 of -126..-150: denormal unless flushed
            self.assertEqual(bool((tiny == 0).all()), ftz)

    def test_fused_softmax(self):
        x = rand(1823, 781)
        want, got = torch.empty_like(x), torch.empty_like(x)
        args = (x.stride(0), want.stride(0), 1823, 781)
        T.softmax_kernel[(1823,)](want, x, *args, BLOCK_SIZE=1024)
        mgp.jit(T.softmax_kernel)[(1823,)](got, x, *args, BLOCK_SIZE=1024)
        assert_close(self, got, want, 1e-5, 1e-7)
        assert_close(self, got, torch.softmax(x, dim=1), 1e-5, 1e-7)

    def test_layer_norm(self):
        m, n = 1151, 8192
        x, w, b = rand(m, n), rand(n), rand(n)
        results = []
        for launcher in (T.layer_norm_fwd, mgp.jit(T.layer_norm_fwd)):
            y = torch.empty_like(x)
            mean = torch.empty(m, device="cuda")
            rstd = torch.empty(m, device="cuda")
            launcher[(m,)](x, y, w, b, mean, rstd, x.stride(0), n, 1e-5,
                           BLOCK_SIZE=1024, num_warps=8)
            results.append((y, mean, rstd))
        for got, want in zip(results[1], results[0]):
            assert_close(self, got, want, 1e-5, 1e-5)
        ref = torch.nn.functional.layer_norm(x, (n,), w, b, 1e-5)
        assert_close(self, results[1][0], ref, 1e-4, 1e-4)

    def test_matmul_autotuned(self):
        m, n, k = 512, 384, 320
        a = rand(m, k, dtype=torch.float16)
        b = rand(k, n, dtype=torch.float16)
        outs = []
        for launcher in (T.matmul_kernel, mgp.jit(T.matmul_kernel)):
            c = torch.empty(m, n, device="cuda", dtype=torch.float16)
            grid = lambda meta: (triton.cdiv(m, meta["BLOCK_SIZE_M"])
                                 * triton.cdiv(n, meta["BLOCK_SIZE_N"]),)
            launcher[grid](a, b, c, m, n, k, a.stride(0), a.stride(1),
                           b.stride(0), b.stride(1), c.stride(0), c.stride(1))
            outs.append(c)
        ref = (a.float() @ b.float()).half()
        assert_close(self, outs[1].float(), ref.float(), 1e-2, 1e-1)
        assert_close(self, outs[1].float(), outs[0].float(), 1e-2, 1e-1)


if __name__ == "__main__":
    unittest.main()
