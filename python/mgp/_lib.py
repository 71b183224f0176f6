"""libmgp.so through ctypes: loading it, its C types, and its errors.

The library is looked up, in order: the file named by ``MGP_LIBRARY``;
``libmgp.so`` next to this package; ``lib/libmgp.so`` and ``build*/lib/libmgp.so``
two levels above it (the portable archive's and the source tree's layouts,
the newest build first); then the system loader (``LD_LIBRARY_PATH``, an
installed prefix). Every C call's status becomes a Python exception carrying
``mgp_last_error()``: for compile errors the compiler's located diagnostics.
"""

import ctypes
import glob
import os

# mgp_status
SUCCESS = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_NOT_FOUND = 2
ERROR_COMPILE = 3
ERROR_NO_DEVICE = 4
ERROR_DEVICE = 5
ERROR_EXECUTION = 6
ERROR_UNSUPPORTED = 7

# mgp_device_kind
DEVICE_GPU = 0
DEVICE_CPU = 1

# mgp_arg_kind
ARG_NONE = 0
ARG_DEVICE_POINTER = 1
ARG_HOST_POINTER = 2
ARG_INT = 3
ARG_FLOAT = 4

# mgp_dtype, by signature name
DTYPE_CODES = {
    "i1": 1, "i8": 2, "i16": 3, "i32": 4, "i64": 5, "u8": 6, "u16": 7,
    "u32": 8, "u64": 9, "fp16": 10, "bf16": 11, "fp32": 12, "fp64": 13,
    "fp8e4nv": 14, "fp8e5": 15, "fp8e4b15": 16,
}


class MgpError(Exception):
    """A failed mgp call; ``status`` is the C API's mgp_status."""

    status = None

    def __init__(self, message, status=None):
        super().__init__(message)
        if status is not None:
            self.status = status


class InvalidArgumentError(MgpError, ValueError):
    """A bad request: signature, option, argument or grid."""
    status = ERROR_INVALID_ARGUMENT


class KernelNotFoundError(MgpError, LookupError):
    """The source has no @jit kernel of that name."""
    status = ERROR_NOT_FOUND


class CompileError(MgpError):
    """The compiler rejected the kernel; the message is its diagnostics
    (``file:line:col: error: ...``, the source line and a caret)."""
    status = ERROR_COMPILE


class NoDeviceError(MgpError, RuntimeError):
    """No CUDA driver or device."""
    status = ERROR_NO_DEVICE


class DeviceError(MgpError, RuntimeError):
    """A CUDA driver call failed (loading the PTX, launching)."""
    status = ERROR_DEVICE


class ExecutionError(MgpError, RuntimeError):
    """The interpreter stopped a kernel (e.g. an out-of-bounds access)."""
    status = ERROR_EXECUTION


class UnsupportedError(MgpError):
    """The request needs something the kernel lacks."""
    status = ERROR_UNSUPPORTED


_ERRORS = {cls.status: cls for cls in (
    InvalidArgumentError, KernelNotFoundError, CompileError, NoDeviceError,
    DeviceError, ExecutionError, UnsupportedError)}


class Arg(ctypes.Structure):
    """mgp_arg: 24 bytes (kind, dtype, 8-byte value, bytes)."""
    _fields_ = [("kind", ctypes.c_int32), ("dtype", ctypes.c_int32),
                ("value", ctypes.c_uint64), ("bytes", ctypes.c_uint64)]


class CompileOptions(ctypes.Structure):
    _fields_ = [("num_warps", ctypes.c_int), ("num_stages", ctypes.c_int),
                ("precision", ctypes.c_char_p), ("arch", ctypes.c_char_p),
                ("cpu_threads", ctypes.c_uint), ("no_reflect_ftz", ctypes.c_int),
                ("maxnreg", ctypes.c_int)]


class KernelInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("entry", ctypes.c_char_p),
                ("signature", ctypes.c_char_p), ("arch", ctypes.c_char_p),
                ("num_warps", ctypes.c_int), ("num_stages", ctypes.c_int),
                ("shared_bytes", ctypes.c_uint), ("num_params", ctypes.c_int),
                ("num_launch_args", ctypes.c_int)]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", ctypes.c_char_p),
                ("kind", ctypes.c_int), ("dtype", ctypes.c_int),
                ("annotated_constexpr", ctypes.c_int),
                ("divisibility", ctypes.c_int), ("equals_one", ctypes.c_int),
                ("launch_index", ctypes.c_int), ("int_value", ctypes.c_int64),
                ("float_value", ctypes.c_double)]


class TensorMapView(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int),
                ("base", ctypes.c_uint64),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("block", ctypes.POINTER(ctypes.c_int64)),
                ("nan_padding", ctypes.c_int)]


def _candidates():
    explicit = os.environ.get("MGP_LIBRARY")
    if explicit:
        return [explicit]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    found = [os.path.join(here, "libmgp.so"), os.path.join(root, "lib", "libmgp.so")]
    builds = glob.glob(os.path.join(root, "build*", "lib", "libmgp.so"))
    found += sorted(builds, key=os.path.getmtime, reverse=True)
    return [path for path in found if os.path.exists(path)] + ["libmgp.so"]


def _declare(lib):
    c = ctypes
    p = c.c_void_p
    status = c.c_int
    signatures = {
        "mgp_version": (c.c_char_p, []),
        "mgp_api_version": (c.c_int, []),
        "mgp_last_error": (c.c_char_p, []),
        "mgp_device_count": (status, [c.POINTER(c.c_int)]),
        "mgp_context_create": (status, [c.c_int, c.c_int, c.POINTER(p)]),
        "mgp_context_destroy": (None, [p]),
        "mgp_context_device_name": (status, [p, c.POINTER(c.c_char_p)]),
        "mgp_context_arch": (status, [p, c.POINTER(c.c_char_p)]),
        "mgp_context_synchronize": (status, [p]),
        "mgp_kernel_compile": (status, [p, c.c_char_p, c.c_char_p, c.c_char_p,
                                        c.c_char_p, c.POINTER(CompileOptions),
                                        c.POINTER(p)]),
        "mgp_kernel_destroy": (None, [p]),
        "mgp_kernel_ptx": (status, [p, c.POINTER(c.c_char_p)]),
        "mgp_kernel_get_info": (status, [p, c.POINTER(KernelInfo)]),
        "mgp_kernel_get_param": (status, [p, c.c_int, c.POINTER(ParamInfo)]),
        # args as a bytes object packed with struct: no ctypes objects per call
        "mgp_kernel_launch": (status, [p, c.c_uint32, c.c_uint32, c.c_uint32,
                                       p, c.c_char_p, c.c_size_t]),
        "mgp_tensor_map_encode": (status, [c.POINTER(TensorMapView), p]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def _load():
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
            continue
        _declare(lib)
        return lib, path
    raise ImportError(
        "mgp: cannot load libmgp.so (build it with `make`, or set MGP_LIBRARY "
        "to its path):\n  " + "\n  ".join(errors))


lib, library_path = _load()


def last_error():
    return (lib.mgp_last_error() or b"").decode("utf-8", "replace")


def check(status, what=None):
    """Raises the exception of a failed status with the library's message."""
    if status == SUCCESS:
        return
    message = last_error()
    if what:
        message = f"{what}: {message}"
    raise _ERRORS.get(status, MgpError)(message, status)


def version():
    return lib.mgp_version().decode()
