"""The text mgp compiles for kernels that are not plain top-level functions
of their file (python/mgp/_source.py), on the interpreter against NumPy:
kernels defined inside a function that call the file's helpers and use
what they captured (constants, dtypes, helper functions), a triton.jit
kernel whose source was replaced (Triton's tests patch kernels so), and
constexpr arguments that signatures cannot carry (strings, None, dtypes), which become a wrapper kernel with the values baked in."""
import os
import unittest

os.environ.setdefault("MGP_INTERPRET", "1")

try:
    import numpy as np
except ImportError:
    raise unittest.SkipTest("numpy is not installed (pip install numpy)")

import mgp
import mgp.language as tl

import mgp_kernels as K

SCALE = 3


@mgp.jit
def twice(x):
    return x * 2


@mgp.jit
def apply_kernel(X, Y, N: tl.constexpr, OP: tl.constexpr, OUT: tl.constexpr,
                 BIAS: tl.constexpr):
    offs = tl.arange(0, N)
    x = twice(tl.load(X + offs))
    if OP == "neg":
        x = -x
    if BIAS is not None:
        x = x + BIAS
    tl.store(Y + offs, x.to(OUT))


@mgp.jit
def copy_kernel(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Y + offs, tl.load(X + offs))


def floats(n=16):
    return np.arange(1, n + 1, dtype=np.float32)


class NestedKernels(unittest.TestCase):

    def test_nested_kernel_calls_a_helper_of_its_file(self):
        @mgp.jit
        def kernel(X, Y, N: tl.constexpr):
            offs = tl.arange(0, N)
            tl.store(Y + offs, twice(tl.load(X + offs)) * SCALE)

        x = floats()
        y = np.zeros_like(x)
        kernel[(1,)](x, y, N=16)
        np.testing.assert_array_equal(y, x * 6)

    def test_nested_kernel_uses_its_closure(self):
        offset = 5
        dtype = tl.float16

        @mgp.jit
        def add(x):
            return x + offset

        @mgp.jit
        def kernel(X, Y, N: tl.constexpr):
            offs = tl.arange(0, N)
            tl.store(Y + offs, add(tl.load(X + offs)).to(dtype))

        x = floats()
        y = np.zeros(16, dtype=np.float16)
        kernel[(1,)](x, y, N=16)
        np.testing.assert_array_equal(y, (x + 5).astype(np.float16))

    def test_two_nested_kernels_of_one_name(self):
        def make(k):
            @mgp.jit
            def kernel(X, Y, N: tl.constexpr):
                offs = tl.arange(0, N)
                tl.store(Y + offs, tl.load(X + offs) + k)
            return kernel

        x = floats()
        for k in (1, 7):
            y = np.zeros_like(x)
            make(k)[(1,)](x, y, N=16)
            np.testing.assert_array_equal(y, x + k)


class ReplacedSource(unittest.TestCase):

    def test_triton_kernel_with_replaced_src(self):
        try:
            import triton
        except ImportError:
            self.skipTest("triton is not installed")
        original = triton.JITFunction(copy_kernel.fn)
        patched = triton.JITFunction(copy_kernel.fn)
        patched._unsafe_update_src(patched.src.replace(
            "tl.load(X + offs)", "tl.load(X + offs) * 4"))
        x = floats()
        y = np.zeros_like(x)
        mgp.jit(patched)[(1,)](x, y, N=16)
        np.testing.assert_array_equal(y, x * 4)
        mgp.jit(original)[(1,)](x, y, N=16)
        np.testing.assert_array_equal(y, x)


