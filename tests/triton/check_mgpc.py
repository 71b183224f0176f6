#!/usr/bin/env python3
"""Every kernel of the suite through mgpc and ptxas.

Records the launches of every case's host code (suite/specialize.py: the
specialization Triton's JIT would make, with the num_warps the host passes)
and, for each distinct kernel specialization, runs
    mgpc FILE -k KERNEL --signature SIG [-D NAME=VALUE ...] --num-warps W
         -arch=ARCH -emit=ptx -o K.ptx   then   ptxas -arch=ARCH K.ptx
(`-I` names the kernels folder, for `from helpers import ...`). Specializations
that differ only in the ':16' hints are compiled once. Prints one line per
specialization with mgpc's first error line, a summary per kernel, and exits
1 if any fails.

    check_mgpc.py --mgpc PATH [--ptxas PATH] [--arch sm_90a] [-k REGEX] [-j JOBS]
                  [--keep DIR]

--keep DIR leaves the PTX in DIR as INDEX-KERNEL.ptx (the same names for the
same suite), so that two compilers' output can be compared file by file.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def first_error(text):
    """The first error line; for an error that only says a stage failed
    ("internal error: ... does not verify:", "lowering to LLVM failed"), the
    located diagnostic after it too."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    errors = [l for l in lines if "error" in l]
    if not errors:
        return lines[0] if lines else "(no output)"
    first = errors[0]
    rest = lines[lines.index(first) + 1:]
    if first.endswith(":") and rest:
        return f"{first} {rest[0]}"
    if first.endswith("failed"):
        detail = next((l for l in errors[1:] if l != first), None)
        if detail:
            return f"{first} {detail}"
    return first


def compile_spec(index, spec, args, tmp):
    ptx = os.path.join(args.keep or tmp, f"{index}-{spec.fn_name}.ptx")
    command = spec.mgpc_command(args.mgpc, ptx, arch=args.arch,
                                include=os.path.join(HERE, "kernels") if args.include else None)
    start = time.time()
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, timeout=args.timeout)
        rc, out = result.returncode, result.stdout
    except subprocess.TimeoutExpired:
        rc, out = 124, f"mgpc ran past {args.timeout} s"
    stage = "mgpc"
    if rc == 0:
        stage = "ptxas"
        result = subprocess.run([args.ptxas, f"-arch={args.arch}", ptx, "-o",
                                 os.path.join(tmp, f"{index}.cubin")],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        rc, out = result.returncode, result.stdout
    return rc, stage, out, time.time() - start, command


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mgpc", required=True)
    parser.add_argument("--ptxas", default="ptxas")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("-k", "--filter", default="")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--include", choices=["auto", "yes", "no"], default="auto",
                        help="pass -I <kernels folder> (auto: when mgpc --help lists -I)")
    parser.add_argument("--keep", metavar="DIR", help="write the PTX files to DIR")
    parser.add_argument("-v", "--verbose", action="store_true", help="full mgpc output")
    parser.add_argument("--xfail", help="a file of kernels known not to compile yet, one "
                        "`file:kernel  reason` per line: they are counted and listed, a "
                        "listed kernel that compiles is an error (shorten the list)")
    args = parser.parse_args()
    if not os.path.exists(args.mgpc):
        print(f"mgpc not found at {args.mgpc}")
        return 1
    if args.include == "auto":
        help_text = subprocess.run([args.mgpc, "--help"], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True).stdout
        args.include = "yes" if re.search(r"^\s+-I\b", help_text, re.M) else "no"
        if args.include == "no":
            print("mgpc --help lists no -I: kernels are compiled without a search path")
    args.include = args.include == "yes"
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    sys.path.insert(0, HERE)
    os.environ.pop("TRITON_INTERPRET", None)
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from run_suite import load_cases
    from suite.specialize import record_specs
    cases = load_cases(args.filter)
    specs, errors = record_specs(cases)
    for case, shape, error in errors:
        print(f"FAIL record {case} {shape}: {error}")
    unique, seen = [], set()
    for spec in specs:
        key = (spec.file, spec.fn_name, spec.mgpc_signature().replace(":16", ""),
               tuple(spec.mgpc_defines()), spec.num_warps)
        if key not in seen:
            seen.add(key)
            unique.append(spec)
    failures = {}
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="mgp-suite-ptx-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(compile_spec, i, s, args, tmp) for i, s in enumerate(unique)]
        for spec, future in zip(unique, futures):
            rc, stage, out, seconds, command = future.result()
            where = f"{os.path.relpath(spec.file, HERE)}:{spec.fn_name}"
            line = (f"{'ok  ' if rc == 0 else 'FAIL'} {where:<52} {spec.mgpc_signature()} "
                    f"{' '.join('-D ' + d for d in spec.mgpc_defines())} w{spec.num_warps} "
                    f"({seconds:.1f}s)")
            if rc != 0:
                message = first_error(out)
                failures.setdefault(where, (stage, message, command))
                line += f"\n     {stage}: {message}"
                if args.verbose:
                    line += "\n" + out + "\n     $ " + " ".join(command)
            print(line, flush=True)
    kernels = sorted({f"{os.path.relpath(s.file, HERE)}:{s.fn_name}" for s in unique})
    print(f"\nkernels that do not compile ({len(failures)} of {len(kernels)}):")
    for where, (stage, message, _) in sorted(failures.items()):
        print(f"  {where}: {stage}: {message}")
    failed_specs = sum(1 for s in unique
                       if f"{os.path.relpath(s.file, HERE)}:{s.fn_name}" in failures)
    print(f"\n{len(kernels) - len(failures)}/{len(kernels)} kernels compile with mgpc and "
          f"assemble with ptxas -arch={args.arch} ({len(unique)} specializations, "
          f"{time.time() - start:.0f} s)")
    if not args.xfail:
        return 1 if failures or errors else 0
    expected = read_xfail(args.xfail)
    unexpected = sorted(set(failures) - set(expected))
    passing = sorted(k for k in expected if k in kernels and k not in failures)
    unknown = sorted(k for k in expected if k not in kernels)
    print(f"known not to compile yet ({args.xfail}): {len(expected)}; "
          f"unexpected failures: {len(unexpected)}; listed but compiling: {len(passing)}")
    for where in unexpected:
        print(f"  UNEXPECTED FAIL {where}: {failures[where][0]}: {failures[where][1]}")
    for where in passing:
        print(f"  XPASS {where}: it compiles now; remove it from {args.xfail}")
    for where in unknown:
        print(f"  UNKNOWN {where}: no such kernel in the suite")
    return 1 if unexpected or passing or unknown or errors else 0


def read_xfail(path):
    """file:kernel -> reason, from the lines of `path` (# comments)."""
    expected = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                where, _, reason = line.partition(" ")
                expected[where] = reason.strip()
    return expected


if __name__ == "__main__":
    sys.exit(main())
