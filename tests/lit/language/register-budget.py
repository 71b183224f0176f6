# A block beyond the per-thread register budget stops at once with a located
# error naming the block, its registers per thread and the warps to try.
# RUN: not mgpc %s -k big --signature "*fp32,1024,128" 2>&1 | FileCheck %s --strict-whitespace
# RUN: not mgpc %s -k big --signature "*fp32,512,128" --num-warps 4 2>&1 | FileCheck %s --check-prefix=W4
# RUN: not mgpc %s -k row --signature "*fp32,32768" --num-warps 2 2>&1 | FileCheck %s --check-prefix=ROW
# RUN: mgpc %s -k row --signature "*fp32,32768" --num-warps 8 -emit=mlir | FileCheck %s --check-prefix=OK
# A [256, 128] fp32 tile at 4 warps is at the budget (its pointer block
# counts 32 bits per element) and compiles.
# RUN: mgpc %s -k big --signature "*fp32,256,128" --num-warps 4 -emit=mlir | FileCheck %s --check-prefix=TILE
import triton
import triton.language as tl


@triton.jit
def big(p, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(p + offs)
    tl.store(p + offs, x * 2.0)


@triton.jit
def row(p, BLOCK: tl.constexpr):
    x = tl.load(p + tl.arange(0, BLOCK))
    tl.store(p, tl.sum(x, axis=0))

# CHECK: register-budget.py:16:5: error: a block of shape [1024, 128] of int32 needs 1024 registers per thread at num_warps=4, more than mgp's budget of 256 for one block; use num_warps=16 or more, or smaller blocks
# CHECK-NEXT: {{^}}    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]{{$}}
# CHECK-NOT: mgpc: error:
# W4: error: a block of shape [512, 128] of int32 needs 512 registers per thread at num_warps=4, more than mgp's budget of 256 for one block; use num_warps=8 or more
# ROW: register-budget.py:23:5: error: a block of shape [32768] of int32 needs 512 registers per thread at num_warps=2{{.*}}use num_warps=4 or more
# OK: func.func @row
# TILE: func.func @big


# A dot on CUDA cores (integer but signed int8, fp64) unrolls M*N*K / threads
# multiply-adds per thread; beyond 16384 it stops with the warps that fit.
# Signed int8 runs on tensor cores: only its accumulator's registers count.
# RUN: not mgpc %s -k int_dot --signature "*i16,*i32,128,64" --num-warps 1 2>&1 | FileCheck %s --check-prefix=DOT
# RUN: not mgpc %s -k int_dot --signature "*i8,*i32,128,64" --num-warps 1 2>&1 | FileCheck %s --check-prefix=DOTI8
# RUN: not mgpc %s -k int_dot --signature "*u8,*i32,256,64" --num-warps 4 2>&1 | FileCheck %s --check-prefix=UDOT
# RUN: mgpc %s -k int_dot --signature "*i8,*i32,128,64" --num-warps 2 -emit=mlir | FileCheck %s --check-prefix=DOTOK
@triton.jit
def int_dot(p, out, BM: tl.constexpr, BK: tl.constexpr):
    a = tl.load(p + tl.arange(0, BM)[:, None] * BK + tl.arange(0, BK)[None, :])
    b = tl.load(p + tl.arange(0, BK)[:, None] * BM + tl.arange(0, BM)[None, :])
    c = tl.dot(a, b)
    tl.store(out + tl.arange(0, BM)[:, None] * BM + tl.arange(0, BM)[None, :], c)
# DOT: register-budget.py:[[@LINE-2]]:9: error: a dot of [128, 64] @ [64, 128] of int16 runs on CUDA cores and unrolls 32768 multiply-adds per thread at num_warps=1, more than mgp's budget of 16384; use num_warps=2 or more, or smaller blocks
# UDOT: error: a dot of [256, 64] @ [64, 256] of uint8 runs on CUDA cores and unrolls 32768 multiply-adds per thread at num_warps=4, more than mgp's budget of 16384; use num_warps=8 or more, or smaller blocks
# DOTOK: mgp.dot {{.*}} -> tensor<128x128xi32>
# DOTI8: register-budget.py:[[@LINE-5]]:5: error: a block of shape [128, 128] of int32 needs 512 registers per thread at num_warps=1{{.*}}use num_warps=2 or more
