# A Python number assigned to a local is a 0-d tensor in Triton (its
# visit_Assign calls to_tensor): int32 (uint32, int64 when it does not fit),
# fp32 (fp64 outside fp32's range) or int1. It promotes as a tensor, not as a
# literal: `x_f16 * s` computes in fp32 and `x_i8 * k` in int32, and
# arithmetic between such locals has the type's semantics (`lo // 2` is C
# division in int32). A literal written inline or a `tl.constexpr` local
# does not take part. So is a number a @jit helper returns (tl.cdiv's too,
# and tl.minimum of two numbers); Python's min of literals and triton.cdiv
# stay literals. The same static asserts compile with triton.compile.
# RUN: mgpc %s -k local_numbers --signature "*fp16,*i8,*i32" -emit=mlir | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def _times_local(x, c):
    d = c  # a constexpr argument assigned to a local is a tensor again
    return x * d


@triton.jit
def _eps():
    return 1e-6  # returned: a 0-d fp32 tensor


@triton.jit
def local_numbers(h_ptr, c_ptr, i_ptr):
    offs = tl.arange(0, 32)
    h = tl.load(h_ptr + offs)
    c = tl.load(c_ptr + offs)
    s = 0.5
    k = 3
    w: tl.constexpr = 0.5
    tl.static_assert((h * s).dtype == tl.float32)
    tl.static_assert((h * 0.5).dtype == tl.float16)
    tl.static_assert((h * w).dtype == tl.float16)
    tl.static_assert((c * k).dtype == tl.int32)
    tl.static_assert((c * 3).dtype == tl.int8)
    tl.static_assert((s * 2).dtype == tl.float32)
    tl.static_assert((k // 2).dtype == tl.int32)
    tl.static_assert(tl.where(h > 0, h, s).dtype == tl.float32)
    tl.static_assert(tl.where(h > 0, h, 0.5).dtype == tl.float16)
    tl.static_assert(tl.maximum(h, s).dtype == tl.float32)
    u, v = 1, 2.0
    tl.static_assert((c * u).dtype == tl.int32)
    tl.static_assert((h * v).dtype == tl.float32)
    big = 3000000000
    tl.static_assert((c + big).dtype == tl.uint32)
    tiny = 1e-300
    tl.static_assert((h + tiny).dtype == tl.float64)
    flag = True
    tl.static_assert((c + flag).dtype == tl.int8)
    tl.static_assert(_times_local(h, 0.5).dtype == tl.float32)
    tl.static_assert(_times_local(h, 2).dtype == tl.float16)
    tl.static_assert((h + _eps()).dtype == tl.float32)
    tl.static_assert((c * tl.cdiv(7, 2)).dtype == tl.int32)
    tl.static_assert((c * triton.cdiv(7, 2)).dtype == tl.int8)
    tl.static_assert((c * tl.minimum(2, 3)).dtype == tl.int32)
    tl.static_assert((c * min(2, 3)).dtype == tl.int8)
    tl.static_assert((c * min(k, 5)).dtype == tl.int32)
    c2 = c
    c2 += k
    tl.static_assert(c2.dtype == tl.int32)
    lo = -7
    half = lo // 2
    tl.store(h_ptr + offs, h * 0.1)
    tl.store(i_ptr + offs, c2 * half)

# x_f16 * 0.1 written inline stays fp16; the local -7 // 2 is int32's -3
# (folded: no division is left); c += k extends c to int32 first.
# CHECK-LABEL: func.func @local_numbers
# CHECK-DAG: arith.constant dense<-3> : tensor<32xi32>
# CHECK-DAG: arith.constant dense<9.997550e-02> : tensor<32xf16>
# CHECK-NOT: arith.divsi
# CHECK: arith.extsi %{{.*}} : tensor<32xi8> to tensor<32xi32>
# CHECK: arith.mulf %{{.*}} : tensor<32xf16>


# Arithmetic between such locals folds with the type's semantics: int32
# wraps, // truncates, an identity (x + 0) keeps the value, `<` against a
# uint32 converts the literal to uint32.
# RUN: mgpc %s -k local_fold --signature "*i32,*fp32,*i1" -emit=mlir | FileCheck %s --check-prefix=FOLD
@triton.jit
def local_fold(i_ptr, f_ptr, b_ptr):
    big = 2147483647
    lo = -7
    tot = 0
    for j in tl.static_range(4):
        tot += j
    u = 4000000000
    third = 1.0 / 3.0
    tl.store(i_ptr, big + 1)
    tl.store(i_ptr + 1, lo // 2)
    tl.store(i_ptr + 2, lo % 2)
    tl.store(i_ptr + 3, tot)
    tl.store(i_ptr + 4, -lo)
    tl.store(b_ptr, u > -1)
    tl.store(f_ptr, third)

# FOLD-LABEL: func.func @local_fold
# FOLD-DAG: arith.constant -2147483648 : i32
# FOLD-DAG: arith.constant -3 : i32
# FOLD-DAG: arith.constant -1 : i32
# FOLD-DAG: arith.constant 6 : i32
# FOLD-DAG: arith.constant 7 : i32
# FOLD-DAG: arith.constant false
# FOLD-DAG: arith.constant 0.333333343 : f32
# FOLD-NOT: arith.divsi
# FOLD-NOT: arith.remsi
