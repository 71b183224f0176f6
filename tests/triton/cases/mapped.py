"""Cases of kernels/mapped.py (tl.map_elementwise)."""

import torch

from kernels import mapped as K

from .common import EXACT, FP16, FP32, f64, randint, randn, register

# Triton 3.6's interpreter has no map_elementwise ('InterpreterBuilder' object
# has no attribute 'new_block').
NO_MAP = {"triton-interp": "Triton 3.6's interpreter cannot run tl.map_elementwise "
                           "(InterpreterBuilder has no new_block)"}
_ALPHA, _SCALE = 1.6732632423543772, 1.0507009873554805


def _selu(x):
    x = f64(x)
    return torch.where(x > 0, _SCALE * x, _SCALE * _ALPHA * torch.expm1(x))


register("mapped.selu", K, "_selu_map_kernel", "selu_map",
         lambda g, n: [randn(g, n, scale=2.0)], _selu,
         shapes=[(1000,), (4096,), (7,)], check=FP32, skip=NO_MAP)
register("mapped.selu_fp16", K, "_selu_map_kernel", "selu_map",
         lambda g, n: [randn(g, n, scale=2.0, dtype=torch.float16)], _selu,
         shapes=[(1000,)], check=FP16, skip=NO_MAP)


def _piecewise(x):
    x = f64(x)
    t = 0.5 * (x + 1.0)
    y = torch.where(x <= -1.0, 0.0, torch.where(x >= 1.0, 1.0, t * t * (3.0 - 2.0 * t)))
    flags = ((x < -4.0) | (x > 4.0)).to(torch.int8)
    return y, flags


register("mapped.piecewise", K, "_piecewise_kernel", "piecewise",
         lambda g, m, n: [randn(g, m, n, scale=2.5)], _piecewise,
         shapes=[(40, 100), (16, 64), (3, 5)], check=(FP32, EXACT), skip=NO_MAP)


def _collatz(n):
    n = n.to(torch.int64).clone()
    steps = torch.zeros_like(n)
    while bool((n != 1).any()):
        active = n != 1
        n = torch.where(active, torch.where(n % 2 == 0, n // 2, 3 * n + 1), n)
        steps += active.to(torch.int64)
    return steps.to(torch.int32)


register("mapped.collatz_steps", K, "_collatz_kernel", "collatz_steps",
         lambda g, n: [randint(g, 1, 10000, n)], _collatz,
         shapes=[(1000,), (128,), (77,)], check=EXACT, skip=NO_MAP)


def _soft_clip(x, lim):
    x = f64(x)
    l = f64(lim).repeat((x.numel() + 63) // 64)[: x.numel()]
    return torch.where(x > l, l + 0.1 * (x - l), x)


register("mapped.soft_clip_pack2", K, "_soft_clip_kernel", "soft_clip",
         lambda g, n: [randn(g, n, scale=2.0), randn(g, 64, scale=0.5, shift=1.0)], _soft_clip,
         shapes=[(2000,), (512,), (33,)], check=FP32, skip=NO_MAP)
