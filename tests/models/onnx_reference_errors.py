#!/usr/bin/env python3
"""The user-facing errors of tools/onnx_reference.py.

This file implements a ctest that runs tools/onnx_reference.py on inputs it
must refuse, each written to a temporary directory: weights missing tensors
ResNet18 needs (the first conv's, a BatchNorm's), an input that is not float32, and one that is not [N, 3, H, W].
Each run must fail with its own message and write no output.
"""

import os
import subprocess
import sys
import tempfile

import numpy as np
from safetensors.numpy import save_file


def expect_error(script, args, message):
    result = subprocess.run([sys.executable, script] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode == 0 or message not in result.stdout:
        sys.exit(f"expected failure with '{message}', got {result.returncode}:\n"
                 f"{result.stdout}")
    print(f"ok: {message}")


def main():
    script = os.path.join(sys.argv[1], "tools", "onnx_reference.py")
    with tempfile.TemporaryDirectory(prefix="mgp-onnx-err-") as tmp:
        weights = os.path.join(tmp, "w.safetensors")
        save_file({"conv1.weight": np.ones((64, 3, 7, 7), np.float32)}, weights)
        empty = os.path.join(tmp, "empty.safetensors")
        save_file({"fc.bias": np.ones((4,), np.float32)}, empty)
        good = os.path.join(tmp, "x.npy")
        np.save(good, np.ones((1, 3, 32, 32), np.float32))
        f64 = os.path.join(tmp, "x64.npy")
        np.save(f64, np.ones((1, 3, 32, 32), np.float64))
        gray = os.path.join(tmp, "gray.npy")
        np.save(gray, np.ones((1, 1, 32, 32), np.float32))
        out = os.path.join(tmp, "y.npy")
        expect_error(script, ["--weights", weights, "--input", good, "--output", out],
                     "onnx_reference.py: error: weights have no 'bn1.weight'")
        expect_error(script, ["--weights", empty, "--input", good, "--output", out],
                     "onnx_reference.py: error: weights have no 'conv1.weight'")
        expect_error(script, ["--weights", weights, "--input", f64, "--output", out],
                     "expected float32 [N, 3, H, W], got float64 [1, 3, 32, 32]")
        expect_error(script, ["--weights", weights, "--input", gray, "--output", out],
                     "expected float32 [N, 3, H, W], got float32 [1, 1, 32, 32]")
        if os.path.exists(out):
            sys.exit("an output was written despite the errors")


if __name__ == "__main__":
    main()
