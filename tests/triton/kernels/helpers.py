"""Device helpers shared by the kernel files: imported as `from .helpers import
f` (a relative import) or `from helpers import f` (the folder on the path)."""

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def gelu_tanh(x):
    # 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + libdevice.tanh(inner))


@triton.jit
def gelu_erf(x):
    return 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))


@triton.jit
def leaky_relu(x, slope: tl.constexpr = 0.01):
    return tl.where(x >= 0, x, slope * x)


@triton.jit
def grouped_pid(pid, num_pid_m, num_pid_n, GROUP_SIZE_M: tl.constexpr):
    """The tutorial's grouped ordering: GROUP_SIZE_M rows of tiles share their
    B columns in L2."""
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n