class BakedConstexprs(unittest.TestCase):

    def run_apply(self, op, out, bias, out_dtype):
        x = floats()
        y = np.zeros(16, dtype=out_dtype)
        apply_kernel[(1,)](x, y, N=16, OP=op, OUT=out, BIAS=bias)
        return x, y

    def test_string_none_and_dtype(self):
        x, y = self.run_apply("neg", tl.float32, None, np.float32)
        np.testing.assert_array_equal(y, -2 * x)
        x, y = self.run_apply("keep", tl.float16, 0.5, np.float16)
        np.testing.assert_array_equal(y, (2 * x + 0.5).astype(np.float16))

    def test_each_value_is_its_own_specialization(self):
        x, y = self.run_apply("keep", tl.float32, None, np.float32)
        np.testing.assert_array_equal(y, 2 * x)
        x, y = self.run_apply("neg", tl.float32, None, np.float32)
        np.testing.assert_array_equal(y, -2 * x)
        x, y = self.run_apply("neg", tl.int32, 1, np.int32)
        np.testing.assert_array_equal(y, (1 - 2 * x).astype(np.int32))

    def test_none_for_an_unannotated_parameter(self):
        @mgp.jit
        def kernel(X, Y, B, N: tl.constexpr):
            offs = tl.arange(0, N)
            x = tl.load(X + offs)
            if B is not None:
                x += tl.load(B + offs)
            tl.store(Y + offs, x)

        x = floats()
        y = np.zeros_like(x)
        kernel[(1,)](x, y, None, N=16)
        np.testing.assert_array_equal(y, x)
        kernel[(1,)](x, y, x, N=16)
        np.testing.assert_array_equal(y, 2 * x)

    def test_fp8_dtypes(self):
        # Values 1..16 and their halves and quarters are exact in e5m2 and
        # e4m3: the bytes are the formats' codes.
        try:
            import torch
        except ImportError as e:
            self.skipTest(f"PyTorch is needed for the fp8 reference: {e}")

        @mgp.jit
        def kernel(X, Y, N: tl.constexpr, DT: tl.constexpr):
            offs = tl.arange(0, N)
            tl.store(Y + offs, tl.load(X + offs).to(DT).to(tl.uint8, bitcast=True))

        x = np.concatenate([floats(), -floats() / 2, floats() / 4, -floats() / 8])
        for dt, reference in ((tl.float8e5, torch.float8_e5m2),
                              (tl.float8e4nv, torch.float8_e4m3fn)):
            y = np.zeros(64, dtype=np.uint8)
            kernel[(1,)](x, y, N=64, DT=dt)
            want = torch.from_numpy(x).to(reference).view(torch.uint8).numpy()
            np.testing.assert_array_equal(y, want, err_msg=str(dt))

    def test_unspellable_constexpr_is_refused(self):
        with self.assertRaises(TypeError) as caught:
            self.run_apply(["neg"], tl.float32, None, np.float32)
        self.assertIn("argument 'OP': a constexpr list", str(caught.exception))


