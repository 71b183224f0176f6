"""kernels_dsl/conv2d_nhwc.mgp's persistent convolution (a fixed number of
programs, each looping over the (tile, step) pairs of its tiles) and its
row-taps convolution (one A tile per filter row for the three taps, the
horizontal shift applied to the accumulators) through mgp.jit on the
interpreter (MGP_INTERPRET=1), on fresh random NHWC inputs, against a NumPy
float64 convolution: fp32 (ieee) dots within fp32 rounding. Shapes leave
partial tiles along M and N, programs with one tile more than others, stride
2, channel counts that are not a multiple of BLOCK_K, and tiles whose rows
span several image rows and images; the tap convolution reading its A tiles
through L1 (a channel chunk's taps as consecutive steps), split or not. And
bench/conv_layers.py's tile lists against the tuner's candidates
(graph/tune/ConvTuner.cpp), which they copy."""
import ast
import importlib.machinery
import importlib.util
import itertools
import os
import re
import unittest

try:
    import numpy as np
except ImportError:
    raise unittest.SkipTest("numpy is not installed (pip install numpy)")

import mgp

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def load_conv_module(name="conv2d_nhwc"):
    path = os.path.join(ROOT, "kernels_dsl", name + ".mgp")
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def conv_reference(x, w, bias, residual, stride, pad):
    """relu(conv(x, w) + bias + residual) in float64; x NHWC, w [K][R][S][C]."""
    n, h, wd, c = x.shape
    k, r, s, _ = w.shape
    p = (h + 2 * pad - r) // stride + 1
    q = (wd + 2 * pad - s) // stride + 1
    xp = np.zeros((n, h + 2 * pad, wd + 2 * pad, c))
    xp[:, pad:pad + h, pad:pad + wd, :] = x
    y = np.zeros((n, p, q, k))
    for i in range(r):
        for j in range(s):
            patch = xp[:, i:i + stride * (p - 1) + 1:stride, j:j + stride * (q - 1) + 1:stride, :]
            y += patch @ w[:, i, j, :].astype(np.float64).T
    return np.maximum(y + bias + residual, 0.0)


