"""Cases of kernels/losses.py."""

import torch
import torch.nn.functional as F

from kernels import losses as K

from .common import FP16, FP32, Close, f64, rand, randint, randn, register


def _ce_inputs(g, b, v, n_ignored, smoothing):
    target = randint(g, 0, v, b, dtype=torch.int64)
    target[:n_ignored] = -100
    return [randn(g, b, v, scale=3.0), target, -100, smoothing]


def _ce_ref(logits, target, ignore_index, smoothing):
    x = f64(logits).requires_grad_()
    loss = F.cross_entropy(x, target, ignore_index=ignore_index, label_smoothing=smoothing,
                           reduction="none")
    with torch.enable_grad():
        F.cross_entropy(x, target, ignore_index=ignore_index, label_smoothing=smoothing,
                        reduction="mean").backward()
    return loss, x.grad


register("losses.cross_entropy_fused", K, "_ce_fused_kernel", "cross_entropy_fused",
         _ce_inputs, _ce_ref,
         shapes=[(8, 3000, 2, 0.0), (4, 1000, 0, 0.1), (3, 100, 1, 0.0)], check=FP32)


def _ce_fb_ref(logits, labels, dloss):
    x = f64(logits).requires_grad_()
    with torch.enable_grad():
        loss = F.cross_entropy(x, labels, reduction="none")
        loss.backward(f64(dloss))
    return loss.detach(), x.grad


register("losses.cross_entropy_fwd_bwd", K, ("_ce_fwd_kernel", "_ce_bwd_kernel"),
         "cross_entropy_fwd_bwd",
         lambda g, b, v: [randn(g, b, v, scale=2.0), randint(g, 0, v, b, dtype=torch.int64),
                          randn(g, b)], _ce_fb_ref,
         shapes=[(4, 5000), (6, 300), (2, 17)], check=FP32)
register("losses.cross_entropy_fwd_bwd_fp16", K, ("_ce_fwd_kernel", "_ce_bwd_kernel"),
         "cross_entropy_fwd_bwd",
         lambda g, b, v: [randn(g, b, v, scale=2.0, dtype=torch.float16),
                          randint(g, 0, v, b, dtype=torch.int64), randn(g, b)], _ce_fb_ref,
         shapes=[(4, 1000)], check=[Close(1e-4, 1e-4), FP16])


def _kl_inputs(g, b, v, log_target):
    log_q = torch.log_softmax(randn(g, b, v, dtype=torch.float64), 1).float()
    p = torch.softmax(randn(g, b, v, dtype=torch.float64, scale=2.0), 1)
    return [log_q, (p.log() if log_target else p).float(), randn(g, b), log_target]


def _kl_ref(log_q, t, dloss, log_target):
    x = f64(log_q).requires_grad_()
    with torch.enable_grad():
        loss = F.kl_div(x, f64(t), reduction="none", log_target=log_target).sum(1)
        loss.backward(f64(dloss))
    return loss.detach(), x.grad


register("losses.kl_div", K, ("_kldiv_fwd_kernel", "_kldiv_bwd_kernel"), "kl_div",
         _kl_inputs, _kl_ref, shapes=[(4, 1000, False), (3, 700, True), (5, 50, False)],
         check=Close(1e-5, 1e-6))


def _jsd_inputs(g, b, v, beta):
    x = torch.log_softmax(randn(g, b, v, dtype=torch.float64), 1).float()
    y = torch.log_softmax(randn(g, b, v, dtype=torch.float64, scale=2.0), 1).float()
    return [x, y, beta]


def _jsd_ref(x, y, beta):
    xq = f64(x).requires_grad_()
    with torch.enable_grad():
        q, p = xq.exp(), f64(y).exp()
        m = beta * p + (1 - beta) * q
        loss = (beta * p * (f64(y) - m.log()) + (1 - beta) * q * (xq - m.log())).sum(1)
        loss.sum().backward()
    return loss.detach(), xq.grad


register("losses.jsd", K, "_jsd_kernel", "jsd", _jsd_inputs, _jsd_ref,
         shapes=[(4, 1000, 0.5), (3, 2000, 0.1), (2, 33, 0.9)], check=Close(1e-5, 1e-6))


def _smooth_l1_ref(pred, target, beta):
    x = f64(pred).requires_grad_()
    with torch.enable_grad():
        loss = F.smooth_l1_loss(x, f64(target), beta=beta)
        loss.backward()
    return loss.detach().reshape(1), x.grad


register("losses.smooth_l1_atomic", K, "_smooth_l1_kernel", "smooth_l1",
         lambda g, n, beta: [randn(g, n, scale=2.0), randn(g, n), beta], _smooth_l1_ref,
         shapes=[(1000, 1.0), (3000, 0.5)], check=Close(1e-5, 1e-6))
register("losses.bce_with_logits", K, "_bce_logits_kernel", "bce_with_logits",
         lambda g, n: [randn(g, n, scale=5.0), rand(g, n), 2.0],
         lambda x, t, w: F.binary_cross_entropy_with_logits(
             f64(x), f64(t), pos_weight=torch.tensor(w, dtype=torch.float64), reduction="none"),
         shapes=[(1000,), (77,)], check=FP32)
