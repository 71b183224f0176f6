# wgmma's RS form: a 16-bit A that its threads already hold as the wgmma A
# fragment (P = exp(S) of attention, computed from the previous wgmma's
# accumulator) is read from registers: no shared-memory staging of P, no
# barrier before the second dot. The convert from the accumulator layout
# is a register permutation; B (V) stays a shared-memory descriptor.
# RUN: mgpc %s -k attend --signature "*fp16:16,*fp16:16,*fp16:16,*fp32:16" --num-warps 4 --arch sm_90a -emit=mlir-gpu | FileCheck %s
# RUN: mgpc %s -k attend --signature "*fp16:16,*fp16:16,*fp16:16,*fp32:16" --num-warps 4 --arch sm_90a -o - | FileCheck %s --check-prefix=PTX
# REQUIRES: ptxas
# RUN: mgpc %s -k attend --signature "*fp16:16,*fp16:16,*fp16:16,*fp32:16" --num-warps 4 --arch sm_90a -o %t.ptx
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
import triton
import triton.language as tl


@triton.jit
def attend(q_ptr, k_ptr, v_ptr, o_ptr):
    rm = tl.arange(0, 64)
    rn = tl.arange(0, 64)
    rd = tl.arange(0, 64)
    q = tl.load(q_ptr + rm[:, None] * 64 + rd[None, :])
    k = tl.load(k_ptr + rn[:, None] * 64 + rd[None, :])
    v = tl.load(v_ptr + rn[:, None] * 64 + rd[None, :])
    s = tl.dot(q, tl.trans(k))
    p = tl.exp2(s - tl.max(s, 1)[:, None])
    o = tl.dot(p.to(tl.float16), v)
    tl.store(o_ptr + rm[:, None] * 64 + rd[None, :], o)

# CHECK: #[[MMA:mma[0-9]*]] = #mgp.mma<{version = 3
# CHECK: #[[A:dot_op[0-9]*]] = #mgp.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
# CHECK-LABEL: func.func @attend
# CHECK: mgp.warp_group_dot
# CHECK: %[[P:.*]] = arith.truncf {{.*}} to tensor<64x64xf16, #{{.*}}>
# CHECK: %[[PA:.*]] = mgp.convert_layout %[[P]] : tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf16, #[[A]]>
# CHECK-NOT: mgp.local_alloc
# CHECK-NOT: mgp.barrier
# CHECK: mgp.warp_group_dot %[[PA]], %{{.*}}, %{{.*}} : tensor<64x64xf16, #[[A]]> * !mgp.memdesc<64x64xf16

# Four K steps of 16, each with four A registers and B's descriptor.
# PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
