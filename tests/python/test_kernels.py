"""Kernels written with @mgp.jit and mgp.* names, launched from Python on the
interpreter (MGP_INTERPRET=1) on NumPy arrays (and CPU tensors when PyTorch
is installed), on fresh random inputs, against NumPy: the vector add exactly,
softmax and layer norm within fp32 rounding. Also the launch cache (a second
launch compiles nothing), every scalar type, Triton's constexpr 1, autotune
(benchmark once, cache in memory and on disk, reset_to_zero), heuristics,
warmup and mgp.compile's PTX."""
import os
import tempfile
import unittest
from unittest import mock

try:
    import numpy as np
except ImportError:
    raise unittest.SkipTest("numpy is not installed (pip install numpy)")

import mgp
from mgp import compiler as mgp_compiler

import mgp_kernels as K


def random_floats(rng, *shape):
    """Floats of magnitude in [0.25, 4) and either sign: never zero."""
    magnitude = rng.uniform(0.25, 4.0, size=shape)
    sign = np.where(rng.random(size=shape) < 0.5, -1.0, 1.0)
    return (magnitude * sign).astype(np.float32)


def assert_finite_close(test, got, want, rtol, atol):
    test.assertTrue(np.all(np.isfinite(got)), "NaN or Inf where the "
                                              "reference is finite")
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


class CountCompiles:
    """Counts the C API compiles made inside the with-block."""

    def __enter__(self):
        self.count = 0
        original = mgp_compiler.CompiledKernel.compile.__func__

        def counting(cls, *args, **kwargs):
            self.count += 1
            return original(cls, *args, **kwargs)
        self.patch = mock.patch.object(mgp_compiler.CompiledKernel, "compile",
                                       classmethod(counting))
        self.patch.start()
        return self

    def __exit__(self, *exc):
        self.patch.stop()


