#!/usr/bin/env python3
"""Times mgp's ResNet18 against PyTorch's fastest settings on one GPU.

One run on the GPU machine, same GPU, seeded weights and input for everyone:

1. `mgp-run --save-weights` writes the seeded weights; torchvision's resnet18
   (weights=None, nothing downloaded) loads them (tools/torch_compare.py).
   The input is a seeded normal float32 NCHW batch (numpy), the first B
   images at batch B, written to .npy for mgp-run --input.
2. Per batch, the reference logits: PyTorch fp32 NCHW with TF32 off
   (deterministic cuDNN), and the same model in float64.
3. Per (system, batch, precision), in this order (cheap systems first, so a
   run cut short keeps them): every mgp, eager, eager-graph measurement, then
   every max-autotune, then every compile one:
     mgp           mgp-run with an empty kernel cache (cold start, process
                   wall), again (warm start), then --bench --profile
                   --dump-logits: the forward replayed as a CUDA graph on an
                   input already on the GPU ("kernels alone"), its logits
                   those of the last timed replay
     eager         the nn.Module (channels-last for tf32/fp16/bf16)
     eager-graph   the same, captured once into a CUDA graph (static input
                   buffer, warm-up on a side stream) and replayed
     max-autotune  torch.compile(mode="max-autotune") (CUDA graphs on) with
                   torch._inductor.config.freezing, eval, no_grad
     compile       torch.compile(mode=--compile-mode, default "default")
   PyTorch is timed with CUDA events around each call: median of --runs after
   --warmup. torch.compile runs with a fresh inductor cache per measurement
   (torch._inductor.utils.fresh_cache), so its compile time is cold, as
   mgp's is. Accuracy (top-1 agreement, max |y - ref| / max |ref|) comes from
   the output of the last timed call of each system.
4. Each measurement is printed as it ends and appended to --json (one JSON
   record per line, flushed), so a run cut short keeps what it measured;
   tools/bench_report.py turns the file into the tables and plot of
   docs/kernels.md. At the end the tables of this run are printed.

Each measurement runs under a cap (--cap seconds: compile, warm-up and timed
runs together; timed runs stop early, after at least 3, when the cap is
near), and --deadline bounds the whole run: what does not fit is recorded as
skipped. --plan prints the measurements in order and exits, without PyTorch.

    bench_vs_torch.py [--mgp-run build/bin/mgp-run] [--batches 128] [--size 224]
                      [--precisions fp32,tf32,fp16,bf16] [--systems all]
                      [--runs 30] [--warmup 10] [--cap 300] [--deadline S]
                      [--json results.jsonl] [--workdir DIR] [--plan]

Exit status: 0 when every measurement ran; 1 when some failed, ran past its
cap or was skipped (each is printed and recorded, the others still run); 2
when it cannot run at all (bad arguments, no PyTorch, no GPU, no mgp-run).
"""

import argparse
import datetime
import gc
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

START = time.monotonic()
PROG = "bench_vs_torch.py"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
# Measured on the GPU machine (../shared/TOOLCHAIN.md: matmul 8192^3).
PEAK_TFLOPS = {"fp32": 51.0, "tf32": 377.0, "fp16": 726.0, "bf16": 750.0}
PRECISIONS = ("fp32", "tf32", "fp16", "bf16")
# Run order: the cheap systems first, then the long compiles.
SYSTEMS = ("mgp", "eager", "eager-graph", "max-autotune", "compile")
TORCH_SYSTEMS = SYSTEMS[1:]
MIN_RUNS = 3


def fail(message, status=2):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(status)


def int_list(text, what):
    values = []
    for item in text.split(","):
        if not item.strip():
            continue
        try:
            values.append(int(item))
        except ValueError:
            fail(f"{what}: '{item}' is not an integer")
        if values[-1] < 1:
            fail(f"{what}: {values[-1]} must be at least 1")
    if not values:
        fail(f"{what}: empty list")
    if len(set(values)) != len(values):
        fail(f"{what}: {text} repeats a value")
    return values


