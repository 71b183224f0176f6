#!/usr/bin/env python3
"""fp16/bf16 matmul and attention forward on the GPU at large sizes: Triton
against mgp.jit on the same kernel source and tensors (tests/triton/kernels),
with PyTorch's own kernels (cuBLAS matmul, scaled_dot_product_attention) for
scale.

  matmul     _bmm_kernel (one batch, masked loads, fp32 accumulation, output
             in the input dtype) at the given tiles, M = N = K
  persistent _flat_persistent_matmul_kernel (one program per SM looping
             over its (tile, K step) pairs, the store and the accumulator
             reset under `if ki == k_tiles - 1`) at 128x128x64, 8 warps,
             3 stages, M = N = K
  attention  _attn_fwd (online softmax over 64-key blocks, 128 query rows,
             8 warps), [Z, H, N_CTX, HEAD_DIM] fp16, causal or not
Each output is compared with PyTorch's (max abs difference); mgp's also with
Triton's. Times are triton.testing.do_bench medians (ms); TFLOP/s counts
2 M N K for a matmul and 4 Z H N^2 D (half of it when causal) for attention.

    bench/dense_matmul_attention.py [--sizes 2048,4096,8192]
                                    [--contexts 1024,4096]
                                    [--kinds matmul,persistent,attention]
                                    [--no-reflect-ftz]

--no-reflect-ftz launches both compilers' attention kernels with
enable_reflect_ftz=False (libdevice's exp2 keeps f32 denormals: ex2.approx.f32
instead of Triton's default ex2.approx.ftz.f32).
"""
import argparse
import math
import os
import sys

import torch
import triton
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "triton"))
import mgp  # noqa: E402
from kernels import attention as KA, matmul as KM  # noqa: E402

# (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages): a 64-element K tile (one
# 128-byte swizzle atom of fp16) and a 128-element one (two).
MATMUL_TILES = [(128, 128, 64, 8, 3), (128, 64, 128, 4, 3)]


def report(what, shape, system, ms, flops, check):
    print(f"| {what} | {shape} | {system} | {ms:.4f} | {flops / ms / 1e9:.1f} | {check} |",
          flush=True)


def diff(x, y):
    return (x.float() - y.float()).abs().max().item()


def time_system(what, shape, system, f, out, ref, outs, flops):
    """Runs `f` once, keeps its output `out` for the next system's check, and
    reports `f`'s time with the output's distance to PyTorch's (and mgp's to
    Triton's)."""
    f()
    torch.cuda.synchronize()
    outs[system] = out.clone()
    check = f"vs torch {diff(out, ref):.2g}"
    if system == "mgp":
        check += f", vs Triton {diff(out, outs['Triton']):.2g}"
    report(what, shape, system, do_bench(f), flops, check)


def run_matmul(s, dtype):
    a = torch.randn(s, s, device="cuda", dtype=dtype)
    b = torch.randn(s, s, device="cuda", dtype=dtype)
    ref = a @ b
    name = str(dtype).replace("torch.", "")
    report(f"matmul {name}", s, "torch (cuBLAS)", do_bench(lambda: a @ b), 2 * s ** 3, "")
    for bm, bn, bk, warps, stages in MATMUL_TILES:
        outs = {}
        for system, kern in (("Triton", KM._bmm_kernel), ("mgp", mgp.jit(KM._bmm_kernel))):
            c = torch.empty((1, s, s), dtype=dtype, device="cuda")
            grid = (triton.cdiv(s, bm), triton.cdiv(s, bn), 1)
            f = lambda: kern[grid](a, b, c, s, s, s, 0, a.stride(0), a.stride(1), 0,  # noqa: E731
                                   b.stride(0), b.stride(1), 0, c.stride(1), c.stride(2),
                                   BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=warps,
                                   num_stages=stages)
            time_system(f"matmul {name} {bm}x{bn}x{bk} w{warps}", s, system, f, c[0], ref, outs,
                        2 * s ** 3)


def run_persistent(s, dtype):
    a = torch.randn(s, s, device="cuda", dtype=dtype)
    b = torch.randn(s, s, device="cuda", dtype=dtype)
    ref = a @ b
    name = str(dtype).replace("torch.", "")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    outs = {}
    for system, kern in (("Triton", KM._flat_persistent_matmul_kernel),
                         ("mgp", mgp.jit(KM._flat_persistent_matmul_kernel))):
        c = torch.empty((s, s), dtype=dtype, device="cuda")
        f = lambda: kern[(sms,)](a, b, c, s, s, s, a.stride(0), a.stride(1),  # noqa: E731
                                 b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                 BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, NUM_PROGRAMS=sms,
                                 num_warps=8, num_stages=3)
        time_system(f"persistent {name} 128x128x64 w8 x{sms}", s, system, f, c, ref, outs,
                    2 * s ** 3)


def run_attention(n, d, causal, ftz, z=4):
    h = 4096 // d // 2  # 16 heads of 128, 32 of 64
    q, k, v = (torch.randn(z, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    sm_scale = 1 / math.sqrt(d)
    flops = 4 * z * h * n * n * d * (0.5 if causal else 1.0)
    shape = f"{z}x{h}x{n}x{d}{' causal' if causal else ''}"
    sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(  # noqa: E731
        q, k, v, is_causal=causal, scale=sm_scale)
    ref = sdpa()
    report("attention fwd", shape, "torch (sdpa)", do_bench(sdpa), flops, "")
    outs = {}
    for system, kern in (("Triton", KA._attn_fwd), ("mgp", mgp.jit(KA._attn_fwd))):
        o = torch.empty_like(q)
        lse = torch.empty((z, h, n), device="cuda", dtype=torch.float32)
        grid = (triton.cdiv(n, 128), z * h, 1)
        f = lambda: kern[grid](q, k, v, sm_scale, lse, o, q.stride(0), q.stride(1),  # noqa: E731
                               q.stride(2), k.stride(0), k.stride(1), k.stride(2), v.stride(0),
                               v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2),
                               h, n, HEAD_DIM=d, BLOCK_M=128, BLOCK_N=64,
                               STAGE=3 if causal else 1, num_warps=8, num_stages=2,
                               enable_reflect_ftz=ftz)
        what = "attention fwd 128x64 w8" + ("" if ftz else " no-ftz")
        time_system(what, shape, system, f, o, ref, outs, flops)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2048,4096,8192", help="matmul M = N = K")
    parser.add_argument("--contexts", default="1024,4096", help="attention N_CTX")
    parser.add_argument("--kinds", default="matmul,attention")
    parser.add_argument("--no-reflect-ftz", action="store_true",
                        help="attention with enable_reflect_ftz=False on both sides")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    unknown = [k for k in kinds if k not in ("matmul", "persistent", "attention")]
    if unknown:
        parser.error(f"unknown kinds {unknown} (matmul, persistent, attention)")
    torch.manual_seed(0)
    print("| kernel | shape | system | ms | TFLOP/s | check |")
    print("|---|---|---|---|---|---|")
    if "matmul" in kinds:
        for s in (int(v) for v in args.sizes.split(",")):
            for dtype in (torch.float16, torch.bfloat16):
                run_matmul(s, dtype)
    if "persistent" in kinds:
        for s in (int(v) for v in args.sizes.split(",")):
            for dtype in (torch.float16, torch.bfloat16):
                run_persistent(s, dtype)
    if "attention" in kinds:
        for n in (int(v) for v in args.contexts.split(",")):
            for d in (64, 128):
                for causal in (False, True):
                    run_attention(n, d, causal, not args.no_reflect_ftz)
    return 0


if __name__ == "__main__":
    sys.exit(main())
