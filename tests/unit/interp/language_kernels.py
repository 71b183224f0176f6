# Kernels of LanguageTest.cpp: the wider Triton language (libdevice and math
# functions, min/max on scalars, early returns, dtype and string constexprs,
# helpers imported from other modules, tl.target_info and tl.condition) run
# on the interpreter against C++ references.
import triton
import triton.language as tl
from triton.language.extra import libdevice

try:
    from triton.language.extra.libdevice import tanh as _tanh
except ImportError:
    from triton.language.math import tanh as _tanh

from lang_helpers import gelu_tanh


@triton.jit
def unary_f32(x_ptr, y_ptr, n, FUNC: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.5)
    if FUNC == "tanh":
        y = _tanh(x)
    elif FUNC == "asin":
        y = libdevice.asin(x)
    elif FUNC == "log1p":
        y = tl.extra.cuda.libdevice.log1p(x)
    elif FUNC == "expm1":
        y = libdevice.expm1(x)
    elif FUNC == "erf":
        y = tl.erf(x)
    elif FUNC == "erfinv":
        y = libdevice.erfinv(x)
    elif FUNC == "sigmoid":
        y = tl.sigmoid(x)
    elif FUNC == "rint":
        y = libdevice.rint(x * 8.0)
    elif FUNC == "pow":
        y = libdevice.pow(x, 3.0)
    elif FUNC == "powi":
        y = libdevice.pow(x, 3)
    elif FUNC == "fast_expf":
        y = libdevice.fast_expf(x)
    elif FUNC == "floor":
        y = tl.floor(x * 8.0) + tl.ceil(x * 4.0)
    elif FUNC == "cospi":
        y = libdevice.cospi(x)
    elif FUNC == "div_rz":
        y = libdevice.div_rz(x, 3.0)
    elif FUNC == "isnan":
        y = tl.where(libdevice.isnan(tl.log(x)), 1.0, 0.0)
    elif FUNC == "clamp":
        y = tl.clamp(x, -0.25, 0.5)
    else:
        tl.static_assert(False, "unknown FUNC " + FUNC)
    tl.store(y_ptr + offs, y, mask=m)


@triton.jit
def unary_i32(x_ptr, y_ptr, n, FUNC: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    if FUNC == "clz":
        y = libdevice.clz(x)
    elif FUNC == "popc":
        y = libdevice.popc(x)
    elif FUNC == "brev":
        y = libdevice.brev(x)
    elif FUNC == "ffs":
        y = libdevice.ffs(x)
    elif FUNC == "umulhi":
        y = tl.umulhi(x, x + 12345)
    elif FUNC == "byte_perm":
        y = libdevice.byte_perm(x, x * 3, 0x5140)
    else:
        tl.static_assert(False, "unknown FUNC " + FUNC)
    tl.store(y_ptr + offs, y, mask=m)


@triton.jit
def grouped_pids(out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 GROUP_M: tl.constexpr):
    # The tutorial's grouped ordering: program -> (pid_m, pid_n).
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    tl.store(out_ptr + 2 * pid, pid_m)
    tl.store(out_ptr + 2 * pid + 1, max(pid_n, 0, -pid))


@triton.jit
def _copy_row(x_ptr, y_ptr, row, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if row % 3 == 0:
        return
    tl.store(y_ptr + row * n + offs, tl.load(x_ptr + row * n + offs, mask=offs < n) + 1.0,
             mask=offs < n)


@triton.jit
def early_return(x_ptr, y_ptr, n_rows, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if row >= n_rows:
        return
    _copy_row(x_ptr, y_ptr, row, n, BLOCK)


@triton.jit
def activation(x_ptr, y_ptr, n, BLOCK: tl.constexpr, X_dtype: tl.constexpr,
               ACTIVATION: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(X_dtype)
    if ACTIVATION == "gelu":
        y = gelu_tanh(x.to(tl.float32))
    else:
        y = tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=offs < n)


@triton.jit
def target_scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # A grid-stride loop whose body picks its factor by the target.
    start = tl.program_id(0) * BLOCK
    while tl.condition(start < n, disable_licm=True):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        if tl.target_info.cuda_capability_geq(9, 0):
            y = x * 9.0
        elif tl.target_info.is_cuda():
            y = x * 8.0
        else:
            y = x * 2.0
        tl.store(y_ptr + offs, y, mask=offs < n)
        start += tl.num_programs(0) * BLOCK