def name_list(text, known, what):
    names = [n for n in text.split(",") if n]
    if names == ["all"]:
        return list(known)
    for n in names:
        if n not in known:
            fail(f"unknown {what} '{n}' (expected {', '.join(known)})")
    if not names:
        fail(f"--{what}s: empty list")
    return names


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mgp-run", default=os.path.join(REPO, "build", "bin", "mgp-run"))
    parser.add_argument("--graph", default=os.path.join(REPO, "models", "resnet18.graph"))
    parser.add_argument("--batches", help="comma-separated batch sizes (default 128)")
    parser.add_argument("--batch", type=int, help="one batch size (same as --batches N)")
    parser.add_argument("--size", type=int, default=224)
    parser.add_argument("--precisions", default=",".join(PRECISIONS))
    parser.add_argument("--systems", default="all",
                        help=f"comma-separated, from {', '.join(SYSTEMS)} (default all)")
    parser.add_argument("--runs", type=int, default=30, help="timed runs per measurement")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=float, default=300.0,
                        help="seconds per (system, batch, precision), compile included")
    parser.add_argument("--deadline", type=float,
                        help="seconds for the whole run: what does not fit is skipped")
    parser.add_argument("--compile-mode", default="default",
                        help="torch.compile mode of the 'compile' system")
    parser.add_argument("--no-compile", action="store_true",
                        help="skip both torch.compile systems")
    parser.add_argument("--channels-last", choices=("auto", "always", "never"), default="auto",
                        help="PyTorch layout: auto = channels-last for tf32/fp16/bf16")
    parser.add_argument("--torch-cache", choices=("fresh", "shared"), default="fresh",
                        help="inductor cache per torch.compile measurement")
    parser.add_argument("--json", help="append one JSON record per measurement here "
                        "(default WORKDIR/results.jsonl)")
    parser.add_argument("--workdir", help="keep weights, inputs, logits and caches here")
    parser.add_argument("--plan", action="store_true",
                        help="print the measurements in order and exit")
    parser.add_argument("--profile", action="store_true",
                        help="print mgp's per-kernel and per-layer profile of each run")
    # Tests of this script on a machine without a GPU: PyTorch on the CPU
    # (timed by the wall clock; no CUDA graph) and mgp-run --device cpu.
    parser.add_argument("--torch-device", choices=("cuda", "cpu"), default="cuda",
                        help=argparse.SUPPRESS)
    parser.add_argument("--mgp-device", choices=("gpu", "cpu"), default="gpu",
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.batch is not None and args.batches is not None:
        fail("give --batch or --batches, not both")
    args.batches = (int_list(str(args.batch), "--batch") if args.batch is not None
                    else int_list(args.batches or "128", "--batches"))
    args.precisions = name_list(args.precisions, PRECISIONS, "precision")
    args.systems = name_list(args.systems, SYSTEMS, "system")
    if args.no_compile:
        args.systems = [s for s in args.systems if s not in ("compile", "max-autotune")]
        if not args.systems:
            fail("--no-compile leaves no system to run")
    if args.size < 32 or args.runs < 1 or args.warmup < 0:
        fail("--runs must be at least 1, --warmup at least 0, --size at least 32")
    if args.cap <= 0 or (args.deadline is not None and args.deadline <= 0):
        fail("--cap and --deadline must be positive")
    return args


def make_plan(args):
    """[(system, batch, precision)] in run order."""
    return [(s, b, p) for s in SYSTEMS if s in args.systems
            for b in args.batches for p in args.precisions]


def elapsed():
    return time.monotonic() - START


def import_torch(device="cuda"):
    """torch, numpy and torch_compare, or exit 2 saying why."""
    try:
        import numpy  # noqa: F401
        import torch
        import torchvision  # noqa: F401
    except ImportError as e:
        fail(f"PyTorch is not importable ({e}); this benchmark runs on the GPU "
             f"machine, which has torch, torchvision and numpy")
    if device == "cuda" and not torch.cuda.is_available():
        fail("PyTorch sees no CUDA GPU (torch.cuda.is_available() is False); "
             "this benchmark runs on the GPU machine")
    sys.path.insert(0, HERE)
    import torch_compare
    return torch, torch_compare


# --- mgp ---------------------------------------------------------------------

BENCH_RE = re.compile(r"^bench \(\w+\): median ([0-9.]+) ms per batch")
KERNELS_RE = re.compile(r"^bench \(\w+\): kernels alone: median ([0-9.]+) ms")
PROFILE_RE = re.compile(
    r"^\s+([0-9.]+)\s+([0-9.]+)%\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S.*)$")
LAYER_RE = re.compile(
    r"^\s+layer\s+([0-9.]+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+(\S.*)$")
PHASE_RE = re.compile(r"^mgp-run: phase (.+?): ([0-9.]+) ms \(at ([0-9.]+) ms\)")


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


def parse_phases(stderr):
    """MGP_DEBUG=1's startup phases: {phase: ms}."""
    return {m.group(1): float(m.group(2))
            for m in map(PHASE_RE.match, stderr.splitlines()) if m}


def last_line(text, fallback):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else fallback


def run_mgp(cmd, env, deadline):
    """(status, seconds, stdout, stderr); raises TimeoutError past `deadline`."""
    timeout = deadline - time.monotonic()
    if timeout <= 0:
        raise TimeoutError
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise TimeoutError from None
    return proc.returncode, time.perf_counter() - start, proc.stdout, proc.stderr


def measure_mgp(args, ctx, batch, precision, deadline):
    """Cold start, warm start, then --bench --profile --dump-logits."""
    cache = tempfile.mkdtemp(prefix=f"mgp-cache-{precision}-b{batch}-", dir=ctx["work"])
    env = dict(os.environ, MGP_CACHE_DIR=cache, MGP_DEBUG="1")
    env.pop("MGP_CACHE", None)
    base = [args.mgp_run, args.graph, "--device", args.mgp_device, "--precision", precision,
            "--weights", ctx["weights"], "--seed", str(args.seed)]
    start = base + ["--batch", str(batch), "--size", str(args.size)]
    rec = {"layout": "NHWC (mgp)"}
    try:
        rc, cold_s, _, err = run_mgp(start, env, deadline)
        if rc != 0:
            raise RuntimeError(f"cold start (status {rc}): {last_line(err, '')}")
        rc, warm_s, _, err2 = run_mgp(start, env, deadline)
        if rc != 0:
            raise RuntimeError(f"warm start (status {rc}): {last_line(err2, '')}")
        rec.update(compile_s=cold_s, warm_start_s=warm_s, phases_cold=parse_phases(err),
                   phases_warm=parse_phases(err2))
        logits = os.path.join(ctx["work"], f"mgp_{precision}_b{batch}.npy")
        bench = base + ["--input", ctx["input_file"](batch), "--bench", str(args.runs),
                        "--warmup", str(args.warmup), "--dump-logits", logits]
        if args.mgp_device == "gpu":
            bench.append("--profile")
        env.pop("MGP_DEBUG")
        rc, _, out, err = run_mgp(bench, env, deadline)
        if rc != 0:
            raise RuntimeError(f"--bench (status {rc}): {last_line(err, '')}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    wall, kernels, profile, layers = parse_mgp(out)
    if wall is None:
        raise RuntimeError("no 'bench (gpu): median' line in mgp-run's output")
    if kernels is None:
        rec["notes"] = "no kernels-alone line: the time includes the copies"
    rec.update(median_ms=kernels if kernels is not None else wall, e2e_ms=wall,
               runs=args.runs, profile=profile, layers=layers,
               command=" ".join(shlex.quote(c) for c in bench))
    rec["notes"] = "; ".join(filter(None, [rec.get("notes"), f"e2e {wall:.3f} ms"]))
    import numpy as np
    return rec, np.load(logits)


def print_profile(precision, rec):
    peak = PEAK_TFLOPS[precision]
    profile, layers = rec.get("profile") or [], rec.get("layers") or []
    total_ms = sum(r[0] for r in profile)
    total_gflop = sum(r[2] for r in profile)
    overall = total_gflop / total_ms if total_ms else 0.0
    print(f"  mgp {precision}: per kernel (--profile, eager launches; peak {peak:.0f} "
          f"TFLOP/s); overall {overall:.1f} TFLOP/s ({100 * overall / peak:.1f} % of peak)")
    for title, rows in (("kernel", profile), ("layer (kernel)", layers)):
        print(f"    {'ms/run':>8} {'launches':>8} {'GFLOP':>8} {'TFLOP/s':>8} {'% peak':>7}  {title}")
        for ms, launches, gflop, tflops, name in rows:
            pct = f"{100 * tflops / peak:6.1f}%" if gflop > 0 else f"{'-':>7}"
            print(f"    {ms:8.3f} {launches:8d} {gflop:8.2f} {tflops:8.1f} {pct}  {name}")


# --- PyTorch -----------------------------------------------------------------

class CapExceeded(BaseException):
    """Raised by SIGALRM when a measurement runs past its cap (a BaseException,
    so that PyTorch's `except Exception` handlers do not swallow it)."""


class Cap:
    """Raises CapExceeded in the main thread at `deadline` (time.monotonic)."""

    def __init__(self, deadline):
        self.deadline = deadline

    def __enter__(self):
        def handler(signum, frame):
            raise CapExceeded
        self.old = signal.signal(signal.SIGALRM, handler)
        signal.setitimer(signal.ITIMER_REAL, max(self.deadline - time.monotonic(), 0.01))
        return self

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old)
        return False


def set_precision(torch, precision, reference=False):
    """TF32 on or off for cuBLAS, cuDNN and inductor's Triton templates.

    The legacy flags (allow_tf32) set cuBLAS and cuDNN's convolutions, but
    inductor's convolution template reads the newer
    torch.backends.cudnn.fp32_precision, which they leave at "none": without
    it max-autotune times full-fp32 Triton convolutions (ALLOW_TF32=False,
    slow to compile and to run) against cuDNN's TF32 ones. Both are set, in
    this order, so that every flag reads back without the "mix of legacy
    and new APIs" error."""
    tf32 = precision != "fp32" and not reference
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    if hasattr(torch.backends.cudnn, "fp32_precision"):
        torch.backends.cudnn.fp32_precision = "tf32" if tf32 else "ieee"
    torch.backends.cudnn.benchmark = not reference
    torch.backends.cudnn.deterministic = reference


def torch_setup(torch, args, precision, model, x):
    """(model, input, layout) for `precision` (fp32: TF32 off)."""
    import copy
    set_precision(torch, precision)
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision, torch.float32)
    m = copy.deepcopy(model).to(dtype=dtype)
    xi = x.to(dtype=dtype)
    cl = args.channels_last == "always" or (args.channels_last == "auto" and precision != "fp32")
    if cl:
        m = m.to(memory_format=torch.channels_last)
        xi = xi.contiguous(memory_format=torch.channels_last)
    return m, xi, "channels-last" if cl else "NCHW"


