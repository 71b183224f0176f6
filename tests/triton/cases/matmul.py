"""Cases of kernels/matmul.py and kernels/matmul_lowp.py."""

import torch
import torch.nn.functional as F

from kernels import matmul as K
from kernels import matmul_lowp as KL

from .common import (BF16, BLOCK_PTR_SKIP, EXACT, FP8, FP16, INTERP_BF16, TF32, Close, e4b15_value,
                     f64, rand, randint, randn, register)

MM16 = Close(1e-2, 2e-2)      # fp16 inputs, fp32 accumulation, fp16 output


def _mm_inputs(dtype):
    return lambda g, m, n, k: [randn(g, m, k, dtype=dtype), randn(g, k, n, dtype=dtype)]


def _act(y, name):
    if name == "leaky_relu":
        return torch.where(y >= 0, y, 0.01 * y)
    if name == "gelu":
        return F.gelu(y)
    return y


register("matmul.grouped_autotuned", K, "matmul_kernel", "matmul",
         lambda g, m, n, k, act: _mm_inputs(torch.float16)(g, m, n, k) + [act],
         lambda a, b, act: _act(f64(a) @ f64(b), act),
         shapes=[(64, 64, 64, ""), (100, 70, 50, "leaky_relu"), (33, 130, 96, "gelu")],
         check=MM16)
register("matmul.linear_tf32", K, "_linear_kernel", "linear",
         lambda g, m, n, k: [randn(g, m, k), randn(g, n, k), randn(g, n), "tf32"],
         lambda x, w, b, p: f64(x) @ f64(w).t() + f64(b),
         shapes=[(64, 48, 80), (37, 20, 33)], check=TF32)
# Split-precision fp32 dots: 3xTF32 and 6xBF16 keep about fp32 accuracy
# (a tf32 dot is off by ~1e-2 here, a 3xBF16 one by ~2e-4: it leaves out
# the mid*mid product); the tolerances tell the three apart.
_INTERP_BF16XN = ("Triton's interpreter takes only tf32, tf32x3 and ieee as input_precision "
                  "(bf16x3 and bf16x6 are options of its CUDA backend)")
for _precision, _check in (("tf32x3", Close(5e-5, 5e-5)), ("bf16x3", Close(1e-3, 1e-3)),
                           ("bf16x6", Close(5e-5, 5e-5))):
    register(f"matmul.linear_{_precision}", K, "_linear_kernel", "linear",
             lambda g, m, n, k, p=_precision: [randn(g, m, k), randn(g, n, k), randn(g, n), p],
             lambda x, w, b, p: f64(x) @ f64(w).t() + f64(b),
             shapes=[(64, 48, 80), (37, 20, 33)], check=_check,
             skip={} if _precision == "tf32x3" else {"triton-interp": _INTERP_BF16XN})
register("matmul.linear_ieee", K, "_linear_kernel", "linear",
         lambda g, m, n, k: [randn(g, m, k), randn(g, n, k), None, "ieee"],
         lambda x, w, b, p: f64(x) @ f64(w).t(),
         shapes=[(64, 48, 80), (10, 70, 40)], check=Close(1e-4, 1e-4))
register("matmul.persistent_fp16", K, "_persistent_matmul_kernel", "persistent_matmul",
         _mm_inputs(torch.float16), lambda a, b: f64(a) @ f64(b),
         shapes=[(100, 100, 64), (64, 96, 40)], check=MM16)
register("matmul.persistent_bf16", K, "_persistent_matmul_kernel", "persistent_matmul",
         _mm_inputs(torch.bfloat16), lambda a, b: f64(a) @ f64(b),
         shapes=[(100, 100, 64)], check=Close(2e-2, 1e-1), skip={"triton-interp": INTERP_BF16})
register("matmul.splitk_atomic", K, "_splitk_atomic_kernel", "splitk_matmul_atomic",
         _mm_inputs(torch.float16), lambda a, b: f64(a) @ f64(b),
         shapes=[(64, 64, 256), (40, 50, 300)], check=Close(1e-4, 1e-3))
register("matmul.splitk_two_stage", K, ("_splitk_partial_kernel", "_splitk_reduce_kernel"),
         "splitk_matmul_two_stage", _mm_inputs(torch.float16), lambda a, b: f64(a) @ f64(b),
         shapes=[(64, 64, 256), (50, 33, 200)], check=MM16)
