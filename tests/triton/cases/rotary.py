"""Cases of kernels/rotary.py."""

import torch

from kernels import rotary as K

from .common import FP16, FP32, f64, randint, randn, register


def _angles(s, half, base=10000.0):
    inv = 1.0 / base ** (torch.arange(half, dtype=torch.float64) / half)
    return torch.arange(s, dtype=torch.float64)[:, None] * inv[None, :]


def _rope_inputs(g, b, s, n_qh, n_kh, hd, dtype=torch.float32):
    ang = _angles(s, hd // 2)
    return [randn(g, b, s, n_qh, hd, dtype=dtype), randn(g, b, s, n_kh, hd, dtype=dtype),
            ang.cos().float(), ang.sin().float()]


def _rotate_half(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    cos, sin = cos[None, :, None, :], sin[None, :, None, :]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)


def _rope_ref(q, k, cos, sin, backward=False):
    s = -f64(sin) if backward else f64(sin)
    return _rotate_half(f64(q), f64(cos), s), _rotate_half(f64(k), f64(cos), s)


register("rotary.rope_fwd", K, "_rope_kernel", "rope", _rope_inputs, _rope_ref,
         shapes=[(2, 8, 4, 2, 64), (1, 5, 3, 1, 48), (2, 3, 8, 8, 128)], check=FP32)
register("rotary.rope_fwd_fp16", K, "_rope_kernel", "rope",
         lambda g, *shape: _rope_inputs(g, *shape, dtype=torch.float16), _rope_ref,
         shapes=[(2, 8, 4, 2, 64)], check=FP16)
register("rotary.rope_bwd", K, "_rope_kernel", "rope",
         lambda g, *shape: _rope_inputs(g, *shape) + [True], _rope_ref,
         shapes=[(2, 8, 4, 2, 64), (1, 7, 6, 2, 32)], check=FP32)


def _interleaved_ref(x, cos, sin):
    x = f64(x)
    even, odd = x[..., 0::2], x[..., 1::2]
    c, s = f64(cos)[None, :, None, :], f64(sin)[None, :, None, :]
    return torch.stack([even * c - odd * s, odd * c + even * s], dim=-1).flatten(-2)


register("rotary.rope_interleaved", K, "_rope_interleaved_kernel", "rope_interleaved",
         lambda g, b, s, h, d: [randn(g, b, s, h, d), _angles(s, d // 2).cos().float(),
                                _angles(s, d // 2).sin().float()],
         _interleaved_ref, shapes=[(2, 5, 3, 64), (1, 9, 2, 16)], check=FP32)


def _cache_inputs(g, t, h, d, rot, max_pos):
    ang = _angles(max_pos, rot // 2)
    cache = torch.cat([ang.cos(), ang.sin()], dim=1).float()
    return [randn(g, t, h, d), randint(g, 0, max_pos, t, dtype=torch.int64), cache, rot]


def _cache_ref(x, positions, cache, rot):
    x = f64(x).clone()
    half = rot // 2
    c = f64(cache)[positions][:, None, :half]
    s = f64(cache)[positions][:, None, half:]
    x1, x2 = x[..., :half].clone(), x[..., half:rot].clone()
    x[..., :half] = x1 * c - x2 * s
    x[..., half:rot] = x2 * c + x1 * s
    return x


register("rotary.rope_position_cache", K, "_rope_cache_kernel", "rope_cache", _cache_inputs,
         _cache_ref, shapes=[(10, 4, 64, 64, 100), (7, 3, 80, 32, 50)], check=FP32)
