//===- ConvertLayoutOpToLLVM.cpp - mgp.convert_layout ---------------------===//
//
// This file implements the lowering of mgp.convert_layout. When every thread
// already holds the elements it needs, the conversion is a register
// permutation. Otherwise it goes through the op's shared scratch buffer at
// `mgp.allocation.offset`: every thread stores all its registers at their
// element offsets (one owner per element), a barrier, then every thread loads
// the elements of the new layout. The scratch layout (row-major, rows padded)
// is SharedScratch.h's; it holds the whole tensor, so one round suffices.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/SharedAccess.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

namespace {

/// The scratch element index of `coords`, as ConvertScratchLayout::getOffset.
Value emitScratchOffset(OpBuilder &b, Location loc, ValueRange coords,
                        const ConvertScratchLayout &layout) {
  ArrayRef<int64_t> shape = layout.shape;
  Value row = emitLinearOffset(b, loc, coords.drop_back(), shape.drop_back());
  Value rowStart =
      LLVM::MulOp::create(b, loc, row, i32Constant(b, loc, layout.rowStride));
  return LLVM::AddOp::create(b, loc, rowStart, coords.back());
}

struct ConvertLayoutOpConversion : ConvertOpToLLVMPattern<ConvertLayoutOp> {
  ConvertLayoutOpConversion(MgpLLVMTypeConverter &converter,
                            const TargetInfo &target)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit), target(target) {}

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(dstType);
    if (!structType || !getTypeConverter()->convertType(srcType))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, loc, adaptor.getSrc());

    auto identity = [](ArrayRef<int64_t> coords) {
      return SmallVector<int64_t>(coords);
    };
    if (std::optional<SmallVector<unsigned>> mapping =
            findRegisterMapping(srcType, dstType, identity)) {
      SmallVector<Value> registers;
      for (unsigned reg : *mapping)
        registers.push_back(srcRegisters[reg]);
      rewriter.replaceOp(op,
                         packRegisters(rewriter, loc, structType, registers));
      return success();
    }

    // Through the scratch, which SharedScratch.h sizes for the whole tensor
    // (one round). Its bytes are free again once the op has run: the barrier
    // pass counts the op as a write and a read of them.
    std::optional<int64_t> offset = getAllocationOffset(op);
    if (!offset)
      return failure();
    Value base = getSharedPointer(rewriter, loc, target, op, *offset);
    ConvertScratchLayout layout = getConvertScratchLayout(srcType, dstType);
    auto offsetOf = [&](OpBuilder &b, ValueRange coords) {
      return emitScratchOffset(b, loc, coords, layout);
    };
    emitSharedStores(rewriter, loc, target, srcType, srcRegisters, base,
                     offsetOf);
    target.barrier(rewriter, loc);
    SmallVector<Value> registers =
        emitSharedLoads(rewriter, loc, target, dstType,
                        srcRegisters.front().getType(), base, offsetOf);
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }

  const TargetInfo &target;
};

} // namespace

void mgp::populateConvertLayoutOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                const TargetInfo &target) {
  patterns.add<ConvertLayoutOpConversion>(converter, target);
}
