"""TMA tensor maps for host tensor descriptors.

On a GPU of compute capability 9.0 or newer, a host ``TensorDescriptor``
whose view follows TMA's rules (a base aligned to 16 bytes, the last stride
1 and the others multiples of 16 bytes, block dimensions of 1 to 256
elements whose last one spans a multiple of 16 bytes) gets a CUtensorMap:
``mgp_tensor_map_encode`` encodes it, a 128-byte tensor on the descriptor's
device holds it, and the kernel's ``desc.load``/``desc.store`` copy blocks
with ``cp.async.bulk.tensor`` (``_tensor_map=`` of its
``tl.make_tensor_descriptor``). Any other view, the interpreter and older
GPUs keep ordinary masked loads and stores: same results, no alignment rule.
Maps are made once per view (base, shape, strides, block, padding) and kept,
so a launch with a view seen before costs a dictionary lookup; past
_MAX_MAPS views the cache starts over (a dropped map's memory is reused by
PyTorch's allocator only in stream order, after the kernels that read it).
"""

import ctypes

from . import _lib, _types, runtime

_maps = {}
_MAX_MAPS = 4096


def _has_tma(arch):
    digits = "".join(ch for ch in arch[3:] if ch.isdigit()) if arch.startswith("sm_") else ""
    return bool(digits) and int(digits) >= 90


def tensor_map(desc, block, padding):
    """The device tensor holding the tensor map of ``desc`` (block shape
    ``block``, padding "zero" or "nan"), or None where the descriptor keeps
    ordinary loads and stores."""
    torch = runtime._torch()
    base = _types.storage_owner(desc.base)
    if (torch is None or runtime.interpreting() or not hasattr(base, "get_device")
            or base.get_device() < 0):
        return None
    device = base.get_device()
    kind = _types.pointer_type(desc.base)
    if kind is None:
        return None
    dtype = _lib.DTYPE_CODES.get(_types.mgp_type(kind[0]))
    if dtype is None:
        return None
    shape = tuple(int(s) for s in desc.shape)
    strides = tuple(int(s) for s in desc.strides)
    key = (device, dtype, kind[1], shape, strides, block, padding)
    found = _maps.get(key, False)
    if found is not False:
        return found
    if len(_maps) >= _MAX_MAPS:
        _maps.clear()
    if not _has_tma(runtime.context(device).arch):
        _maps[key] = None
        return None
    rank = len(block)
    dims = (ctypes.c_int64 * rank)(*shape)
    steps = (ctypes.c_int64 * rank)(*strides)
    box = (ctypes.c_int64 * rank)(*block)
    view = _lib.TensorMapView(dtype, rank, kind[1], dims, steps, box,
                              int(padding == "nan"))
    raw = ctypes.create_string_buffer(128)
    status = _lib.lib.mgp_tensor_map_encode(ctypes.byref(view), raw)
    if status == _lib.ERROR_UNSUPPORTED:
        runtime._debug(f"tensor descriptor without TMA: {_lib.last_error()}")
        _maps[key] = None
        return None
    _lib.check(status, "tensor descriptor")
    host = torch.frombuffer(bytearray(raw.raw), dtype=torch.uint8)
    _maps[key] = found = host.to(f"cuda:{device}")
    return found
