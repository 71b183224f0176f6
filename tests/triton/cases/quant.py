"""Cases of kernels/quant.py."""

import torch

from kernels import quant as K

from .common import (EXACT, FP32, INTERP_E4B15, INTERP_FP8_ROUND, Close, as_dtype, e4b15_bits,
                     e4b15_value, f64, randint, randn, register)

ONE_STEP = Close(0.0, 1.0)     # a quantized integer may land one step away (x / scale)
FP8_E4M3 = Close(0.0625, 1e-3)  # 3 mantissa bits: within one ulp (2^-3 relative) / 2


def _int8_ref(x):
    scale = (f64(x).abs().amax(1).clamp_min(1e-8) / 127.0)
    q = torch.round(f64(x) / f64(scale)[:, None]).clamp(-127, 127)
    return q, scale


register("quant.int8_rowwise", K, "_quant_int8_rowwise_kernel", "quant_int8_rowwise",
         lambda g, m, n: [randn(g, m, n, scale=3.0)], _int8_ref,
         shapes=[(8, 100), (4, 1024), (3, 7)], check=[ONE_STEP, FP32])
register("quant.int8_rowwise_fp16", K, "_quant_int8_rowwise_kernel", "quant_int8_rowwise",
         lambda g, m, n: [randn(g, m, n, scale=3.0, dtype=torch.float16)], _int8_ref,
         shapes=[(8, 300)], check=[ONE_STEP, FP32])


def _fp8_ref(x):
    scale = x.abs().max().float() / 448.0
    return (f64(x) / f64(scale)).clamp(-448, 448), scale.reshape(1)


register("quant.fp8_per_tensor", K, ("_fp8_absmax_kernel", "_quant_fp8_kernel"),
         "quant_fp8_per_tensor", lambda g, n: [randn(g, n, scale=5.0)], _fp8_ref,
         shapes=[(1000,), (4099,)], check=[FP8_E4M3, FP32],
         skip={"triton-interp": INTERP_FP8_ROUND})


def _fp8_group_ref(x, group=128):
    xg = f64(x).reshape(-1, group)
    s = xg.abs().amax(1) / 448.0
    s = torch.where(s == 0, torch.ones_like(s), s)
    return (xg / s[:, None]).reshape(x.shape), s


register("quant.fp8_groups", K, "_quant_fp8_group_kernel", "quant_fp8_groups",
         lambda g, m, n: [randn(g, m, n, scale=2.0)], _fp8_group_ref,
         shapes=[(4, 256), (3, 384)], check=[FP8_E4M3, FP32],
         skip={"triton-interp": INTERP_FP8_ROUND})


def _w8_inputs(g, m, n, k):
    w = randn(g, k, n)
    scale = w.abs().amax(0) / 127.0
    return [randn(g, m, k, dtype=torch.float16), torch.round(w / scale).to(torch.int8), scale]


register("quant.w8a16_matmul", K, "_w8a16_matmul_kernel", "w8a16_matmul", _w8_inputs,
         lambda a, w, s: (f64(a) @ f64(w)) * f64(s),
         shapes=[(64, 64, 64), (20, 50, 100)], check=Close(1e-2, 1e-2))


def _int4_weights(g, k, n, group):
    nibbles = randint(g, 0, 16, k, n, dtype=torch.int32)
    packed = (nibbles[0::2] | (nibbles[1::2] << 4)).to(torch.uint8)
    scales = (torch.rand(k // group, n, generator=g, dtype=torch.float64) * 0.1 + 0.01)
    return nibbles, packed, scales.half()


def _dequant_int4(nibbles, scales, group):
    return (nibbles.double() - 8) * f64(scales).repeat_interleave(group, 0)


def _w4_inputs(g, m, n, k, group):
    nibbles, packed, scales = _int4_weights(g, k, n, group)
    return [randn(g, m, k, dtype=torch.float16), packed, scales, group]


def _w4_ref(a, packed, scales, group):
    low = (packed & 0xF).int()
    high = (packed >> 4).int()
    nibbles = torch.stack([low, high], 1).reshape(-1, packed.shape[1])
    return f64(a) @ _dequant_int4(nibbles, scales, group).half().double()


register("quant.w4a16_matmul", K, "_w4a16_matmul_kernel", "w4a16_matmul", _w4_inputs, _w4_ref,
         shapes=[(32, 64, 128, 32), (20, 40, 96, 32)], check=Close(1e-2, 1e-2))


def _unpack_inputs(g, k, n, group):
    _, packed, scales = _int4_weights(g, k, n, group)
    return [packed, scales, group]


def _unpack_ref(packed, scales, group):
    low = (packed & 0xF).int()
    high = (packed >> 4).int()
    return _dequant_int4(torch.stack([low, high], 1).reshape(-1, packed.shape[1]), scales, group)


register("quant.unpack_int4_join", K, "_unpack_int4_kernel", "unpack_int4", _unpack_inputs,
         _unpack_ref, shapes=[(64, 64, 32), (40, 50, 8)], check=Close(1e-3, 1e-4))


def _e4b15_inputs(g, n, dt):
    # Magnitudes from 1e-6 to past 1.75, and the values that saturate (NaN,
    # infinities, past fp16's range in fp32).
    x = randn(g, n, dtype=torch.float64) * torch.exp(randn(g, n, dtype=torch.float64) * 3.0)
    x[:8] = torch.tensor([float("nan"), -float("nan"), float("inf"), -float("inf"), 1e30, -70000.0,
                          2.0 ** -18, -(2.0 ** -18)], dtype=torch.float64)
    return [x.to(as_dtype(dt))]


def _e4b15_ref(x):
    codes = e4b15_bits(x)
    return codes, e4b15_value(codes).to(x.dtype)


register("quant.e4b15_roundtrip", K, "_quant_e4b15_kernel", "quant_e4b15", _e4b15_inputs,
         _e4b15_ref, shapes=[(5000, "fp32"), (3001, "fp16")], check=[EXACT, EXACT],
         skip={"triton-interp": INTERP_E4B15})