def time_calls(torch, fn, args, soft_deadline):
    """(per-call ms by CUDA events, output of the last timed call, warm-up s)."""
    cuda = args.torch_device == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    out = None
    start_s = time.perf_counter()
    with torch.no_grad():
        for _ in range(args.warmup):
            out = fn()
            if time.monotonic() > soft_deadline:
                break
        sync()
        warmup_s = time.perf_counter() - start_s
        times = []
        for _ in range(args.runs):
            if cuda:
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                out = fn()
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end))
            else:
                t0 = time.perf_counter()
                out = fn()
                times.append((time.perf_counter() - t0) * 1e3)
            if len(times) >= MIN_RUNS and time.monotonic() > soft_deadline:
                break
    return times, out, warmup_s


def fresh_cache(torch, args):
    """A fresh inductor (and Triton) cache, or none to share the default."""
    import contextlib
    if args.torch_cache == "shared":
        return contextlib.nullcontext()
    import torch._inductor.utils as utils
    fn = getattr(utils, "fresh_cache", None) or getattr(utils, "fresh_inductor_cache", None)
    return fn() if fn else contextlib.nullcontext()


def measure_torch(torch, args, ctx, system, batch, precision, deadline):
    """Times one PyTorch system; returns (record fields, logits as numpy)."""
    model, x = ctx["model"], ctx["x_gpu"](batch)
    m, xi, layout = torch_setup(torch, args, precision, model, x)
    rec = {"layout": layout}
    soft = deadline - 2.0
    cuda = args.torch_device == "cuda"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    compiled = graph = None
    try:
        if system == "eager":
            t0 = time.perf_counter()
            with torch.no_grad():
                m(xi)
            sync()
            rec["compile_s"] = time.perf_counter() - t0
            rec["notes"] = "compile s: first call (cuDNN benchmark)"
            fn = lambda: m(xi)  # noqa: E731
        elif system == "eager-graph":
            static_x = xi.clone()
            t0 = time.perf_counter()
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.no_grad(), torch.cuda.stream(stream):
                for _ in range(3):
                    m(static_x)
            torch.cuda.current_stream().wait_stream(stream)
            graph = torch.cuda.CUDAGraph()
            with torch.no_grad(), torch.cuda.graph(graph):
                static_y = m(static_x)
            sync()
            rec["compile_s"] = time.perf_counter() - t0
            rec["notes"] = "compile s: 3 warm-up calls and the capture"

            def fn():
                graph.replay()
                return static_y
        else:
            torch._dynamo.reset()
            mode = "max-autotune" if system == "max-autotune" else args.compile_mode
            import torch._inductor.config as inductor_config
            with fresh_cache(torch, args), inductor_config.patch(freezing=system == "max-autotune"):
                compiled = torch.compile(m, mode=mode, dynamic=False)
                mark = getattr(getattr(torch, "compiler", None), "cudagraph_mark_step_begin", None)

                def fn():
                    if mark:
                        mark()
                    return compiled(xi)
                t0 = time.perf_counter()
                with torch.no_grad():
                    fn()
                sync()
                rec["compile_s"] = time.perf_counter() - t0
                rec["notes"] = (f"mode {mode}" + (", freezing" if system == "max-autotune" else "")
                                + f", {args.torch_cache} inductor cache; compile s: first call")
                times, out, rec["warmup_s"] = time_calls(torch, fn, args, soft)
                logits = out.float().cpu().numpy()
            return finish(rec, times), logits
        times, out, rec["warmup_s"] = time_calls(torch, fn, args, soft)
        return finish(rec, times), out.float().cpu().numpy()
    finally:
        del m, xi, compiled, graph
        if system in ("compile", "max-autotune"):
            torch._dynamo.reset()
        gc.collect()
        if cuda:
            torch.cuda.empty_cache()


