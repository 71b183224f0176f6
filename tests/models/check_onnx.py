#!/usr/bin/env python3
"""ResNet18 logits from mgp-run against ONNX Runtime's.

This file implements the `reference`-labelled ctest of tests/models: in a
temporary directory it has mgp-run write seeded weights (--save-weights) and
run a seeded batch (--dump-input, --dump-logits) on each requested device,
builds the same network in ONNX from those weights (tools/onnx_reference.py),
and requires, per device, finite logits, the same top-1 class for every image
and a maximum relative error (max |ours - onnx| / max |onnx|) below the
tolerance.

    check_onnx.py --mgp-run PATH --source-dir DIR [--devices reference,cpu]
                  [--batch 2] [--size 64] [--tolerance 1e-4]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np


def run(cmd):
    print("+ " + " ".join(cmd), flush=True)
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    if result.returncode != 0:
        sys.exit(f"FAILED ({result.returncode}):\n{result.stdout}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mgp-run", required=True)
    parser.add_argument("--source-dir", required=True)
    parser.add_argument("--devices", default="reference")
    parser.add_argument("--batch", default="2")
    parser.add_argument("--size", default="64")
    parser.add_argument("--seed", default="7")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args()

    graph = os.path.join(args.source_dir, "models", "resnet18.graph")
    onnx_script = os.path.join(args.source_dir, "tools", "onnx_reference.py")
    common = [args.mgp_run, graph, "--batch", args.batch, "--size", args.size,
              "--seed", args.seed]
    with tempfile.TemporaryDirectory(prefix="mgp-onnx-") as tmp:
        weights = os.path.join(tmp, "w.safetensors")
        x = os.path.join(tmp, "x.npy")
        run(common + ["--save-weights", weights])
        logits = {}
        for device in args.devices.split(","):
            out = os.path.join(tmp, device + ".npy")
            run(common + ["--weights", weights, "--device", device,
                          "--precision", "fp32", "--dump-input", x,
                          "--dump-logits", out])
            logits[device] = np.load(out)
        onnx_out = os.path.join(tmp, "onnx.npy")
        print(run([sys.executable, onnx_script, "--weights", weights, "--input", x,
                   "--output", onnx_out]), end="")
        want = np.load(onnx_out).astype(np.float64)

    failed = False
    for device, got in logits.items():
        if got.shape != want.shape:
            sys.exit(f"{device}: logits {list(got.shape)}, onnx {list(want.shape)}")
        bad = np.argwhere(~np.isfinite(got) | ~np.isfinite(want))
        if bad.size:
            where = tuple(int(i) for i in bad[0])
            print(f"{device} vs onnxruntime: NaN/Inf at {list(where)} "
                  f"({got[where]} against {want[where]}), {len(bad)} such: FAIL")
            failed = True
            continue
        agree = int((got.argmax(1) == want.argmax(1)).sum())
        rel = float(np.abs(got - want).max() / np.abs(want).max())
        ok = agree == got.shape[0] and rel < args.tolerance
        failed |= not ok
        print(f"{device} vs onnxruntime: top-1 agreement {agree}/{got.shape[0]}, "
              f"max relative error {rel:.3e} (tolerance {args.tolerance:.0e}): "
              f"{'ok' if ok else 'FAIL'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
