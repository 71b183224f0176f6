#!/usr/bin/env python3
"""Checks that a refactoring leaves the generated code and ResNet18's logits unchanged.

Compiles every kernel of tools/ptx-identity/kernels.txt (the kernels_dsl kernels at the specializations ResNet18
uses, at every --precision and at the conv tuner's configurations, and the conformance kernels at representative
signatures) with mgpc for sm_90a and sm_80, runs ResNet18 on the interpreter (`--device cpu`, every precision) and
on the reference executor, and writes one manifest line per result: the SHA-256 of the PTX or of the logits .npy.

    tools/check-ptx-identity.py record BUILD MANIFEST   # e.g. on main before a change
    tools/check-ptx-identity.py check BUILD MANIFEST    # after it: exit 1 and the differing lines if any
    tools/check-ptx-identity.py list BUILD              # regenerate kernels.txt from `mgp-run --list-kernels`
    tools/check-ptx-identity.py compare A.ptx B.ptx     # how two PTX files differ (as check reports it)

A PTX line of the manifest also holds the hash of the PTX with its register numbers dropped (`norm=`) and the
instruction count of each loop body, label to backward branch (`loops=`), so that check says of a kernel whose PTX
changed whether only register numbers moved, whether its loops kept their instruction counts, or how those changed.

BUILD is a build folder (its bin/mgpc and bin/mgp-run are used). The kernel list is committed so that the same
compilations are made before and after a change, even one that changes what --list-kernels prints.
"""

import argparse
import concurrent.futures
import hashlib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "tools", "ptx-identity", "kernels.txt")
ARCHS = ["sm_90a", "sm_80"]
PRECISIONS = ["fp32", "tf32", "fp16", "bf16"]
# The conv tuner's candidates (graph/tune/ConvTuner.cpp: BM,BN,BK,warps,stages; the sm_90a lists' too), forced
# through MGP_CONV_CONFIG, plus the default plan (no override).
CONV_CONFIGS = [None, "128,64,16,8,3", "64,64,16,4,3", "128,64,32,8,3", "64,128,32,8,3", "128,128,16,8,3",
                "64,64,32,4,4", "128,64,16,8,2", "32,64,32,4,3", "128,128,32,8,3", "128,128,64,8,2",
                "128,128,64,8,3", "256,64,32,8,4", "128,64,32,4,3", "128,64,64,4,3"]
# Model runs the list is made from: (batch, size, precisions, conv configs). The tuner's candidates at the
# benchmark's size in tf32 and fp16; every precision's default plan at that size and at the logits check's.
MODEL_RUNS = [(128, 224, PRECISIONS, [None]), (1, 64, PRECISIONS, [None]),
              (128, 224, ["tf32", "fp16"], CONV_CONFIGS[1:])]
# The conformance kernels (tests/conformance/README.md's signatures, and with the :16 hints a JIT would derive).
CONFORMANCE = [
    ("tests/conformance/relu.py", "_relu_forward_kernel", "*fp32,*fp32,i32,1024"),
    ("tests/conformance/relu.py", "_relu_forward_kernel", "*fp32:16,*fp32:16,i32:16,1024"),
    ("tests/conformance/batchnorm2d.py", "_bn2d_kernel",
     "*fp32,*fp32,i32,64,56,56,*fp32,*fp32,*fp32,*fp32,1e-05,1024"),
    ("tests/conformance/maxpool2d.py", "_maxpool2d_kernel", "*fp32,*fp32,i32,64,112,112,3,3,2,2,1,1,56,56,256"),
    ("tests/conformance/avgpool2d.py", "_avgpool2d_kernel", "*fp32,*fp32,i32,512,7,7,7,7,1,1,1,1,256"),
    ("tests/conformance/linear.py", "_linear_kernel", "*fp32,*fp32,*fp32,*fp32,i32,i32,i32,1"),
    ("tests/conformance/linear.py", "_linear_kernel", "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32,1"),
    ("tests/conformance/conv2d.py", "_conv2d_kernel",
     "*fp32,*fp32,*fp32,*fp32,i32,3,224,224,64,7,7,112,112,2,2,3,3,1,1,0,128"),
    ("tests/conformance/conv2d_3x3_tiled.py", "_conv2d_3x3_tiled_kernel",
     "*fp32,*fp32,*fp32,*fp32,401408,64,56,56,64,56,56,1,1,1,1,0,16,16"),
    ("tests/conformance/conv2d_3x3_dot.py", "_conv2d_3x3_dot_kernel",
     "*fp32,*fp32,*fp32,*fp32,401408,64,56,56,64,56,56,1,1,1,1,0,16,16,32"),
    ("tests/conformance/conv2d_3x3_dot.py", "_conv2d_3x3_dot_kernel",
     "*fp32:16,*fp32:16,*fp32:16,*fp32:16,401408,64,56,56,64,56,56,1,1,1,1,0,16,16,32"),
]
# Logits: (device, precision) on ResNet18 at batch 1, 64x64.
LOGIT_RUNS = [("reference", "fp32")] + [("cpu", p) for p in PRECISIONS]


