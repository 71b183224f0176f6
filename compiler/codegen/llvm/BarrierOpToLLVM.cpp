//===- BarrierOpToLLVM.cpp - CTA barriers ---------------------------------===//
//
// This file implements the lowering of mgp.barrier (placed by the GPU
// passes' barrier analysis) to the target's CTA barrier, and the shared
// memory addressing helpers every shared-memory user calls.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

namespace {

struct BarrierOpConversion : TargetConversionPattern<BarrierOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mgp::populateBarrierOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          const TargetInfo &target) {
  patterns.add<BarrierOpConversion>(converter, target);
}

std::optional<int64_t> mgp::getAllocationOffset(Operation *op) {
  if (auto offset = op->getAttrOfType<IntegerAttr>("mgp.allocation.offset"))
    return offset.getInt();
  op->emitError("needs shared memory but has no 'mgp.allocation.offset' "
                "(run the GPU passes first)");
  return std::nullopt;
}

Value mgp::getSharedPointer(OpBuilder &b, Location loc,
                            const TargetInfo &target, Operation *op,
                            int64_t offset) {
  Value base = target.getSharedMemoryBase(b, loc, op);
  if (offset == 0)
    return base;
  return LLVM::GEPOp::create(
      b, loc, base.getType(), b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
}
