#!/usr/bin/env python3
"""Triton's own language tests (python/test/unit/language of Triton 3.6)
with triton.jit swapped for mgp.jit (mgp_swap.py), on mgp's interpreter or
on the GPU; every test classified pass / fail / not applicable.

    run_triton_tests.py --triton-tests DIR [--mode interp|gpu] [--files a,b]
        [-k EXPR] [--sample N] [--jobs N] [--timeout S] [--out DIR]
        [--known FILE] [--markdown FILE]

DIR is Triton's python/test folder (conftest.py, unit/language/...), from a
checkout of the release Triton is installed at; it is never part of this
repository (tools/gpu/run-checks.sh and docs/triton-tests.md say how it
travels). --mode interp runs the tests Triton runs on its own interpreter
(``-m interpreter``, TRITON_INTERPRET=1 for its skips, CPU tensors:
``--device cpu``) on mgp's interpreter (MGP_INTERPRET=1); --mode gpu runs
every test of the files on CUDA tensors. Each file's pytest runs under a
time limit (--timeout); what it reported before the limit counts, the rest
is "not run". --known lists tests known to fail (`id  reason`): the exit
status is 1 only for a failure not listed, or a listed test that passes.
"""

import argparse
import json
import os
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from classify import apply_baseline, classify, read_known, summary_markdown  # noqa: E402

INTERP_FILES = ["test_core.py", "test_standard.py", "test_random.py",
                "test_block_pointer.py", "test_tuple.py",
                "test_tensor_descriptor.py"]
