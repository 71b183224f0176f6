"""Every error of the Python launch path, with its message, on the
interpreter (MGP_INTERPRET=1): compile errors carry the compiler's located
diagnostic; bad calls raise before anything runs and name the parameter."""
import os
import unittest

try:
    import numpy as np
except ImportError:
    raise unittest.SkipTest("numpy is not installed (pip install numpy)")

import mgp

import mgp_kernels as K
from fake_tensors import FakeCudaArray, FakeTensor

KERNEL_FILE = os.path.abspath(K.__file__)


def arrays(n, count=3):
    rng = np.random.default_rng(n)
    return [rng.standard_normal(n).astype(np.float32) for _ in range(count)]


def not_in_any_kernel_file(x):
    pass  # no @jit here: mgp finds no kernel of this name in the file


class CompileErrors(unittest.TestCase):
    def test_located_diagnostic(self):
        x = np.zeros(16, np.float32)
        with self.assertRaises(mgp.CompileError) as caught:
            K.broken_kernel[(1,)](x, BLOCK=16)
        message = str(caught.exception)
        with open(KERNEL_FILE) as f:
            lines = f.read().splitlines()
        line = next(i for i, text in enumerate(lines, 1)
                    if "not_defined_anywhere" in text)
        self.assertIn(f"{KERNEL_FILE}:{line}:", message)
        self.assertIn("error:", message)
        self.assertIn("not_defined_anywhere", message)
        self.assertIn(lines[line - 1], message)  # the source line, then a caret
        self.assertRegex(message, r"\n *\^")

    def test_unknown_kernel(self):
        kernel = mgp.jit(not_in_any_kernel_file)
        with self.assertRaises(mgp.KernelNotFoundError) as caught:
            kernel[(1,)](np.zeros(4, np.float32))
        self.assertIn("no @jit kernel 'not_in_any_kernel_file'", str(caught.exception))

    def test_bad_options(self):
        x, y, out = arrays(64)
        with self.assertRaises(mgp.InvalidArgumentError) as caught:
            K.add_kernel[(1,)](x, y, out, 64, BLOCK=64, num_warps=3)
        self.assertIn("num_warps must be a power of two in 1..32, got 3",
                      str(caught.exception))
        with self.assertRaisesRegex(ValueError, "num_ctas must be positive, got 0"):
            K.add_kernel[(1,)](x, y, out, 64, BLOCK=64, num_ctas=0)
        with self.assertRaisesRegex(ValueError, "precision='fp8'"):
            K.add_kernel[(1,)](x, y, out, 64, BLOCK=64, precision="fp8")


