# tl.load's cache_modifier: ".ca" (L1 and L2), ".cg" (L2 only) and ".cv"
# (fetch again) are PTX cache operators on the load; a pipelined ".ca" load
# becomes a 16-byte cp.async.ca (the default 16-byte copy is .cg), a ".cv"
# load in a dot loop stays a load; anything else is a located error.
# RUN: mgpc %s -k cached_copies --signature "*fp32:16,*fp32:16,i32" --arch sm_90a -o - | FileCheck %s --check-prefix=LOADS
# RUN: mgpc %s -k matmul_a_cache --signature '*fp16:16,*fp16:16,*fp32:16,i32:16,32,".ca"' --arch sm_90a -o - | FileCheck %s --check-prefix=COPIES
# RUN: mgpc %s -k matmul_a_cache --signature '*fp16:16,*fp16:16,*fp32:16,i32:16,32,".cv"' --arch sm_90a -o - | FileCheck %s --check-prefix=VOLATILE
# RUN: not mgpc %s -k bad_cache --signature "*fp32" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BAD
# REQUIRES: ptxas
# RUN: mgpc %s -k cached_copies --signature "*fp32:16,*fp32:16,i32" --arch sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: mgpc %s -k matmul_a_cache --signature '*fp16:16,*fp16:16,*fp32:16,i32:16,32,".ca"' --arch sm_90a -o %t2.ptx && %ptxas -arch=sm_90a %t2.ptx -o %t2.cubin
import triton
import triton.language as tl


@triton.jit
def cached_copies(x_ptr, y_ptr, n):
    offs = tl.program_id(0) * 512 + tl.arange(0, 512)
    mask = offs < n
    a = tl.load(x_ptr + offs, cache_modifier=".ca")
    b = tl.load(x_ptr + offs, mask=mask, other=0.0, cache_modifier=".cg")
    c = tl.load(x_ptr + offs, cache_modifier=".cv")
    d = tl.load(x_ptr + offs, cache_modifier="")
    block = tl.make_block_ptr(x_ptr, (n,), (1,), (tl.program_id(0) * 512,),
                              (512,), (0,))
    e = tl.load(block, boundary_check=(0,), cache_modifier=".cv")
    tl.store(y_ptr + offs, a + b + c + d + e, mask=mask)


@triton.jit
def matmul_a_cache(a_ptr, b_ptr, c_ptr, K, BLOCK_K: tl.constexpr,
                   A_CACHE: tl.constexpr):
    offs_m = tl.arange(0, 64)
    offs_n = tl.arange(0, 64)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * 64 + offs_n[None, :]
    acc = tl.zeros((64, 64), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, cache_modifier=A_CACHE)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * 64
    tl.store(c_ptr + offs_m[:, None] * 64 + offs_n[None, :], acc)


@triton.jit
def bad_cache(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr, cache_modifier=".wb") + 1)

# LOADS-LABEL: .entry cached_copies
# LOADS-DAG: ld.global.ca.v4.b32
# LOADS-DAG: ld.global.cg.b32
# LOADS-DAG: ld.global.cv.v4.b32
# LOADS-DAG: ld.global.cv.b32
# LOADS-DAG: ld.global.v4.b32

# COPIES-LABEL: .entry matmul_a_cache
# COPIES-DAG: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16
# COPIES-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
# COPIES: wgmma.mma_async

# VOLATILE-LABEL: .entry matmul_a_cache
# VOLATILE-NOT: cp.async.ca
# VOLATILE: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
# VOLATILE-NOT: cp.async.ca
# VOLATILE: ld.global.cv.v4.b32
# VOLATILE-NOT: cp.async.ca

# BAD: cache-modifier.py:50:51: error: cache_modifier must be "", ".ca", ".cg" or ".cv", got string '.wb'
# BAD-NEXT: tl.store(x_ptr, tl.load(x_ptr, cache_modifier=".wb") + 1)
# BAD-NEXT: ^~~~~
