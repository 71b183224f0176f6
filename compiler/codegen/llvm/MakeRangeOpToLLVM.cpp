//===- MakeRangeOpToLLVM.cpp - mgp.make_range -----------------------------===//
//
// This file implements the lowering of mgp.make_range: register i holds
// start + (its coordinate), the coordinate coming from the layout.
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

struct MakeRangeOpConversion : TargetConversionPattern<MakeRangeOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Value lane = target.getLaneId(rewriter, loc);
    Value warp = target.getWarpId(rewriter, loc);
    Value start = i32Constant(rewriter, loc, op.getStart());
    SmallVector<Value> registers;
    for (SmallVector<Value> &coords :
         emitElementIndices(rewriter, loc, type, lane, warp))
      registers.push_back(LLVM::AddOp::create(rewriter, loc, start, coords[0]));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

} // namespace

void mgp::populateMakeRangeOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const TargetInfo &target) {
  patterns.add<MakeRangeOpConversion>(converter, target);
}
