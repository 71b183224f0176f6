"""Specializations of recorded launches, as Triton's JIT would make them.

This file implements `Spec`: one kernel at one specialization (the kinds and
values of its parameters as a recorded launch passes them, num_warps), and its
two spellings: the `mgpc` command line (`--signature` in Triton's AOT syntax,
`-D` for constexprs that are not numbers) and the arguments of
`triton.compile(ASTSource(fn, signature, constexprs), target=...)`.
"""

from dataclasses import dataclass

_TORCH_TYPES = {
    "float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64",
    "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5", "int8": "i8",
    "uint8": "u8", "int16": "i16", "int32": "i32", "int64": "i64",
    "bool": "i1", "uint16": "u16", "uint32": "u32", "uint64": "u64",
}

# Triton's dtype names (tl.float16.name ...) as signature types.
_TL_NAMES = {"fp32": "fp32", "fp16": "fp16", "bf16": "bf16", "fp64": "fp64",
             "fp8e4nv": "fp8e4nv", "fp8e5": "fp8e5", "fp8e4b15": "fp8e4b15", "int8": "i8",
             "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
             "uint16": "u16", "uint32": "u32", "uint64": "u64", "int1": "i1"}


def tensor_type(tensor):
    return _TORCH_TYPES[str(tensor.dtype).replace("torch.", "")]


@dataclass
class Param:
    name: str
    kind: str        # "pointer", "int", "float", "constexpr"
    type: str = ""   # signature type ("fp32", "i32", ...) for non-constexprs
    value: object = None
    divisible16: bool = False
    triton_type: str = ""   # Triton's own spelling (runtime.jit.mangle_type)


@dataclass
class Spec:
    case: str
    kernel: str          # name in the module
    fn: object           # the innermost triton JITFunction
    params: list
    num_warps: int

    @property
    def file(self):
        import inspect
        return inspect.getsourcefile(self.fn.fn)

    @property
    def fn_name(self):
        return self.fn.fn.__name__

    def key(self):
        return (self.file, self.fn_name, self.mgpc_signature(), tuple(self.mgpc_defines()),
                self.num_warps)

    # -- mgpc ---------------------------------------------------------------
    def mgpc_signature(self):
        entries = []
        for p in self.params:
            if p.kind == "pointer":
                entries.append("*" + p.type + (":16" if p.divisible16 else ""))
            elif p.kind == "int":
                entries.append(p.type + (":16" if p.divisible16 else ""))
            elif p.kind == "float":
                entries.append(p.type)
            elif _is_number(p.value):
                entries.append(repr(p.value) if isinstance(p.value, float) else str(int(p.value)))
        return ",".join(entries)

    def mgpc_defines(self):
        """Constexprs that are not numbers, as -D values: True/False, dtypes
        by Triton's short name (bf16, fp8e4nv), strings quoted ("gelu"), None."""
        defines = []
        for p in self.params:
            if p.kind == "constexpr" and not _is_number(p.value):
                defines.append(f"{p.name}={constexpr_text(p.value)}")
        return defines

    def mgpc_command(self, mgpc, output, arch="sm_90a", include=None):
        """mgpc's command line for this specialization; `include`: a folder
        searched for the modules the kernel file imports (-I)."""
        command = [mgpc, self.file] + (["-I", include] if include else []) + [
                   "-k", self.fn_name, "--signature",
                   self.mgpc_signature(), "--num-warps", str(self.num_warps),
                   f"-arch={arch}", "-emit=ptx", "-o", output]
        for define in self.mgpc_defines():
            command += ["-D", define]
        return command

    # -- triton.compile -------------------------------------------------------
    def ast_source(self):
        """triton.compiler.ASTSource for this specialization (Triton 3.x:
        the signature names every parameter, constexprs typed "constexpr";
        constexprs keyed by (index,) paths)."""
        from triton.compiler import ASTSource
        signature, constexprs, attrs = {}, {}, {}
        for index, p in enumerate(self.params):
            if p.kind == "constexpr":
                signature[p.name] = "constexpr"
                constexprs[(index,)] = p.value
            else:
                signature[p.name] = p.triton_type or \
                    ("*" if p.kind == "pointer" else "") + p.type
                if p.divisible16:
                    attrs[(index,)] = [["tt.divisibility", 16]]
        return ASTSource(self.fn, signature, constexprs, attrs)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def constexpr_text(value):
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, str):
        return '"' + value + '"'      # quoted: "" and "bf16" stay strings
    name = getattr(value, "name", None)     # a tl.dtype
    if name is not None:
        return _TL_NAMES.get(name, name)
    return str(value)