register("matmul.bmm_fp16", K, "_bmm_kernel", "bmm",
         lambda g, b, m, n, k: [randn(g, b, m, k, dtype=torch.float16),
                                randn(g, b, k, n, dtype=torch.float16)],
         lambda a, b: f64(a) @ f64(b), shapes=[(3, 40, 50, 60), (2, 64, 32, 32)], check=MM16)
register("matmul.bmm_transposed_b", K, "_bmm_kernel", "bmm_transposed_b",
         lambda g, b, m, n, k: [randn(g, b, m, k, dtype=torch.float16),
                                randn(g, b, n, k, dtype=torch.float16)],
         lambda a, bt: f64(a) @ f64(bt).transpose(1, 2), shapes=[(2, 40, 50, 60)], check=MM16)
# Hopper-sized tiles: a K tile of 128 16-bit elements, wider than one
# 128-byte swizzle atom.
register("matmul.bmm_wide_k_fp16", K, "_bmm_kernel", "bmm_wide_k",
         lambda g, b, m, n, k: [randn(g, b, m, k, dtype=torch.float16),
                                randn(g, b, k, n, dtype=torch.float16)],
         lambda a, b: f64(a) @ f64(b), shapes=[(2, 256, 192, 384), (1, 130, 70, 300)],
         check=MM16)
register("matmul.bmm_wide_k_bf16", K, "_bmm_kernel", "bmm_wide_k",
         lambda g, b, m, n, k: [randn(g, b, m, k, dtype=torch.bfloat16),
                                randn(g, b, k, n, dtype=torch.bfloat16)],
         lambda a, b: f64(a) @ f64(b), shapes=[(1, 128, 128, 256)], check=Close(2e-2, 1e-1),
         skip={"triton-interp": INTERP_BF16})
register("matmul.bmm_bf16", K, "_bmm_kernel", "bmm",
         lambda g, b, m, n, k: [randn(g, b, m, k, dtype=torch.bfloat16),
                                randn(g, b, k, n, dtype=torch.bfloat16)],
         lambda a, b: f64(a) @ f64(b), shapes=[(2, 40, 50, 60)], check=Close(2e-2, 1e-1),
         skip={"triton-interp": INTERP_BF16})
register("matmul.flat_persistent", K, "_flat_persistent_matmul_kernel", "flat_persistent_matmul",
         _mm_inputs(torch.float16), lambda a, b: f64(a) @ f64(b),
         shapes=[(100, 70, 50), (64, 96, 80), (128, 128, 32)], check=MM16)
# Five programs over 6 or 12 tiles: some programs move to a second or third
# tile in the middle of the loop; fp32 inputs take tf32 dots (sums of 128-192
# products of N(0, 1) values rounded to tf32 are off by ~0.015 absolute, so
# the atol is wider than TF32's).
register("matmul.flat_persistent_hopper_fp16", K, "_flat_persistent_matmul_kernel",
         "flat_persistent_matmul_hopper", _mm_inputs(torch.float16), lambda a, b: f64(a) @ f64(b),
         shapes=[(256, 384, 128), (300, 200, 192), (512, 384, 256)], check=MM16)
register("matmul.flat_persistent_hopper_tf32", K, "_flat_persistent_matmul_kernel",
         "flat_persistent_matmul_hopper", _mm_inputs(torch.float32), lambda a, b: f64(a) @ f64(b),
         shapes=[(256, 384, 128), (300, 200, 192)], check=Close(1e-2, 5e-2))
register("matmul.head_scores_3d_dot", K, "_head_scores_kernel", "head_scores",
         lambda g, h, m, n, d: [randn(g, h, m, d, dtype=torch.float16),
                                randn(g, h, n, d, dtype=torch.float16)],
         lambda q, k: (f64(q) @ f64(k).transpose(1, 2)) * q.shape[2] ** -0.5,
         shapes=[(4, 64, 32, 32), (5, 40, 30, 24)], check=MM16)
register("matmul.block_ptr", K, "_matmul_block_ptr_kernel", "matmul_block_ptr",
         _mm_inputs(torch.float16), lambda a, b: f64(a) @ f64(b),
         shapes=[(64, 64, 64), (50, 70, 40)], check=MM16, skip=BLOCK_PTR_SKIP)


