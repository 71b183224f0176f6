#!/usr/bin/env python3
"""Every kernel of the suite is valid Triton: triton.compile accepts it.

Records the launches of every case's host code (all shapes; suite/specialize.py
turns each into the specialization Triton's JIT would make) and compiles each
distinct one with
    triton.compile(triton.compiler.ASTSource(fn, signature, constexprs, attrs),
                   target=GPUTarget("cuda", 90, 32), options={"num_warps": W})
which runs Triton's whole pipeline down to a cubin (Triton's bundled ptxas)
without a GPU. Prints one line per specialization, exits 1 if any fails.

    check_triton_compile.py [-k REGEX] [--first-shape] [-j JOBS]
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_one(spec):
    import triton
    from triton.backends.compiler import GPUTarget
    start = time.time()
    try:
        triton.compile(spec.ast_source(), target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": spec.num_warps})
        return True, "", time.time() - start
    except Exception as error:
        text = str(error).strip().splitlines()
        return False, f"{type(error).__name__}: {' | '.join(text[-3:]) if text else ''}", \
            time.time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", "--filter", default="")
    parser.add_argument("--first-shape", action="store_true",
                        help="only the specializations of each case's first shape")
    args = parser.parse_args()
    sys.path.insert(0, HERE)
    os.environ.pop("TRITON_INTERPRET", None)
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from run_suite import load_cases
    from suite.specialize import record_specs
    cases = load_cases(args.filter)
    specs, errors = record_specs(cases, all_shapes=not args.first_shape)
    failed = len(errors)
    for case, shape, error in errors:
        print(f"FAIL record {case} {shape}: {error}")
    start = time.time()
    skip_reasons = {c.name: c.skip.get("triton-compile") for c in cases}
    skipped = 0
    for spec in specs:
        if skip_reasons[spec.case]:
            skipped += 1
            print(f"skip {spec.case:<34} {spec.fn_name:<30} {skip_reasons[spec.case]}")
            continue
        ok, message, seconds = compile_one(spec)
        failed += not ok
        defines = " ".join(spec.mgpc_defines())
        print(f"{'ok  ' if ok else 'FAIL'} {spec.case:<34} {spec.fn_name:<30} "
              f"{spec.mgpc_signature()} {defines} w{spec.num_warps} ({seconds:.1f}s)"
              + (f"\n     {message}" if message else ""), flush=True)
    kernels = {(s.file, s.fn_name) for s in specs}
    print(f"\n{len(specs) - skipped - (failed - len(errors))}/{len(specs) - skipped} "
          f"specializations of {len(kernels)} kernels compile with triton.compile for "
          f"sm_90, {skipped} skipped ({time.time() - start:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