GPU_FILES = INTERP_FILES + ["test_libdevice.py", "test_conversions.py",
                            "test_annotations.py", "test_decorator.py",
                            "test_matmul.py"]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triton-tests", default=os.environ.get("TRITON_TESTS_DIR"),
                        help="Triton's python/test folder (or $TRITON_TESTS_DIR)")
    parser.add_argument("--mode", choices=["interp", "gpu"], default="interp")
    parser.add_argument("--files", help="comma-separated test files of unit/language")
    parser.add_argument("-k", dest="keyword", help="pytest -k expression")
    parser.add_argument("--sample", type=int, default=1,
                        help="run one test in N (by a hash of its id)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="pytest processes per file (shards by test id)")
    parser.add_argument("--timeout", type=int, default=900,
                        help="seconds for each file's pytest run")
    parser.add_argument("--budget", type=int, default=0,
                        help="seconds for the whole run (files share what is left)")
    parser.add_argument("--summarize-only", action="store_true",
                        help="classify the results already in --out (of a run that was cut short)")
    parser.add_argument("--out", default="/tmp/mgp-triton-tests",
                        help="folder for results.jsonl, collected.txt, summary.json")
    parser.add_argument("--known", help="tests known to fail, `id  reason` per line")
    parser.add_argument("--triton-baseline", action="store_true",
                        help="run Triton itself (its interpreter, or Triton on the GPU), "
                             "nothing swapped: the baseline of --baseline")
    parser.add_argument("--baseline", metavar="DIR",
                        help="the --out of a --triton-baseline run: a test that fails there "
                             "too is counted as not applicable (Triton fails it here as well)")
    parser.add_argument("--markdown", help="write the summary as markdown here")
    parser.add_argument("--write-known", metavar="FILE",
                        help="write this run's failures as a --known list (id  first error line)")
    parser.add_argument("--known-sample", type=int, default=1, metavar="N",
                        help="--write-known lists only the tests that --sample N runs")
    parser.add_argument("--command", default="",
                        help="the command line to quote in the markdown")
    return parser.parse_args(argv)


def environment(mode):
    env = dict(os.environ)
    paths = [HERE, os.environ.get("MGP_PYTHONPATH", os.path.join(ROOT, "python"))]
    if TESTS_SITE:  # pytest installed next to Triton's tests (prepare.sh --with-pytest)
        paths.append(TESTS_SITE)
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    # test_cast picks how it spells a cast from hash() of strings, which
    # Python salts per process: fixed, every run compiles the same kernels
    env["PYTHONHASHSEED"] = "0"
    if mode == "interp":
        env["MGP_INTERPRET"] = "1"
        env["TRITON_INTERPRET"] = "1"
    else:
        env.pop("MGP_INTERPRET", None)
        env.pop("TRITON_INTERPRET", None)
    return env


def pytest_command(args, path, shard):
    command = [sys.executable, "-m", "pytest", "-p", "mgp_swap", "-p", "no:cacheprovider",
               "-q", "--tb=native", "-W", "ignore", "-rN", path,
               "--device", "cpu" if args.mode == "interp" else "cuda",
               "--mgp-shard", f"{shard}/{args.jobs}", "--mgp-sample", str(args.sample)]
    if args.mode == "interp":
        command += ["-m", "interpreter"]
    if args.keyword:
        command += ["-k", args.keyword]
    return command


TESTS_SITE = None


def run_file(args, name, env, limit):
    """Runs one test file (in --jobs shards at once) for at most ``limit``
    seconds; returns (seconds, statuses of the shards: exit code or
    'timeout')."""
    path = os.path.join("unit", "language", name)
    start = time.monotonic()
    procs = []
    for shard in range(args.jobs):
        log = open(os.path.join(args.out, f"{name}.{shard}.log"), "w")
        procs.append((subprocess.Popen(pytest_command(args, path, shard),
                                       cwd=args.triton_tests, env=env, stdout=log,
                                       stderr=subprocess.STDOUT), log))
    statuses = []
    for proc, log in procs:
        left = max(1, limit - (time.monotonic() - start))
        try:
            statuses.append(proc.wait(timeout=left))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            statuses.append("timeout")
        log.close()
    return time.monotonic() - start, statuses


def main(argv=None):
    args = parse_args(argv)
    if not args.triton_tests or not os.path.isfile(
            os.path.join(args.triton_tests, "unit", "language", "test_core.py")):
        print(f"skipped: Triton's tests not found at {args.triton_tests!r} (pass "
              "--triton-tests: Triton's python/test folder; docs/triton-tests.md)")
        return 77
    args.out = os.path.abspath(args.out)
    args.triton_tests = os.path.abspath(args.triton_tests)
    files = args.files.split(",") if args.files else (
        INTERP_FILES if args.mode == "interp" else GPU_FILES)
    global TESTS_SITE
    site = os.path.join(args.triton_tests, "site")
    TESTS_SITE = site if os.path.isdir(site) else None
    os.makedirs(args.out, exist_ok=True)
    results = os.path.join(args.out, "results.jsonl")
    collected = os.path.join(args.out, "collected.txt")
    timings = {}
    if not args.summarize_only:
        for stale in (results, collected):
            if os.path.exists(stale):
                os.remove(stale)
        env = environment(args.mode)
        env["MGP_TT_RESULTS"] = results
        env["MGP_TT_COLLECTED"] = collected
        if args.triton_baseline:
            env["MGP_TT_NO_SWAP"] = "1"
            env.pop("MGP_INTERPRET", None)
        start = time.monotonic()
        for name in files:
            if not os.path.exists(os.path.join(args.triton_tests, "unit", "language", name)):
                print(f"{name}: not in this Triton release's tests")
                continue
            limit = args.timeout
            if args.budget:
                limit = min(limit, args.budget - (time.monotonic() - start))
                if limit < 5:
                    print(f"{name}: not run (the budget of {args.budget} s is spent)")
                    continue
            seconds, statuses = run_file(args, name, env, limit)
            timings[name] = (seconds, statuses)
            print(f"{name}: {seconds:.0f} s, pytest status {statuses}", flush=True)
    rows = classify(results, collected)
    if args.baseline:
        apply_baseline(rows, classify(os.path.join(args.baseline, "results.jsonl"),
                                      os.path.join(args.baseline, "collected.txt")))
    known = read_known(args.known) if args.known else {}
    summary = summary_markdown(rows, timings, args, known)
    print(summary["text"])
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary["counts"], f, indent=1)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(summary["text"])
    if args.write_known:
        with open(args.write_known, "w") as f:
            f.write("# Triton's language tests known to fail through mgp on its interpreter\n"
                    "# (tests/triton_lang/run_triton_tests.py --known): `test id  first error line`.\n"
                    "# A listed test that passes must leave the list; docs/triton-tests.md groups them.\n")
            for test_id, message in sorted(summary["counts"]["failures"].items()):
                if zlib.crc32(test_id.encode()) % args.known_sample:
                    continue
                f.write(f"{test_id}  {' '.join(message.split())[:200]}\n")
    # pytest's 0 and 1 are results (1: some test failed), 5 is "nothing
    # collected" (a sample can miss a small file); anything else (2
    # interrupted, 3 internal error, 4 usage error: the plugin or mgp did not
    # load) means the tests did not run, which must not read as a pass.
    broken = {name: st for name, (_, st) in timings.items()
              if any(x not in (0, 1, 5, "timeout") for x in st)}
    for name, st in broken.items():
        print(f"{name}: pytest did not run the tests (status {st}; see "
              f"{args.out}/{name}.*.log)")
    ran = sum(summary["counts"]["total"].values())
    if broken or (timings and not ran):
        print("error: Triton's tests did not run (no test collected or pytest failed "
              "to start)")
        return 2
    if not args.known:
        return 0
    unexpected, passing = summary["unexpected"], summary["known_passing"]
    print(f"known to fail ({args.known}): {len(known)}; unexpected failures: "
          f"{len(unexpected)}; listed but passing: {len(passing)}")
    for test_id, message in unexpected:
        print(f"  UNEXPECTED FAIL {test_id}: {message}")
    for test_id in passing:
        print(f"  XPASS {test_id}: passes now; remove it from {args.known}")
    return 1 if unexpected or passing else 0


if __name__ == "__main__":
    sys.exit(main())
