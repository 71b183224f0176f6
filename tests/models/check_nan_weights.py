#!/usr/bin/env python3
"""mgp-run --check does not pass a model whose weights hold a NaN.

This file implements a ctest of tests/models: mgp-run writes seeded weights
(--save-weights), one NaN is planted in fc.bias (one logit of every image
becomes NaN on every device, the reference included), and `mgp-run --check`
on the cpu device must then fail with a message naming the NaN and its
position, where the same weights without the NaN pass.

    check_nan_weights.py --mgp-run PATH --graph models/resnet18.graph
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from safetensors.numpy import load_file, save_file


def run(cmd):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    print("+ " + " ".join(cmd) + f"  (exit {result.returncode})")
    print(result.stdout, end="")
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mgp-run", required=True)
    parser.add_argument("--graph", required=True)
    args = parser.parse_args()
    common = [args.mgp_run, args.graph, "--batch", "2", "--size", "32",
              "--device", "cpu", "--precision", "fp32"]
    failures = []
    with tempfile.TemporaryDirectory(prefix="mgp-nan-") as tmp:
        clean = os.path.join(tmp, "clean.safetensors")
        planted = os.path.join(tmp, "nan.safetensors")
        if run(common + ["--save-weights", clean]).returncode != 0:
            sys.exit("FAILED: could not write the weights")
        weights = load_file(clean)
        bias = weights["fc.bias"].copy()
        bias[417] = np.nan
        weights["fc.bias"] = bias
        save_file(weights, planted)

        ok = run(common + ["--weights", clean, "--check"])
        if ok.returncode != 0:
            failures.append("the clean weights do not pass --check")
        bad = run(common + ["--weights", planted, "--check"])
        if bad.returncode != 1:
            failures.append(f"--check with a NaN in fc.bias exited "
                            f"{bad.returncode}, expected 1")
        if "--check failed" not in bad.stdout:
            failures.append("no '--check failed' message")
        if "NaN at [417]" not in bad.stdout:
            failures.append("the message does not name the NaN at [417]")
    for failure in failures:
        print("FAILED: " + failure)
    if not failures:
        print("ok: the clean weights pass --check; a NaN in fc.bias fails it")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
