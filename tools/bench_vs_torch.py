#!/usr/bin/env python3
"""Times mgp's ResNet18 against PyTorch eager and torch.compile on one GPU.

One run on the GPU machine, same GPU, weights, input and batch for everyone:

1. `mgp-run --save-weights` writes the seeded weights; torchvision's resnet18
   (weights=None, nothing downloaded) loads them (tools/torch_compare.py).
2. Per precision (fp32, tf32, fp16, bf16): `mgp-run --device gpu --bench N
   --profile --dump-logits` (the input batch is the seeded one, written once
   with --dump-input), then PyTorch eager (channels-last for fp16/bf16/tf32,
   as in ../shared/TOOLCHAIN.md) and torch.compile on the same input, timed
   with CUDA events (median of N after warm-up).
3. Prints ms per batch and the ratios (torch / mgp: above 1 means mgp is
   faster; like for like, mgp's forward on an input already on the GPU, as
   PyTorch is timed, while its end-to-end time with the copies is shown too), the top-1 agreement of every result with PyTorch fp32 (TF32 off),
   and mgp's per-kernel achieved TFLOP/s from --profile against the measured
   peaks (tf32 377, fp16 726, bf16 750 TFLOP/s; fp32 FMA 51), per kernel
   specialization and per layer.

    bench_vs_torch.py [--mgp-run build/bin/mgp-run] [--batch 128] [--size 224]
                      [--precisions fp32,tf32,fp16,bf16] [--runs 30]
                      [--compile-mode default] [--no-compile] [--workdir DIR]

Exit status: 0 when every precision ran on both sides; 1 when some run failed
(each failure is printed, the others still run); 2 when it cannot run at all
(no PyTorch, no GPU, no mgp-run).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

PROG = "bench_vs_torch.py"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Measured on the GPU machine (../shared/TOOLCHAIN.md: matmul 8192^3).
PEAK_TFLOPS = {"fp32": 51.0, "tf32": 377.0, "fp16": 726.0, "bf16": 750.0}
PRECISIONS = ("fp32", "tf32", "fp16", "bf16")


def fail(message, status=2):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(status)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mgp-run", default=os.path.join(REPO, "build", "bin", "mgp-run"))
    parser.add_argument("--graph", default=os.path.join(REPO, "models", "resnet18.graph"))
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--size", type=int, default=224)
    parser.add_argument("--precisions", default=",".join(PRECISIONS))
    parser.add_argument("--runs", type=int, default=30, help="timed runs per measurement")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compile-mode", default="default",
                        help="torch.compile mode (default, max-autotune, ...)")
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    parser.add_argument("--workdir", help="keep weights, input and logits here")
    args = parser.parse_args()
    precisions = [p for p in args.precisions.split(",") if p]
    for p in precisions:
        if p not in PRECISIONS:
            fail(f"unknown precision '{p}' (expected {', '.join(PRECISIONS)})")
    if args.batch < 1 or args.size < 32 or args.runs < 1 or args.warmup < 0:
        fail("--batch and --runs must be at least 1, --size at least 32")
    args.precisions = precisions
    return args


def import_torch():
    """torch, torchvision, numpy and torch_compare, or exit 2 saying why."""
    try:
        import numpy  # noqa: F401
        import torch
        import torchvision  # noqa: F401
    except ImportError as e:
        fail(f"PyTorch is not importable ({e}); this benchmark runs on the GPU "
             f"machine, which has torch, torchvision and numpy")
    if not torch.cuda.is_available():
        fail("PyTorch sees no CUDA GPU (torch.cuda.is_available() is False); "
             "this benchmark runs on the GPU machine")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_compare
    return torch, torch_compare


def run_mgp(args, extra):
    cmd = [args.mgp_run, args.graph, "--batch", str(args.batch), "--size",
           str(args.size), "--seed", str(args.seed)] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr, " ".join(cmd)


BENCH_RE = re.compile(r"^bench \(gpu\): median ([0-9.]+) ms per batch")
KERNELS_RE = re.compile(r"^bench \(gpu\): kernels alone: median ([0-9.]+) ms")
PROFILE_RE = re.compile(
    r"^\s+([0-9.]+)\s+([0-9.]+)%\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S.*)$")
LAYER_RE = re.compile(
    r"^\s+layer\s+([0-9.]+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S.*)$")


def parse_mgp(stdout):
    """(median ms, kernel ms, per kernel [(ms, launches, gflop, tflops,
    kernel)], per layer [(ms, launches, gflop, tflops, layer (kernel))]),
    all per run."""
    wall = kernels = None
    profile, layers = [], []
    for line in stdout.splitlines():
        if m := BENCH_RE.match(line):
            wall = float(m.group(1))
        elif m := KERNELS_RE.match(line):
            kernels = float(m.group(1))
        elif m := LAYER_RE.match(line):
            layers.append((float(m.group(1)), int(m.group(2)), float(m.group(3)),
                           float(m.group(4)), m.group(5)))
        elif m := PROFILE_RE.match(line):
            profile.append((float(m.group(1)), int(m.group(3)), float(m.group(4)),
                            float(m.group(5)), m.group(6)))
    return wall, kernels, profile, layers


def torch_setup(torch, precision, model, x):
    """The model and input for `precision` (fp32: TF32 off)."""
    import copy
    tf32 = precision != "fp32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.deterministic = False
    m = copy.deepcopy(model)
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision, torch.float32)
    m = m.to(dtype=dtype)
    xi = x.to(dtype=dtype)
    if precision != "fp32":
        m = m.to(memory_format=torch.channels_last)
        xi = xi.contiguous(memory_format=torch.channels_last)
    return m, xi


def time_torch(torch, fn, x, runs, warmup):
    """(median ms per call by CUDA events, output logits as float32 numpy)."""
    with torch.no_grad():
        out = None
        for _ in range(max(warmup, 1)):
            out = fn(x)
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn(x)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    return statistics.median(times), out.float().cpu().numpy()


def top1_agreement(a, b):
    return int((a.argmax(1) == b.argmax(1)).sum())


def main():
    args = parse_args()
    torch, torch_compare = import_torch()
    import numpy as np
    if not os.access(args.mgp_run, os.X_OK):
        fail(f"no mgp-run at {args.mgp_run} (build it: make mgp-run, or pass --mgp-run)")
    work = args.workdir or tempfile.mkdtemp(prefix="mgp-bench-")
    os.makedirs(work, exist_ok=True)
    weights = os.path.join(work, "resnet18.safetensors")
    xfile = os.path.join(work, "x.npy")
    rc, _, err, cmd = run_mgp(args, ["--device", "reference", "--save-weights", weights])
    if rc != 0:
        fail(f"{cmd} failed:\n{err.strip()}")
    device = torch.cuda.get_device_name(0)
    print(f"ResNet18 batch {args.batch} 3x{args.size}x{args.size} on {device}; torch "
          f"{torch.__version__}; medians of {args.runs} runs after {args.warmup} warm-up; "
          f"files in {work}")

    failures = []
    mgp = {}
    for p in args.precisions:
        logits = os.path.join(work, f"mgp_{p}.npy")
        extra = ["--device", "gpu", "--precision", p, "--weights", weights,
                 "--bench", str(args.runs), "--warmup", str(args.warmup),
                 "--profile", "--dump-logits", logits]
        if not os.path.exists(xfile):
            extra += ["--dump-input", xfile]
        rc, out, err, cmd = run_mgp(args, extra)
        if rc != 0:
            failures.append(f"mgp {p}: {err.strip().splitlines()[-1] if err.strip() else rc}")
            print(f"mgp {p}: failed: {cmd}\n{err.strip()}")
            continue
        wall, kernels, profile, layers = parse_mgp(out)
        if wall is None:
            failures.append(f"mgp {p}: no bench line in mgp-run's output")
            continue
        mgp[p] = (wall, kernels, profile, np.load(logits), layers)
    if not os.path.exists(xfile):
        fail("no mgp-run GPU run succeeded, so there is no input batch to time "
             "PyTorch on:\n  " + "\n  ".join(failures), 1)

    model = torch_compare.load_model(weights, "cuda")
    x = torch.from_numpy(np.load(xfile)).to("cuda")
    ref_model, ref_x = torch_setup(torch, "fp32", model, x)
    _, reference = time_torch(torch, ref_model, ref_x, 1, 1)  # torch fp32, TF32 off
    rows = []
    for p in args.precisions:
        m, xi = torch_setup(torch, p, model, x)
        eager_ms, eager_out = time_torch(torch, m, xi, args.runs, args.warmup)
        comp_ms = comp_out = None
        if not args.no_compile:
            try:
                start = time.perf_counter()
                compiled = torch.compile(m, mode=args.compile_mode)
                with torch.no_grad():
                    compiled(xi)
                compile_s = time.perf_counter() - start
                comp_ms, comp_out = time_torch(torch, compiled, xi, args.runs, args.warmup)
                print(f"torch.compile {p} ({args.compile_mode}): {compile_s:.1f} s to compile")
            except Exception as e:  # the benchmark reports it and goes on
                failures.append(f"torch.compile {p}: {type(e).__name__}: {e}")
            torch._dynamo.reset()
        rows.append((p, eager_ms, eager_out, comp_ms, comp_out))

    n = args.batch
    print()
    # Like for like: PyTorch is timed on an input already on the GPU, so the
    # ratios use mgp's forward on its resident input ("mgp fwd": CUDA events
    # around the replayed forward); "mgp e2e" adds the host->device input copy
    # and the logits copy back (wall clock of a whole run()).
    print(f"{'precision':9} {'mgp fwd':>9} {'mgp e2e':>9} {'eager ms':>9} {'compile':>9} "
          f"{'eager/mgp':>9} {'comp/mgp':>9}  top-1 vs torch fp32 (mgp, eager, compile)")
    for p, eager_ms, eager_out, comp_ms, comp_out in rows:
        ours = mgp.get(p)
        wall = ours[0] if ours else None
        fwd = ours[1] if ours else None
        fmt = lambda v: f"{v:9.3f}" if v is not None else f"{'-':>9}"
        ratio = lambda t: f"{t / fwd:9.2f}" if (t is not None and fwd) else f"{'-':>9}"
        agree = lambda o: f"{top1_agreement(o, reference)}/{n}" if o is not None else "-"
        print(f"{p:9} {fmt(fwd)} {fmt(wall)} {fmt(eager_ms)} "
              f"{fmt(comp_ms)} {ratio(eager_ms)} {ratio(comp_ms)}  "
              f"{agree(ours[3] if ours else None)}, {agree(eager_out)}, {agree(comp_out)}")

    for p in args.precisions:
        if p not in mgp:
            continue
        profile = mgp[p][2]
        peak = PEAK_TFLOPS[p]
        total_ms = sum(r[0] for r in profile)
        total_gflop = sum(r[2] for r in profile)
        print(f"\nmgp {p}: per-kernel achieved TFLOP/s (--profile, eager launches; "
              f"peak {peak:.0f} TFLOP/s); overall "
              f"{total_gflop / total_ms if total_ms else 0:.1f} TFLOP/s "
              f"({100 * total_gflop / total_ms / peak if total_ms else 0:.1f} % of peak)")
        print(f"  {'ms/run':>8} {'launches':>8} {'GFLOP':>8} {'TFLOP/s':>8} {'% peak':>7}  kernel")
        for ms, launches, gflop, tflops, kernel in profile:
            pct = f"{100 * tflops / peak:6.1f}%" if gflop > 0 else f"{'-':>7}"
            print(f"  {ms:8.3f} {launches:8d} {gflop:8.2f} {tflops:8.1f} {pct}  {kernel}")
        print(f"mgp {p}: per layer")
        print(f"  {'ms/run':>8} {'launches':>8} {'GFLOP':>8} {'TFLOP/s':>8} {'% peak':>7}  layer (kernel)")
        for ms, launches, gflop, tflops, layer in mgp[p][4]:
            pct = f"{100 * tflops / peak:6.1f}%" if gflop > 0 else f"{'-':>7}"
            print(f"  {ms:8.3f} {launches:8d} {gflop:8.2f} {tflops:8.1f} {pct}  {layer}")

    if failures:
        print(f"\n{PROG}: {len(failures)} run(s) failed:\n  " + "\n  ".join(failures),
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
