"""Cases of kernels/elementwise.py."""

import numpy as np
import torch

from kernels import elementwise as K

from .common import (BF16, EXACT, FP16, FP32, INTERP_BF16_ROUND, Close, as_dtype, f64, randint,
                     randn, register, rounded)

register("elementwise.add", K, "add_kernel", "add",
         lambda g, n: [randn(g, n), randn(g, n)],
         lambda x, y: f64(x) + f64(y),
         shapes=[(1000,), (4096,), (98432 // 16,)], check=FP32)


def _axpby_inputs(g, n, dtype):
    dt = as_dtype(dtype)
    return [randn(g, n, dtype=dt), randn(g, n, dtype=dt), 1.5, -0.25]


register("elementwise.axpby_fp16", K, "_axpby_kernel", "axpby", _axpby_inputs,
         lambda x, y, a, b: rounded(a * f64(x) + b * f64(y), x.dtype),
         shapes=[(777, "fp16"), (2048, "fp32")], check=FP16)
register("elementwise.axpby_bf16", K, "_axpby_kernel", "axpby", _axpby_inputs,
         lambda x, y, a, b: rounded(a * f64(x) + b * f64(y), x.dtype),
         shapes=[(777, "bf16"), (1024, "bf16")], check=BF16)

register("elementwise.bf16_times_int",
         K, "_bf16_scale_shift_kernel", "bf16_scale_shift",
         lambda g, n: [randn(g, n, dtype=torch.bfloat16), randint(g, -300, 300, n),
                       randn(g, n, dtype=torch.bfloat16)],
         lambda x, k, y: (x.float() * k.float() + y.float()).to(torch.bfloat16),
         shapes=[(1000,), (4096,)], check=EXACT, skip={"triton-interp": INTERP_BF16_ROUND})

register("elementwise.local_constants",
         K, "_local_constants_kernel", "local_constants",
         lambda g, n: [randn(g, n, dtype=torch.float16, scale=4.0),
                       randint(g, -128, 128, n, dtype=torch.int8)],
         lambda x, q: ((x.float() * torch.tensor(0.1, dtype=torch.float32)).half(),
                       (q.int() + 3) * 3 - 3),
         shapes=[(1000,), (4096,)], check=EXACT)

register("elementwise.leaky_relu", K, "_leaky_relu_kernel", "leaky_relu_",
         lambda g, n: [randn(g, n), 0.1],
         lambda x, s: torch.nn.functional.leaky_relu(f64(x), s),
         shapes=[(100,), (1536,), (1025,)], check=FP32)

register("elementwise.clamp", K, "_clamp_kernel", "clamp",
         lambda g, n: [randn(g, n, scale=2.0), -0.5, 1.25],
         lambda x, lo, hi: torch.clamp(x, lo, hi),
         shapes=[(300,), (4096,)], check=EXACT)

register("elementwise.scale_int64", K, "_scale_int64_kernel", "scale_int64",
         lambda g, n: [randn(g, n), 3.0],
         lambda x, s: f64(x) * s,
         shapes=[(1000,), (129,)], check=FP32)


def _cast_ref(x, dtype):
    return x.to(dtype)


register("elementwise.cast_fp16", K, "_cast_kernel", "cast",
         lambda g, n: [randn(g, n, scale=100.0), torch.float16],
         _cast_ref, shapes=[(1000,), (4099,)], check=EXACT)
register("elementwise.cast_bf16", K, "_cast_kernel", "cast",
         lambda g, n: [randn(g, n, scale=100.0), torch.bfloat16],
         _cast_ref, shapes=[(1000,), (513,)], check=EXACT,
         skip={"triton-interp": INTERP_BF16_ROUND})
register("elementwise.cast_int", K, "_cast_kernel", "cast",
         lambda g, n: [randn(g, n, scale=1000.0), torch.int32],
         _cast_ref, shapes=[(1000,)], check=EXACT)

register("elementwise.copy_early_return", K, "_copy_tail_kernel", "copy_rounded_grid",
         lambda g, n: [randn(g, n)], lambda x: x.clone(),
         shapes=[(1000,), (129,), (4096,)], check=EXACT)

register("elementwise.jit_call", K, "_scale_shift_kernel", "scale_shift",
         lambda g, n: [randn(g, n), 0.5, 2.0], lambda x, a, b: f64(x) * a + b,
         shapes=[(1000,), (256,)], check=FP32)


def _act_ref(x, name):
    x = f64(x)
    if name == "relu":
        return torch.relu(x)
    if name == "silu":
        return x * torch.sigmoid(x)
    return torch.where(x >= 0, x, 0.01 * x)


for _act in ("relu", "silu", "leaky_relu"):
    register(f"elementwise.activation_{_act}", K, "_activation_kernel", "activation",
             lambda g, n, _a=_act: [randn(g, n), _a], _act_ref,
             shapes=[(1000,), (300,)], check=FP32)

register("elementwise.heuristics_even", K, "_mul_heuristic_kernel", "mul",
         lambda g, n: [randn(g, n), randn(g, n)], lambda x, y: f64(x) * f64(y),
         shapes=[(1024,), (1000,), (256,)], check=FP32)

register("elementwise.autotune", K, "_sub_abs_kernel", "sub_abs",
         lambda g, n: [randn(g, n), randn(g, n)], lambda x, y: (f64(x) - f64(y)).abs(),
         shapes=[(1000,), (3000,)], check=FP32)

register("elementwise.polyval_static_range", K, "_polyval_kernel", "polyval",
         lambda g, n, deg: [randn(g, n, scale=0.5), randn(g, deg + 1)],
         lambda x, c: sum(f64(c)[i] * f64(x) ** (len(c) - 1 - i) for i in range(len(c))),
         shapes=[(1000, 3), (255, 6)], check=Close(1e-5, 1e-5))


def _hash_ref(x):
    x = x.numpy().astype(np.uint32)
    for _ in range(2):
        x = ((x >> np.uint32(16)) ^ x) * np.uint32(0x45D9F3B)
    return torch.from_numpy(((x >> np.uint32(16)) ^ x).astype(np.int64))


register("elementwise.hash_uint32", K, "_hash_u32_kernel", "hash_u32",
         lambda g, n: [randint(g, 0, 2**32, n, dtype=torch.int64).to(torch.uint32)],
         _hash_ref, shapes=[(1000,), (77,)], check=EXACT)


def _bitops_ref(a, b):
    r = ((a & 0xFF) << 8) | ((a >> 4) ^ b)
    return r + torch.fmod(a, 7) - torch.div(b, 3, rounding_mode="trunc")


register("elementwise.bitops_int32", K, "_bitops_kernel", "bitops",
         lambda g, n: [randint(g, -2**20, 2**20, n), randint(g, -2**20, 2**20, n)],
         _bitops_ref, shapes=[(1000,), (256,)], check=EXACT)


def _reverse_ref(x, block=64):
    n = x.numel()
    padded = torch.zeros(-(-n // block) * block, dtype=x.dtype)
    padded[:n] = x
    return padded.view(-1, block).flip(1).reshape(-1)[:n]


register("elementwise.debug_barrier_reverse", K, "_reverse_block_kernel", "reverse_blocks",
         lambda g, n: [randn(g, n)], _reverse_ref, shapes=[(256,), (100,)], check=EXACT)

register("elementwise.where_bool", K, "_where_kernel", "where",
         lambda g, n: [randn(g, n) > 0, randn(g, n), randn(g, n)],
         lambda c, a, b: torch.where(c, a, b), shapes=[(1000,), (64,)], check=EXACT)

register("elementwise.fma_fp64", K, "_fma_fp64_kernel", "fma_fp64",
         lambda g, n: [randn(g, n, dtype=torch.float64) for _ in range(3)],
         lambda a, b, c: (a * b + c) / (1 + c.abs()), shapes=[(1000,), (130,)],
         check=Close(1e-12, 1e-14))

register("elementwise.grid_stride_condition", K, "_grid_stride_scale_kernel",
         "grid_stride_scale", lambda g, n: [randn(g, n), 0.75],
         lambda x, s: x * s, shapes=[(5000,), (256,), (77,)], check=EXACT)
