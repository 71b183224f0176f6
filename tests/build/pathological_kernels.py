#!/usr/bin/env python3
"""Valid but pathological kernels: mgpc ends in time, with PTX or a located error.

Each case is a generated source file that is legal Python and a plausible
(if extreme) Triton kernel: deep nesting of blocks and expressions, thousands
of helper functions, a chain of helpers deeper than the inliner allows, huge
blocks, a long file of host code. mgpc must finish within its time limit and
either succeed or fail with a located diagnostic (`file:line:col: error:`),
never crash (a signal), hang, or print an unlocated error.

Usage: pathological_kernels.py MGPC WORKDIR
"""
import os
import re
import subprocess
import sys
import time

LOCATED = re.compile(r"[^\s:]+\.py:\d+:\d+: error: ")

HEADER = "import triton\nimport triton.language as tl\n\n"


def nested_ifs(depth):
    lines = [HEADER, "@triton.jit\ndef k(x_ptr, n):\n", "    v = tl.load(x_ptr)\n"]
    for d in range(depth):
        lines.append("    " * (d + 1) + f"if n > {d}:\n")
        lines.append("    " * (d + 2) + "v = v + 1.0\n")
    lines.append("    tl.store(x_ptr, v)\n")
    return "".join(lines)


def unary_chain(length):
    return (HEADER + "@triton.jit\ndef k(x_ptr):\n    v = tl.load(x_ptr)\n"
            f"    tl.store(x_ptr, {'-' * length} v)\n")


def long_sum(terms):
    expr = " + ".join(["v"] * terms)
    return (HEADER + "@triton.jit\ndef k(x_ptr):\n    v = tl.load(x_ptr)\n"
            f"    tl.store(x_ptr, {expr})\n")


def many_helpers(count):
    helpers = "".join(f"@triton.jit\ndef h{i}(v):\n    return v + {i}.0\n\n"
                      for i in range(count))
    calls = "".join(f"    v = h{i}(v)\n" for i in range(count))
    return (HEADER + helpers + "@triton.jit\ndef k(x_ptr):\n"
            "    v = tl.load(x_ptr)\n" + calls + "    tl.store(x_ptr, v)\n")


def deep_call_chain(depth):
    helpers = "".join(f"@triton.jit\ndef h{i}(v):\n    return h{i + 1}(v) + 1.0\n\n"
                      for i in range(depth))
    helpers += f"@triton.jit\ndef h{depth}(v):\n    return v\n\n"
    return (HEADER + helpers + "@triton.jit\ndef k(x_ptr):\n"
            "    tl.store(x_ptr, h0(tl.load(x_ptr)))\n")


def huge_block(log2):
    return (HEADER + "@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n"
            "    offs = tl.arange(0, BLOCK)\n"
            "    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2.0)\n",
            f"{1 << log2}")


def host_code(lines):
    body = "".join(f"value_{i} = [j * {i} for j in range(3)]\n" for i in range(lines))
    return (HEADER + body + "@triton.jit\ndef k(x_ptr):\n"
            "    tl.store(x_ptr, tl.load(x_ptr) + 1.0)\n")


# name, source (or (source, constexpr)), signature, seconds allowed
CASES = [
    ("nested-ifs-100", nested_ifs(100), "*fp32,i32", 60),
    ("unary-chain-20000", unary_chain(20000), "*fp32", 60),
    ("long-sum-1000", long_sum(1000), "*fp32", 60),
    ("long-sum-5000", long_sum(5000), "*fp32", 60),
    ("helpers-2000", many_helpers(2000), "*fp32", 120),
    ("call-chain-500", deep_call_chain(500), "*fp32", 60),
    ("block-2^16", huge_block(16), "*fp32", 60),
    ("block-2^26", huge_block(26), "*fp32", 60),
    ("host-code-20000-lines", host_code(20000), "*fp32", 60),
]


def main():
    mgpc, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    failures = 0
    for name, source, signature, limit in CASES:
        if isinstance(source, tuple):
            source, constexpr = source
            signature = signature + "," + constexpr
        path = os.path.join(work, name + ".py")
        with open(path, "w") as f:
            f.write(source)
        out_path = os.path.join(work, name + ".ptx")
        if os.path.exists(out_path):
            os.remove(out_path)
        start = time.monotonic()
        try:
            result = subprocess.run(
                [mgpc, path, "-k", "k", "--signature", signature, "-o", out_path],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=limit)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: still running after {limit} s")
            failures += 1
            continue
        seconds = time.monotonic() - start
        text = result.stdout.decode("utf-8", "replace")
        first = text.strip().splitlines()[0] if text.strip() else ""
        if result.returncode == 0:
            ok = os.path.getsize(out_path) > 0
            verdict = "compiled" if ok else "exit 0 without PTX"
        elif result.returncode == 1:
            ok = bool(LOCATED.search(text)) and not os.path.exists(out_path)
            verdict = ("located error" if ok else
                       "error without a location, or a partial output file")
        else:
            ok = False
            verdict = f"exit status {result.returncode} (a crash?)"
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {verdict} in {seconds:.1f} s"
              + (f": {first}" if result.returncode else ""))
        if not ok:
            print(text[-2000:])
            failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
