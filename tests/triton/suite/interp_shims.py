"""What Triton's interpreter lacks on a machine without a GPU, supplied by the
triton-interp launcher (nothing here changes what a kernel computes).

This file implements three shims, installed once in the interpreter's process:
- libdevice: Triton's interpreter does not implement `extern_elementwise`
  (`triton.language.extra.libdevice.tanh(x)` returns None there and the
  `extra.cuda.libdevice` spelling raises NotImplementedError). The shim
  replaces the libdevice functions, in the libdevice modules and wherever a
  kernels module imported one by name, with NumPy/PyTorch versions computed
  in the operand's own precision (fp32 or fp64, as libdevice's __nv_*f /
  __nv_* functions).
- autotune: `@triton.autotune` with several configs benchmarks them through
  the active GPU driver, and there is none here ("0 active drivers"). The
  shim gives each autotuner a benchmark that runs nothing and reports equal
  times, so Triton picks the first config (as a single-config autotuner
  would) and the kernel runs once.
- tl.condition: the interpreter runs `while tl.condition(c, disable_licm=True)`
  as Python, where the wrapper object is always true, so the loop never ends;
  the shim makes the wrapper as true as the condition it wraps (what Triton's
  compiler does with it).
"""

import sys

import numpy as np


def _torch_unary(name):
    def compute(x):
        import torch
        return getattr(torch, name)(torch.from_numpy(np.ascontiguousarray(x))).numpy()
    return compute


def _rsqrt(x):
    return (1.0 / np.sqrt(x)).astype(x.dtype)


_FUNCTIONS = {
    # name: (numpy function, arity)
    "tanh": (np.tanh, 1), "erf": (_torch_unary("erf"), 1), "erfc": (_torch_unary("erfc"), 1),
    "log1p": (np.log1p, 1), "expm1": (np.expm1, 1), "rint": (np.rint, 1),
    "nearbyint": (np.rint, 1), "round": (lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), 1),
    "trunc": (np.trunc, 1), "floor": (np.floor, 1), "ceil": (np.ceil, 1),
    "exp": (np.exp, 1), "exp2": (np.exp2, 1), "log": (np.log, 1), "log2": (np.log2, 1),
    "log10": (np.log10, 1), "sqrt": (np.sqrt, 1), "rsqrt": (_rsqrt, 1),
    "fast_expf": (np.exp, 1), "fast_logf": (np.log, 1), "fast_dividef": (np.divide, 2),
    "sin": (np.sin, 1), "cos": (np.cos, 1), "tan": (np.tan, 1), "asin": (np.arcsin, 1),
    "acos": (np.arccos, 1), "atan": (np.arctan, 1), "atan2": (np.arctan2, 2),
    "sinh": (np.sinh, 1), "cosh": (np.cosh, 1), "asinh": (np.arcsinh, 1),
    "acosh": (np.arccosh, 1), "atanh": (np.arctanh, 1), "pow": (np.power, 2),
    "fmod": (np.fmod, 2), "fmax": (np.fmax, 2), "fmin": (np.fmin, 2),
    "copysign": (np.copysign, 2), "hypot": (np.hypot, 2), "abs": (np.abs, 1),
    "fabs": (np.abs, 1), "isnan": (np.isnan, 1), "isinf": (np.isinf, 1),
    "signbit": (np.signbit, 1), "erfinv": (_torch_unary("erfinv"), 1),
    "lgamma": (_torch_unary("lgamma"), 1), "div_rn": (np.divide, 2),
}

_BOOL_RESULTS = {"isnan", "isinf", "signbit"}


def _make_shim(name, compute, arity):
    def shim(*args, **kwargs):
        import triton.language as tl
        from triton.runtime.interpreter import TensorHandle
        args = args[:arity]
        tensors = [a for a in args if isinstance(a, tl.tensor)]
        if not tensors:
            raise TypeError(f"libdevice.{name}: expected a tensor operand")
        like = tensors[0]
        scalar = like.handle.dtype
        if scalar not in (tl.float32, tl.float64):
            raise TypeError(f"libdevice.{name} takes fp32 or fp64 operands, got {scalar} "
                            "(as on the GPU: convert with .to(tl.float32))")
        np_type = np.float32 if scalar == tl.float32 else np.float64
        data = [np.asarray(a.handle.data if isinstance(a, tl.tensor) else a, dtype=np_type)
                for a in args]
        data = np.broadcast_arrays(*data)
        with np.errstate(all="ignore"):
            result = np.asarray(compute(*data))
        shape_like = max(tensors, key=lambda t: len(t.shape))
        if name in _BOOL_RESULTS:
            result = result.astype(np.bool_)
            out_ty = tl.block_type(tl.int1, shape_like.shape) if shape_like.shape else tl.int1
            return tl.tensor(TensorHandle(result, tl.int1), out_ty)
        return tl.tensor(TensorHandle(result.astype(np_type), scalar), shape_like.type)
    shim.__name__ = name
    shim._suite_libdevice_shim = True
    return shim


_SHIMS = {name: _make_shim(name, fn, arity) for name, (fn, arity) in _FUNCTIONS.items()}


def _libdevice_modules():
    names = ["triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice"]
    modules = []
    for name in names:
        try:
            __import__(name)
            modules.append(sys.modules[name])
        except ImportError:
            pass
    return modules


def install_condition():
    """Makes `tl.condition(c, ...)` true exactly when `c` is."""
    import triton.language as tl
    tl.condition.__bool__ = lambda self: bool(self.condition)


def install_libdevice(kernel_module_prefixes=("kernels",)):
    """Replaces libdevice functions by interpreter versions: in the libdevice
    modules and in every loaded kernels module that imported one by name."""
    libdevice_functions = {}
    for module in _libdevice_modules():
        for name, shim in _SHIMS.items():
            original = getattr(module, name, None)
            if original is not None and not getattr(original, "_suite_libdevice_shim", False):
                libdevice_functions[id(original)] = shim
                setattr(module, name, shim)
    for module_name, module in list(sys.modules.items()):
        if not module_name.split(".")[0] in kernel_module_prefixes and \
                module_name not in ("helpers",):
            continue
        for name, value in list(vars(module).items()):
            if id(value) in libdevice_functions:
                setattr(module, name, libdevice_functions[id(value)])


def _no_benchmark(kernel_call, quantiles):
    return [0.0, 0.0, 0.0]


def install_autotune(kernel_objects):
    """Gives every autotuner among `kernel_objects` (and their decorator
    chains) the benchmark that runs nothing."""
    from .launchers import decorator_chain
    for obj in kernel_objects:
        for layer in decorator_chain(obj)[0]:
            if type(layer).__name__ == "Autotuner" and getattr(layer, "_do_bench", None) is None:
                layer._do_bench = _no_benchmark
                layer.__dict__.pop("do_bench", None)     # the cached_property
