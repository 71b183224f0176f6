# tl.gather(src, index, axis): composed of a one-hot compare along a new
# last dimension, a select of the source bits and an OR reduction; the
# located errors of misuse.
# RUN: mgpc %s -k rows --signature "*fp32:16,*i32:16,*fp32:16" -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k float_index --signature "*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=FLOAT
# RUN: not mgpc %s -k rank_mismatch --signature "*fp32:16,*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=RANK
# RUN: not mgpc %s -k bad_axis --signature "*fp32:16,*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=AXIS
# RUN: not mgpc %s -k other_dim --signature "*fp32:16,*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DIM
# REQUIRES: ptxas
# RUN: mgpc %s -k rows --signature "*fp32:16,*i32:16,*fp32:16" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
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

# The index against positions 0..31 of the axis, a [16, 8, 32] one-hot.
# CHECK-LABEL: func.func @rows
# CHECK: %[[IDX:.*]] = mgp.broadcast %{{.*}} : tensor<16x8x1xi32> -> tensor<16x8x32xi32>
# CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[IDX]], %{{.*}} : tensor<16x8x32xi32>
# CHECK: arith.bitcast %{{.*}} : tensor<16x32xf32> to tensor<16x32xi32>
# CHECK: mgp.broadcast %{{.*}} : tensor<16x1x32xi32> -> tensor<16x8x32xi32>
# CHECK: %[[SEL:.*]] = arith.select %[[HIT]]
# CHECK: "mgp.reduce"(%[[SEL]]) <{axis = 2 : i32}>
# CHECK: arith.ori
# CHECK: arith.bitcast %{{.*}} : tensor<16x8xi32> to tensor<16x8xf32>


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
