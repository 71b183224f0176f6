# The split of a split-precision ("tf32x3") wgmma dot's fp32 operands runs in
# the layouts their loads chose (16-byte rows, K contiguous), not in the
# module's default layout (one element a thread, sized for the accumulator,
# which would hold a 128x16 operand four times over): the parts are then
# read and stored with vector shared-memory accesses.
# RUN: mgpc %s -k mm --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,128,64,16" --num-warps 8 --arch sm_90a -emit=mlir-gpu | FileCheck %s
# REQUIRES: ptxas
# RUN: mgpc %s -k mm --signature "*fp32:16,*fp32:16,*fp32:16,i32:16,128,64,16" --num-warps 8 --arch sm_90a -o %t.ptx
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
       BLOCK_K: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BLOCK_N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision="tf32x3")
    tl.store(c_ptr + rm[:, None] * BLOCK_N + rn[None, :], acc)

# CHECK: #[[ALOAD:blocked[0-9]*]] = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
# CHECK-LABEL: func.func @mm
# CHECK: scf.for
# CHECK-NOT: mgp.convert_layout
# CHECK: arith.subf {{.*}} : tensor<128x16xf32, #[[ALOAD]]>
# CHECK: mgp.warp_group_dot
# PTX: ld.shared.v4.b32
# PTX: st.shared.v4.b32
