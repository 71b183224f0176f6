"""Cases of kernels/inline_asm.py. Inline PTX runs only on a GPU: neither
Triton's interpreter nor mgp's can execute it."""

import torch

from kernels import inline_asm as K

from .common import EXACT, Close, f64, randint, randn, register, rounded

NO_PTX = {"triton-interp": "Triton's interpreter cannot run inline PTX",
          "mgp-interp": "mgp's interpreter cannot run inline PTX"}

# tanh.approx.f32: relative error below 2^-10.99, so GELU's 0.5 x (1 + tanh)
# is off by at most 0.5 |x| 2^-11 (|x| < 16 here).
TANH_APPROX = Close(1e-3, 4e-3)
# sin/cos.approx.f32: absolute error below 2^-20.5 on |x| < 100 pi.
SINCOS_APPROX = Close(0.0, 2e-6)


def _gelu_tanh_ref(x):
    return torch.nn.functional.gelu(f64(x), approximate="tanh")


register("inline_asm.gelu_tanh", K, "_gelu_tanh_kernel", "gelu_tanh",
         lambda g, n: [randn(g, n, scale=3.0)], _gelu_tanh_ref,
         shapes=[(1000,), (4096,), (3,)], check=TANH_APPROX, skip=NO_PTX)


def _funnel_ref(lo, hi, shift):
    n = shift % 32
    lo_u, hi_u = lo.to(torch.int64) & 0xFFFFFFFF, hi.to(torch.int64) & 0xFFFFFFFF
    r = hi_u if n == 0 else ((hi_u << n) | (lo_u >> (32 - n))) & 0xFFFFFFFF
    return torch.where(r >= 2**31, r - 2**32, r).to(torch.int32)


for _shift in (0, 7, 45):
    register(f"inline_asm.funnel_shift_{_shift}", K, "_funnel_shift_kernel", "funnel_shift",
             lambda g, n, _s=_shift: [randint(g, -2**31, 2**31, n),
                                      randint(g, -2**31, 2**31, n), _s],
             _funnel_ref, shapes=[(1000,), (512,)], check=EXACT, skip=NO_PTX)

register("inline_asm.low_nibbles_packed", K, "_low_nibbles_kernel", "low_nibbles",
         lambda g, n: [randint(g, 0, 256, n, dtype=torch.uint8)],
         lambda x: ((x.to(torch.int64) & 0x1F) << 3 & 0xFF).to(torch.uint8),
         shapes=[(1000,), (4096,), (5,)], check=EXACT, skip=NO_PTX)

register("inline_asm.half2_fma", K, "_half2_fma_kernel", "half2_fma",
         lambda g, n: [randn(g, n, dtype=torch.float16), randn(g, n, dtype=torch.float16),
                       randn(g, n, dtype=torch.float16)],
         lambda a, b, c: rounded(f64(a) * f64(b) + f64(c), torch.float16),
         shapes=[(1001,), (4096,)], check=EXACT, skip=NO_PTX)

register("inline_asm.bytes_and_max", K, "_bytes_and_max_kernel", "bytes_and_max",
         lambda g, n: [randint(g, 0, 256, n, dtype=torch.uint8), randn(g, n, scale=200.0)],
         lambda a, b: (a.to(torch.int32), torch.maximum(a.to(torch.float32), b)),
         shapes=[(1000,), (512,), (7,)], check=[EXACT, EXACT], skip=NO_PTX)

register("inline_asm.sincos", K, "_sincos_kernel", "sincos",
         lambda g, n: [randn(g, n, scale=2.0)],
         lambda x: (torch.sin(f64(x)), torch.cos(f64(x))),
         shapes=[(1000,), (256,)], check=[SINCOS_APPROX, SINCOS_APPROX], skip=NO_PTX)

register("inline_asm.evict_first_copy", K, "_evict_first_copy_kernel", "evict_first_copy",
         lambda g, n: [randint(g, -2**31, 2**31, n)], lambda x: x.clone(),
         shapes=[(1000,), (3000,)], check=EXACT, skip=NO_PTX)