def finish(rec, times):
    rec.update(median_ms=statistics.median(times), min_ms=min(times), max_ms=max(times),
               runs=len(times))
    return rec


def references(torch, np, model, x):
    """PyTorch fp32 with TF32 off (deterministic cuDNN, NCHW) and float64 logits."""
    import copy
    set_precision(torch, "fp32", reference=True)
    with torch.no_grad():
        ref32 = model(x).float().cpu().numpy()
        try:
            ref64 = copy.deepcopy(model).double()(x.double()).cpu().numpy()
        except Exception as e:  # reported in the record, the fp32 reference stays
            print(f"  float64 reference failed: {type(e).__name__}: {e}")
            ref64 = None
    set_precision(torch, "tf32")
    return ref32, ref64


def accuracy(np, out, ref32, ref64):
    """top-1 agreement with ref32, max |out - ref| / max |ref| for both."""
    fields = {"top1": int((out.argmax(1) == ref32.argmax(1)).sum()), "top1_of": int(out.shape[0])}
    for name, ref in (("rel_err_fp32", ref32), ("rel_err_fp64", ref64)):
        if ref is None or ref.shape != out.shape:
            fields[name] = None
            continue
        err = float(np.abs(out.astype(np.float64) - ref).max() / max(np.abs(ref).max(), 1e-30))
        fields[name] = err if np.isfinite(err) else None
    if not np.isfinite(out).all():
        fields["notes_accuracy"] = "non-finite logits"
    return fields


