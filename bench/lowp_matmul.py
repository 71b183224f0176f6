#!/usr/bin/env python3
"""Low-precision matmuls on the GPU: Triton against mgp.jit on the same kernel
source and tensors (tests/triton/kernels), square M = N = K sizes.

  int8   _matmul_int8_kernel at 128x128x64, 8 warps, 3 stages (tensor cores:
         wgmma .s32.s8.s8 on sm_90a), checked exact against torch._int_mm,
         which is timed too
  w8a8   _w8a8_matmul_kernel (int8 x int8 [N, K] weights, per-token and
         per-channel scales, fp16 out) at 64x128x128, 4 warps, 3 stages;
         mgp's output compared bit for bit with Triton's
  mxfp4  _mxfp4_weight_matmul_kernel (bf16 x e2m1 weights with e8m0 scales,
         tl.dot_scaled) at 64x64x128, 4 warps; each output's largest
         difference to a float64 reference, relative to its largest value
Times are triton.testing.do_bench medians (ms); TOPS = 2 M N K / time.

    bench/lowp_matmul.py [--sizes 1024,2048,4096,8192] [--kinds int8,w8a8,mxfp4]
"""
import argparse
import os
import sys

import torch
import triton
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "triton"))
import mgp  # noqa: E402
from kernels import matmul_lowp as KL, mxfp as KM  # noqa: E402

E2M1 = [0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6]


def report(what, size, system, ms, check):
    print(f"| {what} | {size} | {system} | {ms:.4f} | {2 * size ** 3 / ms / 1e9:.1f} | {check} |",
          flush=True)


def run_int8(s):
    a = torch.randint(-128, 128, (s, s), dtype=torch.int8, device="cuda")
    b = torch.randint(-128, 128, (s, s), dtype=torch.int8, device="cuda")
    ref = torch._int_mm(a, b)
    for name, kern in (("Triton", KL._matmul_int8_kernel), ("mgp", mgp.jit(KL._matmul_int8_kernel))):
        c = torch.empty((s, s), dtype=torch.int32, device="cuda")
        grid = (triton.cdiv(s, 128), triton.cdiv(s, 128))
        f = lambda: kern[grid](a, b, c, s, s, s, a.stride(0), b.stride(0), c.stride(0),  # noqa: E731
                               BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
        f()
        torch.cuda.synchronize()
        report("int8", s, name, do_bench(f), "exact" if torch.equal(c, ref) else "WRONG")
    report("int8", s, "torch._int_mm", do_bench(lambda: torch._int_mm(a, b)), "")


def run_w8a8(s):
    a = torch.randint(-128, 128, (s, s), dtype=torch.int8, device="cuda")
    w = torch.randint(-128, 128, (s, s), dtype=torch.int8, device="cuda")
    sa, sw = torch.rand(s, device="cuda") * 1e-3, torch.rand(s, device="cuda") * 1e-3
    outs = {}
    for name, kern in (("Triton", KL._w8a8_matmul_kernel), ("mgp", mgp.jit(KL._w8a8_matmul_kernel))):
        c = torch.empty((s, s), dtype=torch.float16, device="cuda")
        grid = (triton.cdiv(s, 64) * triton.cdiv(s, 128),)
        f = lambda: kern[grid](a, w, c, sa, sw, s, s, s, a.stride(0), w.stride(0), c.stride(0),  # noqa: E731
                               BLOCK_M=64, BLOCK_N=128, BLOCK_K=128, GROUP_M=8, num_warps=4,
                               num_stages=3)
        f()
        torch.cuda.synchronize()
        outs[name] = c.clone()
        check = "" if name == "Triton" else (
            "same bits as Triton" if torch.equal(c, outs["Triton"]) else "differs from Triton")
        report("w8a8", s, name, do_bench(f), check)


def run_mxfp4(s):
    x = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    wq = torch.randint(0, 256, (s // 2, s), dtype=torch.uint8, device="cuda")
    ws = torch.randint(118, 134, (s, s // 32), dtype=torch.uint8, device="cuda")
    lut = torch.tensor(E2M1, dtype=torch.float64, device="cuda")
    wd = torch.stack([lut[(wq & 15).long()], lut[(wq >> 4).long()]], 1).reshape(s, s)
    ref = x.double() @ (wd * torch.pow(2.0, ws.double() - 127).repeat_interleave(32, 1).T)
    for name, kern in (("Triton", KM._mxfp4_weight_matmul_kernel),
                       ("mgp", mgp.jit(KM._mxfp4_weight_matmul_kernel))):
        c = torch.empty((s, s), dtype=torch.float32, device="cuda")
        grid = (triton.cdiv(s, 64), triton.cdiv(s, 64))
        f = lambda: kern[grid](x, wq, ws, c, s, s, s, x.stride(0), wq.stride(0), ws.stride(0),  # noqa: E731
                               c.stride(0), BLOCK_M=64, BLOCK_N=64, BLOCK_K=128, num_warps=4)
        f()
        torch.cuda.synchronize()
        err = ((c.double() - ref).abs().max() / ref.abs().max()).item()
        report("mxfp4", s, name, do_bench(f), f"max error {err:.1e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1024,2048,4096,8192")
    parser.add_argument("--kinds", default="int8,w8a8,mxfp4",
                        help="comma-separated subset of int8, w8a8, mxfp4")
    args = parser.parse_args()
    runs = {"int8": run_int8, "w8a8": run_w8a8, "mxfp4": run_mxfp4}
    kinds = args.kinds.split(",")
    unknown = [k for k in kinds if k not in runs]
    if unknown:
        parser.error(f"unknown kinds {unknown} (int8, w8a8, mxfp4)")
    torch.manual_seed(0)
    print("| matmul | M = N = K | system | ms | TOPS | check |")
    print("|---|---|---|---|---|---|")
    for s in (int(v) for v in args.sizes.split(",")):
        for kind in kinds:
            runs[kind](s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
