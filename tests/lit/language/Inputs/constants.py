# A constant imported through ./activations.py (Triton reads module globals
# only as tl.constexpr).
import triton.language as tl

SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)
