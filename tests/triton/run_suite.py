#!/usr/bin/env python3
"""The Triton kernel suite on one launcher, against NumPy/PyTorch references.

    run_suite.py [--launcher triton-interp|triton|mgp] [-k REGEX] [--list] [-v]
                 [--save DIR] [--against DIR] [--bench N [--bench-json FILE]]

The launcher also comes from TRITON_SUITE_LAUNCHER (default triton-interp):
  triton-interp  Triton's interpreter (TRITON_INTERPRET=1), CPU tensors
  triton         Triton on a CUDA GPU
  mgp            mgp.jit(kernel); MGP_INTERPRET=1 runs mgp's CPU interpreter
                 (mgp is imported from MGP_PYTHONPATH or <repo>/python)
Prints one row per (case, shape) and exits 1 when any fails. --save DIR keeps
the outputs; --against DIR compares them with another launcher's (e.g. mgp
against Triton on the same seeded inputs) besides the reference. --bench N
times every passing shape's host launcher on the same inputs (warm-up, then
the median of N calls; CUDA events on the GPU, suite/bench.py) and writes
--bench-json (default DIR/bench.json of --save, else bench-<launcher>.json);
tests/triton/bench_table.py joins a Triton and an mgp file into a table
(--paired-triton FILE: Triton timed in the same process, alternately). A
launcher that cannot run here (no GPU, mgp not importable) skips every case
with the reason.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launcher", default=os.environ.get("TRITON_SUITE_LAUNCHER",
                                                             "triton-interp"),
                        choices=["triton-interp", "triton", "mgp"])
    parser.add_argument("-k", "--filter", default="",
                        help="run only the cases whose name matches this regex")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--save", metavar="DIR",
                        help="write every output to DIR/<case>.<shape>.npz")
    parser.add_argument("--against", metavar="DIR",
                        help="also compare every output with those another launcher saved "
                             "in DIR (same seeded inputs), under the case's tolerance")
    parser.add_argument("--xfail", metavar="FILE",
                        help="cases known to fail on this launcher, one `case  reason` per "
                             "line: their failures are counted apart, and a listed case "
                             "whose every shape passes is an error (shorten the list)")
    parser.add_argument("--bench", type=int, default=0, metavar="N",
                        help="time every passing shape: median of N calls of its host "
                             "launcher (warm-up first; CUDA events on the GPU)")
    parser.add_argument("--bench-json", metavar="FILE",
                        help="where --bench writes its medians (JSON)")
    parser.add_argument("--paired-triton", metavar="FILE",
                        help="with --bench on the mgp GPU launcher: also time Triton's "
                             "kernels, alternately with mgp's, call by call in this "
                             "process, and write Triton's medians to FILE")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="time per row and tracebacks of failures")
    return parser.parse_args(argv)


def load_cases(pattern=""):
    """Imports every case module (cases/*.py) and returns the selected cases."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    kernels_dir = os.path.join(HERE, "kernels")
    if kernels_dir not in sys.path:   # for `from helpers import ...`
        sys.path.append(kernels_dir)
    import cases   # noqa: F401  (registers everything)
    from suite.registry import REGISTRY
    return [c for c in REGISTRY if re.search(pattern, c.name)]


def main(argv=None):
    args = parse_args(argv)
    from suite.launchers import select_launcher_environment
    sys.path.insert(0, HERE)
    select_launcher_environment(args.launcher)
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")   # Triton 3.9's default, quietly
    selected = load_cases(args.filter)
    if args.list:
        for case in selected:
            print(f"{case.name:<34} {len(case.shapes)} shapes  kernels: {', '.join(case.kernels)}")
        return 0
    if not selected:
        print(f"no case matches {args.filter!r}")
        return 1
    import warnings
    # NumPy's warnings from Triton's interpreter (exp(-inf - -inf) in masked
    # lanes, ...) would interleave with the table; results are what count.
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    from suite.launchers import make_launcher
    from suite.harness import run
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    launcher = make_launcher(args.launcher)
    times, on_row, paired = {}, None, None
    if args.paired_triton:
        if not args.bench or args.launcher != "mgp" or launcher.device != "cuda":
            print("--paired-triton needs --bench and the mgp launcher on the GPU")
            return 2
        paired = (make_launcher("triton"), {})
    if args.bench:
        from suite.bench import write_json
        path = args.bench_json or (os.path.join(args.save, "bench.json") if args.save
                                   else f"bench-{args.launcher}.json")

        # rewritten after every row: a run cut short by a time limit keeps its rows
        def on_row(rows):
            write_json(path, launcher, args.bench, rows, times)
            if paired:
                write_json(args.paired_triton, paired[0], args.bench, rows, paired[1],
                           paired=True)
    failed, rows = run(selected, launcher, verbose=args.verbose, save=args.save,
                       against=args.against, bench=args.bench, times=times, on_row=on_row,
                       paired=paired)
    if args.bench:
        print(f"timed {len(times)} passing shapes (median of {args.bench}): {path}")
    if not args.xfail:
        return 1 if failed else 0
    expected = {}
    with open(args.xfail) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, reason = line.partition(" ")
                expected[name] = reason.strip()
    failing = {row[0] for row in rows if row[3] == "FAIL"}
    ran = {row[0] for row in rows}
    unexpected = sorted(failing - set(expected))
    passing = sorted(n for n in expected if n in ran and n not in failing)
    print(f"known to fail ({args.xfail}): {len(expected)} cases; unexpected failures: "
          f"{len(unexpected)}; listed but passing: {len(passing)}")
    for name in unexpected:
        print(f"  UNEXPECTED FAIL {name}")
    for name in passing:
        print(f"  XPASS {name}: every shape passes now; remove it from {args.xfail}")
    return 1 if unexpected or passing else 0


if __name__ == "__main__":
    sys.exit(main())
