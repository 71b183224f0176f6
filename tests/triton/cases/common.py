"""Input generators and reference helpers shared by the case files."""

import numpy as np
import torch

from suite.registry import (BF16, EXACT, FP16, FP32, FP32_LOOSE, FP8, TF32,  # noqa: F401
                            Close, Exact, register)

# Why a case does not run on Triton's interpreter.
INTERP_BF16 = "Triton's interpreter computes bf16 arithmetic (and bf16 dots) on the raw uint16 bits"
INTERP_FP8_ROUND = ("Triton's interpreter rounds fp32 -> fp8 without carrying into the exponent "
                    "(127.2 becomes 64, not 128)")
INTERP_E4B15 = ("Triton's interpreter converts float8e4b15 with its generic float code (round to "
                "nearest even, no saturation at 1.75), not as Triton's CUDA backend does")
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


def e4b15_bits(x):
    """float8e4b15 codes of float32/float16 `x` as Triton's CUDA backend
    makes them: fp32 to fp16 toward zero (NaN the canonical 0x7FFF), the
    magnitude clamped to 1.75, rounded half away from zero to 3 bits."""
    x = x.detach().cpu()
    if x.dtype == torch.float32:
        h = x.to(torch.float16)  # to nearest even, then one step toward zero
        farther = (h.float().view(torch.int32) & 0x7FFFFFFF) > (x.view(torch.int32) & 0x7FFFFFFF)
        bits = h.view(torch.int16).to(torch.int32) & 0xFFFF
        bits = torch.where(farther, bits - 1, bits)
        bits = torch.where(torch.isnan(x), torch.full_like(bits, 0x7FFF), bits)
    else:
        bits = x.view(torch.int16).to(torch.int32) & 0xFFFF
    magnitude = torch.clamp(bits & 0x7FFF, max=0x3F00)
    return (((bits & 0x8000) | (magnitude * 2 + 0x80)) >> 8).to(torch.uint8)


def e4b15_value(codes):
    """The fp16 value of float8e4b15 codes: sign, then the other seven bits
    in fp16's exponent and mantissa (the same bias)."""
    c = codes.to(torch.int32)
    return (((c & 0x80) << 8) | ((c & 0x7F) << 7)).to(torch.int16).view(torch.float16)
