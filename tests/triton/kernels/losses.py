"""Losses with online logsumexp over the vocabulary: fused cross-entropy
(loss and gradient in place, ignore_index, label smoothing), cross-entropy
forward/backward, KL divergence, generalized JSD, smooth L1 and BCE."""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_fused_kernel(X, stride_x, Y, Loss, n_cols, n_non_ignore, ignore_index,
                     label_smoothing: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # Loss of one row, and its gradient (of the mean over non-ignored rows)
    # written over the logits.
    row = tl.program_id(0).to(tl.int64)
    X += row * stride_x
    y = tl.load(Y + row)
    if y == ignore_index:
        for off in range(0, n_cols, BLOCK_SIZE):
            cols = off + tl.arange(0, BLOCK_SIZE)
            tl.store(X + cols, 0.0, mask=cols < n_cols)
        tl.store(Loss + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    x_sum = 0.0
    x_y = tl.load(X + y).to(tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        x_sum += tl.sum(tl.where(cols < n_cols, x, 0.0), axis=0)
        m = m_new
    lse = m + tl.log(d)
    eps = label_smoothing
    loss = (1.0 - eps) * (lse - x_y) + eps * (lse - x_sum / n_cols)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        grad = tl.exp(x - lse) - eps / n_cols
        grad = tl.where(cols == y, grad - (1.0 - eps), grad)
        tl.store(X + cols, (grad / n_non_ignore).to(X.dtype.element_ty), mask=cols < n_cols)
    tl.store(Loss + row, loss)


def cross_entropy_fused(logits, target, ignore_index=-100, label_smoothing=0.0):
    B, V = logits.shape
    grad = logits.clone()
    loss = torch.empty(B, dtype=torch.float32, device=logits.device)
    n_non_ignore = int((target != ignore_index).sum().item())
    BLOCK_SIZE = min(1024, triton.next_power_of_2(V))
    _ce_fused_kernel[(B,)](grad, grad.stride(0), target, loss, V, n_non_ignore, ignore_index,
                           label_smoothing=label_smoothing, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return loss, grad


@triton.jit
def _ce_fwd_kernel(Logits, Labels, Loss, Lse, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    label = tl.load(Labels + row)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(Logits + row * stride + cols, mask=cols < n_cols,
                    other=float("-inf")).to(tl.float32)
        # Lanes past the row's end keep (m, s) = (-inf, 0): no exp(-inf - -inf).
        m_new = tl.maximum(m, x)
        s = tl.where(cols < n_cols, s * tl.exp(m - m_new) + tl.exp(x - m_new), s)
        m = tl.where(cols < n_cols, m_new, m)
    row_max = tl.max(m, axis=0)
    lse = row_max + tl.log(tl.sum(s * tl.exp(m - row_max), axis=0))
    x_label = tl.load(Logits + row * stride + label).to(tl.float32)
    tl.store(Lse + row, lse)
    tl.store(Loss + row, lse - x_label)


@triton.jit
def _ce_bwd_kernel(DLogits, DLoss, Logits, Lse, Labels, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    col_block = tl.program_id(1)
    cols = col_block * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(Logits + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    lse = tl.load(Lse + row)
    dloss = tl.load(DLoss + row)
    label = tl.load(Labels + row)
    p = tl.exp(x - lse)
    p = tl.where(cols == label, p - 1.0, p)
    tl.store(DLogits + row * stride + cols, (p * dloss).to(DLogits.dtype.element_ty), mask=mask)


def cross_entropy_fwd_bwd(logits, labels, dloss):
    B, V = logits.shape
    loss = torch.empty(B, dtype=torch.float32, device=logits.device)
    lse = torch.empty(B, dtype=torch.float32, device=logits.device)
    _ce_fwd_kernel[(B,)](logits, labels, loss, lse, V, logits.stride(0), BLOCK=256)
    dlogits = torch.empty_like(logits)
    BLOCK = 512
    _ce_bwd_kernel[(B, triton.cdiv(V, BLOCK))](dlogits, dloss, logits, lse, labels, V,
                                               logits.stride(0), BLOCK=BLOCK)
    return loss, dlogits


@triton.jit
def _kldiv_fwd_kernel(YPred, YTrue, Loss, n_cols, stride, eps,
                      LOG_TARGET: tl.constexpr, BLOCK: tl.constexpr):
    # KL(true || pred) per row, pred given as log-probabilities.
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        log_q = tl.load(YPred + row * stride + cols, mask=mask, other=0.0)
        t = tl.load(YTrue + row * stride + cols, mask=mask, other=0.0)
        if LOG_TARGET:
            kl = tl.exp(t) * (t - log_q)
        else:
            kl = t * (tl.log(tl.maximum(t, eps)) - log_q)
        acc += tl.where(mask, kl, 0.0)
    tl.store(Loss + row, tl.sum(acc, axis=0))


@triton.jit
def _kldiv_bwd_kernel(YTrue, DLoss, DPred, n_cols, stride, LOG_TARGET: tl.constexpr,
                      BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    t = tl.load(YTrue + row * stride + cols, mask=mask, other=0.0)
    if LOG_TARGET:
        t = tl.exp(t)
    g = tl.load(DLoss + row)
    tl.store(DPred + row * stride + cols, -t * g, mask=mask)


def kl_div(y_pred, y_true, dloss, log_target):
    B, V = y_pred.shape
    loss = torch.empty(B, dtype=torch.float32, device=y_pred.device)
    _kldiv_fwd_kernel[(B,)](y_pred, y_true, loss, V, y_pred.stride(0), 1e-10,
                            LOG_TARGET=log_target, BLOCK=256)
    dpred = torch.empty_like(y_pred)
    _kldiv_bwd_kernel[(B, triton.cdiv(V, 256))](y_true, dloss, dpred, V, y_pred.stride(0),
                                                LOG_TARGET=log_target, BLOCK=256)
    return loss, dpred


@triton.jit
def _jsd_kernel(X, Y, Loss, DX, stride, n_cols, beta, BLOCK: tl.constexpr):
    # Generalized JSD between P = exp(Y) (teacher) and Q = exp(X) (student):
    # beta KL(P || M) + (1 - beta) KL(Q || M), M = beta P + (1 - beta) Q.
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    DX += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        y = tl.load(Y + cols, mask=mask, other=0.0).to(tl.float32)
        q = tl.exp(x)
        p = tl.exp(y)
        m = beta * p + (1.0 - beta) * q
        log_m = tl.log(m)
        loss = beta * p * (y - log_m) + (1.0 - beta) * q * (x - log_m)
        acc += tl.where(mask, loss, 0.0)
        tl.store(DX + cols, (1.0 - beta) * q * (x - log_m), mask=mask)
    tl.store(Loss + row, tl.sum(acc, axis=0))


def jsd(x, y, beta):
    B, V = x.shape
    loss = torch.empty(B, dtype=torch.float32, device=x.device)
    dx = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    _jsd_kernel[(B,)](x, y, loss, dx, x.stride(0), V, beta, BLOCK=512)
    return loss, dx


@triton.jit
def _smooth_l1_kernel(Pred, Target, Sum, Grad, N, beta, inv_n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    d = tl.load(Pred + offs, mask=mask, other=0.0) - tl.load(Target + offs, mask=mask, other=0.0)
    ad = tl.abs(d)
    loss = tl.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)
    grad = tl.where(ad < beta, d / beta, tl.where(d > 0, 1.0, -1.0))
    tl.store(Grad + offs, grad * inv_n, mask=mask)
    tl.atomic_add(Sum, tl.sum(tl.where(mask, loss, 0.0), axis=0) * inv_n)


def smooth_l1(pred, target, beta=1.0):
    N = pred.numel()
    out = torch.zeros(1, dtype=torch.float32, device=pred.device)
    grad = torch.empty_like(pred)
    _smooth_l1_kernel[(triton.cdiv(N, 256),)](pred, target, out, grad, N, beta, 1.0 / N,
                                              BLOCK=256)
    return out, grad


@triton.jit
def _bce_logits_kernel(X, T, Loss, N, pos_weight, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(X + offs, mask=mask, other=0.0)
    t = tl.load(T + offs, mask=mask, other=0.0)
    # log(1 + exp(-|x|)) + max(-x, 0): log sigmoid without overflow.
    log_sig_neg = -(tl.log(1.0 + tl.exp(-tl.abs(x))) + tl.maximum(-x, 0.0))
    log_sig_pos = log_sig_neg - x
    loss = -(pos_weight * t * log_sig_neg + (1.0 - t) * log_sig_pos)
    tl.store(Loss + offs, loss, mask=mask)


def bce_with_logits(x, t, pos_weight):
    loss = torch.empty_like(x)
    N = x.numel()
    _bce_logits_kernel[(triton.cdiv(N, 256),)](x, t, loss, N, pos_weight, BLOCK=256)
    return loss
