//===- Combine.cpp - the mgp-combine peephole patterns --------------------===//
//
// This file implements the mgp-combine pass: select over a masked load folds
// into the load's `other`, a dot with a zero accumulator followed by an add
// takes the addend as accumulator, chained addptrs merge, and shape ops of a
// splat become a splat.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/ZeroConstant.h"
#include "compiler/transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mgp {
#define GEN_PASS_DEF_MGPCOMBINE
#include "compiler/transforms/Passes.h.inc"
} // namespace mgp

using namespace mlir;
using namespace mgp;

namespace {

/// select(%m, load(%p, %m[, %o']), %o) -> load(%p, %m, %o).
struct SelectOfMaskedLoad : public OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    auto load = select.getTrueValue().getDefiningOp<LoadOp>();
    if (!load || !load.getMask() || load.getMask() != select.getCondition() ||
        !load->hasOneUse())
      return failure();
    Value other = select.getFalseValue();
    if (other.getType() != load.getType())
      return failure();
    // The load stays where it is (memory order), so `other` must dominate it.
    DominanceInfo dominance(load->getParentOp());
    if (!dominance.properlyDominates(other, load))
      return failure();
    rewriter.setInsertionPoint(load);
    auto combined = LoadOp::create(rewriter, load.getLoc(), load.getPtr(),
                                   load.getMask(), other);
    combined->setDiscardableAttrs(load->getDiscardableAttrDictionary());
    rewriter.replaceOp(select, combined.getResult());
    rewriter.eraseOp(load);
    return success();
  }
};

/// add(dot(%a, %b, 0), %c) -> dot(%a, %b, %c), for arith.addf and arith.addi.
template <typename AddOp>
struct DotPlusAddend : public OpRewritePattern<AddOp> {
  using OpRewritePattern<AddOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp add,
                                PatternRewriter &rewriter) const override {
    for (int side = 0; side < 2; ++side) {
      Value lhs = add->getOperand(side), rhs = add->getOperand(1 - side);
      auto dot = lhs.template getDefiningOp<DotOp>();
      if (!dot || !dot->hasOneUse() || !isZeroConstant(dot.getC()) ||
          rhs.getType() != dot.getType())
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(add, dot.getA(), dot.getB(), rhs,
                                         dot.getInputPrecision());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};

/// addptr(addptr(%p, %a), %b) -> addptr(%p, %a + %b) when %a and %b have one
/// type.
struct AddPtrOfAddPtr : public OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddPtrOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || inner.getOffset().getType() != outer.getOffset().getType())
      return failure();
    Value sum = arith::AddIOp::create(rewriter, outer.getLoc(),
                                      inner.getOffset(), outer.getOffset());
    rewriter.replaceOpWithNewOp<AddPtrOp>(outer, outer.getType(),
                                          inner.getPtr(), sum);
    return success();
  }
};

/// shape_op(splat %x) -> splat %x for broadcast, expand_dims, reshape and
/// convert_layout (every element of the result is still %x).
template <typename ShapeOp>
struct ShapeOfSplat : public OpRewritePattern<ShapeOp> {
  using OpRewritePattern<ShapeOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

struct MgpCombinePass : public mgp::impl::MgpCombineBase<MgpCombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCombinePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mgp::populateCombinePatterns(RewritePatternSet &patterns) {
  patterns.add<SelectOfMaskedLoad, DotPlusAddend<arith::AddFOp>,
               DotPlusAddend<arith::AddIOp>, AddPtrOfAddPtr,
               ShapeOfSplat<BroadcastOp>, ShapeOfSplat<ExpandDimsOp>,
               ShapeOfSplat<ReshapeOp>, ShapeOfSplat<ConvertLayoutOp>>(
      patterns.getContext());
}
