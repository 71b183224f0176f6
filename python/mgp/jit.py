"""``@mgp.jit``: Triton-style kernels launched through the C API.

``kernel[grid](*args, **kwargs)`` binds the arguments to the kernel's
parameters, computes a cheap key of their specialization (types, 16-byte
alignment, integers equal to 1, constexpr values, options), and looks it up
in the kernel's table of compiled specializations. A hit packs the launch
arguments with one ``struct.pack`` and makes one C call; a miss derives
Triton's specialization (``_types.specialize``), checks every argument
(device, dtype), compiles through ``mgp_kernel_compile`` (memory and disk
cache of the C++ JIT) and remembers the result.
"""

import ctypes
import inspect
import operator

from . import _compound, _launch, _lib, _source, _types, runtime
from .compiler import CompiledKernel, compile_options

_OPTIONS = {"num_warps", "num_stages", "num_ctas", "precision", "enable_reflect_ftz", "debug",
            "maxnreg", "enable_fp_fusion", "launch_cooperative_grid",
            "launch_pdl"}
_MAX_GRID = (2147483647, 65535, 65535)

class _Entry:
    """One compiled specialization: its C handle and packer."""
    __slots__ = ("kernel", "handle", "pack", "count", "device")

    def __init__(self, kernel, pack, count, device):
        self.kernel = kernel
        self.handle = kernel.handle
        self.pack = pack
        self.count = count
        self.device = device


# ---------------------------------------------------------------------------
# JITFunction
# ---------------------------------------------------------------------------

class KernelParam:
    """One parameter of a kernel as the launcher sees it."""

    def __init__(self, index, param, do_not_specialize, no_align):
        self.num = index
        self.name = param.name
        self.default = param.default
        self.has_default = param.default is not inspect.Parameter.empty
        self.is_constexpr = _types.is_constexpr_annotation(param.annotation)
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = no_align


