# A helper module imported (absolute import, found through the search path)
# by language_kernels.py.
import triton
import triton.language as tl

SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)


@triton.jit
def gelu_tanh(x):
    inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + tl.extra.cuda.libdevice.tanh(inner))
