#!/usr/bin/env python3
"""ResNet18's 3x3 convolutions one at a time: kernels_dsl/conv2d_nhwc.mgp's
conv2d_nhwc_kernel through mgp.jit on PyTorch tensors, every tile
configuration of the tuner's list for the dtype, each with the A tile read through
L2 only (the default), through L1 too with a channel chunk's taps as
consecutive steps (A_L1=1, `cp.async.ca`; rows "L1") and in that order through
L2 only (A_L1=2; rows "chunks"), against
cuDNN (`torch.nn.functional.conv2d`, channels-last) and, with --triton, the
same kernel source compiled by Triton, on the same tensors.

Triton 3.6 copies 16 bytes with cp.async.cg whatever the load's cache modifier
(its PTX for sm_90 has no cp.async.ca), so its L1 rows run the same copies as
its others.

Inputs are NHWC, the weights [K][R][S][C] (as the graph stores them), bias
and ReLU in the epilogue; each result is checked against PyTorch's float32
convolution of the same fp16/bf16 values (max relative error <= 1e-2).
Times are means of mgp.do_bench (ms), TFLOP/s = 2 N P Q K R S C / time.

    bench/conv_layers.py [--batch 128] [--dtype fp16|bf16|tf32] [--layers 1,2,3,4]
                         [--triton] [--extra BMxBNxBK:W:S,...] [--persistent] [--cols]
                         [--rowtaps]

--extra adds tiles to the tuner's list (BLOCK_M x BLOCK_N x BLOCK_K, warps,
stages), to try a tile before the tuner gets it. A tile that wins here may
still lose in ResNet18: on the H100 128x256x32 was layer4's fastest tile
here and lost layer4 in the tuner's timing inside mgp-run (0.090 ms against
0.071 for 128x128x64 at three stages), on the H200 too. What decides a candidate
list is the tuner's own timings (`MGP_DEBUG=1 mgp-run ... --device gpu` with
an empty MGP_CACHE_DIR prints every candidate's time per layer) or a forced
tile (`MGP_CONV_CONFIG`) with `--profile`. --persistent also times
conv2d_nhwc_persistent_kernel (mgp only, A through L2) at every tile, one
program per SM, each looping over its tiles' steps (rows "mgp persistent").
--rowtaps also times conv2d_nhwc_rowtaps_kernel on the stride-1 layers (mgp,
and Triton with --triton; rows "mgp rowtaps", "Triton rowtaps") at every tile
with 2 and 3 stages: one A tile per filter row for its three taps, 3x fewer A
bytes from L2 than a tile per tap.
--cols also times conv2d_nhwc_cols_kernel, the transposed GEMM (BLOCK_N
channels x BLOCK_M pixels, stored through a transposing conversion), by mgp
and with --triton by Triton (rows "mgp cols", "Triton cols").
"""
import argparse
import itertools
import importlib.util
import os
import re
import sys
import tempfile

import torch

import mgp

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# (name, H = W of the input, C, K, stride)
LAYERS = [
    ("layer1", 56, 64, 64, 1),
    ("layer2.0.conv1", 56, 64, 128, 2),
    ("layer2", 28, 128, 128, 1),
    ("layer3.0.conv1", 28, 128, 256, 2),
    ("layer3", 14, 256, 256, 1),
    ("layer4.0.conv1", 14, 256, 512, 2),
    ("layer4", 7, 512, 512, 1),
]

# (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages): graph/tune/ConvTuner.cpp's
# candidates for 16-bit and for tf32 dots (tf32's split-K one aside: this
# bench does not split).
CONFIGS = {
    "16": [(128, 128, 64, 8, 3), (128, 128, 64, 8, 2), (256, 64, 32, 8, 4),
           (128, 64, 32, 4, 3), (128, 64, 64, 4, 3)],
    "tf32": [(128, 128, 32, 8, 3), (128, 64, 32, 4, 3)],
}


