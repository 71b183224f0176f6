//===- DotOpToLLVM.cpp - mgp.dot on the FMA path --------------------------===//
//
// This file implements the lowering of mgp.dot whose operands are
// `#mgp.dot_op` of a blocked parent (the FMA path): each thread holds its
// accumulator sub-tile (parent layout) and, for A, its parent rows over all
// of K, for B its parent columns over all of K; every accumulator register
// (m, n) becomes a chain of K fused multiply-adds in fp32 (f16/bf16 operands
// are extended first), or of integer multiply-adds in int32 (int8 operands
// sign-extended first). Correct for every legal shape because the register of
// each (m, k) and (k, n) is found through the layout, not assumed.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mgp;

namespace {

struct DotOpConversion : ConvertOpToLLVMPattern<DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    Type structType = getTypeConverter()->convertType(cType);
    if (!structType || aType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "needs 2-D tensors with layouts");
    if (isa<MmaEncodingAttr>(cType.getEncoding()))
      return rewriter.notifyMatchFailure(op, "an mma accumulator (mma.sync "
                                             "lowering, MmaDotOpToLLVM.cpp)");
    auto aEncoding = dyn_cast<DotOperandEncodingAttr>(aType.getEncoding());
    auto bEncoding = dyn_cast<DotOperandEncodingAttr>(bType.getEncoding());
    if (!aEncoding || !bEncoding ||
        !isa<BlockedEncodingAttr>(cType.getEncoding()))
      return op->emitError(
          "the FMA lowering needs dot_op operands of a blocked "
          "accumulator");
    int64_t k = aType.getShape()[1];

    // The A row / B column a thread needs must sit in its own registers for
    // every lane and warp: A(m, kk) with the accumulator's m, B(kk, n) with n.
    auto accTable =
        getElementCoords(cType.getEncoding(), cType.getShape(), 0, 0);
    auto aTable = getLane0RegisterTable(aType), bTable = getLane0RegisterTable(bType);
    SmallVector<Value> aRegs = unpackRegisters(rewriter, loc, adaptor.getA());
    SmallVector<Value> bRegs = unpackRegisters(rewriter, loc, adaptor.getB());
    SmallVector<Value> accRegs = unpackRegisters(rewriter, loc, adaptor.getC());
    if (failed(checkOperandsFollowAccumulator(op, aType, bType, cType)))
      return failure();

    Type accType = accRegs.front().getType();
    bool isFloat = isa<FloatType>(accType);
    // f16/bf16 operands extend to the fp32 accumulator, int8 ones (signed
    // bytes, mgp.dot's int8 semantics) sign-extend to int32.
    auto extend = [&](Value v) -> Value {
      if (v.getType() == accType)
        return v;
      if (!isFloat)
        return LLVM::SExtOp::create(rewriter, loc, accType, v);
      return LLVM::FPExtOp::create(rewriter, loc, accType, v);
    };
    SmallVector<Value> results;
    for (auto [reg, coords] : llvm::enumerate(accTable)) {
      Value acc = accRegs[reg];
      for (int64_t kk = 0; kk < k; ++kk) {
        if (!aTable.count({coords[0], kk}) || !bTable.count({kk, coords[1]}))
          return op->emitError("a thread does not hold the A row or B column "
                               "of its accumulator");
        Value a = extend(aRegs[aTable.lookup({coords[0], kk})]);
        Value b = extend(bRegs[bTable.lookup({kk, coords[1]})]);
        if (isFloat) {
          acc = LLVM::FMAOp::create(rewriter, loc, a, b, acc);
        } else {
          Value product = LLVM::MulOp::create(rewriter, loc, a, b);
          acc = LLVM::AddOp::create(rewriter, loc, acc, product);
        }
      }
      results.push_back(acc);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, results));
    return success();
  }

  /// Every (lane, warp) must hold A(m, 0..K) for each of its accumulator rows
  /// m and B(0..K, n) for each column n, in the registers found at lane 0.
  static LogicalResult checkOperandsFollowAccumulator(DotOp op,
                                                      RankedTensorType aType,
                                                      RankedTensorType bType,
                                                      RankedTensorType cType) {
    unsigned lanes = getNumLanes(cType.getEncoding());
    unsigned warps = getNumWarps(cType.getEncoding());
    LayoutBases aBases = getLayoutBases(aType.getEncoding(), aType.getShape());
    LayoutBases bBases = getLayoutBases(bType.getEncoding(), bType.getShape());
    LayoutBases cBases = getLayoutBases(cType.getEncoding(), cType.getShape());
    auto aAtZero = aBases.elementCoords(0, 0);
    auto bAtZero = bBases.elementCoords(0, 0);
    auto cAtZero = cBases.elementCoords(0, 0);
    for (unsigned warp = 0; warp < warps; ++warp) {
      for (unsigned lane = 0; lane < lanes; ++lane) {
        auto a = aBases.elementCoords(lane, warp);
        auto b = bBases.elementCoords(lane, warp);
        auto c = cBases.elementCoords(lane, warp);
        // Row shift of this thread relative to thread 0, and column shift.
        int64_t dm = c[0][0] - cAtZero[0][0], dn = c[0][1] - cAtZero[0][1];
        for (unsigned reg = 0; reg < a.size(); ++reg)
          if (a[reg][1] != aAtZero[reg][1] ||
              a[reg][0] != ((aAtZero[reg][0] + dm) & (aType.getShape()[0] - 1)))
            return op->emitError("operand A's layout does not follow the "
                                 "accumulator's rows");
        for (unsigned reg = 0; reg < b.size(); ++reg)
          if (b[reg][0] != bAtZero[reg][0] ||
              b[reg][1] != ((bAtZero[reg][1] + dn) & (bType.getShape()[1] - 1)))
            return op->emitError("operand B's layout does not follow the "
                                 "accumulator's columns");
      }
    }
    return success();
  }
};

} // namespace

void mgp::populateDotOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<DotOpConversion>(converter, kMgpPatternBenefit);
  populateMmaDotOpToLLVMPatterns(converter, patterns);
}