# --- the run -----------------------------------------------------------------

class Results:
    """One JSON record per line, flushed and synced as each measurement ends."""

    def __init__(self, path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.path = path
        self.file = open(path, "a")
        self.records = []

    def write(self, rec):
        self.file.write(json.dumps(rec) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())
        if rec.get("kind") == "measurement":
            self.records.append(rec)


def git_commit(mgp_run=None):
    """The commit mgp was built from: the portable archive's COMMIT file
    (beside bin/mgp-run; `make portable` writes it), else this checkout's."""
    if mgp_run:
        stamp = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(mgp_run))),
                             "COMMIT")
        if os.path.isfile(stamp):
            with open(stamp) as f:
                return f.read().strip() or None
    try:
        proc = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        return proc.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def first_line(text):
    lines = [l for l in str(text).splitlines() if l.strip()]
    return lines[0] if lines else ""


def summary_line(rec):
    head = f"[{rec['elapsed_at_s']:6.1f} s] {rec['precision']} b{rec['batch']} {rec['system']}:"
    if rec["status"] != "ok":
        return f"{head} {rec['status'].upper()}: {first_line(rec.get('error', ''))}"
    parts = [f"{rec['median_ms']:.3f} ms ({rec['images_per_s']:,.0f} images/s, {rec['runs']} runs)"]
    if rec.get("compile_s") is not None:
        parts.append(f"compile {rec['compile_s']:.2f} s" +
                     (f", warm start {rec['warm_start_s']:.2f} s" if rec.get("warm_start_s") else ""))
    if rec.get("top1") is not None:
        e32, e64 = rec.get("rel_err_fp32"), rec.get("rel_err_fp64")
        parts.append(f"top-1 {rec['top1']}/{rec['top1_of']} vs fp32, max rel err "
                     f"{e32 if e32 is None else f'{e32:.2e}'} (fp64 "
                     f"{e64 if e64 is None else f'{e64:.2e}'})")
    return f"{head} " + ", ".join(parts)


