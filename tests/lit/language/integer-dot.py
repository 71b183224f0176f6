# Integer tl.dot: two signed int8 operands stay int8 (mgp.dot's signed bytes,
# tensor cores: here a 64x64x64 block at 4 warps on sm_90a is one warp group
# of wgmma m64n64k32 .s32.s8.s8); uint8 operands widen to int32 by their
# signedness and accumulate in int32 on CUDA cores (the FMA lowering: mul and
# add); the result is int32 whatever integer out_dtype is given (Triton's
# semantic.dot).
# RUN: mgpc %s -k int8_matmul --signature "*i8,*i8,*i32,64" -emit=mlir | FileCheck %s
# RUN: mgpc %s -k int8_matmul --signature "*u8,*u8,*i32,64" -emit=mlir | FileCheck %s --check-prefix=U8
# RUN: mgpc %s -k int8_out --signature "*i8,*i32,32" -emit=mlir | FileCheck %s --check-prefix=OUT8
# REQUIRES: ptxas
# RUN: mgpc %s -k int8_matmul --signature "*i8,*i8,*i32,64" --arch sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
import triton
import triton.language as tl


@triton.jit
def int8_matmul(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    b = tl.load(b_ptr + offs[:, None] * BLOCK + offs[None, :])
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.int32)
    acc += tl.dot(a, b, out_dtype=tl.int32)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], acc)

# CHECK-LABEL: func.func @int8_matmul
# CHECK-NOT: arith.extsi
# CHECK: mgp.dot {{.*}} : tensor<64x64xi8> * tensor<64x64xi8> -> tensor<64x64xi32>
# U8: arith.extui {{.*}} : tensor<64x64xi8> to tensor<64x64xi32>
# U8: mgp.dot {{.*}} : tensor<64x64xi32> * tensor<64x64xi32> -> tensor<64x64xi32>
# PTX-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
# PTX-NOT: wgmma.mma_async


@triton.jit
def int8_out(a_ptr, c_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs[:, None] * BLOCK + offs[None, :])
    c = tl.dot(a, a, out_dtype=tl.int8)
    tl.static_assert(c.dtype == tl.int32)
    tl.store(c_ptr + offs[:, None] * BLOCK + offs[None, :], c)

# OUT8-LABEL: func.func @int8_out
# OUT8: %[[D:.*]] = mgp.dot {{.*}} -> tensor<32x32xi32>
# OUT8-NOT: arith.trunci
# OUT8: mgp.store {{.*}} : tensor<32x32x!mgp.ptr<i32>>
