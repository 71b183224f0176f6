"""Triton's rules for the types and specialization of launch arguments.

``specialize(value)`` gives, for one argument, the pair Triton 3.6's JIT
computes (``triton/runtime/jit.py`` ``specialize_impl`` with the NVIDIA
backend's ``get_arg_specialization``): a type and a specialization key.

========================  =====================================
argument                  (type, key)
========================  =====================================
``None``                  ``("constexpr", None)``
``bool``                  ``("u1", None)``
``int == 1``              ``("constexpr", 1)``
``int`` in int32          ``("i32", "D" if value % 16 == 0 else "")``
``int`` in int64          ``("i64", ...)``; in ``[2**63, 2**64)``: ``"u64"``
``float``                 ``("fp32", None)``
tensor (``data_ptr``)     ``("*" + dtype, "D" if data_ptr % 16 == 0 else "")``
``tl.constexpr(v)``       ``("constexpr", v)``
========================  =====================================

``do_not_specialize`` drops the key (and the ``== 1`` rule);
``do_not_specialize_on_alignment`` keeps the ``== 1`` rule but never gives
``"D"``. Parameters annotated ``tl.constexpr`` are ``("constexpr", value)``.
``signature_entry`` turns a pair into mgp's AOT signature entry
(``"*fp32:16"``, ``"i32"``, ``"1024"``): the same specialization in
``mgpc --signature`` syntax.
"""

import math

# Triton's dtype canonicalisation (triton/_utils.py), by the last component
# of str(dtype): "torch.float32", "float32", "tl.float32" -> "fp32".
_CANONICAL = {
    "bool": "u1", "int1": "u1", "uint1": "u1", "i1": "u1",
    "float8e4nv": "fp8e4nv", "float8e5": "fp8e5", "float8e4b15": "fp8e4b15",
    "float8_e4m3fn": "fp8e4nv", "float8e4b8": "fp8e4b8",
    "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2": "fp8e5",
    "float8e5b16": "fp8e5b16", "float8_e5m2fnuz": "fp8e5b16",
    "half": "fp16", "float16": "fp16", "bfloat16": "bf16", "float": "fp32",
    "float32": "fp32", "double": "fp64", "float64": "fp64",
    "int8": "i8", "int16": "i16", "int": "i32", "int32": "i32", "int64": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "void": "void",
}
for _v in list(_CANONICAL.values()):
    _CANONICAL[_v] = _v

