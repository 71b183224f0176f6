#!/usr/bin/env python3
"""Every kernel specialization ResNet18 needs, through mgpc and ptxas.

This file implements the `ptx`-labelled ctest of tests/models: it asks
`mgp-run --list-kernels` which (file, kernel, signature, warps) the folded
and fused ResNet18 needs at a batch, size and precision, compiles each with
`mgpc kernels_dsl/FILE -k KERNEL --signature SIG --num-warps W -emit=ptx`,
and assembles
the PTX with `ptxas -arch=sm_90`. Any failure names the specialization.

    check_ptx.py --mgp-run P --mgpc P --ptxas P --source-dir DIR
                 [--batch 128] [--size 224] [--precision tf32]
"""

import argparse
import os
import subprocess
import sys
import tempfile


def run(cmd):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    return result.returncode, result.stdout


def main():
    parser = argparse.ArgumentParser()
    for name in ("--mgp-run", "--mgpc", "--ptxas", "--source-dir"):
        parser.add_argument(name, required=True)
    parser.add_argument("--batch", default="128")
    parser.add_argument("--size", default="224")
    parser.add_argument("--precision", default="tf32")
    args = parser.parse_args()

    rc, out = run([args.mgp_run, os.path.join(args.source_dir, "models",
                                              "resnet18.graph"),
                   "--list-kernels", "--batch", args.batch, "--size", args.size,
                   "--precision", args.precision])
    if rc != 0:
        sys.exit("mgp-run --list-kernels failed:\n" + out)
    specs = [line.split() for line in out.splitlines() if line.strip()]
    if not specs:
        sys.exit("mgp-run --list-kernels listed nothing")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="mgp-ptx-") as tmp:
        for i, (file, kernel, signature, warps) in enumerate(specs):
            ptx = os.path.join(tmp, f"{i}.ptx")
            what = f"{file} {kernel} {signature} ({warps} warps)"
            rc, out = run([args.mgpc, os.path.join(args.source_dir, "kernels_dsl",
                                                   file), "-k", kernel,
                           "--signature", signature, "--num-warps", warps,
                           "-emit=ptx", "-o", ptx])
            if rc == 0:
                rc, out = run([args.ptxas, "-arch=sm_90", ptx, "-o",
                               os.path.join(tmp, f"{i}.cubin")])
            print(f"{'ok  ' if rc == 0 else 'FAIL'} {what}", flush=True)
            if rc != 0:
                print(out)
                failed += 1
    print(f"{len(specs) - failed}/{len(specs)} specializations compile and "
          f"assemble")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