@mgp.jit
def tuple_kernel(T, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(T[0] + offs) * T[1]
    if T[2] is not None:
        x += tl.load(T[2][0] + offs) * T[2][1]
    tl.store(Y + offs, x)


class TupleArguments(unittest.TestCase):
    """Triton flattens tuple arguments; mgp launches a variant over the
    elements that rebuilds the tuples (mgp/_compound.py)."""

    def test_flat_and_nested_tuples(self):
        x = floats()
        y = np.zeros_like(x)
        tuple_kernel[(1,)]((x, 3, None), y, N=16)
        np.testing.assert_array_equal(y, 3 * x)
        tuple_kernel[(1,)]((x, 1, (x, 2.5)), y, N=16)
        np.testing.assert_array_equal(y, x + 2.5 * x)
        tuple_kernel[(1,)]((x, 2, (x, -1.0)), y, N=16)
        np.testing.assert_array_equal(y, x)


@mgp.jit
def descriptor_tile_kernel(x_desc, out_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One tile at the corner: elements past the shape read the padding.
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    tile = x_desc.load([0, 0])
    tl.store(out_ptr + rm[:, None] * BLOCK_N + rn[None, :], tile)


@mgp.jit
def descriptor_reduce_kernel(out_desc, a_ptr, M, N, M_BLOCK: tl.constexpr, N_BLOCK: tl.constexpr,
                             KIND: tl.constexpr):
    moffset = tl.program_id(0) * M_BLOCK
    noffset = tl.program_id(1) * N_BLOCK
    rm = moffset + tl.arange(0, M_BLOCK)[:, None]
    rn = noffset + tl.arange(0, N_BLOCK)[None, :]
    val = tl.load(a_ptr + rm * N + rn, mask=(rm < M) & (rn < N), other=0)
    if KIND == "add":
        out_desc.atomic_add([moffset, noffset], val)
    elif KIND == "min":
        out_desc.atomic_min([moffset, noffset], val)
    elif KIND == "max":
        out_desc.atomic_max([moffset, noffset], val)
    elif KIND == "and":
        out_desc.atomic_and([moffset, noffset], val)
    elif KIND == "or":
        out_desc.atomic_or([moffset, noffset], val)
    else:
        out_desc.atomic_xor([moffset, noffset], val)


class TensorDescriptorArguments(unittest.TestCase):
    """Host TensorDescriptors (triton.tools.tensor_descriptor): mgp launches
    a variant over base, shape and strides that rebuilds each descriptor
    with tl.make_tensor_descriptor (mgp/_compound.py)."""

    def setUp(self):
        try:
            import torch
            from triton.tools.tensor_descriptor import TensorDescriptor
        except ImportError:
            self.skipTest("torch and triton are not both installed")
        self.torch, self.TensorDescriptor = torch, TensorDescriptor

    def test_ragged_tiles_through_a_strided_view(self):
        torch, TD = self.torch, self.TensorDescriptor
        gen = torch.Generator().manual_seed(7)
        for (m, n), (bm, bn) in (((100, 70), (32, 16)), ((64, 64), (16, 64)), ((5, 24), (8, 8))):
            with self.subTest(shape=(m, n), block=(bm, bn)):
                # Row strides are multiples of 16 bytes (a TensorDescriptor
                # asks for it); the views are ragged. y is the top-left of a
                # larger NaN buffer: stores stop at the descriptor's shape.
                x = torch.randn(m, n + 4 - n % 4, generator=gen)[:, :n]
                full = torch.full((m + 3, n + 12 - n % 4), float("nan"))
                y = full[:m, :n]
                grid = ((m + bm - 1) // bm, (n + bn - 1) // bn)
                K.descriptor_scale_kernel[grid](TD(x, x.shape, x.stride(), [bm, bn]),
                                              TD(y, y.shape, y.stride(), [bm, bn]), 2.5,
                                              BLOCK_M=bm, BLOCK_N=bn)
                np.testing.assert_array_equal(y.numpy(), (x * 2.5).numpy())
                self.assertTrue(torch.isnan(full[m:, :]).all() and torch.isnan(full[:, n:]).all())

    def test_atomics(self):
        # desc.atomic_*(offsets, value) on a ragged view: elements past the
        # shape are left alone (the buffer around the view keeps its values).
        torch, TD = self.torch, self.TensorDescriptor
        gen = torch.Generator().manual_seed(11)
        ops = {"add": torch.add, "min": torch.minimum, "max": torch.maximum,
               "and": torch.bitwise_and, "or": torch.bitwise_or, "xor": torch.bitwise_xor}
        m, n = 37, 20
        for kind, dtype in [(k, torch.int32) for k in ops] + [("add", torch.float32)]:
            with self.subTest(kind=kind, dtype=dtype):
                if dtype == torch.int32:
                    full = torch.randint(-1000, 1000, (m + 2, 24), generator=gen, dtype=dtype)
                    a = torch.randint(-1000, 1000, (m, n), generator=gen, dtype=dtype)
                else:
                    full = torch.randn(m + 2, 24, generator=gen)
                    a = torch.randn(m, n, generator=gen)
                before = full.clone()
                out = full[:m, :n]
                descriptor_reduce_kernel[(3, 2)](TD(out, out.shape, out.stride(), [16, 16]), a,
                                                 m, n, M_BLOCK=16, N_BLOCK=16, KIND=kind)
                expected = before.clone()
                expected[:m, :n] = ops[kind](before[:m, :n], a)
                np.testing.assert_array_equal(full.numpy(), expected.numpy())

    def test_padding(self):
        torch, TD = self.torch, self.TensorDescriptor
        x = torch.randn(5, 8, generator=torch.Generator().manual_seed(3))[:, :6]
        for padding, fill in (("zero", 0.0), ("nan", float("nan"))):
            with self.subTest(padding=padding):
                out = torch.full((8, 8), 7.0)
                descriptor_tile_kernel[(1,)](TD(x, x.shape, x.stride(), [8, 8], padding),
                                             out, BLOCK_M=8, BLOCK_N=8)
                expected = torch.full((8, 8), fill)
                expected[:5, :6] = x
                np.testing.assert_array_equal(out.numpy(), expected.numpy())


class TensorWrappers(unittest.TestCase):

    def test_reinterpreted_tensor(self):
        try:
            import torch
            import triton
        except ImportError:
            self.skipTest("torch and triton are not both installed")
        bits = torch.arange(-8, 8, dtype=torch.int32)
        wrapped = triton.reinterpret(bits, triton.language.uint32)
        out = torch.zeros(16, dtype=torch.int32)
        copy_kernel[(1,)](wrapped, out, N=16)
        np.testing.assert_array_equal(out.numpy(), bits.numpy())
        # On the GPU the launch value is the address (an int for the packer);
        # TensorWrapper sets base and dtype per instance, not on its class.
        from mgp import _launch
        key, value = _launch.key_value(wrapped)
        self.assertEqual(value, bits.data_ptr())
        self.assertEqual(key[0], wrapped.dtype)


class TritonWarmup(unittest.TestCase):

    def test_triton_mock_tensor_passes_the_gpu_device_checks(self):
        # triton's JITFunction.warmup wraps torch dtypes in its MockTensor
        # (data_ptr 0, no device); the GPU path must take it as a tensor.
        try:
            from triton.runtime.jit import MockTensor
            import torch
        except ImportError:
            self.skipTest("torch and triton are not both installed")
        mock = MockTensor(torch.float32)
        values, _ = copy_kernel._binder(mock, mock, N=16)
        pairs = [copy_kernel._pair(p, values[p.num]) for p in copy_kernel.params]
        self.assertEqual(pairs[0], ("*fp32", "D"))
        from unittest import mock
        with mock.patch("mgp.runtime.current_device", return_value=0):
            self.assertEqual(copy_kernel._launch_device(values, pairs), 0)


class Pruning(unittest.TestCase):

    def test_unreached_functions_are_blanked_lines_kept(self):
        from mgp import _source
        text = ("import triton.language as tl\n"
                "def used(x):\n    return x\n"
                "def host(a):\n    return [i for i in a]\n"
                "@jit\ndef k(X):\n    used(X)\n")
        pruned = _source.prune(text, {"k"})
        self.assertEqual(len(pruned.splitlines()), len(text.splitlines()))
        self.assertIn("def used", pruned)
        self.assertIn("def k", pruned)
        self.assertNotIn("def host", pruned)


if __name__ == "__main__":
    unittest.main()