class ArgumentErrors(unittest.TestCase):
    def setUp(self):
        self.x, self.y, self.out = arrays(64)

    def test_missing_arguments(self):
        with self.assertRaises(TypeError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out)
        self.assertEqual(str(caught.exception),
                         "kernel 'add_kernel' is missing argument(s) 'n', "
                         "'BLOCK' (a tl.constexpr)")

    def test_missing_constexpr(self):
        with self.assertRaises(TypeError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out, 64)
        self.assertEqual(str(caught.exception),
                         "kernel 'add_kernel' is missing argument(s) 'BLOCK' "
                         "(a tl.constexpr)")

    def test_too_many_arguments(self):
        with self.assertRaises(TypeError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out, 64, 64, 5)
        self.assertIn("kernel 'add_kernel'", str(caught.exception))
        self.assertIn("parameters: x_ptr, y_ptr, out_ptr, n, BLOCK",
                      str(caught.exception))

    def test_unknown_keyword(self):
        with self.assertRaises(KeyError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out, 64, BLOCK=64, BLOK=3)
        self.assertIn("BLOK specified but not recognised", str(caught.exception))

    def test_unsupported_dtypes(self):
        complex_input = np.zeros(64, np.complex64)
        with self.assertRaises(TypeError) as caught:
            K.add_kernel[(1,)](complex_input, self.y, self.out, 64, BLOCK=64)
        self.assertIn("kernel 'add_kernel', argument 'x_ptr': unsupported",
                      str(caught.exception))
        fnuz = FakeTensor("torch.float8_e4m3fnuz", 0x1000, device=-1)
        with self.assertRaises(TypeError) as caught:
            K.add_kernel[(1,)](self.x, fnuz, self.out, 64, BLOCK=64)
        self.assertIn("argument 'y_ptr': unsupported dtype fp8e4b8",
                      str(caught.exception))

    def test_unsupported_constexprs(self):
        # None, strings and dtypes are baked into the kernel's text; what has
        # no spelling in a kernel (a list, an arbitrary object) is refused.
        with self.assertRaises(TypeError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out, 64, BLOCK=[64])
        self.assertIn("argument 'BLOCK': a constexpr list [64] is not supported",
                      str(caught.exception))
        with self.assertRaises(TypeError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out, 64, BLOCK=object())
        self.assertIn("argument 'BLOCK': a constexpr object", str(caught.exception))

    def test_constexprs_the_kernel_cannot_use(self):
        # A None pointer and a string block size reach the compiler, which
        # says where the kernel cannot use them (Triton fails there too).
        with self.assertRaises(mgp.CompileError) as caught:
            K.add_kernel[(1,)](self.x, None, self.out, 64, BLOCK=64)
        self.assertIn("mgp_kernels.py", str(caught.exception))
        with self.assertRaises(mgp.CompileError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out, 64, BLOCK="64")
        self.assertIn("arange", str(caught.exception))

    def test_integer_too_large(self):
        with self.assertRaises(OverflowError) as caught:
            K.add_kernel[(1,)](self.x, self.y, self.out, 2**64, BLOCK=64)
        self.assertIn("kernel 'add_kernel', argument 'n'", str(caught.exception))

    def test_gpu_memory_on_the_interpreter(self):
        cuda_tensor = FakeTensor("torch.float32", 0x7F0000000000, device=0)
        with self.assertRaises(ValueError) as caught:
            K.add_kernel[(1,)](cuda_tensor, self.y, self.out, 64, BLOCK=64)
        self.assertIn("argument 'x_ptr': GPU memory cannot be passed to the "
                      "interpreter", str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            K.add_kernel[(1,)](self.x, self.y, FakeCudaArray("<f4", 0x1000), 64,
                               BLOCK=64)
        self.assertIn("argument 'out_ptr': GPU memory", str(caught.exception))

    def test_host_memory_on_the_gpu(self):
        # The GPU launch path's device checks, run without a GPU.
        kernel = K.add_kernel
        cpu_tensor = FakeTensor("torch.float32", 0x1000, device=-1)
        other = FakeTensor("torch.float32", 0x1000, device=3)
        cuda = FakeTensor("torch.float32", 0x1000, device=0)
        cases = [
            ((cpu_tensor, cuda, cuda), "argument 'x_ptr': a CPU tensor cannot "
                                       "be passed to a GPU kernel"),
            ((cuda, self.y, cuda), "argument 'y_ptr': ndarray is host memory "
                                   "and cannot be passed to a GPU kernel"),
            ((cuda, cuda, other), "argument 'out_ptr': the tensor is on cuda:3 "
                                  "but the kernel launches on cuda:0"),
        ]
        for tensors, message in cases:
            values, _ = kernel._binder(*tensors, 64, BLOCK=64)
            pairs = [kernel._pair(p, values[p.num]) for p in kernel.params]
            with self.assertRaises(ValueError) as caught:
                kernel._launch_device(values, pairs)
            self.assertIn(message, str(caught.exception))
        values, _ = kernel._binder(cuda, cuda, cuda, 64, BLOCK=64)
        pairs = [kernel._pair(p, values[p.num]) for p in kernel.params]
        self.assertEqual(kernel._launch_device(values, pairs), 0)


class GridErrors(unittest.TestCase):
    def setUp(self):
        self.x, self.y, self.out = arrays(64)

    def launch(self, grid):
        K.add_kernel[grid](self.x, self.y, self.out, 64, BLOCK=64)

    def test_empty_grid(self):
        with self.assertRaises(ValueError) as caught:
            self.launch((0,))
        self.assertEqual(str(caught.exception),
                         "kernel 'add_kernel': grid (0, 1, 1) has an empty dimension")
        with self.assertRaisesRegex(ValueError, r"grid \(1, -2, 1\) has an empty"):
            self.launch((1, -2))
        with self.assertRaisesRegex(ValueError, "empty dimension"):
            self.launch(lambda meta: (0,))

    def test_grid_beyond_limits(self):
        with self.assertRaises(ValueError) as caught:
            self.launch((1, 70000))
        self.assertEqual(str(caught.exception),
                         "kernel 'add_kernel': grid (1, 70000, 1) exceeds the "
                         "device's limits (2147483647, 65535, 65535)")
        with self.assertRaisesRegex(ValueError, "exceeds"):
            self.launch((2**31,))

    def test_grid_shape_and_types(self):
        with self.assertRaisesRegex(ValueError, "must have 1 to 3 dimensions"):
            self.launch((1, 1, 1, 1))
        with self.assertRaisesRegex(TypeError, "must hold integers, got 2.5"):
            self.launch((2.5,))


class ExecutionErrors(unittest.TestCase):
    def test_out_of_bounds_access(self):
        x, y, _ = arrays(64)
        small = np.zeros(32, np.float32)
        with self.assertRaises(mgp.ExecutionError) as caught:
            K.add_kernel[(1,)](x, y, small, 64, BLOCK=64)
        self.assertTrue(str(caught.exception))

    def test_inline_asm_on_the_interpreter(self):
        # Inline PTX cannot be interpreted: a located error, nothing run.
        x, y, _ = arrays(16)
        before = y.copy()
        with self.assertRaises(mgp.MgpError) as caught:
            K.inline_asm_kernel[(1,)](x, y, BLOCK=16)
        message = str(caught.exception)
        self.assertIn("tl.inline_asm_elementwise runs PTX, which the interpreter "
                      "cannot: run this kernel on the GPU", message)
        self.assertIn(f"{KERNEL_FILE}:", message)
        np.testing.assert_array_equal(y, before)

    def test_host_placeholders(self):
        with self.assertRaisesRegex(RuntimeError, "mgp.language.program_id is "
                                                  "a kernel builtin"):
            mgp.program_id(0)
        with self.assertRaisesRegex(RuntimeError, "tl.range|mgp.language.range"):
            mgp.language.range(4)


if __name__ == "__main__":
    unittest.main()
