#!/usr/bin/env python3
"""Compile time of the Triton kernel suite: mgp (mgpc + ptxas) against Triton.

For each kernel of tests/triton (its first specialization, the one its host
code launches first: suite/specialize.py), one after another on this machine:
  mgp     the wall time of the `mgpc FILE -k KERNEL --signature SIG -D ...
          --num-warps W --arch ARCH -o K.ptx` process (no kernel cache:
          MGP_CACHE=off) plus `ptxas -arch=ARCH K.ptx`, i.e. source to cubin
  Triton  `triton.compile(ASTSource, target=GPUTarget("cuda", 90, 32),
          options={"num_warps": W})` in this process with an empty Triton
          cache (a fresh TRITON_CACHE_DIR per compile): source to cubin,
          Triton's bundled ptxas included, Python start-up and import not
          (one untimed compile warms Triton up first)
The best of --repeat runs of each is kept. Prints a markdown table (ms per
kernel, Triton / mgp: above 1, mgp compiles faster), the medians and the
geometric mean of the ratio; --out writes it to a file. No GPU is needed.

    bench/compile_time.py --mgpc build/bin/mgpc [--ptxas ptxas] [-k REGEX]
                          [--repeat 3] [--out compile-time.md]
"""

import argparse
import datetime
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "tests", "triton")


def time_mgp(spec, args, tmp):
    """Seconds from source to cubin through mgpc and ptxas, or an error."""
    ptx = os.path.join(tmp, "k.ptx")
    command = spec.mgpc_command(args.mgpc, ptx, arch=args.arch)
    command[2:2] = ["-I", os.path.join(SUITE, "kernels")]
    env = dict(os.environ, MGP_CACHE="off")
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env)
    if result.returncode != 0:
        return None, "mgpc: " + (result.stdout.strip().splitlines() or ["?"])[0]
    result = subprocess.run([args.ptxas, f"-arch={args.arch}", ptx, "-o",
                             os.path.join(tmp, "k.cubin")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        return None, "ptxas: " + (result.stdout.strip().splitlines() or ["?"])[0]
    return seconds, ""


def time_triton(spec, cache_root):
    """Seconds from source to cubin through triton.compile with an empty
    cache, or an error."""
    import triton
    from triton.backends.compiler import GPUTarget
    cache = tempfile.mkdtemp(dir=cache_root)
    os.environ["TRITON_CACHE_DIR"] = cache
    try:
        start = time.perf_counter()
        triton.compile(spec.ast_source(), target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": spec.num_warps})
        return time.perf_counter() - start, ""
    except Exception as error:  # a kernel Triton refuses: reported, not timed
        return None, f"triton: {type(error).__name__}"
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def best(fn, repeat):
    times, error = [], ""
    for _ in range(repeat):
        seconds, error = fn()
        if seconds is None:
            return None, error
        times.append(seconds)
    return min(times), ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mgpc", required=True)
    parser.add_argument("--ptxas", default="ptxas")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("-k", "--filter", default="")
    parser.add_argument("--repeat", type=int, default=3, help="runs per kernel and side (best kept)")
    parser.add_argument("--out", help="also write the markdown here")
    args = parser.parse_args()
    for tool in (args.mgpc, args.ptxas):
        if not shutil.which(tool) and not os.path.exists(tool):
            print(f"compile_time.py: {tool} not found")
            return 2
    try:
        import triton  # noqa: F401
    except ImportError:
        print("compile_time.py: needs triton (pip install triton)")
        return 2
    sys.path.insert(0, SUITE)
    os.environ.pop("TRITON_INTERPRET", None)
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from run_suite import load_cases
    from suite.specialize import record_specs
    cases = load_cases(args.filter)
    specs, errors = record_specs(cases, all_shapes=False)
    first, seen = [], set()
    for spec in specs:
        if (spec.file, spec.fn_name) not in seen:
            seen.add((spec.file, spec.fn_name))
            first.append(spec)
    rows, mgp_times, triton_times, ratios = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="mgp-compile-time-") as tmp:
        time_triton(first[0], tmp)  # Triton's one-time initialisation, untimed
        for spec in first:
            name = f"{os.path.relpath(spec.file, SUITE)}:{spec.fn_name}"
            mgp, mgp_error = best(lambda: time_mgp(spec, args, tmp), args.repeat)
            tri, tri_error = best(lambda: time_triton(spec, tmp), args.repeat)
            ratio = tri / mgp if mgp and tri else None
            if mgp:
                mgp_times.append(mgp)
            if tri:
                triton_times.append(tri)
            if ratio:
                ratios.append(ratio)
            note = "; ".join(e for e in (mgp_error, tri_error) if e)
            rows.append(f"| {name} | w{spec.num_warps} | "
                        f"{f'{mgp * 1e3:.0f}' if mgp else '-'} | "
                        f"{f'{tri * 1e3:.0f}' if tri else '-'} | "
                        f"{f'{ratio:.2f}' if ratio else '-'} | {note} |")
            print(rows[-1], flush=True)
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
    text = [f"Compile time, source to cubin, {len(first)} kernels of tests/triton (first specialization "
            f"each), best of {args.repeat}, {datetime.date.today()}; mgp: mgpc process + ptxas "
            f"-arch={args.arch}; Triton {__import__('triton').__version__}: triton.compile in process, "
            f"empty cache, its ptxas included. Ratio = Triton / mgp (above 1: mgp compiles faster).",
            "", "| kernel | warps | mgp ms | Triton ms | Triton/mgp | note |", "|---|---|---|---|---|---|"]
    text += rows
    text += ["", f"Median mgp {statistics.median(mgp_times) * 1e3:.0f} ms, Triton "
             f"{statistics.median(triton_times) * 1e3:.0f} ms; geometric mean of Triton/mgp over "
             f"{len(ratios)} kernels timed on both sides: **{geomean:.2f}**."]
    for case, shape, error in errors:
        text.append(f"(not recorded: {case} {shape}: {error})")
    print("\n".join(text[-1 - len(errors):]))
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(text) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