def make_spec(case, kernel, fn, values, options):
    """Classifies each parameter of a recorded launch the way Triton's JIT
    specializes it (pointers: address % 16; ints: i32/i64 and % 16)."""
    import torch
    constexpr_indices = set(getattr(fn, "constexprs", []))
    params = []
    for index, (name, value) in enumerate(zip(fn.arg_names, values)):
        if index in constexpr_indices or value is None or not _is_runtime(value):
            params.append(Param(name, "constexpr", value=value))
        elif isinstance(value, torch.Tensor):
            params.append(Param(name, "pointer", tensor_type(value),
                                divisible16=value.data_ptr() % 16 == 0))
        elif _is_wrapper(value):  # triton.reinterpret(tensor, dtype)
            params.append(Param(name, "pointer", _TL_NAMES[value.dtype.name],
                                divisible16=value.data_ptr() % 16 == 0))
        elif isinstance(value, bool):
            params.append(Param(name, "int", "i1"))
        elif isinstance(value, int):
            kind = "i32" if -2**31 <= value < 2**31 else "i64"
            params.append(Param(name, "int", kind, value=value,
                                divisible16=value % 16 == 0))
        elif isinstance(value, float):
            params.append(Param(name, "float", "fp32", value=value))
        else:
            raise TypeError(f"{kernel}: parameter {name} = {value!r}")
    try:
        from triton.runtime.jit import mangle_type
        for p, value in zip(params, values):
            if p.kind != "constexpr":
                p.triton_type = mangle_type(value)
    except ImportError:
        pass
    return Spec(case, kernel, fn, params, int(options["num_warps"]))


def _is_wrapper(value):
    """Triton's TensorWrapper (triton.reinterpret): a tensor seen as another
    dtype."""
    return type(value).__name__ == "TensorWrapper" and hasattr(value, "base")


def _is_runtime(value):
    import torch
    return isinstance(value, (torch.Tensor, bool, int, float)) or _is_wrapper(value)


def first_per_kernel(specs):
    """The first spec of each kernel (file, function), in order."""
    first, seen = [], set()
    for spec in specs:
        if (spec.file, spec.fn_name) not in seen:
            seen.add((spec.file, spec.fn_name))
            first.append(spec)
    return first


def record_specs(cases, all_shapes=True):
    """Runs every case's host code with the recording launcher (first shape,
    or every shape) and returns the distinct Specs, in case order."""
    import torch
    from .launchers import RecordLauncher
    from .harness import make_inputs
    launcher = RecordLauncher()
    specs, seen, errors = [], set(), []
    for case in cases:
        for shape_index, shape in enumerate(case.shapes if all_shapes else case.shapes[:1]):
            launcher.launches.clear()
            try:
                inputs = make_inputs(case, shape_index, shape)
                with launcher.swapped(case), torch.no_grad():
                    getattr(case.module, case.host)(*inputs)
            except Exception as error:
                errors.append((case.name, shape, f"{type(error).__name__}: {error}"))
                continue
            for kernel, fn, values, options in launcher.launches:
                spec = make_spec(case.name, kernel, fn, values, options)
                if spec.key() not in seen:
                    seen.add(spec.key())
                    specs.append(spec)
    return specs, errors