def _fp8_inputs(g, m, n, k):
    a = randn(g, m, k)
    b = randn(g, k, n)
    sa = (a.abs().max() / 448.0).reshape(1)
    sb = (b.abs().max() / 448.0).reshape(1)
    return [(a / sa).to(torch.float8_e4m3fn), (b / sb).to(torch.float8_e4m3fn), sa, sb]


register("matmul.fp8_e4m3", KL, "_matmul_fp8_kernel", "matmul_fp8", _fp8_inputs,
         lambda a, b, sa, sb: (f64(a) @ f64(b)) * f64(sa) * f64(sb),
         shapes=[(64, 64, 64), (40, 70, 96)], check=Close(1e-2, 2e-2))
register("matmul.int8", KL, "_matmul_int8_kernel", "matmul_int8",
         lambda g, m, n, k: [randint(g, -128, 128, m, k, dtype=torch.int8),
                             randint(g, -128, 128, k, n, dtype=torch.int8)],
         lambda a, b: (a.long() @ b.long()).int(), shapes=[(64, 64, 64), (40, 50, 100)],
         check=EXACT)
register("matmul.int8_tensor_cores", KL, "_matmul_int8_kernel", "matmul_int8_tc",
         lambda g, m, n, k: [randint(g, -128, 128, m, k, dtype=torch.int8),
                             randint(g, -128, 128, k, n, dtype=torch.int8)],
         lambda a, b: (a.long() @ b.long()).int(),
         shapes=[(256, 256, 512), (200, 136, 320), (128, 128, 64)], check=EXACT)


def _w8a8_inputs(g, m, n, k):
    return [randint(g, -128, 128, m, k, dtype=torch.int8),
            randint(g, -128, 128, n, k, dtype=torch.int8),
            rand(g, m, lo=0.001, hi=0.01), rand(g, n, lo=0.001, hi=0.01)]


register("matmul.w8a8_scaled", KL, "_w8a8_matmul_kernel", "w8a8_matmul", _w8a8_inputs,
         lambda a, w, sa, sw: (f64(a) @ f64(w).T) * f64(sa)[:, None] * f64(sw)[None, :],
         shapes=[(256, 512, 384), (100, 300, 200), (64, 128, 128)], check=FP16)


def _grouped_inputs(g, *dims):
    mats = [(randn(g, m, k, dtype=torch.float16), randn(g, k, n, dtype=torch.float16))
            for m, n, k in zip(dims[0::3], dims[1::3], dims[2::3])]
    return [[a for a, _ in mats], [b for _, b in mats]]


register("matmul.grouped_gemm_pointer_arrays", KL, "_grouped_gemm_kernel", "grouped_gemm",
         _grouped_inputs, lambda As, Bs: tuple(f64(a) @ f64(b) for a, b in zip(As, Bs)),
         shapes=[(64, 64, 32, 40, 70, 50, 16, 32, 64), (33, 33, 33)], check=MM16)


def _moe_inputs(g, t, k, n, e, top_k):
    logits = randn(g, t, e)
    weights, ids = torch.topk(torch.softmax(logits, -1), top_k, -1)
    return [randn(g, t, k, dtype=torch.float16), randn(g, e, n, k, dtype=torch.float16, scale=0.2),
            ids.int(), weights.float()]


def _moe_ref(a, w, ids, weights):
    out = torch.einsum("tk,tjnk->tjn", f64(a), f64(w)[ids.long()])
    return out * f64(weights)[..., None]


register("matmul.moe_sorted_tokens", KL, "_moe_matmul_kernel", "moe_matmul", _moe_inputs,
         _moe_ref, shapes=[(20, 64, 48, 4, 2), (7, 40, 32, 8, 2)], check=MM16)


def _e4b15_codes(g, *shape):
    return randint(g, 0, 256, *shape, dtype=torch.uint8)


register("matmul.e4b15", KL, "_matmul_e4b15_kernel", "matmul_e4b15",
         lambda g, m, n, k: [_e4b15_codes(g, m, k), _e4b15_codes(g, k, n)],
         lambda a, b: f64(e4b15_value(a)) @ f64(e4b15_value(b)),
         shapes=[(64, 64, 64), (70, 50, 100)], check=Close(1e-4, 2e-4))
