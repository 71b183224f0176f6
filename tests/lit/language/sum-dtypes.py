# The result types of sum and cumsum, as Triton 3.6's standard.py picks them
# (_pick_sum_dtype): integers narrower than 32 bits accumulate in int32 with
# their sign, and bool is one of Triton's unsigned types, so a count of a
# mask is uint32. The static asserts hold in triton.compile too.
# RUN: mgpc %s -k sum_types --signature "*fp32,*u32" -D SUM=uint32 -emit=mlir | FileCheck %s
# RUN: not mgpc %s -k sum_types --signature "*fp32,*u32" -D SUM=int32 -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
import triton
import triton.language as tl


@triton.jit
def sum_types(x_ptr, y_ptr, SUM: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 64))
    b = x > 0
    s = tl.sum(b, axis=0)
    tl.static_assert(s.dtype == SUM)
    c = tl.cumsum(b, axis=0)
    tl.static_assert(c.dtype == SUM)
    tl.static_assert(tl.sum(b.to(tl.int8), axis=0).dtype == tl.int32)
    tl.static_assert(tl.sum(b.to(tl.uint16), axis=0).dtype == tl.uint32)
    tl.static_assert(tl.cumsum(b.to(tl.int16), axis=0).dtype == tl.int32)
    tl.store(y_ptr + tl.arange(0, 64), c + s)

# The mask widens with zeros before it is summed.
# CHECK-LABEL: func.func @sum_types
# CHECK: arith.extui %{{.*}} : tensor<64xi1> to tensor<64xi32>
# CHECK: mgp.reduce
# CHECK: mgp.scan
# ERR: sum-dtypes.py:16:22: error: static assertion failed
