#!/usr/bin/env python3
"""Compares mgp-run's logits with torchvision's ResNet18 on the GPU.

This file implements the PyTorch cross-check for the GPU machine: it loads
torchvision's resnet18 with the same safetensors weights mgp-run used
(`mgp-run --save-weights`), runs it in eval mode on the same float32 NCHW
.npy input (`mgp-run --dump-input`), and prints, for each requested mode
(fp32: TF32 off in cuDNN and matmul; tf32: TF32 on), the top-1 agreement and
the maximum relative error (max |ours - torch| / max |torch|) of our logits
(`mgp-run --dump-logits`), plus PyTorch's time per batch.

    torch_compare.py --weights w.safetensors --input x.npy --logits ours.npy
                     [--modes fp32,tf32] [--device cuda] [--save torch.npy]
Exit status 1 when --max-rel-error is given and exceeded or top-1 differs.
"""

import argparse
import sys
import time

import numpy as np
import torch
import torchvision
from safetensors.torch import load_file


def load_model(weights_path, device):
    state = load_file(weights_path)
    classes = state["fc.weight"].shape[0]
    model = torchvision.models.resnet18(num_classes=classes)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [m for m in missing if not m.endswith("num_batches_tracked")]
    if missing or unexpected:
        sys.exit(f"torch_compare.py: error: weights do not match resnet18: "
                 f"missing {missing}, unexpected {unexpected}")
    return model.eval().to(device)


def set_mode(mode):
    tf32 = mode == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True


def run(model, x, device, repeats=5):
    with torch.no_grad():
        y = model(x)
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(repeats):
            model(x)
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        ms = (time.perf_counter() - start) * 1e3 / repeats
    return y.float().cpu().numpy(), ms


def compare(ours, theirs):
    agree = int((ours.argmax(1) == theirs.argmax(1)).sum())
    rel = float(np.abs(ours.astype(np.float64) - theirs).max() /
                max(np.abs(theirs).max(), 1e-30))
    return agree, rel


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--logits", required=True, help="our logits .npy")
    parser.add_argument("--modes", default="fp32,tf32")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--max-rel-error", type=float,
                        help="fail (exit 1) above this, or when top-1 differs")
    parser.add_argument("--save", help="write torch's logits (last mode) to .npy")
    args = parser.parse_args()

    x_np = np.load(args.input)
    ours = np.load(args.logits)
    if x_np.dtype != np.float32 or x_np.ndim != 4:
        sys.exit(f"torch_compare.py: error: {args.input}: expected float32 NCHW")
    if ours.shape[0] != x_np.shape[0]:
        sys.exit(f"torch_compare.py: error: {args.logits} has {ours.shape[0]} "
                 f"rows, the input {x_np.shape[0]} images")
    model = load_model(args.weights, args.device)
    x = torch.from_numpy(x_np).to(args.device)
    ok = True
    for mode in args.modes.split(","):
        if mode not in ("fp32", "tf32"):
            sys.exit(f"torch_compare.py: error: unknown mode '{mode}'")
        set_mode(mode)
        theirs, ms = run(model, x, args.device)
        if theirs.shape != ours.shape:
            sys.exit(f"torch_compare.py: error: logits {list(ours.shape)} vs "
                     f"torch {list(theirs.shape)}")
        agree, rel = compare(ours, theirs)
        n = ours.shape[0]
        print(f"torch {torch.__version__} {mode} on {args.device}: top-1 "
              f"agreement {agree}/{n} ({100.0 * agree / n:.2f} %), max relative "
              f"error {rel:.3e}; torch {ms:.2f} ms per batch of {n}")
        if args.max_rel_error is not None and (agree != n or rel > args.max_rel_error):
            ok = False
        if args.save:
            np.save(args.save, theirs)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
