"""Cases of kernels/activations.py."""

import math

import torch
import torch.nn.functional as F

from kernels import activations as K

from .common import BF16, FP16, FP32, INTERP_BF16, Close, f64, randn, register


def _grad(fn, *inputs, dy):
    xs = [f64(t).requires_grad_() for t in inputs]
    with torch.enable_grad():
        fn(*xs).backward(f64(dy))
    return tuple(x.grad for x in xs)


def _silu(a):
    return a * torch.sigmoid(a)


def _gelu_tanh(a):
    return F.gelu(a, approximate="tanh")


register("activations.swiglu_fwd", K, "_swiglu_fwd_kernel", "swiglu_fwd",
         lambda g, m, n: [randn(g, m, n), randn(g, m, n)], lambda a, b: _silu(f64(a)) * f64(b),
         shapes=[(8, 100), (4, 1024), (3, 33)], check=FP32)
register("activations.swiglu_fwd_fp16", K, "_swiglu_fwd_kernel", "swiglu_fwd",
         lambda g, m, n: [randn(g, m, n, dtype=torch.float16), randn(g, m, n, dtype=torch.float16)],
         lambda a, b: _silu(f64(a)) * f64(b), shapes=[(8, 100)], check=FP16)
register("activations.swiglu_fwd_bf16", K, "_swiglu_fwd_kernel", "swiglu_fwd",
         lambda g, m, n: [randn(g, m, n, dtype=torch.bfloat16),
                          randn(g, m, n, dtype=torch.bfloat16)],
         lambda a, b: _silu(f64(a)) * f64(b), shapes=[(8, 100)], check=BF16,
         skip={"triton-interp": INTERP_BF16})
register("activations.swiglu_bwd", K, "_swiglu_bwd_kernel", "swiglu_bwd",
         lambda g, m, n: [randn(g, m, n), randn(g, m, n), randn(g, m, n)],
         lambda dc, a, b: _grad(lambda x, y: _silu(x) * y, a, b, dy=dc),
         shapes=[(8, 100), (2, 700)], check=FP32)
register("activations.geglu_tanh_fwd", K, "_geglu_tanh_fwd_kernel", "geglu_tanh_fwd",
         lambda g, m, n: [randn(g, m, n), randn(g, m, n)],
         lambda a, b: _gelu_tanh(f64(a)) * f64(b), shapes=[(8, 100), (3, 300)], check=FP32)
register("activations.geglu_tanh_bwd", K, "_geglu_tanh_bwd_kernel", "geglu_tanh_bwd",
         lambda g, m, n: [randn(g, m, n), randn(g, m, n), randn(g, m, n)],
         lambda dc, a, b: _grad(lambda x, y: _gelu_tanh(x) * y, a, b, dy=dc),
         shapes=[(8, 100), (2, 513)], check=FP32)
register("activations.geglu_tanh_bwd_fp16", K, "_geglu_tanh_bwd_kernel", "geglu_tanh_bwd",
         lambda g, m, n: [randn(g, m, n, dtype=torch.float16) for _ in range(3)],
         lambda dc, a, b: _grad(lambda x, y: _gelu_tanh(x) * y, a, b, dy=dc),
         shapes=[(4, 200)], check=FP16)


def _geglu_erf_ref(x):
    gate, value = f64(x).chunk(2, dim=1)
    return F.gelu(gate) * value


register("activations.geglu_erf", K, "_geglu_erf_fwd_kernel", "geglu_erf",
         lambda g, m, d: [randn(g, m, 2 * d)], _geglu_erf_ref,
         shapes=[(8, 100), (4, 64), (2, 5)], check=FP32)
register("activations.gelu_erf_bwd", K, "_gelu_erf_bwd_kernel", "gelu_erf_bwd",
         lambda g, n: [randn(g, n), randn(g, n, scale=2.0)],
         lambda dy, x: _grad(F.gelu, x, dy=dy)[0], shapes=[(1000,), (300,)], check=FP32)
register("activations.softplus_log1p", K, "_softplus_kernel", "softplus",
         lambda g, n, beta: [randn(g, n, scale=10.0), beta, 20.0],
         lambda x, beta, th: F.softplus(f64(x), beta, th),
         shapes=[(1000, 1.0), (300, 2.0)], check=FP32)
register("activations.mish_fp16", K, "_mish_kernel", "mish",
         lambda g, n: [randn(g, n, scale=3.0, dtype=torch.float16)],
         lambda x: F.mish(f64(x)), shapes=[(1000,), (2000,)], check=FP16)
register("activations.elu_expm1", K, "_elu_kernel", "elu",
         lambda g, n: [randn(g, n, scale=2.0), 1.5], lambda x, a: F.elu(f64(x), a),
         shapes=[(1000,), (100,)], check=FP32)
register("activations.powsign", K, "_powsign_kernel", "powsign",
         lambda g, n: [randn(g, n, scale=2.0), 1.5],
         lambda x, p: torch.sign(f64(x)) * f64(x).abs() ** p,
         shapes=[(1000,), (70,)], check=Close(1e-5, 1e-6))
