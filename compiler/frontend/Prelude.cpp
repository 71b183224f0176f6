//===- Prelude.cpp - builtins written in the kernel language --------------===//
//
// This file implements the prelude: the builtins that Triton itself writes
// as @jit code in triton/language (the Philox random numbers of random.py
// and swizzle2d and softmax of standard.py), written anew in mgp's kernel
// language from the algorithms' definitions, so they compile and run like any
// helper and give Triton's numbers; and the body of tl.dot_scaled (checked
// in BuiltinsDot.cpp, then _mx_dot_scaled), Triton's decomposition of a
// microscaled dot for GPUs without scaled mma: each operand upcast to
// bf16 (fp16 when either format is fp16), multiplied by its scale, NaN where
// the scale is NaN, then a bf16/fp16 dot accumulating in fp32. MLIRGen parses it on first use
// (MLIRGenPrelude) into the compilation's SourceMgr as `<mgp-prelude>`.
//
// Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC'11): per round (c0, c1, c2, c3) -> (hi(B*c2) ^ c1 ^ k0, lo(B*c2),
// hi(A*c0) ^ c3 ^ k1, lo(A*c0)), then the key (k0, k1) grows by the Weyl
// constants. The counters and keys are unsigned (uint32, or uint64), as
// Triton's randint returns them; the constants are written as the signed
// literals with the same bits (a literal takes the unsigned block's type),
// since a 64-bit one does not fit an int64 literal otherwise.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Prelude.h"

using namespace mgp;

static const char kPrelude[] = R"py(
import triton
import triton.language as tl


@triton.jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = 10):
    if c0.dtype.primitive_bitwidth == 32:
        KEY_A: tl.constexpr = -1640531527  # 0x9E3779B9
        KEY_B: tl.constexpr = -1150833019  # 0xBB67AE85
        ROUND_A: tl.constexpr = -766435501  # 0xD2511F53
        ROUND_B: tl.constexpr = -845247145  # 0xCD9E8D57
    else:
        KEY_A: tl.constexpr = -7046029254386353131  # 0x9E3779B97F4A7C15
        KEY_B: tl.constexpr = -4942790177534073029  # 0xBB67AE8584CAA73B
        ROUND_A: tl.constexpr = -3249679429022286701  # 0xD2E7470EE14C6C93
        ROUND_B: tl.constexpr = -3865529101497140143  # 0xCA5A826395121157
    for _ in tl.static_range(n_rounds):
        prev_c0 = c0
        prev_c2 = c2
        c0 = tl.umulhi(ROUND_B, prev_c2) ^ c1 ^ k0
        c2 = tl.umulhi(ROUND_A, prev_c0) ^ c3 ^ k1
        c1 = prev_c2 * ROUND_B
        c3 = prev_c0 * ROUND_A
        k0 = k0 + KEY_A
        k1 = k1 + KEY_B
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = 10):
    seed = tl.cast(seed, tl.uint64)
    if c0.dtype.primitive_bitwidth == 32:
        word: tl.constexpr = tl.uint32
        seed_hi = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
        seed_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
    else:
        word: tl.constexpr = tl.uint64
        seed_hi = seed * 0
        seed_lo = seed
    return philox_impl(c0.to(word, bitcast=True), c1.to(word, bitcast=True),
                       c2.to(word, bitcast=True), c3.to(word, bitcast=True),
                       seed_lo, seed_hi, n_rounds)


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = 10):
    offset_lo = offset.to(tl.uint32)
    zero = offset_lo * 0
    if offset.dtype.primitive_bitwidth > 32:
        offset_hi = (offset >> 32).to(tl.uint32)
    else:
        offset_hi = zero
    return philox(seed, offset_lo, offset_hi, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = 10):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    return r0


@triton.jit
def uint_to_uniform_float(x):
    if x.dtype.primitive_bitwidth == 32:
        x = x.to(tl.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        x = x.to(tl.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = tl.where(x < 0, ~x, x)
    return x * scale


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = 10):
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@triton.jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = 10):
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    return (uint_to_uniform_float(i1), uint_to_uniform_float(i2),
            uint_to_uniform_float(i3), uint_to_uniform_float(i4))


