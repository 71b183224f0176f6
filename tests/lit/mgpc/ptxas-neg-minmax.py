# ptxas 13.0 for sm_90/sm_100 miscompiles `min.s32(a, neg.s32(b))` merged with
# a second min/max into VIMNMX3: the negation is dropped (JitGpu "padded
# reduce 1000": tl.min(-i) gave min(i) on the H200; see
# compiler/codegen/llvm/PtxasWorkarounds.h). An integer negation that feeds a
# min or max, in a reduction (8 registers a thread, the padding selected away)
# or elementwise, is emitted as inline `not` + `add 1` instead, for i32 and
# i64; ptxas accepts the PTX. A negation that feeds no min/max stays neg.
# REQUIRES: ptxas
# RUN: mgpc %S/../../unit/interp/padded_blocks.mgp -k reduce_1d --signature "*fp32:16,*fp32:16,1000" -o %t.r.ptx
# RUN: %ptxas -arch=sm_90 %t.r.ptx -o %t.r.cubin
# RUN: FileCheck %s --check-prefix=REDUCE --input-file %t.r.ptx
# RUN: mgpc %s -k neg_minmax --signature "*i32:16,*i32:16,*i32:16,i32:16,1024" -o %t.i32.ptx
# RUN: %ptxas -arch=sm_90 %t.i32.ptx -o %t.i32.cubin
# RUN: FileCheck %s --check-prefix=I32 --input-file %t.i32.ptx
# RUN: mgpc %s -k neg_minmax --signature "*i64:16,*i64:16,*i64:16,i32:16,256" -o %t.i64.ptx
# RUN: %ptxas -arch=sm_90 %t.i64.ptx -o %t.i64.cubin
# RUN: FileCheck %s --check-prefix=I64 --input-file %t.i64.ptx
# RUN: mgpc %s -k neg_only --signature "*i32:16,*i32:16,i32:16,1024" | FileCheck %s --check-prefix=PLAIN

# tl.min(-i, axis=0), tl.max(i): 8 negations a thread, then the min chain.
# REDUCE: .visible .entry reduce_1d(
# REDUCE-NOT: neg.s32
# REDUCE-COUNT-8: not.b32 [[R:%r[0-9]+]], %r{{[0-9]+}};{{[[:space:]]+}}add.s32 [[R]], [[R]], 1;
# REDUCE-NOT: neg.s32
# REDUCE: min.s32
# REDUCE-NOT: neg.s32

# I32: .visible .entry neg_minmax(
# I32-NOT: neg.s32
# I32: not.b32
# I32-NEXT: add.s32
# I32-NOT: neg.s32
# I32: {{min|max}}.s32
# I32-NOT: neg.s32

# I64: .visible .entry neg_minmax(
# I64-NOT: neg.s64
# I64: not.b64
# I64-NEXT: add.s64
# I64-NOT: neg.s64

# PLAIN: .visible .entry neg_only(
# PLAIN-NOT: not.b32
# PLAIN: neg.s32
# PLAIN-NOT: not.b32

import triton
import triton.language as tl


@triton.jit
def neg_minmax(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    m = tl.minimum(tl.maximum(a, -b), 7 - a)
    tl.store(out_ptr + offs, tl.minimum(m, -a), mask=mask)


@triton.jit
def neg_only(a_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, -a, mask=mask)
