"""The case registry of the Triton kernel suite.

This file implements `Case` (one kernel family under test: the kernels it
launches, its host launcher, its inputs per shape, its reference and how its
outputs are compared), the comparison kinds (`Close`, `Exact`, `Fp8`) and the
global registry that `cases/*.py` fill with `register(...)`.
"""

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Sequence

import numpy as np

# The launchers a case can run on (suite/launchers.py), and the compile check
# of check_triton_compile.py (a case skipped there is not valid Triton of the
# installed version, e.g. tl.make_block_ptr after its removal).
LAUNCHERS = ("triton-interp", "triton", "mgp", "mgp-interp", "triton-compile")


@dataclass(frozen=True)
class Close:
    """|out - ref| <= atol + rtol * |ref| element-wise; a NaN/Inf in the output
    where the reference is finite fails."""
    rtol: float
    atol: float

    def describe(self):
        return f"rtol={self.rtol:g} atol={self.atol:g}"


@dataclass(frozen=True)
class Exact:
    """Bit-equal values (integers, copies, selections)."""

    def describe(self):
        return "exact"


# Tolerances by the precision the kernel computes in.
FP32 = Close(1e-5, 1e-5)
FP32_LOOSE = Close(1e-4, 1e-5)   # long reductions, transcendental chains
TF32 = Close(1e-2, 1e-2)         # tl.dot with fp32 inputs (tf32 on GPUs)
FP16 = Close(1e-2, 1e-2)
BF16 = Close(2e-2, 2e-2)
FP8 = Close(0.125, 0.02)         # e4m3: 3 mantissa bits, half an ulp is 2^-4
EXACT = Exact()


@dataclass
class Case:
    """One registered case.

    name: unique case name (`family.kernel`).
    module: the kernels module (tests/triton/kernels/*.py) holding the
        kernels and the host launcher.
    kernels: the module-level names of the kernels the host launches (the
        mgp launcher swaps exactly these; the compile checks compile them).
    host: the host launcher's name in `module`; called as host(*inputs)
        with tensors on the launcher's device, returns a tensor or a tuple.
    inputs: inputs(gen, *shape) -> list of host arguments (CPU tensors made
        with the torch.Generator `gen`, Python scalars).
    reference: reference(*inputs) on CPU copies -> outputs like the host's.
    shapes: the shapes, each a tuple passed as inputs(gen, *shape).
    check: a comparison or one per output.
    skip: launcher name -> why the case does not apply there ("mgp-interp":
        the mgp launcher on mgp's interpreter, MGP_INTERPRET=1).
    """
    name: str
    module: ModuleType
    kernels: Sequence[str]
    host: str
    inputs: Callable[..., list]
    reference: Callable[..., Any]
    shapes: Sequence[tuple]
    check: Any = None
    skip: dict = field(default_factory=dict)

    def checks(self, count):
        if isinstance(self.check, (list, tuple)):
            assert len(self.check) == count, (self.name, len(self.check), count)
            return list(self.check)
        return [self.check] * count


REGISTRY: list = []


def register(name, module, kernels, host, inputs, reference, shapes, check,
             skip=None):
    if isinstance(kernels, str):
        kernels = (kernels,)
    assert all(c.name != name for c in REGISTRY), f"duplicate case {name}"
    for kernel in kernels:
        assert hasattr(module, kernel), f"{name}: no kernel {kernel}"
    assert hasattr(module, host), f"{name}: no host launcher {host}"
    for launcher in (skip or {}):
        assert launcher in LAUNCHERS, f"{name}: unknown launcher {launcher}"
    skip = {k: v for k, v in (skip or {}).items() if v}
    case = Case(name, module, tuple(kernels), host, inputs, reference,
                list(shapes), check, skip)
    REGISTRY.append(case)
    return case


def to_numpy(value):
    """A tensor (any device and dtype, fp8 and bf16 included) or array as a
    NumPy array: floats as float64, integers as int64, bool as bool."""
    try:
        import torch
        if isinstance(value, torch.Tensor):
            value = value.detach().cpu()
            if value.dtype == torch.bool:
                return value.numpy()
            if value.is_floating_point():
                return value.to(torch.float64).numpy()
            if value.dtype == torch.uint64 if hasattr(torch, "uint64") else False:
                return value.numpy().astype(np.uint64)
            return value.to(torch.int64).numpy()
    except ImportError:
        pass
    array = np.asarray(value)
    if array.dtype.kind == "f":
        return array.astype(np.float64)
    if array.dtype.kind in "iu" and array.dtype != np.uint64:
        return array.astype(np.int64)
    return array


def compare(out, ref, check):
    """Compares one output with its reference: (ok, max_abs_error, note)."""
    out, ref = to_numpy(out), to_numpy(ref)
    if out.shape != ref.shape:
        return False, float("nan"), f"shape {out.shape} != reference {ref.shape}"
    if out.size == 0:
        return True, 0.0, ""
    if isinstance(check, Exact):
        if out.dtype.kind == "f" or ref.dtype.kind == "f":
            same = (out == ref) | (np.isnan(out) & np.isnan(ref))
        else:
            same = out == ref
        bad = int((~same).sum())
        with np.errstate(invalid="ignore"):
            gaps = np.abs(out.astype(np.float64) - ref.astype(np.float64))
        err = float(np.max(np.where(same, 0.0, np.nan_to_num(gaps, nan=np.inf))))
        if bad:
            return False, err, f"{bad} of {out.size} elements differ"
        return True, err, ""
    out = out.astype(np.float64)
    ref = ref.astype(np.float64)
    finite = np.isfinite(ref)
    bad_nonfinite = int((finite & ~np.isfinite(out)).sum())
    mismatched_special = int((~finite & ~((out == ref) | (np.isnan(out) & np.isnan(ref)))).sum())
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(finite, np.abs(out - ref), 0.0)
    diff = np.where(np.isnan(diff), np.inf, diff)
    err = float(diff.max())
    bad = int((diff > check.atol + check.rtol * np.abs(np.where(finite, ref, 0))).sum())
    notes = []
    if bad_nonfinite:
        notes.append(f"{bad_nonfinite} NaN/Inf where the reference is finite")
    if mismatched_special:
        notes.append(f"{mismatched_special} NaN/Inf of the reference not matched")
    if bad:
        notes.append(f"{bad} of {out.size} elements outside {check.describe()}")
    return not notes, err, "; ".join(notes)
