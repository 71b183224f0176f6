# The fp8 formats of triton.language that NVIDIA GPUs lack (AMD's e4b8 and
# e5b16) are located errors naming the formats to use (Triton's pre-Hopper
# e4b15 is supported: fp8e4b15.py).
# RUN: not mgpc %s -k amd_e4 --signature "*fp32,*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=E4B8
# RUN: not mgpc %s -k amd_e5 --signature "*fp32,*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=E5B16
import triton
import triton.language as tl


@triton.jit
def amd_e4(x_ptr, y_ptr):
    offs = tl.arange(0, 16)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs).to(tl.float8e4b8).to(tl.float32))
# E4B8: fp8-variants.py:[[@LINE-1]]:56: error: 'float8e4b8' is an AMD fp8 format, which NVIDIA GPUs do not have (Triton's NVIDIA backend rejects it too): use float8e4nv or float8e5


@triton.jit
def amd_e5(x_ptr, y_ptr):
    offs = tl.arange(0, 16)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs).to(tl.float8e5b16).to(tl.float32))
# E5B16: fp8-variants.py:[[@LINE-1]]:56: error: 'float8e5b16' is an AMD fp8 format

