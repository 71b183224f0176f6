//===- LayoutConversionPatterns.cpp - canonical forms of converts ---------===//
//
// This file implements the patterns of LayoutConversionPatterns.h.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/LayoutConversionPatterns.h"
#include "compiler/codegen/gpu/TensorEncoding.h"
#include "compiler/ir/Layout.h"

using namespace mlir;
using namespace mgp;

TypedAttr mgp::getSplatIn(arith::ConstantOp constant, RankedTensorType type) {
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || !dense.isSplat())
    return {};
  return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
}

namespace {

/// Folds a convert into its source when the source is free to produce in
/// any layout, or is itself a convert.
struct FoldConvert : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Value src = convert.getSrc();
    auto type = cast<RankedTensorType>(convert.getType());
    if (src.getType() == type) {
      rewriter.replaceOp(convert, src);
      return success();
    }
    Operation *def = src.getDefiningOp();
    if (!def)
      return failure();
    if (auto inner = dyn_cast<ConvertLayoutOp>(def)) {
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(convert, type,
                                                   inner.getSrc());
      return success();
    }
    if (auto splat = dyn_cast<SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<SplatOp>(convert, type, splat.getSrc());
      return success();
    }
    if (isa<MakeRangeOp>(def)) {
      Operation *clone = rewriter.clone(*def);
      clone->getResult(0).setType(type);
      rewriter.replaceOp(convert, clone->getResults());
      return success();
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(def))
      if (TypedAttr value = getSplatIn(constant, type)) {
        rewriter.replaceOpWithNewOp<arith::ConstantOp>(convert, type, value);
        return success();
      }
    return failure();
  }
};

/// reduce(convert(x)) -> convert(reduce(x)): reducing in the source layout
/// moves fewer elements (the result is smaller by the reduced extent).
struct SinkConvertBelowReduce : public OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    Attribute srcEncoding;
    SmallVector<Value> sources;
    for (Value operand : reduce.getSrcs()) {
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      if (!convert)
        return failure();
      Attribute encoding =
          cast<RankedTensorType>(convert.getSrc().getType()).getEncoding();
      if (!isa<BlockedEncodingAttr, SliceEncodingAttr>(encoding) ||
          (srcEncoding && srcEncoding != encoding))
        return failure();
      srcEncoding = encoding;
      sources.push_back(convert.getSrc());
    }
    Operation *clone = rewriter.clone(*reduce);
    clone->setOperands(sources);
    SmallVector<Value> results;
    for (auto [oldResult, newResult] :
         llvm::zip(reduce.getResults(), clone->getResults())) {
      auto type = dyn_cast<RankedTensorType>(oldResult.getType());
      if (!type) {
        results.push_back(newResult);
        continue;
      }
      newResult.setType(withEncoding(
          type, SliceEncodingAttr::get(getContext(), reduce.getAxis(),
                                       srcEncoding)));
      results.push_back(
          ConvertLayoutOp::create(rewriter, reduce.getLoc(), type, newResult));
    }
    rewriter.replaceOp(reduce, results);
    return success();
  }
};

/// trans(convert(x)) -> convert(trans(x)) for blocked layouts: the
/// transpose is a register relabelling in any blocked layout, so x is
/// transposed where it is and the convert moves on to the result's users
/// (e.g. a transposed tile staged into a dot operand: one trip through
/// shared memory instead of two).
struct TransposeBeforeConvert : public OpRewritePattern<TransOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransOp trans,
                                PatternRewriter &rewriter) const override {
    auto convert = trans.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (!convert)
      return failure();
    auto srcType = cast<RankedTensorType>(convert.getSrc().getType());
    auto blocked = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
    if (!blocked)
      return failure();
    auto type = cast<RankedTensorType>(trans.getType());
    auto transposed = TransOp::create(
        rewriter, trans.getLoc(),
        withEncoding(type, getTransposedEncoding(blocked, trans.getOrder())),
        convert.getSrc(), trans.getOrderAttr());
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(trans, type, transposed);
    return success();
  }
};

/// A gather reads its source through shared memory in any layout, and its
/// result is laid out as its indices: gather(convert(x), i) reads x, and
/// gather(x, convert(i)) becomes convert(gather(x, i)), which the patterns
/// above fold into the result's users (the indices' load and the result's
/// store usually want the same layout).
struct GatherInAnyLayout : public OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp gather,
                                PatternRewriter &rewriter) const override {
    auto isBlocked = [](Value value) {
      return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(
          cast<RankedTensorType>(value.getType()).getEncoding());
    };
    auto convert = gather.getSrc().getDefiningOp<ConvertLayoutOp>();
    if (convert && isBlocked(convert.getSrc())) {
      rewriter.modifyOpInPlace(
          gather, [&] { gather.getSrcMutable().assign(convert.getSrc()); });
      return success();
    }
    convert = gather.getIndices().getDefiningOp<ConvertLayoutOp>();
    if (!convert || !isBlocked(convert.getSrc()))
      return failure();
    Value indices = convert.getSrc();
    auto encoding = cast<RankedTensorType>(indices.getType()).getEncoding();
    auto type = cast<RankedTensorType>(gather.getType());
    auto moved = GatherOp::create(rewriter, gather.getLoc(),
                                  withEncoding(type, encoding), gather.getSrc(),
                                  indices, gather.getAxisAttr());
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(gather, type, moved);
    return success();
  }
};

} // namespace

void mgp::populateLayoutConversionPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldConvert, SinkConvertBelowReduce, GatherInAnyLayout,
               TransposeBeforeConvert>(patterns.getContext());
}
