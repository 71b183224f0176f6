"""Cases of kernels/norms.py."""

import torch

from kernels import norms as K

from .common import FP16, FP32, FP32_LOOSE, Close, f64, randn, register


def _ln_ref(x, w, b, eps):
    x64 = f64(x)
    mean = x64.mean(1)
    rstd = 1 / torch.sqrt(x64.var(1, unbiased=False) + eps)
    y = torch.nn.functional.layer_norm(x64, (x.shape[1],), f64(w), f64(b), eps)
    return y, mean, rstd


register("norms.layer_norm_fwd", K, "_ln_fwd_kernel", "layer_norm_fwd",
         lambda g, m, n: [randn(g, m, n, scale=2.0, shift=0.5), randn(g, n), randn(g, n), 1e-5],
         _ln_ref, shapes=[(8, 100), (4, 1000), (3, 256)], check=FP32_LOOSE)
register("norms.layer_norm_fwd_fp16", K, "_ln_fwd_kernel", "layer_norm_fwd",
         lambda g, m, n: [randn(g, m, n, dtype=torch.float16), randn(g, n, dtype=torch.float16),
                          randn(g, n, dtype=torch.float16), 1e-5],
         _ln_ref, shapes=[(8, 300)], check=[FP16, FP32_LOOSE, FP32_LOOSE])


def _ln_bwd_inputs(g, m, n):
    x = randn(g, m, n)
    w = randn(g, n)
    mean = x.double().mean(1).float()
    rstd = (1 / torch.sqrt(x.double().var(1, unbiased=False) + 1e-5)).float()
    return [randn(g, m, n), x, w, mean, rstd]


def _ln_bwd_ref(dy, x, w, mean, rstd):
    x64 = f64(x).requires_grad_()
    w64 = f64(w).requires_grad_()
    b64 = torch.zeros_like(w64, requires_grad=True)
    with torch.enable_grad():
        y = torch.nn.functional.layer_norm(x64, (x.shape[1],), w64, b64, 1e-5)
        y.backward(f64(dy))
    return x64.grad, w64.grad, b64.grad


register("norms.layer_norm_bwd", K, ("_ln_bwd_dx_kernel", "_ln_bwd_dwdb_kernel"),
         "layer_norm_bwd", _ln_bwd_inputs, _ln_bwd_ref,
         shapes=[(20, 100), (9, 64), (3, 130)], check=Close(1e-4, 1e-4))


def _rms_ref(x, w, eps):
    x64 = f64(x)
    rstd = torch.rsqrt((x64 * x64).mean(1) + eps)
    return x64 * rstd[:, None] * f64(w), rstd


register("norms.rms_norm_fwd", K, "_rms_norm_fwd_kernel", "rms_norm_fwd",
         lambda g, m, n: [randn(g, m, n), randn(g, n), 1e-6], _rms_ref,
         shapes=[(8, 100), (4, 1024), (5, 33)], check=FP32)
register("norms.rms_norm_fwd_fp16", K, "_rms_norm_fwd_kernel", "rms_norm_fwd",
         lambda g, m, n: [randn(g, m, n, dtype=torch.float16), randn(g, n, dtype=torch.float16),
                          1e-6], _rms_ref, shapes=[(8, 100), (4, 512)], check=[FP16, FP32])


def _rms_bwd_inputs(g, m, n):
    x = randn(g, m, n)
    rstd = torch.rsqrt((x.double() ** 2).mean(1) + 1e-6).float()
    return [randn(g, m, n), x, randn(g, n), rstd]


def _rms_bwd_ref(dy, x, w, rstd):
    x64 = f64(x).requires_grad_()
    w64 = f64(w).requires_grad_()
    with torch.enable_grad():
        y = x64 * torch.rsqrt((x64 * x64).mean(1, keepdim=True) + 1e-6) * w64
        y.backward(f64(dy))
    return x64.grad, w64.grad


register("norms.rms_norm_bwd_two_stage", K, "_rms_norm_bwd_kernel", "rms_norm_bwd",
         _rms_bwd_inputs, _rms_bwd_ref, shapes=[(16, 100), (7, 64), (3, 257)],
         check=Close(1e-4, 1e-4))
register("norms.rms_norm_bwd_atomic", K, "_rms_norm_bwd_atomic_kernel", "rms_norm_bwd_atomic",
         _rms_bwd_inputs, _rms_bwd_ref, shapes=[(16, 100), (5, 256)], check=Close(1e-4, 1e-4))


def _add_rms_ref(x, r, w, eps):
    h = f64(x) + f64(r)
    return h * torch.rsqrt((h * h).mean(1, keepdim=True) + eps) * f64(w), h


register("norms.add_rms_norm", K, "_add_rms_norm_kernel", "add_rms_norm",
         lambda g, m, n: [randn(g, m, n), randn(g, m, n), randn(g, n), 1e-6], _add_rms_ref,
         shapes=[(8, 100), (4, 512)], check=FP32)
register("norms.add_rms_norm_fp16", K, "_add_rms_norm_kernel", "add_rms_norm",
         lambda g, m, n: [randn(g, m, n, dtype=torch.float16), randn(g, m, n, dtype=torch.float16),
                          randn(g, n, dtype=torch.float16), 1e-6], _add_rms_ref,
         shapes=[(6, 200)], check=FP16)
register("norms.group_norm", K, "_group_norm_fwd_kernel", "group_norm",
         lambda g, n, c, h, w, groups: [randn(g, n, c, h, w, shift=1.0), groups, randn(g, c),
                                        randn(g, c), 1e-5],
         lambda x, groups, w, b, eps: torch.nn.functional.group_norm(f64(x), groups, f64(w),
                                                                     f64(b), eps),
         shapes=[(2, 8, 5, 7, 4), (1, 16, 10, 10, 2)], check=FP32_LOOSE)
