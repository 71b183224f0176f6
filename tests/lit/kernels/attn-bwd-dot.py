# The fused-attention backward's inner step (Triton tutorial _attn_bwd_dkdv
# style): the A operand of `dv += tl.dot(ppT, do)` is computed in registers
# from another dot's result. Compiles for sm_90 (mma.sync) and sm_90a
# (wgmma), where an operand computed in registers is staged through shared
# memory for the warp-group dot.
# RUN: mgpc %s -k attn_bwd_dkdv --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32,64,64,64" --num-warps 4 --arch sm_90 -o %t90.ptx
# RUN: %ptxas -arch=sm_90 %t90.ptx -o %t90.cubin
# RUN: mgpc %s -k attn_bwd_dkdv --signature "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32,64,64,64" --num-warps 4 --arch sm_90a -o %t90a.ptx
# RUN: %ptxas -arch=sm_90a %t90a.ptx -o %t90a.cubin
# RUN: FileCheck %s --input-file %t90a.ptx
# REQUIRES: ptxas
import triton
import triton.language as tl


@triton.jit
def attn_bwd_dkdv(Q, K, V, DO, M, D, DK, DV, stride_tok, N_CTX,
                  BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N1
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :])
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :])
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    offs_m = tl.arange(0, BLOCK_M1)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None]
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :]
    curr_m = 0
    for blk in range(0, N_CTX // BLOCK_M1):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        do = tl.load(do_ptrs)
        ppT = pT.to(tl.float16)
        dv += tl.dot(ppT, do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += BLOCK_M1
        qT_ptrs += BLOCK_M1 * stride_tok
        do_ptrs += BLOCK_M1 * stride_tok
    tl.store(DV + offs_n[:, None] * stride_tok + offs_k[None, :], dv)
    tl.store(DK + offs_n[:, None] * stride_tok + offs_k[None, :], dk)

# CHECK: .visible .entry attn_bwd_dkdv(
# CHECK: wgmma.mma_async
