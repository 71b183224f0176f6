"""Cases of kernels/attention.py and kernels/attention_bwd.py."""

import math

import torch

from kernels import attention as K
from kernels import attention_bwd as KB

from .common import FP32, Close, f64, randn, register

ATTN = Close(1e-2, 1e-2)        # fp16 inputs, fp16 P in the P @ V dot, fp16 output
ATTN_GRAD = Close(2e-2, 2e-2)


def _attention_ref(q, k, v, causal, sm_scale):
    s = f64(q) @ f64(k).transpose(-1, -2) * sm_scale
    if causal:
        n = q.shape[2]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(s, -1) @ f64(v), torch.logsumexp(s, -1) / math.log(2)


def _fwd_inputs(g, z, h, n, d, causal):
    return [randn(g, z, h, n, d, dtype=torch.float16) for _ in range(3)] + [causal,
                                                                            1 / math.sqrt(d)]


register("attention.flash_fwd", K, "_attn_fwd", "attention_fwd", _fwd_inputs, _attention_ref,
         shapes=[(1, 2, 64, 32, False), (2, 1, 50, 64, False), (1, 2, 64, 32, True),
                 (1, 2, 77, 16, True)], check=[ATTN, Close(1e-3, 1e-3)])
register("attention.flash_fwd_hopper_tiles", K, "_attn_fwd", "attention_fwd_hopper", _fwd_inputs,
         _attention_ref, shapes=[(1, 2, 128, 128, False), (1, 1, 200, 128, True),
                                 (2, 1, 130, 64, False)], check=[ATTN, Close(1e-3, 1e-3)])


def _decode_inputs(g, b, h, h_kv, n, d):
    return [randn(g, b, h, d, dtype=torch.float16), randn(g, b, h_kv, n, d, dtype=torch.float16),
            randn(g, b, h_kv, n, d, dtype=torch.float16), 1 / math.sqrt(d)]


def _decode_ref(q, k, v, sm_scale):
    group = q.shape[1] // k.shape[1]
    k = f64(k).repeat_interleave(group, 1)
    v = f64(v).repeat_interleave(group, 1)
    s = torch.einsum("bhd,bhnd->bhn", f64(q), k) * sm_scale
    return torch.einsum("bhn,bhnd->bhd", torch.softmax(s, -1), v)


register("attention.flash_decoding_gqa", K, ("_decode_split_kernel", "_decode_reduce_kernel"),
         "decode_attention", _decode_inputs, _decode_ref,
         shapes=[(2, 4, 2, 100, 32), (1, 8, 8, 257, 64), (1, 2, 1, 5, 16)], check=ATTN)


def _bwd_inputs(g, z, h, n, d, causal):
    q, k, v = [randn(g, z, h, n, d, dtype=torch.float16) for _ in range(3)]
    sm_scale = 1 / math.sqrt(d)
    o, lse2 = _attention_ref(q, k, v, causal, sm_scale)
    return [q, k, v, o.half(), randn(g, z, h, n, d, dtype=torch.float16), lse2.float(), causal,
            sm_scale]


def _bwd_ref(q, k, v, o, do, M, causal, sm_scale):
    q64, k64, v64 = [f64(t).requires_grad_() for t in (q, k, v)]
    with torch.enable_grad():
        out, _ = _attention_ref(q64, k64, v64, causal, sm_scale)
        out.backward(f64(do))
    return q64.grad, k64.grad, v64.grad


register("attention.flash_bwd", KB, ("_attn_bwd_preprocess", "_attn_bwd_dkdv", "_attn_bwd_dq"),
         "attention_bwd", _bwd_inputs, _bwd_ref,
         shapes=[(1, 2, 64, 32, False), (1, 1, 50, 64, False), (1, 2, 64, 32, True),
                 (1, 1, 45, 16, True)], check=ATTN_GRAD)
