# A helper of a package, imported by absolute path (found through -I).
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def exp(x):
    return libdevice.exp(x)


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)
