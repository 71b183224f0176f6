# tl.cat and tl.atomic_cas keep their elements' unsigned type (uint8 stays
# uint8, as Triton's dtypes say), so what follows compares and divides them
# as unsigned. The same static asserts compile with triton.compile.
# RUN: mgpc %s -k unsigned_cat_cas --signature "*u8,*u32" -emit=mlir | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def unsigned_cat_cas(a_ptr, b_ptr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    both = tl.cat(a, a, can_reorder=True)
    tl.static_assert(both.dtype == tl.uint8)
    big = both > 200
    old = tl.atomic_cas(b_ptr + offs, offs.to(tl.uint32), offs.to(tl.uint32) + 1)
    tl.static_assert(old.dtype == tl.uint32)
    tl.store(b_ptr + offs, old // 3)
    tl.store(a_ptr + tl.arange(0, 32), big.to(tl.uint8))

# CHECK-LABEL: func.func @unsigned_cat_cas
# CHECK: arith.cmpi ugt, %{{.*}} : tensor<32xi8>
# CHECK: mgp.atomic_cas
# CHECK: arith.divui %{{.*}} : tensor<16xi32>
