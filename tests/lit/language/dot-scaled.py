# tl.dot_scaled as Triton decomposes it on GPUs without scaled mma: each
# operand upcast to bf16 (e2m1 nibbles, low one first, gathered and decoded
# by bits and a power of two; fp8 converted), times its e8m0 scale (the byte shifted into a
# bf16 exponent, gathered over groups of 32 along K), NaN where the scale
# byte is 0xFF, then a bf16 dot accumulating in fp32 (wgmma on sm_90a); and
# the located errors of misuse.
# RUN: mgpc %s -k mx --signature "*u8:16,*u8:16,*fp8e4nv:16,*u8:16,*fp32:16" -DFAST_MATH=False -emit=mlir | FileCheck %s
# RUN: mgpc %s -k mx --signature "*u8:16,*u8:16,*fp8e4nv:16,*u8:16,*fp32:16" -emit=mlir -DFAST_MATH=True | FileCheck %s --check-prefix=FAST
# RUN: not mgpc %s -k bad_format --signature "*fp16:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=FORMAT
# RUN: not mgpc %s -k e2m1_as_half --signature "*fp16:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: not mgpc %s -k bad_scale --signature "*u8:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=SCALE
# RUN: not mgpc %s -k k_mismatch --signature "*u8:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=KDIM
# RUN: not mgpc %s -k pack_fp8 --signature "*u8:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=PACK
# RUN: mgpc %s -k batched --signature "*bf16:16,*u8:16,*u8:16,*fp32:16" -emit=mlir | FileCheck %s --check-prefix=BATCH
# RUN: not mgpc %s -k batch_mismatch --signature "*bf16:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BMISMATCH
# RUN: not mgpc %s -k batch_scale_2d --signature "*bf16:16,*u8:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BSCALE
# RUN: not mgpc %s -k rank_mismatch --signature "*bf16:16" -emit=mlir 2>&1 | FileCheck %s --check-prefix=BRANK
# REQUIRES: ptxas
# RUN: mgpc %s -k mx --arch=sm_90a --signature "*u8:16,*u8:16,*fp8e4nv:16,*u8:16,*fp32:16" -DFAST_MATH=False -o %t.ptx
# RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
# RUN: FileCheck %s --check-prefix=PTX --input-file %t.ptx
# RUN: mgpc %s -k batched --arch=sm_90a --signature "*bf16:16,*u8:16,*u8:16,*fp32:16" -o %t.batched.ptx
# RUN: %ptxas -arch=sm_90a %t.batched.ptx -o %t.batched.cubin
import triton
import triton.language as tl


