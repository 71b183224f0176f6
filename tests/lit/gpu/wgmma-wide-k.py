# A wgmma dot whose K tile is wider than one 128-byte swizzle atom (128
# fp16 elements: 256-byte rows) stages its K-contiguous operands in 128-byte
# column blocks (`blockCols`) and issues one wgmma per 16-element K step,
# each descriptor pointing into its block: the QK^T dot of attention at
# head_dim 128 and a matmul with BLOCK_K = 128 run on wgmma, not mma.sync.
# RUN: mgpc %s -k qk --signature "*fp16:16,*fp16:16,*fp32:16" --num-warps 8 --arch sm_90a -emit=mlir-gpu | FileCheck %s --check-prefix=QK
# RUN: mgpc %s -k loop --signature "*fp16:16,*fp16:16,*fp32:16,i32:16" --num-warps 4 --arch sm_90a -emit=mlir-gpu | FileCheck %s --check-prefix=LOOP
# RUN: mgpc %s -k qk --signature "*fp16:16,*fp16:16,*fp32:16" --num-warps 8 --arch sm_90a -o - | FileCheck %s --check-prefix=PTX
# RUN: mgpc %s -k loop --signature "*fp16:16,*fp16:16,*fp32:16,i32:16" --num-warps 4 --arch sm_90a -o - | FileCheck %s --check-prefix=LOOPPTX
# RUN: mgpc %s -k qk --signature "*fp16:16,*fp16:16,*fp32:16" --num-warps 8 --arch sm_90 -o - | FileCheck %s --check-prefix=SM90
# REQUIRES: ptxas
# RUN: mgpc %s -k loop --signature "*fp16:16,*fp16:16,*fp32:16,i32:16" --num-warps 4 --arch sm_90a -o %t.ptx
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def qk(q_ptr, k_ptr, s_ptr):
    rm = tl.arange(0, 128)
    rn = tl.arange(0, 64)
    rd = tl.arange(0, 128)
    q = tl.load(q_ptr + rm[:, None] * 128 + rd[None, :])
    k = tl.load(k_ptr + rn[:, None] * 128 + rd[None, :])
    tl.store(s_ptr + rm[:, None] * 64 + rn[None, :], tl.dot(q, tl.trans(k)))


@triton.jit
def loop(a_ptr, b_ptr, c_ptr, K):
    rm = tl.arange(0, 128)
    rn = tl.arange(0, 64)
    rk = tl.arange(0, 128)
    acc = tl.zeros((128, 64), dtype=tl.float32)
    for k in range(0, K, 128):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * 64 + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * 64 + rn[None, :], acc)

# QK: #[[A:shared[0-9]*]] = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 64}>
# QK: #[[B:shared[0-9]*]] = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], blockCols = 64}>
# QK-LABEL: func.func @qk
# QK: mgp.local_alloc {{.*}} -> !mgp.memdesc<128x128xf16, #[[A]]>
# QK: mgp.local_alloc {{.*}} -> !mgp.memdesc<64x128xf16, #[[A]]>
# QK: mgp.memdesc_trans {{.*}} : !mgp.memdesc<64x128xf16, #[[A]]> -> !mgp.memdesc<128x64xf16, #[[B]]>
# QK: mgp.warp_group_dot {{.*}} : !mgp.memdesc<128x128xf16, #[[A]]> * !mgp.memdesc<128x64xf16, #[[B]]>

# The pipeline's multi-buffered A keeps the blocks in every stage's buffer;
# B, N-contiguous in memory, is staged N-contiguous too (one 128-byte atom
# per K row), copied asynchronously, and read with wgmma's transpose bit.
# LOOP: #[[A:shared[0-9]*]] = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], blockCols = 64}>
# LOOP: #[[B:shared[0-9]*]] = #mgp.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
# LOOP-LABEL: func.func @loop
# LOOP: mgp.local_alloc {{.*}} : () -> !mgp.memdesc<{{[0-9]+}}x128x128xf16, #[[A]], mutable>
# LOOP: mgp.local_alloc {{.*}} : () -> !mgp.memdesc<{{[0-9]+}}x128x64xf16, #[[B]], mutable>
# LOOP: scf.for
# LOOP: mgp.warp_group_dot {{.*}} {isAsync} : !mgp.memdesc<128x128xf16, #[[A]], mutable> * !mgp.memdesc<128x64xf16, #[[B]], mutable>
# LOOP: mgp.warp_group_dot_wait
# LOOPPTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;

# 128 rows over two warp groups, K = 128 in 8 steps of 16: 8 wgmma per
# thread, none on mma.sync.
# PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
# PTX-NOT: wgmma.mma_async
# PTX-NOT: mma.sync
# SM90-NOT: wgmma
# SM90: mma.sync.aligned.m16n8k16
