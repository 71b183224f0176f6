//===- Fp8ConvertOpToLLVM.cpp - conversions to and from fp8 ---------------===//
//
// This file implements the lowering of arith.extf / arith.truncf to or from
// float8e4nv (e4m3) and float8e5 (e5m2), register by register. From sm_89
// on, PTX's packed cvt does them: `cvt.rn.f16x2.e4m3x2` widens (exactly),
// `cvt.rn.satfinite.e4m3x2.f32` / `.f16x2` narrows, rounding to nearest
// even and saturating to the largest finite value, NaN to NaN (Triton's
// fp_to_fp); the value travels in the low half of each pair. Older GPUs have
// no fp8 instructions: e5m2 shares fp16's exponent, so widening is a shift
// of the byte into an fp16 and narrowing rounds the low bits away in
// integer arithmetic with the same rounding and saturation (from f32
// directly, not through fp16, which would round twice). e4m3 there is an
// error (the front end reports it first, as Triton does).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Fp8ConvertOpToLLVM.h"
#include "compiler/codegen/llvm/RegisterStruct.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mgp;

namespace {

bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// The first compute capability with PTX's fp8 cvt (with PTX ISA 8.1 on
/// sm_89, see PTXEmitter.cpp).
constexpr int kFp8CvtCapability = 89;

/// `from` (f16, f32, bf16 or f64) as f32 or f16: what the conversions to
/// fp8 start from (bf16 and f64 through f32).
Value toHalfOrSingle(OpBuilder &b, Location loc, Value v, Type from) {
  if (from.isF16() || from.isF32())
    return v;
  Type f32 = b.getF32Type();
  if (from.getIntOrFloatBitWidth() > 32)
    return LLVM::FPTruncOp::create(b, loc, f32, v);
  return LLVM::FPExtOp::create(b, loc, f32, v);
}

/// PTX's packed cvt (sm_89+).
Value convertWithCvt(OpBuilder &b, Location loc, Value v, Type from,
                     Type to) {
  auto inlineAsm = [&](Type result, StringRef text, StringRef constraints,
                       ValueRange operands) {
    return LLVM::InlineAsmOp::create(
               b, loc, result, operands, text, constraints,
               /*has_side_effects=*/false, /*is_align_stack=*/false,
               LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
               ArrayAttr())
        .getResult(0);
  };
  std::string fp8 =
      isa<Float8E4M3FNType>(isFp8(from) ? from : to) ? "e4m3x2" : "e5m2x2";
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  if (isFp8(from)) {
    // fp8 (an i8 register) -> f16 -> `to`.
    Value packed = LLVM::ZExtOp::create(b, loc, i16, v);
    Value halfBits = inlineAsm(i16,
                               "{ .reg .b32 t; .reg .b16 hi; cvt.rn.f16x2." +
                                   fp8 + " t, $1; mov.b32 {$0, hi}, t; }",
                               "=h,h", packed);
    Value half = LLVM::BitcastOp::create(b, loc, b.getF16Type(), halfBits);
    if (to.isF16())
      return half;
    return LLVM::FPExtOp::create(b, loc, to, half);
  }
  Value src = toHalfOrSingle(b, loc, v, from);
  Value bits;
  if (src.getType().isF16()) {
    Value halfBits = LLVM::BitcastOp::create(b, loc, i16, src);
    Value pair = LLVM::ZExtOp::create(b, loc, i32, halfBits);
    bits = inlineAsm(i16, "cvt.rn.satfinite." + fp8 + ".f16x2 $0, $1;", "=h,r",
                     pair);
  } else {
    Value zero = LLVM::ConstantOp::create(b, loc, b.getF32Type(),
                                          b.getF32FloatAttr(0.0f));
    bits = inlineAsm(i16, "cvt.rn.satfinite." + fp8 + ".f32 $0, $1, $2;",
                     "=h,f,f", ValueRange{zero, src});
  }
  return LLVM::TruncOp::create(b, loc, b.getI8Type(), bits);
}

/// e5m2 without fp8 instructions: the byte is the top of an fp16.
Value convertE5M2InSoftware(OpBuilder &b, Location loc, Value v, Type from,
                            Type to) {
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  if (isFp8(from)) {
    Value wide = LLVM::ZExtOp::create(b, loc, i16, v);
    Value shifted = LLVM::ShlOp::create(
        b, loc, wide,
        LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8)));
    Value half = LLVM::BitcastOp::create(b, loc, b.getF16Type(), shifted);
    if (to.isF16())
      return half;
    return LLVM::FPExtOp::create(b, loc, to, half);
  }
  using Pred = LLVM::ICmpPredicate;
  auto cmp = [&](Pred p, Value x, int64_t c) {
    return LLVM::ICmpOp::create(b, loc, p, x, i32Constant(b, loc, c));
  };
  auto select = [&](Value c, Value x, Value y) {
    return LLVM::SelectOp::create(b, loc, c, x, y);
  };
  auto add = [&](Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); };
  auto andC = [&](Value x, int64_t c) {
    return LLVM::AndOp::create(b, loc, x, i32Constant(b, loc, c));
  };
  auto lshr = [&](Value x, int64_t c) {
    return LLVM::LShrOp::create(b, loc, x, i32Constant(b, loc, c));
  };
  // Rounds `mag` to nearest even at bit `shift` and shifts it down.
  auto roundShift = [&](Value mag, int64_t shift) {
    Value odd = andC(lshr(mag, shift), 1);
    return lshr(add(add(mag, i32Constant(b, loc, (int64_t(1) << (shift - 1)) - 1)),
                    odd),
                shift);
  };
  Value src = toHalfOrSingle(b, loc, v, from);
  Value sign, mag, isNaN, code;
  if (src.getType().isF16()) {
    Value h = LLVM::ZExtOp::create(
        b, loc, i32, LLVM::BitcastOp::create(b, loc, i16, src));
    sign = lshr(andC(h, 0x8000), 8);
    mag = andC(h, 0x7FFF);
    isNaN = cmp(Pred::ugt, mag, 0x7C00);
    // fp16 exponents are e5m2's: rounding the 8 low bits away is the
    // conversion, subnormals included (a carry moves into the exponent).
    code = roundShift(mag, 8);
  } else {
    Value f = LLVM::BitcastOp::create(b, loc, i32, src);
    sign = andC(lshr(f, 24), 0x80);
    mag = andC(f, 0x7FFFFFFF);
    isNaN = cmp(Pred::ugt, mag, 0x7F800000);
    // From 2^-14 (e5m2's smallest normal) up: re-biased exponent (127 ->
    // 15) and two mantissa bits, rounded at bit 21.
    Value normal =
        LLVM::SubOp::create(b, loc, roundShift(mag, 21),
                            i32Constant(b, loc, (127 - 15) << 2));
    // Below it: the subnormal code m of m * 2^-16 is |x| * 2^16 rounded to
    // nearest even (exact in f32), 4 when it reaches the smallest normal.
    Type f32 = b.getF32Type();
    Value abs = LLVM::BitcastOp::create(b, loc, f32, mag);
    Value scaled = LLVM::FMulOp::create(
        b, loc, abs,
        LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(65536.0f)));
    Value rounded = LLVM::RoundEvenOp::create(b, loc, f32, scaled);
    Value sub = LLVM::FPToUIOp::create(b, loc, i32, rounded);
    code = select(cmp(Pred::uge, mag, 0x38800000), normal, sub);
  }
  // Saturate to the largest finite value (57344, 0x7B), infinities too;
  // NaN stays NaN.
  Value largest = i32Constant(b, loc, 0x7B);
  code = select(cmp(Pred::ugt, code, 0x7B), largest, code);
  code = LLVM::OrOp::create(b, loc, code, sign);
  code = select(isNaN, i32Constant(b, loc, 0x7F), code);
  return LLVM::TruncOp::create(b, loc, b.getI8Type(), code);
}