def run(cmd, env=None):
    return subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout


def kernel_params(file, kernel):
    """The parameter names of `kernel` in `file`, in order."""
    with open(os.path.join(ROOT, file)) as f:
        text = f.read()
    match = re.search(r"^def " + re.escape(kernel) + r"\((.*?)\):", text, re.S | re.M)
    names = []
    for param in match.group(1).split(","):
        param = param.split(":")[0].strip()
        if param:
            names.append(param)
    return names


def set_param(signature, index, value):
    parts = signature.split(",")
    parts[index] = value
    return ",".join(parts)


def generate_list(build):
    mgp_run = os.path.join(build, "bin", "mgp-run")
    entries, planned = [], []
    for batch, size, precisions, configs in MODEL_RUNS:
        for precision in precisions:
            for config in configs:
                env = dict(os.environ)
                env.pop("MGP_CONV_CONFIG", None)
                stages = 3
                if config:
                    env["MGP_CONV_CONFIG"] = config
                    stages = int(config.split(",")[4])
                out = run([mgp_run, "models/resnet18.graph", "--list-kernels", "--device", "cpu", "--batch",
                           str(batch), "--size", str(size), "--precision", precision], env)
                for line in out.splitlines():
                    file, kernel, signature, warps = line.split()
                    entry = ("kernels_dsl/" + file, kernel, signature, int(warps), stages)
                    (entries if config else planned).append(entry)
    # What the gpu device plans beyond --list-kernels on this machine: TF32 both ways (the backends compile
    # fp16/bf16 with TF32=1, --info with 0), ROUND_TF32=1 (tf32 activations stored rounded) and split-K
    # (SPLIT_K=1, the partial sums in the fp32 workspace, and the epilogue kernel).
    entries += planned
    for entry in sorted(set(planned)):
        file, kernel, signature, warps, stages = entry
        params = kernel_params(file, kernel)
        def split(sig):
            return set_param(set_param(sig, params.index("SPLIT_K"), "1"), params.index("ws_ptr"), "*fp32:16")
        for name, values in (("TF32", "01"), ("ROUND_TF32", "01")):
            if name in params:
                for value in values:
                    entries.append((file, kernel, set_param(signature, params.index(name), value), warps, stages))
        if "SPLIT_K" in params:
            entries.append((file, kernel, split(signature), warps, stages))
        if "ROUND_TF32" in params and "TF32" in params:
            both = set_param(set_param(signature, params.index("TF32"), "1"), params.index("ROUND_TF32"), "1")
            entries.append((file, kernel, both, warps, stages))
            if "SPLIT_K" in params:
                entries.append((file, kernel, split(both), warps, stages))
    for dtype in ("fp32", "fp16", "bf16"):
        for residual, relu, round_tf32 in ((0, 0, 0), (1, 1, 0), (0, 1, 1), (1, 1, 1)):
            # ResNet18's layer4 at batch 128: M = 6272, K = 512, PQ = 49, 4 splits.
            signature = (f"*fp32:16,*fp32:16,*{dtype}:16,*{dtype}:16,i32:16,i32:16,i32,i32,1,{residual},0,{relu},"
                         f"64,64,{round_tf32}")
            entries.append(("kernels_dsl/conv2d_nhwc.mgp", "conv2d_splitk_epilogue_kernel", signature, 4, 3))
    for file, kernel, signature in CONFORMANCE:
        for warps in (4, 8):
            entries.append((file, kernel, signature, warps, 3))
    unique = sorted(set(entries))
    os.makedirs(os.path.dirname(LIST), exist_ok=True)
    with open(LIST, "w") as f:
        f.write("# file kernel signature num_warps num_stages: tools/check-ptx-identity.py compiles each for "
                + " and ".join(ARCHS) + "\n")
        for entry in unique:
            f.write(" ".join(str(x) for x in entry) + "\n")
    print(f"{len(unique)} kernel specializations in {os.path.relpath(LIST, ROOT)}")


def read_list():
    entries = []
    with open(LIST) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                file, kernel, signature, warps, stages = line.split()
                entries.append((file, kernel, signature, int(warps), int(stages)))
    return entries


REGISTER = re.compile(r"%(rd|rs|rq|r|fd|f|hh|h|p)\d+")
LABEL = re.compile(r"^(\$L__BB\d+_\d+):")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$L__BB\d+_\d+);")


