"""Compiled kernels (one specialization, an mgp_kernel handle) and
``mgp.compile``, the ahead-of-time entry that returns PTX for a signature."""

import ctypes
import inspect

from . import _lib, _types, runtime

_PRECISIONS = {"tf32", "ieee"}


def compile_options(options):
    """mgp_compile_options from launch keywords (num_warps, num_stages,
    precision, enable_reflect_ftz, maxnreg; num_ctas, a positive integer,
    and Triton's other options are accepted and have no effect)."""
    opts = _lib.CompileOptions()
    if not options:
        return opts
    warps = options.get("num_warps")
    if warps is not None:
        opts.num_warps = _option_int("num_warps", warps)
    stages = options.get("num_stages")
    if stages is not None:
        opts.num_stages = _option_int("num_stages", stages)
    ctas = options.get("num_ctas")
    if ctas is not None:
        # Triton's num_ctas > 1 runs a program on a cluster of CTAs, which
        # changes its speed, not its results; mgp runs it on one CTA.
        _option_int("num_ctas", ctas)
    precision = options.get("precision")
    if precision is not None:
        if precision not in _PRECISIONS:
            raise ValueError(f"precision={precision!r}: expected 'tf32' or 'ieee'")
        opts.precision = precision.encode()
    ftz = options.get("enable_reflect_ftz")
    if ftz is not None:
        if not isinstance(ftz, bool):
            raise TypeError(f"enable_reflect_ftz must be True or False, got {ftz!r}")
        opts.no_reflect_ftz = int(not ftz)
    maxnreg = options.get("maxnreg")
    if maxnreg is not None:
        # The range (16..255) is checked where the options are (the C API).
        opts.maxnreg = _option_int("maxnreg", maxnreg)
    return opts


def _option_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


class CompiledKernel:
    """One kernel compiled for one signature. ``asm["ptx"]`` (GPU and
    compile-only kernels), ``signature``, ``params``, ``num_warps``,
    ``num_stages``, ``shared`` (dynamic shared memory bytes), ``arch``."""

    def __init__(self, handle, context):
        self.handle = handle
        self.context = context  # keeps the context alive
        info = _lib.KernelInfo()
        _lib.check(_lib.lib.mgp_kernel_get_info(handle, ctypes.byref(info)))
        self.name = info.name.decode()
        self.entry = info.entry.decode()
        self.signature = info.signature.decode()
        self.arch = info.arch.decode()
        self.num_warps = info.num_warps
        self.num_stages = info.num_stages
        self.shared = info.shared_bytes
        self.num_launch_args = info.num_launch_args
        self.params = []
        param = _lib.ParamInfo()
        for i in range(info.num_params):
            _lib.check(_lib.lib.mgp_kernel_get_param(handle, i, ctypes.byref(param)))
            self.params.append({
                "name": param.name.decode(), "type": param.type.decode(),
                "kind": ("pointer", "scalar", "constexpr")[param.kind],
                "constexpr": bool(param.annotated_constexpr),
                "launch_index": param.launch_index})
        self._asm = None

    @classmethod
    def compile(cls, context, source, file_name, kernel_name, signature, options):
        handle = ctypes.c_void_p()
        status = _lib.lib.mgp_kernel_compile(
            context.handle if context is not None else None,
            source.encode(), file_name.encode(), kernel_name.encode(),
            signature.encode(), ctypes.byref(options), ctypes.byref(handle))
        _lib.check(status)
        return cls(handle.value, context)

    @property
    def asm(self):
        """{"ptx": text} for GPU and compile-only kernels, {} on the
        interpreter."""
        if self._asm is None:
            text = ctypes.c_char_p()
            status = _lib.lib.mgp_kernel_ptx(self.handle, ctypes.byref(text))
            self._asm = {"ptx": text.value.decode()} if status == _lib.SUCCESS else {}
        return self._asm

    @property
    def ptx(self):
        ptx = self.asm.get("ptx")
        if ptx is None:
            raise _lib.UnsupportedError(
                f"kernel '{self.name}' is compiled for the interpreter; it has "
                "no PTX", _lib.ERROR_UNSUPPORTED)
        return ptx

    def __repr__(self):
        return f"<mgp.CompiledKernel {self.name}[{self.signature}] {self.arch}>"

    def __del__(self):
        handle, self.handle = getattr(self, "handle", None), None
        if handle and _lib is not None and _lib.lib is not None:
            _lib.lib.mgp_kernel_destroy(handle)


def _signature_text(fn_params, signature, constexprs):
    """(signature string, baked) from Triton's ASTSource style: a dict name ->
    type ("*fp32", "i32", "constexpr") plus a dict of constexpr values (by
    name or (index,)); or a string as it is. Numbers go into the signature;
    other constexprs (dtypes, strings, None, jit functions) are returned in
    ``baked`` (name -> value), to be baked into the kernel's text as the JIT
    does."""
    if isinstance(signature, str):
        return signature, {}
    constexprs = constexprs or {}
    entries, baked = [], {}
    for index, name in enumerate(fn_params):
        kind = signature.get(name, "constexpr")
        value = constexprs.get(name, constexprs.get((index,), inspect.Parameter.empty))
        if kind == "constexpr" or value is not inspect.Parameter.empty:
            if value is inspect.Parameter.empty:
                raise TypeError(f"mgp.compile: constexpr '{name}' needs a value "
                                "in constexprs")
            if _types.is_number(value):
                entries.append(_types.signature_entry(("constexpr", value), name))
            else:
                baked[name] = _types.constexpr_value(value)
        else:
            entries.append(kind.replace("*k", "*"))
    return ",".join(entries), baked


def compile(fn, signature, constexprs=None, num_warps=4, num_stages=3,
            arch=None, precision="tf32", enable_reflect_ftz=True, maxnreg=None):
    """Compiles kernel ``fn`` (an @mgp.jit / @triton.jit kernel or a plain
    function) for ``signature`` to PTX, without launching anything.

    ``signature``: mgp's AOT syntax ("*fp32:16,*fp32,i32,1024"), or a dict
    name -> type with ``constexprs`` (Triton's ASTSource): numbers, and
    dtypes, strings, None or jit functions, which are baked into the kernel's
    text as a launch bakes them. ``arch``: the
    target ("sm_90"); default: the GPU's when there is one, else "sm_90".
    ``enable_reflect_ftz``: libdevice's f32 functions flush denormals to
    zero (Triton's default, True) or keep them (False). ``maxnreg``: the
    most registers per thread (PTX ``.maxnreg``, 16..255; None: no limit).
    Returns a CompiledKernel; ``.asm["ptx"]`` is the PTX."""
    from .jit import jit
    kernel = jit(fn)
    kernel = getattr(kernel, "base_fn", kernel)
    options = compile_options({"num_warps": num_warps, "num_stages": num_stages,
                               "precision": precision,
                               "enable_reflect_ftz": enable_reflect_ftz,
                               "maxnreg": maxnreg})
    if arch is None and not runtime.interpreting():
        arch = runtime.context(runtime.current_device()).arch
    options.arch = (arch or "sm_90").encode()
    text, baked = _signature_text(kernel.arg_names, signature, constexprs)
    if baked:
        source, name = kernel.baked_source(
            baked, lambda param: f"mgp.compile: constexpr '{param}'")
    else:
        source, name = kernel.source(), kernel.__name__
    return CompiledKernel.compile(None, source, kernel._file, name, text, options)
