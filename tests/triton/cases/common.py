"""Input generators and reference helpers shared by the case files."""

import numpy as np
import torch

from suite.registry import (BF16, EXACT, FP16, FP32, FP32_LOOSE, FP8, TF32,  # noqa: F401
                            Close, Exact, register)

# Why a case does not run on Triton's interpreter.
INTERP_BF16 = "Triton's interpreter computes bf16 arithmetic (and bf16 dots) on the raw uint16 bits"
INTERP_FP8_ROUND = ("Triton's interpreter rounds fp32 -> fp8 without carrying into the exponent "
                    "(127.2 becomes 64, not 128)")
INTERP_BF16_ROUND = ("Triton's interpreter truncates fp32 -> bf16 (the GPU rounds to nearest even), "
                     "so a bit-exact bf16 result cannot match")


def randn(gen, *shape, dtype=torch.float32, scale=1.0, shift=0.0):
    return (torch.randn(*shape, generator=gen, dtype=torch.float64) * scale + shift).to(dtype)


def rand(gen, *shape, dtype=torch.float32, lo=0.0, hi=1.0):
    return (torch.rand(*shape, generator=gen, dtype=torch.float64) * (hi - lo) + lo).to(dtype)


def randint(gen, lo, hi, *shape, dtype=torch.int32):
    return torch.randint(lo, hi, shape, generator=gen, dtype=torch.int64).to(dtype)


def f64(t):
    return t.to(torch.float64)


def as_dtype(dtype_name):
    return {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
            "fp64": torch.float64}[dtype_name]


def tol_for(dtype):
    return {torch.float32: FP32, torch.float16: FP16, torch.bfloat16: BF16,
            torch.float64: Close(1e-12, 1e-12)}[dtype]


def rounded(t, dtype):
    """A float64 reference rounded to a kernel's output dtype, as float64."""
    return t.to(dtype).to(torch.float64)


def _block_ptr_removed():
    """Why tl.make_block_ptr cannot run on the installed Triton, or None.
    Triton 3.6 has block pointers; later releases raise NotImplementedError
    ("removed in favor of the tensor descriptor API")."""
    import inspect
    try:
        import triton.language as tl
        source = inspect.getsource(tl.make_block_ptr)
    except Exception:
        return None
    if "removed" in source:
        import triton
        return f"Triton {triton.__version__} removed tl.make_block_ptr (Triton 3.6 has it)"
    return None


NO_BLOCK_PTR = _block_ptr_removed()
BLOCK_PTR_SKIP = {"triton-interp": NO_BLOCK_PTR, "triton": NO_BLOCK_PTR,
                  "triton-compile": NO_BLOCK_PTR}