def load_kernels(triton=False, name="conv2d_nhwc"):
    """kernels_dsl/NAME.mgp as a module; with `triton`, the same text
    spelled as Triton code (`mgp.` -> `tl.`, `@mgp.jit` -> `@triton.jit`), in
    a file of its own because Triton reads a kernel's source from its file."""
    path = os.path.join(ROOT, "kernels_dsl", name + ".mgp")
    if triton:
        with open(path) as f:
            text = f.read()
        text = re.sub(r"^import mgp$", "import triton\nimport triton.language as tl", text,
                      flags=re.M)
        text = text.replace("@mgp.jit", "@triton.jit").replace("mgp.", "tl.")
        name += "_triton"
        path = os.path.join(tempfile.mkdtemp(prefix="mgp-conv-"), name + ".py")
        with open(path, "w") as f:
            f.write(text)
    spec = importlib.util.spec_from_loader(
        name, importlib.machinery.SourceFileLoader(name, path))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def division_constants(d):
    """The kernels' (magic, shift) of divisor d (graph/ConvLaunch.cpp's
    divisionConstants): x // d == (x * magic) >> shift for 0 <= x < 2**31,
    the magic passed as its 32-bit pattern."""
    shift = 31 + (d - 1).bit_length()
    magic = -(-(1 << shift) // d)
    return (magic - 2**32 if magic >= 2**31 else magic), shift


def round_tf32(x):
    """x rounded to tf32, to nearest, ties away (the graph's _round_tf32)."""
    return ((x.view(torch.int32) + 0x1000) & -8192).view(torch.float32)


def measure(name, system, config, f, y, ref_nhwc, flops, results, must_run):
    """Runs `f` once and checks `y` against the reference, then times it; a
    launch error is a row of the table unless `must_run`."""
    try:
        f()
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001  Triton's and --extra tiles' errors are reported
        if must_run:
            raise
        print(f"| {name} | {system} | {config} | - | - | {type(e).__name__} |", flush=True)
        return
    err = ((y.float() - ref_nhwc).abs().max() / ref_nhwc.abs().max()).item()
    ok = torch.isfinite(y).all().item() and err <= 1e-2
    ms = mgp.do_bench(f)
    print(f"| {name} | {system} | {config} | {ms:.4f} | {flops / ms / 1e9:.0f} | "
          f"{'ok' if ok else 'WRONG'} {err:.1e} |", flush=True)
    results.append((name, system, config, ms, ok))


def run_persistent(kern, configs, name, args, m, k, flops, ref_nhwc, y_shape, dtype, results):
    """conv2d_nhwc_persistent_kernel at each tile, NUM_PROGRAMS = the SM count."""
    x_nhwc, w_krsc, bias, c, hw, p, q, stride, tf32 = args
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for bm, bn, bk, warps, stages in configs:
        y = torch.empty(y_shape, device="cuda", dtype=dtype)
        f = lambda: kern[(sms,)](  # noqa: E731
            x_nhwc, w_krsc, bias, y, y, m, c, hw, hw, k, p, q, mgp.cdiv(c, bk), R=3, S=3,
            STRIDE=stride, PAD=1, HAS_BIAS=1, HAS_RESIDUAL=0, RELU=1, TF32=int(tf32),
            BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, ROUND_TF32=0, NUM_PROGRAMS=sms,
            num_warps=warps, num_stages=stages)
        measure(name, "mgp persistent", f"{bm}x{bn}x{bk} w{warps} s{stages} x{sms}", f, y,
                ref_nhwc, flops, results, must_run=False)


def run_rowtaps(kernels, configs, name, args, m, k, flops, ref_nhwc, y_shape, dtype, results):
    """conv2d_nhwc_rowtaps_kernel (stride 1) at each tile, 2 and 3 stages."""
    x_nhwc, w_krsc, bias, c, hw, tf32 = args
    pq, q = division_constants(hw * hw), division_constants(hw)
    for (system, kern), (bm, bn, bk, warps, _), stages in itertools.product(
            kernels.items(), configs, (2, 3)):
        y = torch.empty(y_shape, device="cuda", dtype=dtype)
        grid = (mgp.cdiv(m, bm - 2), mgp.cdiv(k, bn))
        f = lambda: kern[grid](  # noqa: E731
            x_nhwc, w_krsc, bias, y, y, m, c, hw, hw, k, *pq, *q, mgp.cdiv(c, bk), HAS_BIAS=1,
            HAS_RESIDUAL=0, RELU=1, TF32=int(tf32), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
            ROUND_TF32=0, num_warps=warps, num_stages=stages)
        measure(name, system, f"{bm}x{bn}x{bk} w{warps} s{stages}", f, y, ref_nhwc, flops, results,
                must_run=False)


def run_layer(kernels, configs, name, hw, c, k, stride, batch, dtype, results, persistent=None,
              cols=None, rowtaps=None):
    torch.manual_seed(0)
    tf32 = dtype == torch.float32
    tuner_tiles = CONFIGS["tf32" if tf32 else "16"]
    x = torch.randn(batch, c, hw, hw, device="cuda").to(dtype)
    w = (torch.randn(k, c, 3, 3, device="cuda") / (3 * c ** 0.5)).to(dtype)
    bias = torch.randn(k, device="cuda").to(dtype)
    if tf32:  # the graph's tf32 mode stores activations and weights rounded
        x, w = round_tf32(x), round_tf32(w)
    torch.backends.cudnn.allow_tf32 = False
    ref = torch.relu(torch.nn.functional.conv2d(x.float(), w.float(), bias.float(),
                                                stride=stride, padding=1))
    torch.backends.cudnn.allow_tf32 = tf32
    p = q = ref.shape[2]
    m = batch * p * q
    flops = 2 * m * k * 9 * c
    x_nhwc = x.permute(0, 2, 3, 1).contiguous()
    w_krsc = w.permute(0, 2, 3, 1).contiguous()
    ref_nhwc = ref.permute(0, 2, 3, 1)
    x_cl = x.contiguous(memory_format=torch.channels_last)
    w_cl = w.contiguous(memory_format=torch.channels_last)
    cudnn = lambda: torch.relu(torch.nn.functional.conv2d(x_cl, w_cl, bias, stride=stride,  # noqa: E731
                                                          padding=1))
    ms = mgp.do_bench(cudnn)
    print(f"| {name} | cuDNN | | {ms:.4f} | {flops / ms / 1e9:.0f} | |", flush=True)
    results.append((name, "cuDNN", "", ms, True))
    for (system, kern), (bm, bn, bk, warps, stages), a_l1 in itertools.product(
            list(kernels.items()) + list((cols or {}).items()), configs, (0, 1, 2)):
        y = torch.empty(batch, p, q, k, device="cuda", dtype=dtype)
        grid = (mgp.cdiv(m, bm), mgp.cdiv(k, bn), 1)
        f = lambda: kern[grid](  # noqa: E731
            x_nhwc, w_krsc, bias, y, y, y, m, c, hw, hw, k, p, q, *division_constants(p * q),
            *division_constants(q), mgp.cdiv(c, bk), 1,
            R=3, S=3, STRIDE=stride, PAD=1, X_NCHW=0, W_KCRS=0, RES_NCHW=0, HAS_BIAS=1,
            HAS_RESIDUAL=0, RELU=1, TF32=int(tf32), SPLIT_K=0, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
            ROUND_TF32=0, A_L1=a_l1, num_warps=warps, num_stages=stages)
        config = f"{bm}x{bn}x{bk} w{warps} s{stages}{('', ' L1', ' chunks')[a_l1]}"
        measure(name, system, config, f, y, ref_nhwc, flops, results,
                must_run=system == "mgp" and (bm, bn, bk, warps, stages) in tuner_tiles)
    if rowtaps and stride == 1:
        run_rowtaps(rowtaps, configs, name, (x_nhwc, w_krsc, bias, c, hw, tf32), m, k, flops,
                    ref_nhwc, (batch, p, q, k), dtype, results)
    if persistent is not None:
        run_persistent(persistent, configs, name,
                       (x_nhwc, w_krsc, bias, c, hw, p, q, stride, tf32), m, k, flops, ref_nhwc,
                       (batch, p, q, k), dtype, results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--dtype", choices=("fp16", "bf16", "tf32"), default="fp16")
    parser.add_argument("--layers", default="1,2,3,4",
                        help="which ResNet18 stages (1-4) to run")
    parser.add_argument("--triton", action="store_true",
                        help="also the same kernel compiled by Triton")
    parser.add_argument("--extra", default="",
                        help="more tiles, comma-separated BMxBNxBK:WARPS:STAGES")
    parser.add_argument("--rowtaps", action="store_true",
                        help="also conv2d_nhwc_rowtaps_kernel (one A tile per filter row)")
    parser.add_argument("--persistent", action="store_true",
                        help="also conv2d_nhwc_persistent_kernel, one program per SM")
    parser.add_argument("--cols", action="store_true",
                        help="also conv2d_nhwc_cols_kernel (channels x pixels)")
    args = parser.parse_args()
    configs = list(CONFIGS["tf32" if args.dtype == "tf32" else "16"])
    for item in filter(None, args.extra.split(",")):
        m = re.fullmatch(r"(\d+)x(\d+)x(\d+):(\d+):(\d+)", item.strip())
        if not m:
            parser.error(f"--extra: '{item}' is not BMxBNxBK:WARPS:STAGES")
        configs.append(tuple(int(g) for g in m.groups()))
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16, "tf32": torch.float32}[args.dtype]
    stages = {int(s) for s in args.layers.split(",")}
    module = load_kernels()
    kernels = {"mgp": mgp.jit(module.conv2d_nhwc_kernel)}
    persistent = mgp.jit(module.conv2d_nhwc_persistent_kernel) if args.persistent else None
    cols = {"mgp cols": mgp.jit(module.conv2d_nhwc_cols_kernel)} if args.cols else {}
    rowtaps = {"mgp rowtaps": mgp.jit(module.conv2d_nhwc_rowtaps_kernel)} if args.rowtaps else {}
    if args.triton:
        triton_module = load_kernels(triton=True)
        kernels["Triton"] = triton_module.conv2d_nhwc_kernel
        if args.cols:
            cols["Triton cols"] = triton_module.conv2d_nhwc_cols_kernel
        if args.rowtaps:
            rowtaps["Triton rowtaps"] = triton_module.conv2d_nhwc_rowtaps_kernel
    print(f"{torch.cuda.get_device_name()}, batch {args.batch}, {args.dtype}")
    print("| layer | system | config | ms | TFLOP/s | check |\n|---|---|---|---|---|---|")
    results = []
    for name, hw, c, k, stride in LAYERS:
        if int(name[5]) in stages:
            run_layer(kernels, configs, name, hw, c, k, stride, args.batch, dtype, results,
                      persistent, cols, rowtaps)
    for name in dict.fromkeys(r[0] for r in results):
        for system in list(kernels) + list(cols) + list(rowtaps) + ["mgp persistent"]:
            rows = [r for r in results if r[0] == name and r[1] == system]
            if not rows:
                continue
            best = min(rows, key=lambda r: r[3])
            plain = min((r for r in rows if not r[2].endswith("L1")), key=lambda r: r[3],
                        default=best)
            print(f"best {name} {system}: {best[2]} {best[3]:.4f} ms (best without L1 "
                  f"{plain[2]} {plain[3]:.4f}, ratio {plain[3] / best[3]:.3f})")
    wrong = [r for r in results if not r[4]]
    if wrong:
        sys.exit(f"{len(wrong)} results differ from PyTorch's: "
                 + ", ".join(f"{r[0]} {r[1]} {r[2]}" for r in wrong))


if __name__ == "__main__":
    main()
