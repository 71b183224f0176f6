#!/usr/bin/env python3
"""mgp's interpreter computes Triton's values, bit for bit, expression by expression.

Writes one kernel per (dtype, expression) that loads two 16-element blocks
`a` and `b` of the dtype, evaluates the expression (an operator, a cast, a
math function, a reduction, a scan, a sort, ...) and stores the result; the
result's dtype comes from Triton's front end (no GPU). Each kernel then runs
on the same seeded inputs (finite values; integers in +-1000, divisors never
0 or -1) on Triton's interpreter (TRITON_INTERPRET=1) and on mgp's
(`mgp.jit`, MGP_INTERPRET=1), each in its own process, and the stored bytes
are compared. A difference not in KNOWN, or an entry of KNOWN that agrees
now, is printed and the exit status is 1.

    check_values.py --mgp-library build/lib/libmgp.so [-v]

KNOWN lists where Triton's interpreter (NumPy) is not what Triton's GPU code
computes, so that mgp's interpreter (which follows the GPU) differs, with the
reason; MAY_DIFFER the float sums, whose last bit depends on the order.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import zlib

from check_promotion import load_module, triton_printed_types

DTYPES = ["i8", "u8", "i16", "i32", "u32", "i64", "u64", "fp16", "fp32", "fp64"]
BLOCK = [
    "-a", "~a", "tl.abs(a)", "a // b", "a % b", "a / b", "a >> 3", "a << 3", "a * b", "a + b", "a - b",
    "a.to(tl.float32)", "a.to(tl.int32)", "a.to(tl.int8)", "a.to(tl.uint8)", "a.to(tl.float16)",
    "tl.maximum(a, b)", "tl.minimum(a, b)", "tl.where(a > b, a, b)", "tl.cumsum(a, 0)", "tl.sort(a)",
    "tl.sort(a, descending=True)", "tl.flip(a)", "tl.exp(a)", "tl.sqrt(a)", "tl.floor(a)", "a // 3",
    "a % 3", "a // -3", "a % -3", "a * 3 + 1", "a & b", "a | b", "a ^ b", "(a < b).to(tl.int32)",
    "tl.umulhi(a, b)", "tl.clamp(a, -1.5, 2.5)", "tl.fma(a, b, a)", "tl.cumprod(a, 0)",
    "tl.math.log1p(tl.abs(a))", "tl.erf(a)", "tl.sigmoid(a)", "a.to(tl.float16).to(tl.float32)",
    "tl.gather(a, (b.to(tl.int32) & 15), 0)", "a.to(tl.float32) * 0.1", "a * 0.1", "tl.fdiv(a, b)",
    # Literals from 2**63 to 2**64 - 1 are uint64 (64-bit hash constants).
    "a ^ 0x9E3779B97F4A7C15", "(a + 0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9",
    "(a * 0x94D049BB133111EB) >> 31", "(a * 0xBF58476D1CE4E5B9) // 0x8000000000000001",
    "(a * 0xBF58476D1CE4E5B9 < 0xC000000000000000).to(tl.int32)"]
SCALAR = ["tl.sum(a, 0)", "tl.max(a, 0)", "tl.min(a, 0)", "tl.argmax(a, 0)", "tl.argmin(a, 0)",
          "tl.xor_sum(a, 0)"]
FLOATS = ("fp16", "fp32", "fp64")
KNOWN = {
    **{(d, "tl.fma(a, b, a)"): "Triton's interpreter rounds a * b, then the sum; the GPU's fma "
       "rounds once" for d in FLOATS},
    **{(d, "a.to(tl.uint8)"): "negative floats to uint8 are out of range: NumPy wraps, the GPU's "
       "cvt.rzi.u8 saturates" for d in FLOATS},
    ("fp32", "tl.exp(a)"): "the GPU's (and mgp's) fp32 exp is ex2.approx.f32(x * log2(e)); NumPy's "
    "exp is correctly rounded",
    ("fp32", "tl.sigmoid(a)"): "uses exp (above)",
    ("i32", "tl.umulhi(a, b)"): "Triton's interpreter multiplies int32 as signed; the GPU's "
    "__nv_umulhi (and mgp) as unsigned",
    **{(d, "tl.fma(a, b, a)"): "Triton's GPU compile rejects an integer fma (math.fma takes "
       "floats); mgp says so at compile time, Triton's interpreter computes it"
       for d in DTYPES if d not in FLOATS},
}
# Float sums: the GPU adds in a tree (lanes, then warps), NumPy left to right,
# so the last bit may or may not agree, depending on the inputs.
# fp64 exp (and sigmoid, which uses it): libdevice's __nv_exp on the GPU,
# NumPy's exp here; the last bit differs for some inputs.
MAY_DIFFER = {(d, "tl.sum(a, 0)") for d in FLOATS} | {("fp64", "tl.exp(a)"),
                                                     ("fp64", "tl.sigmoid(a)")}


def write_kernels(path):
    cases, lines = [], ["import triton", "import triton.language as tl", ""]
    for dtype in DTYPES:
        for expr in BLOCK + SCALAR:
            scalar = expr in SCALAR
            lines += ["@triton.jit", f"def k_{len(cases)}(a_ptr, b_ptr, o_ptr):",
                      "    o = tl.arange(0, 16)", "    a = tl.load(a_ptr + o)",
                      "    b = tl.load(b_ptr + o)", f"    r = {expr}",
                      "    tl.static_print('R', r.dtype)",
                      "    tl.store(o_ptr, r)" if scalar else "    tl.store(o_ptr + o, r)", ""]
            cases.append((dtype, expr, scalar))
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return cases


def result_types(path, cases):
    """Each kernel's result dtype by Triton's front end (None: rejected)."""
    types = triton_printed_types(path, [{"a_ptr": f"*{dtype}", "b_ptr": f"*{dtype}",
                                          "o_ptr": "*fp64"} for dtype, _, _ in cases],
                                 keep_printed=True)
    return [None if t == "error" else t for t in types]


def run_side(side, path, cases_path, out_path):
    """In a child process: runs every typed kernel on one interpreter."""
    import numpy as np
    import torch
    torch_types = {
        "i8": torch.int8, "u8": torch.uint8, "i16": torch.int16, "i32": torch.int32,
        "u32": torch.uint32, "i64": torch.int64, "u64": torch.uint64, "uint64": torch.uint64,
        "fp16": torch.float16, "fp32": torch.float32,
        "fp64": torch.float64, "int1": torch.bool, "int8": torch.int8, "uint8": torch.uint8,
        "int16": torch.int16, "int32": torch.int32, "uint32": torch.uint32, "int64": torch.int64}
    module = load_module(path, "value_kernels")
    if side == "mgp":
        import mgp
    with open(cases_path) as f:
        cases, types = json.load(f)
    results = {}
    for index, ((dtype, expr, scalar), rtype) in enumerate(zip(cases, types)):
        if rtype not in torch_types:
            continue
        # Seeded by the case, so that adding cases keeps the others' inputs.
        rng = np.random.default_rng(zlib.crc32(f"{dtype} {expr}".encode()))
        t = torch_types[dtype]
        if t.is_floating_point:
            a, b = (torch.tensor(rng.standard_normal(16) * 4).to(t) for _ in range(2))
        else:
            lo = 0 if dtype.startswith("u") else -1000
            a, b = (rng.integers(lo, 1000, 16, endpoint=True) for _ in range(2))
            b[b == 0], b[b == -1] = 1, 2
            a, b = torch.tensor(a).to(t), torch.tensor(b).to(t)
        out = torch.zeros(1 if scalar else 16, dtype=torch_types[rtype])
        kernel = getattr(module, f"k_{index}")
        try:
            (mgp.jit(kernel) if side == "mgp" else kernel)[(1,)](a, b, out)
            raw = {torch.uint32: torch.int32, torch.uint64: torch.int64}.get(out.dtype)
            raw = out if raw is None else out.view(raw)
            results[str(index)] = raw.view(torch.uint8).numpy().tobytes().hex()
        except Exception as e:  # noqa: BLE001 - reported as the result
            results[str(index)] = "error: " + (str(e).splitlines() or [type(e).__name__])[0]
    with open(out_path, "w") as f:
        json.dump(results, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mgp-library", required=True)
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--side", choices=["triton", "mgp"], help=argparse.SUPPRESS)
    parser.add_argument("--files", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        return run_side(args.side, *args.files)
    try:
        import torch  # noqa: F401
        import triton  # noqa: F401
    except ImportError:
        print("check_values.py: skipped: needs torch and triton (pip install torch triton)")
        return 77
    if not os.path.exists(args.mgp_library):
        print(f"check_values.py: skipped: no {args.mgp_library}")
        return 77
    os.environ.pop("TRITON_INTERPRET", None)
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory(prefix="mgp-values-") as tmp:
        path = os.path.join(tmp, "value_kernels.py")
        cases = write_kernels(path)
        types = result_types(path, cases)
        cases_path = os.path.join(tmp, "cases.json")
        with open(cases_path, "w") as f:
            json.dump([cases, types], f)
        results = {}
        for side in ("triton", "mgp"):
            env = dict(os.environ)
            if side == "triton":
                env["TRITON_INTERPRET"] = "1"
            else:
                env.update(MGP_INTERPRET="1", MGP_LIBRARY=os.path.abspath(args.mgp_library),
                           PYTHONPATH=os.path.join(here, "..", "..", "python") + os.pathsep +
                           env.get("PYTHONPATH", ""))
            out_path = os.path.join(tmp, f"{side}.json")
            run = subprocess.run([sys.executable, os.path.abspath(__file__), "--mgp-library",
                                  args.mgp_library, "--side", side, "--files", path, cases_path,
                                  out_path], env=env, capture_output=True, text=True)
            if run.returncode != 0 or not os.path.exists(out_path):
                print(f"the {side} interpreter run failed:\n{run.stdout}{run.stderr}")
                return 1
            with open(out_path) as f:
                results[side] = json.load(f)
    same, both_fail, known, problems = 0, 0, 0, []
    for key, theirs in results["triton"].items():
        dtype, expr, _ = cases[int(key)]
        ours = results["mgp"].get(key, "error: not run")
        reason = KNOWN.get((dtype, expr))
        if (dtype, expr) in MAY_DIFFER and theirs != ours and not ours.startswith("error"):
            known += 1
        elif theirs.startswith("error") and ours.startswith("error"):
            both_fail += 1
        elif theirs.startswith("error"):
            if args.verbose:
                print(f"  Triton's interpreter fails, mgp runs: {dtype} {expr}: {theirs[:100]}")
            both_fail += 1
        elif ours.startswith("error") and reason:
            known += 1
        elif ours.startswith("error"):
            problems.append(f"  {dtype} {expr}: mgp fails: {ours[:160]}")
        elif theirs == ours:
            same += 1
            if reason:
                problems.append(f"  {dtype} {expr}: listed in KNOWN but agrees now: remove it")
        elif reason:
            known += 1
            if args.verbose:
                print(f"  known: {dtype} {expr}: {reason}")
        else:
            problems.append(f"  {dtype} {expr} ({types[int(key)]}): values differ")
    print(f"{len(results['triton'])} kernels: {same} give Triton's interpreter's bytes, {known} "
          f"differ as KNOWN lists, {both_fail} fail in Triton's interpreter, {len(problems)} "
          f"problems")
    print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
