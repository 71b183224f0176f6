# Located errors of the wider language: one kernel per misuse.
# RUN: not mgpc %s -k advance_not_ptr --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ADVANCE
# RUN: not mgpc %s -k block_ptr_mask --signature "*fp32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BPMASK
# RUN: not mgpc %s -k bad_padding --signature "*fp32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=PADDING
# RUN: not mgpc %s -k bad_block_shape --signature "*fp32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BSHAPE
# RUN: not mgpc %s -k reverse_scan_padded --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=RSCAN
# RUN: not mgpc %s -k combine_count --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=COMBINE
# RUN: not mgpc %s -k split_last_dim --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=SPLIT
# RUN: not mgpc %s -k flip_padded --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=FLIP
# RUN: not mgpc %s -k histogram_float --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=HIST
# RUN: not mgpc %s -k cat_order --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=CAT
# RUN: not mgpc %s -k assert_false --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DASSERT
# RUN: not mgpc %s -k dtype_method --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DMETHOD
# RUN: not mgpc %s -k npow2_runtime --signature "*fp32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=NPOW2
# RUN: not mgpc %s -k scope_bad --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=SCOPE
# RUN: not mgpc %s -k cas_padded --signature "*i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=CAS
# RUN: not mgpc %s -k umulhi_float --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=UMULHI
# RUN: not mgpc %s -k alias_of_helper --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ALIAS
# RUN: not mgpc %s -k bitwise_float --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BITF
# RUN: not mgpc %s -k dot_int64 --signature "*i64" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DOTI64
# RUN: mgpc %s -k assert_debug --signature "*fp32,i32" --debug -emit=mlir | FileCheck %s --check-prefix=DEBUG
# RUN: mgpc %s -k assert_debug --signature "*fp32,i32" -emit=mlir | FileCheck %s --check-prefix=NODEBUG
import triton
import triton.language as tl


@triton.jit
def advance_not_ptr(p):
    q = tl.advance(p, (1,))
# ADVANCE: errors.py:[[@LINE-1]]:20: error: advance needs a block pointer, got scalar pointer<fp32>


@triton.jit
def block_ptr_mask(p, n):
    bp = tl.make_block_ptr(p, (n,), (1,), (0,), (64,), (0,))
    x = tl.load(bp, mask=tl.arange(0, 64) < n)
# BPMASK: errors.py:[[@LINE-1]]:9: error: a load or store through a block pointer takes no mask or other: use boundary_check


@triton.jit
def bad_padding(p, n):
    bp = tl.make_block_ptr(p, (n,), (1,), (0,), (64,), (0,))
    x = tl.load(bp, boundary_check=(0,), padding_option="inf")
# PADDING: errors.py:[[@LINE-1]]:9: error: padding_option must be "zero" or "nan", got string 'inf'


@triton.jit
def bad_block_shape(p, n):
    bp = tl.make_block_ptr(p, (n,), (1,), (0,), (48,), (0,))
# BSHAPE: errors.py:[[@LINE-1]]:49: error: block_shape must be compile-time powers of two, got constexpr int 48


@triton.jit
def _first(a, b):
    return a


@triton.jit
def reverse_scan_padded(p):
    x = tl.load(p + tl.arange(0, 100))
    y = tl.associative_scan(x, 0, _first, reverse=True)
# RSCAN: errors.py:[[@LINE-1]]:9: error: 'associative_scan' with a combine_fn in reverse needs an axis whose length is a power of two, got [100]


@triton.jit
def _first_of_pairs(a, i, b, j):
    return a


@triton.jit
def combine_count(p):
    x = tl.load(p + tl.arange(0, 64))
    y = tl.reduce((x, x), 0, _first_of_pairs)
# COMBINE: errors.py:[[@LINE-1]]:9: error: the combine function returns 1 values for 2 operands


@triton.jit
def split_last_dim(p):
    a, b = tl.split(tl.load(p + tl.arange(0, 64)))
# SPLIT: errors.py:[[@LINE-1]]:21: error: 'split' needs a last dimension of 2, got [64]


@triton.jit
def flip_padded(p):
    x = tl.flip(tl.load(p + tl.arange(0, 100)), 0)
# FLIP: errors.py:[[@LINE-1]]:17: error: 'flip' needs a block whose dimensions are powers of two, got [100]


@triton.jit
def histogram_float(p):
    h = tl.histogram(tl.load(p + tl.arange(0, 64)), 8)
# HIST: errors.py:[[@LINE-1]]:22: error: 'histogram' needs a 1-D block of integers, got block <64xfp32>


@triton.jit
def cat_order(p):
    x = tl.load(p + tl.arange(0, 64))
    y = tl.cat(x, x)
# CAT: errors.py:[[@LINE-1]]:9: error: tl.cat needs can_reorder=True (the order of the elements is unspecified, as in Triton)


@triton.jit
def assert_false(p):
    tl.device_assert(False, "never")
# DASSERT: errors.py:[[@LINE-1]]:22: error: device_assert of a condition that is always false: never


@triton.jit
def dtype_method(p):
    b = p.dtype.is_complex()
# DMETHOD: errors.py:[[@LINE-1]]:9: error: dtype pointer<fp32> has no method 'is_complex'


@triton.jit
def npow2_runtime(p, n):
    m = triton.next_power_of_2(n)
# NPOW2: errors.py:[[@LINE-1]]:32: error: triton.next_power_of_2 needs a compile-time integer, got scalar int32


@triton.jit
def scope_bad(p):
    tl.atomic_add(p, 1.0, scope="grid")
# SCOPE: errors.py:[[@LINE-1]]:33: error: scope must be "gpu", "cta" or "sys", got string 'grid'


@triton.jit
def cas_padded(p):
    tl.atomic_cas(p + tl.arange(0, 48), 0, 1)
# CAS: errors.py:[[@LINE-1]]:5: error: atomic_cas has no mask, so its block of pointers must have power-of-two dimensions, got [48]


@triton.jit
def umulhi_float(p):
    tl.store(p, tl.umulhi(tl.load(p), 2))
# UMULHI: errors.py:[[@LINE-1]]:17: error: invalid operands of type fp32 and int32 for operator 'umulhi' (it needs integer operands)


def helper(p):
    tl.store(p, 1.0)


alias_of_helper = triton.autotune(configs=[], key=[])(helper)
# ALIAS: mgpc: error: no @jit kernel named 'alias_of_helper'


@triton.jit
def assert_debug(p, n):
    tl.device_assert(n > 0, "n must be positive")
    tl.store(p, 1.0)
# DEBUG: mgp.assert %{{.*}} {file = "{{.*}}errors.py", function = "assert_debug", line = [[@LINE-2]] : i32, message = "n must be positive"} : i1
# NODEBUG-NOT: mgp.assert


@triton.jit
def dot_int64(p):
    offs = tl.arange(0, 16)
    x = tl.load(p + offs[:, None] * 16 + offs[None, :])
    tl.store(p + offs[:, None] * 16 + offs[None, :], tl.dot(x, x))
# DOTI64: errors.py:[[@LINE-1]]:61: error: dot operands must be 8-, 16- or 32-bit integers or floats, got int64


@triton.jit
def bitwise_float(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), x & 1)
# BITF: errors.py:[[@LINE-1]]:38: error: invalid operands of type fp32 and int32 for operator '&' (it needs integer operands)
