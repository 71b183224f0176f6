#!/usr/bin/env python3
"""ResNet18's stem and max pooling as the kernel backends run them in fp32 and
tf32, through mgp.jit on PyTorch tensors: kernels_dsl/layout_nhwc.mgp's
conv_stem_pack_kernel, then kernels_dsl/conv2d_nhwc.mgp's conv2d_stem_kernel
(bias and ReLU, the stem's 112x112x64 result stored) and pool2d_nhwc_kernel
(3x3, stride 2,
padding 1), or conv2d_stem_maxpool_kernel on the even output rows and then on
the odd ones (the pooling fused in, graph/passes/FuseEpilogue.h). The launch
values are graph/ConvLaunch.cpp's at the tuner's stem tile (128x64x32, 4
warps, 3 stages; the fused kernel takes the 56 pooled columns of a row as
BLOCK_M 64). Both results are checked against PyTorch's fp32
max_pool2d(relu(conv2d)) of the same tf32-rounded operands (max relative
error <= 1e-3: the dots are tf32, the results rounded to tf32) and against
each other (equal element for element: max is exact). Times are means of
mgp.do_bench (ms), each pipeline timed twice, alternately.

    bench/stem_maxpool.py [--batch 128]
"""
import argparse

import torch

import mgp
from conv_layers import division_constants, load_kernels, round_tf32


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=128)
    n = parser.parse_args().batch
    conv, pool, layout = (load_kernels(name=f) for f in ("conv2d_nhwc", "pool2d_nhwc",
                                                         "layout_nhwc"))
    torch.manual_seed(0)
    x = torch.randn(n, 3, 224, 224, device="cuda")
    w = torch.randn(64, 3, 7, 7, device="cuda") / 12.0
    bias = 0.5 * torch.randn(64, device="cuda")
    torch.backends.cudnn.allow_tf32 = False
    want = torch.nn.functional.max_pool2d(torch.relu(torch.nn.functional.conv2d(
        round_tf32(x), round_tf32(w), bias, stride=2, padding=3)), 3, 2, 1).permute(0, 2, 3, 1)

    # planStemLaunches: S padded to SP = 8 taps, the copy HP x WP = 230 x 240.
    hp, wp, wrows = 230, 240, 64 * 7 * 8
    pixels = n * hp * wp
    ws = torch.empty((wrows + pixels) * 4, device="cuda")
    y = torch.empty(n, 112, 112, 64, device="cuda")
    unfused = torch.empty(n, 56, 56, 64, device="cuda")
    fused = torch.empty(n, 56, 56, 64, device="cuda")
    m, total = n * 112 * 112, n * 56 * 56 * 64

    def pack():
        layout.conv_stem_pack_kernel[(mgp.cdiv(wrows + pixels, 256),)](
            x, w, ws, pixels, 3, 224, 224, HP=hp, WP=wp, WROWS=wrows, R=7, S=7, SP=8, PAD=3,
            X_NCHW=1, W_KCRS=1, BLOCK=256, ROUND_TF32=1)

    def stem_then_pool():
        pack()
        conv.conv2d_stem_kernel[(mgp.cdiv(m, 128), 1)](
            ws, bias, y, y, m, hp, wp, 64, 112, 112, *division_constants(112 * 112),
            *division_constants(112), R=7, S=7, SP=8, STRIDE=2, PAD=3, X_OFF=wrows * 4,
            RES_NCHW=0, HAS_BIAS=1, HAS_RESIDUAL=0, RELU=1, TF32=1, BLOCK_M=128, BLOCK_N=64,
            BLOCK_K=32, ROUND_TF32=1, num_warps=4, num_stages=3)
        pool.pool2d_nhwc_kernel[(mgp.cdiv(total, 512),)](
            y, unfused, total, 112, 112, 56, 56, C=64, KSIZE=3, STRIDE=2, PAD=1, IS_MAX=1,
            X_NCHW=0, BLOCK=512)

    def stem_pooled():
        pack()
        for odd in (0, 1):
            conv.conv2d_stem_maxpool_kernel[(n * 56, 1)](
                ws, bias, fused, 112, 112, 64, hp, wp, 56, 56, R=7, SP=8, STRIDE=2,
                X_OFF=wrows * 4, HAS_BIAS=1, TF32=1, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32,
                ROUND_TF32=1, ODD=odd, num_warps=4, num_stages=3)

    unfused.fill_(float("nan"))
    fused.fill_(float("nan"))
    stem_then_pool()
    stem_pooled()
    torch.cuda.synchronize()
    scale = want.abs().max()
    for name, got in (("stem + pool", unfused), ("stem with pooling", fused)):
        err = ((got - want).abs().max() / scale).item()
        ok = bool(torch.isfinite(got).all()) and err <= 1e-3
        print(f"{name}: max relative error {err:.1e} against PyTorch fp32: "
              f"{'ok' if ok else 'WRONG'}")
        if not ok:
            raise SystemExit(1)
    if not torch.equal(unfused, fused):
        raise SystemExit("the fused pooling differs from the stem + pool2d_nhwc_kernel result")
    print("the two results are equal element for element")
    print(f"batch {n}, tf32\n| launches | ms |\n|---|---|")
    for _ in range(2):
        print(f"| pack + stem + max pooling | {mgp.do_bench(stem_then_pool):.4f} |")
        print(f"| pack + stem with the pooling (even rows, odd rows) | "
              f"{mgp.do_bench(stem_pooled):.4f} |", flush=True)


if __name__ == "__main__":
    main()