@triton.jit
def mx(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, FAST_MATH: tl.constexpr = False):
    r = tl.arange(0, 64)
    a = tl.load(a_ptr + r[:, None] * 32 + tl.arange(0, 32)[None, :])
    sa = tl.load(sa_ptr + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    b = tl.load(b_ptr + r[:, None] * 64 + r[None, :])
    sb = tl.load(sb_ptr + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e4m3", fast_math=FAST_MATH)
    tl.store(c_ptr + r[:, None] * 64 + r[None, :], c)

# CHECK-LABEL: func.func @mx
# The bytes unpacked along K: element k of a row is nibble k % 2 (the low
# one first) of byte k // 2, read by a gather ([64, 32] -> [64, 64] along
# axis 1 for the left operand); then the e2m1 codes: the sign to bit 15, the
# exponent and mantissa bits to the top of bf16's (bits 6-8), which reads
# the code's value times 2^-126 (0.5 a subnormal), times 2^126.
# CHECK-DAG: arith.constant dense<12> : tensor<64x64xi16>
# CHECK-DAG: arith.constant dense<6> : tensor<64x64xi16>
# CHECK-DAG: arith.constant dense<8.5070{{[0-9]*}}e+37> : tensor<64x64xbf16>
# CHECK-NOT: mgp.reshape
# CHECK: mgp.gather {{.*}} {axis = 1 : i32} : (tensor<64x32xi8>, tensor<64x64xi32>) -> tensor<64x64xi8>
# CHECK: arith.shli {{.*}} : tensor<64x64xi16>
# CHECK: arith.shli {{.*}} : tensor<64x64xi16>
# CHECK: arith.bitcast {{.*}} : tensor<64x64xi16> to tensor<64x64xbf16>
# CHECK: arith.mulf {{.*}} : tensor<64x64xbf16>
# The e8m0 scale bytes spread along K by a gather of byte k // 32, each
# shifted into the exponent of a bf16; NaN where the byte is 0xFF. The right
# operand's scales [64, 2] are transposed first and gathered along axis 0,
# straight into its [K, N] orientation.
# CHECK: mgp.gather {{.*}} {axis = 1 : i32} : (tensor<64x2xi8>, tensor<64x64xi32>) -> tensor<64x64xi8>
# CHECK: arith.shli {{.*}} : tensor<64x64xi16>
# CHECK: arith.bitcast {{.*}} : tensor<64x64xi16> to tensor<64x64xbf16>
# CHECK: arith.cmpi eq, {{.*}} : tensor<64x64xi8>
# CHECK: arith.mulf {{.*}} : tensor<64x64xbf16>
# CHECK: arith.select {{.*}} : tensor<64x64xi1>, tensor<64x64xbf16>
# CHECK: arith.extf {{.*}} : tensor<64x64xf8E4M3FN> to tensor<64x64xf16>
# CHECK: mgp.trans {{.*}} : tensor<64x2xi8> -> tensor<2x64xi8>
# CHECK: mgp.gather {{.*}} {axis = 0 : i32} : (tensor<2x64xi8>, tensor<64x64xi32>) -> tensor<64x64xi8>
# CHECK-NOT: mgp.reshape
# CHECK: mgp.dot {{.*}} : tensor<64x64xbf16> * tensor<64x64xbf16> -> tensor<64x64xf32>
# FAST-LABEL: func.func @mx
# FAST-NOT: arith.select {{.*}} tensor<64x64xbf16>
# FAST: mgp.dot
# PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16


@triton.jit
def bad_format(p):
    x = tl.load(p + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot_scaled(x, None, "mxfp4", x, None, "fp16")
# FORMAT: dot-scaled.py:[[@LINE-1]]:32: error: dot_scaled formats are "e2m1", "e4m3", "e5m2", "bf16" or "fp16", got string 'mxfp4'


@triton.jit
def e2m1_as_half(p):
    x = tl.load(p + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot_scaled(x, None, "e2m1", x, None, "fp16")
# DTYPE: dot-scaled.py:[[@LINE-1]]:23: error: a dot_scaled operand of format "e2m1" must be a 2-D block of uint8 (two e2m1 values a byte), got


@triton.jit
def bad_scale(p):
    x = tl.load(p + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    s = tl.load(p + tl.arange(0, 32)[:, None] * 4 + tl.arange(0, 4)[None, :])
    c = tl.dot_scaled(x, s, "e4m3", x, None, "e4m3")
# SCALE: dot-scaled.py:[[@LINE-1]]:26: error: lhs_scale must be None or a [32, 1] block of uint8 (e8m0, one scale per 32 elements of K) or [32, 2] of float8e4nv (one per 16), got


@triton.jit
def k_mismatch(p):
    x = tl.load(p + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot_scaled(x, None, "e2m1", x, None, "e4m3")
# KDIM: dot-scaled.py:[[@LINE-1]]:9: error: dot_scaled: the operands hold 64 and 32 elements along K (e2m1 packs two a byte)


@triton.jit
def pack_fp8(p):
    x = tl.load(p + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    c = tl.dot_scaled(x, None, "e4m3", x, None, "e4m3", lhs_k_pack=False)
# PACK: dot-scaled.py:[[@LINE-1]]:68: error: only e2m1 (mxfp4) operands can be packed along a dimension other than K


@triton.jit
def batched(x_ptr, w_ptr, s_ptr, c_ptr):
    # [2, 32, 64] bf16 times [2, 32, 32] bytes (two e2m1 along K) with
    # [2, 32, 2] scales: a batch of two 32x64 @ 64x32 products.
    b = tl.arange(0, 2)[:, None, None]
    r = tl.arange(0, 32)
    x = tl.load(x_ptr + b * 2048 + r[None, :, None] * 64 + tl.arange(0, 64)[None, None, :])
    w = tl.load(w_ptr + b * 1024 + r[None, :, None] * 32 + r[None, None, :])
    s = tl.load(s_ptr + b * 64 + r[None, :, None] * 2 + tl.arange(0, 2)[None, None, :])
    c = tl.dot_scaled(x, None, "bf16", w, s, "e2m1")
    tl.store(c_ptr + b * 1024 + r[None, :, None] * 32 + r[None, None, :], c)
# The bytes gathered along K (axis 1 of [B, K / 2, N]); the scales
# [B, N, K / 32] permuted to [B, K / 32, N] and gathered along axis 1; one
# dot per batch.
# BATCH-LABEL: func.func @batched
# BATCH: mgp.gather {{.*}} {axis = 1 : i32} : (tensor<2x32x32xi8>, tensor<2x64x32xi32>) -> tensor<2x64x32xi8>
# BATCH: mgp.trans {{.*}} {order = array<i32: 0, 2, 1>} : tensor<2x32x2xi8> -> tensor<2x2x32xi8>
# BATCH: mgp.gather {{.*}} {axis = 1 : i32} : (tensor<2x2x32xi8>, tensor<2x64x32xi32>) -> tensor<2x64x32xi8>
# BATCH-COUNT-2: mgp.dot {{.*}} : tensor<32x64xbf16> * tensor<64x32xbf16> -> tensor<32x32xf32>


@triton.jit
def batch_mismatch(p):
    o = tl.arange(0, 16)
    x = tl.load(p + o[:, None, None] * 256 + o[None, :, None] * 16 + o[None, None, :])
    y = tl.load(p + tl.arange(0, 2)[:, None, None] * 256 + o[None, :, None] * 16 + o[None, None, :])
    c = tl.dot_scaled(x, None, "bf16", y, None, "bf16")
# BMISMATCH: dot-scaled.py:[[@LINE-1]]:40: error: a batched dot_scaled needs the same batch on both sides: the lhs has 16, the rhs 2


@triton.jit
def batch_scale_2d(p, q):
    o = tl.arange(0, 32)
    x = tl.load(p + tl.arange(0, 2)[:, None, None] * 1024 + o[None, :, None] * 32 + o[None, None, :])
    s = tl.load(q + o[:, None] + tl.arange(0, 1)[None, :])
    c = tl.dot_scaled(x, s, "bf16", x, None, "bf16")
# BSCALE: dot-scaled.py:[[@LINE-1]]:26: error: lhs_scale must be None or a [2, 32, 1] block of uint8 (e8m0, one scale per 32 elements of K) or [2, 32, 2] of float8e4nv (one per 16), got


@triton.jit
def rank_mismatch(p):
    o = tl.arange(0, 16)
    x = tl.load(p + o[:, None, None] * 256 + o[None, :, None] * 16 + o[None, None, :])
    y = tl.load(p + o[:, None] * 16 + o[None, :])
    c = tl.dot_scaled(x, None, "bf16", y, None, "bf16")
# BRANK: dot-scaled.py:[[@LINE-1]]:40: error: a dot_scaled operand of format "bf16" must be a 3-D block of bfloat16 or uint16 (as the lhs), got