@triton.jit
def pair_uniform_to_normal(u1, u2):
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = 10):
    i1, i2, i3, i4 = randint4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(uint_to_uniform_float(i1),
                                    uint_to_uniform_float(i2))
    return n1


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = 10):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4


@triton.jit
def swizzle2d(i, j, size_i, size_j, size_g):
    # Row-major (i, j) -> grouped order: groups of size_g rows.
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = tl.minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j


@triton.jit
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    if dim is None:
        axis: tl.constexpr = 0
    else:
        axis: tl.constexpr = dim
    z = x - tl.max(x, axis, keep_dims=keep_dims)
    num = tl.exp(z)
    den = tl.sum(num, axis, keep_dims=keep_dims)
    return tl.fdiv(num, den, ieee_rounding)


@triton.jit
def _mx_e2m1_to(x, COMPUTE: tl.constexpr):
    # e2m1 codes (uint8, 0..15: sign, 2 exponent bits, 1 mantissa bit) to
    # bf16 / fp16, exactly: the sign to bit 15 and the exponent and mantissa
    # bits to the top of the target's, which reads the code's value times
    # 2^-126 (bf16; 2^-14 for fp16), subnormal for 0.5; one multiply by the
    # power of two restores it.
    sign = (x & 8).to(tl.uint16) << 12
    if COMPUTE == tl.bfloat16:
        bits = sign | ((x & 7).to(tl.uint16) << 6)
        return bits.to(tl.bfloat16, bitcast=True) * 8.507059173023462e37
    else:
        bits = sign | ((x & 7).to(tl.uint16) << 9)
        return bits.to(tl.float16, bitcast=True) * 16384.0