class VectorAdd(unittest.TestCase):
    def test_exact_sum(self):
        rng = np.random.default_rng()
        for n in (1, 1000, 4096, 100003):
            with self.subTest(n=n):
                x, y = random_floats(rng, n), random_floats(rng, n)
                out = np.full(n, np.nan, np.float32)
                K.add_kernel[(mgp.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
                np.testing.assert_array_equal(out, x + y)

    def test_num_ctas_keeps_results(self):
        # Triton's num_ctas spreads a program over a cluster of CTAs: the
        # same results, so a kernel launched with it runs unchanged.
        rng = np.random.default_rng()
        x, y = random_floats(rng, 3000), random_floats(rng, 3000)
        out = np.full(3000, np.nan, np.float32)
        K.add_kernel[(mgp.cdiv(3000, 1024),)](x, y, out, 3000, BLOCK=1024, num_ctas=2)
        np.testing.assert_array_equal(out, x + y)

    def test_grid_callable_and_views(self):
        rng = np.random.default_rng()
        base = random_floats(rng, 2001)
        x, y = base[1:], random_floats(rng, 2000)  # x is 4 bytes off alignment
        out = np.zeros(2000, np.float32)
        grid = lambda meta: (mgp.cdiv(meta["n"], meta["BLOCK"]),)
        K.add_kernel[grid](x, y, out, 2000, BLOCK=256)
        np.testing.assert_array_equal(out, x + y)
        self.assertIn("*fp32,", K.add_kernel.signature_of(x, y, out, 2000, BLOCK=256))

    def test_second_launch_compiles_nothing(self):
        rng = np.random.default_rng()
        x, y = random_floats(rng, 512), random_floats(rng, 512)
        out = np.zeros(512, np.float32)
        kernel = mgp.jit(K.add_kernel.fn)  # a fresh launch cache
        with CountCompiles() as first:
            kernel[(4,)](x, y, out, 512, BLOCK=128)
        with CountCompiles() as again, \
                mock.patch.object(mgp.JITFunction, "source",
                                  side_effect=AssertionError("source read")):
            for _ in range(3):
                x2, y2 = random_floats(rng, 512), random_floats(rng, 512)
                kernel[(4,)](x2, y2, out, 512, BLOCK=128)
                np.testing.assert_array_equal(out, x2 + y2)
        self.assertEqual(first.count, 1)
        self.assertEqual(again.count, 0)
        with CountCompiles() as other:  # n % 16 != 0: a new specialization
            kernel[(4,)](x, y, out, 500, BLOCK=128)
        self.assertEqual(other.count, 1)
        self.assertEqual(len(kernel._cache), 2)

    def test_torch_cpu_tensors(self):
        try:
            import torch
        except ImportError:
            self.skipTest("PyTorch is not installed")
        x = torch.randn(3000)
        y = torch.randn(3000)
        out = torch.empty(3000)
        K.add_kernel[(3,)](x, y, out, 3000, BLOCK=1024)
        self.assertTrue(torch.equal(out, x + y))


class Numerics(unittest.TestCase):
    def test_softmax(self):
        rng = np.random.default_rng()
        rows, cols = 37, 781
        x = random_floats(rng, rows, cols)
        out = np.full_like(x, np.nan)
        K.softmax_kernel[(rows,)](out, x, x.shape[1], out.shape[1], cols,
                                  BLOCK=mgp.next_power_of_2(cols))
        ref = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
        ref /= ref.sum(axis=1, keepdims=True)
        assert_finite_close(self, out, ref, rtol=2e-5, atol=1e-7)

    def test_layer_norm(self):
        rng = np.random.default_rng()
        rows, n, eps = 19, 1000, 1e-5
        x = random_floats(rng, rows, n)
        w, b = random_floats(rng, n), random_floats(rng, n)
        y = np.full_like(x, np.nan)
        mean = np.full(rows, np.nan, np.float32)
        rstd = np.full(rows, np.nan, np.float32)
        K.layer_norm_kernel[(rows,)](x, y, w, b, mean, rstd, x.shape[1], n, eps,
                                     BLOCK_SIZE=256)
        x64 = x.astype(np.float64)
        ref_mean = x64.mean(axis=1)
        ref_rstd = 1 / np.sqrt(x64.var(axis=1) + eps)
        ref = (x64 - ref_mean[:, None]) * ref_rstd[:, None] * w + b
        assert_finite_close(self, mean, ref_mean, rtol=1e-5, atol=1e-6)
        assert_finite_close(self, rstd, ref_rstd, rtol=1e-5, atol=0)
        assert_finite_close(self, y, ref, rtol=1e-4, atol=1e-5)

    def test_propagate_nan(self):
        # NONE (the default) takes the other operand where one is NaN (NumPy's
        # fmax/fmin); ALL gives NaN (NumPy's maximum/minimum).
        rng = np.random.default_rng()
        n = 300
        a, b = random_floats(rng, n), random_floats(rng, n)
        a[rng.random(n) < 0.2] = np.nan
        b[rng.random(n) < 0.2] = np.nan
        refs = {("maximum", "NONE"): np.fmax(a, b), ("maximum", "ALL"): np.maximum(a, b),
                ("minimum", "NONE"): np.fmin(a, b), ("minimum", "ALL"): np.minimum(a, b),
                ("clamp", "NONE"): np.fmin(np.fmax(a, -np.abs(b)), np.abs(b)),
                ("clamp", "ALL"): np.minimum(np.maximum(a, -np.abs(b)), np.abs(b))}
        for (func, mode), ref in refs.items():
            with self.subTest(func=func, propagate_nan=mode):
                out = np.full(n, 7.0, np.float32)
                K.nan_minmax_kernel[(mgp.cdiv(n, 128),)](a, b, out, n, FUNC=func,
                                                         PROPAGATE=mode, BLOCK=128)
                np.testing.assert_array_equal(out, ref)

    def test_pointer_cast(self):
        rng = np.random.default_rng()
        x = random_floats(rng, 250)
        out = np.zeros(1000, np.uint8)
        K.byte_view_kernel[(mgp.cdiv(1000, 256),)](x, out, 1000, BLOCK=256)
        np.testing.assert_array_equal(out, x.view(np.uint8))

    def test_scalar_types(self):
        ints = np.zeros(4, np.int64)
        floats = np.zeros(1, np.float32)
        huge = 2**63 + 12345
        kernel = K.typed_kernel
        self.assertEqual(kernel.signature_of(ints, floats, True, -5, 2**40 + 3,
                                             huge, 0.1),
                         "*i64:16,*fp32:16,i1,i32,i64,u64,fp32")
        kernel[(1,)](ints, floats, True, -5, 2**40 + 3, huge, 0.1)
        self.assertEqual(ints.tolist(), [1, -5, 2**40 + 3, huge - 2**64])
        self.assertEqual(floats[0], np.float32(0.1))

    def test_uint64_constants(self):
        # Integers from 2**63 to 2**64 - 1 are uint64 (Triton's typing), as
        # literals and as constexpr arguments; against Python's integers.
        seed = 0x9E3779B97F4A7C15 + int(np.random.default_rng().integers(1000))
        out = np.zeros(100, np.int64)
        kernel = K.hash_kernel
        self.assertEqual(kernel.signature_of(out, 100, SEED=seed, BLOCK=128),
                         f"*i64:16,i32,{seed},128")
        kernel[(1,)](out, 100, SEED=seed, BLOCK=128)
        mask = 2**64 - 1
        expected = []
        for i in range(100):
            z = (i + seed) & mask
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            expected.append(z ^ (z >> 31))
        self.assertEqual([v & mask for v in out.tolist()], expected)

    def test_constexpr_one(self):
        rng = np.random.default_rng()
        x = random_floats(rng, 300)
        out = np.zeros(100, np.float32)
        kernel = K.stride_kernel
        self.assertEqual(kernel.signature_of(x, out, 1, 100, BLOCK=128),
                         "*fp32:16,*fp32:16,1,i32,128")
        kernel[(1,)](x, out, 1, 100, BLOCK=128)
        np.testing.assert_array_equal(out, x[:100])
        kernel[(1,)](x, out, 3, 100, BLOCK=128)
        np.testing.assert_array_equal(out, x[::3][:100])


class ConstexprKinds(unittest.TestCase):
    """None for an optional pointer, string and dtype constexprs: each value
    is its own specialization, checked against NumPy."""

    def test_none_string_and_dtype(self):
        rng = np.random.default_rng(11)
        n = 1000
        x = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        grid = (mgp.cdiv(n, 256),)
        out = np.full(n, np.nan, np.float32)
        K.bias_act_kernel[grid](x, None, out, n, ACTIVATION="relu",
                                OUT_DTYPE=mgp.float32, BLOCK=256)
        np.testing.assert_array_equal(out, np.maximum(x, 0))
        half = np.full(n, np.nan, np.float16)
        K.bias_act_kernel[grid](x, b, half, n, ACTIVATION="square",
                                OUT_DTYPE=mgp.float16, BLOCK=256)
        np.testing.assert_array_equal(half, ((x + b) * (x + b)).astype(np.float16))
        same = np.full(n, np.nan, np.float32)
        K.bias_act_kernel[grid](x, b, same, n, ACTIVATION="none",
                                OUT_DTYPE=mgp.float32, BLOCK=256)
        np.testing.assert_array_equal(same, x + b)

    def test_constexpr_globals_take_the_running_values(self):
        # HOST_SCALE = tl.constexpr(_host_setting("scale")) and the others are
        # computed by host code, which the kernel's text alone cannot run:
        # the launch uses their values in the running module, as Triton does.
        rng = np.random.default_rng(12)
        n = 700
        x = rng.standard_normal(n).astype(np.float32)
        out = np.full(n, np.nan, np.float16)
        K.host_constants_kernel[(mgp.cdiv(n, 256),)](x, out, n, BLOCK=256)
        np.testing.assert_array_equal(out, (x * np.float32(3.0) + np.float32(0.5))
                                      .astype(np.float16))
        # The compiled text holds the values; the file's lines stay in place.
        text = K.host_constants_kernel.source()
        lines = text.splitlines()
        self.assertIn("HOST_SCALE = 3.0", lines)
        self.assertIn("HOST_HALF = True", lines)
        self.assertIn("HOST_DTYPE = _mgp_tl.float16", lines)
        self.assertIn('HOST_LABEL = "float16"  # a plain string, not a kernel constant: '
                      'left as written', lines)
        with open(K.__file__) as f:
            original = f.read().splitlines()
        row = original.index("HOST_SCALE = tl.constexpr(_host_setting(\"scale\"))")
        self.assertEqual(lines[row], "HOST_SCALE = 3.0")


class Tuning(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.TemporaryDirectory()
        self.env = mock.patch.dict(os.environ, {"MGP_CACHE_DIR": self.cache.name})
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.cache.cleanup()

    def fresh(self, kernel):
        """The autotuner of ``kernel`` with empty memory caches."""
        inner = mgp.jit(kernel.fn.fn)
        return mgp.Autotuner(inner, inner.arg_names, kernel.configs, kernel.keys,
                             kernel.reset_to_zero, kernel.restore_value)

    def test_autotune_benchmarks_once_and_caches_on_disk(self):
        rng = np.random.default_rng()
        n = 1000
        x = random_floats(rng, n)
        out = np.zeros(n, np.float32)
        tuner = self.fresh(K.scale_kernel)
        grid = lambda meta: (mgp.cdiv(meta["n"], meta["BLOCK"]),)
        tuner[grid](x, out, 0.5, n)
        np.testing.assert_array_equal(out, x * np.float32(0.5))
        self.assertGreater(tuner.bench_count, 0)
        self.assertEqual(len(tuner.configs_timings), 2)
        self.assertIn(tuner.best_config.kwargs["BLOCK"], (64, 256))
        files = os.listdir(os.path.join(self.cache.name, "autotune"))
        self.assertEqual(len(files), 1)

        runs = tuner.bench_count
        tuner[grid](x, out, 2.0, n)  # same key: no benchmark
        self.assertEqual(tuner.bench_count, runs)
        np.testing.assert_array_equal(out, x * np.float32(2.0))

        again = self.fresh(K.scale_kernel)  # a new process, in effect
        again[grid](x, out, 0.25, n)
        self.assertEqual(again.bench_count, 0)
        self.assertEqual(again.best_config.describe(), tuner.best_config.describe())
        np.testing.assert_array_equal(out, x * np.float32(0.25))

    def test_reset_to_zero(self):
        rng = np.random.default_rng()
        n = 500
        x = random_floats(rng, n)
        out = random_floats(rng, n)
        tuner = self.fresh(K.accumulate_kernel)
        grid = lambda meta: (mgp.cdiv(meta["n"], meta["BLOCK"]),)
        tuner[grid](x, out, n)
        # every benchmark run and the launch after them start from zeros
        self.assertGreater(tuner.bench_count, 1)
        np.testing.assert_array_equal(out, x)

    def test_heuristics(self):
        rng = np.random.default_rng()
        for n in (1024, 1000):
            x = random_floats(rng, n)
            out = np.zeros(n, np.float32)
            K.copy_kernel[(mgp.cdiv(n, 256),)](x, out, n, BLOCK=256)
            np.testing.assert_array_equal(out, x)
        even = K.copy_kernel.fn.signature_of(x, out, 1024, BLOCK=256, EVEN=True)
        self.assertTrue(even.endswith(",256,1"))


class AheadOfTime(unittest.TestCase):
    def test_warmup(self):
        compiled = K.add_kernel.warmup(np.float32, np.float32, np.float32, 4096,
                                       BLOCK=512, grid=(1,))
        self.assertIsInstance(compiled, mgp.CompiledKernel)
        self.assertEqual(compiled.signature, "*fp32:16,*fp32:16,*fp32:16,i32:16,512")
        self.assertEqual([p["name"] for p in compiled.params],
                         ["x_ptr", "y_ptr", "out_ptr", "n", "BLOCK"])
        self.assertEqual(compiled.asm, {})  # the interpreter has no PTX

    def test_compile_to_ptx(self):
        compiled = mgp.compile(K.add_kernel, "*fp32:16,*fp32:16,*fp32:16,i32,1024",
                               arch="sm_90", num_warps=8)
        self.assertIn(".target sm_90", compiled.asm["ptx"])
        self.assertIn(".entry add_kernel", compiled.ptx)
        self.assertEqual((compiled.num_warps, compiled.arch), (8, "sm_90"))
        by_dict = mgp.compile(K.add_kernel.fn,
                              {"x_ptr": "*fp32", "y_ptr": "*fp32",
                               "out_ptr": "*fp32", "n": "i32"},
                              constexprs={"BLOCK": 256}, arch="sm_80")
        self.assertEqual(by_dict.signature, "*fp32,*fp32,*fp32,i32,256")
        self.assertIn(".target sm_80", by_dict.ptx)

    def test_reflect_ftz(self):
        # libdevice's f32 functions flush denormals as Triton's do
        # (enable_reflect_ftz=True, the default): layer norm's 1 / tl.sqrt is
        # sqrt.approx.ftz.f32; with enable_reflect_ftz=False, sqrt.approx.f32.
        sig = "*fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32,i32,fp32,1024"
        ftz = mgp.compile(K.layer_norm_kernel, sig, arch="sm_90").ptx
        kept = mgp.compile(K.layer_norm_kernel, sig, arch="sm_90",
                           enable_reflect_ftz=False).ptx
        self.assertIn("sqrt.approx.ftz.f32", ftz)
        self.assertIn("sqrt.approx.f32", kept)
        self.assertNotIn(".ftz", kept)
        with self.assertRaisesRegex(TypeError, "enable_reflect_ftz must be True or False"):
            mgp.compile(K.layer_norm_kernel, sig, arch="sm_90", enable_reflect_ftz=1)

    def test_maxnreg(self):
        # Triton's maxnreg: `.maxnreg N` in the PTX, a different kernel from
        # the unlimited one; out of range is refused by the C API's check.
        sig = "*fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32,i32,fp32,1024"
        free = mgp.compile(K.layer_norm_kernel, sig, arch="sm_90").ptx
        capped = mgp.compile(K.layer_norm_kernel, sig, arch="sm_90", maxnreg=64).ptx
        self.assertNotIn(".maxnreg", free)
        self.assertIn(".maxnreg 64", capped)
        with self.assertRaisesRegex(Exception, "maxnreg must be 0 .no limit. or in 16..255, got 8"):
            mgp.compile(K.layer_norm_kernel, sig, arch="sm_90", maxnreg=8)
        with self.assertRaisesRegex(TypeError, "maxnreg must be an integer"):
            mgp.compile(K.layer_norm_kernel, sig, arch="sm_90", maxnreg=64.0)
        # An autotune config's maxnreg is one of its launch options, and part
        # of its identity in the tuning cache.
        capped_config = mgp.Config({"BLOCK": 64}, num_warps=8, maxnreg=128)
        self.assertEqual(capped_config.all_kwargs()["maxnreg"], 128)
        self.assertNotIn("maxnreg", mgp.Config({"BLOCK": 64}).all_kwargs())
        self.assertNotEqual(capped_config.describe(),
                            mgp.Config({"BLOCK": 64}, num_warps=8).describe())

    def test_compile_bakes_constexprs_that_are_not_numbers(self):
        # None, a string and a dtype, as Triton's ASTSource takes them: baked
        # into the kernel's text, as a launch bakes them.
        types = {"x_ptr": "*fp32", "out_ptr": "*fp16", "n": "i32"}
        relu = mgp.compile(K.bias_act_kernel, types, arch="sm_90",
                           constexprs={"b_ptr": None, "ACTIVATION": "relu",
                                       "OUT_DTYPE": mgp.float16, "BLOCK": 256})
        square = mgp.compile(K.bias_act_kernel, dict(types, out_ptr="*fp32"), arch="sm_90",
                             constexprs={"b_ptr": None, "ACTIVATION": "square",
                                         "OUT_DTYPE": mgp.float32, "BLOCK": 256})
        self.assertEqual(relu.signature, "*fp32,*fp16,i32,256")
        # The relu kernel takes the max and stores fp16; the square kernel
        # multiplies and stores fp32; neither has a bias parameter.
        self.assertIn("max.f32", relu.ptx)
        self.assertIn("cvt.rn.f16.f32", relu.ptx)
        self.assertNotIn("mul.f32", relu.ptx)
        self.assertIn("mul.f32", square.ptx)
        self.assertNotIn("max.f32", square.ptx)
        self.assertNotIn("cvt.rn.f16.f32", square.ptx)
        for ptx in (relu.ptx, square.ptx):
            self.assertIn("_param_2", ptx)
            self.assertNotIn("_param_3", ptx)
        with self.assertRaisesRegex(TypeError, "constexpr 'BLOCK' needs a value"):
            mgp.compile(K.bias_act_kernel, types, arch="sm_90",
                        constexprs={"b_ptr": None, "ACTIVATION": "relu",
                                    "OUT_DTYPE": mgp.float16})

    def test_host_helpers(self):
        self.assertEqual(mgp.cdiv(1000, 256), 4)
        self.assertEqual(mgp.next_power_of_2(781), 1024)
        self.assertEqual(mgp.next_power_of_2(1024), 1024)
        self.assertTrue(mgp.version())


if __name__ == "__main__":
    unittest.main()
