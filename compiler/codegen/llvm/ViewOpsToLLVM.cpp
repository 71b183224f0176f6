//===- ViewOpsToLLVM.cpp - ops that only rearrange registers --------------===//
//
// This file implements the lowering of mgp.splat, broadcast, expand_dims,
// reshape and trans (when every thread already holds what it needs, found by
// findRegisterMapping; otherwise the GPU passes must insert convert_layout),
// mgp.hint (the identity) and mgp.addptr (a GEP per register).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

namespace {

struct SplatOpConversion : ConvertOpToLLVMPattern<SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    unsigned count = getRegisterCount(cast<RankedTensorType>(op.getType()));
    SmallVector<Value> registers(count, adaptor.getSrc());
    rewriter.replaceOp(
        op, packRegisters(rewriter, op.getLoc(), structType, registers));
    return success();
  }
};

/// Shared lowering of the register-permuting view ops: result register i is
/// source register mapping[i], where `resultToSource` maps coordinates.
LogicalResult lowerAsRegisterPermutation(Operation *op, Value source,
                                         Value convertedSource,
                                         const TypeConverter &converter,
                                         ConversionPatternRewriter &rewriter,
                                         CoordMap resultToSource) {
  auto srcType = cast<RankedTensorType>(source.getType());
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  Type structType = converter.convertType(dstType);
  if (!structType)
    return rewriter.notifyMatchFailure(op, "tensor without a layout");
  std::optional<SmallVector<unsigned>> mapping =
      findRegisterMapping(srcType, dstType, resultToSource);
  if (!mapping)
    return op->emitError("layouts of source and result need data movement "
                         "between threads (a convert_layout is missing)");
  Location loc = op->getLoc();
  SmallVector<Value> srcRegisters =
      unpackRegisters(rewriter, loc, convertedSource);
  SmallVector<Value> registers;
  for (unsigned srcReg : *mapping)
    registers.push_back(srcRegisters[srcReg]);
  rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
  return success();
}

struct BroadcastOpConversion : ConvertOpToLLVMPattern<BroadcastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> srcShape =
        cast<RankedTensorType>(op.getSrc().getType()).getShape();
    return lowerAsRegisterPermutation(
        op, op.getSrc(), adaptor.getSrc(), *getTypeConverter(), rewriter,
        [&](ArrayRef<int64_t> coords) {
          SmallVector<int64_t> src(coords);
          for (auto [d, size] : llvm::enumerate(srcShape))
            if (size == 1)
              src[d] = 0;
          return src;
        });
  }
};

struct ExpandDimsOpConversion : ConvertOpToLLVMPattern<ExpandDimsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned axis = op.getAxis();
    return lowerAsRegisterPermutation(op, op.getSrc(), adaptor.getSrc(),
                                      *getTypeConverter(), rewriter,
                                      [&](ArrayRef<int64_t> coords) {
                                        SmallVector<int64_t> src(coords);
                                        src.erase(src.begin() + axis);
                                        return src;
                                      });
  }
};

struct ReshapeOpConversion : ConvertOpToLLVMPattern<ReshapeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> srcShape =
        cast<RankedTensorType>(op.getSrc().getType()).getShape();
    ArrayRef<int64_t> dstShape =
        cast<RankedTensorType>(op.getType()).getShape();
    return lowerAsRegisterPermutation(
        op, op.getSrc(), adaptor.getSrc(), *getTypeConverter(), rewriter,
        [&](ArrayRef<int64_t> coords) {
          int64_t linear = 0;
          for (auto [c, size] : llvm::zip(coords, dstShape))
            linear = linear * size + c;
          SmallVector<int64_t> src(srcShape.size());
          for (int d = srcShape.size() - 1; d >= 0; --d) {
            src[d] = linear % srcShape[d];
            linear /= srcShape[d];
          }
          return src;
        });
  }
};

struct TransOpConversion : ConvertOpToLLVMPattern<TransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int32_t> order = op.getOrder();
    return lowerAsRegisterPermutation(
        op, op.getSrc(), adaptor.getSrc(), *getTypeConverter(), rewriter,
        [&](ArrayRef<int64_t> coords) {
          SmallVector<int64_t> src(coords.size());
          for (auto [i, dim] : llvm::enumerate(order))
            src[dim] = coords[i];
          return src;
        });
  }
};

struct HintOpConversion : ConvertOpToLLVMPattern<HintOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(HintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct AddPtrOpConversion : ConvertOpToLLVMPattern<AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Type pointee = mlir::getElementTypeOrSelf(getPointeeLikeType(op.getType()));
    Type elementType = getTypeConverter()->convertType(pointee);
    SmallVector<Value> pointers =
        unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offsets =
        unpackRegisters(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> results;
    for (auto [pointer, offset] : llvm::zip(pointers, offsets))
      results.push_back(LLVM::GEPOp::create(rewriter, loc, pointer.getType(),
                                            elementType, pointer, offset));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, results));
    return success();
  }
};

} // namespace

void mgp::populateViewOpsToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<SplatOpConversion, BroadcastOpConversion, ExpandDimsOpConversion,
               ReshapeOpConversion, TransOpConversion, HintOpConversion,
               AddPtrOpConversion>(converter, kMgpPatternBenefit);
}
