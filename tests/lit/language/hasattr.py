# Python's hasattr in a kernel (Triton's code generator has it): whether the
# attribute resolves, a constant, so it can pick a static branch. The same
# static asserts compile with triton.compile.
# RUN: mgpc %s -k has_attr --signature "*fp32" -emit=mlir | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def has_attr(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.static_assert(hasattr(tl, "exp"))
    tl.static_assert(not hasattr(tl, "no_such_builtin"))
    tl.static_assert(hasattr(x, "dtype"))
    tl.static_assert(not hasattr(x, "no_such_field"))
    if hasattr(tl, "exp2"):
        x = tl.exp2(x)
    else:
        x = tl.exp(x)
    tl.store(x_ptr + tl.arange(0, 16), x)

# CHECK-LABEL: func.func @has_attr
# CHECK: math.exp2
# CHECK-NOT: math.exp %