def assert_matches(test, y, want):
    """y finite (every output written) and within fp32 rounding of the
    float64 reference, which is not mostly zeros (ReLU)."""
    test.assertTrue(np.all(np.isfinite(y)), "NaN or Inf (an output not written?)")
    test.assertGreater(np.count_nonzero(want), want.size // 4)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


class PersistentConvolution(unittest.TestCase):
    def test_against_numpy(self):
        kernel = mgp.jit(load_conv_module().conv2d_nhwc_persistent_kernel)
        rng = np.random.default_rng(20261206)
        # (batch, H = W, C, K, stride, BLOCK_M, BLOCK_N, BLOCK_K, programs)
        cases = [(2, 9, 32, 48, 1, 64, 32, 16, 5), (3, 10, 20, 40, 2, 32, 32, 16, 7),
                 (1, 7, 48, 64, 1, 64, 64, 32, 2)]
        for batch, hw, c, k, stride, bm, bn, bk, programs in cases:
            with self.subTest(batch=batch, hw=hw, c=c, k=k, stride=stride):
                x = rng.standard_normal((batch, hw, hw, c)).astype(np.float32)
                w = (rng.standard_normal((k, 3, 3, c)) / (3 * c ** 0.5)).astype(np.float32)
                bias = rng.standard_normal(k).astype(np.float32)
                p = (hw + 2 - 3) // stride + 1
                residual = rng.standard_normal((batch, p, p, k)).astype(np.float32)
                want = conv_reference(x, w, bias, residual, stride, 1)
                y = np.full((batch, p, p, k), np.nan, dtype=np.float32)
                kernel[(programs,)](x, w, bias, residual, y, batch * p * p, c, hw, hw, k, p, p,
                                    mgp.cdiv(c, bk), R=3, S=3, STRIDE=stride, PAD=1, HAS_BIAS=1,
                                    HAS_RESIDUAL=1, RELU=1, TF32=0, BLOCK_M=bm, BLOCK_N=bn,
                                    BLOCK_K=bk, ROUND_TF32=0, NUM_PROGRAMS=programs)
                assert_matches(self, y, want)


def division_constants(d):
    """graph/ConvLaunch.cpp's divisionConstants: (magic as an i32 pattern,
    shift) with x // d == (x * magic) >> shift for 0 <= x < 2**31."""
    shift = 31 + (d - 1).bit_length()
    magic = -(-(1 << shift) // d)
    return (magic - 2**32 if magic >= 2**31 else magic), shift


def run_tap_conv(kernel, x, w, bias, residual, stride, pad, blocks, splits=1, a_l1=0,
                 reverse=0):
    """conv2d_nhwc_kernel with bias, residual and ReLU (NHWC x, [K][R][S][C]
    w, BLOCK_M x BLOCK_N x BLOCK_K `blocks`); split over `splits` programs
    along z, the slices summed here and the epilogue applied in float64."""
    n, h, wd, c = x.shape
    k, r, s, _ = w.shape
    p = (h + 2 * pad - r) // stride + 1
    q = (wd + 2 * pad - s) // stride + 1
    bm, bn, bk = blocks
    m = n * p * q
    chunks = mgp.cdiv(c, bk)
    y = np.full((n, p, q, k), np.nan, dtype=np.float32)
    ws = np.full((splits, m, k), np.nan, dtype=np.float32) if splits > 1 else y
    kernel[(mgp.cdiv(m, bm), mgp.cdiv(k, bn), splits)](
        x, w, bias, residual, y, ws, m, c, h, wd, k, p, q, *division_constants(p * q),
        *division_constants(q), chunks, mgp.cdiv(r * s * chunks, splits) if splits > 1 else 1,
        R=r, S=s, STRIDE=stride, PAD=pad, X_NCHW=0, W_KCRS=0, RES_NCHW=0, HAS_BIAS=1,
        HAS_RESIDUAL=1, RELU=1, TF32=0, SPLIT_K=int(splits > 1), BLOCK_M=bm, BLOCK_N=bn,
        BLOCK_K=bk, ROUND_TF32=0, A_L1=a_l1, REVERSE=reverse)
    if splits > 1:
        y = np.maximum(ws.astype(np.float64).sum(0).reshape(y.shape) + bias + residual, 0.0)
    return y


class TapConvolution(unittest.TestCase):
    def test_one_pixel_high_or_wide(self):
        # mgp.jit (as Triton) makes an integer argument equal to 1 a constexpr:
        # H or W of 1 must still compile (the padding test compares against
        # them) and compute the convolution.
        kernel = mgp.jit(load_conv_module().conv2d_nhwc_kernel)
        rng = np.random.default_rng(20261208)
        for batch, h, wd, c, k in [(2, 1, 6, 16, 16), (1, 5, 1, 16, 32), (3, 1, 1, 32, 16)]:
            with self.subTest(batch=batch, h=h, w=wd):
                x = rng.standard_normal((batch, h, wd, c)).astype(np.float32)
                w = (rng.standard_normal((k, 3, 3, c)) / (3 * c ** 0.5)).astype(np.float32)
                bias = rng.standard_normal(k).astype(np.float32)
                residual = rng.standard_normal((batch, h, wd, k)).astype(np.float32)
                want = conv_reference(x, w, bias, residual, 1, 1)
                y = run_tap_conv(kernel, x, w, bias, residual, 1, 1, (16, 16, 16))
                assert_matches(self, y, want)


class TapsThroughL1Convolution(unittest.TestCase):
    def test_against_numpy(self):
        # A_L1 = 1 (copies through L1) and 2 (L2-only): a channel chunk's
        # taps as consecutive steps, with and without split-K (each split
        # starts inside a chunk's taps).
        kernel = mgp.jit(load_conv_module().conv2d_nhwc_kernel)
        rng = np.random.default_rng(20261209)
        # (batch, H = W, C, K, R = S, stride, BLOCK_M, BLOCK_N, BLOCK_K, splits)
        cases = [(2, 7, 48, 24, 3, 1, 32, 16, 16, 1), (2, 8, 40, 32, 3, 2, 16, 32, 16, 1),
                 (1, 6, 32, 16, 3, 1, 16, 16, 16, 4), (2, 5, 24, 16, 1, 1, 16, 16, 16, 2),
                 (1, 9, 16, 48, 3, 2, 64, 16, 16, 3)]
        # Each also with its tiles run last to first (REVERSE, the launch
        # rule's order after a convolution that ran first to last).
        for (batch, hw, c, k, taps, stride, bm, bn, bk, splits), a_l1, reverse in (
                itertools.product(cases, (1, 2), (0, 1))):
            with self.subTest(batch=batch, hw=hw, c=c, k=k, taps=taps, stride=stride,
                              splits=splits, a_l1=a_l1, reverse=reverse):
                pad = taps // 2
                x = rng.standard_normal((batch, hw, hw, c)).astype(np.float32)
                w = (rng.standard_normal((k, taps, taps, c)) / (taps * c ** 0.5)).astype(
                    np.float32)
                bias = rng.standard_normal(k).astype(np.float32)
                p = (hw + 2 * pad - taps) // stride + 1
                residual = rng.standard_normal((batch, p, p, k)).astype(np.float32)
                want = conv_reference(x, w, bias, residual, stride, pad)
                y = run_tap_conv(kernel, x, w, bias, residual, stride, pad, (bm, bn, bk),
                                 splits, a_l1=a_l1, reverse=reverse)
                assert_matches(self, y, want)


def maxpool_reference(y, kernel, stride, pad):
    """PyTorch's max_pool2d of NHWC float64 y (padding never wins)."""
    n, h, wd, k = y.shape
    p = (h + 2 * pad - kernel) // stride + 1
    q = (wd + 2 * pad - kernel) // stride + 1
    yp = np.full((n, h + 2 * pad, wd + 2 * pad, k), -np.inf)
    yp[:, pad:pad + h, pad:pad + wd, :] = y
    out = np.full((n, p, q, k), -np.inf)
    for i in range(kernel):
        for j in range(kernel):
            out = np.maximum(out, yp[:, i:i + stride * (p - 1) + 1:stride,
                                     j:j + stride * (q - 1) + 1:stride, :])
    return out


def round_tf32(x):
    """x rounded to tf32, to nearest, ties away (the kernels' _round_tf32)."""
    bits = (x.astype(np.float32).view(np.int32) + 0x1000) & -8192
    return bits.view(np.float32)


class StemMaxPool(unittest.TestCase):
    def test_against_numpy(self):
        # layout_nhwc.mgp's conv_stem_pack_kernel (NCHW x, [K][C][R][S] w) then
        # conv2d_stem_maxpool_kernel on the even output rows and then on the
        # odd ones, into a result first filled with NaN:
        # max_pool2d(relu(conv(x, w) + bias), 3, 2, 1), the launch values of
        # graph/ConvLaunch.cpp's planStemLaunches. Odd and even output
        # heights (an odd P has no odd row below its last pooled row), odd and even output
        # widths (an odd Q leaves the last window without its right pixel),
        # pooled widths that are not a power of two, channels past one
        # BLOCK_N, 3 and 4 input channels, a 5x5 kernel, both BLOCK_K, and
        # tf32 dots over tf32-rounded operands with the result rounded.
        module = load_conv_module()
        pack = mgp.jit(load_conv_module("layout_nhwc").conv_stem_pack_kernel)
        stem = mgp.jit(module.conv2d_stem_maxpool_kernel)
        rng = np.random.default_rng(20261207)
        # (batch, H, W, C, K, R = S, stride, pad, BLOCK_N, BLOCK_K, tf32)
        cases = [(2, 20, 22, 3, 16, 7, 2, 3, 16, 32, False),
                 (1, 17, 16, 3, 24, 7, 2, 3, 16, 16, False),
                 (1, 9, 30, 4, 16, 5, 2, 2, 16, 32, False),
                 (2, 12, 13, 3, 32, 7, 2, 3, 32, 32, True)]
        for batch, h, wd, c, k, taps, stride, pad, bn, bk, tf32 in cases:
            with self.subTest(batch=batch, h=h, w=wd, c=c, k=k, taps=taps, tf32=tf32):
                x = rng.standard_normal((batch, c, h, wd)).astype(np.float32)
                w = (rng.standard_normal((k, c, taps, taps)) / (taps * c ** 0.5)).astype(
                    np.float32)
                bias = (0.3 * rng.standard_normal(k)).astype(np.float32)
                if tf32:
                    x, w = round_tf32(x), round_tf32(w)
                want = maxpool_reference(
                    conv_reference(x.transpose(0, 2, 3, 1), w.transpose(0, 2, 3, 1), bias,
                                   0.0, stride, pad), 3, 2, 1)
                p = (h + 2 * pad - taps) // stride + 1
                q = (wd + 2 * pad - taps) // stride + 1
                sp = max(4, 1 << (taps - 1).bit_length())
                hp = max(h + 2 * pad, (p - 1) * stride + taps)
                wp = -(-max(wd + 2 * pad, (q - 1) * stride + sp) // 16) * 16
                wrows, pixels = k * taps * sp, batch * hp * wp
                y = np.full(want.shape, np.nan, dtype=np.float32)
                ws = np.zeros((wrows + pixels) * 4, dtype=np.float32)
                block = 64
                pack[(mgp.cdiv(wrows + pixels, block),)](
                    x, w, ws, pixels, c, h, wd, HP=hp, WP=wp, WROWS=wrows, R=taps, S=taps,
                    SP=sp, PAD=pad, X_NCHW=1, W_KCRS=1, BLOCK=block, ROUND_TF32=int(tf32))
                ph, pw = want.shape[1], want.shape[2]
                for odd in (0, 1):
                    stem[(batch * (p // 2 if odd else ph), mgp.cdiv(k, bn))](
                        ws, bias, y, p, q, k, hp, wp, ph, pw, R=taps, SP=sp, STRIDE=stride,
                        X_OFF=wrows * 4, HAS_BIAS=1, TF32=int(tf32),
                        BLOCK_M=max(16, 1 << (pw - 1).bit_length()), BLOCK_N=bn,
                        BLOCK_K=min(bk, sp * 4), ROUND_TF32=int(tf32), ODD=odd)
                self.assertTrue(np.all(np.isfinite(y)), "NaN or Inf (an output not written?)")
                self.assertGreater(np.count_nonzero(want), want.size // 2)
                if tf32:
                    # The result rounded to tf32, the operands exact in tf32.
                    np.testing.assert_allclose(y, want, rtol=1e-3, atol=1e-3)
                else:
                    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


class RowTapsConvolution(unittest.TestCase):
    def test_against_numpy(self):
        kernel = mgp.jit(load_conv_module().conv2d_nhwc_rowtaps_kernel)
        rng = np.random.default_rng(20261207)
        # (batch, H, W, C, K, BLOCK_M, BLOCK_N, BLOCK_K, bias and residual)
        cases = [(2, 6, 5, 16, 16, 16, 16, 16, True), (1, 9, 9, 24, 40, 32, 32, 16, True),
                 (3, 4, 7, 32, 16, 64, 16, 32, False), (1, 1, 13, 16, 32, 16, 32, 16, True),
                 (2, 5, 1, 16, 16, 16, 16, 16, True)]
        for batch, h, wd, c, k, bm, bn, bk, epilogue in cases:
            with self.subTest(batch=batch, h=h, w=wd, c=c, k=k, block_m=bm):
                x = rng.standard_normal((batch, h, wd, c)).astype(np.float32)
                w = (rng.standard_normal((k, 3, 3, c)) / (3 * c ** 0.5)).astype(np.float32)
                bias = rng.standard_normal(k).astype(np.float32)
                residual = rng.standard_normal((batch, h, wd, k)).astype(np.float32)
                want = conv_reference(x, w, bias if epilogue else 0.0,
                                      residual if epilogue else 0.0, 1, 1)
                y = np.full((batch, h, wd, k), np.nan, dtype=np.float32)
                m = batch * h * wd
                grid = (mgp.cdiv(m, bm - 2), mgp.cdiv(k, bn))
                kernel[grid](x, w, bias, residual, y, m, c, h, wd, k, *division_constants(h * wd),
                             *division_constants(wd), mgp.cdiv(c, bk), HAS_BIAS=int(epilogue),
                             HAS_RESIDUAL=int(epilogue), RELU=1, TF32=0, BLOCK_M=bm, BLOCK_N=bn,
                             BLOCK_K=bk, ROUND_TF32=0)
                assert_matches(self, y, want)


def tuner_candidates(array):
    """The make(BM, BN, BK, warps, stages) tiles of ConvTuner.cpp's
    `static const ConvConfig ARRAY[] = {...}` list, but those split in two or
    in another A order (the bench times every tile in each order, unsplit)."""
    with open(os.path.join(ROOT, "graph", "tune", "ConvTuner.cpp")) as f:
        text = f.read()
    body = re.search(r"static const ConvConfig " + array + r"\[\] = \{(.*?)\n  \};", text, re.S)
    assert body, f"no list {array} in ConvTuner.cpp"
    entries = re.findall(r"(splitInTwo\(|throughL1\(|chunksFirst\()?make\((\d+), (\d+), (\d+), (\d+), (\d+)\)",
                         body.group(1))
    return [tuple(int(v) for v in e[1:]) for e in entries if not e[0]]


class BenchTiles(unittest.TestCase):
    def test_bench_lists_are_the_tuners(self):
        # The bench times "the tuner's tiles" (and requires them to run):
        # its copy must be the tuner's sm_90a lists, split-K and L1 aside.
        with open(os.path.join(ROOT, "bench", "conv_layers.py")) as f:
            tree = ast.parse(f.read())
        configs = next(ast.literal_eval(node.value) for node in tree.body
                       if isinstance(node, ast.Assign) and
                       getattr(node.targets[0], "id", None) == "CONFIGS")
        for key, array in (("16", "sixteenBit"), ("tf32", "tf32")):
            with self.subTest(list=array):
                tuner = tuner_candidates(array)
                self.assertGreaterEqual(len(tuner), 2)
                self.assertEqual(sorted(configs[key]), sorted(tuner))


if __name__ == "__main__":
    unittest.main()
