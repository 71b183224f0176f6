"""Launch overhead from Python on the GPU machine (`make bench-launch-py`):
microseconds per warm launch of an empty kernel (grid 1) and of a vector add
on 1M floats (grid 1024), back to back on PyTorch's current stream, through
mgp's Python package, through Triton (when installed) and through mgp's C++
API (mgp-bench-launch) and C API (bench/launch_overhead_c.c), when their paths
are given, in one run on the same GPU. With the C API's benchmark the table
also has the floor, "CUDA driver": the same PTX launched with cuLaunchKernel
directly.
"host" is until the launch calls return, "sync" until a synchronize after
the last one. A benchmark, not a test: without a GPU it says so and exits 2.

    python3 bench/launch_overhead.py [--launches N] [--mgp-bench-launch PATH]
                                     [--mgp-c-bench PATH]
"""
import argparse
import re
import subprocess
import sys
import time

import mgp
import mgp.language as tl  # what mgp's parser reads (imports inside try are not)

try:  # with Triton, `tl` is Triton's at run time, so Triton can launch them too
    import triton
    import triton.language as tl  # noqa: F811
    jit = triton.jit
except ImportError:
    triton = None
    jit = mgp.jit


@jit
def empty_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass


@jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def measure(launch, launches, torch):
    launch()  # compiles or loads: not timed
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(launches):
        launch()
    issued = time.perf_counter()
    torch.cuda.synchronize()
    done = time.perf_counter()
    return ((issued - start) * 1e6 / launches, (done - start) * 1e6 / launches)


def table_rows(command):
    """The table mgp-bench-launch and launch_overhead_c print:
    {"empty": (host, sync), "1M": (host, sync)} (mgp-bench-launch's 1M kernel
    is relu: one load and one store per element where the add has two)."""
    out = subprocess.run(command, capture_output=True, text=True,
                         check=True).stdout
    rows = {}
    for line in out.splitlines():
        numbers = re.findall(r"(\d+\.\d+)", line)
        if len(numbers) < 2:
            continue
        driver = line.startswith("driver ")
        line = line.removeprefix("driver ")
        if line.startswith("empty"):
            kernel = "empty"
        elif line.startswith(("relu", "add")):
            kernel = "1M"
        else:
            continue
        rows[("driver " if driver else "") + kernel] = (float(numbers[-2]),
                                                        float(numbers[-1]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--launches", type=int, default=10000)
    parser.add_argument("--mgp-bench-launch", help="path of mgp-bench-launch (C++)")
    parser.add_argument("--mgp-c-bench", help="path of bench/launch_overhead_c.c "
                        "built (the C API)")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("launch_overhead.py: needs PyTorch and a GPU")
        return 2
    if not torch.cuda.is_available():
        print("skipped: no GPU (torch.cuda.is_available() is False)")
        return 2

    n = 1 << 20
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    mgp_empty, mgp_add = mgp.jit(empty_kernel), mgp.jit(add_kernel)
    cases = {
        "empty": [("mgp Python", lambda: mgp_empty[(1,)](x, n, BLOCK=128))],
        "1M": [("mgp Python", lambda: mgp_add[(n // 1024,)](x, y, out, n, BLOCK=1024))],
    }
    if triton is not None:
        cases["empty"].append(("Triton", lambda: empty_kernel[(1,)](x, n, BLOCK=128)))
        cases["1M"].append(("Triton", lambda: add_kernel[(n // 1024,)](
            x, y, out, n, BLOCK=1024)))
    results = {kernel: [(name, measure(fn, args.launches, torch)) for name, fn in rows]
               for kernel, rows in cases.items()}
    mgp_add[(n // 1024,)](x, y, out, n, BLOCK=1024)
    torch.cuda.synchronize()
    assert torch.equal(out, x + y), "the mgp add gave a wrong result"
    if args.mgp_bench_launch:
        rows = table_rows([args.mgp_bench_launch, str(args.launches)])
        for kernel, timing in rows.items():
            if not kernel.startswith("driver "):
                results[kernel].append(("mgp C++" + (" (relu)" if kernel == "1M" else ""),
                                        timing))
    if args.mgp_c_bench:
        rows = table_rows([args.mgp_c_bench, __file__, str(args.launches)])
        for kernel, timing in rows.items():
            driver = kernel.startswith("driver ")
            results[kernel.removeprefix("driver ")].append(
                ("CUDA driver" if driver else "mgp C API", timing))

    print(f"launch overhead on {torch.cuda.get_device_name()}, warm caches, "
          f"{args.launches} launches each; mgp {mgp.version()}"
          + (f", Triton {triton.__version__}" if triton else ", no Triton"))
    print(f"{'kernel':<22} {'launcher':<18} {'host us/launch':>15} {'sync us/launch':>15}")
    labels = {"empty": "empty (grid 1)", "1M": "add 1M fp32 (grid 1024)"}
    for kernel, rows in results.items():
        for name, (host, total) in rows:
            print(f"{labels[kernel]:<22} {name:<18} {host:>15.2f} {total:>15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
