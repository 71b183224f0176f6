//===- MLIRGenFp8E4B15.cpp - Triton's float8e4b15 -------------------------===//
//
// This file implements Triton's float8e4b15 (sign, 4 exponent bits with bias
// 15, 3 mantissa bits; no infinities or NaN), converted as Triton's CUDA
// backend converts it (triton/language/extra/cuda/utils.py), in integer
// arithmetic on the bits:
//  - to fp16: the sign and the seven other bits shifted into fp16's fields
//    (the exponent bias is fp16's, so subnormals map onto subnormals); other
//    types convert from that fp16;
//  - from fp16: the magnitude clamped to 1.75 (0x3F00; infinities and NaN
//    too), doubled, plus 0x80 (round half away from zero), its high byte
//    with the sign; fp32 first becomes fp16 rounding toward zero (NaN the
//    canonical 0x7FFF, as PTX's cvt makes it), other types go through fp32.
// While a kernel is generated the type is MLIR's f8E4M3B11FNUZ (SemaTypes.h:
// MLIR has no bias-15 float); eraseFp8E4B15 then puts i8 in its place, so
// the passes after the front end see bytes.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mgp;
using namespace mgp::detail;
namespace arith = mlir::arith;

namespace {
/// Integer constants of one element type and shape.
struct Bits {
  Generator &g;
  mlir::Type type;
  llvm::ArrayRef<int64_t> shape;
  mlir::Location l;

  mlir::Value operator()(int64_t value) const {
    return g.materializeSplat(SemaValue::getInt(value), type, shape, l);
  }
};
} // namespace

mlir::Value Generator::castFromFp8E4B15(mlir::Value v, mlir::Location l) {
  llvm::ArrayRef<int64_t> shape = getShapeOf(v.getType());
  mlir::Type i8 = withShape(builder.getI8Type(), shape);
  mlir::Type i16 = withShape(builder.getI16Type(), shape);
  Bits c{*this, builder.getI16Type(), shape, l};
  mlir::Value byte = arith::ExtUIOp::create(
      builder, l, i16, arith::BitcastOp::create(builder, l, i8, v));
  mlir::Value sign = arith::ShLIOp::create(
      builder, l, arith::AndIOp::create(builder, l, byte, c(0x80)), c(8));
  mlir::Value rest = arith::ShLIOp::create(
      builder, l, arith::AndIOp::create(builder, l, byte, c(0x7F)), c(7));
  mlir::Value half = arith::OrIOp::create(builder, l, sign, rest);
  return arith::BitcastOp::create(builder, l,
                                  withShape(builder.getF16Type(), shape), half);
}

mlir::Value Generator::castToFp8E4B15(mlir::Value v, mlir::Location l) {
  llvm::ArrayRef<int64_t> shape = getShapeOf(v.getType());
  mlir::Type from = getElementType(v.getType());
  mlir::Type f16 = withShape(builder.getF16Type(), shape);
  mlir::Type i16 = withShape(builder.getI16Type(), shape);
  mlir::Type i32 = withShape(builder.getI32Type(), shape);
  Bits c16{*this, builder.getI16Type(), shape, l};
  Bits c32{*this, builder.getI32Type(), shape, l};
  if (!from.isF16() && !from.isF32())
    v = castTo(v, builder.getF32Type(), l);
  mlir::Value half = v;
  if (!from.isF16()) {
    // fp32 -> fp16 toward zero: the nearest fp16, one step nearer zero when
    // it is farther from zero than the value (its magnitude larger).
    half = arith::TruncFOp::create(builder, l, f16, v);
    mlir::Value back = arith::ExtFOp::create(
        builder, l, withShape(builder.getF32Type(), shape), half);
    auto magnitude = [&](mlir::Value f) {
      return arith::AndIOp::create(builder, l,
                                   arith::BitcastOp::create(builder, l, i32, f),
                                   c32(0x7FFFFFFF));
    };
    mlir::Value farther = arith::CmpIOp::create(
        builder, l, arith::CmpIPredicate::ugt, magnitude(back), magnitude(v));
    mlir::Value bits = arith::BitcastOp::create(builder, l, i16, half);
    mlir::Value nearer = arith::SubIOp::create(builder, l, bits, c16(1));
    bits = arith::SelectOp::create(builder, l, farther, nearer, bits);
    // NaN becomes the GPU's canonical fp16 NaN (0x7FFF, positive), as PTX's
    // cvt gives it whatever the sign.
    mlir::Value isNaN =
        arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNO, v, v);
    bits = arith::SelectOp::create(builder, l, isNaN, c16(0x7FFF), bits);
    half = arith::BitcastOp::create(builder, l, f16, bits);
  }
  mlir::Value bits = arith::BitcastOp::create(builder, l, i16, half);
  mlir::Value sign = arith::AndIOp::create(builder, l, bits, c16(0x8000));
  // |x| as bits, at most 1.75: on non-negative halves the integer order is
  // the float order, and NaN's bits are above 0x3F00 like infinity's.
  mlir::Value magnitude = arith::MinUIOp::create(
      builder, l, arith::AndIOp::create(builder, l, bits, c16(0x7FFF)),
      c16(0x3F00));
  mlir::Value rounded = arith::AddIOp::create(
      builder, l, arith::ShLIOp::create(builder, l, magnitude, c16(1)),
      c16(0x80));
  mlir::Value high = arith::ShRUIOp::create(
      builder, l, arith::OrIOp::create(builder, l, sign, rounded), c16(8));
  mlir::Value byte = arith::TruncIOp::create(
      builder, l, withShape(builder.getI8Type(), shape), high);
  return arith::BitcastOp::create(
      builder, l, withShape(getFp8E4B15Type(&context), shape), byte);
}

void mgp::eraseFp8E4B15(mlir::Operation *root) {
  mlir::MLIRContext *ctx = root->getContext();
  mlir::Type i8 = mlir::IntegerType::get(ctx, 8);
  mlir::AttrTypeReplacer replacer;
  replacer.addReplacement([&](mlir::Type t) -> std::optional<mlir::Type> {
    if (isFp8E4B15(t))
      return i8;
    return std::nullopt;
  });
  // Constants keep their bits.
  replacer.addReplacement(
      [&](mlir::FloatAttr a) -> std::optional<mlir::Attribute> {
        if (!isFp8E4B15(a.getType()))
          return std::nullopt;
        return mlir::IntegerAttr::get(i8, a.getValue().bitcastToAPInt());
      });
  replacer.addReplacement(
      [&](mlir::DenseElementsAttr a) -> std::optional<mlir::Attribute> {
        if (!isFp8E4B15(a.getElementType()))
          return std::nullopt;
        return a.bitcast(i8);
      });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  // Bitcasts between float8e4b15 and i8 are now i8 to i8.
  root->walk([](arith::BitcastOp cast) {
    if (cast.getIn().getType() == cast.getType()) {
      cast.replaceAllUsesWith(cast.getIn());
      cast.erase();
    }
  });
}