# Triton type -> mgp signature type, where they differ or exist at all.
_MGP_TYPE = {"u1": "i1"}
_MGP_SUPPORTED = {"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                  "fp16", "bf16", "fp32", "fp64", "fp8e4nv", "fp8e5", "fp8e4b15"}

# __cuda_array_interface__ / __array_interface__ typestr -> Triton dtype.
_TYPESTR = {"b1": "u1", "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64",
            "u1": "u8", "u2": "u16", "u4": "u32", "u8": "u64", "f2": "fp16",
            "f4": "fp32", "f8": "fp64"}

_canonical_cache = {}


def canonical_dtype(dtype):
    """Triton's name of a dtype object (torch, NumPy or mgp/triton language):
    "fp32", "bf16", "u1" (bool), "fp8e4nv", ...; KeyError if unknown."""
    try:
        return _canonical_cache[dtype]
    except (KeyError, TypeError):
        pass
    if isinstance(dtype, str):
        name = dtype
    else:  # NumPy scalar types (np.float32) have a __name__, dtypes a name
        name = getattr(dtype, "name", None) or getattr(dtype, "__name__", None)
    text = str(dtype).split(".")[-1]
    result = _CANONICAL.get(text) or _CANONICAL.get(name if isinstance(name, str) else "")
    if result is None:
        raise KeyError(f"unsupported dtype {dtype!r}")
    try:
        _canonical_cache[dtype] = result
    except TypeError:
        pass
    return result


def typestr_dtype(typestr):
    """Triton's name of an array-interface typestr ("<f4" -> "fp32")."""
    result = _TYPESTR.get(typestr[1:])
    if result is None:
        raise KeyError(f"unsupported array typestr {typestr!r}")
    return result


def integer_type(value):
    """Triton's type of a Python int: i32, i64, or u64 for [2**63, 2**64)."""
    if -(2**31) <= value <= 2**31 - 1:
        return "i32"
    if -(2**63) <= value <= 2**63 - 1:
        return "i64"
    if 2**63 <= value <= 2**64 - 1:
        return "u64"
    raise OverflowError(f"integer {value} does not fit in 64 bits")


def is_constexpr_annotation(annotation):
    """Triton's test: "constexpr" in the annotation's text."""
    if annotation is None or annotation is _EMPTY:
        return False
    if isinstance(annotation, str):
        return "constexpr" in annotation
    return "constexpr" in getattr(annotation, "__name__", "") or \
        "constexpr" in str(annotation)


class _Empty:
    pass


_EMPTY = _Empty


def pointer_type(obj):
    """("*fp32", address) of a tensor-like object, or None if it is none."""
    if hasattr(obj, "data_ptr") and hasattr(obj, "dtype"):
        return "*" + canonical_dtype(obj.dtype), obj.data_ptr()
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return "*" + typestr_dtype(cai["typestr"]), cai["data"][0]
    ai = getattr(obj, "__array_interface__", None)
    if ai is not None:  # NumPy arrays (the interpreter's host memory)
        return "*" + typestr_dtype(ai["typestr"]), ai["data"][0]
    return None


def storage_owner(obj):
    """The tensor that owns ``obj``'s memory: ``obj`` itself, or the
    ``base`` of a wrapper that reinterprets a tensor as another dtype
    (Triton's ``TensorWrapper``, made by ``triton.reinterpret``)."""
    if not hasattr(obj, "get_device") and not hasattr(obj, "__array_interface__"):
        base = getattr(obj, "base", None)
        if base is not None and hasattr(base, "data_ptr"):
            return base
    return obj


def specialize(value, specialize_value=True, align=True):
    """Triton's (type, key) for one non-constexpr argument."""
    if value is None:
        return ("constexpr", None)
    if isinstance(value, bool):
        return ("u1", None)
    if isinstance(value, int):
        if specialize_value and value == 1:
            return ("constexpr", 1)
        kind = integer_type(value)
        key = ("D" if align and value % 16 == 0 else "") if specialize_value else None
        return (kind, key)
    if isinstance(value, float):
        return ("fp32", None)
    if _is_constexpr_object(value):
        return ("constexpr", value)
    pointer = pointer_type(value)
    if pointer is not None:
        kind, address = pointer
        key = ("D" if align and address % 16 == 0 else "") if specialize_value else None
        return (kind, key)
    if isinstance(value, tuple):
        raise TypeError("tuple arguments are not supported by mgp")
    raise TypeError(f"unsupported argument type {type(value).__name__}")


def _is_constexpr_object(value):
    return type(value).__name__ == "constexpr" and hasattr(value, "value")


def constexpr_value(value):
    """The number a constexpr argument stands for (tl.constexpr unwrapped)."""
    while _is_constexpr_object(value):
        value = value.value
    return value


def is_number(value):
    """Whether a constexpr is a number (bool, int, float), which signatures
    carry; other constexprs are baked into the kernel's text."""
    value = constexpr_value(value)
    return isinstance(value, (bool, int, float))


def format_number(value):
    """A constexpr as a signature literal: "1024", "0.5", "1e-05", "inf"."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(float(value))
    return text


def signature_entry(pair, name):
    """mgp's signature entry for Triton's (type, key) of parameter ``name``;
    TypeError naming the parameter for what mgp cannot express yet."""
    kind, key = pair
    if kind == "constexpr":
        value = constexpr_value(key)
        if isinstance(value, (bool, int, float)):
            return format_number(value)
        what = "None" if value is None else f"{type(value).__name__} {value!r}"
        raise TypeError(
            f"argument '{name}': a constexpr {what} is not supported by mgp "
            "(constexpr values must be numbers)")
    pointer = kind.startswith("*")
    base = kind[2:] if kind.startswith("*k") else kind[1:] if pointer else kind
    if base not in _MGP_SUPPORTED and base not in _MGP_TYPE:
        raise TypeError(f"argument '{name}': unsupported dtype {base} "
                        "(mgp supports i1/bool, i8..i64, u8..u64, fp16, bf16, "
                        "fp32, fp64)")
    text = ("*" if pointer else "") + _MGP_TYPE.get(base, base)
    if key == "D":
        text += ":16"
    return text


def mgp_type(kind):
    """mgp's signature type of a Triton type ("*u1" -> "i1", "fp32")."""
    base = kind.lstrip("*")
    if base.startswith("k"):
        base = base[1:]
    return _MGP_TYPE.get(base, base)