def setup(args, torch, torch_compare, np):
    """Weights, model, input and reference providers shared by all measurements."""
    work = args.workdir or tempfile.mkdtemp(prefix="mgp-bench-")
    os.makedirs(work, exist_ok=True)
    weights = os.path.join(work, "resnet18.safetensors")
    cmd = [args.mgp_run, args.graph, "--batch", "1", "--size", str(args.size), "--seed",
           str(args.seed), "--device", "reference", "--save-weights", weights]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} failed:\n{proc.stderr.strip()}")
    model = torch_compare.load_model(weights, args.torch_device)
    rng = np.random.default_rng(args.seed)
    x_all = rng.standard_normal((max(args.batches), 3, args.size, args.size), dtype=np.float32)
    refs = {}

    def input_file(batch):
        path = os.path.join(work, f"x_b{batch}.npy")
        if not os.path.exists(path):
            np.save(path, np.ascontiguousarray(x_all[:batch]))
        return path

    def x_gpu(batch):
        return torch.from_numpy(np.ascontiguousarray(x_all[:batch])).to(args.torch_device)

    def reference(batch):
        if batch not in refs:
            refs[batch] = references(torch, np, model, x_gpu(batch))
        return refs[batch]

    return {"work": work, "weights": weights, "model": model, "input_file": input_file,
            "x_gpu": x_gpu, "reference": reference}


