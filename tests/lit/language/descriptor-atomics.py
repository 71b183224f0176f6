# Reductions through a tensor descriptor (desc.atomic_add/min/max/and/or/xor,
# Triton's TMA reductions): relaxed atomics on the block's elements, masked
# to the descriptor's shape in every dimension, unsigned for an unsigned
# base; fp16/bf16 min/max are 16-bit float max/min (a compare-and-swap loop
# in PTX, or sm_90's vector atom for consecutive aligned elements, checked at
# run time when only the run time knows the alignment and masks); element
# types outside Triton's sets (fp32 min/max) are errors, and
# so is tl.atomic_max of fp16 outside a descriptor (as in Triton).
# RUN: mgpc %s -k desc_reduce --signature "*i32,*i32,i32,i32" -D KIND=max -emit=mlir | FileCheck %s
# RUN: mgpc %s -k desc_reduce --signature "*fp16,*fp16,i32,i32" -D KIND=max -emit=mlir | FileCheck %s --check-prefix=F16
# RUN: not mgpc %s -k plain_max --signature "*fp16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: not mgpc %s -k desc_reduce --signature "*fp32,*fp32,i32,i32" -D KIND=max -emit=mlir 2>&1 | FileCheck %s --check-prefix=F32
# RUN: mgpc %s -k desc_reduce --signature "*u32,*u32,i32,i32" -D KIND=max -emit=mlir | FileCheck %s --check-prefix=U32
# REQUIRES: ptxas
# RUN: mgpc %s -k desc_reduce --signature "*fp32,*fp32,i32,i32" -D KIND=add --arch sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: mgpc %s -k desc_min_bf16 --signature "*bf16,*bf16,i32,i32" --arch sm_90a -o %t.bf16.ptx && %ptxas -arch=sm_90a %t.bf16.ptx -o %t.bf16.cubin
# RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.ptx
# RUN: mgpc %s -k desc_min_bf16 --signature "*bf16,*bf16,i32,i32" --arch sm_80 -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin
# RUN: FileCheck %s --check-prefix=SM80 < %t.sm80.ptx
# RUN: mgpc %s -k desc_min_bf16 --signature "*bf16:16,*bf16:16,i32:16,i32:16" --arch sm_90a -o %t.vec.ptx && %ptxas -arch=sm_90a %t.vec.ptx -o %t.vec.cubin
# RUN: FileCheck %s --check-prefix=VEC < %t.vec.ptx
import triton
import triton.language as tl


@triton.jit
def desc_reduce(out_ptr, a_ptr, M, N, KIND: tl.constexpr):
    moffset = tl.program_id(0) * 8
    noffset = tl.program_id(1) * 16
    midx = moffset + tl.arange(0, 8)[:, None]
    nidx = noffset + tl.arange(0, 16)[None, :]
    val = tl.load(a_ptr + midx * N + nidx)
    desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[8, 16])
    if KIND == "add":
        desc.atomic_add([moffset, noffset], val)
    else:
        desc.atomic_max([moffset, noffset], val)
# F32: descriptor-atomics.py:[[@LINE-1]]:9: error: desc.atomic_max does not support fp32 elements (Triton's descriptor reductions: Unsupported dtype)
# U32: atomic_rmw_kind umax

# CHECK-LABEL: func.func @desc_reduce
# CHECK: %[[ROWS:.*]] = arith.andi {{.*}} : tensor<8x1xi1>
# CHECK: %[[COLS:.*]] = arith.andi {{.*}} : tensor<1x16xi1>
# CHECK: %[[MASK:.*]] = arith.andi {{.*}} : tensor<8x16xi1>
# CHECK: mgp.atomic_rmw %{{.*}}, %{{.*}}, %[[MASK]] {kind = #mgp<atomic_rmw_kind max>, scope = #mgp<scope gpu>, sem = #mgp<sem relaxed>}
# CHECK-NOT: mgp.atomic_rmw

# F16-LABEL: func.func @desc_reduce
# F16: mgp.atomic_rmw {{.*}} {kind = #mgp<atomic_rmw_kind fmax>, scope = #mgp<scope gpu>, sem = #mgp<sem relaxed>} : tensor<8x16x!mgp.ptr<f16>>

# PTX: atom.relaxed.gpu.global.add.f32


@triton.jit
def plain_max(x_ptr):
    offs = tl.arange(0, 16)
    tl.atomic_max(x_ptr + offs, tl.load(x_ptr + offs))
# ERR: descriptor-atomics.py:[[@LINE-1]]:5: error: atomic_max does not support floats other than fp32 and fp64 (got fp16)


@triton.jit
def desc_min_bf16(out_ptr, a_ptr, M, N):
    # Four consecutive elements a thread.
    rows = tl.arange(0, 32)[:, None]
    cols = tl.arange(0, 16)[None, :]
    val = tl.load(a_ptr + rows * N + cols)
    desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[32, 16])
    desc.atomic_min([0, 0], val)

# sm_80 has no vector atom: four elements a thread, each its own loop, with
# its own labels.
# SM80-NOT: noftz
# SM80: mgp_hminmax_loop_[[ID:[0-9]+]]:
# SM80: min.bf16 %want, %seen,
# SM80: atom.relaxed.gpu.global.cas.b16
# SM80: @%p bra mgp_hminmax_loop_[[ID]];
# SM80: mgp_hminmax_loop_[[ID2:[0-9]+]]:
# SM80-COUNT-2: mgp_hminmax_loop_
# SM80-NOT: noftz
# sm_90 with N unknown: the four consecutive elements go as one vector atom
# when their first address is 8-byte aligned and all four are in (the
# predicate), else each element that is in runs its loop.
# BF16: and.b64 [[LOW:%rd[0-9]+]], [[ADDR:%rd[0-9]+]], 7;
# BF16: setp.eq.b64 {{%p[0-9]+}}, [[LOW]], 0;
# BF16: @[[FAST:%p[0-9]+]] atom.relaxed.gpu.global.min.noftz.v4.bf16 {{{.*}}}, [ [[ADDR]] + 0 ], {{{.*}}};
# BF16: mgp_hminmax_loop_[[ID:[0-9]+]]:
# BF16: min.bf16 %want, %seen,
# BF16: atom.relaxed.gpu.global.cas.b16 {{.*}}, [ [[ADDR]] + 0 ]
# BF16: @%p bra mgp_hminmax_loop_[[ID]];
# BF16: mgp_hminmax_loop_[[ID2:[0-9]+]]:
# BF16-COUNT-2: mgp_hminmax_loop_
# BF16-NOT: atom.relaxed.gpu.global.min.noftz
# VEC: atom.relaxed.gpu.global.min.noftz.v4.bf16 {{{.*}}}, [ %rd{{[0-9]+}} + 0 ], {{{.*}}};
# VEC-NOT: mgp_hminmax_loop_
