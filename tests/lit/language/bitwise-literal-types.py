# Bitwise operators and shifts with an integer literal keep the block's type,
# as Triton types them (the literal is typed like an arithmetic operand
# first): int16 << 6 is int16, uint16 & 7 is uint16, int8 ^ 3 is int8, so a
# shift out of a narrow type wraps in that type. Two blocks still promote
# (int8 | int16 is int16). static_print names unsigned dtypes (uint16).
# RUN: mgpc %s -k types --signature "*u8:16" -emit=mlir 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def types(p):
    x = tl.load(p + tl.arange(0, 16))
    a = x.to(tl.int16)
    b = x.to(tl.uint16)
    c = x.to(tl.int8)
    tl.static_print("int16:", (a << 6).dtype, (a >> 2).dtype, (a & 7).dtype, (a | 7).dtype,
                    (a ^ 7).dtype)
    tl.static_print("uint16:", (b << 6).dtype, (b >> 2).dtype, (b & 7).dtype, (6 | b).dtype)
    tl.static_print("int8:", (c << 1).dtype, (3 ^ c).dtype)
    tl.static_print("blocks:", (c | a).dtype, (b & c).dtype)
    tl.store(p + tl.arange(0, 16), (x << 4) >> 4)

# CHECK: int16: int16 int16 int16 int16 int16
# CHECK: uint16: uint16 uint16 uint16 uint16
# CHECK: int8: int8 int8
# CHECK: blocks: int16 uint16
# x << 4 on uint8 wraps in 8 bits before the logical shift right.
# CHECK-LABEL: func.func @types
# CHECK: %[[L:.*]] = arith.shli %{{.*}}, %{{.*}} : tensor<16xi8>
# CHECK: arith.shrui %[[L]], %{{.*}} : tensor<16xi8>