def main(argv=None):
    args = parse_args(argv)
    plan = make_plan(args)
    if args.plan:
        for i, (s, b, p) in enumerate(plan, 1):
            print(f"{i:3d}. {s} batch {b} {p} (cap {args.cap:.0f} s)")
        if args.deadline is not None:
            print(f"deadline: {args.deadline:.0f} s for the whole run")
        return 0
    torch, torch_compare = import_torch(args.torch_device)
    # mgp-run also writes the seeded weights that every system uses.
    if not os.access(args.mgp_run, os.X_OK):
        fail(f"no mgp-run at {args.mgp_run} (build it: make mgp-run, or pass --mgp-run)")
    import numpy as np
    ctx = setup(args, torch, torch_compare, np)
    results = Results(args.json or os.path.join(ctx["work"], "results.jsonl"))
    device = torch.cuda.get_device_name(0) if args.torch_device == "cuda" else "CPU (test)"
    try:
        import triton
        triton_version = triton.__version__
    except ImportError:
        triton_version = None
    import torchvision
    results.write({
        "kind": "meta", "time": datetime.datetime.now().isoformat(timespec="seconds"),
        "device": device, "torch": torch.__version__, "torchvision": torchvision.__version__,
        "triton": triton_version, "cuda": torch.version.cuda, "git": git_commit(args.mgp_run),
        "mgp_run": args.mgp_run, "size": args.size, "seed": args.seed, "runs": args.runs,
        "warmup": args.warmup, "cap_s": args.cap, "deadline_s": args.deadline,
        "batches": args.batches, "precisions": args.precisions, "systems": args.systems,
        "channels_last": args.channels_last, "torch_cache": args.torch_cache,
        "command": " ".join(shlex.quote(a) for a in [PROG] + (argv if argv is not None else sys.argv[1:])),
    })
    print(f"ResNet18 3x{args.size}x{args.size} on {device}; torch {torch.__version__}; "
          f"medians of {args.runs} runs after {args.warmup} warm-up; {len(plan)} measurements; "
          f"files in {ctx['work']}; records in {results.path}", flush=True)

    for system, batch, precision in plan:
        rec = {"kind": "measurement", "system": system, "batch": batch,
               "precision": precision, "size": args.size}
        refs = None
        if args.deadline is None or START + args.deadline - time.monotonic() >= 5.0:
            try:  # once per batch, outside the measurement's cap
                refs = ctx["reference"](batch)
            except Exception as e:
                refs = e
        now = time.monotonic()
        budget = args.cap
        if args.deadline is not None:
            budget = min(budget, START + args.deadline - now)
        rec["cap_s"] = max(budget, 0.0)
        if budget < 5.0:
            rec.update(status="skipped", error="the --deadline of the run was reached")
        elif isinstance(refs, Exception):
            rec.update(status="failed", error=f"the PyTorch fp32 reference failed: "
                       f"{type(refs).__name__}: {str(refs).strip()}"[:4000])
        else:
            deadline = now + budget
            ref32, ref64 = refs
            try:
                with Cap(deadline):
                    if system == "mgp":
                        fields, out = measure_mgp(args, ctx, batch, precision, deadline)
                    else:
                        fields, out = measure_torch(torch, args, ctx, system, batch,
                                                    precision, deadline)
                rec.update(fields)
                acc = accuracy(np, out, ref32, ref64)
                note = acc.pop("notes_accuracy", None)
                rec.update(acc)
                if note:
                    rec["notes"] = "; ".join(filter(None, [rec.get("notes"), note]))
                rec["status"] = "ok"
                rec["images_per_s"] = batch * 1e3 / rec["median_ms"]
            except (CapExceeded, TimeoutError):
                rec.update(status="timeout", error=f"ran past its cap of {budget:.0f} s")
            except Exception as e:  # recorded; the other measurements still run
                text = str(e).strip()
                rec.update(status="failed", error=f"{type(e).__name__}: {text}"[:4000])
            rec["elapsed_s"] = time.monotonic() - now
        rec["elapsed_at_s"] = elapsed()
        results.write(rec)
        print(summary_line(rec), flush=True)
        if args.profile and system == "mgp" and rec["status"] == "ok":
            print_profile(precision, rec)

    sys.path.insert(0, HERE)
    import bench_report
    keyed = {(r["system"], r["batch"], r["precision"]): r for r in results.records}
    print()
    print(bench_report.render([], keyed, 128 if 128 in args.batches else args.batches[0]))
    bad = [r for r in results.records if r["status"] != "ok"]
    if bad:
        print(f"{PROG}: {len(bad)} of {len(results.records)} measurement(s) did not complete:\n  " +
              "\n  ".join(f"{r['system']} b{r['batch']} {r['precision']}: {r['status']}: "
                          f"{first_line(r.get('error', ''))[:300]}" for r in bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
