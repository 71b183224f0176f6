# dot_scaled's unpacking runs in the layout the dot reads its operand in:
# the e2m1 bytes (pipelined into shared memory with the bf16 tile) and the
# e8m0 scales are gathered by each thread straight into the registers of an
# mma.sync operand, with no reshape, reduction or staging of the upcast
# tile; for a warp-group (wgmma) dot, in the 16-byte rows of the bytes' load,
# then stored once into the operand's shared buffer.
# RUN: mgpc %s -k loop --signature "*bf16:16,*u8:16,*u8:16,*fp32:16,i32:16,64,64,128" --num-warps 4 --arch sm_80 -emit=mlir-gpu | FileCheck %s
# RUN: mgpc %s -k block --signature "*bf16:16,*u8:16,*u8:16,*fp32:16" --num-warps 4 --arch sm_90a -emit=mlir-gpu | FileCheck %s --check-prefix=WG
# REQUIRES: ptxas
# RUN: mgpc %s -k loop --signature "*bf16:16,*u8:16,*u8:16,*fp32:16,i32:16,64,64,128" --num-warps 4 --arch sm_80 -o %t.ptx
# RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def loop(x_ptr, w_ptr, s_ptr, c_ptr, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
         BLOCK_K: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + rm[:, None] * K + (k + tl.arange(0, BLOCK_K))[None, :])
        w = tl.load(w_ptr + (k // 2 + tl.arange(0, BLOCK_K // 2))[:, None] * BLOCK_N + rn[None, :])
        s = tl.load(s_ptr + rn[:, None] * (K // 32) + (k // 32 + tl.arange(0, BLOCK_K // 32))[None, :])
        acc = tl.dot_scaled(x, None, "bf16", w, s, "e2m1", acc)
    tl.store(c_ptr + rm[:, None] * BLOCK_N + rn[None, :], acc)

# CHECK: #[[MMA:mma[0-9]*]] = #mgp.mma<{version = 2
# CHECK: #[[B:dot_op[0-9]*]] = #mgp.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
# CHECK-LABEL: func.func @loop
# CHECK: scf.for
# CHECK-NOT: mgp.reshape
# CHECK-NOT: mgp.reduce
# CHECK: mgp.gather {{.*}} : (tensor<64x64xi8, {{.*}}>, tensor<128x64xi32, #[[B]]>) -> tensor<128x64xi8, #[[B]]>
# CHECK-NOT: mgp.convert_layout
# CHECK: mgp.gather {{.*}} : (tensor<4x64xi8, {{.*}}>, tensor<128x64xi32, #[[B]]>) -> tensor<128x64xi8, #[[B]]>
# CHECK-NOT: mgp.convert_layout
# CHECK-NOT: mgp.local_alloc
# CHECK: arith.mulf {{.*}} : tensor<128x64xbf16, #[[B]]>
# CHECK-NOT: mgp.convert_layout
# CHECK: mgp.dot {{.*}}, {{.*}}, {{.*}} : tensor<64x128xbf16, {{.*}}> * tensor<128x64xbf16, #[[B]]>
# CHECK: scf.yield


@triton.jit
def block(x_ptr, w_ptr, s_ptr, c_ptr):
    r = tl.arange(0, 64)
    x = tl.load(x_ptr + r[:, None] * 64 + r[None, :])
    w = tl.load(w_ptr + tl.arange(0, 32)[:, None] * 64 + r[None, :])
    s = tl.load(s_ptr + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(x, None, "bf16", w, s, "e2m1")
    tl.store(c_ptr + r[:, None] * 64 + r[None, :], c)

# WG: #[[ROWS:blocked[0-9]*]] = #mgp.blocked<{sizePerThread = [1, 16]
# WG-LABEL: func.func @block
# WG: mgp.gather {{.*}} : (tensor<32x64xi8, #[[ROWS]]>, tensor<64x64xi32, #[[ROWS]]>) -> tensor<64x64xi8, #[[ROWS]]>
# WG: mgp.gather {{.*}} -> tensor<64x64xi8, #[[ROWS]]>
# WG-NOT: mgp.convert_layout
# WG: mgp.local_alloc {{.*}} : (tensor<64x64xbf16, #[[ROWS]]>)
# WG: mgp.warp_group_dot
