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
