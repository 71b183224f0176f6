"""The warm launch path's pieces: keys of arguments and packers of launch
arguments, generated per kernel so that a launch runs straight-line code.

A key says everything of an argument that decides its specialization (equal
keys give equal signatures, test_signatures checks it): a tensor's dtype,
device and 16-byte alignment, an integer's type, ``% 16 == 0`` and
``== 1``, a constexpr's type and value. Computing it also yields the value a
launch passes (a tensor's address on the GPU, the object itself on the
interpreter, which needs its extent), so ``data_ptr()`` runs once per launch.
"""

import struct
import sys

from . import _lib, _types

# ---------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------


def int_key(a):
    """The key of a Python int under Triton's rules."""
    if a == 1:
        return "c1"
    if -2147483648 <= a <= 2147483647:
        return "i32" if a & 15 else "i32D"
    return _types.integer_type(a) + ("" if a & 15 else "D")


def _tensor_kv(a):
    p = a.data_ptr()
    return (a.dtype, a.get_device(), not p & 15), p


def _wrapped_kv(a):
    p = a.data_ptr()
    return (a.dtype, _types.storage_owner(a).get_device(), not p & 15), p


def _maybe_wrapped_kv(a):
    if hasattr(a, "base") and hasattr(a, "dtype"):
        return _wrapped_kv(a)
    return ("unsupported", type(a)), a


def _cai_kv(a):
    cai = a.__cuda_array_interface__
    p = cai["data"][0]
    return (cai["typestr"], "cuda", not p & 15), p


def _host_kv(a):
    ai = a.__array_interface__
    return (ai["typestr"], "host", not ai["data"][0] & 15), a


def _constexpr_kv(a):
    value = _types.constexpr_value(a)
    return ("constexpr", type(value), value), a


_handlers = {bool: lambda a: ("u1", a), type(None): lambda a: ("none", a)}


def _find_handler(t):
    if hasattr(t, "data_ptr") and hasattr(t, "get_device"):
        handler = _tensor_kv
    elif hasattr(t, "data_ptr"):
        handler = _maybe_wrapped_kv  # triton's TensorWrapper (base, dtype: per instance)
    elif hasattr(t, "__cuda_array_interface__"):
        handler = _cai_kv
    elif hasattr(t, "__array_interface__"):
        handler = _host_kv
    elif t.__name__ == "constexpr":
        handler = _constexpr_kv
    else:
        handler = lambda a: (("unsupported", type(a)), a)
    _handlers[t] = handler
    return handler


def key_value(a):
    """(key, launch value) of a runtime argument under Triton's default
    rules."""
    t = type(a)
    if t is int:
        return int_key(a), a
    if t is float:
        return "fp32", a
    handler = _handlers.get(t)
    if handler is None:
        handler = _find_handler(t)
    return handler(a)


def key_value_flags(a, specialize, align):
    """key_value for do_not_specialize (``specialize`` False) or
    do_not_specialize_on_alignment (``align`` False) parameters."""
    if type(a) is int:
        if specialize and a == 1:
            return "c1", a
        return _types.integer_type(a) + (
            "D" if specialize and align and not a & 15 else ""), a
    key, value = key_value(a)
    if isinstance(key, tuple) and len(key) == 3 and key[0] != "constexpr":
        key = key[:2] + (specialize and align and key[2],)
    return key, value


def make_key_function(params, gpu):
    """A function values -> (key, launch values) for ``params`` (the
    kernel's KernelParams). On the GPU, torch.Tensor arguments take an inline
    path and their launch value is the address; on the interpreter every
    launch value is the argument itself."""
    torch = sys.modules.get("torch")
    namespace = {"_kv": key_value, "_kvf": key_value_flags, "_int": int_key,
                 "_T": torch.Tensor if torch is not None else _NoTensor}
    lines, keys, values = [], [], []
    for p in params:
        i = p.num
        keys.append(f"k{i}")
        values.append(f"v{i}")
        lines.append(f"    a = v[{i}]")
        if p.is_constexpr:
            lines.append(f"    k{i} = (type(a), a); v{i} = a")
        elif p.do_not_specialize or p.do_not_specialize_on_alignment:
            lines.append(f"    k{i}, v{i} = _kvf(a, {not p.do_not_specialize}, "
                         f"{not p.do_not_specialize_on_alignment})")
            if not gpu:
                lines.append(f"    v{i} = a")
        elif gpu:
            lines += [f"    t = type(a)",
                      f"    if t is _T:",
                      f"        v{i} = a.data_ptr()",
                      f"        k{i} = (a.dtype, a.get_device(), not v{i} & 15)",
                      f"    elif t is int:",
                      f"        k{i} = _int(a); v{i} = a",
                      f"    else:",
                      f"        k{i}, v{i} = _kv(a)"]
        else:
            lines.append(f"    k{i} = _kv(a)[0]; v{i} = a")
    body = "\n".join(lines) or "    pass"
    src = (f"def key(v):\n{body}\n"
           f"    return ({''.join(k + ', ' for k in keys)}), "
           f"({''.join(x + ', ' for x in values)})\n")
    exec(src, namespace)
    return namespace["key"]


class _NoTensor:
    """Stands for torch.Tensor in keys generated before PyTorch is loaded."""


# ---------------------------------------------------------------------------
# Packing: launch values as mgp_arg structs (kind, dtype, value, bytes)
# ---------------------------------------------------------------------------

def host_extent(a):
    """(address, bytes valid from it) of host memory: a NumPy array or a CPU
    tensor (its storage from the element on)."""
    owner = _types.storage_owner(a)
    if hasattr(owner, "untyped_storage"):
        storage = owner.untyped_storage()
        address = a.data_ptr()
        return address, storage.data_ptr() + storage.nbytes() - address
    ai = a.__array_interface__
    address = ai["data"][0]
    shape, strides = ai["shape"], ai.get("strides")
    itemsize = a.itemsize if hasattr(a, "itemsize") else a.dtype.itemsize
    if any(n == 0 for n in shape):
        return address, 0
    if strides is None:
        count = 1
        for n in shape:
            count *= n
        return address, count * itemsize
    last = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    return address, last + itemsize


def make_packer(kinds, interpreter):
    """A function launch values -> bytes of mgp_arg structs for the launch
    parameters ``kinds``: (index, "ptr"|"int"|"uint"|"float", dtype code).
    On the GPU a pointer's launch value is its address; on the interpreter
    it is the object, whose extent the interpreter checks accesses against."""
    fmt = "<"
    fields = []
    for index, kind, code in kinds:
        if kind == "ptr":
            fmt += "iiQQ"
            if interpreter:
                fields.append(f"{_lib.ARG_HOST_POINTER}, {code}, *_extent(v[{index}])")
            else:
                fields.append(f"{_lib.ARG_DEVICE_POINTER}, {code}, v[{index}], 0")
        elif kind == "float":
            fmt += "iidQ"
            fields.append(f"{_lib.ARG_FLOAT}, 0, v[{index}], 0")
        else:
            fmt += "iiQQ" if kind == "uint" else "iiqQ"
            fields.append(f"{_lib.ARG_INT}, 0, v[{index}], 0")
    namespace = {"_pack": struct.Struct(fmt).pack, "_extent": host_extent}
    exec(f"def pack(v):\n    return _pack({', '.join(fields)})\n", namespace)
    return namespace["pack"]
