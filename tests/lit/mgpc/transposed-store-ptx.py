# A matmul whose result is stored column-major (consecutive rows contiguous,
# as a transposed output or an NCHW tile): the coalesced store layout holds 4
# consecutive rows per thread, the wgmma accumulator 2 consecutive columns, so
# the conversion goes through shared memory. Both layouts hold columns 8 and 16
# apart in registers, and the scratch (SharedScratch.h's vector layout) keeps
# those at consecutive addresses: every thread stores and loads 16-byte runs
# (16 st.shared.v4 and 16 ld.shared.v4 for 64 fp32 registers), with no scalar
# shared access. In fp16 the 16-byte run is 8 elements: columns 8, 16 and 32
# apart, 8 st.shared.v4 and 8 ld.shared.v4 for 64 registers.
# REQUIRES: ptxas
# RUN: mgpc %s -k matmul_store_cols --arch=sm_90a --num-warps=8 --num-stages=3 --signature "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16,256,64,64" -o %t.f32.ptx
# RUN: %ptxas -arch=sm_90a -v %t.f32.ptx -o %t.f32.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=F32 --input-file %t.f32.ptx
# RUN: mgpc %s -k matmul_store_cols --arch=sm_90a --num-warps=8 --num-stages=3 --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,256,64,64" -o %t.f16.ptx
# RUN: %ptxas -arch=sm_90a -v %t.f16.ptx -o %t.f16.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
# RUN: FileCheck %s --check-prefix=F16 --input-file %t.f16.ptx

# ptxas keeps the wgmmas asynchronous (the K loop may run zero times: the
# accumulator's zero copies must not sit on a block of their own, C7515).
# PTXAS-NOT: serialized
# PTXAS: Used {{[0-9]+}} registers

# F32-NOT: {{(ld|st)}}.shared.b32
# F32-COUNT-16: st.shared.v4.b32
# F32-NOT: {{(ld|st)}}.shared.b32
# F32: bar.sync
# F32-COUNT-16: ld.shared.v4.b32
# F32-NOT: {{(ld|st)}}.shared
# F32: ret;

# F16-NOT: {{(ld|st)}}.shared.{{b16|b32|v2}}
# F16-COUNT-8: st.shared.v4.b32
# F16-NOT: {{(ld|st)}}.shared.{{b16|b32|v2}}
# F16: bar.sync
# F16-COUNT-8: ld.shared.v4.b32
# F16-NOT: {{(ld|st)}}.shared
# F16: ret;

import triton
import triton.language as tl


@triton.jit
def matmul_store_cols(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + offs_m[:, None] * K + (k + offs_k)[None, :])
        b = tl.load(b_ptr + (k + offs_k)[:, None] * N + offs_n[None, :])
        acc += tl.dot(a, b)
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + offs_m[:, None] + offs_n[None, :] * M, c)
