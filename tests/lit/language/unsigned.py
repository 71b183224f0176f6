# Unsigned integers (uint8 ... uint64) keep Triton's semantics although the IR's
# integers are signless: division, remainder, right shift, comparisons,
# maximum/minimum, max reductions and conversions to float or wider integers
# choose their unsigned forms; mixed operands promote as C does (uint32 with
# int32 is uint32, uint8 with int32 is int32); dtype predicates know them; a
# combine function of tl.reduce sees the unsigned operands as unsigned.
# RUN: mgpc %s -k u32_ops --signature "*u32,*u32,*fp32,*i64,i32,64" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k mixed --signature "*u8,*i32,*u32,64" -emit=mlir | FileCheck %s --check-prefix=MIX
# RUN: mgpc %s -k casts --signature "*fp32,*i32,64" -emit=mlir | FileCheck %s --check-prefix=CAST
# RUN: mgpc %s -k loop_and_if --signature "*u32,i32,64" -emit=mlir | FileCheck %s --check-prefix=FLOW
# RUN: mgpc %s -k combine_fn --signature "*u32,64" -emit=mlir | FileCheck %s --check-prefix=COMBINE
# RUN: mgpc %s -k through_descriptors --signature "*u32,*u32,i32" -emit=mlir | FileCheck %s --check-prefix=DESC
# REQUIRES: ptxas
# RUN: mgpc %s -k u32_ops --signature "*u32,*u32,*fp32,*i64,i32,64" -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def u32_ops(x_ptr, y_ptr, f_ptr, w_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.static_assert(x.dtype == tl.uint32)
    tl.static_assert(x.dtype.is_int_unsigned() and not x.dtype.is_int_signed())
    tl.static_assert(x_ptr.dtype.element_ty == tl.uint32)
    q = x // (y | 1)
    r = x % (y | 1)
    s = x >> 3
    big = x > y
    m = tl.maximum(x, y)
    top = tl.max(x, axis=0)
    tl.store(y_ptr + offs, tl.where(big, q + r + s, m) + top)
    tl.store(f_ptr + offs, x.to(tl.float32))
    tl.store(w_ptr + offs, x.to(tl.int64))

# CHECK-LABEL: func.func @u32_ops
# CHECK: arith.divui
# CHECK: arith.remui
# CHECK: arith.shrui
# CHECK: arith.cmpi ugt
# CHECK: arith.maxui
# CHECK: mgp.reduce
# CHECK: arith.maxui
# CHECK: arith.uitofp
# CHECK: arith.extui


@triton.jit
def mixed(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)  # uint8
    b = tl.load(b_ptr + offs)  # int32
    c = tl.load(c_ptr + offs)  # uint32
    # uint8 with int32: int32 (the signed type is wider), so a signed shift.
    tl.store(b_ptr + offs, (a + b) >> 1)
    # int32 with uint32: uint32, a logical shift and an unsigned comparison.
    tl.store(c_ptr + offs, tl.where(b < c, (b + c) >> 1, c))
    tl.static_assert((a + b).dtype == tl.int32)
    tl.static_assert((b + c).dtype == tl.uint32)

# MIX-LABEL: func.func @mixed
# MIX: arith.extui {{.*}} : tensor<64xi8> to tensor<64xi32>
# MIX: arith.shrsi
# MIX: arith.cmpi ult
# MIX: arith.shrui


@triton.jit
def casts(f_ptr, i_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    f = tl.load(f_ptr + offs)
    u = f.to(tl.uint32)
    tl.static_assert(u.dtype == tl.uint32)
    back = u.to(tl.float32)
    bits = tl.load(i_ptr + offs).to(tl.uint32, bitcast=True)
    tl.store(f_ptr + offs, back + (bits >> 31).to(tl.float32))

# CAST-LABEL: func.func @casts
# CAST: arith.fptoui
# CAST: arith.uitofp
# CAST: arith.shrui
# CAST: arith.uitofp


@triton.jit
def loop_and_if(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(x_ptr + offs)
    for _ in range(n):
        h = (h >> 1) ^ (h * 3)
    if n > 2:
        h = h // 5
    tl.store(x_ptr + offs, h >> 2)

# FLOW-LABEL: func.func @loop_and_if
# FLOW: scf.for
# FLOW: arith.shrui
# FLOW: scf.if
# FLOW: arith.divui
# FLOW: arith.shrui


@triton.jit
def _bigger(a, b):
    return tl.where(a > b, a, b)


@triton.jit
def combine_fn(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr, tl.reduce(x, 0, _bigger))

# COMBINE-LABEL: func.func @combine_fn
# COMBINE: mgp.reduce
# COMBINE: arith.cmpi ugt


@triton.jit
def through_descriptors(x, y, n):
    # Blocks loaded through a tensor descriptor or a block pointer of an
    # unsigned tensor are unsigned.
    d = tl.make_tensor_descriptor(x, (n,), (1,), (16,))
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (16,), (0,))
    tl.store(y + tl.arange(0, 16), d.load([0]) // 3 + (tl.load(p, boundary_check=(0,)) >> 1))

# DESC-LABEL: func.func @through_descriptors
# DESC: arith.divui
# DESC: arith.shrui
# DESC-NOT: arith.divsi