/// arith.extf / arith.truncf to or from an fp8 type, on scalars or tensors.
struct Fp8ConvertOpConversion : ConversionPattern {
  Fp8ConvertOpConversion(MgpLLVMTypeConverter &converter, MLIRContext *ctx,
                         int computeCapability)
      : ConversionPattern(converter, MatchAnyOpTypeTag(),
                          kMgpPatternBenefit + 1, ctx),
        computeCapability(computeCapability) {}

  int computeCapability;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
      return failure();
    Type from = getElementTypeOrSelf(op->getOperand(0).getType());
    Type to = getElementTypeOrSelf(op->getResult(0).getType());
    if (!isFp8(from) && !isFp8(to))
      return failure();
    bool hardware = computeCapability >= kFp8CvtCapability;
    if (!hardware && isa<Float8E4M3FNType>(isFp8(from) ? from : to))
      return op->emitError("float8e4nv needs sm_89 or newer (compiling for "
                           "compute capability ")
             << computeCapability << ")";
    Location loc = op->getLoc();
    SmallVector<Value> results;
    for (Value r : unpackRegisters(rewriter, loc, operands[0]))
      results.push_back(hardware
                            ? convertWithCvt(rewriter, loc, r, from, to)
                            : convertE5M2InSoftware(rewriter, loc, r, from, to));
    return replaceWithRegisters(op, results,
                                *getTypeConverter<MgpLLVMTypeConverter>(),
                                rewriter);
  }
};

} // namespace

void mgp::populateFp8ConvertOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             int computeCapability) {
  patterns.add<Fp8ConvertOpConversion>(converter, patterns.getContext(),
                                       computeCapability);
}
