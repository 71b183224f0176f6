"""mgp's specialization against Triton's own, where Triton is installed (no
GPU needed): the same kernel and arguments through Triton's binder
(triton.runtime.jit.create_function_from_signature with the CUDA backend of
sm_90) and through mgp.jit give the same (type, key) pairs. Skipped, with
the reason, without Triton and PyTorch."""
import unittest

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as e:
    raise unittest.SkipTest(f"Triton and PyTorch are needed: {e}")

import mgp


@triton.jit
def parity_kernel(x_ptr, y_ptr, n, m, flag, scale, big, BLOCK: tl.constexpr):
    pass


@triton.jit(do_not_specialize=["m"], do_not_specialize_on_alignment=["n"])
def parity_flags_kernel(x_ptr, n, m, BLOCK: tl.constexpr):
    pass


def triton_binder(fn):
    """Triton's binder of ``fn`` for sm_90: args -> specialization pairs."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import make_backend
    from triton.runtime import jit as triton_jit
    backend = make_backend(GPUTarget("cuda", 90, 32))
    binder = triton_jit.create_function_from_signature(fn.signature, fn.params,
                                                       backend)

    def specialize(*args, **kwargs):
        result = binder(*args, **kwargs)
        pairs = result[1]
        return [tuple(p) for p in pairs]
    return specialize


def normalize(pairs):
    """Triton keeps constexpr objects and tensors' keys as it computed them;
    compare values, not wrappers."""
    out = []
    for kind, key in pairs:
        key = getattr(key, "value", key)
        out.append((kind, key))
    return out


class TritonParity(unittest.TestCase):
    def setUp(self):
        try:
            self.binder = triton_binder(parity_kernel)
            self.flags_binder = triton_binder(parity_flags_kernel)
        except Exception as e:  # an API this test does not know
            self.skipTest(f"cannot reach Triton {triton.__version__}'s binder: "
                          f"{type(e).__name__}: {e}")

    def test_same_pairs(self):
        base = torch.empty(4096, dtype=torch.float32)
        tensors = [base, base[1:], torch.empty(64, dtype=torch.float16),
                   torch.empty(64, dtype=torch.bfloat16),
                   torch.empty(64, dtype=torch.bool),
                   torch.empty(64, dtype=torch.uint8),
                   torch.empty(64, dtype=torch.int64)]
        ints = [0, 1, 2, 16, 17, -16, 2**31, 2**31 + 1, 2**63, 2**63 + 16]
        kernel = mgp.jit(parity_kernel)
        checked = 0
        for i, x in enumerate(tensors):
            y = tensors[(i + 3) % len(tensors)]
            for j, n in enumerate(ints):
                m = ints[(j + 5) % len(ints)]
                big = ints[(j + 2) % len(ints)]
                args = (x, y, n, m, j % 2 == 0, 0.5, big)
                want = normalize(self.binder(*args, BLOCK=128))
                got = normalize(kernel.specialization(*args, BLOCK=128))
                self.assertEqual(got, want, msg=f"args {args}")
                checked += 1
        self.assertEqual(checked, len(tensors) * len(ints))

    def test_do_not_specialize(self):
        kernel = mgp.jit(parity_flags_kernel)
        x = torch.empty(64)
        for n, m in [(1, 1), (16, 16), (17, 32), (2**40, 1)]:
            want = normalize(self.flags_binder(x, n, m, BLOCK=32))
            got = normalize(kernel.specialization(x, n, m, BLOCK=32))
            self.assertEqual(got, want, msg=f"n={n} m={m}")


if __name__ == "__main__":
    unittest.main()