class JITFunction:
    """A kernel: ``kernel[grid](*args, **kwargs)``, ``kernel.warmup``."""

    def __init__(self, fn, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, src=None, **_ignored):
        self.fn = fn
        self.src = src  # Triton's replaced source text of the kernel, if any
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.signature = inspect.signature(fn)
        dns = set(do_not_specialize or ())
        dnsa = set(do_not_specialize_on_alignment or ())
        self.params = [
            KernelParam(i, p, i in dns or p.name in dns, i in dnsa or p.name in dnsa)
            for i, p in enumerate(self.signature.parameters.values())]
        self.arg_names = [p.name for p in self.params]
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        self._file = inspect.getsourcefile(fn) or f"<{fn.__name__}>"
        self._sources = {}
        self._text_of = None  # a compound-argument variant's text (mgp/_compound.py)
        self._tuple_variants = {}
        self._cache = {}
        self._binder = self._make_binder()
        self._key_fn = None  # made at the first launch, for the device used
        self._streams = None

    def __repr__(self):
        return f"mgp.JITFunction({self.__module__}:{self.__qualname__})"

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)

    # -- binding and keys ----------------------------------------------------

    def _make_binder(self):
        namespace = {}
        args = []
        for p in self.params:
            if p.has_default:
                namespace[f"_default_{p.num}"] = p.default
                args.append(f"{p.name}=_default_{p.num}")
            else:
                args.append(p.name)
        names = "".join(p.name + ", " for p in self.params)
        name = self.__name__ if self.__name__.isidentifier() else "kernel"
        src = (f"def {name}({', '.join(args + ['**_mgp_options'])}):\n"
               f"    return ({names}), _mgp_options\n")
        exec(src, namespace)
        return namespace[name]

    def _key(self, values):
        """(key, launch values) of bound arguments (see _launch)."""
        if self._key_fn is None:
            self._key_fn = _launch.make_key_function(
                self.params, gpu=not runtime.interpreting())
        return self._key_fn(values)

    def _bind_error(self, args, kwargs):
        try:
            self.signature.bind(*args, **{k: v for k, v in kwargs.items()
                                          if k not in _OPTIONS})
        except TypeError as e:
            missing = [p for p in self.params if p.name not in kwargs]
            missing = missing[len(args):]
            missing = [p for p in missing if not p.has_default]
            if missing and len(args) <= len(self.params):
                names = ", ".join(
                    f"'{p.name}'" + (" (a tl.constexpr)" if p.is_constexpr else "")
                    for p in missing)
                return TypeError(f"kernel '{self.__name__}' is missing "
                                 f"argument(s) {names}")
            return TypeError(f"kernel '{self.__name__}': {e} (parameters: "
                             f"{', '.join(self.arg_names)})")
        return TypeError(f"kernel '{self.__name__}': bad arguments")

    # -- launching -----------------------------------------------------------

    def run(self, *args, grid, warmup=False, **kwargs):
        try:
            values, options = self._binder(*args, **kwargs)
        except TypeError:
            raise self._bind_error(args, kwargs) from None
        try:
            key, launch_values = (self._key_fn or self._key)(values)
            if options:
                key += tuple(sorted(options.items()))
            entry = self._cache.get(key)
        except (OverflowError, TypeError):
            # an integer beyond 64 bits, an unhashable value: the full
            # derivation raises naming the parameter
            self._compile(values, options, None)
            raise
        if entry is None:
            if options and options.keys() - _OPTIONS:
                raise KeyError(
                    f"kernel '{self.__name__}': keyword argument(s) "
                    f"{', '.join(sorted(options.keys() - _OPTIONS))} specified "
                    f"but not recognised (parameters: {', '.join(self.arg_names)})")
            if _compound.has_compounds(self, values):
                variant, flat = _compound.variant(self, values)
                return variant.run(*flat, grid=grid, warmup=warmup, **options)
            entry = self._compile(values, options, key)
        if warmup:
            return entry.kernel
        if callable(grid):
            grid = grid(dict(zip(self.arg_names, values)))
        try:
            n = len(grid)
            g0 = grid[0]
            g1 = grid[1] if n > 1 else 1
            g2 = grid[2] if n > 2 else 1
        except TypeError:
            g0 = grid  # a bare integer
            n, g1, g2 = 1, 1, 1
        if not (0 < g0 <= 2147483647 and 0 < g1 <= 65535 and 0 < g2 <= 65535
                and 1 <= n <= 3):
            self._grid_error(grid)
        if entry.device is None:
            stream = 0
        else:
            stream = self._streams(entry.device)
        try:
            status = _lib.lib.mgp_kernel_launch(entry.handle, g0, g1, g2, stream,
                                                entry.pack(launch_values),
                                                entry.count)
        except ctypes.ArgumentError:  # a grid of NumPy integers, or of floats
            g0, g1, g2 = self._grid_ints((g0, g1, g2))
            status = _lib.lib.mgp_kernel_launch(entry.handle, g0, g1, g2, stream,
                                                entry.pack(launch_values),
                                                entry.count)
        if status:
            _lib.check(status)
        return entry.kernel

    def _grid_ints(self, dims):
        try:
            return tuple(operator.index(d) for d in dims)
        except TypeError:
            bad = next(d for d in dims if not hasattr(d, "__index__"))
            raise TypeError(f"kernel '{self.__name__}': grid {tuple(dims)} must "
                            f"hold integers, got {bad!r}") from None

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles the specialization of these arguments without launching
        it (dtype objects stand for 16-byte aligned tensors of that dtype);
        returns the CompiledKernel (``.asm["ptx"]`` on the GPU)."""
        args = tuple(_MockTensor.wrap(a) for a in args)
        kwargs = {k: _MockTensor.wrap(v) for k, v in kwargs.items()}
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def _grid_error(self, grid):
        dims = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
        if not 1 <= len(dims) <= 3:
            raise ValueError(f"kernel '{self.__name__}': grid {dims} must have "
                             "1 to 3 dimensions")
        full = self._grid_ints(dims) + (1,) * (3 - len(dims))
        if any(d <= 0 for d in full):
            raise ValueError(f"kernel '{self.__name__}': grid {full} has an "
                             "empty dimension")
        raise ValueError(f"kernel '{self.__name__}': grid {full} exceeds the "
                         f"device's limits {_MAX_GRID}")

    # -- compiling a specialization ------------------------------------------

    def source(self):
        """The text mgp compiles for this kernel (see source_and_name)."""
        return self.source_and_name()[0]

    def source_and_name(self, baked=None):
        """(text, kernel name) mgp compiles: the kernel's whole file
        (helpers and module constants included), with the kernel's own
        definition and closure appended when it is defined inside a function
        or its ``src`` was replaced, and a wrapper kernel that bakes in the
        ``baked`` constexprs (name -> value: strings, None, dtypes, jit
        functions), which signatures cannot carry (mgp/_source.py)."""
        key = tuple(sorted((k, repr(v)) for k, v in (baked or {}).items()))
        found = self._sources.get(key)
        if found is None:
            if self._text_of is not None:
                found = self._text_of(baked)
            else:
                found = _source.kernel_text(self.fn, self._file, self.src,
                                            self.params, baked)
            self._sources[key] = found
        return found

    def specialization(self, *args, **kwargs):
        """Triton's (type, key) pairs of these arguments, one per parameter
        (what Triton's JIT computes for them)."""
        values, _ = self._binder(*args, **kwargs)
        return [self._pair(p, values[p.num]) for p in self.params]

    def signature_of(self, *args, **kwargs):
        """The mgp signature these arguments compile for (mgpc --signature
        syntax), e.g. "*fp32:16,*fp32:16,i32,1024"."""
        pairs = self.specialization(*args, **kwargs)
        return ",".join(_types.signature_entry(pair, p.name)
                        for pair, p in zip(pairs, self.params))

    def _pair(self, p, value):
        if p.is_constexpr:
            return ("constexpr", value)
        try:
            return _types.specialize(value, not p.do_not_specialize,
                                     not p.do_not_specialize_on_alignment)
        except (TypeError, OverflowError, KeyError) as e:
            kind = OverflowError if isinstance(e, OverflowError) else TypeError
            raise kind(f"kernel '{self.__name__}', argument '{p.name}': "
                       f"{e.args[0] if e.args else e}") from None

    def _compile(self, values, options, key):
        interpreter = runtime.interpreting()
        pairs = [self._pair(p, values[p.num]) for p in self.params]
        if interpreter:
            self._check_interpreter_args(values, pairs)
            device = None
        else:
            device = self._launch_device(values, pairs)
        baked = {p.name: _types.constexpr_value(pair[1])
                 for p, pair in zip(self.params, pairs)
                 if pair[0] == "constexpr" and not _types.is_number(pair[1])}
        entries = [_types.signature_entry(pair, p.name)
                   for pair, p in zip(pairs, self.params) if p.name not in baked]
        kinds = []
        for p, pair in zip(self.params, pairs):
            kind = pair[0]
            if kind == "constexpr":
                continue
            if kind.startswith("*"):
                code = _lib.DTYPE_CODES[_types.mgp_type(kind)]
                kinds.append((p.num, "ptr", code))
            elif kind == "fp32":
                kinds.append((p.num, "float", 0))
            else:
                kinds.append((p.num, "uint" if kind == "u64" else "int", 0))
        kernel = self._compile_signature(",".join(entries), options, device,
                                         baked)
        entry = _Entry(kernel, _launch.make_packer(kinds, interpreter),
                       len(kinds), device)
        if device is not None and self._streams is None:
            self._streams = runtime.stream_getter()
        if key is not None:
            self._cache[key] = entry
        return entry

    def _compile_signature(self, signature, options, device, baked=None):
        opts = compile_options(options)
        ctx = runtime.context(device)
        text, name = self.baked_source(
            baked, lambda param: f"kernel '{self.__name__}', argument '{param}'")
        return CompiledKernel.compile(ctx, text, self._file, name, signature,
                                      opts)

    def baked_source(self, baked, where):
        """source_and_name(baked), or a TypeError naming the parameter whose
        value has no spelling (``where(param)`` starts the message)."""
        try:
            return self.source_and_name(baked)
        except _source.Unspellable as e:
            param = next(k for k, v in baked.items()
                         if _source.is_unspellable(v))
            raise TypeError(f"{where(param)}: a constexpr {e} is not supported "
                            "by mgp (constexpr values are numbers, strings, None, "
                            "dtypes, jit functions and tuples of these)") from None

    def _launch_device(self, values, pairs):
        """The GPU the launch runs on: its tensors', which must all be CUDA
        memory on PyTorch's current device."""
        current = runtime.current_device()
        for p, pair in zip(self.params, pairs):
            if not pair[0].startswith("*") or p.is_constexpr:
                continue
            obj = _types.storage_owner(values[p.num])
            if type(obj).__name__ == "MockTensor":
                continue  # Triton's warmup stand-in for a tensor: no memory
            where = f"kernel '{self.__name__}', argument '{p.name}'"
            if hasattr(obj, "get_device"):
                index = obj.get_device()
                if index < 0:
                    raise ValueError(f"{where}: a CPU tensor cannot be passed to "
                                     "a GPU kernel (move it with .cuda(), or run "
                                     "on the interpreter with MGP_INTERPRET=1)")
                if index != current:
                    raise ValueError(f"{where}: the tensor is on cuda:{index} "
                                     f"but the kernel launches on cuda:{current} "
                                     "(torch.cuda.current_device())")
            elif not hasattr(obj, "__cuda_array_interface__"):
                raise ValueError(f"{where}: {type(obj).__name__} is host memory "
                                 "and cannot be passed to a GPU kernel (pass a "
                                 "CUDA tensor, or run on the interpreter with "
                                 "MGP_INTERPRET=1)")
        return current

    def _check_interpreter_args(self, values, pairs):
        for p, pair in zip(self.params, pairs):
            obj = _types.storage_owner(values[p.num])
            if not pair[0].startswith("*") or p.is_constexpr:
                continue
            if hasattr(obj, "get_device"):  # torch: CUDA tensors have an index
                on_gpu = obj.get_device() >= 0
            else:
                on_gpu = hasattr(obj, "__cuda_array_interface__")
            if on_gpu:
                raise ValueError(
                    f"kernel '{self.__name__}', argument '{p.name}': GPU memory "
                    "cannot be passed to the interpreter (MGP_INTERPRET=1 or no "
                    "GPU); pass CPU tensors or NumPy arrays")


class _MockTensor:
    """A stand-in for a tensor of a dtype in warmup(): address 0 (aligned)."""

    def __init__(self, dtype):
        self.dtype = dtype

    @staticmethod
    def wrap(value):
        if value is int or value is float or value is bool:
            return value
        try:
            _types.canonical_dtype(value)
        except (KeyError, TypeError):
            return value
        if isinstance(value, (str, int, float)) or value is None:
            return value
        return _MockTensor(value)

    def data_ptr(self):
        return 0

    def get_device(self):
        return -1 if runtime.interpreting() else runtime.current_device()

    def untyped_storage(self):
        raise TypeError("a dtype stands for a tensor only in warmup()")


def jit(fn=None, *, do_not_specialize=None, do_not_specialize_on_alignment=None,
        **kwargs):
    """``@mgp.jit``, ``@mgp.jit(...)``, ``mgp.jit(f)``, ``mgp.jit(triton_fn)``
    (a ``triton.jit`` object: its function and do_not_specialize lists;
    ``triton.autotune`` / ``triton.heuristics`` wrappers become mgp's)."""
    def wrap(f):
        from . import autotuner as _autotune
        converted = _autotune.from_triton(f, jit)
        if converted is not None:
            return converted
        if isinstance(f, (JITFunction, _autotune.Autotuner, _autotune.Heuristics)):
            return f
        dns, dnsa = do_not_specialize, do_not_specialize_on_alignment
        if hasattr(f, "fn") and hasattr(f, "arg_names"):  # triton.jit
            dns = dns or getattr(f, "do_not_specialize", None)
            dnsa = dnsa or getattr(f, "do_not_specialize_on_alignment", None)
            src = _triton_replaced_src(f)
            f = f.fn
            kwargs.setdefault("src", src)
        return JITFunction(f, do_not_specialize=dns,
                           do_not_specialize_on_alignment=dnsa, **kwargs)
    if fn is None:
        return wrap
    return wrap(fn)



def _triton_replaced_src(triton_fn):
    """A triton.jit object's ``src`` when it differs from its function's
    definition (replaced with ``_unsafe_update_src``), else None."""
    src = getattr(triton_fn, "src", None)
    if not isinstance(src, str):
        return None
    try:
        if src == _source.def_text(triton_fn.fn):
            return None
    except (OSError, TypeError):
        pass
    return src
