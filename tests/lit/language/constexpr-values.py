# Dtype and string constexprs, given in the signature or with -D.
# RUN: mgpc %s -k act --signature "*fp32,*fp32,i32,256,bf16,'gelu'" -emit=mlir | FileCheck %s --check-prefix=GELU
# RUN: mgpc %s -k act --signature "*fp32,*fp32,i32,256,fp16,relu" -emit=mlir | FileCheck %s --check-prefix=RELU
# RUN: mgpc %s -k act --signature "*fp32,*fp32,i32" -D BLOCK=256 -D X_dtype=tl.float16 -D ACTIVATION=relu -emit=mlir | FileCheck %s --check-prefix=RELU
# RUN: mgpc %s -k act --signature "*fp32,*fp32,i32" -D BLOCK=256 -D X_dtype=bf16 -D 'ACTIVATION="gelu"' -emit=mlir | FileCheck %s --check-prefix=GELU
# RUN: not mgpc %s -k act --signature "*fp32,*fp32,i32" -D BLOCK=256 -D X_dtype=bf16 -D ACTIVATION=swish -emit=mlir 2>&1 | FileCheck %s --check-prefix=BAD
import triton
import triton.language as tl


@triton.jit
def act(x_ptr, y_ptr, n, BLOCK: tl.constexpr, X_dtype: tl.constexpr, ACTIVATION: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(X_dtype)
    if ACTIVATION == "gelu":
        y = 0.5 * x * (1 + tl.erf(x.to(tl.float32) * 0.7071067811865476))
    elif ACTIVATION == "relu":
        y = tl.maximum(x, 0.0)
    else:
        tl.static_assert(False, "unknown activation " + ACTIVATION)
    tl.store(y_ptr + offs, y, mask=offs < n)

# GELU-LABEL: func.func @act
# GELU: arith.truncf {{.*}} to tensor<256xbf16>
# GELU: math.erf
# RELU-LABEL: func.func @act
# RELU: arith.truncf {{.*}} to tensor<256xf16>
# RELU-NOT: math.erf
# RELU: arith.maxnumf
# BAD: constexpr-values.py:20:26: error: static assertion failed: unknown activation swish
