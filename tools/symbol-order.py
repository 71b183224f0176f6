#!/usr/bin/env python3
"""Writes the function order of the portable binaries' text (lld's
--symbol-ordering-file), profiled from mgpc compiling Triton suite kernels.

A static mgpc maps 36 MB of text and a small compile touches a few MB of it,
scattered over thousands of pages: each first touch of a page is a page fault
(with the kernel's fault-around, one per 64 KB). Laying the functions that a
compile runs next to each other, hottest first, turns those into a few
hundred faults. The order comes from Valgrind's callgrind (every function that
ran, with its own instruction count) over every N-th kernel of tests/triton,
summed over the kernels; functions that did not run keep their place after.

    tools/symbol-order.py --mgpc build-portable/bin/mgpc [--every 4] [-j 2]
                          [--out cmake/portable-symbol-order.tar.xz]
    tools/symbol-order.py --callgrind FILE... --object NAME [--out ORDER.txt]

The second form orders from callgrind output files already made (of the
object whose path ends in NAME) without running anything; an --out that
does not end in .tar.xz gets the plain list.

Needs valgrind, and torch + triton (to specialize the suite's kernels, as
bench/compile_time.py does). The output is a tar.xz of one text file,
portable-symbol-order.txt, which cmake/MgpLLVM.cmake unpacks into the
portable build and hands to lld; regenerate it when the compiler's code has
moved a lot (a stale order is still valid: lld ignores names it does not
find, and unprofiled functions only lose their grouping).
"""

import argparse
import collections
import concurrent.futures
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(ROOT, "tests", "triton")
NAME = "portable-symbol-order.txt"


def suite_commands(mgpc, every):
    """mgpc command lines (output path "OUT") of every `every`-th kernel."""
    sys.path.insert(0, SUITE)
    os.environ.pop("TRITON_INTERPRET", None)
    from run_suite import load_cases
    from suite.specialize import first_per_kernel, record_specs
    specs, _ = record_specs(load_cases(""), all_shapes=False)
    return [(spec.fn_name, spec.mgpc_command(mgpc, "OUT", arch="sm_90a",
                                             include=os.path.join(SUITE, "kernels")))
            for spec in first_per_kernel(specs)[::every]]


NAMED = re.compile(r"(c?)(fn|ob)=\((\d+)\)(?: (.*))?$")


def self_costs(path, binary, costs):
    """Adds each function's own instruction count (Ir) in `binary` from one
    callgrind output file (compressed names: "(id) name" once, "(id)" after)."""
    names, objects = {}, {}
    function = current_object = None
    skip_next = False
    with open(path, errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\n")
            match = NAMED.match(line)
            if match:
                called, kind, key, text = match.groups()
                table = names if kind == "fn" else objects
                if text is not None:
                    table[key] = text
                if not called:
                    if kind == "fn":
                        function = names[key]
                    else:
                        current_object = objects[key]
                continue
            if line.startswith("calls="):
                skip_next = True  # the next cost line is the call's inclusive cost
                continue
            if line[:1].isdigit() or line[:1] in "+-*":
                if skip_next:
                    skip_next = False
                    continue
                fields = line.split()
                if function and len(fields) >= 2 and current_object and \
                        current_object.endswith(binary):
                    costs[re.sub(r"'\d+$", "", function)] += int(fields[1])


def write_order(costs, out):
    """The functions by cost, highest first (ties by name), one per line:
    a tar.xz holding NAME when `out` ends in .tar.xz, else plain text."""
    ranked = sorted(costs.items(), key=lambda item: (-item[1], item[0]))
    text = "".join(f"{name}\n" for name, _ in ranked).encode()
    if not out.endswith(".tar.xz"):
        with open(out, "wb") as f:
            f.write(text)
        return
    info = tarfile.TarInfo(NAME)
    info.size, info.mtime, info.mode = len(text), 0, 0o644
    with tarfile.open(out, "w:xz", preset=9) as archive:
        archive.addfile(info, io.BytesIO(text))


def profile(valgrind, binary, command, out_file):
    command = [binary if part == command[0] else part for part in command]
    with tempfile.TemporaryDirectory(prefix="mgp-order-") as tmp:
        command = [os.path.join(tmp, "k.ptx") if part == "OUT" else part for part in command]
        result = subprocess.run([valgrind, "--tool=callgrind", "--demangle=no",
                                 "--separate-threads=no", f"--callgrind-out-file={out_file}"]
                                + command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, env=dict(os.environ, MGP_CACHE="off"))
    return result.returncode, result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mgpc", help="a portable (static) mgpc")
    parser.add_argument("--callgrind", nargs="+",
                        help="order from these callgrind output files instead")
    parser.add_argument("--object", help="with --callgrind: the profiled object's path ends in this")
    parser.add_argument("--every", type=int, default=4, help="profile every N-th suite kernel")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=os.path.join(ROOT, "cmake", NAME.replace(".txt", ".tar.xz")))
    args = parser.parse_args()
    if args.callgrind:
        if not args.object:
            parser.error("--callgrind needs --object")
        costs = collections.Counter()
        for output in args.callgrind:
            self_costs(output, args.object, costs)
        if not costs:
            print(f"symbol-order.py: no function of an object ending in {args.object} "
                  "in the callgrind files", file=sys.stderr)
            return 1
        write_order(costs, args.out)
        print(f"symbol-order.py: {len(costs)} functions -> {args.out}")
        return 0
    if not args.mgpc:
        parser.error("--mgpc (or --callgrind) is required")
    valgrind = shutil.which("valgrind")
    if not valgrind:
        print("symbol-order.py: needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    if not os.path.isfile(args.mgpc):
        print(f"symbol-order.py: no mgpc at {args.mgpc}", file=sys.stderr)
        return 2
    costs = collections.Counter()
    with tempfile.TemporaryDirectory(prefix="mgp-order-") as tmp:
        # Valgrind's DWARF reader gives up on the binaries' debug info: profile
        # a copy without it (same code, same symbol names).
        binary = os.path.join(tmp, "mgpc")
        subprocess.run(["strip", "--strip-debug", "-o", binary, args.mgpc], check=True)
        commands = suite_commands(args.mgpc, args.every)
        outputs = [os.path.join(tmp, f"callgrind.{i}") for i in range(len(commands))]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            runs = list(pool.map(lambda item: profile(valgrind, binary, item[0][1], item[1]),
                                 zip(commands, outputs)))
        failed = [name for (name, _), (rc, _) in zip(commands, runs) if rc != 0]
        if failed:
            print(f"symbol-order.py: mgpc failed on {', '.join(failed)}", file=sys.stderr)
            return 1
        for output in outputs:
            self_costs(output, binary, costs)
    write_order(costs, args.out)
    print(f"symbol-order.py: {len(costs)} functions from {len(commands)} kernels "
          f"-> {os.path.relpath(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
