#!/usr/bin/env python3
"""Kernels over host TensorDescriptors on the GPU: Triton against mgp.jit on
the same kernel source and tensors. On sm_90 both copy the descriptors'
blocks with TMA (`cp.async.bulk.tensor`).

  scale    y = 2.5 * x through two 2-D descriptors, [S, S] fp16, 64x128 blocks
  matmul   C = A @ B with A, B and C descriptors, fp16, 128x128x64 tiles,
           8 warps, 3 stages, M = N = K = S
Every output is compared with PyTorch's (copies exactly, the matmul within
fp16's tolerance); times are triton.testing.do_bench medians (ms).

    bench/descriptor_tma.py [--sizes 4096,8192]
"""
import argparse

import torch
import triton
import triton.language as tl
from triton.testing import do_bench
from triton.tools.tensor_descriptor import TensorDescriptor

import mgp


@triton.jit
def scale_kernel(x_desc, y_desc, alpha, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x = x_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    y_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], (x * alpha).to(y_desc.dtype))


@triton.jit
def matmul_kernel(a_desc, b_desc, c_desc, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))


def desc(t, block):
    return TensorDescriptor(t, t.shape, t.stride(), block)


def report(what, size, system, ms, check):
    print(f"| {what} | {size} | {system} | {ms:.4f} | {check} |", flush=True)


def run_scale(s):
    x = torch.randn(s, s, device="cuda", dtype=torch.float16)
    want = (x.float() * 2.5).half()
    grid = (triton.cdiv(s, 64), triton.cdiv(s, 128))
    for system, kern in (("Triton", scale_kernel), ("mgp", mgp.jit(scale_kernel))):
        y = torch.empty_like(x)
        f = lambda: kern[grid](desc(x, [64, 128]), desc(y, [64, 128]), 2.5,  # noqa: E731
                               BLOCK_M=64, BLOCK_N=128)
        f()
        report("scale fp16 64x128", s, system, do_bench(f),
               "exact" if torch.equal(y, want) else "DIFFERS")


def run_matmul(s):
    a = torch.randn(s, s, device="cuda", dtype=torch.float16)
    b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    ref = (a.float() @ b.float())
    grid = (triton.cdiv(s, 128), triton.cdiv(s, 128))
    for system, kern in (("Triton", matmul_kernel), ("mgp", mgp.jit(matmul_kernel))):
        c = torch.empty(s, s, device="cuda", dtype=torch.float16)
        f = lambda: kern[grid](desc(a, [128, 64]), desc(b, [64, 128]), desc(c, [128, 128]),  # noqa: E731
                               s, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8,
                               num_stages=3)
        f()
        err = (c.float() - ref).abs().max().item() / ref.abs().max().item()
        report("matmul fp16 128x128x64 w8", s, system, do_bench(f),
               f"max rel err {err:.1e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4096,8192")
    args = parser.parse_args()

    def alloc(size, alignment, stream):
        return torch.empty(size, dtype=torch.int8, device="cuda")

    triton.set_allocator(alloc)
    print(f"{torch.cuda.get_device_name()}, Triton {triton.__version__}")
    print("| kernel | S | system | ms | check |\n|---|---|---|---|---|")
    for s in (int(v) for v in args.sizes.split(",")):
        run_scale(s)
        run_matmul(s)


if __name__ == "__main__":
    main()
