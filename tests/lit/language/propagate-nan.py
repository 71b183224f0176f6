# tl.maximum / tl.minimum / tl.clamp with propagate_nan=tl.PropagateNan.ALL
# give NaN for a NaN operand (arith.maximumf / minimumf, PTX max.NaN);
# NONE, the default, gives the other operand (maxnumf / minnumf). Python's
# getattr with a constant name reads an attribute (Triton's tests pick
# builtins and enum members so); a name that is not constant is an error.
# RUN: mgpc %s -k pick --signature "*fp32,*fp32,*fp32" -D MODE=ALL -D FUNC=maximum -emit=mlir | FileCheck %s --check-prefix=ALL
# RUN: mgpc %s -k pick --signature "*fp32,*fp32,*fp32" -D MODE=NONE -D FUNC=minimum -emit=mlir | FileCheck %s --check-prefix=NONE
# RUN: mgpc %s -k pick --signature "*fp32,*fp32,*fp32" -D MODE=ALL -D FUNC=clamp -emit=mlir | FileCheck %s --check-prefix=CLAMP
# RUN: not mgpc %s -k bad_name --signature "*fp32,i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: not mgpc %s -k bad_member --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=MEMBER
# REQUIRES: ptxas
# RUN: mgpc %s -k pick --signature "*fp16,*fp16,*fp16" -D MODE=ALL -D FUNC=clamp --arch sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX < %t.ptx
import triton
import triton.language as tl


@triton.jit
def pick(A, B, C, MODE: tl.constexpr, FUNC: tl.constexpr):
    a = tl.load(A + tl.arange(0, 16))
    b = tl.load(B + tl.arange(0, 16))
    if FUNC == "clamp":
        c = tl.clamp(a, -b, b, propagate_nan=getattr(tl.PropagateNan, MODE))
    else:
        c = getattr(tl, FUNC)(a, b, propagate_nan=getattr(tl.PropagateNan, MODE))
    tl.store(C + tl.arange(0, 16), c)

# ALL: arith.maximumf
# NONE: arith.minnumf
# CLAMP: arith.maximumf
# CLAMP: arith.minimumf
# PTX: max.NaN.f16
# PTX: min.NaN.f16


@triton.jit
def bad_name(A, n):
    x = getattr(tl, n)(tl.load(A))
# ERR: propagate-nan.py:[[@LINE-1]]:21: error: getattr() needs a constant string name, got scalar int32


@triton.jit
def bad_member(A):
    x = tl.maximum(tl.load(A), 1.0, propagate_nan=tl.PropagateNan.SOME)
# MEMBER: propagate-nan.py:[[@LINE-1]]:67: error: tl.PropagateNan has NONE and ALL, not 'SOME'
