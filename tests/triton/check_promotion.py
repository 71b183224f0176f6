#!/usr/bin/env python3
"""mgp's result types of binary operators and builtins are Triton's.

Writes one kernel per (left operand, right operand, operator) that loads a
block of the left type and applies the operator to a block of the right type,
to an inline Python literal (int, float, bool, an int past 31, 32 or 63 bits) or
to a local assigned such a number (`s = 2.5`: Triton holds it as a 0-d
tensor), and one per pair of locals or local and literal; then one per
(dtype, unary operator or builtin: -a, tl.exp(a), tl.sum(a, 0),
tl.maximum(a, 1), ...). Each prints the result's dtype with tl.static_print.
Triton's front end (the IR-building step of triton.compile, no GPU) and
`mgpc -emit=mlir` each compile every kernel; the two dtypes (or "error") are
compared. mgp is more lenient than Triton in one way only, which is allowed:
where Triton rejects a combination (bool with // or %, a literal out of the
block type's range, a float-only builtin of an integer block), mgp may give a
type. Any other difference is printed and the exit status is 1.

    check_promotion.py --mgpc build/bin/mgpc [-j JOBS] [--ops "+,&"]
                       [--no-builtins] [-v]

-v also lists the combinations Triton rejects and mgp compiles.
"""

import argparse
import contextlib
import importlib.util
import io
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

DTYPES = ["i1", "i8", "u8", "i16", "i32", "u32", "i64", "fp16", "bf16", "fp32", "fp64"]
LITERALS = {"int": "3", "float": "2.5", "bool": "True", "int64": "4294967296",
            "uint32": "3000000000", "uint64": "0x9E3779B97F4A7C15"}
LOCALS = {f"local {kind}": value for kind, value in LITERALS.items()}
LOCALS["local fp64"] = "1e-300"  # below fp32's range: an fp64 scalar
OPERATORS = ["+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>", "<", "=="]
# Unary operators and builtins applied to a block `a` of each dtype (the
# second table).
BUILTINS = [
    "-a", "~a", "tl.abs(a)", "tl.exp(a)", "tl.exp2(a)", "tl.log(a)", "tl.sqrt(a)", "tl.rsqrt(a)",
    "tl.sin(a)", "tl.floor(a)", "tl.ceil(a)", "tl.erf(a)", "tl.sigmoid(a)", "tl.div_rn(a, a)",
    "tl.fdiv(a, a)",
    "tl.sqrt_rn(a)", "tl.math.log1p(a)", "tl.sum(a, 0)", "tl.max(a, 0)", "tl.min(a, 0)",
    "tl.argmax(a, 0)", "tl.max(a, 0, return_indices=True)[1]", "tl.xor_sum(a, 0)",
    "tl.reduce_or(a, 0)", "tl.sum(a, 0, dtype=tl.float32)", "tl.cumsum(a, 0)", "tl.cumprod(a, 0)",
    "tl.sort(a)", "tl.flip(a)", "tl.softmax(a)", "tl.where(a > 0, a, 1)", "tl.where(a > 0, a, 1.5)",
    "tl.maximum(a, 1)", "tl.minimum(a, 1.5)", "tl.maximum(a, a)", "max(a, 2)", "tl.fma(a, a, a)",
    "tl.clamp(a, 0, 1)", "tl.clamp(a, 0.0, 1.0)", "tl.umulhi(a, a)", "a.to(tl.float32)",
    "tl.histogram(a, 4)", "tl.interleave(a, a)", "tl.join(a, a)", "tl.ravel(a)",
    "tl.gather(a, tl.arange(0, 16), 0)", "tl.cat(a, a, can_reorder=True)", "tl.reshape(a, (4, 4))",
    "tl.sum(a, keep_dims=True)", "tl.cumsum(a, 0, reverse=True)", "tl.where(a > 0, 1.0, 2)",
    "a.to(tl.int1)", "tl.atomic_add(a_ptr + tl.arange(0, 16), 1)",
    "tl.atomic_max(a_ptr + tl.arange(0, 16), a)", "tl.atomic_cas(a_ptr + tl.arange(0, 16), a, a)",
    "tl.load(a_ptr + tl.arange(0, 16), mask=a > 0, other=1.5)"]


