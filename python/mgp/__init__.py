"""mgp: Triton-style kernels compiled by mgp, launched from Python.

    import mgp
    import mgp.language as tl     # or: import triton.language as tl

    @mgp.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask)
                 + tl.load(y_ptr + offs, mask=mask), mask=mask)

    add_kernel[(mgp.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)

Tensors are PyTorch tensors (on the GPU: CUDA tensors, launched on PyTorch's
current stream), objects with ``__cuda_array_interface__``, or, on the
interpreter (``MGP_INTERPRET=1`` or no GPU), CPU tensors and NumPy arrays.
``mgp.jit(f)`` also takes a ``triton.jit`` kernel, ``triton.autotune`` and
``triton.heuristics`` included. See docs/python.md.
"""

from . import language
from ._lib import (CompileError, DeviceError, ExecutionError,
                   InvalidArgumentError, KernelNotFoundError, MgpError,
                   NoDeviceError, UnsupportedError, library_path)
from ._lib import version as _library_version
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from .compiler import CompiledKernel, compile
from .jit import JITFunction, KernelParam, jit
from .language import *  # noqa: F401,F403  the kernel language's names
from .language import cdiv, constexpr, next_power_of_2
from .runtime import do_bench, interpreting, synchronize

__version__ = _library_version()


def version():
    """The version of libmgp.so ("0.1.0")."""
    return _library_version()