def ptx_summary(text):
    """(hash of `text` without register numbers and declarations, instruction counts of its loop bodies)."""
    normalized = "\n".join(REGISTER.sub(r"%\1", l) for l in text.splitlines() if not l.strip().startswith(".reg"))
    lines = text.splitlines()
    labels = {m.group(1): i for i, l in enumerate(lines) if (m := LABEL.match(l))}
    loops = []
    for i, line in enumerate(lines):
        m = BRANCH.search(line)
        if m and labels.get(m.group(1), i) < i:
            body = lines[labels[m.group(1)] + 1:i + 1]
            loops.append(sum(1 for l in body if l.strip() and not l.strip().startswith(("//", ".", "$", "{", "}"))))
    return hashlib.sha256(normalized.encode()).hexdigest()[:16], loops


def describe(was, now):
    """How PTX summarized as `was` changed into `now` ((norm, loops) pairs)."""
    if was[0] == now[0]:
        return "the same up to register numbers"
    if was[1] == now[1]:
        return f"loops the same ({len(now[1])}: {','.join(map(str, now[1])) or '-'} instructions), other code differs"
    return (f"loop instructions {','.join(map(str, was[1])) or '-'} -> {','.join(map(str, now[1])) or '-'}")


def compile_one(build, arch, entry, tmp):
    file, kernel, signature, warps, stages = entry
    out = os.path.join(tmp, hashlib.sha256(repr((arch, entry)).encode()).hexdigest() + ".ptx")
    subprocess.run([os.path.join(build, "bin", "mgpc"), file, "-k", kernel, "--signature", signature, "--arch",
                    arch, "--num-warps", str(warps), "--num-stages", str(stages), "-o", out],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    with open(out, "rb") as f:
        data = f.read()
    os.unlink(out)
    norm, loops = ptx_summary(data.decode())
    return (f"{hashlib.sha256(data).hexdigest()} ptx {arch} {file} {kernel} {signature} w{warps} s{stages} "
            f"norm={norm} loops={','.join(map(str, loops)) or '-'}")


def parse_summary(line):
    """The (norm, loops) of a manifest PTX line, or None (a logits line)."""
    fields = dict(f.split("=", 1) for f in line.split() if f.startswith(("norm=", "loops=")))
    if "norm" not in fields:
        return None
    loops = fields.get("loops", "-")
    return fields["norm"], [] if loops == "-" else [int(n) for n in loops.split(",")]


def logits_one(build, device, precision, tmp):
    out = os.path.join(tmp, f"logits-{device}-{precision}.npy")
    run([os.path.join(build, "bin", "mgp-run"), "models/resnet18.graph", "--device", device, "--batch", "1",
         "--size", "64", "--precision", precision, "--dump-logits", out])
    with open(out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return f"{digest} logits {device} {precision} batch 1 size 64"


def make_manifest(build, jobs):
    entries = read_list()
    lines = []
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = [pool.submit(compile_one, build, arch, e, tmp) for arch in ARCHS for e in entries]
        futures += [pool.submit(logits_one, build, d, p, tmp) for d, p in LOGIT_RUNS]
        for future in futures:
            lines.append(future.result())
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["record", "check", "list", "compare"])
    parser.add_argument("build", help="the build folder (compare: the first PTX file)")
    parser.add_argument("manifest", nargs="?", help="the manifest (compare: the second PTX file)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    if args.mode == "compare":
        if not args.manifest:
            parser.error("compare needs two PTX files")
        texts = []
        for path in (args.build, args.manifest):
            with open(path) as f:
                texts.append(f.read())
        if texts[0] == texts[1]:
            print("identical")
            return 0
        print(describe(ptx_summary(texts[0]), ptx_summary(texts[1])))
        return 1
    build = os.path.abspath(args.build)
    if args.mode == "list":
        generate_list(build)
        return 0
    if not args.manifest:
        parser.error("record and check need a MANIFEST")
    lines = make_manifest(build, args.jobs)
    if args.mode == "record":
        with open(args.manifest, "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"recorded {len(lines)} hashes ({sum(' ptx ' in l for l in lines)} PTX, "
              f"{sum(' logits ' in l for l in lines)} logits) in {args.manifest}")
        return 0
    with open(args.manifest) as f:
        want = [l.rstrip("\n") for l in f if l.strip()]
    differ = [(w, g) for w, g in zip(want, lines) if w != g]
    if len(want) != len(lines):
        print(f"the manifest has {len(want)} lines, this run {len(lines)}: was the kernel list changed?")
        return 1
    renumbered = same_loops = 0
    for w, g in differ:
        was, now = parse_summary(w), parse_summary(g)
        how = ""
        if was and now:
            how = f" ({describe(was, now)})"
            renumbered += was[0] == now[0]
            same_loops += was[0] != now[0] and was[1] == now[1]
        print(f"differs{how}:\n  was {w}\n  now {g}")
    print(f"{len(lines) - len(differ)}/{len(lines)} identical ({sum(' ptx ' in l for l in lines)} PTX for "
          f"{' and '.join(ARCHS)}, {sum(' logits ' in l for l in lines)} ResNet18 logits)")
    if differ:
        print(f"of the {len(differ)} that differ: {renumbered} only in register numbers, {same_loops} with the "
              f"same loop instruction counts")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
