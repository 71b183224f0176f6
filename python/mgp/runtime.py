"""Where kernels run: the GPU or the interpreter, contexts, streams, timing.

The mode is decided once per process, at the first launch: the interpreter
when ``MGP_INTERPRET`` is set to anything but "" or "0", or when there is no
CUDA driver or device; the GPU otherwise. On the GPU a kernel runs on the
device of its tensors (PyTorch's current device when it has none) and on
PyTorch's current stream of that device when PyTorch is loaded (the default
stream otherwise). ``MGP_DEBUG=1`` reports the choice.
"""

import ctypes
import os
import sys
import time

from . import _lib

_mode = None
_contexts = {}
_gpu_reason = None


def _debug(message):
    value = os.environ.get("MGP_DEBUG", "")
    if value and value != "0":
        print(f"mgp: {message}", file=sys.stderr)


def interpreting():
    """True when launches run on the interpreter (decided on first use)."""
    global _mode, _gpu_reason
    if _mode is None:
        value = os.environ.get("MGP_INTERPRET", "")
        if value and value != "0":
            _mode = "cpu"
            _gpu_reason = "MGP_INTERPRET is set"
        else:
            count = ctypes.c_int(0)
            # 0 devices: no driver library or no device. An error: a driver
            # that is there but fails, which must not pass for "no GPU".
            _lib.check(_lib.lib.mgp_device_count(ctypes.byref(count)))
            if count.value == 0:
                _mode = "cpu"
                _gpu_reason = "no CUDA driver or device"
            else:
                _mode = "gpu"
        _debug("launches run on the " + (
            "GPU" if _mode == "gpu" else f"interpreter ({_gpu_reason})"))
    return _mode == "cpu"


def context(device=None):
    """The C API context of GPU ``device`` (None: the interpreter's)."""
    ctx = _contexts.get(device)
    if ctx is None:
        handle = ctypes.c_void_p()
        kind = _lib.DEVICE_CPU if device is None else _lib.DEVICE_GPU
        _lib.check(_lib.lib.mgp_context_create(kind, device or 0,
                                               ctypes.byref(handle)))
        ctx = _contexts[device] = Context(handle, device)
    return ctx


class Context:
    """A device kernels compile for (mgp_context); lives for the process."""

    def __init__(self, handle, device):
        self.handle = handle
        self.device = device
        text = ctypes.c_char_p()
        _lib.check(_lib.lib.mgp_context_arch(handle, ctypes.byref(text)))
        self.arch = text.value.decode()
        _lib.check(_lib.lib.mgp_context_device_name(handle, ctypes.byref(text)))
        self.name = text.value.decode()

    def synchronize(self):
        _lib.check(_lib.lib.mgp_context_synchronize(self.handle))


def _torch():
    return sys.modules.get("torch")


def current_device():
    """PyTorch's current CUDA device when PyTorch is loaded, else 0."""
    torch = _torch()
    if torch is None:
        return 0
    get = getattr(torch._C, "_cuda_getDevice", None)
    return get() if get is not None else torch.cuda.current_device()


def stream_getter():
    """A function device -> raw CUstream: PyTorch's current stream of the
    device when PyTorch is loaded, else the default stream (0)."""
    torch = _torch()
    if torch is None or not torch.cuda.is_available():
        return lambda device: 0
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw
    return lambda device: torch.cuda.current_stream(device).cuda_stream


def synchronize(device=None):
    """Waits for the GPU (PyTorch's synchronize when loaded); no-op on the
    interpreter."""
    if interpreting():
        return
    torch = _torch()
    if torch is not None and torch.cuda.is_available():
        torch.cuda.synchronize()
    else:
        context(current_device() if device is None else device).synchronize()


def do_bench(fn, warmup=25, rep=100, quantiles=None, return_mode="mean"):
    """Milliseconds per call of ``fn`` (Triton's do_bench: ``warmup`` and
    ``rep`` are milliseconds of calls), timed with CUDA events when PyTorch
    is loaded, else with the host clock around a device synchronize. On the
    interpreter one timed call after one warm-up call."""
    fn()
    synchronize()
    if interpreting():
        start = time.perf_counter()
        fn()
        return (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    fn()
    synchronize()
    estimate = max((time.perf_counter() - start) * 1e3, 1e-3)
    n_warmup = max(1, int(warmup / estimate))
    n_repeat = max(1, int(rep / estimate))
    for _ in range(n_warmup):
        fn()
    times = []
    torch = _torch()
    use_events = torch is not None and torch.cuda.is_available()
    for _ in range(n_repeat):
        if use_events:
            begin = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            begin.record()
            fn()
            end.record()
            end.synchronize()
            times.append(begin.elapsed_time(end))
        else:
            synchronize()
            t0 = time.perf_counter()
            fn()
            synchronize()
            times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    if quantiles:
        return [times[min(len(times) - 1, int(q * len(times)))] for q in quantiles]
    if return_mode == "median":
        return times[len(times) // 2]
    if return_mode == "min":
        return times[0]
    return sum(times) / len(times)
