"""Signature derivation and specialization keys against Triton's rules.

The expected pairs are Triton 3.6's (triton/runtime/jit.py specialize_impl
with the NVIDIA backend's alignment rule, native or Python): derived from
those rules by hand, one row per case, so a change in mgp's rules shows here
even where Triton is not installed (test_triton_parity checks the same table
against Triton itself when it is).
"""
import random
import unittest

import mgp
from mgp import _launch, _types

from fake_tensors import FakeTensor

TABLE = [
    # (value, Triton's (type, key), mgp's signature entry)
    (None, ("constexpr", None), TypeError),
    (True, ("u1", None), "i1"),
    (False, ("u1", None), "i1"),
    (1, ("constexpr", 1), "1"),
    (0, ("i32", "D"), "i32:16"),
    (16, ("i32", "D"), "i32:16"),
    (-16, ("i32", "D"), "i32:16"),
    (17, ("i32", ""), "i32"),
    (-1, ("i32", ""), "i32"),
    (2, ("i32", ""), "i32"),
    (2**31 - 1, ("i32", ""), "i32"),
    (-(2**31), ("i32", "D"), "i32:16"),
    (2**31, ("i64", "D"), "i64:16"),
    (-(2**31) - 1, ("i64", ""), "i64"),
    (2**40 + 3, ("i64", ""), "i64"),
    (2**63 - 1, ("i64", ""), "i64"),
    (-(2**63), ("i64", "D"), "i64:16"),
    (2**63, ("u64", "D"), "u64:16"),
    (2**64 - 1, ("u64", ""), "u64"),
    (1.0, ("fp32", None), "fp32"),
    (-2.5, ("fp32", None), "fp32"),
    (float("inf"), ("fp32", None), "fp32"),
    (FakeTensor("torch.float32", 0x7F0000001000), ("*fp32", "D"), "*fp32:16"),
    (FakeTensor("torch.float32", 0x7F0000001004), ("*fp32", ""), "*fp32"),
    (FakeTensor("torch.float16", 0x7F0000001008), ("*fp16", ""), "*fp16"),
    (FakeTensor("torch.bfloat16", 0x7F0000001010), ("*bf16", "D"), "*bf16:16"),
    (FakeTensor("torch.bool", 0x7F0000001010), ("*u1", "D"), "*i1:16"),
    (FakeTensor("torch.uint8", 0x7F0000001011), ("*u8", ""), "*u8"),
    (FakeTensor("torch.int8", 0x7F0000001000), ("*i8", "D"), "*i8:16"),
    (FakeTensor("torch.int16", 0x7F0000001000), ("*i16", "D"), "*i16:16"),
    (FakeTensor("torch.int32", 0x7F0000001000), ("*i32", "D"), "*i32:16"),
    (FakeTensor("torch.int64", 0x7F0000001008), ("*i64", ""), "*i64"),
    (FakeTensor("torch.float64", 0x7F0000001000), ("*fp64", "D"), "*fp64:16"),
    (FakeTensor("torch.float8_e4m3fn", 0x7F0000001000), ("*fp8e4nv", "D"),
     "*fp8e4nv:16"),
    (FakeTensor("torch.float8_e5m2", 0x7F0000001001), ("*fp8e5", ""), "*fp8e5"),
    (FakeTensor("torch.float8_e4m3fnuz", 0x7F0000001000), ("*fp8e4b8", "D"),
     TypeError),
    (mgp.constexpr(5), ("constexpr", mgp.constexpr(5)), "5"),
    (mgp.constexpr(0.25), ("constexpr", mgp.constexpr(0.25)), "0.25"),
]

# do_not_specialize drops keys and the == 1 rule; do_not_specialize_on_alignment
# keeps == 1 but never says "D".
NO_SPECIALIZE = [
    (1, ("i32", None), "i32"),
    (16, ("i32", None), "i32"),
    (2**40, ("i64", None), "i64"),
    (FakeTensor("torch.float32", 0x1000), ("*fp32", None), "*fp32"),
    (True, ("u1", None), "i1"),
    (2.0, ("fp32", None), "fp32"),
]
NO_ALIGN = [
    (1, ("constexpr", 1), "1"),
    (16, ("i32", ""), "i32"),
    (2**63, ("u64", ""), "u64"),
    (FakeTensor("torch.float32", 0x1000), ("*fp32", ""), "*fp32"),
]


@mgp.jit
def table_kernel(a):
    pass


def _entry(pair):
    return _types.signature_entry(pair, "a")


class SignatureTable(unittest.TestCase):
    def check_rows(self, rows, specialize=True, align=True):
        for value, pair, entry in rows:
            with self.subTest(value=value):
                self.assertEqual(_types.specialize(value, specialize, align), pair)
                if entry is TypeError:
                    self.assertRaises(TypeError, _entry, pair)
                else:
                    self.assertEqual(_entry(pair), entry)

    def test_default_rules(self):
        self.check_rows(TABLE)

    def test_do_not_specialize(self):
        self.check_rows(NO_SPECIALIZE, specialize=False)

    def test_do_not_specialize_on_alignment(self):
        self.check_rows(NO_ALIGN, align=False)

    def test_integer_beyond_64_bits(self):
        with self.assertRaises(OverflowError):
            _types.specialize(2**64)
        with self.assertRaises(OverflowError):
            _types.specialize(-(2**63) - 1)

    def test_dtype_names(self):
        cases = {"torch.float32": "fp32", "float16": "fp16", "bfloat16": "bf16",
                 "torch.bool": "u1", "uint8": "u8", "torch.float8_e5m2": "fp8e5"}
        for text, name in cases.items():
            self.assertEqual(_types.canonical_dtype(text), name)
        self.assertEqual(_types.canonical_dtype(mgp.float16), "fp16")
        self.assertEqual(_types.canonical_dtype(mgp.int1), "u1")
        self.assertEqual(_types.typestr_dtype("<f4"), "fp32")
        self.assertEqual(_types.typestr_dtype("|b1"), "u1")
        self.assertRaises(KeyError, _types.canonical_dtype, "complex64")
        self.assertRaises(KeyError, _types.typestr_dtype, "<c8")