def write_kernels(path, operators, builtins):
    cases, lines = [], ["import triton", "import triton.language as tl", ""]
    for left in DTYPES:
        for expr in builtins:
            cases.append((left, "builtin", expr))
            lines += ["@triton.jit", f"def k_{len(cases) - 1}(a_ptr, b_ptr):",
                      "    a = tl.load(a_ptr + tl.arange(0, 16))",
                      f"    tl.static_print('R', ({expr}).dtype)", ""]
    pairs = [(left, right) for left in DTYPES for right in DTYPES + list(LITERALS) + list(LOCALS)]
    pairs += [(left, right) for left in LOCALS for right in list(LITERALS) + list(LOCALS)]
    for left, right in pairs:
        for op in operators:
            index = len(cases)
            cases.append((left, right, op))
            lines += ["@triton.jit", f"def k_{index}(a_ptr, b_ptr):"]
            if left in DTYPES:
                lines.append("    a = tl.load(a_ptr + tl.arange(0, 16))")
            else:
                lines.append(f"    a = {LOCALS[left]}")
            if right in DTYPES:
                lines.append("    b = tl.load(b_ptr + tl.arange(0, 16))")
            elif right in LOCALS:
                lines.append(f"    b = {LOCALS[right]}")
            rhs = LITERALS[right] if right in LITERALS else "b"
            lines += [f"    tl.static_print('R', (a {op} {rhs}).dtype)", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return cases


def signature(case):
    left, right, _ = case
    return f"*{left if left in DTYPES else 'i32'}", f"*{right if right in DTYPES else 'i32'}"


def printed_type(text):
    found = [line[2:].strip() for line in text.splitlines() if line.startswith("R ")]
    return found[0] if found else None


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def triton_printed_types(path, signatures, keep_printed=False):
    """What each kernel k_I of the file at `path` prints with
    tl.static_print('R', ...) under Triton's front end (the IR-building step of
    triton.compile for sm_90, no GPU) with signature signatures[I], or "error"
    where Triton rejects it (with `keep_printed`, what it printed before a
    later rejection, such as its verifier's, still counts)."""
    import triton
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import make_backend
    module = load_module(path, "printed_type_kernels")
    target = GPUTarget("cuda", 90, 32)
    backend = make_backend(target)
    options = backend.parse_options({})

    def one(index, signature):
        source = triton.compiler.ASTSource(fn=getattr(module, f"k_{index}"),
                                           signature=signature)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                context = ir.context()
                ir.load_dialects(context)
                backend.load_dialects(context)
                source.make_ir(target, options, backend.get_codegen_implementation(options),
                               backend.get_module_map(), context)
            return printed_type(out.getvalue()) or "error"
        except Exception:
            return (keep_printed and printed_type(out.getvalue())) or "error"

    # Triton's MLIR verifier prints the kernels it rejects on file
    # descriptor 2 (not sys.stderr): silence it while its front end runs.
    saved_stderr = os.dup(2)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 2)
    try:
        return [one(index, signature) for index, signature in enumerate(signatures)]
    finally:
        os.dup2(saved_stderr, 2)
        os.close(saved_stderr)


def triton_types(path, cases):
    return triton_printed_types(path, [dict(zip(("a_ptr", "b_ptr"), signature(case)))
                                       for case in cases])


def mgp_types(mgpc, path, cases, jobs):
    def one(index):
        a, b = signature(cases[index])
        result = subprocess.run([mgpc, path, "-k", f"k_{index}", "--signature", f"{a},{b}",
                                 "-emit=mlir", "-o", os.devnull], capture_output=True, text=True,
                                env=dict(os.environ, MGP_CACHE="off"))
        found = printed_type(result.stdout + result.stderr)
        return found if found and result.returncode == 0 else "error"
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, range(len(cases))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mgpc", required=True)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--ops", default=",".join(OPERATORS))
    parser.add_argument("--no-builtins", dest="builtins", action="store_false",
                        help="only the binary operators")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    try:
        import triton  # noqa: F401
    except ImportError:
        print("check_promotion.py: needs triton (pip install triton)")
        return 2
    os.environ.pop("TRITON_INTERPRET", None)
    with tempfile.TemporaryDirectory(prefix="mgp-promotion-") as tmp:
        path = os.path.join(tmp, "promotion_kernels.py")
        cases = write_kernels(path, [op for op in args.ops.split(",") if op],
                              BUILTINS if args.builtins else [])
        theirs = triton_types(path, cases)
        ours = mgp_types(args.mgpc, path, cases, args.jobs)
    same = lenient = 0
    wrong = []
    for case, t, m in zip(cases, theirs, ours):
        if t == m:
            same += 1
        elif t == "error":
            lenient += 1
            if args.verbose:
                print(f"  lenient: a: {case[0]} {case[2]} b: {case[1]}: mgp {m}")
        else:
            wrong.append(f"  a: {case[0]} {case[2]} b: {case[1]}: Triton {t}, mgp {m}"
                         if case[1] != "builtin" else f"  a: {case[0]}: {case[2]}: Triton {t}, mgp {m}")
    print(f"{len(cases)} combinations: {same} give Triton's result, {lenient} that Triton "
          f"rejects compile in mgp, {len(wrong)} differ")
    print("\n".join(wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
