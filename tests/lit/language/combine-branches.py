# A combine function whose `if` computes on both sides (not just picks a
# value) becomes straight-line code in the combiner region: both sides and an
# arith.select, as the region is one block on the GPU and runs over whole
# vectors in the interpreter. Triton 3.6 fails inside its scf-to-cf pass on
# such a reduce; mgp compiles it. A loop or a side effect in a combine
# function is a located error.
# REQUIRES: ptxas
# RUN: mgpc %s -k logaddexp_reduce --signature "*fp32:16,*fp32:16" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k logaddexp_reduce --signature "*fp32:16,*fp32:16" -o %t.ptx
# RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: mgpc %s -k nested_scan --signature "*fp32:16" -o %t2.ptx
# RUN: %ptxas -arch=sm_90 %t2.ptx -o %t2.cubin
# RUN: not mgpc %s -k looping --signature "*i32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=LOOP
import triton
import triton.language as tl


@triton.jit
def _logaddexp(a, b):
    if a > b:
        r = a + tl.log(1 + tl.exp(b - a))
    else:
        r = b + tl.log(1 + tl.exp(a - b))
    return r


@triton.jit
def logaddexp_reduce(x_ptr, y_ptr):
    x = tl.load(x_ptr + tl.arange(0, 256))
    tl.store(y_ptr, tl.reduce(x, 0, _logaddexp))

# CHECK-LABEL: func.func @logaddexp_reduce
# CHECK: "mgp.reduce"
# CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
# CHECK: %[[C:.*]] = arith.cmpf ogt, %[[A]], %[[B]] : f32
# CHECK-NOT: scf.if
# CHECK: %[[R:.*]] = arith.select %[[C]], %{{.*}}, %{{.*}} : f32
# CHECK-NEXT: mgp.reduce.return %[[R]] : f32


@triton.jit
def _clipped_add(a, b):
    s = a + b
    if s > 10.0:
        if a > b:
            s = a * 0.5
        else:
            s = b * 0.5
    return s


@triton.jit
def nested_scan(p):
    offs = tl.arange(0, 128)
    tl.store(p + offs, tl.associative_scan(tl.load(p + offs), 0, _clipped_add))


@triton.jit
def _gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@triton.jit
def looping(p):
    offs = tl.arange(0, 64)
    tl.store(p, tl.reduce(tl.load(p + offs), 0, _gcd))

# LOOP: combine-branches.py:[[@LINE-2]]:17: error: the combine function must be straight-line code and ifs without side effects