def add_like(x_ptr, y_ptr, out_ptr, n, scale, stride, BLOCK: mgp.constexpr,
             FLAG: mgp.constexpr = False):
    pass


class KernelSignatures(unittest.TestCase):
    """Whole signatures of one kernel, as Triton would compile them."""

    def setUp(self):
        self.kernel = mgp.jit(add_like)
        self.x = FakeTensor("torch.float32", 0x10000)
        self.y = FakeTensor("torch.float32", 0x20004)
        self.out = FakeTensor("torch.float16", 0x30010)

    def test_signatures(self):
        k = self.kernel
        self.assertEqual(k.signature_of(self.x, self.y, self.out, 4096, 0.5, 1,
                                        BLOCK=1024),
                         "*fp32:16,*fp32,*fp16:16,i32:16,fp32,1,1024,0")
        self.assertEqual(k.signature_of(self.x, self.x, self.x, 1000, 2.0, 7,
                                        128, True),
                         "*fp32:16,*fp32:16,*fp32:16,i32,fp32,i32,128,1")
        self.assertEqual(k.signature_of(self.y, self.y, self.y, 2**33, 1.0, 32,
                                        BLOCK=64),
                         "*fp32,*fp32,*fp32,i64:16,fp32,i32:16,64,0")
        # A float constexpr keeps its float spelling.
        self.assertEqual(k.signature_of(self.x, self.x, self.x, 1, 1.0, 1,
                                        BLOCK=0.5).split(",")[3:],
                         ["1", "fp32", "1", "0.5", "0"])

    def test_specialization_pairs(self):
        pairs = self.kernel.specialization(self.x, self.y, self.out, 1000, 0.5,
                                           16, BLOCK=256)
        self.assertEqual(pairs, [("*fp32", "D"), ("*fp32", ""), ("*fp16", "D"),
                                 ("i32", ""), ("fp32", None), ("i32", "D"),
                                 ("constexpr", 256), ("constexpr", False)])

    def test_do_not_specialize_lists(self):
        k = mgp.jit(add_like, do_not_specialize=["n", 5],
                    do_not_specialize_on_alignment=["x_ptr"])
        self.assertEqual(k.signature_of(self.x, self.x, self.x, 16, 1.0, 1,
                                        BLOCK=8),
                         "*fp32,*fp32:16,*fp32:16,i32,fp32,i32,8,0")


POOL = [0, 1, 2, 15, 16, 17, -16, 2**31, 2**31 + 16, 2**63, 2**63 + 3, True,
        False, 1.0, 0.5, FakeTensor("torch.float32", 0x1000),
        FakeTensor("torch.float32", 0x1004), FakeTensor("torch.float16", 0x1000),
        FakeTensor("torch.bool", 0x1008), mgp.constexpr(3)]


class KeysMatchSignatures(unittest.TestCase):
    """The launcher's cheap key and the signature agree: equal keys give
    equal signatures (no kernel is reused for another specialization), and
    different signatures give different keys (no needless compile; a bool
    constexpr and the int it equals are the exception, keyed apart)."""

    def check_keys(self, key_function):
        kernel = mgp.jit(add_like)
        rng = random.Random(7)
        seen = {}
        for _ in range(3000):
            args = [rng.choice(POOL) for _ in range(6)]
            block = rng.choice([64, 128, 1.0, 64.0])
            values, _ = kernel._binder(*args, BLOCK=block)
            key = key_function(kernel)(values)[0]
            signature = kernel.signature_of(*args, BLOCK=block)
            if key in seen:
                self.assertEqual(seen[key], signature, msg=f"key {key}")
            seen[key] = signature
        by_signature = {}
        for key, signature in seen.items():
            by_signature.setdefault(signature, set()).add(key)
        for signature, keys in by_signature.items():
            self.assertEqual(len(keys), 1, msg=f"{signature}: {keys}")
        self.assertGreater(len(seen), 500)

    def test_interpreter_keys(self):
        self.check_keys(lambda k: _launch.make_key_function(k.params, gpu=False))

    def test_gpu_keys(self):
        self.check_keys(lambda k: _launch.make_key_function(k.params, gpu=True))

    def test_gpu_keys_of_torch_tensors(self):
        try:
            import torch
        except ImportError:
            self.skipTest("PyTorch is not installed")
        kernel = mgp.jit(add_like)
        key = _launch.make_key_function(kernel.params, gpu=True)
        base = torch.empty(64)
        cases = [(base, base, base), (base[1:], base, base),
                 (base, base.half(), base), (base, base, torch.nn.Parameter(base))]
        seen = {}
        for tensors in cases:
            values, _ = kernel._binder(*tensors, 16, 1.0, 2, BLOCK=8)
            k, launch = key(values)
            self.assertEqual(launch[0], tensors[0].data_ptr())
            signature = kernel.signature_of(*tensors, 16, 1.0, 2, BLOCK=8)
            self.assertEqual(seen.setdefault(k, signature), signature)
        self.assertEqual(len(seen), 3)  # the Parameter keys like its tensor


if __name__ == "__main__":
    unittest.main()
