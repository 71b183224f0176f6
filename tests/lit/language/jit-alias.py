# Kernels jitted by a call rather than a decorator: `_k = triton.jit(_k)`,
# `kernel = triton.jit(impl)` and an autotuned alias of a jit kernel.
# RUN: mgpc %s -k _k --signature "*fp32,64" -emit=mlir | FileCheck %s --check-prefix=SAME
# RUN: mgpc %s -k kernel --signature "*fp32,64" -emit=mlir | FileCheck %s --check-prefix=OTHER
# RUN: mgpc %s -k tuned --signature "*fp32,64" -emit=mlir | FileCheck %s --check-prefix=TUNED
# RUN: not mgpc %s -k nope --signature "*fp32,64" -emit=mlir 2>&1 | FileCheck %s --check-prefix=LIST
import triton
import triton.language as tl


def _k(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, tl.load(p + offs) + 1.0)


_k = triton.jit(_k)


def impl(p, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), 2.0)


kernel = triton.jit(impl)


@triton.jit
def base(p, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), 3.0)


tuned = triton.autotune(configs=[], key=[])(base)

# SAME: func.func @_k
# OTHER: func.func @kernel
# OTHER: arith.constant dense<2.000000e+00>
# TUNED: func.func @tuned
# TUNED: arith.constant dense<3.000000e+00>
# LIST: mgpc: error: no @jit kernel named 'nope' in {{.*}}jit-alias.py (kernels: _k, base, kernel, tuned)
