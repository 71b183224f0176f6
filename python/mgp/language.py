"""The kernel language's names, so that a kernel file imports and its
decorators run without Triton: ``import mgp.language as tl`` (or ``mgp.*``).

Inside a kernel these names are mgp's builtins, compiled by mgp's front end
(docs/language.md); from host Python they are placeholders that raise when
called, except ``cdiv``, ``next_power_of_2``, ``constexpr`` and the dtypes,
which also work on the host.
"""


class constexpr:
    """Annotation of compile-time parameters (``BLOCK: tl.constexpr``); an
    instance wraps a value passed as a constexpr."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __eq__(self, other):
        return self.value == getattr(other, "value", other)

    def __hash__(self):
        return hash(self.value)


class dtype:
    """An element type; ``str()`` is its signature name ("fp32")."""

    def __init__(self, name, itemsize):
        self.name = name
        self.itemsize = itemsize

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"mgp.{_PUBLIC_NAMES.get(self.name, self.name)}"

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(("mgp.dtype", self.name))

    def is_floating(self):
        return self.name in ("fp16", "bf16", "fp32", "fp64", "fp8e4nv", "fp8e5", "fp8e4b15")


_PUBLIC_NAMES = {"u1": "int1", "i8": "int8", "i16": "int16", "i32": "int32",
                 "i64": "int64", "u8": "uint8", "u16": "uint16",
                 "u32": "uint32", "u64": "uint64", "fp16": "float16",
                 "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
                 "fp8e4nv": "float8e4nv", "fp8e5": "float8e5",
                 "fp8e4b15": "float8e4b15"}

int1 = dtype("u1", 1)
int8 = dtype("i8", 1)
int16 = dtype("i16", 2)
int32 = dtype("i32", 4)
int64 = dtype("i64", 8)
uint8 = dtype("u8", 1)
uint16 = dtype("u16", 2)
uint32 = dtype("u32", 4)
uint64 = dtype("u64", 8)
float16 = dtype("fp16", 2)
bfloat16 = dtype("bf16", 2)
float32 = dtype("fp32", 4)
float64 = dtype("fp64", 8)
float8e4nv = dtype("fp8e4nv", 1)
float8e5 = dtype("fp8e5", 1)
float8e4b15 = dtype("fp8e4b15", 1)
fp16, bf16, fp32, fp64 = float16, bfloat16, float32, float64


def cdiv(x, div):
    """ceil(x / div) for integers (host and kernel)."""
    return (x + div - 1) // div


def next_power_of_2(n):
    """The smallest power of two >= n (host)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def _placeholder(name):
    def builtin(*args, **kwargs):
        raise RuntimeError(
            f"mgp.language.{name} is a kernel builtin: it runs inside an "
            "@mgp.jit kernel launched with kernel[grid](...), not in host Python")
    builtin.__name__ = name
    builtin.__qualname__ = name
    return builtin


BUILTINS = (
    "program_id num_programs arange zeros zeros_like full full_like load store "
    "where maximum minimum clamp exp exp2 log log2 sqrt sqrt_rn rsqrt abs fma "
    "sin cos erf floor ceil sigmoid softmax div_rn fdiv umulhi "
    "sum max min argmax argmin reduce xor_sum cumsum cumprod dot "
    "broadcast broadcast_to reshape view trans permute expand_dims ravel "
    "multiple_of max_contiguous max_constancy cast static_assert static_print "
    "device_print device_assert atomic_add atomic_max atomic_min atomic_cas "
    "atomic_xchg atomic_and atomic_or atomic_xor rand randn randint "
    "split join interleave flip associative_scan debug_barrier").split()

for _name in BUILTINS:
    globals()[_name] = _placeholder(_name)


class range:
    """``for i in tl.range(...)`` inside a kernel (a placeholder here)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("mgp.language.range is a kernel builtin: use it as "
                           "the iterator of a for loop inside an @mgp.jit kernel")


class static_range(range):
    """``for i in tl.static_range(...)``: unrolled at compile time."""


tensor = object  # annotations such as `x: tl.tensor` parse on the host

__all__ = ["constexpr", "dtype", "cdiv", "next_power_of_2", "range",
           "static_range", "tensor", *BUILTINS, *_PUBLIC_NAMES.values(),
           "fp16", "bf16", "fp32", "fp64"]
