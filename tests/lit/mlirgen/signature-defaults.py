# A signature may leave out trailing parameters that have a default value:
# each then takes its default as a compile-time constant (FACTOR 2.5, BLOCK
# 128, ACT "relu" here), as `mgp.jit` does when a call leaves them out; an
# entry or a -D define still overrides it. A left-out parameter without a
# default, or whose default is not a compile-time constant, is a located error.
# RUN: mgpc %s -k scale --signature "*fp32:16,*fp32:16,i32" -emit=mlir | FileCheck %s --check-prefix=DEFAULTS
# RUN: mgpc %s -k scale --signature "*fp32:16,*fp32:16,i32,3.0,64,none" -emit=mlir | FileCheck %s --check-prefix=GIVEN
# RUN: mgpc %s -k scale --signature "*fp32:16,*fp32:16,i32" -D BLOCK=32 -emit=mlir | FileCheck %s --check-prefix=DEFINED
# RUN: not mgpc %s -k scale --signature "*fp32:16,*fp32:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=NODEFAULT --strict-whitespace
# RUN: not mgpc %s -k runtime_default --signature "*i32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=RUNTIME --strict-whitespace
# DEFAULTS: func.func @scale(%arg0: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}, %arg1: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}, %arg2: i32)
# DEFAULTS-DAG: arith.constant dense<2.500000e+00> : tensor<128xf32>
# DEFAULTS-DAG: arith.maxnumf
# GIVEN: func.func @scale(
# GIVEN-DAG: arith.constant dense<3.000000e+00> : tensor<64xf32>
# GIVEN-NOT: arith.maxnumf
# DEFINED: arith.constant dense<2.500000e+00> : tensor<32xf32>
# NODEFAULT: {{^.*}}signature-defaults.py:[[@LINE+10]]:5: error: the signature has 2 entries but kernel 'scale' has 6 parameters ('n' is left out and has no default value)
# NODEFAULT-NEXT: {{^}}def scale(x_ptr, y_ptr, n, FACTOR: tl.constexpr = 2.5, BLOCK: tl.constexpr = 128,{{$}}
# NODEFAULT-NEXT: {{^}}    ^~~~~{{$}}
# RUNTIME: {{^.*}}signature-defaults.py:[[@LINE+17]]:28: error: parameter 'n' has no signature entry and its default value is not a compile-time constant
# RUNTIME-NEXT: {{^}}def runtime_default(x_ptr, n=tl.program_id(0)):{{$}}
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, n, FACTOR: tl.constexpr = 2.5, BLOCK: tl.constexpr = 128,
          ACT: tl.constexpr = "relu"):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n) * FACTOR
    if ACT == "relu":
        x = tl.maximum(x, 0.0)
    tl.store(y_ptr + offs, x, mask=offs < n)


@triton.jit
def runtime_default(x_ptr, n=tl.program_id(0)):
    tl.store(x_ptr, n)
