# tl.target_info's compile-time questions answer for --arch (the interpreter's
# answers: tests/unit/interp/LanguageTest.cpp), `while tl.condition(c, disable_licm=...)` is
# `while c`, and tl.tuple builds tuples; misuse is a located error.
# RUN: mgpc %s -k guarded --signature "*fp32,i32" -emit=mlir | FileCheck %s --check-prefix=SM90
# RUN: mgpc %s -k guarded --signature "*fp32,i32" --arch sm_80 -emit=mlir | FileCheck %s --check-prefix=SM80
# RUN: mgpc %s -k halving --signature "*i32,i32" -emit=mlir | FileCheck %s --check-prefix=COND
# RUN: mgpc %s -k tuples --signature "*fp32,*fp32,64" -emit=mlir | FileCheck %s --check-prefix=TUPLE
# RUN: not mgpc %s -k current --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=CURRENT
# RUN: not mgpc %s -k block_condition --signature "*i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BLOCKCOND
# RUN: not mgpc %s -k runtime_licm --signature "*i32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=LICM
# RUN: not mgpc %s -k geq_runtime --signature "*fp32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=GEQ
# RUN: not mgpc %s -k tuple_of_block --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=TUPLEBLOCK
# REQUIRES: ptxas
# RUN: mgpc %s -k halving --signature "*i32,i32" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq, is_cuda


@triton.jit
def guarded(x_ptr, n):
    offs = tl.arange(0, 128)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if is_cuda() and cuda_capability_geq(9, 0):
        y = x * 9.0
    elif tl.target_info.cuda_capability_geq(8):
        y = x * 8.0
    elif tl.target_info.is_hip():
        y = x * 1.0
    else:
        y = x * 2.0
    tl.store(x_ptr + offs, y, mask=offs < n)

# SM90-LABEL: func.func @guarded
# SM90: arith.constant dense<9.000000e+00>
# SM90-NOT: dense<8.0
# SM80-LABEL: func.func @guarded
# SM80: arith.constant dense<8.000000e+00>
# SM80-NOT: dense<9.0


@triton.jit
def halving(x_ptr, n):
    steps = 0
    m = n
    while tl.condition(m > 1, disable_licm=True):
        m = m // 2
        steps += 1
    tl.store(x_ptr, steps)

# COND-LABEL: func.func @halving
# COND: scf.while
# COND: arith.cmpi sgt
# COND: scf.condition


@triton.jit
def tuples(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    pair = tl.tuple([x_ptr, y_ptr])
    tl.static_assert(len(pair) == 2)
    src, dst = pair
    tl.static_assert(len(tl.tuple([])) == 0)
    tl.store(dst + offs, tl.load(src + offs) + 1.0)

# TUPLE-LABEL: func.func @tuples
# TUPLE: mgp.load
# TUPLE: mgp.store


@triton.jit
def current(x_ptr):
    t = tl.target_info.current_target()
# CURRENT: target-info.py:[[@LINE-1]]:24: error: 'triton.language.target_info.current_target' returns a host object, which kernels cannot use in mgp: ask is_cuda() or cuda_capability_geq(major, minor)


@triton.jit
def block_condition(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    while tl.condition(x > 0):
        x -= 1
# BLOCKCOND: target-info.py:[[@LINE-2]]:24: error: tl.condition needs a scalar condition, got block <16xint1>


@triton.jit
def runtime_licm(x_ptr, n):
    m = n
    while tl.condition(m > 1, disable_licm=n > 0):
        m = m // 2
# LICM: target-info.py:[[@LINE-2]]:44: error: disable_licm of tl.condition must be a compile-time bool, got


@triton.jit
def geq_runtime(x_ptr, n):
    if cuda_capability_geq(n):
        tl.store(x_ptr, 1.0)
# GEQ: target-info.py:[[@LINE-2]]:28: error: cuda_capability_geq needs compile-time integers, got


@triton.jit
def tuple_of_block(x_ptr):
    t = tl.tuple(tl.load(x_ptr + tl.arange(0, 16)))
# TUPLEBLOCK: target-info.py:[[@LINE-1]]:18: error: tl.tuple takes a tuple or a list, got block <16xfp32>
