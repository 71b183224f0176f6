"""Cases of kernels/softmax.py."""

import torch

from kernels import softmax as K

from .common import FP16, FP32, Close, f64, randn, register

register("softmax.fused", K, "softmax_kernel", "softmax",
         lambda g, m, n: [randn(g, m, n, scale=3.0)], lambda x: torch.softmax(f64(x), 1),
         shapes=[(10, 100), (7, 781), (3, 2048)], check=FP32)
register("softmax.online_long_rows", K, "_online_softmax_kernel", "online_softmax",
         lambda g, m, n: [randn(g, m, n, scale=4.0)], lambda x: torch.softmax(f64(x), 1),
         shapes=[(3, 3000), (2, 256), (4, 100)], check=FP32)
register("softmax.online_long_rows_fp16", K, "_online_softmax_kernel", "online_softmax",
         lambda g, m, n: [randn(g, m, n, scale=4.0, dtype=torch.float16)],
         lambda x: torch.softmax(f64(x), 1), shapes=[(2, 1500)], check=Close(1e-2, 1e-4))
register("softmax.logsumexp", K, "_logsumexp_kernel", "logsumexp",
         lambda g, m, n: [randn(g, m, n, scale=5.0)], lambda x: torch.logsumexp(f64(x), 1),
         shapes=[(3, 5000), (4, 512), (2, 33)], check=FP32)
register("softmax.log_softmax_fp16", K, "_log_softmax_kernel", "log_softmax",
         lambda g, m, n: [randn(g, m, n, dtype=torch.float16)],
         lambda x: torch.log_softmax(f64(x), 1), shapes=[(8, 100), (4, 1024)], check=FP16)
register("softmax.log_softmax", K, "_log_softmax_kernel", "log_softmax",
         lambda g, m, n: [randn(g, m, n)], lambda x: torch.log_softmax(f64(x), 1),
         shapes=[(8, 100), (3, 700)], check=FP32)


def _bwd_inputs(g, m, n):
    y = torch.softmax(randn(g, m, n, dtype=torch.float64), 1).float()
    return [randn(g, m, n), y]


register("softmax.backward", K, "_softmax_bwd_kernel", "softmax_bwd", _bwd_inputs,
         lambda dy, y: f64(y) * (f64(dy) - (f64(dy) * f64(y)).sum(1, keepdim=True)),
         shapes=[(8, 100), (4, 1000)], check=FP32)


def _masked_ref(x, scale, causal):
    s = f64(x) * scale
    if causal:
        m, n = x.shape
        s = s.masked_fill(torch.ones(m, n, dtype=torch.bool).triu(n - m + 1), float("-inf"))
    return torch.softmax(s, 1)


register("softmax.scaled_causal", K, "_scaled_masked_softmax_kernel", "scaled_masked_softmax",
         lambda g, m, n, causal: [randn(g, m, n), 0.125, causal], _masked_ref,
         shapes=[(16, 16, True), (10, 37, True), (8, 50, False)], check=FP32)
