# tl.map_elementwise inlines the @jit scalar function into the region of
# mgp.map_elementwise (scalars in, scalars out): an `if` stays a branch, so on
# the GPU each thread branches per element instead of computing both sides.
# A function returning a tuple gives a tuple (pack=2: two values per result).
# RUN: mgpc %s -k selu --signature "*fp32:16,*fp32:16,i32,fp32" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k selu --signature "*fp32:16,*fp32:16,i32,fp32" --arch=sm_90a -o %t.ptx
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
# RUN: mgpc %s -k pairs --signature "*fp16:16,*i32:16" -emit=mlir | FileCheck %s --check-prefix=PACK
# RUN: mgpc %s -k pairs --signature "*fp16:16,*i32:16" -o %t2.ptx
# RUN: %ptxas -arch=sm_90 %t2.ptx -o %t2.cubin
# RUN: mgpc %s -k steps --signature "*i32:16" -o %t3.ptx
# RUN: %ptxas -arch=sm_90 %t3.ptx -o %t3.cubin
# RUN: not mgpc %s -k not_function --signature "*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=NOTFN
# RUN: not mgpc %s -k bad_pack --signature "*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BADPACK
# RUN: not mgpc %s -k odd_count --signature "*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ODD
# RUN: not mgpc %s -k returns_block --signature "*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BLOCK
# RUN: not mgpc %s -k unknown_keyword --signature "*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=KW
import triton
import triton.language as tl


@triton.jit
def _selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def selu(x_ptr, y_ptr, n, alpha):
    offs = tl.program_id(0) * 256 + tl.arange(0, 256)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.map_elementwise(_selu_scalar, x, alpha), mask=m)

# CHECK-LABEL: func.func @selu
# CHECK: %[[ALPHA:.*]] = mgp.splat %arg3 : f32 -> tensor<256xf32>
# CHECK: "mgp.map_elementwise"(%{{.*}}, %[[ALPHA]]) <{pack = 1 : i32}> ({
# CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[A:.*]]: f32):
# CHECK: %[[C:.*]] = arith.cmpf ogt, %[[X]]
# CHECK: scf.if %[[C]] -> (f32) {
# CHECK: } else {
# CHECK: math.exp %[[X]] : f32
# CHECK: mgp.map_elementwise.return %{{.*}} : f32
# CHECK-NEXT: }) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
# 256 elements over 4 warps: two per thread, each with its own branch.
# PTX-COUNT-2: bra
# PTX: ex2.approx


@triton.jit
def _halves(a0, a1):
    return a0 * 2, a1 * 3, (a0 > 0).to(tl.int32), (a1 > 0).to(tl.int32)


@triton.jit
def pairs(p, q):
    offs = tl.arange(0, 128)
    x = tl.load(p + offs)
    y, pos = tl.map_elementwise(_halves, x, pack=2)
    tl.store(p + offs, y)
    tl.store(q + offs, pos)

# PACK-LABEL: func.func @pairs
# PACK: "mgp.map_elementwise"(%{{.*}}) <{pack = 2 : i32}> ({
# PACK-NEXT: ^bb0(%{{.*}}: f16, %{{.*}}: f16):
# PACK: mgp.map_elementwise.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f16, f16, i32, i32
# PACK-NEXT: }) : (tensor<128xf16>) -> (tensor<128xf16>, tensor<128xi32>)


@triton.jit
def _collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@triton.jit
def steps(p):
    offs = tl.arange(0, 64)
    tl.store(p + offs, tl.map_elementwise(_collatz, tl.load(p + offs)))


@triton.jit
def not_function(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), tl.map_elementwise(tl.exp, x))

# NOTFN: map-elementwise.py:[[@LINE-2]]:55: error: the first argument of map_elementwise must be a @jit function


@triton.jit
def _ident(x):
    return x


@triton.jit
def bad_pack(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), tl.map_elementwise(_ident, x, pack=0))

# BADPACK: map-elementwise.py:[[@LINE-2]]:66: error: pack must be between 1 and 16, got 0


@triton.jit
def _three(a, b):
    return a, b, a + b


@triton.jit
def odd_count(p):
    x = tl.load(p + tl.arange(0, 16))
    r = tl.map_elementwise(_three, x, pack=2)
    tl.store(p + tl.arange(0, 16), r[0])

# ODD: map-elementwise.py:[[@LINE-3]]:9: error: the function of map_elementwise returns 3 values; with pack=2 it must return a multiple of 2


@triton.jit
def _widen(x):
    return tl.full([16], 1.0, tl.float32) * x


@triton.jit
def returns_block(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), tl.map_elementwise(_widen, x))

# BLOCK: map-elementwise.py:[[@LINE-2]]:36: error: the function of map_elementwise must return scalars, got


@triton.jit
def unknown_keyword(p):
    x = tl.load(p + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), tl.map_elementwise(_ident, x, packs=2))

# KW: map-elementwise.py:[[@LINE-2]]:66: error: map_elementwise() got an unexpected keyword argument 'packs'