@triton.jit
def _mx_unpack_e2m1(v, COMPUTE: tl.constexpr, AXIS: tl.constexpr):
    # Two e2m1 values per byte along AXIS of the matrix (0: its rows, 1: its
    # columns; the last two dims of a batched block), the low nibble first:
    # element i is nibble i % 2 of byte i // 2, gathered (each thread reads
    # the bytes its elements need, in the layout the dot operand wants).
    if len(v.shape) == 2:
        R: tl.constexpr = v.shape[0]
        C: tl.constexpr = v.shape[1]
        if AXIS == 0:
            i = tl.broadcast_to(tl.arange(0, 2 * R)[:, None], (2 * R, C))
        else:
            i = tl.broadcast_to(tl.arange(0, 2 * C)[None, :], (R, 2 * C))
    else:
        B: tl.constexpr = v.shape[0]
        R: tl.constexpr = v.shape[1]
        C: tl.constexpr = v.shape[2]
        if AXIS == 0:
            i = tl.broadcast_to(tl.arange(0, 2 * R)[None, :, None], (B, 2 * R, C))
        else:
            i = tl.broadcast_to(tl.arange(0, 2 * C)[None, None, :], (B, R, 2 * C))
    byte = tl.gather(v, i // 2, AXIS + len(v.shape) - 2)
    return _mx_e2m1_to(tl.where(i % 2 == 0, byte & 0xF, byte >> 4), COMPUTE)


@triton.jit
def _mx_spread(s, GROUP: tl.constexpr, TRANSPOSED: tl.constexpr):
    # [R, G] scales -> [R, G * GROUP], each over its group of GROUP along K
    # ([G * GROUP, R] when TRANSPOSED), gathered; [B, R, G] likewise per
    # batch.
    if len(s.shape) == 2:
        R: tl.constexpr = s.shape[0]
        G: tl.constexpr = s.shape[1]
        if TRANSPOSED:
            group = tl.broadcast_to(tl.arange(0, G * GROUP)[:, None] // GROUP, (G * GROUP, R))
            return tl.gather(tl.trans(s), group, 0)
        else:
            group = tl.broadcast_to(tl.arange(0, G * GROUP)[None, :] // GROUP, (R, G * GROUP))
            return tl.gather(s, group, 1)
    else:
        B: tl.constexpr = s.shape[0]
        R: tl.constexpr = s.shape[1]
        G: tl.constexpr = s.shape[2]
        if TRANSPOSED:
            group = tl.broadcast_to(tl.arange(0, G * GROUP)[None, :, None] // GROUP,
                                    (B, G * GROUP, R))
            return tl.gather(tl.permute(s, (0, 2, 1)), group, 1)
        else:
            group = tl.broadcast_to(tl.arange(0, G * GROUP)[None, None, :] // GROUP,
                                    (B, R, G * GROUP))
            return tl.gather(s, group, 2)


@triton.jit
def _mx_operand(v, scale, FMT: tl.constexpr, COMPUTE: tl.constexpr, IS_RHS: tl.constexpr,
                K_PACK: tl.constexpr, FAST_MATH: tl.constexpr):
    # One operand of dot_scaled as Triton decomposes it without native scaled
    # mma: upcast to the compute type, times the scale (e8m0 bits as a power
    # of two, or an fp8 scale), NaN where the scale is NaN (an e8m0 0xFF
    # unless fast math). The scales are spread along K (the rhs's straight
    # into its [K, N] orientation) after they are decoded.
    if FMT == "e2m1":
        if IS_RHS:
            x = _mx_unpack_e2m1(v, COMPUTE, 0 if K_PACK else 1)
        else:
            x = _mx_unpack_e2m1(v, COMPUTE, 1 if K_PACK else 0)
    else:
        if FMT == "e4m3":
            if v.dtype != tl.float8e4nv:
                v = v.to(tl.float8e4nv, bitcast=True)
        elif FMT == "e5m2":
            if v.dtype != tl.float8e5:
                v = v.to(tl.float8e5, bitcast=True)
        elif FMT == "bf16":
            if v.dtype != tl.bfloat16:
                v = v.to(tl.bfloat16, bitcast=True)
        else:
            if v.dtype != tl.float16:
                v = v.to(tl.float16, bitcast=True)
        x = v.to(COMPUTE)
    if scale is not None:
        if scale.dtype == tl.float8e4nv:
            bits = _mx_spread(scale.to(tl.uint8, bitcast=True), 16, IS_RHS)
            s = bits.to(tl.float8e4nv, bitcast=True).to(COMPUTE)
            bad = s != s
        else:
            if scale.dtype != tl.uint8:
                scale = scale.to(tl.uint8, bitcast=True)
            bits = _mx_spread(scale, 32, IS_RHS)
            if COMPUTE == tl.bfloat16:
                s = (bits.to(tl.uint16) << 7).to(tl.bfloat16, bitcast=True)
            else:
                s = (bits.to(tl.uint32) << 23).to(tl.float32, bitcast=True).to(tl.float16)
            bad = bits == 0xFF
        x = x * s
        if not FAST_MATH:
            x = tl.where(bad, float("nan"), x).to(COMPUTE)
    return x


@triton.jit
def _mx_dot_scaled(lhs, lhs_scale, rhs, rhs_scale, acc, LHS_FMT: tl.constexpr,
                   RHS_FMT: tl.constexpr, COMPUTE: tl.constexpr, FAST_MATH: tl.constexpr,
                   LHS_K_PACK: tl.constexpr, RHS_K_PACK: tl.constexpr, OUT: tl.constexpr):
    a = _mx_operand(lhs, lhs_scale, LHS_FMT, COMPUTE, False, LHS_K_PACK, FAST_MATH)
    b = _mx_operand(rhs, rhs_scale, RHS_FMT, COMPUTE, True, RHS_K_PACK, FAST_MATH)
    if acc is None:
        return tl.dot(a, b).to(OUT)
    else:
        return tl.dot(a, b, acc.to(tl.float32)).to(OUT)
)py";

llvm::StringRef mgp::getPreludeSource() { return kPrelude; }

bool mgp::isPreludeFunction(llvm::StringRef name) {
  return llvm::is_contained({"philox_impl", "philox", "randint4x", "randint",
                             "uint_to_uniform_float", "rand", "rand4x",
                             "pair_uniform_to_normal", "randn", "randn4x",
                             "swizzle2d", "softmax"},
                            name);
}
