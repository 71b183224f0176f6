# tl.gather(src, index, axis): one mgp.gather; on the GPU the result takes
# the index's layout and the source goes through shared memory (stored at
# row-major positions, a barrier, each element loaded at the position its
# index picks, 0 outside the axis); the located errors of misuse.
# RUN: mgpc %s -k rows --signature "*fp32:16,*i32:16,*fp32:16" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k rows --signature "*fp32:16,*i32:16,*fp32:16" -emit=mlir-gpu | FileCheck %s --check-prefix=GPU
# RUN: not mgpc %s -k float_index --signature "*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=FLOAT
# RUN: not mgpc %s -k rank_mismatch --signature "*fp32:16,*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=RANK
# RUN: not mgpc %s -k bad_axis --signature "*fp32:16,*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=AXIS
# RUN: not mgpc %s -k other_dim --signature "*fp32:16,*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DIM
# REQUIRES: ptxas
# RUN: mgpc %s -k rows --signature "*fp32:16,*i32:16,*fp32:16" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
import triton
import triton.language as tl


@triton.jit
def rows(x_ptr, i_ptr, y_ptr):
    r = tl.arange(0, 16)
    c = tl.arange(0, 32)
    x = tl.load(x_ptr + r[:, None] * 32 + c[None, :])
    i = tl.load(i_ptr + r[:, None] * 8 + tl.arange(0, 8)[None, :])
    y = tl.gather(x, i, axis=1)
    tl.store(y_ptr + r[:, None] * 8 + tl.arange(0, 8)[None, :], y)

# CHECK-LABEL: func.func @rows
# CHECK: mgp.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<16x32xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
# CHECK-NOT: mgp.reduce
# GPU-NOT: mgp.convert_layout
# GPU: %[[I:.*]] = mgp.load {{.*}} : tensor<16x8x!mgp.ptr<i32>, #[[L:blocked[0-9]*]]>
# GPU-NOT: mgp.convert_layout
# GPU: mgp.gather %{{.*}}[%[[I]]] {axis = 1 : i32, mgp.allocation.offset = {{[0-9]+}} : i32} : (tensor<16x32xf32, #{{.*}}>, tensor<16x8xi32, #[[L]]>) -> tensor<16x8xf32, #[[L]]>
# GPU-NOT: mgp.convert_layout
# PTX: st.shared
# PTX: bar.sync
# PTX: setp.lt.u32
# PTX: ld.shared


@triton.jit
def float_index(x_ptr):
    r = tl.arange(0, 16)
    x = tl.load(x_ptr + r)
    y = tl.gather(x, x, 0)
# FLOAT: gather.py:[[@LINE-1]]:22: error: the index of 'gather' must be a block of integers, got block <16xfp32>


@triton.jit
def rank_mismatch(x_ptr, i_ptr):
    r = tl.arange(0, 16)
    x = tl.load(x_ptr + r[:, None] * 16 + r[None, :])
    i = tl.load(i_ptr + r)
    y = tl.gather(x, i, 0)
# RANK: gather.py:[[@LINE-1]]:22: error: the index of 'gather' must have the source's rank (2), got [16]


@triton.jit
def bad_axis(x_ptr, i_ptr):
    r = tl.arange(0, 16)
    x = tl.load(x_ptr + r)
    i = tl.load(i_ptr + r)
    y = tl.gather(x, i, 1)
# AXIS: gather.py:[[@LINE-1]]:25: error: the axis of 'gather' must be in [-1, 1), got 1


@triton.jit
def other_dim(x_ptr, i_ptr):
    r = tl.arange(0, 16)
    x = tl.load(x_ptr + r[:, None] * 16 + r[None, :])
    i = tl.load(i_ptr + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :])
    y = tl.gather(x, i, 0)
# DIM: gather.py:[[@LINE-1]]:22: error: the index of 'gather' must match the source in every dimension but the axis: [8, 8] against [16, 16]
