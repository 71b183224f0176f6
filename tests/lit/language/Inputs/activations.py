# Helpers imported by ../import-helpers.py (a sibling module).
import triton
import triton.language as tl

from .constants import SQRT_2_OVER_PI


@triton.jit
def gelu_tanh(x):
    inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + _tanh(inner))


@triton.jit
def _tanh(x):
    return 2 * tl.sigmoid(2 * x) - 1


def host_only(t):
    with open(t) as f:
        return f.read()
